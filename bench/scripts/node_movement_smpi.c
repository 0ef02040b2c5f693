/*
 * Simulated times of bcast, barrier and allgather under SMPI, for
 * bench_node_movement_smpi.sh: each algorithm named (colibri's, "auto", or
 * "native" for SMPI's own, chosen by the run's --cfg=smpi/<coll>:...) at
 * each size, one untimed call, then the mean of `iters` calls, each after
 * a barrier below colibri, from the last rank's entry to the last rank's
 * exit (simulated clocks: deterministic).  Buffers are SMPI_SHARED_MALLOC'd (one copy for all
 * ranks: timings only, no result check; tests/smpi/node_movement.sh
 * checks results).
 *
 *   node_movement_smpi COLL ITERS SIZES ALGS   (SIZES, ALGS comma-separated)
 * Prints "coll,algorithm,bytes,us" lines (rank 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"
#include <smpi/smpi.h>

static int call(const char *coll, const char *alg, void *in, void *out, long n, int p)
{
    if (strcmp(coll, "bcast") == 0)
        return colibri_bcast(out, n, MPI_BYTE, 0, MPI_COMM_WORLD, alg);
    if (strcmp(coll, "barrier") == 0)
        return colibri_barrier(MPI_COMM_WORLD, alg);
    (void)p;
    return colibri_allgather(in, n, MPI_BYTE, out, n, MPI_BYTE, MPI_COMM_WORLD, alg);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc < 5) {
        if (rank == 0)
            fprintf(stderr, "usage: %s COLL ITERS SIZES ALGS\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *coll = argv[1];
    const int iters = atoi(argv[2]);
    char sizes[512], algs[512];
    snprintf(sizes, sizeof sizes, "%s", argv[3]);
    long most = 0;
    for (char *s = strtok(sizes, ","); s; s = strtok(NULL, ","))
        most = atol(s) > most ? atol(s) : most;
    const long out_bytes = strcmp(coll, "allgather") == 0 ? most * p : most;
    char *in = SMPI_SHARED_MALLOC(most > 0 ? most : 1);
    char *out = SMPI_SHARED_MALLOC(out_bytes > 0 ? out_bytes : 1);
    snprintf(algs, sizeof algs, "%s", argv[4]);
    char *asave = NULL;
    for (char *a = strtok_r(algs, ",", &asave); a; a = strtok_r(NULL, ",", &asave)) {
        const char *alg = strcmp(a, "auto") == 0 ? NULL : a;
        snprintf(sizes, sizeof sizes, "%s", argv[3]);
        char *ssave = NULL;
        for (char *s = strtok_r(sizes, ",", &ssave); s; s = strtok_r(NULL, ",", &ssave)) {
            const long n = atol(s);
            int rc = call(coll, alg, in, out, n, p);
            double total = 0;
            for (int i = 0; i < iters && rc == MPI_SUCCESS; i++) {
                PMPI_Barrier(MPI_COMM_WORLD);
                /* from the last rank's entry to the last rank's exit, on
                 * the simulation's one clock: the barrier's exit skew
                 * (SMPI's default barrier: tens of us at 256 ranks) is
                 * not charged to the collective */
                double t[2] = {MPI_Wtime(), 0}, worst[2];
                rc = call(coll, alg, in, out, n, p);
                t[1] = MPI_Wtime();
                PMPI_Allreduce(t, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                total += worst[1] - worst[0];
            }
            const char *ran = colibri_last_algorithm(MPI_COMM_WORLD,
                                                     strcmp(coll, "bcast") == 0     ? COLIBRI_BCAST
                                                     : strcmp(coll, "barrier") == 0 ? COLIBRI_BARRIER
                                                                                    : COLIBRI_ALLGATHER);
            if (rank == 0)
                printf("%s,%s%s%s,%ld,%.2f\n", coll, a, alg ? "" : "=", alg ? "" : (ran ? ran : "?"),
                       n, rc == MPI_SUCCESS ? total / iters * 1e6 : -1.0);
            fflush(stdout);
        }
    }
    SMPI_SHARED_FREE(in);
    SMPI_SHARED_FREE(out);
    MPI_Finalize();
    return 0;
}
