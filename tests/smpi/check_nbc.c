/*
 * check_nbc: nonblocking and persistent collectives under SimGrid SMPI (on
 * however many processes it runs): several MPI_Iallreduce, MPI_Ireduce,
 * MPI_Ireduce_scatter_block, MPI_Ialltoall and MPI_Ialltoallv (automatic:
 * with its nonblocking agreement) outstanding at once and completed by
 * MPI_Waitall, one by MPI_Wait, and a persistent allreduce started five
 * times with new contents; results against a closed-form reference.  Only
 * MPI_Wait(all): SMPI 3.32's MPI_Testany/Testsome mishandle statuses.
 * Prints "N passed, N failed"; exits non-zero on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"

#define CHECK_MAX_LINES 10
#include "../lib/check.h"

#define N 40

static int rank, size;

static int val(int r, int i, int k) { return (r * 5 + i * 3 + k * 7) % 101; }

static void expect(int ok, const char *what)
{
    if (check_count(ok))
        fprintf(stderr, "rank %d: %s wrong\n", rank, what);
}

static int sum(int i, int k)
{
    int s = 0;
    for (int q = 0; q < size; q++)
        s += val(q, i, k);
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *in = malloc((size_t)N * size * sizeof(int)), *ar = malloc(N * sizeof(int));
    int *rd = malloc(N * sizeof(int)), *rsb = malloc(N * sizeof(int));
    int *a2a = malloc((size_t)N * size * sizeof(int)), *a2av = malloc((size_t)N * size * sizeof(int));
    int *cnt = malloc((size_t)size * sizeof(int)), *dsp = malloc((size_t)size * sizeof(int));
    for (int j = 0; j < size; j++)
        cnt[j] = (rank + j) % 2 ? N : N / 2, dsp[j] = j * N;
    int *rcnt = malloc((size_t)size * sizeof(int));
    for (int j = 0; j < size; j++)
        rcnt[j] = (j + rank) % 2 ? N : N / 2; /* what j sends me */
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < N * size; i++)
            in[i] = val(rank, i, k);
        MPI_Request r[5];
        MPI_Iallreduce(in, ar, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
        MPI_Ireduce(in, rd, N, MPI_INT, MPI_SUM, k % size, MPI_COMM_WORLD, &r[1]);
        MPI_Ireduce_scatter_block(in, rsb, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[2]);
        MPI_Ialltoall(in, N, MPI_INT, a2a, N, MPI_INT, MPI_COMM_WORLD, &r[3]);
        MPI_Ialltoallv(in, cnt, dsp, MPI_INT, a2av, rcnt, dsp, MPI_INT, MPI_COMM_WORLD, &r[4]);
        if (k == 1)
            for (int j = 4; j >= 0; j--)
                MPI_Wait(&r[j], MPI_STATUS_IGNORE);
        else
            MPI_Waitall(5, r, MPI_STATUSES_IGNORE);
        int ok[5] = {1, 1, 1, 1, 1};
        for (int i = 0; i < N; i++) {
            ok[0] &= ar[i] == sum(i, k);
            ok[1] &= rank != k % size || rd[i] == sum(i, k);
            ok[2] &= rsb[i] == sum(rank * N + i, k);
        }
        for (int j = 0; j < size; j++) {
            for (int i = 0; i < N; i++)
                ok[3] &= a2a[j * N + i] == val(j, rank * N + i, k);
            for (int i = 0; i < rcnt[j]; i++)
                ok[4] &= a2av[j * N + i] == val(j, rank * N + i, k);
        }
        expect(ok[0], "MPI_Iallreduce");
        expect(ok[1], "MPI_Ireduce");
        expect(ok[2], "MPI_Ireduce_scatter_block");
        expect(ok[3], "MPI_Ialltoall");
        expect(ok[4], "MPI_Ialltoallv");
    }
    MPI_Request p;
    colibri_allreduce_init(in, ar, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, NULL, &p);
    for (int k = 10; k < 15; k++) {
        for (int i = 0; i < N; i++)
            in[i] = val(rank, i, k);
        MPI_Start(&p);
        MPI_Wait(&p, MPI_STATUS_IGNORE);
        int ok = 1;
        for (int i = 0; i < N; i++)
            ok &= ar[i] == sum(i, k);
        expect(ok, "persistent allreduce");
    }
    MPI_Request_free(&p);
    int mine[2] = {(int)check_passed, (int)check_failed}, all[2];
    MPI_Reduce(mine, all, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        check_print_totals(all[0], all[1]);
    MPI_Finalize();
    return check_failed ? 1 : 0;
}
