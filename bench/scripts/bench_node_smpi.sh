#!/usr/bin/env bash
# Node-aware reductions under SimGrid SMPI on multi-core nodes: 1024 ranks
# as 64 nodes x 16 (platforms/cluster-256x16.xml: a 100 Gb/s port per node
# that its 16 ranks share, a 100 Gb/s / 1 us loopback link inside a node),
# 0.5 us per-message overheads (smpi/os, smpi/or, smpi/ois), and colibri's
# shared-segment copies and reductions charged (runtime/shm_charge.c,
# 10 GB/s and 5e-11 s/B).  Allreduce and reduce: auto, both node-aware
# algorithms, the flat ones, and SMPI's built-ins (each checked by
# colibri-bench's own result check; a wrong one is reported, not timed).
# SMPI's default MPI_Allgather sends p^2 messages: the node layout's
# exchange at the first call took minutes of simulation at 256 ranks, so
# smpi/allgather is mpich's (recursive doubling); no timed call uses it.
#
#   bench/scripts/bench_node_smpi.sh     P=1024 (64x16), 8 B .. 1 MiB
#   P=64 MAX=16M ...                     4 x 16, up to 16 MiB
#   P=64 MAX=16M PLACE=rr ...            ranks placed round-robin over the
#                                        4 nodes (hostfile-rr-4x16.txt)
#   COLLS="allreduce" FORCE=1 ONLY=regex TIMEOUT=seconds  as bench_smpi.sh
#   WARMUP=0 ...                         time each size's second call (the
#                                        runs before 2026-11-29)
# One CSV per run in build/bench-runs/node-smpi/, merged into
# docs/results/node-smpi/node-smpi.csv as run smpi-<coll>-p<P>; runs.log
# there says what ran, with the simulation's wall time.
set -uo pipefail
cd "$(dirname "$0")/../.."
P=${P:-1024}
MAX=${MAX:-1M}
COLLS=${COLLS:-"allreduce reduce"}
OUT=${OUT:-docs/results/node-smpi}
RUNS=${RUNS:-build/bench-runs/node-smpi}
TIMEOUT=${TIMEOUT:-1800}
# one untimed call after colibri-bench's checking one: the timed call is a
# shape's third, past what an automatic call does once (from 8 KiB the
# second call of a shape agrees on its data's sparsity, reused for the
# next 32 to 1024 calls; src/api/reductions.c); SMPI's simulated time of
# a call does not depend on the calls before it otherwise
WARMUP=${WARMUP:-1}
BUILD=${BUILD:-build-smpi}
BENCH=$BUILD/bin/colibri-bench
make -j2 MPI=smpi BUILD="$BUILD" "$BENCH" >/dev/null || { echo "building $BENCH failed"; exit 1; }
source bench/scripts/common.sh
mkdir -p "$OUT" "$RUNS"
# the first P / 16 nodes of 16 ranks
HOSTS=platforms/hostfile-64x16.txt
[ "$P" -gt 1024 ] && HOSTS=platforms/hostfile-256x16.txt
TAG=p$P
if [ "${PLACE:-}" = rr ]; then
  HOSTS=platforms/hostfile-rr-$((P / 16))x16.txt
  TAG=p$P-rr
fi
[ -f "$HOSTS" ] || { echo "no $HOSTS"; exit 1; }
O=0.5e-6
failures=0

run() { # COLL NAME [smpirun options...] -- [colibri-bench options...]
  local coll=$1 name=$2; shift 2
  local cfg=()
  while [ "$1" != "--" ]; do cfg+=("$1"); shift; done
  shift
  local csv=$RUNS/$coll-$TAG-$name.csv out=$RUNS/$coll-$TAG-$name.txt
  if [ -n "${ONLY:-}" ] && ! [[ "$name" =~ $ONLY ]]; then return; fi
  if [ -s "$csv" ] && [ -z "${FORCE:-}" ]; then return; fi
  local start=$SECONDS
  local cmd=(smpirun -np "$P" -platform platforms/cluster-256x16.xml -hostfile "$HOSTS"
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
    --cfg=smpi/os:0:$O --cfg=smpi/or:0:$O --cfg=smpi/ois:0:$O --cfg=smpi/allgather:mpich
    --log=root.thres:warning "${cfg[@]}"
    "$BENCH" -c "$coll" -i 1 -w "$WARMUP" -m 8 -M "$MAX" -s 8 -o "$csv.part" "$@")
  timeout "$TIMEOUT" "${cmd[@]}" >"$out" 2>&1
  local rc=$?
  if grep -q "WRONG RESULT" "$out" || [ $rc -ne 0 ] || [ ! -s "$csv.part" ]; then
    echo "FAILED: $coll $TAG $name (rc $rc): see $out"; grep -m2 "WRONG RESULT\|colibri-bench:" "$out"
    failures=$((failures + 1))
    runs_log "$(printf '%s %s %-24s FAILED rc %d after %ds' "$coll" "$TAG" "$name" $rc \
      $((SECONDS - start)))  ${cmd[*]}"
    rm -f "$csv.part"
    return
  fi
  mv "$csv.part" "$csv"
  runs_log "$(printf '%s %s %-24s %5ds' "$coll" "$TAG" "$name" $((SECONDS - start)))  ${cmd[*]}"
  echo "$coll $TAG $name: $((SECONDS - start)) s"
}

for coll in $COLLS; do
  if [ "$coll" = allreduce ]; then
    flat=recursive_doubling,knomial,rabenseifner,rabenseifner_3_2,reduce_bcast
    builtins="default rdb rab_rdb smp_binomial smp_binomial_pipeline smp_rdb smp_rsag mvapich2 ompi mpich"
  else
    flat=binomial,ordered_binomial,rabenseifner
    builtins="default binomial flat_tree ompi_pipeline scatter_gather mvapich2_two_level ompi mpich"
  fi
  run "$coll" colibri -- -a "auto,node_leader,node_split_rail,node_rails,$flat"
  for b in $builtins; do
    run "$coll" "smpi-$b" --cfg=smpi/$coll:"$b" -- -a native -N "smpi:$b"
  done
  piece=$RUNS/smpi-$coll-$TAG.csv
  first=1
  for f in "$RUNS"/"$coll"-"$TAG"-*.csv; do
    [[ "$TAG" != *-rr && "$f" == *-rr-* ]] && continue
    [ -e "$f" ] || continue
    if [ $first -eq 1 ]; then head -1 "$f" >"$piece"; first=0; fi
    tail -n +2 "$f" >>"$piece"
  done
  [ $first -eq 0 ] && merge_run "$OUT/node-smpi.csv" "smpi-$coll-$TAG" "$piece"
done
echo "$failures failed runs"
[ $failures -eq 0 ]
