#!/usr/bin/env bash
# Reductions on one node against the memory system's limit (issue #27's
# benchmark): allreduce, reduce and reduce_scatter_block, 16 B to 16 MiB
# by x4, 2 ranks, each MPI's own call against colibri preloaded with no
# tuning file (bench_mpis.sh: alternating runs, medians of run-by-run
# ratios), and beside each size the memory-traffic bound of this machine
# from kernel-bench's memcpy and reduction times measured in the same run
# (bench/report/limit_table.py says how the bound is formed).  Run it in a
# session of its own at autogroup nice -20 (DEVELOPERS.md):
#
#   setsid bash -c 'echo -20 >/proc/self/autogroup; exec "$@"' bash \
#       bench/scripts/bench_node_limit.sh
#   MPIS="impi ompi5" RUNS=3 ...      fewer MPIs or runs
#
# Output in docs/results/node-limit/ (OUT=): bound.csv, mpis.csv, runs.log,
# tables.md and limit.png (with matplotlib).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-docs/results/node-limit}
mkdir -p "$OUT"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx
make -s -j2 build/bin/kernel-bench || exit 1
# the rates of this machine, now: memcpy and SUM double, 4 B to 16 MiB by x2
build/bin/kernel-bench -m 4 -M 16M -s 2 -R 15 -o "$OUT/bound.csv" >/dev/null || exit 1
OUT=$OUT MPIS=${MPIS:-"impi ompi5 openmpi mpich"} RUNS=${RUNS:-5} \
  COLLS="allreduce reduce reduce_scatter_block" SIZES="-m 16 -M 16M -s 4" \
  bash bench/scripts/bench_mpis.sh >/dev/null || exit 1
python3 bench/report/limit_table.py "$OUT/mpis.csv" "$OUT/bound.csv" --plot "$OUT/limit.png" |
  tee "$OUT/tables.md"
