/*
 * Simulated times of bcast, barrier, allgather(v), gather(v), scatter(v),
 * scan and exscan under SMPI, for
 * bench_node_movement_smpi.sh: each algorithm named (colibri's, "auto", or
 * "native" for SMPI's own, chosen by the run's --cfg=smpi/<coll>:...) at
 * each size, one untimed call (WARMUP in the environment: that many), then
 * the mean of `iters` calls, each after
 * a barrier below colibri, from the last rank's entry to the last rank's
 * exit (simulated clocks: deterministic).  Buffers are SMPI_SHARED_MALLOC'd (one copy for all
 * ranks: timings only, no result check; tests/smpi/node_movement.sh
 * checks results).  Rooted calls use root 0; the v forms give every rank
 * the same n bytes; scan and exscan sum n/8 doubles (at least one).
 *
 *   node_movement_smpi COLL ITERS SIZES ALGS   (SIZES, ALGS comma-separated)
 * Prints "coll,algorithm,bytes,us" lines (rank 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"
#include <smpi/smpi.h>

/* the v forms' counts and displacements: every block n bytes, in rank order */
static MPI_Count *counts;
static MPI_Aint *displs;

static int call(const char *coll, const char *alg, void *in, void *out, long n, int p)
{
    for (int i = 0; i < p; i++) {
        counts[i] = n;
        displs[i] = (MPI_Aint)i * n;
    }
    const long d = n / 8 > 0 ? n / 8 : 1;
    if (strcmp(coll, "bcast") == 0)
        return colibri_bcast(out, n, MPI_BYTE, 0, MPI_COMM_WORLD, alg);
    if (strcmp(coll, "barrier") == 0)
        return colibri_barrier(MPI_COMM_WORLD, alg);
    if (strcmp(coll, "allgatherv") == 0)
        return colibri_allgatherv(in, n, MPI_BYTE, out, counts, displs, MPI_BYTE, MPI_COMM_WORLD, alg);
    if (strcmp(coll, "gather") == 0)
        return colibri_gather(in, n, MPI_BYTE, out, n, MPI_BYTE, 0, MPI_COMM_WORLD, alg);
    if (strcmp(coll, "gatherv") == 0)
        return colibri_gatherv(in, n, MPI_BYTE, out, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD, alg);
    if (strcmp(coll, "scatter") == 0)
        return colibri_scatter(out, n, MPI_BYTE, in, n, MPI_BYTE, 0, MPI_COMM_WORLD, alg);
    if (strcmp(coll, "scatterv") == 0)
        return colibri_scatterv(out, counts, displs, MPI_BYTE, in, n, MPI_BYTE, 0, MPI_COMM_WORLD, alg);
    if (strcmp(coll, "scan") == 0)
        return colibri_scan(in, out, d, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, alg);
    if (strcmp(coll, "exscan") == 0)
        return colibri_exscan(in, out, d, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, alg);
    return colibri_allgather(in, n, MPI_BYTE, out, n, MPI_BYTE, MPI_COMM_WORLD, alg);
}

static colibri_coll kind(const char *coll)
{
    static const struct {
        const char *name;
        colibri_coll kind;
    } kinds[] = {
        {"bcast", COLIBRI_BCAST},     {"barrier", COLIBRI_BARRIER},   {"allgatherv", COLIBRI_ALLGATHERV},
        {"gather", COLIBRI_GATHER},   {"gatherv", COLIBRI_GATHERV},   {"scatter", COLIBRI_SCATTER},
        {"scatterv", COLIBRI_SCATTERV}, {"scan", COLIBRI_SCAN},       {"exscan", COLIBRI_EXSCAN},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(coll, kinds[i].name) == 0)
            return kinds[i].kind;
    return COLIBRI_ALLGATHER;
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
    /* the p-block side: every rank's for allgather(v), the root's for the
     * rooted calls (scatter sends from `out`); one buffer's bytes else */
    const int single = strcmp(coll, "bcast") == 0 || strcmp(coll, "barrier") == 0 ||
                       strcmp(coll, "scan") == 0 || strcmp(coll, "exscan") == 0;
    if (most < 8)
        most = 8;
    const int rooted = strcmp(coll, "allgather") != 0 && strcmp(coll, "allgatherv") != 0;
    const long out_bytes = single || (rooted && rank != 0) ? most : most * p;
    counts = malloc(sizeof *counts * p);
    displs = malloc(sizeof *displs * p);
    char *in = SMPI_SHARED_MALLOC(most);
    /* p blocks at the root only: every rank's folded mapping of p blocks
     * would pass the kernel's map count at 1024 ranks */
    char *out = SMPI_SHARED_MALLOC(out_bytes);
    snprintf(algs, sizeof algs, "%s", argv[4]);
    char *asave = NULL;
    for (char *a = strtok_r(algs, ",", &asave); a; a = strtok_r(NULL, ",", &asave)) {
        const char *alg = strcmp(a, "auto") == 0 ? NULL : a;
        snprintf(sizes, sizeof sizes, "%s", argv[3]);
        char *ssave = NULL;
        for (char *s = strtok_r(sizes, ",", &ssave); s; s = strtok_r(NULL, ",", &ssave)) {
            const long n = atol(s);
            /* untimed calls first: one, or WARMUP (automatic selection's
             * online exploration decides on the way) */
            const int warm = getenv("WARMUP") && atoi(getenv("WARMUP")) > 0 ? atoi(getenv("WARMUP")) : 1;
            int rc = MPI_SUCCESS;
            for (int i = 0; i < warm && rc == MPI_SUCCESS; i++)
                rc = call(coll, alg, in, out, n, p);
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
            const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, kind(coll));
            if (rank == 0)
                printf("%s,%s%s%s,%ld,%.2f\n", coll, a, alg ? "" : "=", alg ? "" : (ran ? ran : "?"),
                       n, rc == MPI_SUCCESS ? total / iters * 1e6 : -1.0);
            fflush(stdout);
        }
    }
    SMPI_SHARED_FREE(in);
    SMPI_SHARED_FREE(out);
    free(counts);
    free(displs);
    MPI_Finalize();
    return 0;
}
