#!/usr/bin/env bash
# MPI_COMM_WORLD's node layout exchanged under SMPI's default collectives
# (no --cfg=smpi/allgather; tests/smpi/lib.bash passes none): colibri's own
# allgather of node leaders, ceil(lg p) rounds, so a first automatic
# allreduce simulates in seconds at 256 ranks (16 nodes x 16), and at 14
# ranks on uneven hosts of 5, 2 and 7 (check_layout.c: counts and
# simulated time decide; the timeout only guards against a hang).
source "$(dirname "$0")/lib.bash"
smpi_build check_layout
export PLATFORM=platforms/cluster-256x16.xml
status=0
for layout in "5-2-7 14" "16x16 256"; do
  set -- $layout
  echo "== hosts $1, p=$2"
  HOSTFILE=platforms/hostfile-$1.txt timeout 300 bash -c "$(declare -f smpi_run); smpi_run $2 build-smpi/tests/smpi_check_layout" || status=1
done
exit $status
