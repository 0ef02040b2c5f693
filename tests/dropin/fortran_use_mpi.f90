! A plain Fortran MPI program (`use mpi`) that knows nothing of colibri; the
! drop-in scripts preload libcolibri.so under it.  The checks themselves are
! in fortran_checks.inc, shared with the mpif.h twin fortran_mpif.f90.
program fortran_use_mpi
  use mpi
  implicit none
  include 'fortran_checks.inc'
end program fortran_use_mpi
