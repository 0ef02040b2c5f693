#!/usr/bin/env bash
# The node-aware reductions (node_leader, node_split_rail, node_rails) and auto under
# SMPI with several ranks per host, against serial references
# (check_catalog.c): 4 hosts x 4 ranks, hosts of 5, 2 and 7 ranks (uneven:
# 2 rails), one host of 6, ranks placed round-robin over 4 hosts (nodes
# not consecutive: non-commutative operations must be refused), one rank
# per host; and the 5-2-7 layout again with a 4 KiB segment, so that
# vectors go through the segment in many chunks and slots are reused
# within a call; then node_rails' nonblocking and persistent forms.
source "$(dirname "$0")/lib.bash"
smpi_build check_catalog
algs=(auto node_leader node_split_rail node_rails)
status=0
for layout in "4x4 16" "5-2-7 14" "1x6 6" "rr-4x3 12" "1024 5"; do
  set -- $layout
  echo "== hosts $1, p=$2"
  HOSTFILE=platforms/hostfile-$1.txt smpi_run "$2" build-smpi/tests/smpi_check_catalog "${algs[@]}" || status=1
done
echo "== hosts 5-2-7, p=14, COLIBRI_NODE_SHM_BYTES=4096"
COLIBRI_NODE_SHM_BYTES=4096 HOSTFILE=platforms/hostfile-5-2-7.txt smpi_run 14 \
  build-smpi/tests/smpi_check_catalog "${algs[@]}" || status=1
# node_rails nonblocking and persistent across uneven nodes: check_nbc's
# MPI_Iallreduce, MPI_Ireduce and persistent allreduce with it forced
smpi_build check_nbc
for layout in "5-2-7 14" "4x4 16"; do
  set -- $layout
  echo "== hosts $1, p=$2, nonblocking and persistent, node_rails"
  COLIBRI_ALLREDUCE_ALGORITHM=node_rails COLIBRI_REDUCE_ALGORITHM=node_rails \
    HOSTFILE=platforms/hostfile-$1.txt smpi_run "$2" build-smpi/tests/smpi_check_nbc || status=1
done
exit $status
