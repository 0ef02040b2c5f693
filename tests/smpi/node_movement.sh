#!/usr/bin/env bash
# The node-aware data-movement algorithms (bcast, barrier, gather and
# scatter node_leader, allgather and allgatherv node_rails) and auto under SMPI with several ranks per host,
# against serial expectations (check_node_movement.c): 4 hosts x 4 ranks,
# hosts of 5, 2 and 7 ranks (uneven: 2 rails), one host of 6, ranks placed
# round-robin over 4 hosts, one rank per host; and the 5-2-7 layout again
# with a 4 KiB segment, so that buffers go through the segment in many
# chunks and slots are reused within a call.  Blocking, nonblocking and
# persistent forms; gatherv and scatterv binomial and auto too (40 ranks
# one a host: auto's model takes binomial there and online selection
# weighs it against SMPI's own; once more with fake timings that flip its
# decisions between calls, results still exact).
source "$(dirname "$0")/lib.bash"
smpi_build check_node_movement
status=0
for layout in "4x4 16" "5-2-7 14" "1x6 6" "rr-4x3 12" "1024 5" "1024 40"; do
  set -- $layout
  echo "== hosts $1, p=$2"
  HOSTFILE=platforms/hostfile-$1.txt smpi_run "$2" build-smpi/tests/smpi_check_node_movement || status=1
done
echo "== hosts 5-2-7, p=14, COLIBRI_NODE_SHM_BYTES=4096"
COLIBRI_NODE_SHM_BYTES=4096 HOSTFILE=platforms/hostfile-5-2-7.txt smpi_run 14 \
  build-smpi/tests/smpi_check_node_movement || status=1
echo "== hosts 1024, p=40, auto with fake timings that flip online decisions"
COLIBRI_ONLINE_FAKE=random:5,calls=2,window=1 HOSTFILE=platforms/hostfile-1024.txt \
  smpi_run 40 build-smpi/tests/smpi_check_node_movement auto || status=1
exit $status
