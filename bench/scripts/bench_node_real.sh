#!/usr/bin/env bash
# colibri's auto against the MPI below on 2 real ranks of this machine (one
# node: the node-aware reductions' home ground), Open MPI and MPICH, for
# allreduce, reduce and reduce_scatter_block from 8 B to 16 MiB.  RUNS runs
# per MPI and collective, each one process timing both side by side (each
# point the fastest of -R 5 repetitions of its timed loop), the order of
# the two alternating from run to run; the medians over runs and their
# ratio go to docs/results/node-real/node-real.csv (OUT=), runs.log there
# says what ran.
#
#   bench/scripts/bench_node_real.sh
#   RUNS_N=5 COLLS="allreduce" MPIS="openmpi" BUILD=build ...
set -uo pipefail
cd "$(dirname "$0")/../.."
RUNS_N=${RUNS_N:-7}
COLLS=${COLLS:-"allreduce reduce reduce_scatter_block"}
MPIS=${MPIS:-"openmpi mpich"}
OUT=${OUT:-docs/results/node-real}
RUNS=${RUNS:-build/bench-runs/node-real}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx
source bench/scripts/common.sh
mkdir -p "$OUT" "$RUNS"
for mpi in $MPIS; do
  if [ "$mpi" = mpich ]; then
    build=${BUILD_MPICH:-build-mpich} launch=(mpirun.mpich -n 2)
    make -j2 MPI=mpich "$build/bin/colibri-bench" >/dev/null
  else
    build=${BUILD:-build} launch=(mpirun -n 2)
    make -j2 BUILD="$build" "$build/bin/colibri-bench" >/dev/null
  fi
  for coll in $COLLS; do
    pieces=()
    for k in $(seq 1 "$RUNS_N"); do
      order=native,auto
      [ $((k % 2)) -eq 0 ] && order=auto,native
      csv=$RUNS/$mpi-$coll-$k.csv
      cmd=("${launch[@]}" "$build/bin/colibri-bench" -c "$coll" -a "$order" -m 8 -M 16M -s 4 -R 5
           -o "$csv")
      "${cmd[@]}" >"$RUNS/$mpi-$coll-$k.txt" 2>&1 || echo "FAILED: ${cmd[*]}"
      runs_log "$mpi $coll run $k  $(cut -d' ' -f1-3 /proc/loadavg | sed 's/^/load /')  ${cmd[*]}"
      pieces+=("$csv")
    done
    piece=$RUNS/$mpi-$coll-median.csv
    python3 - "$mpi" "$coll" "${pieces[@]}" >"$piece" <<'PY'
import csv, statistics, sys
mpi, coll, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
t = {}
for p in paths:
    with open(p) as f:
        for r in csv.DictReader(f):
            t.setdefault((int(r["bytes"]), r["alg"]), []).append(float(r["usec"]))
print("mpi,coll,bytes,native_usec,auto_usec,ratio,runs")
for n in sorted({b for b, _ in t}):
    nat, aut = t.get((n, "native")), t.get((n, "auto"))
    if not nat or not aut:
        continue
    a, b = statistics.median(nat), statistics.median(aut)
    ratios = [y / x for x, y in zip(nat, aut)]
    print(f"{mpi},{coll},{n},{a:.3f},{b:.3f},{statistics.median(ratios):.3f},{len(ratios)}")
PY
    merge_run "$OUT/node-real.csv" "real-$mpi-$coll" "$piece"
    column -s, -t "$piece"
  done
done
