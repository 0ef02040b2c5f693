! fortran_use_mpi.f90 with the MPI definitions from mpif.h instead of the
! `use mpi` module: same checks (fortran_checks.inc).
program fortran_mpif
  implicit none
  include 'mpif.h'
  include 'fortran_checks.inc'
end program fortran_mpif
