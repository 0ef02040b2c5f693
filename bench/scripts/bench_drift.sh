#!/usr/bin/env bash
# Counts that drift from call to call (particle counts, adaptive meshes):
# colibri preloaded against the MPI's own collective, side by side in one
# process (dropin-bench -P -D: call i of a loop moves base + (7 i mod
# base/8) elements), no tuning file, 2 ranks, for this checkout's
# libcolibri and, with BEFORE=<git revision>, that revision's, the two in
# alternating runs.  Per MPI, collective, size and library: the median of
# the runs' colibri/native ratios.
#
#   BEFORE=41dcd3f bench/scripts/bench_drift.sh
#   MPIS="ompi5" COLLS="alltoall" RUNS=5 SIZES="-m 64 -M 65536 -s 8" ...
#
# MPIs: those of scripts/install-mpis.sh (ompi5, mpich5, impi; default
# "ompi5 impi"), launched as tests/lib/mpis.bash launches them, Open MPI
# spinning (yield_when_idle=0) as a user's 2 ranks on 2 cores would.
# Output: $OUT (docs/results/drift/) drift.csv (mpi,lib,coll,bytes,
# colibri_us,native_us,ratio,rep) and runs.log; the table printed.  The
# BEFORE revision is built in $RUNS_DIR/before/ (a git worktree).  Timing
# never decides a test: this is a benchmark.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-docs/results/drift}
RUNS_DIR=${RUNS_DIR:-build/bench-runs/drift}
MPIS=${MPIS:-"ompi5 impi"}
RUNS=${RUNS:-3}
COLLS=${COLLS:-"allreduce reduce alltoall alltoallv"}
SIZES=${SIZES:-"-m 64 -M 65536 -s 8"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx OMPI_MCA_osc=^ucx
unset $(compgen -e | grep '^COLIBRI_')
export COLIBRI_MPI_CACHE=${COLIBRI_MPI_CACHE:-$PWD/.cache/mpis}
COLIBRI_MPI_CACHE=$(realpath "$COLIBRI_MPI_CACHE")
source bench/scripts/common.sh
source tests/lib/mpis.bash
mkdir -p "$OUT" "$RUNS_DIR"
csv=$RUNS_DIR/drift.csv
echo "mpi,lib,coll,bytes,colibri_us,native_us,ratio,rep" >"$csv"
before_tree=$RUNS_DIR/before
if [ -n "${BEFORE:-}" ] && [ ! -d "$before_tree" ]; then
  git worktree add -f --detach "$before_tree" "$BEFORE" >/dev/null || exit 1
fi

for mpi in $MPIS; do
  if mpi_missing "$mpi" >/dev/null 2>&1; then echo "== $mpi: not installed, skipped"; continue; fi
  build=$(mpi_build "$mpi")
  read -ra make_args <<<"$(mpi_make_args "$mpi")"
  make -s -j2 "${make_args[@]}" "$build/lib/libcolibri.so" "$build/bin/dropin-bench" || exit 1
  libs=("after=$PWD/$build/lib/libcolibri.so")
  if [ -n "${BEFORE:-}" ]; then
    make -s -j2 -C "$before_tree" "${make_args[@]}" "$build/lib/libcolibri.so" || exit 1
    libs=("before=$PWD/$before_tree/$build/lib/libcolibri.so" "${libs[@]}")
  fi
  mpi_launch "$mpi" 2
  launch=("${LAUNCH[@]/OMPI_MCA_mpi_yield_when_idle=1/OMPI_MCA_mpi_yield_when_idle=0}")
  for r in $(seq "$RUNS"); do
    for coll in $COLLS; do
      for l in "${libs[@]}"; do
        name=${l%%=*} lib=${l#*=}
        case $mpi in
          impi | mpich5) pre=(-genv LD_PRELOAD "$lib" -genv COLIBRI_TUNING none) ;;
          *) pre=(-x LD_PRELOAD="$lib" -x COLIBRI_TUNING=none) ;;
        esac
        # shellcheck disable=SC2086
        "${launch[@]}" "${pre[@]}" "$build/bin/dropin-bench" -P -D -c "$coll" $SIZES \
          -o "$RUNS_DIR/c.csv" >/dev/null || { echo "run failed: $mpi $coll $name"; exit 1; }
        tail -n +2 "$RUNS_DIR/c.csv" |
          awk -F, -v m="$mpi" -v n="$name" -v r="$r" \
            '{ printf "%s,%s,%s,%s,%s,%s,%.4f,%d\n", m, n, $1, $2, $3, $4, $3 / $4, r }' >>"$csv"
      done
    done
  done
  runs_log "drift-$mpi-p2: $RUNS alternating runs of ${launch[*]} [LD_PRELOAD, COLIBRI_TUNING=none] $build/bin/dropin-bench -P -D -c <coll> $SIZES; libs ${libs[*]%%=*}${BEFORE:+ (before: $BEFORE)}; load $(cut -d' ' -f1-3 /proc/loadavg)"
done
merge_run "$OUT/drift.csv" "drift" "$csv"
python3 bench/report/drift_table.py "$OUT/drift.csv"
