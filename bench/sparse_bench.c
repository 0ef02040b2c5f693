/*
 * Density sweep of the sparse allreduce (docs/sparse.md):
 *
 *   sparse-bench [-c allreduce|reduce] [-m min_bytes] [-M max_bytes] [-i iters]
 *                [-R reps] [-d d1,d2,...] [-o out.csv]
 *
 * (sizes accept K, M, G suffixes; without -o the CSV goes to stdout)
 *
 * For every size (doubling) and density, on MPI_DOUBLE / MPI_SUM, it times
 *   sparse-rd   colibri's sparse_recursive_doubling (allreduce) or
 *               sparse_binomial (reduce, root 0), forced;
 *   sparse-rab  colibri's sparse_rabenseifner, forced;
 *   auto    colibri's automatic choice (agreed density estimate, see
 *           api/reductions.c), after two untimed calls: below 64 KiB a shape's
 *           first call only registers it and the second makes the estimate
 *           (colibri_sparse_hint(comm, 0) first: the data changed);
 *   dense   the algorithm colibri picks without density information
 *           (colibri_select), forced by name;
 *   native  the MPI library's own MPI_Allreduce or MPI_Reduce (PMPI);
 * for two kinds of positions:
 *   random     every element of every rank independently non-zero with
 *              probability d (the union over p ranks fills in as 1-(1-d)^p);
 *   clustered  each rank's d*n non-zeros are one run placed at random inside
 *              a common window of 4 d n elements (features shared by ranks:
 *              the union stays within the window).
 * Non-zero values are 1.0, so every algorithm's sum is exact and they are
 * checked against each other (a 64-bit hash of each result against the
 * dense algorithm's: a full copy would not fit beside 64 ranks' 64 MiB
 * vectors in one simulation).  Time: the slowest rank's mean over iters;
 * with -R, the fastest of reps such measurements (real processes on a
 * shared machine).
 */
#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "colibri.h"

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static void fill(double *x, int64_t n, double d, int clustered, int rank)
{
    memset(x, 0, (size_t)n * sizeof *x);
    if (!clustered) {
        const uint64_t cut = (uint64_t)(d * 18446744073709551615.0);
        for (int64_t i = 0; i < n; i++)
            if (mix((uint64_t)rank << 40 ^ (uint64_t)i) < cut || d >= 1)
                x[i] = 1.0;
        return;
    }
    int64_t k = (int64_t)(d * (double)n + 0.5), window = 4 * k < n ? 4 * k : n;
    int64_t start = window > k ? (int64_t)(mix((uint64_t)rank) % (uint64_t)(window - k + 1)) : 0;
    for (int64_t j = 0; j < k; j++)
        x[start + j] = 1.0;
}

static uint64_t hash(const double *y, int64_t n)
{
    uint64_t h = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t b;
        memcpy(&b, &y[i], sizeof b);
        h = mix(h ^ b);
    }
    return h;
}

/* One call: name NULL is the MPI library's own. */
static void call(const char *name, int reduce, const double *x, double *y, int64_t n)
{
    if (name && reduce)
        colibri_reduce(x, y, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, name);
    else if (name)
        colibri_allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, name);
    else if (reduce)
        PMPI_Reduce(x, y, (int)n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    else
        PMPI_Allreduce(x, y, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

struct timed_call {
    const char *name;
    int reduce;
    const double *x;
    double *y;
    int64_t n;
};

static int one_call(void *ctx, int i)
{
    (void)i;
    const struct timed_call *c = ctx;
    call(c->name, c->reduce, c->x, c->y, c->n);
    return MPI_SUCCESS;
}

/* Seconds per call, the slowest rank's mean over iters after two untimed
 * calls (which make auto's estimate: the hint reset says the data changed);
 * adds this rank's bytes saved by the timed calls to *saved.  A reduce does
 * not synchronise: back to back, one call's tail overlaps the next's start,
 * so each is timed on its own from a barrier. */
static double timed(const char *name, int reduce, const double *x, double *y, int64_t n,
                    int iters, long long *saved)
{
    colibri_sparse_hint(MPI_COMM_WORLD, 0);
    call(name, reduce, x, y, n);
    call(name, reduce, x, y, n);
    struct timed_call c = {name, reduce, x, y, n};
    const struct bench_loop l = {one_call, &c, MPI_COMM_WORLD, iters, 0, reduce, 0};
    const long long saved0 = colibri_sparse_bytes_saved(MPI_COMM_WORLD);
    const double t = bench_time(&l);
    *saved += colibri_sparse_bytes_saved(MPI_COMM_WORLD) - saved0;
    return t;
}

static const char USAGE[] =
    "usage: sparse-bench [-c allreduce|reduce] [-m min_bytes] [-M max_bytes] [-i iters]\n"
    "                    [-R reps] [-d d1,d2,...] [-o out.csv]\n";

static int own_option(int opt, const char *arg, void *ctx)
{
    if (opt != 'd')
        return -1;
    snprintf(ctx, 256, "%s", arg);
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    char dens[256] = "1,0.1,0.01,0.001,0.0001";
    struct bench_opts o;
    bench_opts_init(&o, "sparse-bench", USAGE);
    o.min_bytes = 8 << 10;
    o.max_bytes = 1 << 20;
    o.iters = 3;
    if (bench_parse(argc, argv, "c:m:M:i:R:d:o:h", &o, own_option, dens) < argc)
        bench_usage_exit(&o, "unexpected argument");
    if (o.iters < 1 || o.min_bytes < 8)
        bench_usage_exit(&o, "need -i at least 1 and -m at least 8");
    const int64_t lo = o.min_bytes, hi = o.max_bytes;
    const int iters = o.iters, reps = o.reps, reduce = o.coll && strcmp(o.coll, "reduce") == 0;
    FILE *f = bench_csv_open(o.csv ? o.csv : "-",
                             "coll,p,bytes,density,positions,alg,ran,usec,bytes_saved_per_rank");
    const colibri_coll coll = reduce ? COLIBRI_REDUCE : COLIBRI_ALLREDUCE;
    double *x = malloc((size_t)hi), *y = malloc((size_t)hi);
    uint64_t ref = 0;
    for (int64_t bytes = lo; bytes <= hi; bytes *= 2) {
        const int64_t n = bytes / 8;
        char list[256];
        snprintf(list, sizeof list, "%s", dens);
        char *save = NULL; /* strtok_r: SMPI ranks share libc's strtok state */
        for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            const double d = atof(tok);
            for (int cl = 0; cl < 2; cl++) {
                if (d >= 1 && cl)
                    continue;
                fill(x, n, d, cl, rank);
                const char *algs[] = {"dense", "sparse-rd", "sparse-rab", "auto", "native"};
                const char *dense = colibri_select(coll, p, n, 8, 1);
                const char *names[] = {
                    dense, reduce ? "sparse_binomial" : "sparse_recursive_doubling",
                    "sparse_rabenseifner", "auto", NULL};
                for (int a = 0; a < 5; a++) {
                    const char *name = names[a];
                    long long saved = 0, total;
                    double t = 0;
                    for (int rep = 0; rep < reps; rep++) {
                        const double tr = timed(name, reduce, x, y, n, iters, &saved);
                        t = rep == 0 || tr < t ? tr : t;
                    }
                    /* bytes not sent, mean over the ranks (a reduce's root sends nothing) */
                    PMPI_Reduce(&saved, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
                    const char *ran = name ? colibri_last_algorithm(MPI_COMM_WORLD, coll) : "native";
                    if (rank == 0)
                        fprintf(f, "%s,%d,%lld,%g,%s,%s,%s,%.3f,%lld\n", colibri_coll_name(coll), p,
                                (long long)bytes, d, cl ? "clustered" : "random", algs[a], ran,
                                t * 1e6, total / p / iters / reps);
                    /* a reduce's result exists at the root only */
                    const uint64_t h = reduce && rank != 0 ? 0 : hash(y, n);
                    if (a == 0)
                        ref = h;
                    else if (h != ref) {
                        fprintf(stderr, "sparse-bench: WRONG RESULT: %s p=%d bytes=%lld d=%g\n",
                                algs[a], p, (long long)bytes, d);
                        PMPI_Abort(MPI_COMM_WORLD, 4);
                    }
                }
                if (f)
                    fflush(f);
            }
        }
    }
    bench_csv_close(f);
    free(x), free(y);
    MPI_Finalize();
    return 0;
}
