#!/usr/bin/env bash
# The overlap tables of docs/nonblocking.md: overlap-bench for iallreduce,
# ialltoall and ialltoallv at 2 ranks under Open MPI, without and with
# colibri's progress thread, colibri and the native MPI_I* side by side in
# each run.  Output: docs/data/nonblocking/<coll>-thread-<off|on>.txt
set -eu
cd "$(dirname "$0")/../.."
make -s build/bin/overlap-bench
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=docs/data/nonblocking
mkdir -p "$out"
for coll in iallreduce ialltoall ialltoallv; do
  for thread in 0 1; do
    name=$out/$coll-thread-$([ "$thread" = 1 ] && echo on || echo off).txt
    { echo "# $(date -u +%FT%TZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)";
      COLIBRI_PROGRESS_THREAD=$thread mpirun -n 2 build/bin/overlap-bench -c "$coll" -m 8 -M 16777216 -s 8 "$@"; } > "$name"
    cat "$name"
  done
done
