! A plain Fortran MPI program using the mpi_f08 module, which Open MPI
! routes through its own internal entry points (ompi_allreduce_f, ...):
! MPI_Allreduce (in place, and with ierror omitted) and MPI_Reduce at the last
! rank, MPI_Alltoall in place, MPI_Iallreduce completed by MPI_Wait and
! MPI_Testall, checked against a serial computation.  Rank 0 prints "calls
! per rank: allreduce=... reduce=... alltoall=... iallreduce=..."; a wrong
! result makes the exit status nonzero.
program fortran_f08
  use mpi_f08
  implicit none
  integer, parameter :: n = 500
  integer :: ierr, rank, nprocs, i, r, errors
  integer :: a(n), b(n), want(n)
  integer, asynchronous :: c(n)
  type(MPI_Request) :: req(2)
  type(MPI_Status) :: status
  logical :: flag
  integer, allocatable :: x(:), xwant(:)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  errors = 0
  want = [(sum([(mod(r * 31 + i * 7, 97) - 40, r = 0, nprocs - 1)]), i = 1, n)]

  a = [(mod(rank * 31 + i * 7, 97) - 40, i = 1, n)]
  call MPI_Allreduce(MPI_IN_PLACE, a, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(a /= want)) errors = errors + 1

  a = [(mod(rank * 31 + i * 7, 97) - 40, i = 1, n)]
  call MPI_Allreduce(a, b, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (any(b /= want)) errors = errors + 1

  call MPI_Reduce(a, b, n, MPI_INTEGER, MPI_SUM, nprocs - 1, MPI_COMM_WORLD, ierr)
  if (rank == nprocs - 1 .and. (ierr /= MPI_SUCCESS .or. any(b /= want))) errors = errors + 1

  x = [((rank * 1000 + r * 10 + i, i = 1, 2), r = 0, nprocs - 1)]
  xwant = [((r * 1000 + rank * 10 + i, i = 1, 2), r = 0, nprocs - 1)]
  call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INTEGER, x, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS .or. any(x /= xwant)) errors = errors + 1

  ! nonblocking, asynchronous buffers; MPI_Wait and MPI_Testall (ierror omitted)
  a = [(mod(rank * 31 + i * 7, 97) - 40, i = 1, n)]
  call MPI_Iallreduce(a, c, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Wait(req(1), status, ierr)
  if (ierr /= MPI_SUCCESS .or. any(c /= want) .or. req(1) /= MPI_REQUEST_NULL) errors = errors + 1
  call MPI_Iallreduce(a, c, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(1))
  call MPI_Iallreduce(MPI_IN_PLACE, a, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(2))
  flag = .false.
  do while (.not. flag)
     call MPI_Testall(2, req, flag, MPI_STATUSES_IGNORE)
  end do
  if (any(c /= want) .or. any(a /= want)) errors = errors + 1

  if (rank == 0) print '(a)', 'calls per rank: allreduce=2 reduce=1 alltoall=1 iallreduce=3'
  if (errors /= 0) print '(a, i0, a, i0, a)', 'rank ', rank, ': ', errors, ' wrong results'
  call MPI_Finalize()
  if (errors /= 0) stop 1
end program fortran_f08
