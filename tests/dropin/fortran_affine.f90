! The user-defined operation of the Fortran drop-in programs: composition of
! affine maps x -> m x + c modulo 1009, stored as integer pairs (m, c).  It
! is associative but not commutative, so it checks the order of combination:
! inoutvec = invec o inoutvec, invec coming from the lower ranks.
subroutine affine(invec, inoutvec, len, datatype)
  implicit none
  integer :: len, datatype
  integer :: invec(2, len), inoutvec(2, len)
  integer :: k, m, c
  do k = 1, len
     m = mod(invec(1, k) * inoutvec(1, k), 1009)
     c = mod(invec(1, k) * inoutvec(2, k) + invec(2, k), 1009)
     inoutvec(1, k) = m
     inoutvec(2, k) = c
  end do
end subroutine affine
