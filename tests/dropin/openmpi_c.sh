#!/usr/bin/env bash
# Drop-in under Open MPI: the plain C programs dropin_reductions and
# dropin_exchange (alltoall, alltoallv), preloaded,
# gives the right results at several process counts, on MPI_COMM_WORLD and on
# sub-communicators only, and COLIBRI_STATS accounts for every call;
# the node-aware reductions forced (and through a 512-byte segment, in many
# chunks) give the same; COLIBRI_ALLREDUCE_ALGORITHM=native hands allreduce to Open MPI, an unknown
# name fails listing the valid ones; a program without reductions is
# unaffected.
source "$(dirname "$0")/common.bash"
prog=build/tests/dropin_reductions

for np in 1 3 4 7; do
  preloaded openmpi "$np" "$prog"
  expect_ok $? "$np"
done

preloaded openmpi 4 "$prog" split
expect_ok $? 4

for np in 1 3 4 7; do
  preloaded openmpi "$np" build/tests/dropin_exchange
  expect_ok $? "$np"
done
preloaded openmpi 4 build/tests/dropin_exchange split
expect_ok $? 4

preloaded openmpi 3 COLIBRI_ALLREDUCE_ALGORITHM=native "$prog"
expect_ok $? 3 native

# The node-aware reductions forced, on one node (auto picks them by size).
preloaded openmpi 4 COLIBRI_ALLREDUCE_ALGORITHM=node_leader COLIBRI_REDUCE_ALGORITHM=node_leader "$prog"
expect_ok $? 4 node_leader
preloaded openmpi 3 COLIBRI_ALLREDUCE_ALGORITHM=node_split_rail COLIBRI_REDUCE_ALGORITHM=node_split_rail \
  COLIBRI_REDUCE_SCATTER_ALGORITHM=node_split_rail COLIBRI_REDUCE_SCATTER_BLOCK_ALGORITHM=node_split_rail "$prog"
expect_ok $? 3 node_split_rail
preloaded openmpi 4 COLIBRI_ALLREDUCE_ALGORITHM=node_split_rail COLIBRI_NODE_SHM_BYTES=512 "$prog" split
expect_ok $? 4 node_split_rail

preloaded openmpi 2 COLIBRI_ALLREDUCE_ALGORITHM=no_such_algorithm "$prog"
if [ $? -eq 0 ]; then
  fail "an unknown algorithm name was accepted"
elif ! grep -qE "^colibri: MPI_Allreduce: unknown allreduce algorithm 'no_such_algorithm' \(valid: ([a-z0-9_]+, )+auto, native\)$" "$OUT/err"; then
  fail "no message listing the valid algorithms:"
  head -5 "$OUT/err"
fi

preloaded openmpi 3 build/tests/dropin_no_reduction
if [ $? -ne 0 ] || grep -q '^colibri' "$OUT/err"; then
  fail "a program without reductions was affected:"
  cat "$OUT/out" "$OUT/err"
fi

finish
