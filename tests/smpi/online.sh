#!/usr/bin/env bash
# Online selection decided by SMPI's simulated clock (check_online.c): 16
# ranks, 1 MiB allreduce, no tuning file and no cost-model parameters typed.
source "$(dirname "$0")/lib.bash"
smpi_build check_online
smpi_run 16 build-smpi/tests/smpi_check_online
