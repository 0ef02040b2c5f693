#!/usr/bin/env bash
# dropin_c.sh TARGET: the C drop-in programs (tests/dropin/*.c, built into
# TARGET's build folder, linked without colibri) with that build's
# libcolibri.so preloaded, on a library of tests/lib/mpis.bash (ompi5:
# 1-4 ranks; mpich5, impi, abi-mpich5, abi-impi: 1-2 ranks, they
# busy-poll): right results, and COLIBRI_STATS accounts for every call
# (colibri ran it, not the MPI below), on MPI_COMM_WORLD and on
# sub-communicators only, through the MPI-4 large-count entry points where
# the library has them, with the node-aware reductions forced, the
# nonblocking and persistent forms (with and without the progress thread);
# a program without reductions is unaffected.  tests/run.sh runs it per
# library ("TARGET dropin_c").
source "$(dirname "$0")/../dropin/common.bash"
t=${1:?usage: dropin_c.sh ompi5|mpich5|impi|abi-mpich5|abi-impi|site}
if why=$(mpi_missing "$t"); then
  echo "SKIP: $why"
  exit 77
fi
b=$(mpi_build "$t")
kind=$(mpi_kind "$t")
nps="1 2"; [ "$kind" = ompi5 ] && nps="1 2 3 4"
max=${nps##* }
modes=(split)
# Open MPI 5.0 is MPI 3.1: no MPI_Allreduce_c & co.
[ "$kind" != ompi5 ] && modes+=(large-count)

for np in $nps; do
  preloaded "$t" "$np" "$b/tests/dropin_reductions"
  expect_ok $? "$np"
  preloaded "$t" "$np" "$b/tests/dropin_exchange"
  expect_ok $? "$np"
done
for mode in "${modes[@]}"; do
  preloaded "$t" "$max" "$b/tests/dropin_reductions" "$mode"
  expect_ok $? "$max"
  preloaded "$t" "$max" "$b/tests/dropin_exchange" "$mode"
  expect_ok $? "$max"
done

# The node-aware reductions forced (auto picks them by size on one node).
preloaded "$t" "$max" COLIBRI_ALLREDUCE_ALGORITHM=node_leader COLIBRI_REDUCE_ALGORITHM=node_leader \
  "$b/tests/dropin_reductions"
expect_ok $? "$max" node_leader
preloaded "$t" "$max" COLIBRI_ALLREDUCE_ALGORITHM=node_split_rail COLIBRI_REDUCE_ALGORITHM=node_split_rail \
  COLIBRI_REDUCE_SCATTER_ALGORITHM=node_split_rail COLIBRI_REDUCE_SCATTER_BLOCK_ALGORITHM=node_split_rail \
  "$b/tests/dropin_reductions"
expect_ok $? "$max" node_split_rail
# through a 512-byte segment, in many chunks: allreduce only (with all four
# collectives this took 20-73 s at 4 ranks on a 2-core machine at load 16,
# on Open MPI 4.1 as on 5, against the 60 s limit)
preloaded "$t" "$max" COLIBRI_ALLREDUCE_ALGORITHM=node_split_rail COLIBRI_NODE_SHM_BYTES=512 \
  "$b/tests/dropin_reductions" split
expect_ok $? "$max" node_split_rail

for np in 2 "$max"; do
  preloaded "$t" "$np" "$b/tests/dropin_nonblocking"
  expect_ok $? "$np"
done
preloaded "$t" 2 COLIBRI_PROGRESS_THREAD=1 "$b/tests/dropin_nonblocking"
expect_ok $? 2

preloaded "$t" "$max" "$b/tests/dropin_no_reduction"
if [ $? -ne 0 ] || grep -q '^colibri' "$OUT/err"; then
  fail "a program without reductions was affected:"
  cat "$OUT/out" "$OUT/err"
fi

finish
