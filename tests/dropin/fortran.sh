#!/usr/bin/env bash
# Drop-in under Fortran programs, Open MPI and MPICH: the same checks through
# `use mpi` and mpif.h (fortran_checks.inc), and a `use mpi_f08` program;
# preloaded, results right (MPI_IN_PLACE and a user-defined operation
# included), every reduction run by colibri and counted by COLIBRI_STATS.
# Open MPI's Fortran bindings, and MPICH's mpi_f08 MPI_Finalize, call PMPI_*
# directly: this is what src/interpose/fortran.c is for.
source "$(dirname "$0")/common.bash"

for mpi in openmpi mpich; do
  if [ "$mpi" = openmpi ]; then fc=mpif90 dir=build np=3; else fc=mpif90.mpich dir=build-mpich np=2; fi
  for prog in use_mpi mpif f08; do
    exe=$dir/tests/dropin_fortran_$prog
    srcs=(tests/dropin/fortran_$prog.f90) flags=(-O1 -Itests/dropin)
    # mpif.h, and MPICH's `use mpi`, declare no interfaces for buffer
    # arguments: gfortran >= 10 must be told to accept any type there.
    [ "$prog" = f08 ] || { srcs+=(tests/dropin/fortran_affine.f90); flags+=(-fallow-argument-mismatch -w); }
    build "$exe" "$fc" "${flags[@]}" "${srcs[@]}" || continue
    preloaded "$mpi" "$np" "$exe"
    expect_ok $? "$np"
  done
done

finish
