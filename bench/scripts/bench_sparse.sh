#!/usr/bin/env bash
# Density sweep of the sparse allreduce or reduce (bench/sparse_bench.c)
# under SimGrid SMPI.  See docs/sparse.md.  Each run's rows go into
# docs/results/sparse/sparse.csv (OUT= another folder) as run
# [reduce-]smpi-p<P>-<comm|compute>[-TAG] or [reduce-]real-p<P>[-TAG],
# replacing that run's earlier rows; runs.log says what ran.
#
#   P=64 MAX=4M bench/scripts/bench_sparse.sh
#   COLL=reduce ...  MPI_Reduce (root 0) instead of MPI_Allreduce; the CSV's
#                   name starts with "reduce-"
#   TAG=8M-64M ...   appended to the CSV's name (a partial sweep)
#   REPS=5 ...       each cell the fastest of 5 measurements (real processes)
#   COMPUTE=1 ...   time local computation too, 1:1 with this machine's CPU
#                   (smpi/host-speed set to the platform's 100 Gflop/s);
#                   otherwise only communication is simulated (deterministic).
#   PLATFORM=platforms/cluster-1024-ddr.xml ...  another SMPI platform (give
#                   the CSV a TAG, and colibri the platform's COLIBRI_COST_MODEL)
#   REAL=1 P=2 ...  real processes under Open MPI on this machine instead
#                   (run [reduce-]real-p<P>; wall-clock, noisy).
set -euo pipefail
cd "$(dirname "$0")/../.."
P=${P:-64}
MIN=${MIN:-8K}
MAX=${MAX:-4M}
DENS=${DENS:-1,0.1,0.01,0.001,0.0001}
ITERS=${ITERS:-2}
REPS=${REPS:-1}
COLL=${COLL:-allreduce}
OUT=${OUT:-docs/results/sparse}
RUNS=${RUNS:-build/bench-runs/sparse}
PLATFORM=${PLATFORM:-platforms/cluster-1024.xml}
prefix=; [ "$COLL" = allreduce ] || prefix=$COLL-
suffix=${TAG:+-$TAG}
source bench/scripts/common.sh
mkdir -p "$OUT" "$RUNS"
bytes() { numfmt --from=iec "$1"; }
# done RUN PIECE COMMAND...: the piece merged into the study's CSV, logged.
done_run() {
  local run=$1 piece=$2; shift 2
  merge_run "$OUT/sparse.csv" "$run" "$piece"
  runs_log "$run: $*"
  echo "wrote run $run into $OUT/sparse.csv"
}
if [ -n "${REAL:-}" ]; then
  make -j2 build/bin/sparse-bench >/dev/null
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx
  run=${prefix}real-p$P$suffix
  cmd=(mpirun --oversubscribe -n "$P" build/bin/sparse-bench -c "$COLL" -R "$REPS" -m "$(bytes "$MIN")"
       -M "$(bytes "$MAX")" -d "$DENS" -i "$ITERS" -o "$RUNS/$run.csv")
  "${cmd[@]}"
  done_run "$run" "$RUNS/$run.csv" "${cmd[*]}"
  exit 0
fi
make -j2 sparse-bench-smpi >/dev/null
if [ -n "${COMPUTE:-}" ]; then
  mode=compute; cfg=(--cfg=smpi/simulate-computation:yes --cfg=smpi/host-speed:100Gf)
  # All ranks share one process heap: their scratch buffers, freed in turn,
  # make glibc give the heap top back to the kernel and fault it in again
  # on the next call, time charged to the ranks' computation (sparse
  # Rabenseifner on dense 1 MiB, 64 ranks: 7.2 ms with it, 1.4 ms without;
  # real processes keep their heap).
  export MALLOC_TRIM_THRESHOLD_=${MALLOC_TRIM_THRESHOLD_:-4000000000}
  export MALLOC_MMAP_THRESHOLD_=${MALLOC_MMAP_THRESHOLD_:-4000000000}
else
  mode=comm; cfg=(--cfg=smpi/simulate-computation:no)
fi
run=${prefix}smpi-p$P-$mode$suffix
cmd=(smpirun -np "$P" -platform "$PLATFORM" -hostfile platforms/hostfile-1024.txt
     --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 --log=root.thres:warning "${cfg[@]}"
     build-smpi/bin/sparse-bench -c "$COLL" -R "$REPS" -m "$(bytes "$MIN")" -M "$(bytes "$MAX")"
     -d "$DENS" -i "$ITERS" -o "$RUNS/$run.csv")
"${cmd[@]}"
done_run "$run" "$RUNS/$run.csv" "${cmd[*]}"
