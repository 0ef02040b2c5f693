#!/usr/bin/env bash
# colibri with a tuning file of colibri-tune's against the MPI below, as an
# application gets them: build/bin/dropin-bench (plain MPI_* calls, no
# colibri linked) run plain and with LD_PRELOAD=libcolibri.so
# COLIBRI_TUNING=<file>, in alternating runs (plain, colibri, plain, ...),
# for each collective; per size, the median over the runs of each side's
# time and of the run-by-run ratio colibri/native.
#
#   bench/scripts/bench_tune.sh                  Open MPI and MPICH, 2 ranks
#   MPIS=openmpi RUNS=7 BUDGET=10m bench/scripts/bench_tune.sh
#
# The tuning file of each MPI is made first by colibri-tune (--budget
# $BUDGET, default 5m) unless $RUNS_DIR/<mpi>-p2.tuning exists and TUNE=0;
# its run time goes to runs.log.  Output: docs/results/tune/tune.csv (OUT=
# another folder; one row per mpi, collective, size and run), tune-summary.csv
# (the medians), runs.log; pieces in build/bench-runs/tune/ (RUNS_DIR=).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-docs/results/tune}
RUNS_DIR=${RUNS_DIR:-build/bench-runs/tune}
MPIS=${MPIS:-"openmpi mpich"}
RUNS=${RUNS:-5}
BUDGET=${BUDGET:-5m}
TUNE=${TUNE:-1}
COLLS=${COLLS:-"allreduce reduce reduce_scatter_block alltoall alltoallv"}
SIZES=${SIZES:-"-m 8 -M 16M -s 2"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx
unset $(compgen -e | grep '^COLIBRI_')
source bench/scripts/common.sh
mkdir -p "$OUT" "$RUNS_DIR"

for mpi in $MPIS; do
  if [ "$mpi" = mpich ]; then
    build=build-mpich launch=(mpirun.mpich -n 2) make_args=(MPI=mpich)
  else
    build=build launch=(mpirun -n 2) make_args=()
  fi
  make -s -j2 "${make_args[@]}" "$build/lib/libcolibri.so" "$build/bin/colibri-tune" \
    "$build/bin/dropin-bench" || exit 1
  tuning=$RUNS_DIR/$mpi-p2.tuning
  if [ "$TUNE" = 1 ] || [ ! -s "$tuning" ]; then
    echo "== $mpi: colibri-tune --budget $BUDGET"
    start=$(date +%s.%N)
    "${launch[@]}" "$build/bin/colibri-tune" --budget "$BUDGET" -o "$tuning" \
      --csv "$RUNS_DIR/$mpi-p2-candidates.csv" >"$RUNS_DIR/$mpi-p2-tune.txt" \
      2>"$RUNS_DIR/$mpi-p2-tune.err" || { echo "colibri-tune failed"; exit 1; }
    took=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')
    runs_log "tune-$mpi-p2: colibri-tune took ${took} s (wall, mpirun included): ${launch[*]} $build/bin/colibri-tune --budget $BUDGET; $(grep -c -v '^#' "$tuning") lines written"
  fi
  pre=(env LD_PRELOAD="$PWD/$build/lib/libcolibri.so" COLIBRI_TUNING="$tuning")
  piece=$RUNS_DIR/$mpi-pieces.csv
  dropin_alternate "$piece" "$mpi" "$build"
  merge_run "$OUT/tune.csv" "$mpi-p2" "$piece"
  runs_log "$mpi-p2: $RUNS alternating runs per collective of ${launch[*]} [env LD_PRELOAD=$build/lib/libcolibri.so COLIBRI_TUNING=$tuning] $build/bin/dropin-bench -c <coll> $SIZES; load $(cut -d' ' -f1-3 /proc/loadavg)"
  cp "$tuning" "$OUT/$mpi-p2.tuning"
done
python3 bench/report/tune_table.py --update "$OUT/README.md"
