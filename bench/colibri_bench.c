/*
 * colibri-bench: OSU-style latency benchmark of colibri's reduction
 * collectives against each other, against the MPI below ("native") and
 * against the alpha-beta-gamma lower bound.
 *
 *   colibri-bench [-c allreduce|reduce|reduce_scatter_block|reduce_scatter]
 *                 [-a all|alg,alg,...] [-m min_bytes] [-M max_bytes] [-s step]
 *                 [-i iterations] [-w warmup] [-R repetitions]
 *                 [-t double|float|int|int64]
 *                 [-r root] [-B] [-L alpha,beta,gamma] [-N native_label]
 *                 [-o file.csv] [-q]
 *
 * "native" is the MPI library's own collective (PMPI_*; under SimGrid SMPI the
 * built-in chosen by --cfg=smpi/<coll>:<name>), "auto" is colibri's choice.
 * Sizes are the whole vector n in bytes (each rank's input), from -m to -M,
 * multiplied by -s (2) each time.
 *
 * For every size and algorithm: a first call whose result is checked,
 * warm-up, a barrier, then the timed loop.  The reported time is the largest
 * over ranks of the mean time per call; with -R, the fastest of that many
 * timed loops (for machines shared with other work).  The first call is
 * never timed: it pays one-off setup (colibri's per-communicator state,
 * SMPI's node-aware communicators).  Under SMPI without simulated
 * computation the clock is deterministic, so "-i 1 -w 0" is enough there.
 * Rooted reduce (and
 * everything with -B) is timed call by call with a barrier before each,
 * because back-to-back reduces can pipeline across calls and report less
 * than one call costs.
 *
 * The first call's result is checked on every rank against a closed-form
 * serial reference; a wrong result aborts the run, since timing a wrong
 * answer is worthless.  Timing never judges anything here.
 *
 * Everything the harness needs for itself goes through PMPI_*, so that it
 * neither measures nor depends on the code under test, even when colibri
 * also replaces MPI_* in this process.
 */
#define _POSIX_C_SOURCE 200809L /* getopt */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "colibri.h"

#define MAX_ALGS 64

static const char *const coll_names[COLIBRI_NCOLL] = {
    "allreduce", "reduce", "reduce_scatter", "reduce_scatter_block", "alltoall", "alltoallv"};

struct type {
    const char *name;
    MPI_Datatype dt;
    int size;
};

struct options {
    colibri_coll coll;
    const char *algs[MAX_ALGS];
    int nalgs;
    int64_t min_bytes, max_bytes;
    int step;
    int iters, warmup; /* < 0: scaled by size */
    int reps;          /* timed loops per size; the fastest is reported */
    struct type type;
    int root;
    int barrier_each;
    int have_bound;
    double alpha, beta, gamma;
    const char *native_label;
    const char *csv;
    int quiet;
};

static int rank, size;

static void usage_exit(const char *msg)
{
    if (rank == 0) {
        if (msg)
            fprintf(stderr, "colibri-bench: %s\n", msg);
        fprintf(stderr,
                "usage: colibri-bench [-c allreduce|reduce|reduce_scatter_block|reduce_scatter]\n"
                "         [-a all|name,name,...] [-m min_bytes] [-M max_bytes] [-s step]\n"
                "         [-i iterations]\n"
                "         [-w warmup] [-R repetitions (fastest reported)]\n"
                "         [-t double|float|int|int64] [-r root] [-B]\n"
                "         [-L alpha,beta,gamma] [-N native_label] [-o file.csv] [-q]\n"
                "  names: native, auto, or colibri algorithms (colibri-info lists them)\n"
                "  sizes accept K, M, G suffixes (powers of 1024)\n");
    }
    PMPI_Finalize();
    exit(msg ? 2 : 0);
}

static int64_t parse_bytes(const char *s)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    int64_t mult = 1;
    if (*end == 'K' || *end == 'k')
        mult = 1 << 10;
    else if (*end == 'M' || *end == 'm')
        mult = 1 << 20;
    else if (*end == 'G' || *end == 'g')
        mult = 1 << 30;
    else if (*end)
        usage_exit("bad size");
    if (errno || v < 0)
        usage_exit("bad size");
    return (int64_t)v * mult;
}

static int parse_int(const char *s, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < 0 || v > INT_MAX) {
        char msg[128];
        snprintf(msg, sizeof msg, "bad %s '%s'", what, s);
        usage_exit(msg);
    }
    return (int)v;
}

static void add_alg(struct options *o, const char *name)
{
    for (int i = 0; i < o->nalgs; i++)
        if (strcmp(o->algs[i], name) == 0)
            return;
    if (o->nalgs == MAX_ALGS)
        usage_exit("too many algorithms");
    o->algs[o->nalgs++] = name;
}

static void parse_algs(struct options *o, char *list)
{
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        if (strcmp(tok, "all") != 0) {
            add_alg(o, tok);
            continue;
        }
        add_alg(o, "native");
        add_alg(o, "auto");
        for (int i = 0; i < colibri_catalog_size(); i++) {
            colibri_algorithm_info info;
            colibri_catalog_get(i, &info);
            if (info.coll == o->coll)
                add_alg(o, info.name);
        }
    }
}

static void parse_options(int argc, char **argv, struct options *o)
{
    static const struct type types[] = {{"double", MPI_DOUBLE, 8},
                                        {"float", MPI_FLOAT, 4},
                                        {"int", MPI_INT, 4},
                                        {"int64", MPI_INT64_T, 8}};
    char *alg_list = NULL;
    memset(o, 0, sizeof *o);
    o->coll = COLIBRI_ALLREDUCE;
    o->min_bytes = 8;
    o->max_bytes = 64 << 20;
    o->step = 2;
    o->reps = 1;
    o->iters = o->warmup = -1;
    o->type = types[0];
    o->native_label = "native";
    int c;
    while ((c = getopt(argc, argv, "c:a:m:M:s:i:w:R:t:r:BL:N:o:qh")) != -1) {
        switch (c) {
        case 'c': {
            int found = 0;
            for (int i = 0; i < COLIBRI_NCOLL; i++)
                if (strcmp(optarg, coll_names[i]) == 0) {
                    o->coll = (colibri_coll)i;
                    found = 1;
                }
            if (!found)
                usage_exit("unknown collective");
            break;
        }
        case 'a': alg_list = optarg; break;
        case 'm': o->min_bytes = parse_bytes(optarg); break;
        case 'M': o->max_bytes = parse_bytes(optarg); break;
        case 's': o->step = parse_int(optarg, "size step"); break;
        case 'i':
            if ((o->iters = parse_int(optarg, "iteration count")) == 0)
                usage_exit("need at least one iteration");
            break;
        case 'w': o->warmup = parse_int(optarg, "warm-up count"); break;
        case 'R': o->reps = parse_int(optarg, "repetition count"); break;
        case 't': {
            int found = 0;
            for (size_t i = 0; i < sizeof types / sizeof *types; i++)
                if (strcmp(optarg, types[i].name) == 0) {
                    o->type = types[i];
                    found = 1;
                }
            if (!found)
                usage_exit("unknown type");
            break;
        }
        case 'r': o->root = parse_int(optarg, "root"); break;
        case 'B': o->barrier_each = 1; break;
        case 'L':
            if (sscanf(optarg, "%lf,%lf,%lf", &o->alpha, &o->beta, &o->gamma) != 3)
                usage_exit("-L wants alpha,beta,gamma (s, s/byte, s/byte)");
            o->have_bound = 1;
            break;
        case 'N': o->native_label = optarg; break;
        case 'o': o->csv = optarg; break;
        case 'q': o->quiet = 1; break;
        case 'h': usage_exit(NULL); break;
        default: usage_exit("bad option");
        }
    }
    if (optind < argc)
        usage_exit("unexpected argument");
    if (o->root >= size)
        usage_exit("root out of range");
    if (o->min_bytes < 1 || o->max_bytes < o->min_bytes)
        usage_exit("need 1 <= min bytes <= max bytes");
    if (o->reps < 1)
        usage_exit("need at least one repetition");
    if (o->step < 2)
        usage_exit("the size step must be at least 2");
    if (o->coll == COLIBRI_REDUCE)
        o->barrier_each = 1;
    char def[] = "all";
    parse_algs(o, alg_list ? alg_list : def);
}

/* The largest of each v[i] over ranks, on every rank.  Built from gather and
 * broadcast rather than allreduce, because "native" may be an allreduce that
 * SMPI was told to replace with a broken one. */
static void max_over_ranks(double *v, int n)
{
    double *all = rank == 0 ? malloc((size_t)size * (size_t)n * sizeof *all) : NULL;
    if (rank == 0 && !all)
        PMPI_Abort(MPI_COMM_WORLD, 3);
    PMPI_Gather(v, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int r = 1; r < size; r++)
            for (int i = 0; i < n; i++)
                v[i] = all[r * n + i] > v[i] ? all[r * n + i] : v[i];
    free(all);
    PMPI_Bcast(v, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* ---- data and its closed-form reference ----
 * Rank r contributes x_r[i] = r + (i mod 17): every partial sum is an integer
 * below 2^24 for p <= 4096, so float and double sums are exact in any order,
 * and sum_r x_r[i] = p(p-1)/2 + p (i mod 17).  A lost or doubled contribution,
 * or a block put in the wrong place, changes the result. */
static double input_value(int r, int64_t i) { return (double)r + (double)(i % 17); }

static double expected_value(int64_t i)
{
    return (double)size * (size - 1) / 2 + (double)size * (double)(i % 17);
}

static void fill(const struct type *t, void *buf, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        double v = input_value(rank, i);
        if (t->dt == MPI_DOUBLE)
            ((double *)buf)[i] = v;
        else if (t->dt == MPI_FLOAT)
            ((float *)buf)[i] = (float)v;
        else if (t->dt == MPI_INT)
            ((int *)buf)[i] = (int)v;
        else
            ((int64_t *)buf)[i] = (int64_t)v;
    }
}

static double element(const struct type *t, const void *buf, int64_t i)
{
    if (t->dt == MPI_DOUBLE)
        return ((const double *)buf)[i];
    if (t->dt == MPI_FLOAT)
        return ((const float *)buf)[i];
    if (t->dt == MPI_INT)
        return ((const int *)buf)[i];
    return (double)((const int64_t *)buf)[i];
}

/* The elements of the global vector that this rank's result holds. */
static void result_range(const struct options *o, int64_t n, const MPI_Count *counts,
                         int64_t *first, int64_t *len)
{
    *first = 0;
    *len = n;
    if (o->coll == COLIBRI_REDUCE && rank != o->root)
        *len = 0;
    else if (o->coll == COLIBRI_REDUCE_SCATTER || o->coll == COLIBRI_REDUCE_SCATTER_BLOCK) {
        for (int r = 0; r < rank; r++)
            *first += counts[r];
        *len = counts[rank];
    }
}

/* A wrong result ends the run at once from the rank that saw it: nothing
 * collective is trusted after that. */
static void check(const struct options *o, const char *alg, const void *recv, int64_t n,
                  const MPI_Count *counts)
{
    int64_t first, len;
    result_range(o, n, counts, &first, &len);
    for (int64_t j = 0; j < len; j++) {
        double got = element(&o->type, recv, j), want = expected_value(first + j);
        if (got != want) {
            fprintf(stderr,
                    "colibri-bench: WRONG RESULT: %s %s p=%d n=%lld bytes rank %d element %lld: "
                    "got %.17g, expected %.17g; aborting\n",
                    coll_names[o->coll], strcmp(alg, "native") == 0 ? o->native_label : alg,
                    size, (long long)(n * o->type.size), rank, (long long)(first + j), got,
                    want);
            PMPI_Abort(MPI_COMM_WORLD, 4);
        }
    }
}

static int call(const struct options *o, const char *alg, const void *send, void *recv, int64_t n,
                const MPI_Count *counts)
{
    switch (o->coll) {
    case COLIBRI_ALLREDUCE:
        return colibri_allreduce(send, recv, n, o->type.dt, MPI_SUM, MPI_COMM_WORLD, alg);
    case COLIBRI_REDUCE:
        return colibri_reduce(send, recv, n, o->type.dt, MPI_SUM, o->root, MPI_COMM_WORLD, alg);
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        return colibri_reduce_scatter_block(send, recv, counts[0], o->type.dt, MPI_SUM,
                                            MPI_COMM_WORLD, alg);
    default:
        return colibri_reduce_scatter(send, recv, counts, o->type.dt, MPI_SUM, MPI_COMM_WORLD,
                                      alg);
    }
}

static int ceil_log2(int p)
{
    int k = 0;
    while ((1 << k) < p)
        k++;
    return k;
}

/* The reachable form of the lower bound, in microseconds: the latency,
 * bandwidth and reduction terms added (each alone is a strict lower bound;
 * their maximum is the strict bound).  Allreduce moves 2(p-1)/p n per rank,
 * reduce and reduce-scatter (p-1)/p n. */
static double bound_usec(const struct options *o, int64_t nbytes)
{
    double f = (double)(size - 1) / size * (double)nbytes;
    double words = o->coll == COLIBRI_ALLREDUCE ? 2 * f : f;
    return 1e6 * (ceil_log2(size) * o->alpha + words * o->beta + f * o->gamma);
}

/* OSU-like scaling: many calls for short vectors, few for long ones. */
static int iterations_for(const struct options *o, int64_t nbytes)
{
    if (o->iters > 0)
        return o->iters;
    if (nbytes <= 8192)
        return 1000;
    int64_t it = ((int64_t)256 << 20) / nbytes;
    return it < 10 ? 10 : it > 1000 ? 1000 : (int)it;
}

static int warmup_for(const struct options *o, int iters)
{
    if (o->warmup >= 0)
        return o->warmup;
    return iters / 10 > 0 ? iters / 10 : 1;
}

/* Whether colibri can run `alg` here; checked on rank 0 by a dry run so that
 * an unusable algorithm is skipped without a flood of errors.  The checked
 * first call still catches anything the dry run cannot see. */
static int available(const struct options *o, const char *alg, int64_t n, const MPI_Count *counts)
{
    if (strcmp(alg, "native") == 0 || strcmp(alg, "auto") == 0)
        return 1;
    int ok = 0;
    if (rank == 0) {
        colibri_cost cost;
        MPI_Count count = o->coll == COLIBRI_REDUCE_SCATTER_BLOCK ? counts[0] : n;
        ok = colibri_dry_run(o->coll, alg, 0, size, o->root, count, counts, o->type.size, 1, 0,
                             &cost) == MPI_SUCCESS;
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok;
}

/* Set when all ranks read one clock (MPI_WTIME_IS_GLOBAL, as under SMPI). */
static int global_clock;

/* Mean time per call over `iters` timed calls, in us; negative when a call
 * failed.  A timed stretch starts when the last rank leaves the barrier and
 * ends when the last rank is done.  Without a global clock that is
 * approximated OSU-style by the largest of the ranks' own durations, which
 * also charges the barrier's exit skew to the collective. */
static double measure(const struct options *o, const char *alg, const void *send, void *recv,
                      int64_t n, const MPI_Count *counts, int iters, int warmup)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < warmup && rc == MPI_SUCCESS; i++)
        rc = call(o, alg, send, recv, n, counts);
    int stretches = o->barrier_each ? iters : 1;
    /* v = {failed, start times..., end times...} */
    double *v = calloc(1 + 2 * (size_t)stretches, sizeof *v);
    if (!v)
        PMPI_Abort(MPI_COMM_WORLD, 3);
    double *start = v + 1, *end = v + 1 + stretches;
    PMPI_Barrier(MPI_COMM_WORLD);
    if (o->barrier_each) {
        for (int i = 0; i < iters && rc == MPI_SUCCESS; i++) {
            PMPI_Barrier(MPI_COMM_WORLD);
            start[i] = MPI_Wtime();
            rc = call(o, alg, send, recv, n, counts);
            end[i] = MPI_Wtime();
        }
    } else {
        start[0] = MPI_Wtime();
        for (int i = 0; i < iters && rc == MPI_SUCCESS; i++)
            rc = call(o, alg, send, recv, n, counts);
        end[0] = MPI_Wtime();
    }
    v[0] = rc != MPI_SUCCESS;
    int k = stretches;
    if (!global_clock) { /* one stretch per rank, from 0 to its own total */
        double total = 0;
        for (int i = 0; i < stretches; i++)
            total += end[i] - start[i];
        k = 1;
        v[1] = 0;
        v[2] = total;
    }
    max_over_ranks(v, 1 + 2 * k);
    double t = 0;
    for (int i = 0; i < k; i++)
        t += v[1 + k + i] - v[1 + i];
    double failed = v[0];
    free(v);
    return failed != 0 ? -1 : t / iters * 1e6;
}

/* ---- output ---- */

struct row {
    double usec[MAX_ALGS];
    const char *ran; /* what "auto" picked */
};

static void print_header(const struct options *o)
{
    printf("# colibri-bench %s, %d processes, type %s, op sum%s\n", coll_names[o->coll], size,
           o->type.name, o->barrier_each ? ", barrier before every call" : "");
    if (o->have_bound)
        printf("# bound: ceil(lg p) a + %s(p-1)/p n b + (p-1)/p n g, a=%g s b=%g s/B g=%g s/B\n",
               o->coll == COLIBRI_ALLREDUCE ? "2" : "", o->alpha, o->beta, o->gamma);
    printf("# times in microseconds per call, %s; '-' = not run\n",
           global_clock ? "from the last rank's start to the last rank's end (global clock)"
                        : "largest over ranks of each rank's mean");
    printf("%12s", "bytes");
    for (int a = 0; a < o->nalgs; a++)
        printf(" %*s", (int)(strlen(o->algs[a]) > 11 ? strlen(o->algs[a]) : 11),
               strcmp(o->algs[a], "native") == 0 ? o->native_label : o->algs[a]);
    if (o->have_bound)
        printf(" %11s", "bound");
    printf("  auto picks\n");
}

static void print_row(const struct options *o, int64_t nbytes, const struct row *r)
{
    printf("%12lld", (long long)nbytes);
    for (int a = 0; a < o->nalgs; a++) {
        int w = (int)(strlen(o->algs[a]) > 11 ? strlen(o->algs[a]) : 11);
        if (r->usec[a] < 0)
            printf(" %*s", w, "-");
        else
            printf(" %*.2f", w, r->usec[a]);
    }
    if (o->have_bound)
        printf(" %11.2f", bound_usec(o, nbytes));
    printf("  %s\n", r->ran ? r->ran : "");
    fflush(stdout);
}

static void csv_row(FILE *f, const struct options *o, const char *alg, int64_t nbytes,
                    double usec, const char *ran)
{
    fprintf(f, "%s,%s,%d,%lld,%.3f,", coll_names[o->coll],
            strcmp(alg, "native") == 0 ? o->native_label : alg, size, (long long)nbytes, usec);
    if (o->have_bound)
        fprintf(f, "%.3f", bound_usec(o, nbytes));
    fprintf(f, ",%s\n", ran ? ran : alg);
}

/* Per-rank output counts; NULL for allreduce and reduce. */
static MPI_Count *make_counts(const struct options *o, int64_t n)
{
    if (o->coll != COLIBRI_REDUCE_SCATTER && o->coll != COLIBRI_REDUCE_SCATTER_BLOCK)
        return NULL;
    MPI_Count *counts = malloc((size_t)size * sizeof *counts);
    if (!counts)
        return NULL;
    for (int r = 0; r < size; r++)
        counts[r] = o->coll == COLIBRI_REDUCE_SCATTER_BLOCK ? n / size
                                                             : n / size + (r < n % size);
    return counts;
}

/* Behaves as MPI_ERRORS_RETURN, which SMPI 3.32 crashes on when it is
 * invoked through MPI_Comm_call_errhandler. */
static void return_errors(MPI_Comm *comm, int *err, ...)
{
    (void)comm;
    (void)err;
}

int main(int argc, char **argv)
{
    PMPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Errors come back as return codes, so that a failing algorithm is
     * reported and skipped instead of ending the run. */
    MPI_Errhandler eh;
    PMPI_Comm_create_errhandler(return_errors, &eh);
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    PMPI_Errhandler_free(&eh);
    int *is_global, flag;
    PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &is_global, &flag);
    global_clock = flag && *is_global;

    struct options o;
    parse_options(argc, argv, &o);

    FILE *csv = NULL;
    if (rank == 0 && o.csv) {
        csv = fopen(o.csv, "w");
        if (!csv) {
            perror(o.csv);
            PMPI_Abort(MPI_COMM_WORLD, 2);
        }
        fprintf(csv, "coll,alg,p,bytes,usec,bound_usec,ran\n");
    }
    int failed[MAX_ALGS] = {0};
    if (rank == 0 && !o.quiet)
        print_header(&o);

    for (int64_t req = o.min_bytes; req <= o.max_bytes; req *= o.step) {
        int64_t n = req / o.type.size;
        if (o.coll == COLIBRI_REDUCE_SCATTER_BLOCK)
            n -= n % size; /* whole blocks only: the size reported is what ran */
        if (n == 0)
            continue;
        MPI_Count *counts = make_counts(&o, n);
        const int64_t nbytes = n * o.type.size;
        size_t bytes = (size_t)nbytes;
        void *send = malloc(bytes), *recv = malloc(bytes);
        if (!send || !recv || ((o.coll == COLIBRI_REDUCE_SCATTER ||
                                o.coll == COLIBRI_REDUCE_SCATTER_BLOCK) && !counts)) {
            fprintf(stderr, "colibri-bench: rank %d: out of memory at %zu bytes\n", rank, bytes);
            PMPI_Abort(MPI_COMM_WORLD, 3);
        }
        int iters = iterations_for(&o, nbytes), warmup = warmup_for(&o, iters);
        struct row row;
        row.ran = NULL;
        for (int a = 0; a < o.nalgs; a++) {
            const char *alg = o.algs[a];
            row.usec[a] = -1;
            if (failed[a] || !available(&o, alg, n, counts))
                continue;
            fill(&o.type, send, n);
            memset(recv, 0xff, bytes);
            double call_failed = call(&o, alg, send, recv, n, counts) != MPI_SUCCESS;
            max_over_ranks(&call_failed, 1);
            if (call_failed != 0) {
                if (rank == 0)
                    fprintf(stderr, "colibri-bench: %s '%s' failed at %lld bytes; skipped from "
                                    "here on\n", coll_names[o.coll], alg, (long long)nbytes);
                failed[a] = 1;
                continue;
            }
            check(&o, alg, recv, n, counts);
            const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, o.coll);
            if (strcmp(alg, "auto") == 0)
                row.ran = ran;
            for (int rep = 0; rep < o.reps; rep++) {
                double t = measure(&o, alg, send, recv, n, counts, iters, rep ? 0 : warmup);
                if (t < 0 || row.usec[a] < 0 || t < row.usec[a])
                    row.usec[a] = t;
                if (t < 0)
                    break;
            }
            if (row.usec[a] < 0) {
                if (rank == 0)
                    fprintf(stderr, "colibri-bench: %s '%s' failed while timed at %lld bytes\n",
                            coll_names[o.coll], alg, (long long)nbytes);
                failed[a] = 1;
                continue;
            }
            if (csv)
                csv_row(csv, &o, alg, nbytes, row.usec[a], ran);
        }
        if (rank == 0 && !o.quiet)
            print_row(&o, nbytes, &row);
        if (csv)
            fflush(csv);
        free(send);
        free(recv);
        free(counts);
        if (req > INT64_MAX / o.step)
            break;
    }
    if (csv)
        fclose(csv);
    PMPI_Finalize();
    return 0;
}
