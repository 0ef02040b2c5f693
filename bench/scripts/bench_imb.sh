#!/usr/bin/env bash
# An independently written benchmark under colibri: the Intel MPI
# Benchmarks (IMB-MPI1, and IMB-NBC for the nonblocking forms) that ship
# in Intel MPI's PyPI wheel (impi-rt, scripts/install-mpis.sh), run
# unchanged, plain and with colibri preloaded, in alternating runs, no
# tuning file (COLIBRI_TUNING=none), 2 ranks.  IMB is built for the MPICH
# ABI (libmpi.so.12), so the same binary runs on Intel MPI 2021.19, MPICH
# 5.0.2 and Debian's MPICH 4.0 (its libmpich.so.12 under that name); not
# on the Open MPIs.
#
#   bench/scripts/bench_imb.sh                    all three, 5 runs
#   MPIS=impi RUNS=3 BENCHES="Allreduce Reduce" bench/scripts/bench_imb.sh
#   NBC=1 ...   IMB-NBC (Iallreduce, ...: overlap and pure times) instead
#
# IMB times every collective from 0 bytes to 4 MiB (-msglog 0:22, its
# iteration policy: 1000 calls at short sizes, down to 10 at 4 MiB, a
# barrier before each size) and prints t_min, t_max, t_avg over the ranks;
# the rows here are t_avg (IMB-NBC: t_pure, the blocking-wait time, and
# t_ovrl).  This build of IMB was compiled without its CHECK option, so it
# cannot check results (-check is not there): colibri's own correctness
# matrix does that.  Output: $OUT/imb.csv (mpi, bench, bytes, run,
# variant, t_us), runs.log, the raw outputs in $RUNS_DIR; the table by
# bench/report/imb_table.py.  Timing never decides a test.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-docs/results/imb${NBC:+-nbc}}
RUNS_DIR=${RUNS_DIR:-build/bench-runs/imb${NBC:+-nbc}}
MPIS=${MPIS:-"impi mpich5 mpich"}
RUNS=${RUNS:-5}
if [ -n "${NBC:-}" ]; then
  IMB_BIN=IMB-NBC
  BENCHES=${BENCHES:-"Iallreduce Ireduce Ireduce_scatter Iallgather Iallgatherv Igather Igatherv Iscatter Iscatterv Ialltoall Ialltoallv Ibcast Ibarrier"}
  MSGLOG=${MSGLOG:-0:20}
else
  IMB_BIN=IMB-MPI1
  BENCHES=${BENCHES:-"Allreduce Reduce Reduce_scatter Reduce_scatter_block Allgather Allgatherv Gather Gatherv Scatter Scatterv Alltoall Alltoallv Bcast Barrier"}
  MSGLOG=${MSGLOG:-0:22}
fi
unset $(compgen -e | grep '^COLIBRI_')
source bench/scripts/common.sh
source tests/lib/mpis.bash
IMPI=$(cd "$MPI_CACHE/impi" 2>/dev/null && pwd) || { echo "Intel MPI's venv (with IMB) is not installed: scripts/install-mpis.sh"; exit 1; }
IMB=$IMPI/bin/$IMB_BIN
[ -x "$IMB" ] || { echo "$IMB: missing"; exit 1; }
mkdir -p "$OUT" "$RUNS_DIR"
csv=$OUT/imb.csv
[ -s "$csv" ] || echo "mpi,bench,bytes,run,variant,t_us" >"$csv"

for mpi in $MPIS; do
  case $mpi in
    mpich)
      # Debian's MPICH 4.0 under the soname IMB asks for
      libdir=$RUNS_DIR/mpich4-lib
      mkdir -p "$libdir"
      ln -sf "$(ldconfig -p | awk '/libmpich.so.12 .*x86-64/ {print $NF; exit}')" "$libdir/libmpi.so.12"
      libdir=$(cd "$libdir" && pwd)
      build=build-mpich make_args=(MPI=mpich)
      launch=(mpirun.mpich -n 2 -genv LD_LIBRARY_PATH "$libdir") ;;
    *)
      if mpi_missing "$mpi" >/dev/null 2>&1; then echo "== $mpi: not installed, skipped"; continue; fi
      build=$(mpi_build "$mpi")
      read -ra make_args <<<"$(mpi_make_args "$mpi")"
      mpi_launch "$mpi" 2
      launch=("${LAUNCH[@]}" -genv LD_LIBRARY_PATH "$(cd "$(mpi_venv "$mpi")" && pwd)/lib") ;;
  esac
  make -s -j2 "${make_args[@]}" "$build/lib/libcolibri.so" || exit 1
  lib=$PWD/$build/lib/libcolibri.so
  for run in $(seq 1 "$RUNS"); do
    for variant in native colibri; do
      pre=()
      [ $variant = colibri ] && pre=(-genv LD_PRELOAD "$lib" -genv COLIBRI_TUNING none)
      raw=$RUNS_DIR/$mpi-$variant-$run.txt
      # shellcheck disable=SC2086
      if ! timeout 900 "${launch[@]}" "${pre[@]}" "$IMB" -msglog "$MSGLOG" -mem 2 $BENCHES >"$raw" 2>&1; then
        echo "== $mpi $variant run $run failed: $raw"; tail -5 "$raw"; exit 1
      fi
      # rows after "# Benchmarking NAME": "bytes reps t_min t_max t_avg";
      # Barrier without bytes; IMB-NBC "bytes reps t_ovrl t_pure t_CPU
      # overlap" (Ibarrier without bytes): t_pure as NAME, t_ovrl as
      # NAME:ovrl
      awk -v mpi="$mpi" -v run="$run" -v variant="$variant" -v nbc="${NBC:-}" '
        function row(b, bytes, t) { printf "%s,%s,%s,%s,%s,%s\n", mpi, b, bytes, run, variant, t }
        /^# Benchmarking / { bench = $3; next }
        /^#/ || bench == "" || $1 !~ /^[0-9]+$/ { next }
        nbc == "" && NF == 5 { row(bench, $1, $5) }
        nbc == "" && NF == 4 { row(bench, 0, $4) }
        nbc != "" && NF == 6 { row(bench, $1, $4); row(bench ":ovrl", $1, $3) }
        nbc != "" && NF == 5 { row(bench, 0, $3); row(bench ":ovrl", 0, $2) }' "$raw" >>"$csv"
    done
    echo "== $mpi run $run done"
  done
  runs_log "imb-$mpi: $RUNS runs x (native, colibri): ${launch[*]} [-genv LD_PRELOAD $lib -genv COLIBRI_TUNING none] $IMB -msglog $MSGLOG -mem 2 $BENCHES"
done
python3 bench/report/imb_table.py "$csv"
