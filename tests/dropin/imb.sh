#!/usr/bin/env bash
# An independently written program under colibri: the Intel MPI Benchmarks
# (IMB-MPI1: every collective from 0 bytes; IMB-NBC: the nonblocking ones
# with overlap) as Intel MPI's PyPI wheel ships them, unchanged, with
# libcolibri.so preloaded, on 2 ranks of each MPI that runs them (built for
# the MPICH ABI, libmpi.so.12: Intel MPI 2021.19, MPICH 5.0.2, Debian's
# MPICH 4.0 under that name).  Passes when every benchmark runs to the end
# (no hang, crash or MPI error), with online selection as a user gets it,
# with fake timings that flip its decisions between calls, and with the
# node-aware reductions forced; COLIBRI_STATS must show colibri ran calls.
# IMB was built without its CHECK option (no -check): results are checked
# by colibri's own tests; timings are bench/scripts/bench_imb.sh's.
# Skipped (77) without Intel MPI's venv (scripts/install-mpis.sh).
source "$(dirname "$0")/common.bash"
IMPI=$(cd "$MPI_CACHE/impi" 2>/dev/null && pwd) || { echo "SKIP: no Intel MPI venv (IMB)"; exit 77; }
[ -x "$IMPI/bin/IMB-MPI1" ] || { echo "SKIP: $IMPI/bin/IMB-MPI1 missing"; exit 77; }
COLLS="Allreduce Reduce Reduce_scatter Reduce_scatter_block Allgather Allgatherv Gather Gatherv
       Scatter Scatterv Alltoall Alltoallv Bcast Barrier"
NBC="Iallreduce Ireduce Ireduce_scatter Iallgather Iallgatherv Igather
     Igatherv Iscatter Iscatterv Ialltoall Ialltoallv Ibcast Ibarrier"
mpich4=$OUT/mpich4-lib
mkdir -p "$mpich4"
ln -sf "$(ldconfig -p | awk '/libmpich.so.12 .*x86-64/ {print $NF; exit}')" "$mpich4/libmpi.so.12"

# imb MPI PROGRAM [VAR=VALUE...] -- IMB ARGS...: 2 ranks, preloaded
imb() {
  local mpi=$1 prog=$2 vars=() lib launch
  shift 2
  while [ "$1" != -- ]; do vars+=("$1"); shift; done
  shift
  case $mpi in
    mpich)
      lib=$PWD/build-mpich/lib/libcolibri.so
      launch=(mpirun.mpich -n 2 -genv LD_LIBRARY_PATH "$mpich4") ;;
    *)
      lib=$PWD/$(mpi_build "$mpi")/lib/libcolibri.so
      mpi_launch "$mpi" 2
      launch=("${LAUNCH[@]}" -genv LD_LIBRARY_PATH "$(cd "$(mpi_venv "$mpi")" && pwd)/lib") ;;
  esac
  local kv genv=(-genv LD_PRELOAD "$lib" -genv COLIBRI_STATS 1)
  for kv in "${vars[@]}"; do genv+=(-genv "${kv%%=*}" "${kv#*=}"); done
  echo "+ $mpi $prog ${vars[*]:+${vars[*]} }$*"
  timeout 300 "${launch[@]}" "${genv[@]}" "$IMPI/bin/$prog" "$@" >"$OUT/out" 2>"$OUT/err"
}

# expect_run STATUS BENCHES...: the run ended well and printed every table
expect_run() {
  local rc=$1 b
  shift
  if [ "$rc" -ne 0 ] || ! grep -q "All processes entering MPI_Finalize" "$OUT/out"; then
    fail "IMB exited $rc before the end:"
    tail -20 "$OUT/out" "$OUT/err"
    return
  fi
  for b in "$@"; do
    grep -q "^# Benchmarking $b *\$" "$OUT/out" || fail "no table for $b"
  done
  if grep -i 'error' "$OUT/out" "$OUT/err" | grep -v '^#' | grep -q .; then
    fail "errors reported:"
    grep -i 'error' "$OUT/out" "$OUT/err" | head
  fi
  # colibri ran some calls itself (the library was preloaded and served)
  if ! grep -E '^colibri: [a-z_]+ [a-z_0-9]+ calls=[0-9]+$' "$OUT/err" |
       grep -vqE ' (native|none) calls='; then
    fail "COLIBRI_STATS shows no call that colibri ran:"
    grep '^colibri' "$OUT/err" | head
  fi
}

# need_library MPI: builds the libcolibri.so that imb preloads when it is not
# there yet (a fresh checkout: this script runs before run.sh's section of
# other MPIs builds build-impi/ and build-mpich5/).
need_library() {
  local bdir args
  if [ "$1" = mpich ]; then bdir=build-mpich args=(MPI=mpich)
  else bdir=$(mpi_build "$1"); read -ra args <<<"$(mpi_make_args "$1")"; fi
  [ -e "$bdir/lib/libcolibri.so" ] && return 0
  echo "+ make ${args[*]} $bdir/lib/libcolibri.so"
  make -j"$(nproc)" "${args[@]}" "$bdir/lib/libcolibri.so" >"$OUT/make.log" 2>&1 || {
    tail -20 "$OUT/make.log"
    fail "could not build $bdir/lib/libcolibri.so"
    return 1
  }
}

ran=0
for mpi in impi mpich5 mpich; do
  if [ "$mpi" != mpich ] && mpi_missing "$mpi" >/dev/null; then
    echo "$mpi: not installed, skipped"
    continue
  fi
  need_library "$mpi" || continue
  ran=1
  # shellcheck disable=SC2086
  imb "$mpi" IMB-MPI1 COLIBRI_TUNING=none -- -msglog 0:17 -iter 40 -time 2 -mem 1 $COLLS
  expect_run $? $COLLS
  # decisions flipped by fake timings every other call (a 1-call window)
  # shellcheck disable=SC2086
  imb "$mpi" IMB-MPI1 COLIBRI_TUNING=none COLIBRI_ONLINE_FAKE=random:7,calls=2,window=1 -- \
    -msglog 0:12 -iter 30 -time 2 -mem 1 $COLLS
  expect_run $? $COLLS
  imb "$mpi" IMB-MPI1 COLIBRI_ALLREDUCE_ALGORITHM=node_split_rail \
    COLIBRI_REDUCE_ALGORITHM=node_split_rail COLIBRI_REDUCE_SCATTER_BLOCK_ALGORITHM=node_split_rail \
    -- -msglog 0:20 -iter 20 -time 2 -mem 2 Allreduce Reduce Reduce_scatter_block
  expect_run $? Allreduce Reduce Reduce_scatter_block
  # shellcheck disable=SC2086
  imb "$mpi" IMB-NBC COLIBRI_TUNING=none -- -msglog 0:14 -iter 20 -time 2 -mem 1 $NBC
  expect_run $? $NBC
done
[ "$ran" -eq 1 ] || { echo "SKIP: no MPI that runs IMB"; exit 77; }
finish
