#!/usr/bin/env bash
# Alltoallv at the seed's scale under SimGrid SMPI (issue #19): 1024 ranks as
# 64 nodes x 16 cores and 4096 as 256 x 16 on platforms/cluster-256x16.xml
# (100 Gb/s, 1 us node to node, a loopback link inside a node), per-message
# overheads o = 0.5 us (smpi/os, or, ois), shared-memory copies charged at
# 1e10 B/s (runtime/shm_charge.c), computation otherwise not timed, SMPI's
# size factors 1: simulated times are deterministic.  The cost model is told
# the same o (COLIBRI_COST_MODEL).  SMPI's default allgather sends p^2
# messages; colibri's one-time layout exchange and SMPI's own communicator
# creation use MPICH's (--cfg=smpi/allgather:mpich).
#
# Every colibri alltoallv algorithm, auto, and SMPI's built-ins
# (--cfg=smpi/alltoallv:<name>, run as colibri-bench's "native"), uniform and
# skewed block sizes (skewed: rank 0's blocks 100x the others'), every
# result checked by colibri-bench.  One run per (layout, dist, algorithm):
# its CSV in $RUNS, merged into $OUT/alltoallv-scale.csv with the run's
# wall time; runs.log says what ran and how long it took.
#
#   bench/scripts/bench_smpi_scale.sh             everything not yet run
#   ONLY=<regex> SKIP=<regex> FORCE=1 TIMEOUT=<s> as bench_smpi_alltoall.sh
#
# Sizes: 8 B (the seed's headline), 64 and 512 B for colibri's algorithms at
# 1024 ranks; 8 B at 4096 and for the built-ins.  Larger blocks do not fit:
# at 4 KiB and 1024 ranks the one simulating process holds 8 GiB of user
# buffers and SLOAVx's node segments another 8 GiB (each node's L^2 N n
# bytes, twice), beside the check's; 64 KiB would take 256 GiB.  The
# timed call is the second: an automatic one predicts its sizes from the
# first (which agreed on them) when that ran SLOAVx; tests/smpi/
# check_predict.c measures the first call too.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-docs/results/alltoallv-scale}
RUNS=${RUNS:-build/bench-runs/alltoallv-scale}
TIMEOUT=${TIMEOUT:-420}
O=${OVERHEAD:-5e-7}
export COLIBRI_COST_MODEL=${COLIBRI_COST_MODEL:-1e-6,8e-11,5e-11,$O}
BENCH=build-smpi/bin/colibri-bench
PLATFORM=platforms/cluster-256x16.xml
make -j2 MPI=smpi "$BENCH" >/dev/null || { echo "building $BENCH failed"; exit 1; }
source bench/scripts/common.sh
mkdir -p "$RUNS" "$OUT"

# run LAYOUT DIST NAME SIZES [smpirun --cfg...] -- colibri-bench options
run() {
  local layout=$1 dist=$2 name=$3 sizes=$4; shift 4
  local cfg=()
  while [ "$1" != "--" ]; do cfg+=("$1"); shift; done
  shift
  local id=$layout-$dist-$name csv=$RUNS/$layout-$dist-$name.csv out=$RUNS/$layout-$dist-$name.txt
  if [ -n "${ONLY:-}" ] && ! [[ $id =~ $ONLY ]]; then return; fi
  if [ -n "${SKIP:-}" ] && [[ $id =~ $SKIP ]]; then return; fi
  if [ -s "$csv" ] && [ -z "${FORCE:-}" ]; then return; fi
  local np=$((${layout%x*} * ${layout#*x})) start=$SECONDS
  local cmd=(smpirun -np "$np" -platform "$PLATFORM" -hostfile "platforms/hostfile-$layout.txt"
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
    --cfg=smpi/os:0:"$O":0 --cfg=smpi/or:0:"$O":0 --cfg=smpi/ois:0:"$O":0
    --cfg=smpi/allgather:mpich --log=root.thres:warning "${cfg[@]}"
    "$BENCH" -c alltoallv -D "$dist" -i 1 -w 0 $sizes -o "$csv.part" "$@")
  nice timeout "$TIMEOUT" "${cmd[@]}" >"$out" 2>&1
  local rc=$? wall=$((SECONDS - start)) why=ok
  if grep -q "WRONG RESULT" "$out"; then why=WRONG
  elif [ $rc -eq 124 ]; then why=TIMEOUT
  elif [ $rc -ne 0 ] || [ ! -s "$csv.part" ]; then why=FAILED; fi
  # (a header alone is no result: the run is redone next time)
  if [ "$(wc -l <"$csv.part" 2>/dev/null || echo 0)" -gt 1 ] && [ "$why" != WRONG ]; then
    # the run's wall time (all its sizes, setup included) on every row
    awk -v w="$wall" -v l="$layout" -v d="$dist" -v s="$why" -F, \
      'NR == 1 {print $0 ",layout,dist,wall_s,status"; next} {print $0 "," l "," d "," w "," s}' \
      "$csv.part" >"$csv"
  fi
  rm -f "$csv.part"
  runs_log "$(printf '%-7s %-8s %-22s %-7s %5ds' "$layout" "$dist" "$name" "$why" "$wall")  COLIBRI_COST_MODEL=$COLIBRI_COST_MODEL ${cmd[*]}"
  echo "$id: $why, $wall s"
}

# Cheapest and most asked first, so that a sweep cut short keeps them.
for a in auto sloav sloavx; do run 64x16 uniform "$a" "-m 8 -M 512 -s 8" -- -a "$a"; done
for a in auto sloav sloavx; do run 64x16 skewed "$a" "-m 8 -M 512 -s 8" -- -a "$a"; done
for a in sloavx sloav auto; do TIMEOUT=${TIMEOUT_4096:-900} run 256x16 uniform "$a" "-m 8 -M 8" -- -a "$a"; done
for b in ${BUILTINS:-bruck mpich ompi default}; do
  run 64x16 uniform "smpi-$b" "-m 8 -M 8" --cfg=smpi/alltoallv:"$b" -- -a native -N "smpi:$b"
done
# Direct exchanges: p - 1 messages per rank, all at once (linear) or in
# p - 1 rounds (pairwise), a million flows for SimGrid to share out.
for a in pairwise linear; do run 64x16 uniform "$a" "-m 8 -M 8" -- -a "$a"; done
# SMPI's ompi and default and colibri's linear stop on an assertion of
# SimGrid's solver at its default precision (a constraint's usage 1.05e-5
# against 1e-5); again at 1e-4 (SLOAVx's 8-byte time is the same at both,
# 15.72 us).
P4=--cfg=maxmin/precision:1e-4
for b in ompi default; do
  run 64x16 uniform "smpi-$b-prec4" "-m 8 -M 8" --cfg=smpi/alltoallv:"$b" "$P4" -- \
    -a native -N "smpi:$b@1e-4"
done
run 64x16 uniform linear-prec4 "-m 8 -M 8" "$P4" -- -a linear

# merge: one CSV for the study
{
  head -1 "$(ls "$RUNS"/*.csv | head -1)"
  for f in "$RUNS"/*.csv; do tail -n +2 "$f"; done
} >"$OUT/alltoallv-scale.csv"
echo "wrote $OUT/alltoallv-scale.csv"
