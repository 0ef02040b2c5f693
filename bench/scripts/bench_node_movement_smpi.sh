#!/usr/bin/env bash
# Bcast, barrier, allgather(v), gather(v), scatter(v), scan and exscan
# (node-aware where colibri has it) under SimGrid SMPI on 16-core
# nodes (platforms/cluster-256x16.xml: a 100 Gb/s port per node that its
# 16 ranks share, a 1 us loopback inside a node), 0.5 us per-message
# overheads, colibri's shared-segment copies charged (shm_charge.c), as
# bench_node_smpi.sh does for the reductions: colibri's node-aware and
# flat algorithms and auto, then SMPI's built-ins (one run each, chosen by
# --cfg=smpi/<coll>).  Times (node_movement_smpi.c): mean of ITERS calls
# after an untimed one, from the last rank's entry to the last rank's
# exit, in us.  Timings only: tests/smpi/node_movement.sh checks results.
#
#   bench/scripts/bench_node_movement_smpi.sh            P=256 (16 x 16)
#   P=1024 COLLS="bcast barrier" SIZES=8,65536 ...        64 x 16
#   FLAT=1 P=1024 COLLS=gather ...                        one rank a host
#                                      (platforms/cluster-1024.xml)
#   BUILTINS="ompi mpich" ...          only these of SMPI's built-ins (none: none)
#   OURS=node_rails,auto ...           only these of colibri's
#   WARMUP=20 ...                      untimed calls before the timed ones
#                                      (auto's online exploration decides)
# Gather and scatter use root 0, the v forms equal blocks, scan and exscan
# a sum of doubles (SIZES in bytes).  SMPI has no selectable scan, exscan,
# gatherv or scatterv: its default ("default", linear for the v forms) is
# the one compared.
# Prints one line per (collective, algorithm, size); OUT (default
# build/bench-runs/node-movement) keeps each run's output.
set -uo pipefail
cd "$(dirname "$0")/../.."
P=${P:-256}
COLLS=${COLLS:-"bcast barrier allgather"}
SIZES=${SIZES:-8,65536,1048576}
ITERS=${ITERS:-2}
OUT=${OUT:-build/bench-runs/node-movement}
EXE=build-smpi/node_movement_smpi
mkdir -p "$OUT"
[ -f build-smpi/lib/libcolibri.a ] || make -s sim || exit 1
smpicc -std=c11 -O2 -Wall -Wextra -Iinclude bench/scripts/node_movement_smpi.c -o "$EXE" \
  -Wl,--whole-archive build-smpi/lib/libcolibri.a -Wl,--no-whole-archive -lm || exit 1
PLATFORM=platforms/cluster-256x16.xml
HOSTS=platforms/hostfile-$((P / 16))x16.txt
[ -f "$HOSTS" ] || HOSTS=platforms/hostfile-64x16.txt
if [ "${FLAT:-0}" = 1 ]; then
  PLATFORM=platforms/cluster-1024.xml
  HOSTS=platforms/hostfile-1024.txt
fi
O=0.5e-6
# shared buffers folded in 64 MiB blocks, not 1 MiB: allgather(v)'s p blocks
# on every rank stay under the kernel's map count (vm.max_map_count)
run() { # COLL SIZES ALGS [smpirun options]
  local coll=$1 sizes=$2 algs=$3; shift 3
  smpirun -np "$P" -platform "$PLATFORM" -hostfile "$HOSTS" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
    --cfg=smpi/os:0:$O --cfg=smpi/or:0:$O --cfg=smpi/ois:0:$O --cfg=smpi/allgather:mpich \
    --cfg=smpi/shared-malloc-blocksize:$((64 << 20)) --log=root.thres:warning "$@" "$EXE" "$coll" "$ITERS" "$sizes" "$algs" 2>&1 | grep "^$coll,"
}
for coll in $COLLS; do
  case $coll in
  bcast) ours=node_leader,binomial,scatter_allgather,auto
         builtins="default binomial_tree scatter_rdb_allgather scatter_LR_allgather ompi mpich mvapich2" ;;
  barrier) ours=node_leader,dissemination,auto
           builtins="default ompi_recursivedoubling ompi_bruck ompi mpich mvapich2" ;;
  allgather) ours=node_rails,recursive_doubling,bruck,ring,auto
             builtins="rdb bruck ring pair ompi mpich mvapich2" ;;
  allgatherv) ours=node_rails,recursive_doubling,ring,bruck,auto
              builtins="GB pair ring ompi_neighborexchange ompi_bruck mpich mvapich2 ompi" ;;
  gather) ours=node_leader,binomial,linear,auto
          builtins="ompi_basic_linear ompi_binomial ompi_linear_sync mpich mvapich2 ompi" ;;
  scatter) ours=node_leader,binomial,linear,auto
           builtins="ompi_basic_linear ompi_binomial mpich mvapich2 ompi" ;;
  gatherv | scatterv) ours=binomial,linear,auto builtins=default ;;
  scan | exscan) ours=node_leader,recursive_doubling,up_down,linear,auto builtins=default ;;
  *) echo "unknown collective $coll" >&2; exit 2 ;;
  esac
  builtins=${BUILTINS:-$builtins}
  [ "$builtins" = none ] && builtins=
  ours=${OURS:-$ours}
  sizes=$SIZES
  [ "$coll" = barrier ] && sizes=0
  start=$SECONDS
  tag=p$P
  [ "${FLAT:-0}" = 1 ] && tag=p$P-flat
  [ "${SKIP_OURS:-0}" = 1 ] || run "$coll" "$sizes" "$ours" | tee "$OUT/$coll-$tag-colibri.txt"
  for b in $builtins; do
    # SMPI's allgather setting is the node layout's exchange's too: kept
    # mpich's (recursive doubling) except where it is the one timed
    # no --cfg for the collectives SMPI does not let one choose
    cfg=(--cfg=smpi/$coll:$b)
    case $coll in scan | exscan | gatherv | scatterv) cfg=() ;; esac
    run "$coll" "$sizes" native "${cfg[@]}" | sed "s/,native,/,smpi:$b,/" |
      tee "$OUT/$coll-$tag-smpi-$b.txt"
  done
  echo "# $coll p=$P: $((SECONDS - start)) s of simulation"
done
