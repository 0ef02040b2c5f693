/*
 * check_scale COUNT ALG...: MPI_Allreduce (sum of doubles) of COUNT elements
 * with each named colibri algorithm ("auto" included), on however many
 * processes SMPI runs it.  Each result is checked on every rank against the
 * closed-form serial reference and colibri_last_algorithm must name what ran;
 * then one more call is timed on SMPI's simulated clock.  Rank 0 prints one
 * line per algorithm,
 *
 *   time <alg> <ran> <microseconds>
 *
 * then "N passed, N failed".  Exits non-zero when any result is wrong or any
 * call fails; timing judges nothing here (tests/smpi/simtime.sh does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"
#include "smpi_errors.h"

#include "../lib/check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    return_errors(MPI_COMM_WORLD);
    if (argc < 3) {
        if (rank == 0)
            fprintf(stderr, "usage: check_scale COUNT ALG...\n");
        MPI_Finalize();
        return rank == 0 ? 2 : 0;
    }
    long count = atol(argv[1]);
    double *send = malloc((size_t)count * sizeof *send);
    double *recv = malloc((size_t)count * sizeof *recv);
    if (!send || !recv)
        PMPI_Abort(MPI_COMM_WORLD, 3);
    /* Integer-valued, so the sum is exact in any order:
     * sum_r (r + i mod 13) = p(p-1)/2 + p (i mod 13). */
    for (long i = 0; i < count; i++)
        send[i] = rank + (double)(i % 13);

    for (int a = 2; a < argc; a++) {
        const char *alg = argv[a];
        memset(recv, 0, (size_t)count * sizeof *recv);
        int rc = colibri_allreduce(send, recv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, alg);
        const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLREDUCE);
        int bad = rc != MPI_SUCCESS || !ran ||
                  (strcmp(alg, "auto") != 0 && strcmp(ran, alg) != 0);
        long first_wrong = -1;
        for (long i = 0; !bad && i < count; i++)
            if (recv[i] != (double)size * (size - 1) / 2 + (double)size * (double)(i % 13))
                first_wrong = i, bad = 1;
        if (bad && (rank == 0 || first_wrong >= 0))
            fprintf(stderr, "FAIL rank %d: %s: rc %d, ran '%s', first wrong element %ld\n", rank,
                    alg, rc, ran ? ran : "(null)", first_wrong);

        /* SMPI's clock is global: the call lasts from the last rank's start
         * to the last rank's end, which leaves out the barrier's exit skew. */
        double mine[3] = {bad, 0, 0}, all[3];
        if (!bad) {
            PMPI_Barrier(MPI_COMM_WORLD);
            mine[1] = MPI_Wtime();
            rc = colibri_allreduce(send, recv, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, alg);
            mine[2] = MPI_Wtime();
            mine[0] = rc != MPI_SUCCESS;
        }
        PMPI_Allreduce(mine, all, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        check_count(all[0] == 0);
        if (all[0] != 0)
            continue;
        if (rank == 0)
            printf("time %s %s %.3f\n", alg, ran, (all[2] - all[1]) * 1e6);
    }
    if (rank == 0)
        check_print_totals(check_passed, check_failed);
    free(send);
    free(recv);
    MPI_Finalize();
    return rank == 0 && check_failed ? 1 : 0;
}
