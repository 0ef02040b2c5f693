#!/usr/bin/env bash
# Allreduce under SimGrid SMPI on the modelled clusters of platforms/: every
# colibri algorithm, auto, and SMPI's own built-ins.  One CSV per run in
# build/bench-runs/allreduce-smpi/ (RUNS=), merged per process count into
# docs/results/allreduce-smpi/allreduce-smpi.csv (OUT= another folder) as
# run smpi-p<P>; runs.log there lists every run with its command.
#
#   bench/scripts/bench_smpi.sh            the full sweep (see docs/benchmarks.md)
#   PS="64" bench/scripts/bench_smpi.sh    only some process counts
#   FORCE=1 ...                      redo runs whose CSV already exists
#   ONLY=smpi- ...                   only runs whose name matches this regex
#   TIMEOUT=900 ...                  seconds one run may take (default 900)
#
# The platform is 1 us / 100 Gb/s end to end with SMPI's size-dependent
# correction factors set to 1 and computation not timed, so simulated times
# are deterministic and the alpha-beta bound (alpha = 1 us, beta = 0.08 ns/B,
# gamma = 0) is exact; one timed call per size (-i 1) is enough.
#
# What is run where (memory and simulation time grow with p x size and with
# the number of simulated messages):
#   p = 1024, 1000:  8 B .. 1 MiB, doubling; algorithms with O(p) rounds
#                    (colibri ring, SMPI lr / ompi_ring_segmented) only at
#                    4 KiB, 64 KiB, 1 MiB: each call simulates ~2p^2 messages.
#   p = 64:          8 B .. 16 MiB, doubling, everything.
# SMPI built-ins left out: rab1 and rab2 (never finish), smp_rsag* (wrong
# results on short vectors), automatic (benchmarks the others itself).
set -uo pipefail
cd "$(dirname "$0")/../.."

PS=${PS:-"1024 1000 64"}
OUT=${OUT:-docs/results/allreduce-smpi}
RUNS=${RUNS:-build/bench-runs/allreduce-smpi}
SLOW_ALGS=${SLOW_ALGS:-"ring"}
BUILTINS=${BUILTINS:-"default rdb rab_rdb rab redbcast ompi mpich mvapich2 mvapich2_rs impi smp_binomial smp_rdb"}
SLOW_BUILTINS=${SLOW_BUILTINS:-"lr ompi_ring_segmented"}
SELECTORS=${SELECTORS:-"mpich ompi"}
TIMEOUT=${TIMEOUT:-900}
MODEL=1e-6,8e-11,0
BENCH=build-smpi/bin/colibri-bench

make -j2 MPI=smpi "$BENCH" >/dev/null || { echo "building $BENCH failed"; exit 1; }
source bench/scripts/common.sh
mkdir -p "$OUT" "$RUNS"
failures=0

platform_for() { # p -> platform file, hostfile (p <= 1024)
  local n=1024
  [ "$1" -eq 1000 ] && n=1000
  echo "platforms/cluster-$n.xml platforms/hostfile-$n.txt"
}

# run P NAME [smpirun --cfg options...] -- [colibri-bench options...]
run() {
  local p=$1 name=$2; shift 2
  local cfg=()
  while [ "$1" != "--" ]; do cfg+=("$1"); shift; done
  shift
  local csv=$RUNS/p$p-$name.csv out=$RUNS/p$p-$name.txt
  if [ -n "${ONLY:-}" ] && ! [[ "$name" =~ $ONLY ]]; then return; fi
  if [ -s "$csv" ] && [ -z "${FORCE:-}" ]; then return; fi
  read -r plat hosts <<<"$(platform_for "$p")"
  local start=$SECONDS
  local cmd=(smpirun -np "$p" -platform "$plat" -hostfile "$hosts"
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
    --log=root.thres:warning "${cfg[@]}"
    "$BENCH" -i 1 -w 0 -L "$MODEL" -o "$csv.part" "$@")
  timeout "$TIMEOUT" "${cmd[@]}" >"$out" 2>&1
  local rc=$?
  local env=; [ -n "${COLIBRI_COST_MODEL:-}" ] && env="COLIBRI_COST_MODEL=$COLIBRI_COST_MODEL "
  # smpirun exits 0 even after MPI_Abort: look for the benchmark's own verdict.
  if grep -q "WRONG RESULT" "$out" || [ $rc -ne 0 ] || [ ! -s "$csv.part" ]; then
    echo "FAILED: p=$p $name (rc $rc): see $out"; grep -m3 "WRONG RESULT\|colibri-bench:\|CRITICAL" "$out"
    failures=$((failures + 1))
    local why="FAILED"
    # Sizes finished before a hang or crash are still right: keep them.
    if ! grep -q "WRONG RESULT" "$out" && [ "$(wc -l <"$csv.part")" -gt 1 ]; then
      why="PARTIAL, up to $(tail -1 "$csv.part" | cut -d, -f4) bytes,"
      mv "$csv.part" "$csv"
    fi
    runs_log "$(printf 'p=%d %-28s %s rc %d after %ds' "$p" "$name" "$why" $rc \
      $((SECONDS - start)))  $env${cmd[*]}"
    return
  fi
  mv "$csv.part" "$csv"
  runs_log "$(printf 'p=%d %-28s %4ds' "$p" "$name" $((SECONDS - start)))  $env${cmd[*]}"
  echo "p=$p $name: $((SECONDS - start)) s"
}

# colibri's allreduce algorithms, from its catalog.
read -r plat hosts <<<"$(platform_for 1024)"
ALGS=$(smpirun -np 1 -platform "$plat" -hostfile "$hosts" --log=root.thres:critical \
         build-smpi/bin/colibri-info 2>/dev/null | awk '$1 == "allreduce" {print $2}')
[ -n "$ALGS" ] || { echo "could not list colibri's algorithms"; exit 1; }
fast=() slow=()
for a in $ALGS; do
  if [[ " $SLOW_ALGS " == *" $a "* ]]; then slow+=("$a"); else fast+=("$a"); fi
done
csvlist() { local IFS=,; echo "$*"; }

for p in $PS; do
  if [ "$p" -gt 100 ]; then
    range=(-m 8 -M 1M); slow_range=(-m 4K -M 1M -s 16); big=0
  else
    range=(-m 8 -M 16M); slow_range=("${range[@]}"); big=1
  fi
  run "$p" colibri -- -a "auto,$(csvlist "${fast[@]}")" "${range[@]}"
  [ ${#slow[@]} -gt 0 ] && run "$p" colibri-slow -- -a "$(csvlist "${slow[@]}")" "${slow_range[@]}"
  # auto again, its cost model told this platform's parameters.
  COLIBRI_COST_MODEL=$MODEL run "$p" auto-platform-model -- -a auto "${range[@]}"
  for b in $BUILTINS; do
    run "$p" "smpi-$b" --cfg=smpi/allreduce:"$b" -- -a native -N "smpi:$b" "${range[@]}"
  done
  for b in $SLOW_BUILTINS; do
    run "$p" "smpi-$b" --cfg=smpi/allreduce:"$b" -- -a native -N "smpi:$b" "${slow_range[@]}"
  done
  if [ $big -eq 1 ]; then
    for s in $SELECTORS; do
      run "$p" "selector-$s" --cfg=smpi/coll-selector:"$s" -- -a native -N "selector:$s" "${range[@]}"
    done
  fi
  # One run per process count in the study's CSV, for the plots and tables.
  piece=$RUNS/smpi-p$p.csv
  {
    echo "coll,alg,p,bytes,usec,bound_usec,ran"
    for f in "$RUNS"/p"$p"-*.csv; do
      [ -e "$f" ] || continue
      if [[ "$f" == *auto-platform-model.csv ]]; then
        tail -n +2 "$f" | sed 's/^allreduce,auto,/allreduce,auto[platform model],/'
      else
        tail -n +2 "$f"
      fi
    done
  } >"$piece"
  merge_run "$OUT/allreduce-smpi.csv" "smpi-p$p" "$piece"
  echo "wrote run smpi-p$p into $OUT/allreduce-smpi.csv"
done
echo "$failures failed runs"
[ $failures -eq 0 ]
