/*
 * dropin-bench: OSU-style latency of one collective over a size grid,
 * called through the plain MPI_* names.  It links no colibri: run it plain
 * for the MPI below, with LD_PRELOAD=libcolibri.so (and COLIBRI_TUNING=...)
 * for colibri as an application gets it, native tuning rules and their
 * shortcut included (bench/scripts/bench_tune.sh alternates the two).
 *
 *   dropin-bench -c allreduce|reduce|reduce_scatter_block|alltoall|alltoallv|
 *                   bcast|allgather|allgatherv|barrier|gather|scatter|scan|exscan|
 *                   reduce_scatter
 *                [-m min_bytes] [-M max_bytes] [-s factor] [-R repetitions] [-o file.csv]
 *
 * Sizes as colibri-bench's: the reductions' and scans' vector bytes
 * (doubles, sum; reduce_scatter_block's and reduce_scatter's whole vector,
 * reduce_scatter's counts all equal), alltoall(v)'s,
 * allgather(v)'s, gather's and scatter's bytes per block, bcast's message;
 * barrier has one row, of 0 bytes.  Roots are rank 0.
 * Per size: a warm-up, then -R (3) timed loops of about 2 ms of calls
 * (back to back for the symmetric allreduce, reduce_scatter(_block),
 * allgather(v) and barrier, each call from a barrier (the MPI's own,
 * PMPI_Barrier) for the rooted ones, the scans and the exchanges, which
 * could pipeline),
 * the time per call being the largest over ranks; the fastest loop counts;
 * -B calls every collective back to back, as applications do (a rooted
 * call's non-roots may then run ahead of its root).
 * CSV: coll,bytes,us.  Timing never judges anything here.
 *
 * -P (side by side): each size also times the MPI's own collective through
 * its PMPI_ name in the same process, the two loops alternating (the
 * interposed one first, then the PMPI one, then the other way round: -R
 * rounds of each), the fastest of each kept; CSV
 * coll,bytes,us,native_us,pair_ratio,total_ratio,explored: pair_ratio
 * the median over the rounds of the ratio of a round's two loops (run one
 * right after the other, so a minute in which the machine is slow slows
 * both; and a loop in which colibri explores is one round's ratio, not
 * the only loop left for its fastest), total_ratio all loops' time
 * against all loops' (what the calls cost, colibri's exploration
 * included), explored the calls colibri's online selection explored at
 * that size, the most on any rank (colibri_setup_stats, found with
 * dlsym: -1 without colibri).  DROPIN_LOOPS=1 prints every round's two
 * times.  Both loops make the number of calls the MPI's own call sizes.
 * With colibri preloaded the MPI_ name is colibri's and the PMPI_ one the
 * MPI's alone, measured in the same process and minutes, so a machine that
 * changes speed between runs (this shared VM does, by up to 2x for a
 * minute at a time) changes both alike; plain, both are the MPI's and
 * their ratio says how much a difference of nothing measures.
 *
 * -I (call by call; implies -P): instead of -R loops of each side, bursts
 * of about 1 ms of consecutive calls (1 to 256; DROPIN_BURST_US sets the
 * time) of one side and then the other, interleaved ABBA (colibri's, the
 * MPI's, the MPI's, colibri's, ...), -R loops' worth of calls a side
 * (about 2 ms a loop, 20 to 1000 -R calls), every call timed alone
 * (clock_gettime, from a PMPI_Barrier where the loops have one), a call's
 * time the largest over ranks; us and native_us are then the two sides'
 * median calls, pair_ratio their ratio and total_ratio the ratio of the
 * sums (every call, colibri's exploration and the VM's interruptions
 * included).  This VM changes speed faster than a loop of short calls
 * lasts (a 0.4 us call's loops of 1000 read 0.48 or 0.95 us in one run;
 * the loops' ratios of a difference of nothing spread 0.5-1.9 round to
 * round) and stops a process for 50-200 us now and then: neighbouring
 * bursts share its speed, and a median call leaves the interruptions out.
 * A burst keeps warm what consecutive calls keep warm (a shared segment,
 * the MPI's own buffers): with bursts of 100 us Open MPI 5's 128 KiB
 * reduce read colibri's node_split_rail at 29 us, with 1 ms ones 12.4.
 *
 * -D (drift): the count changes at every call, as particle counts and
 * adaptive meshes make it: call i of a loop moves base + (7 i mod
 * base/8) elements (bytes for the byte-counted collectives), every rank
 * and both sides alike, within 12.5% above the size's base (one of
 * colibri's online size classes, docs/tuning.md); the row keeps the base.
 */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_common.h"
#include "colibri.h" /* the declarations only: colibri_explored */

static const char USAGE[] =
    "usage: dropin-bench -c allreduce|reduce|reduce_scatter_block|alltoall|alltoallv|\n"
    "                       bcast|allgather|allgatherv|barrier|gather|scatter|scan|exscan|\n"
    "                       reduce_scatter\n"
    "                    [-m min_bytes] [-M max_bytes] [-s factor] [-R repetitions] [-o file.csv]\n"
    "                    [-P]   (side by side with the PMPI_ call: one more column, native_us)\n"
    "                    [-B]   (every collective back to back: no barrier between rooted\n"
    "                            or exchanging calls either, as applications call them)\n"
    "                    [-D]   (counts drift call to call, up to 12.5% above each size)\n"
    "                    [-I]   (-P call by call: bursts of about 1 ms of each side\n"
    "                            interleaved, every call timed; medians of the calls)\n";

enum coll {
    ALLREDUCE, REDUCE, RSB, ALLTOALL, ALLTOALLV, /* the reductions and exchanges */
    BCAST, ALLGATHER, ALLGATHERV, BARRIER, GATHER, SCATTER, SCAN, EXSCAN,
    REDUCE_SCATTER, /* counts equal: reduce_scatter_block's blocks through the v-form */
    NCOLL
};
static const char *const names[NCOLL] = {"allreduce", "reduce", "reduce_scatter_block",
                                         "alltoall", "alltoallv", "bcast", "allgather",
                                         "allgatherv", "barrier", "gather", "scatter",
                                         "scan", "exscan", "reduce_scatter"};
/* blocks of count bytes per rank in the receive (or send) buffer */
static int per_rank(enum coll c)
{
    return c == ALLTOALL || c == ALLTOALLV || c == ALLGATHER || c == ALLGATHERV ||
           c == GATHER || c == SCATTER;
}
/* vectors of doubles */
static int vector(enum coll c)
{
    return c == ALLREDUCE || c == REDUCE || c == RSB || c == SCAN || c == EXSCAN ||
           c == REDUCE_SCATTER;
}
/* called back to back: symmetric, nothing to pipeline */
static int back_to_back(enum coll c)
{
    return c == ALLREDUCE || c == RSB || c == REDUCE_SCATTER || c == ALLGATHER ||
           c == ALLGATHERV || c == BARRIER;
}

struct call {
    enum coll coll;
    int count, size;
    int base, spread; /* -D: call i's count is base + (7 i mod spread) */
    char *s, *r;
    int *counts, *displs;
};

/* One call of the collective through the names with prefix P (MPI_: what
 * the program calls, colibri's where it is preloaded; PMPI_: the MPI's own
 * collective, whatever is preloaded). */
#define CALL_THROUGH(P)                                                                          \
    switch (c->coll) {                                                                         \
    case ALLREDUCE:                                                                            \
        return P##Allreduce(c->s, c->r, c->count, MPI_DOUBLE, MPI_SUM, w);                     \
    case REDUCE:                                                                               \
        return P##Reduce(c->s, c->r, c->count, MPI_DOUBLE, MPI_SUM, 0, w);                     \
    case RSB:                                                                                  \
        return P##Reduce_scatter_block(c->s, c->r, c->count, MPI_DOUBLE, MPI_SUM, w);          \
    case ALLTOALL:                                                                             \
        return P##Alltoall(c->s, c->count, MPI_BYTE, c->r, c->count, MPI_BYTE, w);             \
    case ALLTOALLV:                                                                            \
        return P##Alltoallv(c->s, c->counts, c->displs, MPI_BYTE, c->r, c->counts, c->displs,  \
                            MPI_BYTE, w);                                                      \
    case BCAST:                                                                                \
        return P##Bcast(c->s, c->count, MPI_BYTE, 0, w);                                       \
    case ALLGATHER:                                                                            \
        return P##Allgather(c->s, c->count, MPI_BYTE, c->r, c->count, MPI_BYTE, w);            \
    case ALLGATHERV:                                                                           \
        return P##Allgatherv(c->s, c->count, MPI_BYTE, c->r, c->counts, c->displs, MPI_BYTE,   \
                             w);                                                               \
    case BARRIER:                                                                              \
        return P##Barrier(w);                                                                  \
    case GATHER:                                                                               \
        return P##Gather(c->s, c->count, MPI_BYTE, c->r, c->count, MPI_BYTE, 0, w);            \
    case SCATTER:                                                                              \
        return P##Scatter(c->s, c->count, MPI_BYTE, c->r, c->count, MPI_BYTE, 0, w);           \
    case SCAN:                                                                                 \
        return P##Scan(c->s, c->r, c->count, MPI_DOUBLE, MPI_SUM, w);                          \
    case REDUCE_SCATTER:                                                                       \
        return P##Reduce_scatter(c->s, c->r, c->counts, MPI_DOUBLE, MPI_SUM, w);               \
    default:                                                                                   \
        return P##Exscan(c->s, c->r, c->count, MPI_DOUBLE, MPI_SUM, w);                        \
    }

/* -D: call i's count (and the v-collectives' counts, at fixed displacements) */
static void drift(struct call *c, int i)
{
    if (c->spread <= 1)
        return;
    c->count = c->base + (int)((7ll * i) % c->spread);
    for (int j = 0;
         (c->coll == ALLTOALLV || c->coll == ALLGATHERV || c->coll == REDUCE_SCATTER) && j < c->size;
         j++)
        c->counts[j] = c->count, c->displs[j] = j * (c->base + c->spread);
}

static int one_call(void *ctx, int i)
{
    struct call *c = ctx;
    drift(c, i);
    MPI_Comm w = MPI_COMM_WORLD;
    CALL_THROUGH(MPI_)
}

static int pmpi_call(void *ctx, int i)
{
    struct call *c = ctx;
    drift(c, i);
    MPI_Comm w = MPI_COMM_WORLD;
    CALL_THROUGH(PMPI_)
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* -P: the median of the rounds' ratios; -I: of a side's calls (v sorted). */
#define MAX_REPS 64
static double median(double *v, int n)
{
    qsort(v, (size_t)(n > 0 ? n : 0), sizeof *v, by_value);
    return n <= 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Calls colibri's online selection has run as exploration in this process
 * (colibri_setup_stats, found at run time: this program links no colibri);
 * -1 where colibri is not preloaded. */
static long long colibri_explored(void)
{
    int (*get)(struct colibri_setup_stats *) =
        (int (*)(struct colibri_setup_stats *))dlsym(RTLD_DEFAULT, "colibri_setup_stats");
    struct colibri_setup_stats s;
    if (!get || get(&s) != 0)
        return -1;
    return s.online_explored;
}

/* -P (bit 1), -B (bit 2), -D (bit 4), -I (bits 8 and 1) */
static int own_flag(int opt, const char *arg, void *ctx)
{
    (void)arg;
    if (opt != 'P' && opt != 'B' && opt != 'D' && opt != 'I')
        return -1;
    *(int *)ctx |= opt == 'P' ? 1 : opt == 'B' ? 2 : opt == 'D' ? 4 : 8 | 1;
    return 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* -I: `calls` calls of each side in bursts of `burst` consecutive calls of
 * one side, the bursts interleaved ABBA (colibri's, the MPI's twice,
 * colibri's, ...), each call timed alone on every rank (from a
 * PMPI_Barrier where the loop has one per call), a call's time the
 * largest over ranks.  Sets the median call of each side (*t, *tn) and
 * the sum of each side's calls (*sum, *sum_n); false when a call failed.
 * A VM that changes speed from one millisecond to the next moves
 * neighbouring bursts alike, the median leaves out the calls it
 * interrupts (the sums keep them, and colibri's exploration), and a burst
 * keeps what consecutive calls keep warm (a shared segment, the MPI's
 * own buffers) as an application's calls do. */
static int interleaved(const struct bench_loop *l, const struct bench_loop *n, int calls,
                       int burst, double *t, double *tn, double *sum, double *sum_n)
{
    double *v = malloc((2 * (size_t)calls + 1) * sizeof *v), *side[2];
    char *who = malloc(2 * (size_t)calls);
    side[0] = malloc((size_t)calls * sizeof *v), side[1] = malloc((size_t)calls * sizeof *v);
    if (!v || !who || !side[0] || !side[1])
        PMPI_Abort(MPI_COMM_WORLD, 3);
    int rc = MPI_SUCCESS, m[2] = {0, 0}, k = 0;
    PMPI_Barrier(l->comm);
    for (int b = 0; m[0] < calls || m[1] < calls; b++) {
        const int native = (b ^ b >> 1) & 1;
        for (int j = 0; j < burst && m[native] < calls; j++, k++) {
            if (l->barrier_each)
                PMPI_Barrier(l->comm);
            const double start = now();
            const int r = native ? n->call(n->ctx, m[native]) : l->call(l->ctx, m[native]);
            v[k] = now() - start;
            who[k] = (char)native, m[native]++;
            rc = rc == MPI_SUCCESS ? r : rc;
        }
    }
    v[2 * calls] = rc != MPI_SUCCESS;
    bench_max_over_ranks(v, 2 * calls + 1, l->comm);
    m[0] = m[1] = 0;
    *sum = *sum_n = 0;
    for (k = 0; k < 2 * calls; k++) {
        side[(int)who[k]][m[(int)who[k]]++] = v[k];
        *(who[k] ? sum_n : sum) += v[k];
    }
    int rank;
    PMPI_Comm_rank(l->comm, &rank);
    if (getenv("DROPIN_LOOPS") && rank == 0) /* the slowest calls, where they fell */
        for (int native = 0; native < 2; native++) {
            fprintf(stderr, "%s slowest:", native ? "MPI" : "interposed");
            for (int j = 0; j < 6; j++) {
                int at = -1;
                for (k = 0; k < 2 * calls; k++)
                    if (who[k] == native && v[k] >= 0 && (at < 0 || v[k] > v[at]))
                        at = k;
                fprintf(stderr, " %.2f us (call %d of %d)", v[at] * 1e6, at, 2 * calls);
                v[at] = -v[at] - 1; /* (the sides hold the times) */
            }
            fprintf(stderr, "\n");
        }
    *t = median(side[0], calls);
    *tn = median(side[1], calls);
    const int ok = v[2 * calls] == 0;
    free(v), free(who), free(side[0]), free(side[1]);
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct bench_opts o;
    bench_opts_init(&o, "dropin-bench", USAGE);
    o.min_bytes = 8, o.max_bytes = 16 << 20, o.step = 2, o.reps = 3;
    int flags = 0;
    if (bench_parse(argc, argv, "c:m:M:s:R:o:PBDIh", &o, own_flag, &flags) < argc)
        bench_usage_exit(&o, "unexpected argument");
    const int pair = flags & 1, all_back_to_back = flags & 2, drifting = flags & 4,
              by_call = flags & 8;
    struct call c = {.coll = NCOLL};
    for (int k = 0; k < NCOLL && o.coll; k++)
        if (strcmp(o.coll, names[k]) == 0)
            c.coll = (enum coll)k;
    if (c.coll == NCOLL)
        bench_usage_exit(&o, "-c names no collective");
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.size);
    const int blocks = per_rank(c.coll);
    /* (-D: counts up to 1/8 above the largest size) */
    const size_t cap =
        ((size_t)o.max_bytes + (size_t)o.max_bytes / 8) * (blocks ? (size_t)c.size : 1) +
        8 * (size_t)c.size;
    c.s = malloc(cap), c.r = malloc(cap);
    c.counts = malloc((size_t)c.size * sizeof *c.counts);
    c.displs = malloc((size_t)c.size * sizeof *c.displs);
    for (size_t i = 0; i < cap / 8; i++)
        ((double *)c.s)[i] = 1.0 + (double)(i % 7); /* dense: no sparse path */
    FILE *csv = bench_csv_open(
        o.csv, pair ? "coll,bytes,us,native_us,pair_ratio,total_ratio,explored" : "coll,bytes,us");
    for (int64_t b = o.min_bytes; b <= o.max_bytes; b *= o.step) {
        int64_t bytes = b;
        if (c.coll == BARRIER)
            c.count = 0, bytes = 0;
        else if (!vector(c.coll))
            c.count = (int)b;
        else if (c.coll == RSB || c.coll == REDUCE_SCATTER)
            c.count = (int)(b / 8 / c.size > 0 ? b / 8 / c.size : 1), bytes = (int64_t)c.count * 8 * c.size;
        else
            c.count = (int)(b / 8 > 0 ? b / 8 : 1), bytes = (int64_t)c.count * 8;
        for (int j = 0; j < c.size; j++)
            c.counts[j] = c.count, c.displs[j] = j * c.count;
        c.base = c.count, c.spread = drifting && c.coll != BARRIER ? c.count / 8 : 0;
        /* one call's time sizes the loop: about 2 ms of calls, 3 to 1000
         * (-P: the MPI's own call's, so that both sides make the same
         * calls whatever colibri's first calls cost: its first call on a
         * communicator sets it up, and a new size's first calls explore,
         * once sizing the 8-byte loops at 5-50 calls instead of 1000) */
        struct bench_loop l = {one_call, &c, MPI_COMM_WORLD, 1, 2,
                               !all_back_to_back && !back_to_back(c.coll), 0};
        const long long explored_at = pair ? colibri_explored() : -1;
        double one = bench_time(&l);
        struct bench_loop n = l;
        if (pair) {
            n.call = pmpi_call;
            const double one_c = one;
            one = bench_time(&n); /* warmed like the other side */
            /* -I: the faster side's third call sizes both sides' calls.
             * An MPI may be slow for its first calls of a size (Intel MPI
             * 2021.19's 128 KiB reduce: 130-250 us for ~16 calls, 10-20
             * after): sized from its third call alone that size ran 20
             * calls a side, colibri's exploration most of them, where -R
             * loops' worth were meant (no more calls to find the warm time:
             * they would warm the MPI for colibri's exploration too) */
            if (by_call && one_c > 0 && one_c < one)
                one = one_c;
        }
        l.iters = one > 0 ? (int)(2e-3 / one) : 1000;
        l.iters = l.iters < 3 ? 3 : l.iters > 1000 ? 1000 : l.iters;
        l.warmup = 0;
        double t, tn = 0, pair_ratio = 0, total_ratio = 0;
        long long explored = -1;
        if (!pair) {
            t = bench_best_of(&l, o.reps);
        } else if (by_call) { /* -R loops' worth of calls a side, 20 to 1000 -R, in
                               * bursts of about 1 ms (DROPIN_BURST_US), 1 to 256 calls */
            const char *bus = getenv("DROPIN_BURST_US");
            const double per = one > 0 ? one : 1e-6, want = o.reps * 2e-3 / per,
                         burst = (bus ? atof(bus) : 1000) * 1e-6 / per;
            const int calls = want < 20 ? 20 : want > 1000.0 * o.reps ? 1000 * o.reps : (int)want;
            double sum, sum_n;
            n.warmup = 0;
            if (!interleaved(&l, &n, calls, burst < 1 ? 1 : burst > 256 ? 256 : (int)burst, &t,
                             &tn, &sum, &sum_n))
                t = tn = -1;
            pair_ratio = tn > 0 ? t / tn : 0;
            total_ratio = sum_n > 0 ? sum / sum_n : 0;
            if (explored_at >= 0) {
                long long mine = colibri_explored() - explored_at;
                PMPI_Reduce(&mine, &explored, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
            }
        } else { /* alternating, ABBA..., the fastest of each */
            n.iters = l.iters;
            n.warmup = 0;
            t = tn = 0;
            int failed = 0;
            double ratio[MAX_REPS], sum = 0, sum_n = 0;
            for (int rep = 0; rep < o.reps; rep++) {
                double x2[2] = {0, 0};
                for (int side = 0; side < 2; side++) {
                    const int native = side ^ (rep & 1);
                    const double x = bench_time(native ? &n : &l);
                    double *best = native ? &tn : &t;
                    failed |= x < 0;
                    *best = rep == 0 || x < *best ? x : *best;
                    x2[native] = x;
                }
                if (rep < MAX_REPS)
                    ratio[rep] = x2[1] > 0 ? x2[0] / x2[1] : 0;
                if (getenv("DROPIN_LOOPS") && rank == 0)
                    fprintf(stderr, "%lld B round %d: %.4f %.4f us\n", (long long)bytes, rep,
                            x2[0] * 1e6, x2[1] * 1e6);
                sum += x2[0], sum_n += x2[1];
            }
            pair_ratio = median(ratio, o.reps < MAX_REPS ? o.reps : MAX_REPS);
            total_ratio = sum_n > 0 ? sum / sum_n : 0;
            if (explored_at >= 0) {
                long long mine = colibri_explored() - explored_at;
                PMPI_Reduce(&mine, &explored, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
            }
            if (failed)
                t = tn = -1;
        }
        if (csv && pair)
            fprintf(csv, "%s,%lld,%.4f,%.4f,%.4f,%.4f,%lld\n", names[c.coll], (long long)bytes,
                    t * 1e6, tn * 1e6, pair_ratio, total_ratio, explored);
        else if (csv)
            fprintf(csv, "%s,%lld,%.4f\n", names[c.coll], (long long)bytes, t * 1e6);
        if (c.coll == BARRIER)
            break;
    }
    bench_csv_close(csv);
    free(c.s), free(c.r), free(c.counts), free(c.displs);
    MPI_Finalize();
    return 0;
}
