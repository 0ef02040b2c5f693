#!/usr/bin/env bash
# Online selection on a borrowed 16-core node (Open MPI 5), issue #28: an
# A/B of two builds (OLD, NEW) on the rooted collectives, and NEW against
# native on the others, no tuning file.  Used on 2026-11-28 for rooted
# calls timed by their period (NEW) against per-call times (OLD, landed):
# docs/results/device-online.
#
#  1. bcast, reduce, gather, scatter at 16 and 8 ranks: dropin-bench -B -P
#     (calls back to back, as programs make them; colibri's MPI_* loop and
#     the MPI's own PMPI_* loop alternating in one process), preloaded with
#     OLD and NEW in turn, ROUNDS rounds in alternating order; bcast and reduce also
#     with node_leader forced (what online selection could find);
#  2. allreduce, reduce_scatter_block, alltoall, alltoallv, allgather at 16
#     and 8 ranks, this build, one run each: never slower than native?
#  3. bcast and reduce at the largest rank count with a barrier before each
#     call (dropin-bench without -B), both builds (variants oldbar, newbar).
# Each run's COLIBRI_STATS and online trace go to the log.  Output under
# OUT: log.txt and results.tgz (CSVs: coll-np-variant-rR.csv with columns
# coll,bytes,us,native_us).  Timing never judges anything here.
#
#   OUT=dir NEW=build-device/new OLD=build-device/old BIN=build-device/bin \
#     bash bench/scripts/device_rooted.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/bench-runs/device-rooted}
NEW=${NEW:-build-device/new}
OLD=${OLD:-build-device/old}
BIN=${BIN:-build-device/bin}
NPS=${NPS:-"16 8"}
ROUNDS=${ROUNDS:-2}
BUDGET=${BUDGET:-420}
mkdir -p "$OUT/csv"
source bench/scripts/device_lib.sh
trap 'say "== done at $((SECONDS - t0)) s"; tar -C "$OUT" -czf "$OUT/results.tgz" csv' EXIT
say "# $(nproc) cores, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $(mpirun --version 2>&1 | head -1)"
MAP="--bind-to core"
mpirun -n 16 $MAP true >/dev/null 2>&1 || MAP="--bind-to none"
say "launch: mpirun -n NP $MAP"

# run NP COLL VARIANT ROUND [env...]: one dropin-bench -B -P run
run() {
  local np=$1 coll=$2 var=$3 r=$4 lib
  shift 4
  case $var in old*) lib=$PWD/$OLD/libcolibri.so ;; *) lib=$PWD/$NEW/libcolibri.so ;; esac
  local env=(-x LD_PRELOAD="$lib" -x COLIBRI_TUNING=none -x COLIBRI_STATS=1)
  for e in "$@"; do env+=(-x "$e"); done
  local b2b=-B
  case $var in *bar) b2b= ;; esac
  step "$coll np=$np $var r$r" 40 mpirun -n "$np" $MAP "${env[@]}" "$BIN/dropin-bench" \
    -c "$coll" -m 8 -M 64K -s 8 $b2b -P -R 5 -o "$OUT/csv/$coll-np$np-$var-r$r.csv"
}

for np in $NPS; do
  for r in $(seq "$ROUNDS"); do
    for coll in bcast reduce gather scatter; do
      vs="old new"
      [ $((r % 2)) -eq 0 ] && vs="new old"
      for v in $vs; do
        if [ "$v" = new ] && [ "$r" = 1 ]; then
          run "$np" "$coll" "$v" "$r" COLIBRI_ONLINE_TRACE=1
        else
          run "$np" "$coll" "$v" "$r"
        fi
      done
    done
  done
  for coll in bcast reduce; do
    C=$(echo $coll | tr a-z A-Z)
    run "$np" "$coll" node_leader 1 "COLIBRI_${C}_ALGORITHM=node_leader"
  done
done
for np in $NPS; do
  for coll in allreduce reduce_scatter_block alltoall alltoallv allgather; do
    run "$np" "$coll" new 1
  done
done
# rooted calls each from a barrier (dropin-bench without -B), at the
# largest rank count: where the previous build's per-call times fit
np=${NPS%% *}
for r in 1 2; do
  for coll in bcast reduce; do
    vs="oldbar newbar"
    [ $r -eq 2 ] && vs="newbar oldbar"
    for v in $vs; do run "$np" "$coll" "$v" "$r"; done
  done
done

python3 - "$OUT/csv" <<'PY' | tee -a "$log"
import csv, glob, os, statistics as st, sys, collections
d = collections.defaultdict(list)
for f in glob.glob(sys.argv[1] + "/*.csv"):
    coll, np, var, r = os.path.basename(f)[:-4].rsplit("-", 3)
    for row in csv.DictReader(open(f)):
        d[(coll, int(np[2:]), int(row["bytes"]), var)].append(
            (float(row["us"]), float(row["native_us"])))
vs = ["old", "new", "node_leader", "oldbar", "newbar"]
print("median colibri/native of the runs (colibri us / native us of the first)")
for k in sorted({k[:3] for k in d}, key=lambda k: (-k[1], k[0], k[2])):
    cells = []
    for v in vs:
        x = d.get(k + (v,))
        cells.append(f"{v} {st.median(a / b for a, b in x):.2f} ({x[0][0]:.2f}/{x[0][1]:.2f})"
                     if x else "")
    print(f"{k[0]:>22} np={k[1]:<3} {k[2]:>6} B  " + "  ".join(c for c in cells if c))
PY
