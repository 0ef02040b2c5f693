! MPI_Alltoallv, MPI_Ialltoallv and MPI_Allreduce from Fortran on an
! intercommunicator whose groups differ in size (world rank 0 against the
! rest): Fortran's calls reach colibri's C entry points, which must hand them
! to the MPI below with the arrays as given (the remote group's size).
! Expected values from the MPI standard's intercommunicator definitions.
! Prints "intercomm ok" on every rank that saw the right results.
program fortran_intercomm
  use mpi
  implicit none
  integer :: ierr, wrank, wsize, g, local, inter, i, nl, nr, j, k, at, req, bad
  integer :: sc(0:63), sd(0:63), rc(0:63), rd(0:63)
  integer :: sbuf(256), rbuf(256), want(256), asend(3), arecv(3), awant(3)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, wrank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, wsize, ierr)
  g = 0
  if (wrank >= 1) g = 1
  call MPI_Comm_split(MPI_COMM_WORLD, g, wrank, local, ierr)
  call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - g, 42, inter, ierr)
  call MPI_Comm_rank(inter, i, ierr)
  call MPI_Comm_size(inter, nl, ierr)
  call MPI_Comm_remote_size(inter, nr, ierr)
  bad = 0

  ! block from rank i of group g to rank j of the other group: 1..3 ints
  at = 0
  do j = 0, nr - 1
    sc(j) = 1 + mod(i + j + g, 3)
    sd(j) = at
    do k = 0, sc(j) - 1
      sbuf(at + k + 1) = g * 1000 + i * 100 + j * 10 + k
    end do
    at = at + sc(j)
  end do
  at = 0
  do j = 0, nr - 1
    rc(j) = 1 + mod(j + i + (1 - g), 3)
    rd(j) = at
    do k = 0, rc(j) - 1
      want(at + k + 1) = (1 - g) * 1000 + j * 100 + i * 10 + k
    end do
    at = at + rc(j)
  end do

  rbuf = -1
  call MPI_Alltoallv(sbuf, sc, sd, MPI_INTEGER, rbuf, rc, rd, MPI_INTEGER, inter, ierr)
  if (ierr /= MPI_SUCCESS .or. any(rbuf(1:at) /= want(1:at))) then
    print *, 'FAIL MPI_Alltoallv on world rank', wrank, ierr
    bad = bad + 1
  end if
  rbuf = -1
  call MPI_Ialltoallv(sbuf, sc, sd, MPI_INTEGER, rbuf, rc, rd, MPI_INTEGER, inter, req, ierr)
  if (ierr == MPI_SUCCESS) call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS .or. any(rbuf(1:at) /= want(1:at))) then
    print *, 'FAIL MPI_Ialltoallv on world rank', wrank, ierr
    bad = bad + 1
  end if

  ! allreduce: each side receives the other group's sum
  do k = 1, 3
    asend(k) = (g + 1) * 100 + i * 10 + k
    awant(k) = 0
    do j = 0, nr - 1
      awant(k) = awant(k) + (2 - g) * 100 + j * 10 + k
    end do
  end do
  arecv = -1
  call MPI_Allreduce(asend, arecv, 3, MPI_INTEGER, MPI_SUM, inter, ierr)
  if (ierr /= MPI_SUCCESS .or. any(arecv /= awant)) then
    print *, 'FAIL MPI_Allreduce on world rank', wrank, ierr, arecv, awant
    bad = bad + 1
  end if

  if (bad == 0) print '(a)', 'intercomm ok'
  call MPI_Comm_free(inter, ierr)
  call MPI_Comm_free(local, ierr)
  call MPI_Finalize(ierr)
end program fortran_intercomm
