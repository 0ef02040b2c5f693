#!/usr/bin/env bash
# Drop-in under a Fortran program on an intercommunicator of 1 + 2 ranks,
# Open MPI and MPICH: MPI_Alltoallv, MPI_Ialltoallv and MPI_Allreduce go
# through src/interpose/fortran.c to colibri's C entry points, which hand
# intercommunicators to the MPI below untouched (their arrays have the remote
# group's size).  Every rank must print "intercomm ok"; a hang is a failure.
source "$(dirname "$0")/common.bash"

np=3
for mpi in openmpi mpich; do
  if [ "$mpi" = openmpi ]; then fc=mpif90 dir=build; else fc=mpif90.mpich dir=build-mpich; fi
  exe=$dir/tests/dropin_fortran_intercomm
  build "$exe" "$fc" -O1 -fallow-argument-mismatch -w tests/dropin/fortran_intercomm.f90 || continue
  preloaded "$mpi" "$np" "$exe"
  rc=$?
  ok=$(grep -c '^intercomm ok$' "$OUT/out")
  if [ "$rc" -ne 0 ] || [ "$ok" -ne "$np" ]; then
    fail "$mpi: exit status $rc, $ok of $np ranks ok"
    tail -n 20 "$OUT/out" "$OUT/err"
  fi
done

finish
