#!/usr/bin/env bash
# What online selection's exploration costs in one size sweep, per MPI and
# collective (issue #28: "record the exploration's cost in calls and
# time"): one dropin-bench run each (2 ranks, colibri preloaded, no tuning
# file, COLIBRI_STATS=1, sizes as bench_mpis.sh's), and from its
# COLIBRI_STATS report the calls colibri served (summed over the ranks,
# halved), the calls run as exploration, the decisions (each one small
# agreement) and extra_us: what the explorations cost over running each
# decision's winner throughout, from the agreed per-call figures
# (docs/tuning.md).  Output: a CSV on stdout,
# mpi,coll,calls,explored,decisions,extra_us.  A benchmark: nothing here
# passes or fails.
#   bench/scripts/online_cost.sh                     every MPI installed
#   MPIS="ompi5 impi" COLLS=alltoall bench/scripts/online_cost.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
MPIS=${MPIS:-"openmpi mpich ompi5 mpich5 impi"}
COLLS=${COLLS:-"allreduce reduce reduce_scatter_block alltoall alltoallv"}
SIZES=${SIZES:-"-m 8 -M 4M -s 4"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx OMPI_MCA_osc=^ucx
unset $(compgen -e | grep '^COLIBRI_')
source tests/lib/mpis.bash
echo "mpi,coll,calls,explored,decisions,extra_us"
for mpi in $MPIS; do
  case $mpi in
    openmpi) build=build make_args=() launch=(mpirun -n 2) ;;
    mpich) build=build-mpich make_args=(MPI=mpich) launch=(mpirun.mpich -n 2) ;;
    *)
      mpi_missing "$mpi" >/dev/null 2>&1 && continue
      build=$(mpi_build "$mpi")
      read -ra make_args <<<"$(mpi_make_args "$mpi")"
      mpi_launch "$mpi" 2
      launch=("${LAUNCH[@]/OMPI_MCA_mpi_yield_when_idle=1/OMPI_MCA_mpi_yield_when_idle=0}") ;;
  esac
  make -s -j2 "${make_args[@]}" "$build/lib/libcolibri.so" "$build/bin/dropin-bench" >&2 || exit 1
  lib=$PWD/$build/lib/libcolibri.so
  case $mpi in
    impi | mpich | mpich5) pre=(-genv LD_PRELOAD "$lib" -genv COLIBRI_TUNING none -genv COLIBRI_STATS 1) ;;
    *) pre=(-x LD_PRELOAD="$lib" -x COLIBRI_TUNING=none -x COLIBRI_STATS=1) ;;
  esac
  for coll in $COLLS; do
    # shellcheck disable=SC2086
    "${launch[@]}" "${pre[@]}" "$build/bin/dropin-bench" -c "$coll" $SIZES -o /dev/null 2>&1 |
      awk -v m="$mpi" -v c="$coll" '
        $1 == "colibri:" && $2 == c && $4 ~ /^calls=/ { sub("calls=", "", $4); calls += $4 }
        $1 == "colibri:" && $2 == "online" && $3 == c && $4 == "explored" {
          for (i = 5; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
        END { printf "%s,%s,%d,%d,%d,%.1f\n", m, c, calls / 2, v["calls"], v["decisions"], v["extra_us"] }'
  done
done
