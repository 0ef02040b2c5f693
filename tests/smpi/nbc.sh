#!/usr/bin/env bash
# Nonblocking and persistent collectives under SMPI (check_nbc.c) on 2, 7
# and 64 simulated ranks.
source "$(dirname "$0")/lib.bash"
smpi_build check_nbc
status=0
for np in 2 7 64; do
  smpi_run "$np" build-smpi/tests/smpi_check_nbc || status=1
done
exit $status
