#!/usr/bin/env bash
# The drop-in C programs (dropin_reductions, dropin_exchange,
# dropin_nonblocking, dropin_no_reduction: built without the sanitizers, as
# a user's program would be) under Open MPI with build-asan/'s
# libcolibri.so preloaded behind libasan: right results, every call run by
# colibri (COLIBRI_STATS), and no AddressSanitizer or UBSan report.
# Needs `make MPI=asan`; tests/run.sh's sanitizer section runs it.
source "$(dirname "$0")/../dropin/common.bash"
source tests/sanitizers/lib.bash

# preloaded MPI NP [VAR=VALUE...] PROGRAM [ARGS...] (common.bash's, with
# the sanitized library): Open MPI only, the build-asan library.
preloaded() {
  local mpi=$1 np=$2 vars=()
  shift 2
  while [[ $1 == *=* ]]; do vars+=("$1"); shift; done
  echo "+ asan $mpi np=$np ${vars[*]:+${vars[*]} }$*"
  timeout 120 env LD_PRELOAD="$ASAN_RUNTIME $PWD/build-asan/lib/libcolibri.so" COLIBRI_STATS=1 \
    "${vars[@]}" mpirun --oversubscribe -n "$np" "$@" >"$OUT/out" 2>"$OUT/err"
  local rc=$?
  if sanitizer_reports "$OUT/out" "$OUT/err"; then
    grep -hE -A12 'ERROR: |runtime error: ' "$OUT/out" "$OUT/err" | head -40
    [ "$rc" -ne 0 ] || rc=1
  fi
  return "$rc"
}

d=build-asan/tests
for np in 1 3 4; do
  preloaded openmpi "$np" $d/dropin_reductions
  expect_ok $? "$np"
done
preloaded openmpi 4 $d/dropin_reductions split
expect_ok $? 4
for np in 1 3; do
  preloaded openmpi "$np" $d/dropin_exchange
  expect_ok $? "$np"
done
preloaded openmpi 4 $d/dropin_exchange split
expect_ok $? 4
for np in 2 3; do
  preloaded openmpi "$np" $d/dropin_nonblocking
  expect_ok $? "$np"
done
preloaded openmpi 2 COLIBRI_PROGRESS_THREAD=1 $d/dropin_nonblocking
expect_ok $? 2
preloaded openmpi 3 COLIBRI_ALLREDUCE_ALGORITHM=native $d/dropin_reductions
expect_ok $? 3 native
# Nonblocking calls that colibri hands to the MPI below: the request path's
# native branch (results checked by the program; no statistics to match).
preloaded openmpi 2 COLIBRI_ALLREDUCE_ALGORITHM=native COLIBRI_ALLTOALL_ALGORITHM=native \
  COLIBRI_ALLTOALLV_ALGORITHM=native $d/dropin_nonblocking
if [ $? -ne 0 ]; then
  fail "nonblocking calls with native algorithms"
  tail -n 5 "$OUT/out" "$OUT/err"
fi
preloaded openmpi 3 $d/dropin_no_reduction
if [ $? -ne 0 ] || grep -q '^colibri' "$OUT/err"; then
  fail "a program without reductions was affected:"
  cat "$OUT/out" "$OUT/err"
fi

finish
