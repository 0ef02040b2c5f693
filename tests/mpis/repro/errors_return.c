/* Intel MPI 2021.19's libmpi_abi.so ignores MPI_ERRORS_RETURN (no colibri
 * involved; docs/mpis.md).  Not part of the suite: run by hand.
 *
 *   M=.cache/mpis; $M/mpich5/bin/mpicc_abi tests/mpis/repro/errors_return.c -o /tmp/er
 *   $M/mpich5/bin/mpirun -n 2 /tmp/er            # MPICH 5: both errors returned
 *   LD_LIBRARY_PATH=$M/impi/lib I_MPI_ROOT=$PWD/$M/impi PATH=$M/impi/bin:$PATH \
 *     I_MPI_FABRICS=shm mpirun -n 2 /tmp/er      # Intel MPI: aborts at the first
 *
 * Intel's own ABI (mpicc from the same package, libmpi.so) returns both. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me, size = -1, cls = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* an optional type this MPI lacks (Intel: MPI_INTEGER16) or the null type */
    int rc = MPI_Type_size(MPI_DATATYPE_NULL, &size);
    MPI_Error_class(rc, &cls);
    printf("rank %d: MPI_Type_size(MPI_DATATYPE_NULL) returned class %d (MPI_ERR_TYPE = %d)\n", me,
           cls, MPI_ERR_TYPE);
    fflush(stdout);

    /* a truncated message: rank 0 sends rank 1 two ints, rank 1 expects one */
    int s[2] = {1, 2}, r[2] = {0, 0};
    MPI_Request q[2];
    MPI_Status st[2];
    int peer = me ^ 1;
    if (peer < 2) {
        MPI_Irecv(r, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(s, me == 0 ? 2 : 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &q[1]);
        rc = MPI_Waitall(2, q, st);
        MPI_Error_class(rc, &cls);
        printf("rank %d: MPI_Waitall returned class %d (MPI_ERR_IN_STATUS = %d)\n", me, cls,
               MPI_ERR_IN_STATUS);
    }
    MPI_Finalize();
    return 0;
}
