#!/usr/bin/env bash
# Drop-in nonblocking collectives: the plain C program dropin_nonblocking
# (MPI_Iallreduce, MPI_Ialltoall, MPI_Ialltoallv mixed with point-to-point,
# and MPI-4's MPI_Allreduce_init on MPICH), preloaded under Open MPI and
# MPICH, with and without COLIBRI_PROGRESS_THREAD=1: right results, and
# COLIBRI_STATS shows colibri ran every call (iallreduce ..., allreduce_init).
source "$(dirname "$0")/common.bash"

for np in 2 3; do
  preloaded openmpi "$np" build/tests/dropin_nonblocking
  expect_ok $? "$np"
done
preloaded openmpi 2 COLIBRI_PROGRESS_THREAD=1 build/tests/dropin_nonblocking
expect_ok $? 2
preloaded mpich 2 build-mpich/tests/dropin_nonblocking
expect_ok $? 2
preloaded mpich 2 COLIBRI_PROGRESS_THREAD=1 build-mpich/tests/dropin_nonblocking
expect_ok $? 2

finish
