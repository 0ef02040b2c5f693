#!/usr/bin/env bash
# colibri-bench on real processes of this machine against the MPI below
# ("native"), merged into docs/results/allreduce-real/allreduce-real.csv (OUT=
# another folder) as run real-<mpi>-p<P>[-oversubscribed]; runs.log there
# lists every run with its command; each run's CSV and printed table stay in
# build/bench-runs/allreduce-real/ (RUNS=).
#
#   bench/scripts/bench_real.sh             Open MPI at 2 ranks, then 4 and 8
#                                     ranks oversubscribed, and MPICH at 2
#   PS="2" MPICH=0 bench/scripts/bench_real.sh
#
# On a 2-core machine only p = 2 has a core per rank.  At 4 and 8 ranks the
# processes time-share the cores, so those numbers measure scheduling as much
# as the algorithms: they are labelled "oversubscribed" everywhere and are no
# evidence about a real cluster.  Each point is the fastest of -R repetitions
# of the timed loop, to discount interference from other work on the machine.
set -uo pipefail
cd "$(dirname "$0")/../.."

PS=${PS:-"2 4 8"}
MPICH=${MPICH:-1}
SIZES=${SIZES:-"-m 8 -M 64M -s 4"}
OUT=${OUT:-docs/results/allreduce-real}
RUNS=${RUNS:-build/bench-runs/allreduce-real}
CORES=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI 4.1's AVX op component saturates 8-bit sums (ompi#8045).
export OMPI_MCA_op=^avx

make -j2 build/bin/colibri-bench >/dev/null || { echo "building the Open MPI bench failed"; exit 1; }
source bench/scripts/common.sh
mkdir -p "$OUT" "$RUNS"
failures=0

# bench LABEL LAUNCHER... -- BENCH OPTIONS...
bench() {
  local label=$1; shift
  local launch=()
  while [ "$1" != "--" ]; do launch+=("$1"); shift; done
  shift
  local csv=$RUNS/real-$label.csv start=$SECONDS
  echo "== $label"
  # shellcheck disable=SC2086
  # No -L: this machine's alpha and beta are not modelled, so no bound.
  local cmd=("${launch[@]}" -a all $SIZES -o "$csv.part" "$@")
  if ! "${cmd[@]}" | tee "$RUNS/real-$label.txt" || [ ! -s "$csv.part" ]; then
    failures=$((failures + 1)); echo "FAILED: $label"
    runs_log "real-$label FAILED  ${cmd[*]}"
    return
  fi
  mv "$csv.part" "$csv"
  merge_run "$OUT/allreduce-real.csv" "real-$label" "$csv"
  runs_log "real-$label $((SECONDS - start))s  ${cmd[*]}"
  echo "$label: $((SECONDS - start)) s"
}

for p in $PS; do
  label=openmpi-p$p; iters=()
  if [ "$p" -gt "$CORES" ]; then
    label=$label-oversubscribed; iters=(-i 20 -w 2)
  fi
  bench "$label" mpirun --oversubscribe -n "$p" build/bin/colibri-bench -- -R 3 "${iters[@]}"
done
if [ "$MPICH" = 1 ]; then
  make -j2 MPI=mpich build-mpich/bin/colibri-bench >/dev/null || { echo "building the MPICH bench failed"; exit 1; }
  bench mpich-p2 mpirun.mpich -n 2 build-mpich/bin/colibri-bench -- -R 3
fi
echo "$failures failed runs"
[ $failures -eq 0 ]
