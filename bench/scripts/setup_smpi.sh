#!/usr/bin/env bash
# The SMPI setup benchmark of docs/setup.md: setup-bench (100 communicators,
# their first collective) eager and lazy, one simulation at a time, on the
# 1 us / 100 Gb/s cluster of platforms/cluster-1024.xml with 16 ranks per host.
# Prints setup-bench's line followed by the simulation's wall time and peak
# memory (GNU time), and merges those lines into
# docs/results/setup/setup.csv (OUT= another folder) as run
# smpi-<NP>-<hostfile>-<COLL>[-<N>]; runs.log there says what ran.
#
#   bench/scripts/setup_smpi.sh NP HOSTFILE COLL [N] [MODES]    e.g. 1024 platforms/hostfile-64x16.txt allreduce
#
# SMPI's default MPI_Allgather posts p-1 sends and p-1 receives on every
# rank: p^2 messages, which cannot be simulated at 4096 ranks (100 of them
# took 56 s of wall time at 64 ranks, its O(p^2) messages, with simulated
# times no real MPI reaches).  MPICH's choice (recursive doubling, Bruck or
# ring by size) is what a real library runs, so SMPI's allgather is set to
# it; the layout exchange of eager setup and SMPI's own window creation use
# that allgather.
set -euo pipefail
cd "$(dirname "$0")/../.."
np=$1 hosts=$2 coll=$3 n=${4:-100} modes=${5:-eager lazy}
OUT=${OUT:-docs/results/setup}
RUNS=${RUNS:-build/bench-runs/setup}
source bench/scripts/common.sh
mkdir -p "$OUT" "$RUNS"
run=smpi-$np-$(basename "$hosts" .txt)-$coll$([ "$n" = 100 ] || echo "-$n")
lines=$RUNS/$run.txt
: >"$lines"
for mode in $modes; do
  cmd=(smpirun -np "$np" -platform platforms/cluster-1024.xml -hostfile "$hosts"
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
    --cfg=smpi/allgather:mpich --log=root.thres:warning
    build-smpi/bin/setup-bench "$n" "$coll")
  COLIBRI_SETUP=$mode /usr/bin/time -f "wall_s=%e max_rss_kb=%M" "${cmd[@]}" 2>&1 |
    grep -E '^mode=|wall_s=' | paste -sd' ' | tee -a "$lines"
  runs_log "$run: COLIBRI_SETUP=$mode ${cmd[*]}"
done
# key=value lines -> CSV (the keys of the first line as its header)
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); k[i] = kv[1]; v[i] = kv[2] }
       if (NR == 1) { for (i = 1; i <= NF; i++) printf "%s%s", k[i], i < NF ? "," : "\n" }
       for (i = 1; i <= NF; i++) printf "%s%s", v[i], i < NF ? "," : "\n" }' "$lines" >"$RUNS/$run.csv"
merge_run "$OUT/setup.csv" "$run" "$RUNS/$run.csv"
