/*
 * call-cost-bench: the cost of one short MPI_Allreduce against one
 * MPI_Iallreduce + MPI_Wait, in one run, side by side.  It links no colibri:
 * run it plain for the MPI below, with LD_PRELOAD=libcolibri.so for
 * colibri, as an application would.
 *
 *   call-cost-bench [-n doubles] [-i iterations] [-R repetitions] [-m both|blocking|nonblocking]
 *                   [-o file.csv]
 *
 * Each repetition times `iterations` calls of each form in turn (blocking,
 * then nonblocking), and the fastest repetition of each form counts (the
 * machine is shared).  Prints, on rank 0, the mean microseconds per call
 * (the largest over ranks) and the ratio nonblocking / blocking.  With one
 * rank it measures the software path alone; under callgrind it gives
 * instructions per call (bench/scripts/bench_call_cost.sh).  With -o, the
 * same numbers also go to a CSV file (ranks,bytes,blocking_us,nonblocking_us,
 * ratio; a form not run is empty).  Timing never judges anything here.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

static const char USAGE[] = "usage: call-cost-bench [-n doubles] [-i iterations] [-R repetitions] "
                            "[-m both|blocking|nonblocking] [-o file.csv]\n";

struct calls {
    int n, form; /* form 0: MPI_Allreduce; 1: MPI_Iallreduce + MPI_Wait */
    double *in, *out;
};

static int one_call(void *ctx, int i)
{
    (void)i;
    struct calls *c = ctx;
    if (c->form == 0)
        return MPI_Allreduce(c->in, c->out, c->n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Request r;
    int rc = MPI_Iallreduce(c->in, c->out, c->n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&r, MPI_STATUS_IGNORE);
}

struct own {
    int n;
    const char *mode;
};

/* -n and -m (the mode: this program's -m is no size) */
static int own_option(int opt, const char *arg, void *ctx)
{
    struct own *w = ctx;
    if (opt == 'm')
        w->mode = arg;
    else if (opt == 'n')
        return (w->n = atoi(arg)) > 0;
    else
        return -1;
    return 1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct bench_opts o;
    bench_opts_init(&o, "call-cost-bench", USAGE);
    o.iters = 20000;
    o.reps = 10;
    struct own w = {1, "both"};
    if (bench_parse(argc, argv, "n:i:R:m:o:h", &o, own_option, &w) < argc)
        bench_usage_exit(&o, "unexpected argument");
    if (o.iters < 1)
        bench_usage_exit(&o, "need at least one iteration");
    const int n = w.n;
    const int run[2] = {strcmp(w.mode, "nonblocking") != 0, strcmp(w.mode, "blocking") != 0};
    /* dense data: zeros would let the blocking call go sparse */
    struct calls c = {n, 0, malloc((size_t)n * sizeof(double)), malloc((size_t)n * sizeof(double))};
    for (int i = 0; i < n; i++)
        c.in[i] = 1.0 + i % 7;
    /* The forms take turns within each repetition, so that both see the
     * same machine. */
    const struct bench_loop loop = {one_call, &c, MPI_COMM_WORLD, o.iters, 0, 0, 0};
    double best[2] = {-1, -1};
    for (int rep = 0; rep < o.reps; rep++) {
        for (c.form = 0; c.form < 2; c.form++) {
            if (!run[c.form])
                continue;
            const double t = bench_time(&loop) * 1e6;
            if (best[c.form] < 0 || t < best[c.form])
                best[c.form] = t;
        }
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        printf("ranks=%d bytes=%zu blocking_us=%.3f nonblocking_us=%.3f", size,
               (size_t)n * sizeof(double), best[0], best[1]);
        if (run[0] && run[1])
            printf(" ratio=%.3f", best[1] / best[0]);
        printf("\n");
    }
    FILE *csv = bench_csv_open(o.csv, "ranks,bytes,blocking_us,nonblocking_us,ratio");
    if (csv) {
        fprintf(csv, "%d,%zu", size, (size_t)n * sizeof(double));
        for (int form = 0; form < 2; form++)
            run[form] ? fprintf(csv, ",%.3f", best[form]) : fprintf(csv, ",");
        run[0] && run[1] ? fprintf(csv, ",%.3f\n", best[1] / best[0]) : fprintf(csv, ",\n");
        bench_csv_close(csv);
    }
    free(c.in);
    free(c.out);
    MPI_Finalize();
    return 0;
}
