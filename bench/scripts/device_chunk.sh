#!/usr/bin/env bash
# The node segment's chunk on a borrowed 16-core node (Open MPI 5), issue
# #27: node_split_rail and native side by side (colibri-bench, C API,
# fastest of -R 3 loops) with COLIBRI_NODE_CHUNK_BYTES set to each of
# CHUNKS (0: the default, a quarter of L2 bounded by what a slot holds:
# about 240 KiB at 16 ranks on an 8 MiB segment), ROUNDS rounds in
# alternating order.  Timing never judges anything here.
#   OUT=dir CASES="allreduce:16 allreduce:8" CHUNKS="16384 65536 0" \
#     bash bench/scripts/device_chunk.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/bench-runs/device-chunk}
CASES=${CASES:-"allreduce:16 allreduce:8 reduce_scatter_block:16"}
CHUNKS=${CHUNKS:-"16384 32768 65536 131072 0"}
ROUNDS=${ROUNDS:-2}
BUDGET=${BUDGET:-200}
B=${BUILD:-build-ompi5}
mkdir -p "$OUT/csv"
source bench/scripts/device_lib.sh
trap 'say "== done at $((SECONDS - t0)) s"; tar -C "$OUT" -czf "$OUT/results.tgz" csv' EXIT
MAP="--bind-to core"
mpirun -n 2 $MAP true >/dev/null 2>&1 || MAP="--bind-to none"
for r in $(seq "$ROUNDS"); do
  for c in $CASES; do
    coll=${c%%:*} np=${c#*:}
    cs=$CHUNKS
    [ $((r % 2)) -eq 0 ] && cs=$(echo $cs | tr ' ' '\n' | tac | paste -sd' ')
    for k in $cs; do
      step "$coll np=$np chunk $k r$r" 40 mpirun -n "$np" $MAP -x COLIBRI_TUNING=none \
        -x COLIBRI_NODE_CHUNK_BYTES="$k" "$B/bin/colibri-bench" -c "$coll" \
        -a native,node_split_rail -m 16K -M 4M -s 4 -R 3 -q \
        -o "$OUT/csv/$coll-np$np-c$k-r$r.csv"
    done
  done
done
python3 - "$OUT/csv" <<'PY' | tee -a "$log"
import csv, glob, os, statistics as st, sys, collections
d = collections.defaultdict(list)
for f in glob.glob(sys.argv[1] + "/*.csv"):
    coll, np_, k, r = os.path.basename(f)[:-4].rsplit("-", 3)
    for row in csv.DictReader(open(f)):
        d[(coll, np_, int(row["bytes"]), row["alg"], k)].append(float(row["usec"]))
ks = sorted({k[4] for k in d}, key=lambda x: int(x[1:]))
print("median us of the rounds, node_split_rail at each chunk; native (all runs)")
print("coll np bytes " + " ".join(ks) + " native")
for key in sorted({k[:3] for k in d}):
    sr = [d.get(key + ("node_split_rail", k)) for k in ks]
    nat = [x for k in ks for x in d.get(key + ("native", k), [])]
    print(*key, *(f"{st.median(v):.2f}" if v else "-" for v in sr),
          f"{st.median(nat):.2f}" if nat else "-")
PY
