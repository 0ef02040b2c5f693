/*
 * colibri-tune: measures, on the machine and allocation it runs on, every
 * algorithm colibri has for each collective it serves (with its radix and
 * segment variants) and the MPI library's own collective ("native"), over
 * a grid of sizes, and writes a tuning file: for each size range the
 * fastest, with native kept unless an algorithm beats it clearly.  The
 * same run fits the cost model's machine parameters (the file's `model`
 * line), which automatic selection uses for shapes no rule covers.
 *
 *   mpirun -n 64 colibri-tune -o my.tuning [--budget 10m] [options]
 *   COLIBRI_TUNING=my.tuning LD_PRELOAD=libcolibri.so mpirun -n 64 ./app
 *
 * Method (docs/tuning.md): for each collective and size, every candidate
 * is called once untimed (setup, cached schedules) and once timed, which
 * sets how many calls one timed batch makes (about 0.5 ms of calls, 1 to
 * 64); then repetitions, each timing one batch of every candidate from a
 * barrier (candidates in a rotated order, so drift hits them alike), the
 * time of a batch being the largest over the ranks of the mean per call;
 * a candidate's time is the median of its repetitions.  Rooted reduce and
 * the exchanges are timed call by call from a barrier each (back-to-back
 * calls could pipeline).  The repetitions (1 to 9) are what the budget
 * leaves: the time remaining shared among the sizes remaining.  A
 * candidate more than PRUNE_RATIO times slower than the best at the two
 * previous sizes, and not closing in, is not measured at larger sizes.
 * An algorithm that beats native by NATIVE_MARGIN is timed against native
 * once more, the two alone, and must win again; and once more after all
 * sizes are measured (5 rounds).
 *
 * Everything the harness needs for itself goes through PMPI_* (bench/lib);
 * the algorithms run through colibri's C API, native as the MPI below's
 * own PMPI_ call: what a `native` rule's shortcut costs is within a few
 * tens of nanoseconds of that (docs/tuning.md), while a named "native"
 * through the C API takes colibri's whole path, which at 8 bytes made
 * colibri's algorithms look faster than they are.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_common.h"
#include "colibri.h"
#include "config/tuning.h"
#include "kernels/dense.h"
#include "select/calibrate.h"
#include "select/catalog.h"

/* The collectives it measures: all but the v forms of allgather, gather
 * and scatter (their blocks differ from call to call, and a rule keys on
 * the total alone: the model and online selection choose for them). */
static bool tuned(int c)
{
    return c >= 0 && c < COLIBRI_NCOLL && c != COLIBRI_ALLGATHERV && c != COLIBRI_GATHERV &&
           c != COLIBRI_SCATTERV;
}

/* A collective whose calls move blocks (bytes per block, at most max/p on
 * the grid); one timed call by call from a barrier (rooted ones and the
 * exchanges: back-to-back calls could pipeline; the chains of scan too);
 * barrier moves nothing (one size). */
static bool by_block(colibri_coll c)
{
    return c == COLIBRI_ALLTOALL || c == COLIBRI_ALLTOALLV || c == COLIBRI_ALLGATHER ||
           c == COLIBRI_GATHER || c == COLIBRI_SCATTER;
}
static bool one_by_one(colibri_coll c)
{
    return !(c == COLIBRI_ALLREDUCE || c == COLIBRI_REDUCE_SCATTER ||
             c == COLIBRI_REDUCE_SCATTER_BLOCK || c == COLIBRI_BARRIER);
}

#define MAX_CANDS 48
#define MAX_SIZES 64
#define MAX_REPS 9
#define BATCH_SECONDS 5e-4
#define MAX_BATCH 64
/* Pruning: slower than the best by this factor at two sizes in a row. */
#define PRUNE_RATIO 3.0
/* An algorithm replaces native only when it is at least this much faster:
 * a difference within the noise should leave the call to the MPI below. */
#define NATIVE_MARGIN 0.97

static const char usage[] =
    "usage: colibri-tune [-o file] [--budget T] [-m min_bytes] [-M max_bytes] [-s factor]\n"
    "                    [-c coll,coll,...] [--blocking-only] [--csv file] [-q]\n"
    "                    [--fake-timings file]\n"
    "  -o file         the tuning file to write (default colibri.tuning)\n"
    "  --budget T      time to spend, in s, m or h (default 10m); progress on stderr\n"
    "  -m, -M, -s      size grid (default 8 to 64M, times 2): reductions' vector bytes,\n"
    "                  alltoall(v)'s bytes per block (at most max/p)\n"
    "  -c              collectives (default all but allgatherv, gatherv, scatterv);\n"
    "                  nonblocking forms too unless\n"
    "                  --blocking-only\n"
    "  --csv file      every measurement: coll,bytes,candidate,us (bench/report/plot_tune.py)\n"
    "  -q              no progress line, no summary\n"
    "  --fake-timings  test hook: take times from the file, lines\n"
    "                  '<coll> <candidate> <us> <us_per_byte>' and\n"
    "                  'calibrate <pingpong_node|pingpong|burst|reduce|copy> <us> <us_per_unit>';\n"
    "                  candidates not listed are not measured\n";

/* One candidate: an algorithm (NULL: native) and its variant. */
struct cand {
    char label[64]; /* "native", "ring", "bruck:4" (radix), "ring@65536" (segment) */
    const char *alg;
    int radix;
    long long segment;
    bool pruned;
    double ratio[2]; /* to the best, at the last two sizes measured (0: none) */
    double fake_a, fake_b;
};

/* One collective in one form, its candidates and its results. */
struct plan {
    colibri_coll coll;
    bool nonblocking;
    struct cand c[MAX_CANDS];
    int n;
    int n_sizes;
    long long bytes[MAX_SIZES]; /* as rules count them (tuning.h) */
    int64_t count[MAX_SIZES];   /* the call's count argument */
    double us[MAX_SIZES][MAX_CANDS]; /* median, 0: not measured */
    int winner[MAX_SIZES];
};

struct opts {
    const char *out, *csv, *fake;
    double budget;
    int64_t min_bytes, max_bytes;
    long step;
    bool colls[COLIBRI_NCOLL], blocking_only, quiet;
};

static int rank, nprocs;

/* "90", "90s", "10m", "1.5h" -> seconds; -1 when it is none of those. */
static double parse_duration(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || v <= 0)
        return -1;
    double unit = *end == 'h' ? 3600 : *end == 'm' ? 60 : *end == 's' || !*end ? 1 : -1;
    return unit < 0 || (*end && end[1]) ? -1 : v * unit;
}

static void fail(const char *what, const char *arg)
{
    if (rank == 0)
        fprintf(stderr, "colibri-tune: %s '%s'\n%s", what, arg ? arg : "", usage);
    MPI_Finalize();
    exit(2);
}

static void parse_args(int argc, char **argv, struct opts *o)
{
    *o = (struct opts){.out = "colibri.tuning", .budget = 600, .min_bytes = 8,
                       .max_bytes = 64 << 20, .step = 2};
    bool any = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = true;
        if (strcmp(a, "-o") == 0 && v)
            o->out = v;
        else if (strcmp(a, "--csv") == 0 && v)
            o->csv = v;
        else if (strcmp(a, "--fake-timings") == 0 && v)
            o->fake = v;
        else if (strcmp(a, "--budget") == 0 && v) {
            if ((o->budget = parse_duration(v)) < 0)
                fail("bad duration", v);
        } else if ((strcmp(a, "-m") == 0 || strcmp(a, "-M") == 0) && v) {
            int64_t b = bench_parse_bytes(v);
            if (b < 1)
                fail("bad size", v);
            *(a[1] == 'm' ? &o->min_bytes : &o->max_bytes) = b;
        } else if (strcmp(a, "-s") == 0 && v) {
            if ((o->step = strtol(v, NULL, 10)) < 2)
                fail("bad factor", v);
        } else if (strcmp(a, "-c") == 0 && v) {
            char list[256];
            snprintf(list, sizeof list, "%s", v);
            for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
                int c = 0;
                while (c < COLIBRI_NCOLL && strcmp(t, colibri_coll_name((colibri_coll)c)))
                    c++;
                if (!tuned(c))
                    fail("unknown or untuned collective", t);
                o->colls[c] = any = true;
            }
        } else {
            takes = false;
            if (strcmp(a, "--blocking-only") == 0)
                o->blocking_only = true;
            else if (strcmp(a, "-q") == 0)
                o->quiet = true;
            else
                fail(strcmp(a, "-h") == 0 ? "" : "bad option", a);
        }
        i += takes;
    }
    if (!any)
        for (int c = 0; c < COLIBRI_NCOLL; c++)
            o->colls[c] = tuned(c);
    if (o->max_bytes < o->min_bytes)
        fail("max below min", "");
}

/* ---- fake timings (the test hook) ---- */

struct fake {
    char coll[32], cand[64];
    double a, b;
};
static struct fake *fakes;
static int n_fakes;

static void read_fakes(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail("cannot read", path);
    char line[256];
    while (fgets(line, sizeof line, f)) {
        struct fake x;
        if (line[0] == '#' || sscanf(line, "%31s %63s %lf %lf", x.coll, x.cand, &x.a, &x.b) != 4)
            continue;
        fakes = realloc(fakes, (size_t)(n_fakes + 1) * sizeof *fakes);
        fakes[n_fakes++] = x;
    }
    fclose(f);
}

static const struct fake *fake_of(const char *coll, const char *cand)
{
    for (int i = 0; i < n_fakes; i++)
        if (strcmp(fakes[i].coll, coll) == 0 && strcmp(fakes[i].cand, cand) == 0)
            return &fakes[i];
    return NULL;
}

/* ---- candidates ---- */

static void add(struct plan *pl, const char *alg, int radix, long long segment)
{
    if (pl->n == MAX_CANDS)
        return;
    struct cand *c = &pl->c[pl->n];
    *c = (struct cand){.alg = alg, .radix = radix, .segment = segment};
    if (radix)
        snprintf(c->label, sizeof c->label, "%s:%d", alg, radix);
    else if (segment)
        snprintf(c->label, sizeof c->label, "%s@%lld", alg, segment);
    else
        snprintf(c->label, sizeof c->label, "%s", alg ? alg : "native");
    if (fakes) {
        char name[32];
        const struct fake *f =
            fake_of(tuning_coll_name(pl->coll, pl->nonblocking, name, sizeof name), c->label);
        if (!f)
            return;
        c->fake_a = f->a, c->fake_b = f->b;
    }
    pl->n++;
}

/* native, then the catalog's algorithms that can run this form on p ranks,
 * each with its variants: radix 2, 4, 8, ... up to p for the k-ary ones
 * (the catalog's tunable-radix entries, and allreduce knomial, whose radix
 * the model does not tune), three pipeline segments for ring and the
 * pipelined bcasts (the segmented algorithms).  Sparse algorithms are left out: they win only on
 * sparse data, which selection recognises by itself (docs/sparse.md). */
static void candidates(struct plan *pl)
{
    pl->n = 0;
    add(pl, NULL, 0, 0);
    if (pl->n == 0)
        return; /* fake timings without native's: nothing to compare with */
    for (int i = 0; i < catalog_count; i++) {
        const struct algorithm *a = &catalog[i];
        if (a->coll != pl->coll || (a->restrictions & R_NEUTRAL) ||
            (pl->nonblocking && (a->restrictions & R_BLOCKING_ONLY)) ||
            ((a->restrictions & R_POW2) && (nprocs & (nprocs - 1))) ||
            ((a->restrictions & R_EVEN) && nprocs % 2))
            continue;
        add(pl, a->name, 0, 0);
        if ((a->tunable_radix || strcmp(a->name, "knomial") == 0) && nprocs > 2)
            for (int k = 2; k <= nprocs && k <= 64; k *= 2)
                add(pl, a->name, k, 0);
        if (strcmp(a->name, "ring") == 0 ||
            (pl->coll == COLIBRI_BCAST &&
             (strcmp(a->name, "pipeline") == 0 || strcmp(a->name, "binary_tree") == 0)))
            for (long long s = 64 << 10; s <= (4 << 20); s *= 8)
                add(pl, a->name, 0, s);
    }
}

/* COLIBRI_RADIX and COLIBRI_SEGMENT_BYTES for a candidate's calls. */
static void set_variant(const struct cand *c)
{
    static int radix = -1;
    static long long segment = -1;
    if (c->radix == radix && c->segment == segment)
        return;
    char v[32];
    snprintf(v, sizeof v, "%d", c->radix);
    setenv("COLIBRI_RADIX", v, 1);
    snprintf(v, sizeof v, "%lld", c->segment);
    setenv("COLIBRI_SEGMENT_BYTES", v, 1);
    colibri_config_reload();
    radix = c->radix, segment = c->segment;
}

/* ---- the calls ---- */

struct bufs {
    void *s, *r;
    MPI_Count *counts;     /* reduce_scatter: every rank's count; alltoallv: per peer */
    MPI_Aint *displs;
    int *icounts, *idispls; /* the same for the MPI below's int entry points */
};

struct call_ctx {
    const struct plan *pl;
    const struct cand *c;
    struct bufs *b;
    int64_t count;
};

/* native: the MPI below's own call, as a `native` rule's shortcut makes it
 * (runtime/native.h), int counts (the grid stays below 2^31 bytes) */
static int native(struct call_ctx *x)
{
    struct bufs *b = x->b;
    const int n = (int)x->count;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request req;
    const bool nb = x->pl->nonblocking;
    int rc;
    for (int j = 0; j < nprocs; j++)
        b->icounts[j] = n, b->idispls[j] = j * n;
    switch (x->pl->coll) {
    case COLIBRI_ALLREDUCE:
        rc = nb ? PMPI_Iallreduce(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, &req)
                : PMPI_Allreduce(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w);
        break;
    case COLIBRI_REDUCE:
        rc = nb ? PMPI_Ireduce(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, 0, w, &req)
                : PMPI_Reduce(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, 0, w);
        break;
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        rc = nb ? PMPI_Ireduce_scatter_block(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, &req)
                : PMPI_Reduce_scatter_block(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w);
        break;
    case COLIBRI_REDUCE_SCATTER:
        rc = nb ? PMPI_Ireduce_scatter(b->s, b->r, b->icounts, MPI_DOUBLE, MPI_SUM, w, &req)
                : PMPI_Reduce_scatter(b->s, b->r, b->icounts, MPI_DOUBLE, MPI_SUM, w);
        break;
    case COLIBRI_ALLTOALL:
        rc = nb ? PMPI_Ialltoall(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, w, &req)
                : PMPI_Alltoall(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, w);
        break;
    case COLIBRI_ALLGATHER:
        rc = nb ? PMPI_Iallgather(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, w, &req)
                : PMPI_Allgather(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, w);
        break;
    case COLIBRI_BCAST:
        rc = nb ? PMPI_Ibcast(b->r, n, MPI_BYTE, 0, w, &req) : PMPI_Bcast(b->r, n, MPI_BYTE, 0, w);
        break;
    case COLIBRI_BARRIER:
        rc = nb ? PMPI_Ibarrier(w, &req) : PMPI_Barrier(w);
        break;
    case COLIBRI_GATHER:
        rc = nb ? PMPI_Igather(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, 0, w, &req)
                : PMPI_Gather(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, 0, w);
        break;
    case COLIBRI_SCATTER:
        rc = nb ? PMPI_Iscatter(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, 0, w, &req)
                : PMPI_Scatter(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, 0, w);
        break;
    case COLIBRI_SCAN:
        rc = nb ? PMPI_Iscan(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, &req)
                : PMPI_Scan(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w);
        break;
    case COLIBRI_EXSCAN:
        rc = nb ? PMPI_Iexscan(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, &req)
                : PMPI_Exscan(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w);
        break;
    default:
        rc = nb ? PMPI_Ialltoallv(b->s, b->icounts, b->idispls, MPI_BYTE, b->r, b->icounts,
                                  b->idispls, MPI_BYTE, w, &req)
                : PMPI_Alltoallv(b->s, b->icounts, b->idispls, MPI_BYTE, b->r, b->icounts,
                                 b->idispls, MPI_BYTE, w);
    }
    return rc == MPI_SUCCESS && nb ? PMPI_Wait(&req, MPI_STATUS_IGNORE) : rc;
}

static int call(void *vctx, int i)
{
    struct call_ctx *x = vctx;
    if (!x->c->alg)
        return native(x);
    const char *alg = x->c->alg;
    struct bufs *b = x->b;
    const int64_t n = x->count;
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request req = MPI_REQUEST_NULL, *r = x->pl->nonblocking ? &req : NULL;
    int rc;
    switch (x->pl->coll) {
    case COLIBRI_ALLREDUCE:
        rc = r ? colibri_iallreduce(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, alg, r)
               : colibri_allreduce(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, alg);
        break;
    case COLIBRI_REDUCE:
        rc = r ? colibri_ireduce(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, 0, w, alg, r)
               : colibri_reduce(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, 0, w, alg);
        break;
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        rc = r ? colibri_ireduce_scatter_block(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, alg, r)
               : colibri_reduce_scatter_block(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, alg);
        break;
    case COLIBRI_REDUCE_SCATTER:
        for (int j = 0; j < nprocs; j++)
            b->counts[j] = n;
        rc = r ? colibri_ireduce_scatter(b->s, b->r, b->counts, MPI_DOUBLE, MPI_SUM, w, alg, r)
               : colibri_reduce_scatter(b->s, b->r, b->counts, MPI_DOUBLE, MPI_SUM, w, alg);
        break;
    case COLIBRI_ALLTOALL:
        rc = r ? colibri_ialltoall(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, w, alg, r)
               : colibri_alltoall(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, w, alg);
        break;
    case COLIBRI_ALLGATHER:
        rc = r ? colibri_iallgather(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, w, alg, r)
               : colibri_allgather(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, w, alg);
        break;
    case COLIBRI_BCAST:
        rc = r ? colibri_ibcast(b->r, n, MPI_BYTE, 0, w, alg, r)
               : colibri_bcast(b->r, n, MPI_BYTE, 0, w, alg);
        break;
    case COLIBRI_BARRIER:
        rc = r ? colibri_ibarrier(w, alg, r) : colibri_barrier(w, alg);
        break;
    case COLIBRI_GATHER:
        rc = r ? colibri_igather(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, 0, w, alg, r)
               : colibri_gather(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, 0, w, alg);
        break;
    case COLIBRI_SCATTER:
        rc = r ? colibri_iscatter(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, 0, w, alg, r)
               : colibri_scatter(b->s, n, MPI_BYTE, b->r, n, MPI_BYTE, 0, w, alg);
        break;
    case COLIBRI_SCAN:
        rc = r ? colibri_iscan(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, alg, r)
               : colibri_scan(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, alg);
        break;
    case COLIBRI_EXSCAN:
        rc = r ? colibri_iexscan(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, alg, r)
               : colibri_exscan(b->s, b->r, n, MPI_DOUBLE, MPI_SUM, w, alg);
        break;
    default:
        for (int j = 0; j < nprocs; j++)
            b->counts[j] = n, b->displs[j] = (MPI_Aint)j * n;
        rc = r ? colibri_ialltoallv(b->s, b->counts, b->displs, MPI_BYTE, b->r, b->counts,
                                    b->displs, MPI_BYTE, w, alg, r)
               : colibri_alltoallv(b->s, b->counts, b->displs, MPI_BYTE, b->r, b->counts,
                                   b->displs, MPI_BYTE, w, alg);
    }
    (void)i;
    return rc == MPI_SUCCESS && r ? MPI_Wait(r, MPI_STATUS_IGNORE) : rc;
}

/* The size grid of a collective: nominal sizes min, min*step, ... max,
 * made into call counts (doubles for the reductions and scans, at least
 * one per rank's block; bytes per block for the exchanges, allgather,
 * gather and scatter, at most max/p; bytes of bcast's buffer) and the
 * bytes rules count (selection's: vector, block or buffer bytes); sizes
 * that give the same call are measured once; barrier has one, of 0. */
static void grid(struct plan *pl, const struct opts *o)
{
    const bool exchange = by_block(pl->coll);
    const int64_t max = exchange ? o->max_bytes / nprocs : o->max_bytes;
    pl->n_sizes = 0;
    if (pl->coll == COLIBRI_BARRIER) {
        pl->count[0] = pl->bytes[0] = 0;
        pl->n_sizes = 1;
        return;
    }
    for (int64_t s = o->min_bytes; s <= max && pl->n_sizes < MAX_SIZES; s *= o->step) {
        int64_t count;
        long long bytes;
        if (exchange || pl->coll == COLIBRI_BCAST)
            count = s, bytes = s;
        else if (pl->coll == COLIBRI_REDUCE_SCATTER || pl->coll == COLIBRI_REDUCE_SCATTER_BLOCK)
            count = s / 8 / nprocs > 0 ? s / 8 / nprocs : 1, bytes = count * 8 * nprocs;
        else
            count = s / 8 > 0 ? s / 8 : 1, bytes = count * 8;
        if (pl->n_sizes && pl->bytes[pl->n_sizes - 1] == bytes)
            continue;
        pl->count[pl->n_sizes] = count;
        pl->bytes[pl->n_sizes++] = bytes;
    }
}

/* ---- progress ---- */

static double t_start;

static void fmt_duration(double s, char *buf, size_t len)
{
    if (s < 60)
        snprintf(buf, len, "%.0fs", s);
    else
        snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
}

static void fmt_bytes(long long b, char *buf, size_t len)
{
    if (b >= 1 << 20 && b % (1 << 20) == 0)
        snprintf(buf, len, "%lld MiB", b >> 20);
    else if (b >= 1 << 10 && b % (1 << 10) == 0)
        snprintf(buf, len, "%lld KiB", b >> 10);
    else
        snprintf(buf, len, "%lld B", b);
}

static void progress(const struct opts *o, const struct plan *pl, int i, int done, int total,
                     double elapsed, double left, bool last_of_plan)
{
    if (rank || o->quiet)
        return;
    char name[32], b[32], e[16], l[16];
    tuning_coll_name(pl->coll, pl->nonblocking, name, sizeof name);
    fmt_bytes(pl->bytes[i], b, sizeof b);
    fmt_duration(elapsed, e, sizeof e);
    fmt_duration(left, l, sizeof l);
    const bool tty = isatty(2);
    if (tty || last_of_plan)
        fprintf(stderr, "%scolibri-tune: %-22s %-9s %3d/%d sizes, %s elapsed, about %s left%s",
                tty ? "\r" : "", name, b, done, total, e, l, tty ? "   " : "\n");
}

/* ---- measuring ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Times candidate c of size i of pl against native, the two alone, in
 * `reps` rounds of alternating order, each a batch of about BATCH_SECONDS
 * (from the times measured before); true when c's median is below
 * NATIVE_MARGIN times native's. */
static bool beats_native(const struct plan *pl, int i, struct bufs *b, int c, int reps)
{
    const bool each = one_by_one(pl->coll);
    const int pair[2] = {0, c};
    double u[2][MAX_REPS];
    for (int r = 0; r < reps; r++)
        for (int jj = 0; jj < 2; jj++) {
            const int j = (jj + r) % 2;
            struct call_ctx x = {pl, &pl->c[pair[j]], b, pl->count[i]};
            set_variant(x.c);
            const double t = pl->us[i][pair[j]] * 1e-6;
            int k = t > 0 ? (int)(BATCH_SECONDS / t) : 1;
            k = k < 1 ? 1 : k > MAX_BATCH ? MAX_BATCH : k;
            struct bench_loop l = {call, &x, MPI_COMM_WORLD, k, 0, each, 0};
            u[j][r] = bench_time(&l);
        }
    qsort(u[0], (size_t)reps, sizeof **u, cmp_double);
    qsort(u[1], (size_t)reps, sizeof **u, cmp_double);
    return u[1][reps / 2] < NATIVE_MARGIN * u[0][reps / 2];
}

/* Measures size i of pl within `allowed` seconds; fills pl->us[i]. */
static void measure(struct plan *pl, int i, struct bufs *b, double allowed)
{
    const bool fake = fakes != NULL;
    int act[MAX_CANDS], na = 0;
    for (int c = 0; c < pl->n; c++)
        if (!pl->c[c].pruned)
            act[na++] = c;
    /* the untimed first call and a timed one, which sizes the batches */
    double warm[MAX_CANDS];
    for (int j = 0; j < na; j++) {
        struct call_ctx x = {pl, &pl->c[act[j]], b, pl->count[i]};
        set_variant(x.c);
        struct bench_loop l = {call, &x, MPI_COMM_WORLD, 1, 1, 0, 0};
        warm[j] = bench_time(&l); /* with fake timings too: every candidate runs */
        if (warm[j] < 0) {
            if (rank == 0)
                fprintf(stderr, "colibri-tune: %s failed\n", x.c->label);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    int k[MAX_CANDS];
    double rep_cost = 0;
    for (int j = 0; j < na; j++) {
        k[j] = warm[j] > 0 && !fake ? (int)(BATCH_SECONDS / warm[j]) : 1;
        k[j] = k[j] < 1 ? 1 : k[j] > MAX_BATCH ? MAX_BATCH : k[j];
        rep_cost += k[j] * warm[j] + 2e-5;
    }
    int reps = fake ? 1 : (int)(allowed / rep_cost);
    reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
    const bool each = one_by_one(pl->coll);
    double t[MAX_REPS][MAX_CANDS];
    for (int r = 0; r < reps; r++)
        for (int jj = 0; jj < na; jj++) {
            const int j = (jj + r) % na; /* rotated order */
            struct cand *c = &pl->c[act[j]];
            struct call_ctx x = {pl, c, b, pl->count[i]};
            set_variant(c);
            struct bench_loop l = {call, &x, MPI_COMM_WORLD, k[j], 0, each, 0};
            t[r][j] = fake ? (c->fake_a + c->fake_b * (double)pl->bytes[i]) * 1e-6
                           : bench_time(&l);
        }
    for (int j = 0; j < na; j++) {
        double v[MAX_REPS];
        for (int r = 0; r < reps; r++)
            v[r] = t[r][j];
        qsort(v, (size_t)reps, sizeof *v, cmp_double);
        pl->us[i][act[j]] = 1e6 * (reps % 2 ? v[reps / 2] : (v[reps / 2 - 1] + v[reps / 2]) / 2);
    }
    /* winner (native unless clearly beaten), then pruning */
    int best = 0;
    for (int j = 0; j < na; j++)
        if (pl->us[i][act[j]] < pl->us[i][best])
            best = act[j];
    if (best != 0 && pl->us[i][best] > NATIVE_MARGIN * pl->us[i][0])
        best = 0;
    /* the previous size's algorithm, if measured here within the margin of
     * the best and still clearly ahead of native, stays: near-ties (ring's
     * segments on short vectors) would otherwise cut the sizes into as
     * many rules */
    const int prev = i ? pl->winner[i - 1] : 0;
    if (prev != 0 && best != prev && pl->us[i][prev] > 0 &&
        pl->us[i][prev] * NATIVE_MARGIN <= pl->us[i][best] &&
        pl->us[i][prev] <= NATIVE_MARGIN * pl->us[i][0])
        best = prev;
    /* An algorithm that beat native is timed against it once more, the
     * two alone, and keeps the size only if it wins again: one burst of
     * another process's work during the first round must not hand a size
     * to an algorithm (this machine's neighbours taught that). */
    if (best != 0 && !fake && !beats_native(pl, i, b, best, reps))
        best = 0;
    pl->winner[i] = best;
    double fastest = pl->us[i][best];
    for (int j = 0; j < na; j++)
        fastest = pl->us[i][act[j]] < fastest ? pl->us[i][act[j]] : fastest;
    for (int j = 1; j < na; j++) {
        struct cand *c = &pl->c[act[j]];
        const double ratio = pl->us[i][act[j]] / fastest;
        if (c->ratio[1] > PRUNE_RATIO && ratio > PRUNE_RATIO && ratio >= c->ratio[1])
            c->pruned = true;
        c->ratio[0] = c->ratio[1];
        c->ratio[1] = ratio;
    }
}

/* ---- calibration ---- */

/* Round trips of `bytes` between world ranks 0 and `peer`: half the mean,
 * the fastest of three (on rank 0). */
static double pingpong(int peer, int bytes, char *buf)
{
    int iters = bytes < (64 << 10) ? 50 : bytes < (1 << 20) ? 10 : 3;
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = PMPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                PMPI_Send(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                PMPI_Recv(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == peer) {
                PMPI_Recv(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                PMPI_Send(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        double t = (PMPI_Wtime() - t0) / iters / 2;
        best = t < best ? t : best;
    }
    return best;
}

/* `m` empty messages rank 0 -> peer, then one back: the fastest of ten. */
static double burst(int peer, int m)
{
    MPI_Request rq[64];
    MPI_Status st[64]; /* not MPI_STATUSES_IGNORE: MPICH's is (MPI_Status *)1, which gcc flags */
    double best = 1e30;
    for (int r = 0; r < 10; r++) {
        double t0 = PMPI_Wtime();
        if (rank == 0) {
            for (int i = 0; i < m; i++)
                PMPI_Isend(NULL, 0, MPI_BYTE, peer, 2, MPI_COMM_WORLD, &rq[i]);
            PMPI_Waitall(m, rq, st);
            PMPI_Recv(NULL, 0, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == peer) {
            for (int i = 0; i < m; i++)
                PMPI_Irecv(NULL, 0, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &rq[i]);
            PMPI_Waitall(m, rq, st);
            PMPI_Send(NULL, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
        }
        double t = PMPI_Wtime() - t0;
        best = t < best ? t : best;
    }
    return best;
}

/* Seconds per call of the local reduction kernel (x = 0) or memcpy (1). */
static double local_op(int what, size_t bytes, char *a, char *b)
{
    colibri_kernel sum = kernel_lookup(MPI_SUM, MPI_DOUBLE);
    int iters = (int)((8 << 20) / bytes) + 1;
    double best = 1e30;
    for (int r = 0; r < 3; r++) {
        double t0 = PMPI_Wtime();
        for (int i = 0; i < iters; i++)
            what ? (void)memcpy(b, a, bytes) : sum(a, b, bytes / 8);
        double t = (PMPI_Wtime() - t0) / iters;
        best = t < best ? t : best;
    }
    return best;
}

enum calib { CAL_PP_NODE, CAL_PP, CAL_BURST, CAL_REDUCE, CAL_COPY, CAL_KINDS };
static const char *const calib_names[CAL_KINDS] = {"pingpong_node", "pingpong", "burst", "reduce",
                                                   "copy"};

/* Samples of one calibration measurement, on rank 0: x bytes (burst:
 * messages), t seconds.  Returns how many (0: not measured here). */
static int sample(enum calib what, int peer, struct calib_sample *s, char *a, char *b)
{
    const struct fake *f = fakes ? fake_of("calibrate", calib_names[what]) : NULL;
    int n = 0;
    if (fakes && !f)
        return 0;
    const bool p2p = what == CAL_PP_NODE || what == CAL_PP;
    if ((p2p || what == CAL_BURST) && peer < 0)
        return 0;
    if (what == CAL_BURST)
        for (int m = 1; m <= 64; m *= 2)
            s[n].x = m, s[n].t = f ? (f->a + f->b * m) * 1e-6 : burst(peer, m), n++;
    else
        for (long long x = p2p ? 8 : 64 << 10; x <= (p2p ? 4 << 20 : 16 << 20); x *= 2) {
            s[n].x = (double)x;
            s[n].t = f          ? (f->a + f->b * (double)x) * 1e-6
                     : p2p      ? pingpong(peer, (int)x, a)
                     : rank == 0 ? local_op(what == CAL_COPY, (size_t)x, a, b)
                                 : 0;
            n++;
        }
    return n;
}

/* Fits the model on rank 0 (every rank takes part in the ping-pongs);
 * returns whether anything was measured. */
static bool calibrate(struct tuning_model *m, int node_peer, int remote_peer)
{
    struct calib_sample s[32];
    char *a = calloc(16 << 20, 1), *b = calloc(16 << 20, 1);
    memset(m, 0, sizeof *m);
    struct p2p_fit fit;
    double slope, icpt;
    int n;
    if ((n = sample(CAL_PP_NODE, node_peer, s, a, b)) > 0) {
        calibrate_p2p(s, n, &fit);
        m->alpha_node = fit.alpha, m->beta_node = fit.beta, m->eager = fit.eager, m->set = true;
    }
    PMPI_Barrier(MPI_COMM_WORLD);
    if ((n = sample(CAL_PP, remote_peer, s, a, b)) > 0) {
        calibrate_p2p(s, n, &fit);
        m->alpha = fit.alpha, m->beta = fit.beta, m->set = true;
        if (!m->eager)
            m->eager = fit.eager;
    }
    PMPI_Barrier(MPI_COMM_WORLD);
    const int peer = node_peer >= 0 ? node_peer : remote_peer;
    if ((n = sample(CAL_BURST, peer, s, a, b)) > 0) {
        calibrate_line(s, n, &icpt, &slope);
        m->o = slope > 0 ? slope : 1e-9, m->set = true;
    }
    PMPI_Barrier(MPI_COMM_WORLD);
    if ((n = sample(CAL_REDUCE, 0, s, a, b)) > 0) {
        calibrate_line(s, n, &icpt, &slope);
        m->gamma = slope > 0 ? slope : 1e-12, m->set = true;
    }
    if ((n = sample(CAL_COPY, 0, s, a, b)) > 0) {
        calibrate_line(s, n, &icpt, &slope);
        m->shm_beta = slope > 0 ? slope : 1e-12, m->set = true;
    }
    free(a);
    free(b);
    return m->set;
}

/* ---- output ---- */

/* Rules from the winners: adjacent sizes with the same winner make one
 * rule; range boundaries lie halfway (geometrically) between measured
 * sizes, the first rule starts at 0 and the last has no end, so every call
 * of this shape follows a measurement.  A single-size rule keeps its
 * times. */
static void rules_of(const struct plan *pl, struct tuning_file *t, int ppn, int nodes)
{
    for (int i = 0; i < pl->n_sizes;) {
        int j = i;
        while (j + 1 < pl->n_sizes && pl->winner[j + 1] == pl->winner[i])
            j++;
        if (t->n_rules == TUNING_MAX_RULES)
            return;
        const struct cand *c = &pl->c[pl->winner[i]];
        struct tuning_rule *r = &t->rules[t->n_rules++];
        *r = (struct tuning_rule){.coll = pl->coll, .nonblocking = pl->nonblocking,
                                  .lo_p = nprocs, .hi_p = nprocs, .lo_ppn = ppn, .hi_ppn = ppn,
                                  .lo_nodes = nodes, .hi_nodes = nodes, .radix = c->radix,
                                  .segment = c->segment};
        snprintf(r->alg, sizeof r->alg, "%s", c->alg ? c->alg : "native");
        r->lo_bytes = i == 0 ? 0 : (long long)sqrt((double)pl->bytes[i - 1] * pl->bytes[i]) + 1;
        r->hi_bytes = j + 1 == pl->n_sizes ? 0x7fffffffffffffffll
                                           : (long long)sqrt((double)pl->bytes[j] * pl->bytes[j + 1]);
        if (i == j)
            r->us = pl->us[i][pl->winner[i]], r->native_us = pl->us[i][0];
        i = j + 1;
    }
}

static void summary(const struct plan *pl, FILE *csv)
{
    char name[32], b[32];
    tuning_coll_name(pl->coll, pl->nonblocking, name, sizeof name);
    for (int i = 0; i < pl->n_sizes; i++) {
        const int w = pl->winner[i];
        fmt_bytes(pl->bytes[i], b, sizeof b);
        if (!csv)
            printf("%-22s %10s  %-26s %12.2f %12.2f %7.2f\n", name, b, pl->c[w].label,
                   pl->us[i][w], pl->us[i][0], pl->us[i][w] / pl->us[i][0]);
        for (int c = 0; csv && c < pl->n; c++)
            if (pl->us[i][c] > 0)
                fprintf(csv, "%s,%lld,%s,%.4f,%d\n", name, pl->bytes[i], pl->c[c].label,
                        pl->us[i][c], c == w);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    t_start = PMPI_Wtime();
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    struct opts o;
    parse_args(argc, argv, &o);
    if (o.fake)
        read_fakes(o.fake);
    /* the measurement names every algorithm: no tuning file of the user's
     * or the site's is read (and no warning about one printed) */
    setenv("COLIBRI_TUNING", "none", 1);
    colibri_config_reload();

    /* the shape: ranks per node, nodes, and partners for the ping-pongs */
    int *node_of = malloc((size_t)nprocs * sizeof *node_of), nodes = 0;
    colibri_node_layout(MPI_COMM_WORLD, node_of, &nodes);
    int ppn = 0, node_peer = -1, remote_peer = -1;
    for (int nd = 0; nd < nodes; nd++) {
        int k = 0;
        for (int r = 0; r < nprocs; r++)
            k += node_of[r] == nd;
        ppn = k > ppn ? k : ppn;
    }
    for (int r = nprocs - 1; r > 0; r--)
        *(node_of[r] == node_of[0] ? &node_peer : &remote_peer) = r;
    free(node_of);

    static struct tuning_file t;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    PMPI_Get_library_version(lib, &len);
    tuning_mpi_id(lib, t.mpi, sizeof t.mpi);
    t.shape_p = nprocs, t.shape_ppn = ppn, t.shape_nodes = nodes;
    calibrate(&t.model, node_peer, remote_peer);

    static struct plan plans[2 * COLIBRI_NCOLL];
    int np = 0, total = 0;
    for (int nb = 0; nb < (o.blocking_only ? 1 : 2); nb++)
        for (int c = 0; c < COLIBRI_NCOLL; c++)
            if (o.colls[c]) {
                struct plan *pl = &plans[np];
                pl->coll = (colibri_coll)c, pl->nonblocking = nb;
                candidates(pl);
                grid(pl, &o);
                if (pl->n > 1 || !fakes) /* with fakes: only what the file times */
                    total += pl->n_sizes, np++;
            }
    /* buffers for the largest call: the reductions' vector, p blocks */
    struct bufs b;
    const size_t bytes = (size_t)o.max_bytes + 8 * (size_t)nprocs;
    b.s = malloc(bytes), b.r = malloc(bytes);
    b.counts = malloc((size_t)nprocs * sizeof *b.counts);
    b.displs = malloc((size_t)nprocs * sizeof *b.displs);
    b.icounts = malloc((size_t)nprocs * sizeof *b.icounts);
    b.idispls = malloc((size_t)nprocs * sizeof *b.idispls);
    if (!b.s || !b.r || !b.counts || !b.displs || !b.icounts || !b.idispls)
        fail("out of memory for buffers of", "-M");
    for (size_t i = 0; i < bytes / 8; i++)
        ((double *)b.s)[i] = 1.0;

    int done = 0;
    for (int q = 0; q < np; q++) {
        struct plan *pl = &plans[q];
        for (int i = 0; i < pl->n_sizes; i++) {
            double elapsed = PMPI_Wtime() - t_start;
            bench_max_over_ranks(&elapsed, 1, MPI_COMM_WORLD); /* one decision for all */
            const double allowed = (o.budget - elapsed) / (total - done);
            measure(pl, i, &b, allowed);
            done++;
            elapsed = PMPI_Wtime() - t_start;
            const double per = elapsed / done, rest = (o.budget - elapsed) / (total - done + 1e-9);
            progress(&o, pl, i, done, total, elapsed, (total - done) * (per < rest ? per : rest),
                     i + 1 == pl->n_sizes);
        }
    }
    /* A last check, minutes after the first measurements: every size an
     * algorithm won is timed against native once more (5 rounds) and goes
     * back to native unless the algorithm wins again, so that a burst of
     * other work on the machine lasting through one size's two rounds
     * cannot decide it. */
    int verified = 0, reverted = 0;
    for (int q = 0; q < np && !fakes; q++)
        for (int i = 0; i < plans[q].n_sizes; i++)
            if (plans[q].winner[i] != 0) {
                verified++;
                if (!beats_native(&plans[q], i, &b, plans[q].winner[i], 5)) {
                    plans[q].winner[i] = 0;
                    reverted++;
                }
            }
    if (rank == 0 && !o.quiet && verified)
        fprintf(stderr, "colibri-tune: checked again the %d sizes an algorithm won: %d went back "
                        "to native\n", verified, reverted);
    for (int q = 0; q < np; q++)
        rules_of(&plans[q], &t, ppn, nodes);
    const double took = PMPI_Wtime() - t_start;

    if (rank == 0) {
        FILE *f = fopen(o.out, "w");
        if (!f) {
            fprintf(stderr, "colibri-tune: cannot write '%s'\n", o.out);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        char host[MPI_MAX_PROCESSOR_NAME] = "", date[64];
        int hl;
        PMPI_Get_processor_name(host, &hl);
        time_t now = time(NULL);
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
        fprintf(f, "# colibri tuning file, written by colibri-tune (docs/tuning.md)\n"
                   "# host %s, date %s, p=%d, %d ranks per node, %d nodes\n"
                   "# took %.0f s of a %.0f s budget; sizes %lld to %lld bytes\n",
                host, date, nprocs, ppn, nodes, took, o.budget, (long long)o.min_bytes,
                (long long)o.max_bytes);
        tuning_write(f, &t);
        fclose(f);
        FILE *csv = o.csv ? fopen(o.csv, "w") : NULL;
        if (csv)
            fprintf(csv, "coll,bytes,candidate,us,winner\n");
        if (!o.quiet)
            printf("%-22s %10s  %-26s %12s %12s %7s\n", "collective", "size", "winner",
                   "winner_us", "native_us", "ratio");
        for (int q = 0; q < np; q++) {
            if (!o.quiet)
                summary(&plans[q], NULL);
            if (csv)
                summary(&plans[q], csv);
        }
        if (csv)
            fclose(csv);
        if (!o.quiet)
            printf("colibri-tune: wrote %s (%d rules) in %.0f s\n", o.out, t.n_rules, took);
    }
    free(b.s), free(b.r), free(b.counts), free(b.displs), free(b.icounts), free(b.idispls);
    free(fakes);
    MPI_Finalize();
    return 0;
}
