/*
 * `sized <allreduce|alltoall|bcast|scan> <bytes> [calls]`: that many calls
 * (default 3) of one collective at one size, as an application would make
 * them (MPI_Allreduce and MPI_Scan of doubles, sum; MPI_Alltoall of bytes,
 * `bytes` per block; MPI_Bcast of `bytes` bytes from rank 0), results
 * checked.  tests/dropin/tune.sh preloads colibri with a
 * tuning file and reads which algorithm COLIBRI_STATS says ran.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, errors = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3) {
        fprintf(stderr, "usage: sized <allreduce|alltoall|bcast|scan> <bytes> [calls]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int alltoall = strcmp(argv[1], "alltoall") == 0, bcast = strcmp(argv[1], "bcast") == 0,
              scan = strcmp(argv[1], "scan") == 0;
    const long bytes = atol(argv[2]), calls = argc > 3 ? atol(argv[3]) : 3;
    const long n = alltoall ? bytes * size : bcast ? bytes : (bytes / 8 > 0 ? bytes / 8 : 1);
    unsigned char *s = malloc((size_t)n * 8), *r = malloc((size_t)n * 8);
    for (long c = 0; c < calls; c++) {
        if (alltoall) {
            for (long i = 0; i < n; i++)
                s[i] = (unsigned char)(rank + i / bytes);
            MPI_Alltoall(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, MPI_COMM_WORLD);
            for (long i = 0; i < n; i++)
                errors += r[i] != (unsigned char)(i / bytes + rank);
        } else if (bcast) {
            for (long i = 0; i < n; i++)
                r[i] = (unsigned char)(rank == 0 ? i * 7 + c : 0);
            MPI_Bcast(r, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
            for (long i = 0; i < n; i++)
                errors += r[i] != (unsigned char)(i * 7 + c);
        } else if (scan) {
            double *x = (double *)s, *y = (double *)r;
            for (long i = 0; i < n; i++)
                x[i] = rank + i;
            MPI_Scan(x, y, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            for (long i = 0; i < n; i++)
                errors += y[i] != (double)rank * (rank + 1) / 2 + (double)(rank + 1) * i;
        } else {
            double *x = (double *)s, *y = (double *)r;
            for (long i = 0; i < n; i++)
                x[i] = rank + i;
            MPI_Allreduce(x, y, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            for (long i = 0; i < n; i++)
                errors += y[i] != (double)size * (size - 1) / 2 + (double)size * i;
        }
    }
    if (errors)
        fprintf(stderr, "rank %d: %d wrong values\n", rank, errors);
    printf("calls per rank: %s=%ld\n", argv[1], calls);
    free(s);
    free(r);
    MPI_Finalize();
    return errors != 0;
}
