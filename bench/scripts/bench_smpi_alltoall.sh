#!/usr/bin/env bash
# Alltoall and alltoallv under SimGrid SMPI at p = 1024 in two layouts:
#   1024x1  one rank per host (platforms/hostfile-1024.txt)
#   64x16   16 ranks on each of 64 hosts (platforms/hostfile-64x16.txt), so
#           MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups 16 ranks and the
#           16 share their host's one link (messages between ranks of one
#           host also cross it: the cluster has no loopback; copies through
#           shared memory take no simulated time with simulate-computation:no)
# on platforms/cluster-1024.xml (1 us / 100 Gb/s end to end, non-blocking).
# Every colibri algorithm of the two collectives, auto, and SMPI's built-ins;
# alltoallv with uniform and skewed block sizes (skewed: rank 0's blocks are
# 100x the others').  One CSV per run in build/bench-runs/alltoall-smpi/
# (RUNS=), merged per layout and collective into
# docs/results/alltoall-smpi/alltoall-smpi.csv (OUT= another folder) as run
# <layout>-<coll> (1024x1-alltoall, 64x16-alltoallv-skewed, ...) for
# bench/report/plot_alltoall.py; runs.log there lists every run with its
# command.
#
#   bench/scripts/bench_smpi_alltoall.sh          everything not yet run
#   LAYOUTS="1024x1" ...                     one layout
#   LAYOUTS="256x1 16x16" FLAT=256x1 NODES=16x16 ...   the same at p = 256
#   ONLY=<regex> ...                         only runs whose name matches
#   SKIP=<regex> ...                         no run whose name matches
#   FORCE=1 ...                              redo runs whose CSV exists
#   JOBS=2 ...                               simulations at once (default 1)
#   SIZES="-m 64 -M 512 -s 8" ...           block sizes (see below)
#   TIMEOUT=1800 ...                         seconds one run may take
#   MERGE_ONLY=1 ...                         only rebuild the merged CSVs
#
# Model: as bench/scripts/bench_smpi.sh (SMPI's size-dependent factors 1,
# computation not timed, so one timed call per size is exact and
# deterministic), plus a per-message send/receive overhead o = OVERHEAD
# (0.2 us, smpi/os, or, ois), the o of colibri's cost model: without it a
# rank posting p-1 messages at once pays for them only in bandwidth.  Bound column: max(ceil(lg p) alpha, B beta), B the most
# bytes a rank sends or receives to/from the others ((p-1) c for alltoall
# with c-byte blocks), alpha = 1e-6 s, beta = 8e-11 s/B.
#
# Sizes, thinned from the 8 B .. 64 KiB the issue names: at p = 1024 a
# block of c bytes is 1024 c per rank each way, 2 GiB of buffers in all at
# 1 KiB (plus scratch: bruck another p c per rank), 128 GiB at 64 KiB -- the
# simulation holds every rank's real buffers in one process on a 23 GiB
# machine.  Time is the harder limit: SimGrid simulates every message, and
# an algorithm that posts all p-1 messages at once (SMPI basic_linear, its
# default above 200 B, colibri linear/scattered) puts ~1M concurrent flows
# into the solver: one call takes minutes of CPU time (see runs.log).  So
# the default sweep is 8 B only (the issue's bar: SLOAV <= 0.136x linear at
# 8 B on 1024 ranks); SIZES="-m 64 -M 512 -s 8" and the like add more.
#
# SMPI built-ins left out (alltoall): automatic (benchmarks the others
# itself), 2dmesh and 3dmesh (need p to be a square/cube-friendly grid and
# are nothing the other schedules do not cover), pair_rma (one-sided
# emulation), ring_* and pair_*_barrier variants beyond one each (the same
# schedule with a different synchronisation; "ring" and "pair" stand for
# them).  Built-ins that failed or ran out of time are listed in runs.log
# and in docs/benchmarks-alltoall.md.
set -uo pipefail
cd "$(dirname "$0")/../.."

LAYOUTS=${LAYOUTS:-"1024x1 64x16"}
# The flat and the node layout of the issue's runs (FLAT=256x1 NODES=16x16
# for p = 256, where even linear simulates in about a minute per size).
FLAT=${FLAT:-1024x1}
NODES=${NODES:-64x16}
OUT=${OUT:-docs/results/alltoall-smpi}
RUNS=${RUNS:-build/bench-runs/alltoall-smpi}
SIZES=${SIZES:-"-m 8 -M 8"}
A2A_BUILTINS=${A2A_BUILTINS:-"default bruck pair ring rdb basic_linear ompi mpich mvapich2 impi"}
A2AV_BUILTINS=${A2AV_BUILTINS:-"default bruck pair ring ompi_basic_linear ompi mpich mvapich2 impi"}
DISTS=${DISTS:-"uniform skewed"}
TIMEOUT=${TIMEOUT:-1800}
OVERHEAD=${OVERHEAD:-2e-7}
JOBS=${JOBS:-1}
MODEL=1e-6,8e-11,0
BENCH=build-smpi/bin/colibri-bench
PLATFORM=platforms/cluster-1024.xml

make -j2 MPI=smpi "$BENCH" build-smpi/bin/colibri-info >/dev/null ||
  { echo "building $BENCH failed"; exit 1; }
source bench/scripts/common.sh
mkdir -p "$RUNS" "$OUT"
LOG=$OUT/runs.log

hostfile_for() { # layout -> hostfile
  case $1 in
    1024x1 | 256x1) echo platforms/hostfile-1024.txt ;;
    64x16) echo platforms/hostfile-64x16.txt ;;
    16x16) echo platforms/hostfile-16x16.txt ;;
    *) echo "unknown layout $1" >&2; exit 1 ;;
  esac
}

# run LAYOUT NAME [smpirun --cfg options...] -- [colibri-bench options...]
# in the background, at most $JOBS at once; the verdict goes to $LOG.
run() {
  local layout=$1 name=$2; shift 2
  local cfg=()
  while [ "$1" != "--" ]; do cfg+=("$1"); shift; done
  shift
  local csv=$RUNS/$layout-$name.csv out=$RUNS/$layout-$name.txt
  if [ -n "${ONLY:-}" ] && ! [[ "$layout-$name" =~ $ONLY ]]; then return; fi
  if [ -n "${SKIP:-}" ] && [[ "$layout-$name" =~ $SKIP ]]; then return; fi
  if [ -s "$csv" ] && [ -z "${FORCE:-}" ]; then return; fi
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  (
    start=$SECONDS
    hosts=$(hostfile_for "$layout")
    np=$((${layout%x*} * ${layout#*x}))
    cmd=(smpirun -np "$np" -platform "$PLATFORM" -hostfile "$hosts"
      --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 --cfg=smpi/allgather:mpich
      --cfg=smpi/os:0:"$OVERHEAD":0 --cfg=smpi/or:0:"$OVERHEAD":0 --cfg=smpi/ois:0:"$OVERHEAD":0
      --log=root.thres:warning "${cfg[@]}"
      "$BENCH" -i 1 -w 0 -L "$MODEL" -o "$csv.part" "$@")
    nice timeout "$TIMEOUT" "${cmd[@]}" >"$out" 2>&1
    rc=$?
    # smpirun exits 0 even after MPI_Abort: look for the benchmark's own verdict.
    if grep -q "WRONG RESULT" "$out" || [ $rc -ne 0 ] || [ ! -s "$csv.part" ] ||
       [ "$(wc -l <"$csv.part")" -lt 2 ]; then
      why="FAILED"
      [ $rc -eq 124 ] && why="TIMEOUT"
      # Sizes finished before a hang or crash are still right: keep them.
      if ! grep -q "WRONG RESULT" "$out" && [ -s "$csv.part" ] &&
         [ "$(wc -l <"$csv.part")" -gt 1 ]; then
        why="$why, PARTIAL up to $(tail -1 "$csv.part" | cut -d, -f4) bytes,"
        mv "$csv.part" "$csv"
      fi
      echo "$why: $layout $name (rc $rc): see $out"
      grep -m3 "WRONG RESULT\|colibri-bench:\|CRITICAL" "$out"
      runs_log "$(printf '%-7s %-40s %s rc %d after %ds' "$layout" "$name" "$why" $rc \
        $((SECONDS - start)))  ${cmd[*]}"
      exit 1
    fi
    mv "$csv.part" "$csv"
    runs_log "$(printf '%-7s %-40s %5ds' "$layout" "$name" $((SECONDS - start)))  ${cmd[*]}"
    echo "$layout $name: $((SECONDS - start)) s"
  ) &
}

# colibri's algorithms of a collective, from its catalog.
colibri_algs() {
  smpirun -np 1 -platform "$PLATFORM" -hostfile platforms/hostfile-1024.txt \
    --log=root.thres:critical build-smpi/bin/colibri-info 2>/dev/null |
    awk -v c="$1" '$1 == c {printf "%s%s", sep, $2; sep = ","}'
}

# One run per layout and collective ("alltoallv:skewed" ->
# <layout>-alltoallv-skewed) in the study's CSV, in plot_bench.py's format.
merge() {
  local layout=$1 f coll
  for coll in alltoall $(for d in $DISTS; do echo "alltoallv:$d"; done); do
    local run=$layout-${coll/:/-} piece
    piece=$(mktemp)
    {
      echo "coll,alg,p,bytes,usec,bound_usec,ran"
      # Newest run first: where two runs cover a size, the later one counts.
      for f in $(ls -t "$RUNS/$layout"-*.csv 2>/dev/null); do
        tail -n +2 "$f"
      done | awk -F, -v c="$coll" '$1 == c && !seen[$2 "," $4]++'
    } >"$piece"
    if [ "$(wc -l <"$piece")" -gt 1 ]; then
      merge_run "$OUT/alltoall-smpi.csv" "$run" "$piece"
      echo "wrote run $run into $OUT/alltoall-smpi.csv"
    fi
    rm -f "$piece"
  done
}

# One run per algorithm, so that one slow simulation holds up nothing else
# and finished ones are kept; the name carries the sizes, so a sweep over
# other SIZES adds runs instead of being skipped as done.
tag=$(echo "$SIZES" | awk '{for (i = 1; i < NF; i++) { if ($i == "-m") m = $(i+1); if ($i == "-M") M = $(i+1) } print m "-" M}')
if [ -z "${MERGE_ONLY:-}" ]; then
  A2A=$(colibri_algs alltoall) A2AV=$(colibri_algs alltoallv)
  # The issue's questions first, cheapest first (schedules of few rounds
  # simulate in a minute or two; linear's million concurrent flows take
  # tens of minutes): alltoallv SLOAV vs linear on 1024x1, SLOAVx vs SLOAV
  # on 64x16, auto vs the best built-in.  Then everything else; run skips
  # what is done.
  for spec in $FLAT:alltoallv-uniform:sloav $NODES:alltoallv-uniform:sloavx \
              $FLAT:alltoallv-uniform:auto $FLAT:alltoall:bruck $FLAT:alltoall:auto \
              $FLAT:alltoall:smpi-bruck $FLAT:alltoall:smpi-default \
              $FLAT:alltoallv-uniform:sloavx $NODES:alltoallv-uniform:sloav \
              $FLAT:alltoallv-skewed:sloav $NODES:alltoallv-skewed:sloavx \
              $FLAT:alltoallv-uniform:linear; do
    IFS=: read -r layout what a <<<"$spec"
    [[ " $LAYOUTS " == *" $layout "* ]] || continue
    coll=${what%%-*} d=${what#alltoallv-}
    opts=(-c "$coll")
    [ "$coll" = alltoallv ] && opts+=(-D "$d")
    if [[ $a == smpi-* ]]; then
      run "$layout" "$what-$a-$tag" --cfg=smpi/"$coll":"${a#smpi-}" -- \
        "${opts[@]}" -a native -N "smpi:${a#smpi-}" $SIZES
    else
      run "$layout" "$what-$a-$tag" -- "${opts[@]}" -a "$a" $SIZES
    fi
  done
  for d in $DISTS; do
    for layout in $LAYOUTS; do
      for a in auto ${A2AV//,/ }; do
        # shellcheck disable=SC2086 # SIZES is a list of options
        run "$layout" "alltoallv-$d-$a-$tag" -- -c alltoallv -D "$d" -a "$a" $SIZES
      done
    done
  done
  for layout in $LAYOUTS; do
    for a in auto ${A2A//,/ }; do
      run "$layout" "alltoall-$a-$tag" -- -c alltoall -a "$a" $SIZES
    done
  done
  for layout in $LAYOUTS; do
    for b in $A2A_BUILTINS; do
      run "$layout" "alltoall-smpi-$b-$tag" --cfg=smpi/alltoall:"$b" -- \
        -c alltoall -a native -N "smpi:$b" $SIZES
    done
    for d in $DISTS; do
      for b in $A2AV_BUILTINS; do
        run "$layout" "alltoallv-$d-smpi-$b-$tag" --cfg=smpi/alltoallv:"$b" -- \
          -c alltoallv -D "$d" -a native -N "smpi:$b" $SIZES
      done
    done
  done
  wait
fi
for layout in $LAYOUTS; do merge "$layout"; done
failures=$(grep -c "FAILED\|TIMEOUT" "$LOG" 2>/dev/null)
echo "${failures:-0} failed or timed-out runs logged in $LOG"
