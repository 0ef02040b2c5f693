#!/usr/bin/env bash
# A/B of colibri builds on a borrowed multi-core node with Open MPI 5: the
# same colibri-bench (C API) run against each build's libcolibri.so in
# turn (LD_LIBRARY_PATH comes before the program's RUNPATH), alternating
# builds within each round, native and the named candidates side by side
# in every run.  Then dropin-bench's alltoall at 8 ranks, plain and
# preloaded, alternating, with online selection's trace (its 8-rank short
# alltoall lost to native in one run of two on 2026-11-27).  Timing never
# judges anything here.
#
#   OUT=dir bash bench/scripts/device_ab.sh
#   VARIANTS="label:build:chunk ..."   chunk 0 = the build's default
#   CASES="allreduce:16 reduce:16 ..." ROUNDS=2 BUDGET=300
#
# Needs .cache/mpis/ompi5 and each build's lib/libcolibri.so; build-ompi5/
# for the programs.  Output under OUT: log.txt, results.tgz (CSVs).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/bench-runs/device-ab}
VARIANTS=${VARIANTS:-"old:build-ompi5-old:0 new:build-ompi5:0 new256k:build-ompi5:262144"}
CASES=${CASES:-"allreduce:16 reduce:16 reduce_scatter_block:16 allreduce:8"}
ROUNDS=${ROUNDS:-2}
BUDGET=${BUDGET:-300}
ALGS=${ALGS:-native,node_split_rail}
mkdir -p "$OUT/csv"
source bench/scripts/device_lib.sh
trap 'say "== done at $((SECONDS - t0)) s"; tar -C "$OUT" -czf "$OUT/results.tgz" csv' EXIT
say "# $(nproc) cores, $(uname -r), $(mpirun --version 2>&1 | head -1)"
MAP="--bind-to core"
mpirun -n 2 $MAP true >/dev/null 2>&1 || MAP="--bind-to none"

for r in $(seq "$ROUNDS"); do
  for c in $CASES; do
    coll=${c%%:*} np=${c#*:}
    vs=$VARIANTS
    [ $((r % 2)) -eq 0 ] && vs=$(echo $vs | tr ' ' '\n' | tac | paste -sd' ')
    for v in $vs; do
      IFS=: read -r label build chunk <<<"$v"
      extra=()
      [ "$chunk" != 0 ] && extra=(-x COLIBRI_NODE_CHUNK_BYTES="$chunk")
      step "$coll np=$np $label round $r" 60 mpirun -n "$np" $MAP -x COLIBRI_TUNING=none \
        -x LD_LIBRARY_PATH="$PWD/$build/lib:$LD_LIBRARY_PATH" "${extra[@]}" \
        build-ompi5/bin/colibri-bench -c "$coll" -a "$ALGS" -m 16K -M 4M -s 4 -R 3 \
        -o "$OUT/csv/ab-$coll-np$np-$label-r$r.csv"
    done
  done
done
lib=$PWD/build-ompi5/lib/libcolibri.so
for r in 1 2 3 4; do
  step "dropin alltoall np=8 native $r" 30 mpirun -n 8 $MAP build-ompi5/bin/dropin-bench \
    -c alltoall -m 8 -M 32K -s 8 -R 3 -o "$OUT/csv/a2a-np8-native-r$r.csv"
  step "dropin alltoall np=8 colibri $r" 30 mpirun -n 8 $MAP -x LD_PRELOAD="$lib" \
    -x COLIBRI_TUNING=none -x COLIBRI_STATS=1 -x COLIBRI_ONLINE_TRACE=1 build-ompi5/bin/dropin-bench \
    -c alltoall -m 8 -M 32K -s 8 -R 3 -o "$OUT/csv/a2a-np8-colibri-r$r.csv"
done
