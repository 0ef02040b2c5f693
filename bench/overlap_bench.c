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
 *
 * -W makes the computation `factor` times t_pure (OSU: 1): with much more
 * computation than communication, independent progress shows even on a
 * machine whose cores are shared.
 *
 * Sizes: allreduce, the vector in bytes (doubles, MPI_SUM); alltoall(v),
 * the bytes each rank sends each peer.  Times are the mean per call, the
 * largest over ranks, with a barrier before each call; of -R (3) timed loops
 * the fastest counts (the machine is shared).  Timing never judges
 * anything here.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* Mean seconds per call, largest over ranks: mode 0 blocking, 1 start +
 * wait, 2 start + compute(work) + wait (*busy: the mean compute time). */
static double timed(enum coll c, const struct bufs *b, long bytes, const char *alg, int mode,
                    double work, int iters, double *busy)
{
    double total = 0, spent = 0;
    for (int i = 0; i < iters; i++) {
        PMPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (mode == 0) {
            call(c, b, bytes, alg, NULL);
        } else {
            MPI_Request r;
            call(c, b, bytes, alg, &r);
            if (mode == 2) {
                double t1 = now();
                compute(work);
                spent += now() - t1;
            }
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        total += MPI_Wtime() - t0;
    }
    double mine[2] = {total / iters, spent / iters}, worst[2];
    PMPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (busy)
        *busy = worst[1];
    return worst[0];
}

/* The fastest of `reps` timed loops. */
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

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    enum coll c = IALLREDUCE;
    long lo = 8, hi = 16L << 20, step = 8;
    int iters = 0, reps = 3, opt;
    double factor = 1;
    while ((opt = getopt(argc, argv, "c:m:M:s:i:R:W:")) != -1) {
        if (opt == 'c')
            c = strcmp(optarg, "ialltoall") == 0    ? IALLTOALL
                : strcmp(optarg, "ialltoallv") == 0 ? IALLTOALLV
                                                    : IALLREDUCE;
        else if (opt == 'm')
            lo = atol(optarg);
        else if (opt == 'M')
            hi = atol(optarg);
        else if (opt == 's')
            step = atol(optarg);
        else if (opt == 'i')
            iters = atoi(optarg);
        else if (opt == 'R')
            reps = atoi(optarg);
        else if (opt == 'W')
            factor = atof(optarg);
    }
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
        }
        if (rank == 0)
            fflush(stdout);
    }
    free(b.in), free(b.out), free(b.counts), free(b.displs);
    MPI_Finalize();
    return 0;
}
