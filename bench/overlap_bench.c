/*
 * overlap-bench: how much of a nonblocking collective hides behind
 * computation, measured as OSU's osu_iallreduce / osu_ialltoall do, for
 * colibri and for the MPI below ("native", its own MPI_I* call), side by
 * side in one run:
 *
 *   t_pure     start + MPI_Wait, nothing in between
 *   t_compute  a busy loop meant to last t_pure (no MPI calls in it), as
 *              measured inside the t_overall loop (on a loaded machine it
 *              runs longer than asked)
 *   t_overall  start, the busy loop, MPI_Wait
 *   overlap %  = 100 (1 - (t_overall - t_compute) / t_pure)
 *
 * plus the blocking call's latency (t_blocking), so the nonblocking form can
 * be compared with it.  Without progress inside the loop only what the MPI
 * moves by itself overlaps; COLIBRI_PROGRESS_THREAD=1 (for colibri) adds a
 * thread that advances colibri's schedules during the loop.
 *
 *   overlap-bench [-c iallreduce|ialltoall|ialltoallv] [-m min] [-M max]
 *                 [-s step] [-i iterations] [-R repetitions] [-W factor]
 *                 [-o file.csv]
 *
 * -W makes the computation `factor` times t_pure (OSU: 1): with much more
 * computation than communication, independent progress shows even on a
 * machine whose cores are shared.
 *
 * Sizes: allreduce, the vector in bytes (doubles, MPI_SUM); alltoall(v),
 * the bytes each rank sends each peer.  Times are the mean per call, the
 * largest over ranks, with a barrier before each call; of -R (3) timed loops
 * the fastest counts (the machine is shared).  With -o, the table's rows
 * also go to a CSV file (coll,bytes,impl,blocking_us,pure_us,compute_us,
 * overall_us,overlap_pct).  Timing never judges anything here.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"
#include "colibri.h"

enum coll { IALLREDUCE, IALLTOALL, IALLTOALLV };
static const char *const coll_names[] = {"iallreduce", "ialltoall", "ialltoallv"};

struct bufs {
    char *in, *out;
    MPI_Count *counts;
    MPI_Aint *displs;
};

static int size;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The application's computation: spins for `seconds`, no MPI calls. */
static void compute(double seconds)
{
    double end = now() + seconds;
    volatile double x = 1.0;
    while (now() < end)
        for (int i = 0; i < 100; i++)
            x = x * 1.0000001 + 1e-9;
}

/* Starts (nonblocking) or runs (blocking, req NULL) one call; `alg` NULL is
 * colibri's choice, "native" the MPI below. */
static void call(enum coll c, const struct bufs *b, long bytes, const char *alg, MPI_Request *req)
{
    MPI_Comm w = MPI_COMM_WORLD;
    switch (c) {
    case IALLREDUCE:
        if (req)
            colibri_iallreduce(b->in, b->out, bytes / 8, MPI_DOUBLE, MPI_SUM, w, alg, req);
        else
            colibri_allreduce(b->in, b->out, bytes / 8, MPI_DOUBLE, MPI_SUM, w, alg);
        break;
    case IALLTOALL:
        if (req)
            colibri_ialltoall(b->in, bytes, MPI_BYTE, b->out, bytes, MPI_BYTE, w, alg, req);
        else
            colibri_alltoall(b->in, bytes, MPI_BYTE, b->out, bytes, MPI_BYTE, w, alg);
        break;
    default:
        if (req)
            colibri_ialltoallv(b->in, b->counts, b->displs, MPI_BYTE, b->out, b->counts,
                               b->displs, MPI_BYTE, w, alg, req);
        else
            colibri_alltoallv(b->in, b->counts, b->displs, MPI_BYTE, b->out, b->counts, b->displs,
                              MPI_BYTE, w, alg);
    }
}

struct timed_call {
    enum coll c;
    const struct bufs *b;
    long bytes;
    const char *alg;
    int mode; /* 0 blocking, 1 start + wait, 2 start + compute(work) + wait */
    double work, spent;
};

static int one_call(void *ctx, int i)
{
    (void)i;
    struct timed_call *t = ctx;
    if (t->mode == 0) {
        call(t->c, t->b, t->bytes, t->alg, NULL);
        return MPI_SUCCESS;
    }
    MPI_Request r;
    call(t->c, t->b, t->bytes, t->alg, &r);
    if (t->mode == 2) {
        double t1 = now();
        compute(t->work);
        t->spent += now() - t1;
    }
    return MPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* Mean seconds per call, largest over ranks, each call from a barrier:
 * mode 0 blocking, 1 start + wait, 2 start + compute(work) + wait (*busy:
 * the mean compute time, largest over ranks). */
static double timed(enum coll c, const struct bufs *b, long bytes, const char *alg, int mode,
                    double work, int iters, double *busy)
{
    struct timed_call t = {c, b, bytes, alg, mode, work, 0};
    const struct bench_loop l = {one_call, &t, MPI_COMM_WORLD, iters, 0, 1, 0};
    const double mean = bench_time(&l);
    double spent = t.spent / iters;
    bench_max_over_ranks(&spent, 1, MPI_COMM_WORLD);
    if (busy)
        *busy = spent;
    return mean;
}

/* The fastest of `reps` timed loops (and its compute time). */
static double best_of(int reps, enum coll c, const struct bufs *b, long bytes, const char *alg,
                      int mode, double work, int iters, double *busy)
{
    double best = 0, bbusy = 0;
    for (int r = 0; r < reps; r++) {
        double u, t = timed(c, b, bytes, alg, mode, work, iters, &u);
        if (r == 0 || t < best)
            best = t, bbusy = u;
    }
    if (busy)
        *busy = bbusy;
    return best;
}

static const char USAGE[] =
    "usage: overlap-bench [-c iallreduce|ialltoall|ialltoallv] [-m min] [-M max]\n"
    "                     [-s step] [-i iterations] [-R repetitions] [-W factor] [-o file.csv]\n";

static int own_option(int opt, const char *arg, void *ctx)
{
    if (opt != 'W')
        return -1;
    char *end;
    *(double *)ctx = strtod(arg, &end);
    return end != arg && !*end && *(double *)ctx >= 0;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct bench_opts o;
    bench_opts_init(&o, "overlap-bench", USAGE);
    o.min_bytes = 8;
    o.max_bytes = 16L << 20;
    o.step = 8;
    o.iters = 0; /* 0: scaled by size */
    o.reps = 3;
    double factor = 1;
    if (bench_parse(argc, argv, "c:m:M:s:i:R:W:o:h", &o, own_option, &factor) < argc)
        bench_usage_exit(&o, "unexpected argument");
    const char *cname = o.coll ? o.coll : "iallreduce";
    enum coll c = strcmp(cname, "ialltoall") == 0    ? IALLTOALL
                  : strcmp(cname, "ialltoallv") == 0 ? IALLTOALLV
                                                     : IALLREDUCE;
    if (o.min_bytes < 1 || o.step < 2)
        bench_usage_exit(&o, "need -m at least 1 and -s at least 2");
    const long lo = (long)o.min_bytes, hi = (long)o.max_bytes, step = o.step;
    const int iters = o.iters, reps = o.reps;
    FILE *csv = bench_csv_open(o.csv, "coll,bytes,impl,blocking_us,pure_us,compute_us,"
                                      "overall_us,overlap_pct");
    const long per_rank = c == IALLREDUCE ? hi : hi * size;
    struct bufs b = {calloc((size_t)per_rank, 1), calloc((size_t)per_rank, 1),
                     calloc((size_t)size, sizeof(MPI_Count)), calloc((size_t)size, sizeof(MPI_Aint))};
    /* dense data (1.0, every double): zeros would let colibri's blocking
     * allreduce go sparse, which the nonblocking one does not */
    for (long i = 0; i + 8 <= per_rank; i += 8)
        memcpy(b.in + i, &(double){1.0}, 8);
    const char *thread = getenv("COLIBRI_PROGRESS_THREAD");
    if (rank == 0)
        printf("# %s, %d ranks, progress thread %s, MPI_THREAD_MULTIPLE %s, compute %g x pure\n"
               "%-10s %9s %-7s %12s %12s %12s %12s %8s\n",
               coll_names[c], size, thread && strcmp(thread, "0") ? "on" : "off",
               provided == MPI_THREAD_MULTIPLE ? "yes" : "no", factor, "collective", "bytes", "impl",
               "blocking_us", "pure_us", "compute_us", "overall_us", "overlap%");
    for (long bytes = lo; bytes <= hi; bytes *= step) {
        for (int j = 0; j < size; j++)
            b.counts[j] = bytes, b.displs[j] = (MPI_Aint)j * bytes;
        /* a fraction of a second per loop, 5 to 200 calls */
        int n = iters ? iters : (int)(2e8 / (double)(bytes * (c == IALLREDUCE ? 1 : size)));
        n = n < 5 ? 5 : n > 200 ? 200 : n;
        const char *impls[2] = {NULL, "native"};
        for (int k = 0; k < 2; k++) {
            timed(c, &b, bytes, impls[k], 1, 0, 2, NULL); /* warm-up, setup */
            double blocking = best_of(reps, c, &b, bytes, impls[k], 0, 0, n, NULL);
            double pure = best_of(reps, c, &b, bytes, impls[k], 1, 0, n, NULL);
            double busy;
            double overall = best_of(reps, c, &b, bytes, impls[k], 2, factor * pure, n, &busy);
            double overlap = 100 * (1 - (overall - busy) / pure);
            if (rank == 0)
                printf("%-10s %9ld %-7s %12.2f %12.2f %12.2f %12.2f %8.1f\n", coll_names[c], bytes,
                       impls[k] ? impls[k] : "colibri", 1e6 * blocking, 1e6 * pure, 1e6 * busy,
                       1e6 * overall, overlap);
            if (csv)
                fprintf(csv, "%s,%ld,%s,%.2f,%.2f,%.2f,%.2f,%.1f\n", coll_names[c], bytes,
                        impls[k] ? impls[k] : "colibri", 1e6 * blocking, 1e6 * pure, 1e6 * busy,
                        1e6 * overall, overlap);
        }
        if (rank == 0)
            fflush(stdout);
    }
    bench_csv_close(csv);
    free(b.in), free(b.out), free(b.counts), free(b.displs);
    MPI_Finalize();
    return 0;
}
