#!/usr/bin/env bash
# colibri's automatic reduce against the MPI's native one on 2 ranks of
# this 2-core machine, quiet and beside one busy process, for the builds
# named in BUILDS (label=build folder=mpi), issue #26.  Each run is one
# colibri-bench process timing native and auto side by side (8 KiB-4 MiB,
# fastest of -R 3), the order alternating from run to run; the table takes
# medians over RUNS_N runs of the run-by-run ratio auto/native.
#
# The machine is shared: each run starts in a session of its own whose
# autogroup has nice -20 (Linux's autogroup scheduling shares the cores
# between sessions first), so other sessions' jobs barely take cores from
# it: "quiet".  "loaded" adds `yes > /dev/null` inside that session, one
# busy process beside the 2 ranks, as in the issue.  Load averages (of the
# whole machine) go to runs.log.
#
#   bench/scripts/bench_ompi5_reduce.sh
#   RUNS_N=5 BUILDS="ompi5-before=build-ompi5-before=ompi5 ompi5=build-ompi5=ompi5" ...
set -uo pipefail
cd "$(dirname "$0")/../.."
RUNS_N=${RUNS_N:-5}
OMPI5=${OMPI5:-/work/cache/ompi5}
BUILDS=${BUILDS:-"ompi5-before=build-ompi5-before=ompi5 ompi5-after=build-ompi5=ompi5 ompi4-before=build-before=ompi4 ompi4-after=build=ompi4"}
LOADS=${LOADS:-"quiet loaded"}
OUT=${OUT:-docs/results/ompi5-reduce}
RUNS=${RUNS:-build/bench-runs/ompi5-reduce}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx OMPI_MCA_osc=^ucx
source bench/scripts/common.sh
mkdir -p "$OUT" "$RUNS"
# run_isolated LOAD CMD...: CMD in a new session at autogroup nice -20,
# beside a busy process when LOAD is "loaded"
run_isolated() {
  local load=$1; shift
  setsid bash -c 'echo -20 >/proc/self/autogroup
    if [ "$0" = loaded ]; then yes >/dev/null & y=$!; fi
    "$@"; rc=$?
    [ -n "${y:-}" ] && kill $y
    exit $rc' "$load" "$@"
}
for spec in $BUILDS; do
  IFS== read -r label build mpi <<<"$spec"
  if [ "$mpi" = ompi5 ]; then launch=("$OMPI5/bin/mpirun" -n 2); else launch=(mpirun -n 2); fi
  for load in $LOADS; do
    pieces=()
    for k in $(seq 1 "$RUNS_N"); do
      order=native,auto
      [ $((k % 2)) -eq 0 ] && order=auto,native
      csv=$RUNS/$label-$load-$k.csv
      cmd=("${launch[@]}" "$build/bin/colibri-bench" -c reduce -a "$order" -m 8K -M 4M -s 2 -R 3 -o "$csv")
      run_isolated "$load" "${cmd[@]}" >"$RUNS/$label-$load-$k.txt" 2>&1 || echo "FAILED: ${cmd[*]}"
      runs_log "$label $load run $k  load $(cut -d' ' -f1-3 /proc/loadavg)  ${cmd[*]}"
      pieces+=("$csv")
    done
    python3 - "$label" "$load" "${pieces[@]}" >"$RUNS/$label-$load-median.csv" <<'PY'
import csv, statistics, sys
label, load, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
t = {}
for p in paths:
    try:
        with open(p) as f:
            for r in csv.DictReader(f):
                t.setdefault((int(r["bytes"]), r["alg"]), []).append(float(r["usec"]))
    except OSError:
        pass
print("build,load,bytes,native_usec,auto_usec,ratio,runs")
for n in sorted({b for b, _ in t}):
    nat, aut = t.get((n, "native")), t.get((n, "auto"))
    if not nat or not aut:
        continue
    ratios = [y / x for x, y in zip(nat, aut)]
    print(f"{label},{load},{n},{statistics.median(nat):.2f},{statistics.median(aut):.2f},"
          f"{statistics.median(ratios):.3f},{len(ratios)}")
PY
    merge_run "$OUT/ompi5-reduce.csv" "$label-$load" "$RUNS/$label-$load-median.csv"
    column -s, -t "$RUNS/$label-$load-median.csv"
  done
done
