#!/usr/bin/env bash
# Every alltoall and alltoallv algorithm (or those named on the command
# line), the node-aware sloavx above all, under
# SMPI with several ranks per host, so that MPI_Comm_split_type and the
# shared segment see real nodes: 4 hosts x 4 ranks, 3 hosts of 5, 2 and 7
# ranks, one host of 6, and one rank per host (see check_exchange.c).
source "$(dirname "$0")/lib.bash"
smpi_build check_exchange
algs=("$@") # empty: every catalog algorithm
status=0
for layout in "4x4 16" "5-2-7 14" "1x6 6" "1024 5"; do
  set -- $layout
  echo "== hosts $1, p=$2"
  HOSTFILE=platforms/hostfile-$1.txt smpi_run "$2" build-smpi/tests/smpi_check_exchange ${algs[@]+"${algs[@]}"} || status=1
done
exit $status
