/*
 * A plain MPI program (no colibri header) using the nonblocking
 * collectives colibri replaces, and on an MPI-4 library the persistent
 * MPI_Allreduce_init, mixed with point-to-point requests and completed by
 * MPI_Waitall and MPI_Test loops.  Exits non-zero on a wrong result; prints
 * "calls per rank: ..." for tests/dropin/nonblocking.sh to match against
 * COLIBRI_STATS.  Asks for MPI_THREAD_MULTIPLE (for the progress thread).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK_MAX_LINES 5
#include "../lib/check.h"

#define ITERS 10
#define N 1000

static int rank, size;

static int val(int r, int i, int k) { return (r * 13 + i * 5 + k) % 777; }

static void expect(int got, int want, const char *what)
{
    if (check_count(got == want))
        fprintf(stderr, "rank %d: %s: %d, expected %d\n", rank, what, got, want);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *in = malloc((size_t)N * size * sizeof(int)), *sum = malloc(N * sizeof(int));
    int *a2a = malloc((size_t)N * size * sizeof(int)), *a2av = malloc((size_t)N * size * sizeof(int));
    int *cnt = malloc((size_t)size * sizeof(int)), *dsp = malloc((size_t)size * sizeof(int));
    for (int j = 0; j < size; j++)
        cnt[j] = N, dsp[j] = j * N;
    int persistent = 0;
    for (int k = 0; k < ITERS; k++) {
        for (int i = 0; i < N * size; i++)
            in[i] = val(rank, i, k);
        MPI_Request r[5];
        MPI_Status st[5];
        int token = rank, got = -1;
        MPI_Iallreduce(in, sum, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
        MPI_Ialltoall(in, N, MPI_INT, a2a, N, MPI_INT, MPI_COMM_WORLD, &r[1]);
        MPI_Ialltoallv(in, cnt, dsp, MPI_INT, a2av, cnt, dsp, MPI_INT, MPI_COMM_WORLD, &r[2]);
        MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD, &r[3]);
        MPI_Isend(&token, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &r[4]);
        if (k % 2) {
            MPI_Waitall(5, r, st);
        } else {
            int done = 0;
            while (!done)
                MPI_Testall(5, r, &done, st);
        }
        expect(got, (rank + size - 1) % size, "ring");
        for (int i = 0; i < N; i++) {
            int s = 0;
            for (int q = 0; q < size; q++)
                s += val(q, i, k);
            expect(sum[i], s, "MPI_Iallreduce");
        }
        for (int j = 0; j < size; j++)
            for (int i = 0; i < N; i++) {
                expect(a2a[j * N + i], val(j, rank * N + i, k), "MPI_Ialltoall");
                expect(a2av[j * N + i], val(j, rank * N + i, k), "MPI_Ialltoallv");
            }
    }
#if MPI_VERSION >= 4
    MPI_Request p;
    MPI_Allreduce_init(in, sum, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &p);
    for (int k = 0; k < ITERS; k++, persistent++) {
        for (int i = 0; i < N; i++)
            in[i] = val(rank, i, k + 100);
        MPI_Start(&p);
        MPI_Wait(&p, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++) {
            int s = 0;
            for (int q = 0; q < size; q++)
                s += val(q, i, k + 100);
            expect(sum[i], s, "MPI_Allreduce_init");
        }
    }
    MPI_Request_free(&p);
#endif
    if (rank == 0) {
        printf("calls per rank: iallreduce=%d ialltoall=%d ialltoallv=%d", ITERS, ITERS, ITERS);
        if (persistent)
            printf(" allreduce_init=%d", persistent);
        printf("\n");
    }
    MPI_Finalize();
    return check_failed ? 1 : 0;
}
