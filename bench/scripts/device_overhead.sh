#!/usr/bin/env bash
# Where colibri's time goes on short rooted calls at many ranks of one node
# (Open MPI 5, a borrowed 16-core machine): dropin-bench plain, preloaded
# (auto, online selection on), preloaded with the collective forced to
# native (colibri's pass-through path alone), and preloaded with online
# selection off, alternating, ROUNDS rounds, 8 B to 4 KiB.  At 16 ranks on
# 2026-11-27 short gather and reduce preloaded took 1.09-1.18x native with
# online selection settled on native.  Timing never judges anything here.
#
#   OUT=dir NP=16 COLLS="gather reduce" ROUNDS=3 bash bench/scripts/device_overhead.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/bench-runs/device-overhead}
NP=${NP:-16}
COLLS=${COLLS:-"gather reduce bcast"}
ROUNDS=${ROUNDS:-3}
source bench/scripts/device_lib.sh
lib=$PWD/build-ompi5/lib/libcolibri.so
MAP="--bind-to core"
mpirun -n 2 $MAP true >/dev/null 2>&1 || MAP="--bind-to none"
for coll in $COLLS; do
  C=$(echo "$coll" | tr a-z A-Z)
  for r in $(seq "$ROUNDS"); do
    for mode in plain auto native noonline; do
      case $mode in
        plain) pre=() ;;
        auto) pre=(-x LD_PRELOAD="$lib" -x COLIBRI_TUNING=none) ;;
        native) pre=(-x LD_PRELOAD="$lib" -x COLIBRI_TUNING=none -x "COLIBRI_${C}_ALGORITHM=native") ;;
        noonline) pre=(-x LD_PRELOAD="$lib" -x COLIBRI_TUNING=none -x COLIBRI_ONLINE=0) ;;
      esac
      timeout 30 mpirun -n "$NP" $MAP "${pre[@]}" build-ompi5/bin/dropin-bench -c "$coll" \
        -m 8 -M 4K -s 8 -R 5 -o "$OUT/$coll-$mode-r$r.csv" >>"$OUT/log.txt" 2>&1
    done
  done
  python3 - "$OUT" "$coll" <<'PY'
import csv, glob, statistics as st, sys
out, coll = sys.argv[1], sys.argv[2]
modes = ["plain", "auto", "native", "noonline"]
d = {}
for m in modes:
    for f in glob.glob(f"{out}/{coll}-{m}-r*.csv"):
        for r in csv.DictReader(open(f)):
            d.setdefault((m, int(r["bytes"])), []).append(float(r["us"]))
print(f"{coll}: median us of rounds ({' '.join(modes)})")
for b in sorted({b for _, b in d}):
    print(f"{b:>6}" + "".join(f"{st.median(d[(m, b)]):9.2f}" if (m, b) in d else "        -" for m in modes))
PY
done
