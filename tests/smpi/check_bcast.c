/*
 * Bcast's algorithms under SimGrid SMPI, judged by simulated time
 * (deterministic): `check_bcast BYTES ALG...` broadcasts BYTES bytes from
 * rank 1 with each named algorithm ("auto" for colibri's choice, "native"
 * for SMPI's own), once to set things up and once timed, from the last
 * rank's start to the last rank's end; checks every byte everywhere, and
 * prints per algorithm
 *     time ALG BYTES US ran NAME
 * (NAME: what colibri_last_algorithm says ran) for tests/smpi/bcast.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"

#define CHECK_MAX_LINES -1
#include "../lib/check.h"
#include "smpi_check.h"

static int rank, size;

static double call(unsigned char *buf, long n, const char *alg, int k, int *ok)
{
    const int root = size > 1 ? 1 : 0;
    for (long i = 0; i < n; i++)
        buf[i] = rank == root ? (unsigned char)(i * 7 + k) : 0;
    PMPI_Barrier(MPI_COMM_WORLD); /* the MPI's own: colibri's barrier would move the start */
    double t[2] = {MPI_Wtime(), 0};
    *ok &= colibri_bcast(buf, n, MPI_BYTE, root, MPI_COMM_WORLD,
                         strcmp(alg, "auto") ? alg : NULL) == MPI_SUCCESS;
    t[1] = MPI_Wtime();
    for (long i = 0; i < n; i++)
        *ok &= buf[i] == (unsigned char)(i * 7 + k);
    double last[2];
    PMPI_Allreduce(t, last, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return last[1] - last[0];
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long n = argc > 1 ? atol(argv[1]) : 1 << 20;
    unsigned char *buf = malloc((size_t)n + 1);
    for (int a = 2; a < argc; a++) {
        int ok = 1;
        call(buf, n, argv[a], 0, &ok);
        const double t = call(buf, n, argv[a], 1, &ok);
        char what[160];
        snprintf(what, sizeof what, "bcast %s of %ld bytes: bytes wrong or an error", argv[a], n);
        smpi_report(ok, what);
        const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_BCAST);
        if (rank == 0)
            printf("time %s %ld %.3f ran %s\n", argv[a], n, t * 1e6, ran ? ran : "native");
    }
    free(buf);
    int failed = (int)check_failed;
    PMPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        check_print_totals(check_passed, check_failed);
    MPI_Finalize();
    return failed ? 1 : 0;
}
