/*
 * Automatic alltoallv predicts its sizes (api/alltoall.c, sloavx.c), under
 * SimGrid SMPI on several ranks per host with per-message costs, judged by
 * simulated time (deterministic):
 *  - after a first automatic call (which agrees on the block sizes, then
 *    runs SLOAVx), the next takes no longer than SLOAVx named (to 0.1%):
 *    its sizes came with the last call's messages, so it agrees on
 *    nothing (an agreement costs about 4 us here, a quarter of the call);
 *  - calls whose sizes change (8-byte blocks, then 40, then none from odd
 *    ranks, then 8 again) still deliver every byte, and report sloavx.
 * Prints "N passed, N failed" (rank 0); exits non-zero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"

#define CHECK_MAX_LINES -1
#include "../lib/check.h"
#include "smpi_check.h"

static int rank, size;


/* Bytes rank s sends rank d in call k. */
static int count_of(int k, int s, int d)
{
    (void)d;
    return k == 1 ? 40 : k == 2 && s % 2 ? 0 : 8;
}

/* One alltoallv of call k's sizes; returns its time from the last rank's
 * start to the last rank's end (the barrier before releases ranks at
 * different times). */
static double call(int k, const char *alg, int *ok)
{
    MPI_Count *sc = malloc(4 * (size_t)size * sizeof *sc), *rc = sc + size;
    MPI_Aint *sd = malloc(2 * (size_t)size * sizeof *sd), *rd = sd + size;
    MPI_Aint st = 0, rt = 0;
    for (int j = 0; j < size; j++) {
        sc[j] = count_of(k, rank, j), rc[j] = count_of(k, j, rank);
        sd[j] = st, rd[j] = rt;
        st += sc[j], rt += rc[j];
    }
    unsigned char *s = malloc((size_t)st + 1), *r = malloc((size_t)rt + 1);
    for (int j = 0; j < size; j++)
        for (int b = 0; b < sc[j]; b++)
            s[sd[j] + b] = (unsigned char)(rank * 7 + j * 3 + b + k);
    PMPI_Barrier(MPI_COMM_WORLD); /* the MPI's own: colibri's barrier would move the start */
    double t[2] = {MPI_Wtime(), 0};
    colibri_alltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, MPI_COMM_WORLD, alg);
    t[1] = MPI_Wtime();
    for (int j = 0; j < size; j++)
        for (int b = 0; b < rc[j]; b++)
            *ok &= r[rd[j] + b] == (unsigned char)(j * 7 + rank * 3 + b + k);
    *ok &= strcmp(colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLTOALLV), "sloavx") == 0;
    double last[2];
    MPI_Allreduce(t, last, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    free(sc), free(sd), free(s), free(r);
    return last[1] - last[0];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ok = 1;
    call(0, "sloavx", &ok); /* the node's segment set up */
    const double first = call(0, NULL, &ok);
    const double named = call(0, "sloavx", &ok);
    const double second = call(0, NULL, &ok);
    char what[160];
    snprintf(what, sizeof what, "auto: first call %.2f us, then %.2f us; sloavx named %.2f us",
             first * 1e6, second * 1e6, named * 1e6);
    smpi_report(second <= named * 1.001, what);
    for (int k = 1; k <= 3; k++)
        call(k % 3, NULL, &ok);
    smpi_report(ok, "a call whose sizes changed: bytes lost, or not sloavx");
    if (rank == 0)
        printf("%s\n", what);
    int failed = (int)check_failed;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        check_print_totals(check_passed, check_failed);
    MPI_Finalize();
    return failed ? 1 : 0;
}
