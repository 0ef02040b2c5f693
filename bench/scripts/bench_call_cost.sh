#!/usr/bin/env bash
# The per-call cost of a short reduction, blocking against nonblocking,
# colibri against the MPI below (Open MPI), side by side:
#  - instructions per call on 1 rank (callgrind, counted inside
#    MPI_Allreduce, or MPI_Iallreduce + MPI_Wait): deterministic, the
#    software path alone; "amortised" (the count of CALLS calls, the first,
#    full-path one included, divided by CALLS) and "per repeated call"
#    (the count of 2*CALLS calls minus that of CALLS, divided by CALLS);
#  - microseconds per call on 1 and 2 ranks (call-cost-bench, fastest of
#    -R repetitions).
# colibri-native is colibri with a tuning file whose rule sends every
# allreduce to the MPI below.  Arguments go to call-cost-bench.  Output:
# the report on stdout (also in build/bench-runs/nonblocking/call-cost.txt,
# RUNS=), and its numbers in
# docs/results/nonblocking/call-cost.csv (OUT= another folder), run
# call-cost: impl,metric,ranks,bytes,blocking,nonblocking,ratio, metric
# "instructions" (amortised per call, callgrind), "instructions_repeated"
# (per repeated call) or "us" (microseconds per call);
# runs.log there says what ran.  CALLS=1000 counts fewer calls.
set -eu
cd "$(dirname "$0")/../.."
OUT=${OUT:-docs/results/nonblocking}
RUNS=${RUNS:-build/bench-runs/nonblocking}
source bench/scripts/common.sh
make -s build/lib/libcolibri.so build/bin/call-cost-bench
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx
lib=$PWD/build/lib/libcolibri.so bin=build/bin/call-cost-bench
mkdir -p "$OUT" "$RUNS"
out=$RUNS/call-cost.txt piece=$RUNS/call-cost.csv
echo "impl,metric,ranks,bytes,blocking,nonblocking,ratio" >"$piece"
calls=${CALLS:-10000}
# colibri-native: colibri with a tuning file that sends every allreduce to
# the MPI below (what a `native` rule costs, docs/tuning.md)
printf 'allreduce 0 9223372036854775807 1 1000000 native\n' >"$RUNS/native.tuning"
impl_env() { # native|colibri|colibri-native: the env command that runs it
  case $1 in
    native) echo env ;;
    colibri) echo env LD_PRELOAD="$lib" ;;
    *) echo env LD_PRELOAD="$lib" COLIBRI_TUNING="$RUNS/native.tuning" ;;
  esac
}
instructions() { # native|colibri|colibri-native blocking|nonblocking CALLS: the count of CALLS calls
  local p=P env
  read -ra env <<<"$(impl_env "$1")"
  [ "$1" != native ] && p=
  local t=(--toggle-collect=${p}MPI_Allreduce)
  [ "$2" = nonblocking ] && t=(--toggle-collect=${p}MPI_Iallreduce --toggle-collect=${p}MPI_Wait)
  local f; f=$(mktemp)
  mpirun -n 1 "${env[@]}" valgrind --tool=callgrind "${t[@]}" --callgrind-out-file="$f" \
    "$bin" -i $(($3 / 10)) -R 10 -m "$2" >/dev/null 2>&1
  awk '/^summary/ {print $2}' "$f"
  rm -f "$f"
}
{
  echo "# $(date -u +%FT%TZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), Open MPI $(ompi_info --version 2>/dev/null | head -1 | awk '{print $NF}')"
  if command -v valgrind >/dev/null; then
    echo "# instructions per call, 1 rank, 8 bytes (callgrind)"
    for impl in native colibri colibri-native; do
      b1=$(instructions $impl blocking $calls) nb1=$(instructions $impl nonblocking $calls)
      b2=$(instructions $impl blocking $((2 * calls))) nb2=$(instructions $impl nonblocking $((2 * calls)))
      b=$((b1 / calls)) nb=$((nb1 / calls)) rb=$(((b2 - b1) / calls)) rnb=$(((nb2 - nb1) / calls))
      echo "$impl blocking=$b nonblocking=$nb (per repeated call: blocking=$rb nonblocking=$rnb)"
      echo "$impl,instructions,1,8,$b,$nb,$(awk -v a="$b" -v b="$nb" 'BEGIN { printf "%.3f", b / a }')" >>"$piece"
      echo "$impl,instructions_repeated,1,8,$rb,$rnb,$(awk -v a="$rb" -v b="$rnb" 'BEGIN { printf "%.3f", b / a }')" >>"$piece"
    done
  fi
  echo "# microseconds per call, 8 bytes (fastest repetition; arguments: ${*:-none})"
  for np in 1 2; do
    for impl in native colibri colibri-native; do
      read -ra env <<<"$(impl_env $impl)"
      printf '%-7s %s\n' $impl "$("${env[@]}" mpirun -n $np $bin -o "$RUNS/one.csv" "$@")"
      tail -n +2 "$RUNS/one.csv" | sed "s/^/$impl,us,/" >>"$piece"
    done
  done
} | tee "$out"
rm -f "$RUNS/one.csv"
merge_run "$OUT/call-cost.csv" call-cost "$piece"
runs_log "call-cost: bench/scripts/bench_call_cost.sh $* (mpirun -n 1|2 [LD_PRELOAD=libcolibri.so] $bin $*; callgrind: -i $((calls / 10)) and -i $((calls / 5)), -R 10)"
