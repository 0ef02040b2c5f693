#!/usr/bin/env bash
# Drop-in under a C++ program (mpicxx), Open MPI and MPICH: preloaded, its
# MPI_Allreduce calls give the right results and all run in colibri.
source "$(dirname "$0")/common.bash"

for mpi in openmpi mpich; do
  if [ "$mpi" = openmpi ]; then cxx=mpicxx dir=build np=3; else cxx=mpicxx.mpich dir=build-mpich np=2; fi
  exe=$dir/tests/dropin_cxx_allreduce
  build "$exe" "$cxx" -std=c++11 -O2 -Wall tests/dropin/cxx_allreduce.cpp || continue
  preloaded "$mpi" "$np" "$exe"
  expect_ok $? "$np"
done

finish
