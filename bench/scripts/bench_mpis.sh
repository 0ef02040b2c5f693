#!/usr/bin/env bash
# colibri against the native collectives of every MPI installed here, as a
# new user gets them: no tuning file (COLIBRI_TUNING=none), 2 ranks,
# build-<mpi>/bin/dropin-bench (plain MPI_* calls, no colibri linked) run
# plain and with colibri preloaded, in alternating runs (plain, colibri,
# plain, ...); per size, the median over the runs of each side's time and
# of the run-by-run ratio colibri/native (issue #26's benchmark).
#
#   bench/scripts/bench_mpis.sh                           all five MPIs, 5 runs
#   MPIS="ompi5 impi" RUNS=3 COLLS=allreduce bench/scripts/bench_mpis.sh
#   COLIBRI_ENV="COLIBRI_NODE_CHUNK_BYTES=32768" ...   settings for colibri's runs
#   PAIR=1 ...   colibri and the MPI side by side in each run's processes
#                (dropin-bench -P: MPI_ and PMPI_ loops alternating), plus a
#                plain -P run per run whose rows (MPI-null) measure nothing
#                against itself; output docs/results/mpis-pair/ by default;
#                call by call (dropin-bench -I) unless PAIR_LOOPS=1
#   TUNED=1 ...  colibri with a colibri-tune file instead of none: per MPI,
#                colibri-tune --budget $BUDGET (5m; otherwise its defaults:
#                every collective and form, 8 B-64 MiB) first, written to
#                $OUT/<mpi>-p2.tuning (kept: an existing file is reused);
#                output docs/results/mpis-pair-tuned/ (with PAIR=1)
#
# MPIs: openmpi (Debian's 4.1, build/), mpich (Debian's 4.0, build-mpich/),
# and ompi5, mpich5, impi from scripts/install-mpis.sh (build-<name>/,
# launched as tests/lib/mpis.bash launches them).  Sizes: 8 B to 4 MiB by
# default (SIZES=).  Output: docs/results/mpis/mpis.csv (OUT= another
# folder; one row per mpi, collective, size and run), runs.log; the table
# printed by bench/report/mpis_table.py.  Timing never decides a test: this
# is a benchmark.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-docs/results/mpis${PAIR:+-pair}${TUNED:+-tuned}}
BUDGET=${BUDGET:-5m}
RUNS_DIR=${RUNS_DIR:-build/bench-runs/mpis}
MPIS=${MPIS:-"openmpi mpich ompi5 mpich5 impi"}
RUNS=${RUNS:-5}
COLLS=${COLLS:-"allreduce reduce reduce_scatter_block alltoall alltoallv"}
SIZES=${SIZES:-"-m 8 -M 4M -s 4"}
pair_how=-I # (common.sh, dropin_alternate)
[ -n "${PAIR_LOOPS:-}" ] && pair_how=-P
# osc=^ucx: Open MPI 5's UCX one-sided component prints an error at every
# start on a machine without UCX devices (no effect on collectives)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx OMPI_MCA_osc=^ucx
unset $(compgen -e | grep '^COLIBRI_')
source bench/scripts/common.sh
source tests/lib/mpis.bash
mkdir -p "$OUT" "$RUNS_DIR"

for mpi in $MPIS; do
  case $mpi in
    openmpi) build=build make_args=() launch=(mpirun -n 2) ;;
    mpich) build=build-mpich make_args=(MPI=mpich) launch=(mpirun.mpich -n 2) ;;
    *)
      if mpi_missing "$mpi" >/dev/null 2>&1; then echo "== $mpi: not installed, skipped"; continue; fi
      build=$(mpi_build "$mpi")
      read -ra make_args <<<"$(mpi_make_args "$mpi")"
      mpi_launch "$mpi" 2
      # as a user launches 2 ranks on 2 cores: Open MPI 5 spinning, not
      # yielding (the tests' launcher yields: they oversubscribe)
      launch=("${LAUNCH[@]/OMPI_MCA_mpi_yield_when_idle=1/OMPI_MCA_mpi_yield_when_idle=0}") ;;
  esac
  make -s -j2 "${make_args[@]}" "$build/lib/libcolibri.so" "$build/bin/dropin-bench" || exit 1
  lib=$PWD/$build/lib/libcolibri.so
  tuning=none
  if [ -n "${TUNED:-}" ]; then
    tuning=$(realpath -m "$OUT/$mpi-p2.tuning")
    if [ ! -s "$tuning" ]; then
      make -s -j2 "${make_args[@]}" "$build/bin/colibri-tune" || exit 1
      echo "== $mpi: colibri-tune --budget $BUDGET"
      start=$(date +%s)
      "${launch[@]}" "$build/bin/colibri-tune" --budget "$BUDGET" -o "$tuning" -q ||
        { echo "colibri-tune failed"; exit 1; }
      runs_log "tune-$mpi-p2: colibri-tune took $(($(date +%s) - start)) s (wall): ${launch[*]} $build/bin/colibri-tune --budget $BUDGET; $(grep -c -v '^#' "$tuning") lines written"
    fi
  fi
  # the ranks get the library, not the launcher (Intel's needs -genv)
  case $mpi in
    impi | mpich | mpich5) pre=(-genv LD_PRELOAD "$lib" -genv COLIBRI_TUNING "$tuning") ;;
    *) pre=(-x LD_PRELOAD="$lib" -x COLIBRI_TUNING="$tuning") ;;
  esac
  # COLIBRI_ENV="VAR=value ...": more settings for the colibri runs
  for kv in ${COLIBRI_ENV:-}; do
    case $mpi in
      impi | mpich | mpich5) pre+=(-genv "${kv%%=*}" "${kv#*=}") ;;
      *) pre+=(-x "$kv") ;;
    esac
  done
  piece=$RUNS_DIR/$mpi-pieces.csv
  dropin_alternate "$piece" "$mpi" "$build"
  merge_run "$OUT/mpis.csv" "$mpi-p2" "$piece"
  runs_log "$mpi-p2: $RUNS alternating runs${PAIR:+ (each side by side in one process, dropin-bench $pair_how -R ${PAIR_ROUNDS:-5}, and a plain one)} per collective of ${launch[*]} [${pre[*]}] $build/bin/dropin-bench -c <coll> $SIZES; load $(cut -d' ' -f1-3 /proc/loadavg)"
done
python3 bench/report/mpis_table.py "$OUT/mpis.csv"
