#!/usr/bin/env bash
# The overlap tables of docs/nonblocking.md: overlap-bench for iallreduce,
# ialltoall and ialltoallv at 2 ranks under Open MPI, without and with
# colibri's progress thread, colibri and the native MPI_I* side by side in
# each run.  Arguments go to overlap-bench (e.g. -W 10; give such a run a
# TAG).  Output: docs/results/nonblocking/overlap.csv (OUT= another folder),
# run <coll>[-TAG]-thread-<off|on>, and runs.log there; the printed tables
# stay in build/bench-runs/nonblocking/ (RUNS=).
#
#   COLLS="iallreduce" MAX=4096 bench/scripts/bench_overlap.sh -i 5 -R 1
set -eu
cd "$(dirname "$0")/../.."
OUT=${OUT:-docs/results/nonblocking}
RUNS=${RUNS:-build/bench-runs/nonblocking}
COLLS=${COLLS:-iallreduce ialltoall ialltoallv}
MAX=${MAX:-16777216}
source bench/scripts/common.sh
make -s build/bin/overlap-bench
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$OUT" "$RUNS"
for coll in $COLLS; do
  for thread in 0 1; do
    run=$coll${TAG:+-$TAG}-thread-$([ "$thread" = 1 ] && echo on || echo off)
    cmd=(mpirun -n 2 build/bin/overlap-bench -c "$coll" -m 8 -M "$MAX" -s 8 -o "$RUNS/$run.csv" "$@")
    { echo "# $(date -u +%FT%TZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)";
      COLIBRI_PROGRESS_THREAD=$thread "${cmd[@]}"; } > "$RUNS/$run.txt"
    cat "$RUNS/$run.txt"
    merge_run "$OUT/overlap.csv" "$run" "$RUNS/$run.csv"
    runs_log "$run: COLIBRI_PROGRESS_THREAD=$thread ${cmd[*]}"
  done
done
