/* The shared core of bench/'s programs: see bench_common.h. */
#define _POSIX_C_SOURCE 200809L /* getopt */
#include "bench_common.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int world_rank(void)
{
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

void bench_opts_init(struct bench_opts *o, const char *prog, const char *usage)
{
    memset(o, 0, sizeof *o);
    o->prog = prog;
    o->usage = usage;
    o->min_bytes = o->max_bytes = -1;
    o->step = -1;
    o->iters = o->warmup = -1;
    o->reps = 1;
}

void bench_usage_exit(const struct bench_opts *o, const char *msg)
{
    if (world_rank() == 0) {
        if (msg)
            fprintf(stderr, "%s: %s\n", o->prog, msg);
        fputs(o->usage, stderr);
    }
    PMPI_Finalize();
    exit(msg ? 2 : 0);
}

int64_t bench_parse_bytes(const char *s)
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
        return -1;
    if (end == s || errno || v < 0 || (*end && end[1]))
        return -1;
    return (int64_t)v * mult;
}

static int count(const struct bench_opts *o, const char *s, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 0 || v > INT_MAX) {
        char msg[128];
        snprintf(msg, sizeof msg, "bad %s '%s'", what, s);
        bench_usage_exit(o, msg);
    }
    return (int)v;
}

static int64_t bytes(const struct bench_opts *o, const char *s)
{
    int64_t v = bench_parse_bytes(s);
    if (v < 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "bad size '%s'", s);
        bench_usage_exit(o, msg);
    }
    return v;
}

int bench_parse(int argc, char **argv, const char *optstring, struct bench_opts *o,
                int (*own)(int opt, const char *arg, void *ctx), void *ctx)
{
    int c;
    opterr = world_rank() == 0; /* getopt's own complaint, once */
    while ((c = getopt(argc, argv, optstring)) != -1) {
        const int mine = c == '?' || !own ? -1 : own(c, optarg, ctx);
        if (mine == 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "bad value for -%c%s%s", c, optarg ? ": " : "",
                     optarg ? optarg : "");
            bench_usage_exit(o, msg);
        }
        if (mine == 1)
            continue;
        switch (c) {
        case 'c': o->coll = optarg; break;
        case 'm': o->min_bytes = bytes(o, optarg); break;
        case 'M': o->max_bytes = bytes(o, optarg); break;
        case 's': o->step = count(o, optarg, "size step"); break;
        case 'i': o->iters = count(o, optarg, "iteration count"); break;
        case 'w': o->warmup = count(o, optarg, "warm-up count"); break;
        case 'R':
            if ((o->reps = count(o, optarg, "repetition count")) < 1)
                bench_usage_exit(o, "need at least one repetition");
            break;
        case 'o': o->csv = optarg; break;
        case 'h': bench_usage_exit(o, NULL); break;
        default: bench_usage_exit(o, "bad option");
        }
    }
    return optind;
}

void bench_max_over_ranks(double *v, int n, MPI_Comm comm)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    double *all = rank == 0 ? malloc((size_t)size * (size_t)n * sizeof *all) : NULL;
    if (rank == 0 && !all)
        PMPI_Abort(comm, 3);
    PMPI_Gather(v, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, comm);
    if (rank == 0)
        for (int r = 1; r < size; r++)
            for (int i = 0; i < n; i++)
                v[i] = all[r * n + i] > v[i] ? all[r * n + i] : v[i];
    free(all);
    PMPI_Bcast(v, n, MPI_DOUBLE, 0, comm);
}

int bench_global_clock(MPI_Comm comm)
{
    int *is_global, flag;
    PMPI_Comm_get_attr(comm, MPI_WTIME_IS_GLOBAL, &is_global, &flag);
    return flag && *is_global;
}

double bench_time(const struct bench_loop *l)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < l->warmup && rc == MPI_SUCCESS; i++)
        rc = l->call(l->ctx, i);
    const int stretches = l->barrier_each ? l->iters : 1;
    /* v = {failed, start times..., end times...} */
    double *v = calloc(1 + 2 * (size_t)stretches, sizeof *v);
    if (!v)
        PMPI_Abort(l->comm, 3);
    double *start = v + 1, *end = v + 1 + stretches;
    PMPI_Barrier(l->comm);
    if (l->barrier_each) {
        for (int i = 0; i < l->iters && rc == MPI_SUCCESS; i++) {
            PMPI_Barrier(l->comm);
            start[i] = MPI_Wtime();
            rc = l->call(l->ctx, i);
            end[i] = MPI_Wtime();
        }
    } else {
        start[0] = MPI_Wtime();
        for (int i = 0; i < l->iters && rc == MPI_SUCCESS; i++)
            rc = l->call(l->ctx, i);
        end[0] = MPI_Wtime();
    }
    v[0] = rc != MPI_SUCCESS;
    int m = stretches;
    if (!l->global_clock) { /* one stretch per rank, from 0 to its own total */
        double total = 0;
        for (int i = 0; i < stretches; i++)
            total += end[i] - start[i];
        m = 1;
        v[1] = 0;
        v[2] = total;
    }
    bench_max_over_ranks(v, 1 + 2 * m, l->comm);
    double t = 0;
    for (int i = 0; i < m; i++)
        t += v[1 + m + i] - v[1 + i];
    const double failed = v[0];
    free(v);
    return failed != 0 ? -1 : t / l->iters;
}

double bench_best_of(const struct bench_loop *l, int reps)
{
    struct bench_loop once = *l;
    double best = -1;
    for (int rep = 0; rep < reps; rep++) {
        once.warmup = rep ? 0 : l->warmup;
        const double t = bench_time(&once);
        if (t < 0)
            return t;
        if (rep == 0 || t < best)
            best = t;
    }
    return best;
}

FILE *bench_csv_open(const char *path, const char *header)
{
    if (!path || world_rank() != 0)
        return NULL;
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!f) {
        perror(path);
        PMPI_Abort(MPI_COMM_WORLD, 2);
    }
    fprintf(f, "%s\n", header);
    fflush(f);
    return f;
}

void bench_csv_close(FILE *f)
{
    if (f && f != stdout)
        fclose(f);
    else if (f)
        fflush(f);
}
