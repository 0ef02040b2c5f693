#!/usr/bin/env bash
# Node-aware reductions on a real multi-core node with Open MPI 5 (issue
# #27): colibri-bench's allreduce and reduce at 8 and 16 ranks, native
# against auto, node_leader and node_split_rail side by side in each run
# (each point the fastest of -R 5 repetitions of the timed loop), 8 B to
# 4 MiB, RUNS runs alternating the order of the candidates; then one
# stress run per rank count (test_mixed_progress, seed 132) as a
# correctness check.  Not part of make test (it needs 16 cores); run by
# hand where such a node is available, with .cache/mpis/ompi5 and
# build-ompi5/ (bin and tests) present:
#   bash bench/scripts/device_node.sh [RUNS] [OUT]      (NPS="8 16": rank counts)
set -u
cd "$(dirname "$0")/../.."
RUNS=${1:-2}
OUT=${2:-${OUT:-build/bench-runs/device-node}}
mkdir -p "$OUT"
V=$PWD/.cache/mpis/ompi5
export PATH="$V/bin:$PATH" OPAL_PREFIX="$V" LD_LIBRARY_PATH="$V/lib:${LD_LIBRARY_PATH:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_osc=^ucx
{
  echo "# $(nproc) cores, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $("$V/bin/mpirun" --version 2>&1 | head -1)"
  lscpu | grep -E 'Model name|^L1d|^L2|^L3|NUMA node\(s\)|Socket'
  for i in 0 1 2 3; do
    f=/sys/devices/system/cpu/cpu0/cache/index$i
    [ -r $f/level ] && echo "cpu0 cache index$i: level $(cat $f/level) $(cat $f/size) shared with $(cat $f/shared_cpu_list)"
  done
} | tee "$OUT/machine.txt"
for np in ${NPS:-8 16}; do
  for coll in allreduce reduce; do
    for r in $(seq "$RUNS"); do
      if [ $((r % 2)) -eq 1 ]; then algs=native,auto,node_leader,node_split_rail; else algs=node_split_rail,node_leader,auto,native; fi
      timeout 240 mpirun -n $np --bind-to core -x COLIBRI_TUNING=none build-ompi5/bin/colibri-bench \
        -c $coll -a $algs -m 8 -M 4M -s 8 -R 5 -o "$OUT/$coll-np$np-r$r.csv" 2>&1 |
        grep -v '^ *$' | tee "$OUT/$coll-np$np-r$r.txt"
    done
  done
  timeout 150 mpirun -n $np --oversubscribe -x MIXED_SEED0=132 -x MIXED_WATCHDOG=100 \
    build-ompi5/tests/test_mixed_progress 2>&1 | grep -E 'passed|FAIL|WATCHDOG' | head -5 |
    sed "s/^/mixed np=$np: /" | tee -a "$OUT/mixed.txt"
done
