#!/usr/bin/env bash
# Online selection's per-rank figures on a borrowed node (Open MPI 5): two
# builds (OLD, NEW; docs/results/device-online/trace) with
# COLIBRI_ONLINE_TRACE=2 on given collectives and sizes, dropin-bench
# -B -P, ROUNDS rounds.  A diagnosis, not a benchmark.
#   OUT=dir CASES="gather:32K reduce:4K" NP=16 bash bench/scripts/device_trace.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/bench-runs/device-trace}
NEW=${NEW:-build-device/new}
OLD=${OLD:-build-device/old}
BIN=${BIN:-build-device/bin}
NP=${NP:-16}
CASES=${CASES:-"gather:32K reduce:4K"}
ROUNDS=${ROUNDS:-2}
BUDGET=${BUDGET:-200}
mkdir -p "$OUT/csv"
source bench/scripts/device_lib.sh
MAP="--bind-to core"
mpirun -n 2 $MAP true >/dev/null 2>&1 || MAP="--bind-to none"
for r in $(seq "$ROUNDS"); do
  for c in $CASES; do
    coll=${c%%:*} size=${c#*:}
    for v in old new; do
      lib=$PWD/$NEW/libcolibri.so
      [ $v = old ] && lib=$PWD/$OLD/libcolibri.so
      step "$coll $size np=$NP $v r$r" 40 mpirun -n "$NP" $MAP -x LD_PRELOAD="$lib" \
        -x COLIBRI_TUNING=none -x COLIBRI_ONLINE_TRACE=2 "$BIN/dropin-bench" -c "$coll" \
        -m "$size" -M "$size" -B -P -R 5 -o "$OUT/csv/$coll-$size-$v-r$r.csv"
      tail -n 2 "$OUT/csv/$coll-$size-$v-r$r.csv" | tee -a "$log"
    done
  done
done
