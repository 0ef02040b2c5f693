/*
 * Benchmark of the local reduction kernels (src/kernels/dense.c): how close
 * they come to memory speed, and whether they beat the MPI library's own
 * MPI_Reduce_local, for buffers from 1 KiB (in L1) to 64 MiB (in DRAM on
 * most machines; some server L3s hold it).
 *
 * Bandwidth is bytes read per second: in + inout (2 * bytes) for a
 * reduction, the source (bytes) for memcpy, so a reduction that streams its
 * two inputs as fast as memcpy streams one has ratio 1.  Buffers are warm,
 * as a collective's repeated reductions see them.  Not a test: it checks
 * nothing.
 *
 *   make build/bin/kernel-bench
 *   mpirun -n 1 build/bin/kernel-bench [-m min_bytes] [-M max_bytes] [-s factor]
 *                                      [-R trials] [-o bound.csv]
 *
 * -o: only SUM double, every size written as bytes,copy_us,reduce_us (the
 * fastest memcpy of that many bytes and the fastest kernel combining that
 * many bytes into as many): the rates bench/report/limit_table.py turns
 * into each collective's memory-traffic bound (bench_node_limit.sh).
 *
 * Sizes (K, M, G suffixes) go from -m (1K) to -M (64M) by factors of -s (4);
 * each time is the fastest of -R (15) trials.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "kernels/dense.h"

static size_t max_bytes = (size_t)64 << 20;
static int trials = 15;

struct bcase {
    const char *name;
    MPI_Op op;
    MPI_Datatype dt;
    size_t elem;   /* bytes per element (the extent) */
};

static unsigned char *in, *io, *dst;

/* Through a volatile pointer so the compiler cannot drop the copies. */
static void *(*volatile copy)(void *, const void *, size_t) = memcpy;

enum what { KERNEL, MEMCPY, REDUCE_LOCAL };

static void run_once(enum what w, const struct bcase *c, colibri_kernel k, size_t n)
{
    switch (w) {
    case KERNEL: k(in, io, n); break;
    case MEMCPY: copy(dst, in, n * c->elem); break;
    case REDUCE_LOCAL: MPI_Reduce_local(in, io, (int)n, c->dt, c->op); break;
    }
}

/* Seconds per call over a batch of `reps` calls. */
static double batch(enum what w, const struct bcase *c, colibri_kernel k, size_t n, long reps)
{
    const double t0 = MPI_Wtime();
    for (long r = 0; r < reps; r++)
        run_once(w, c, k, n);
    return (MPI_Wtime() - t0) / (double)reps;
}

/* Best seconds per call of kernel, memcpy and MPI_Reduce_local.  Batches
 * are short (BATCH_S, at least one call) so that many of them run within
 * one scheduler time slice, and the three are interleaved so that they see
 * the same machine: on a shared host the minimum over -R rounds is the
 * undisturbed speed. */
#define BATCH_S 0.0005
static void measure(const struct bcase *c, colibri_kernel k, size_t n, double best[3])
{
    long reps[3];
    for (int w = 0; w < 3; w++) {
        reps[w] = 1;
        while (batch((enum what)w, c, k, n, reps[w]) * (double)reps[w] < BATCH_S)
            reps[w] *= 2;
        best[w] = 1e30;
    }
    for (int trial = 0; trial < trials; trial++)
        for (int w = 0; w < 3; w++) {
            const double t = batch((enum what)w, c, k, n, reps[w]);
            if (t < best[w])
                best[w] = t;
        }
}

/* Data that keeps every case in its normal regime over millions of calls:
 * small positive reals (sums grow slowly, no denormals), distinct indices. */
static void fill(void)
{
    double *d = (double *)(void *)in, *e = (double *)(void *)io;
    for (size_t i = 0; i < max_bytes / sizeof(double); i++) {
        d[i] = (double)(i % 1000) / 1000;
        e[i] = (double)((i * 7) % 1000) / 1000;
    }
    memset(dst, 1, max_bytes);
}

static void size_label(char *buf, size_t bytes)
{
    if (bytes >= ((size_t)1 << 20))
        sprintf(buf, "%zuM", bytes >> 20);
    else
        sprintf(buf, "%zuK", bytes >> 10);
}

/* Lookup runs once per collective call; show what that costs. */
static void time_lookup(const char *what, MPI_Op op, MPI_Datatype dt)
{
    const int reps = 1000000;
    colibri_kernel volatile sink = NULL;
    const double t0 = MPI_Wtime();
    for (int r = 0; r < reps; r++)
        sink = kernel_lookup(op, dt);
    (void)sink;
    printf("# kernel_lookup(%s): %.1f ns\n", what, (MPI_Wtime() - t0) / reps * 1e9);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct bench_opts o;
    bench_opts_init(&o, "kernel-bench",
                    "usage: kernel-bench [-m min_bytes] [-M max_bytes] [-s factor] [-R trials] [-o bound.csv]\n");
    o.min_bytes = 1 << 10;
    o.max_bytes = (int64_t)max_bytes;
    o.reps = trials;
    if (bench_parse(argc, argv, "m:M:s:R:o:h", &o, NULL, NULL) < argc)
        bench_usage_exit(&o, "unexpected argument");
    if (o.min_bytes < 1 || o.max_bytes < o.min_bytes)
        bench_usage_exit(&o, "need 1 <= min bytes <= max bytes");
    max_bytes = ((size_t)o.max_bytes + 63) & ~(size_t)63; /* aligned_alloc: whole lines */
    trials = o.reps;
    if (o.step < 2)
        o.step = 4;
    const struct bcase cases[] = {
        {"SUM double", MPI_SUM, MPI_DOUBLE, sizeof(double)},
        {"SUM float", MPI_SUM, MPI_FLOAT, sizeof(float)},
        {"SUM int32", MPI_SUM, MPI_INT32_T, 4},
        {"SUM int8", MPI_SUM, MPI_INT8_T, 1},
        {"MAX double", MPI_MAX, MPI_DOUBLE, sizeof(double)},
        {"BOR uint64", MPI_BOR, MPI_UINT64_T, 8},
        {"MAXLOC double_int", MPI_MAXLOC, MPI_DOUBLE_INT, 0},
    };
    /* -o: the bound's rates, SUM double only */
    const size_t ncases = o.csv ? 1 : sizeof cases / sizeof *cases;
    struct bcase c[sizeof cases / sizeof *cases];
    memcpy(c, cases, sizeof cases);
    for (size_t i = 0; i < ncases; i++) {
        MPI_Aint lb, ext;
        MPI_Type_get_extent(c[i].dt, &lb, &ext);
        c[i].elem = (size_t)ext;
    }

    in = aligned_alloc(64, max_bytes);
    io = aligned_alloc(64, max_bytes);
    dst = aligned_alloc(64, max_bytes);
    if (!in || !io || !dst) {
        fprintf(stderr, "out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    fill();

    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n,")] = '\0';
    printf("# %s; compiler %s\n", lib, __VERSION__);
    printf("# GB/s: reduction (in + inout bytes) / s; memcpy source bytes / s\n");
    time_lookup("MPI_SUM, MPI_DOUBLE", MPI_SUM, MPI_DOUBLE);
    time_lookup("MPI_MINLOC, MPI_2INTEGER", MPI_MINLOC, MPI_2INTEGER);
    FILE *csv = NULL;
    if (o.csv && !(csv = fopen(o.csv, "w"))) {
        perror(o.csv);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (csv)
        fprintf(csv, "bytes,copy_us,reduce_us\n");
    printf("%-18s %6s %9s %9s %7s %13s %9s\n", "case", "bytes", "kernel", "memcpy", "ratio",
           "Reduce_local", "kern/RL");

    for (size_t ci = 0; ci < ncases; ci++) {
        const colibri_kernel k = kernel_lookup(c[ci].op, c[ci].dt);
        if (!k) {
            printf("%-18s no kernel\n", c[ci].name);
            continue;
        }
        for (size_t bytes = (size_t)o.min_bytes; bytes <= (size_t)o.max_bytes; bytes *= (size_t)o.step) {
            const size_t n = bytes / c[ci].elem;
            const double b = (double)(n * c[ci].elem) / 1e9;
            double t[3];
            measure(&c[ci], k, n, t);
            const double gk = 2 * b / t[KERNEL], gm = b / t[MEMCPY], gr = 2 * b / t[REDUCE_LOCAL];
            char label[16];
            size_label(label, bytes);
            printf("%-18s %6s %9.2f %9.2f %7.2f %13.2f %9.2f\n", c[ci].name, label, gk, gm,
                   gk / gm, gr, gk / gr);
            fflush(stdout);
            if (csv)
                fprintf(csv, "%zu,%.4f,%.4f\n", n * c[ci].elem, t[MEMCPY] * 1e6,
                        t[KERNEL] * 1e6);
        }
    }
    if (csv)
        fclose(csv);
    free(in);
    free(io);
    free(dst);
    MPI_Finalize();
    return 0;
}
