#!/usr/bin/env bash
# Drop-in under MPICH (2 ranks: it busy-polls): the plain C program
# dropin_reductions and dropin_exchange (alltoall, alltoallv), preloaded, through the classic entry points, through the
# MPI-4 large-count ones (MPI_Allreduce_c, ...; what mpi4py on MPICH calls)
# and on sub-communicators only; COLIBRI_STATS accounts for every call.  A
# program without reductions is unaffected.
source "$(dirname "$0")/common.bash"
prog=build-mpich/tests/dropin_reductions

for mode in "" large-count split; do
  preloaded mpich 2 "$prog" $mode
  expect_ok $? 2
  preloaded mpich 2 build-mpich/tests/dropin_exchange $mode
  expect_ok $? 2
done

# The node-aware reductions forced (auto picks them by size on one node).
preloaded mpich 2 COLIBRI_ALLREDUCE_ALGORITHM=node_leader COLIBRI_REDUCE_ALGORITHM=node_leader "$prog"
expect_ok $? 2 node_leader
preloaded mpich 2 COLIBRI_ALLREDUCE_ALGORITHM=node_split_rail COLIBRI_REDUCE_ALGORITHM=node_split_rail \
  COLIBRI_REDUCE_SCATTER_ALGORITHM=node_split_rail COLIBRI_REDUCE_SCATTER_BLOCK_ALGORITHM=node_split_rail "$prog" large-count
expect_ok $? 2 node_split_rail

preloaded mpich 2 build-mpich/tests/dropin_no_reduction
if [ $? -ne 0 ] || grep -q '^colibri' "$OUT/err"; then
  fail "a program without reductions was affected:"
  cat "$OUT/out" "$OUT/err"
fi

finish
