#!/usr/bin/env bash
# colibri on a real multi-core node with Open MPI 5 (issues #27, #28, #29):
# one prepared run for a borrowed 16-core machine, inside a time budget.
# Not part of make test (it needs 16 cores); run by hand where such a node
# is available, with .cache/mpis/ompi5 and build-ompi5/ (bin, lib, tests)
# present:
#
#   OUT=dir bash bench/scripts/device_node.sh
#   NPS="16 8" RUNS=2 BUDGET=400 ...          rank counts, runs, seconds
#
# In order of priority (a step not started within BUDGET seconds is
# skipped, each step has its own timeout, the log is written as it goes):
#  1. the machine: cores, caches, kernel-bench's memcpy and SUM rates (the
#     memory-traffic bound's inputs, as bench_node_limit.sh uses them);
#  2. colibri-bench allreduce, reduce, reduce_scatter_block at each rank
#     count, 16 B to 4 MiB by x4: native, auto and the node-aware and flat
#     candidates side by side at every size (fastest of -R 3 timed loops),
#     no tuning file; run r > 1 lists the candidates in reverse order;
#  3. dropin-bench (plain MPI_* calls) plain and with colibri preloaded,
#     alternating plain/colibri/plain/colibri, for bcast, allgather,
#     barrier, alltoall, scan, gather, allreduce, reduce: what a user gets
#     with no tuning file (online selection included); then the node-aware
#     movement algorithms forced (bcast/barrier node_leader, allgather
#     node_rails);
#  4. test_mixed_progress (seed 132) at the largest rank count: correctness.
# Output under OUT: log.txt (everything, as it runs) and results.tgz (the
# CSVs).  Timing never judges anything here.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/bench-runs/device-node}
NPS=${NPS:-"16 8"}
RUNS=${RUNS:-2}
B=${BUILD:-build-ompi5}
mkdir -p "$OUT/csv"
source bench/scripts/device_lib.sh
lib=$PWD/$B/lib/libcolibri.so
finish() {
  say "== done at $((SECONDS - t0)) s"
  tar -C "$OUT" -czf "$OUT/results.tgz" csv
}
trap finish EXIT

{
  echo "# $(nproc) cores, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $(mpirun --version 2>&1 | head -1)"
  lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|^L1d|^L2|^L3|NUMA node|Socket'
  for i in 0 1 2 3; do
    f=/sys/devices/system/cpu/cpu0/cache/index$i
    [ -r $f/level ] && echo "cpu0 cache index$i: level $(cat $f/level) $(cat $f/size) shared with $(cat $f/shared_cpu_list)"
  done
  df -h /dev/shm | tail -1
} 2>&1 | tee -a "$log"
step kernel-bench 30 "$B/bin/kernel-bench" -m 4K -M 16M -s 4 -R 7 -o "$OUT/csv/bound.csv"

# how mpirun may start the largest rank count here (binding may be refused
# in a sandbox): the first of these that runs a barrier
np_max=$(echo $NPS | tr ' ' '\n' | sort -n | tail -1)
MAP=
for m in "--bind-to core" "--bind-to none" "--oversubscribe --bind-to none"; do
  if step "start $np_max ranks: mpirun $m" 40 mpirun -n "$np_max" $m "$B/bin/dropin-bench" -c barrier -R 1; then
    MAP=$m
    break
  fi
done
[ -n "$MAP" ] || { say "mpirun cannot start $np_max ranks here"; exit 1; }
say "launch: mpirun -n NP $MAP"

# colibri-bench: candidates side by side (C API), run r reversed when even
cands() {
  case $1 in
    reduce_scatter_block) echo native,auto,node_split_rail,recursive_halving,ring ;;
    *) echo native,auto,node_leader,node_split_rail,node_rails ;;
  esac
}
capi() {
  local np=$1 coll=$2 r=$3 algs
  algs=$(cands "$coll")
  [ $((r % 2)) -eq 0 ] && algs=$(echo "$algs" | tr ',' '\n' | tac | paste -sd,)
  step "colibri-bench $coll np=$np run $r" 90 mpirun -n "$np" $MAP -x COLIBRI_TUNING=none \
    "$B/bin/colibri-bench" -c "$coll" -a "$algs" -m 16 -M 4M -s 4 -R 3 \
    -o "$OUT/csv/capi-$coll-np$np-r$r.csv"
}
# dropin-bench plain and preloaded, alternating; then forced algorithms
dropin() {
  local np=$1 coll r
  for coll in bcast allgather barrier alltoall scan gather allreduce reduce; do
    for r in 1 2; do
      step "dropin $coll np=$np native $r" 40 mpirun -n "$np" $MAP "$B/bin/dropin-bench" \
        -c $coll -m 8 -M 1M -s 8 -R 3 -o "$OUT/csv/dropin-$coll-np$np-native-r$r.csv"
      step "dropin $coll np=$np colibri $r" 40 mpirun -n "$np" $MAP -x LD_PRELOAD="$lib" \
        -x COLIBRI_TUNING=none -x COLIBRI_STATS=1 "$B/bin/dropin-bench" \
        -c $coll -m 8 -M 1M -s 8 -R 3 -o "$OUT/csv/dropin-$coll-np$np-colibri-r$r.csv"
    done
  done
  for f in bcast:BCAST:node_leader barrier:BARRIER:node_leader allgather:ALLGATHER:node_rails; do
    IFS=: read -r coll var alg <<<"$f"
    step "dropin $coll np=$np $alg" 40 mpirun -n "$np" $MAP -x LD_PRELOAD="$lib" \
      -x COLIBRI_TUNING=none -x "COLIBRI_${var}_ALGORITHM=$alg" "$B/bin/dropin-bench" \
      -c $coll -m 8 -M 1M -s 8 -R 3 -o "$OUT/csv/dropin-$coll-np$np-$alg-r1.csv"
  done
}

for np in $NPS; do
  for coll in allreduce reduce reduce_scatter_block; do capi "$np" $coll 1; done
done
dropin "$np_max"
for r in $(seq 2 "$RUNS"); do
  for np in $NPS; do
    for coll in allreduce reduce reduce_scatter_block; do capi "$np" $coll "$r"; done
  done
done
step "test_mixed_progress np=$np_max" 60 mpirun -n "$np_max" --oversubscribe -x MIXED_SEED0=132 \
  -x MIXED_WATCHDOG=50 "$B/tests/test_mixed_progress"
for np in $NPS; do [ "$np" = "$np_max" ] || dropin "$np"; done
