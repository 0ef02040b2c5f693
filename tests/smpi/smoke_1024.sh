#!/usr/bin/env bash
# 1024 simulated ranks: allreduce with colibri's own choice and a few forced
# algorithms on a small vector, every rank's result checked (check_scale.c).
source "$(dirname "$0")/lib.bash"
smpi_build check_scale
smpi_run 1024 build-smpi/tests/smpi_check_scale 1031 auto recursive_doubling rabenseifner reduce_bcast
