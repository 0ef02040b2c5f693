#!/usr/bin/env bash
# Predicted node layouts under SMPI with several ranks per host (see
# check_setup.c): 4 hosts x 4 ranks, 3 hosts of 5, 2 and 7 ranks, one host
# of 6, one rank per host, and 16 hosts x 16 ranks, under SMPI's default
# collectives: colibri's world layout exchange is its own allgather, and the
# check's ground truth gathers and broadcasts (SMPI's default MPI_Allgather
# sends p^2 messages, which kept 16x16 from finishing in 10 minutes).
source "$(dirname "$0")/lib.bash"
smpi_build check_setup
status=0
for layout in "4x4 16" "5-2-7 14" "1x6 6" "1024 5" "16x16 256"; do
  set -- $layout
  echo "== hosts $1, p=$2"
  HOSTFILE=platforms/hostfile-$1.txt smpi_run "$2" build-smpi/tests/smpi_check_setup || status=1
done
exit $status
