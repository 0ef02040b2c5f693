/*
 * colibri-bench: OSU-style latency benchmark of colibri's collectives
 * against each other, against the MPI below ("native") and against the
 * alpha-beta-gamma lower bound.
 *
 *   colibri-bench [-c allreduce|reduce|reduce_scatter_block|reduce_scatter|
 *                     alltoall|alltoallv]
 *                 [-a all|alg,alg,...] [-m min_bytes] [-M max_bytes] [-s step]
 *                 [-i iterations] [-w warmup] [-R repetitions]
 *                 [-t double|float|int|int64] [-D uniform|skewed|random]
 *                 [-r root] [-B] [-L alpha,beta,gamma] [-N native_label]
 *                 [-o file.csv] [-q]
 *
 * "native" is the MPI library's own collective (PMPI_*; under SimGrid SMPI the
 * built-in chosen by --cfg=smpi/<coll>:<name>), "auto" is colibri's choice.
 * Sizes are, for the reductions, the whole vector n in bytes (each rank's
 * input), for alltoall(v) the bytes of one block (what a rank sends each
 * peer; alltoallv: the nominal block that -D varies), from -m to -M,
 * multiplied by -s (2) each time.  Alltoall(v) move MPI_BYTE (-t is for the
 * reductions).
 *
 * For every size and algorithm: a first call whose result is checked,
 * warm-up, a barrier, then the timed loop.  The reported time is the largest
 * over ranks of the mean time per call; with -R, the fastest of that many
 * timed loops (for machines shared with other work).  The first call is
 * never timed: it pays one-off setup (colibri's per-communicator state,
 * SMPI's node-aware communicators).  Under SMPI without simulated
 * computation the clock is deterministic, so "-i 1 -w 0" is enough there.
 * Rooted reduce, alltoall(v) (and
 * everything with -B) are timed call by call with a barrier before each,
 * because back-to-back calls can pipeline across calls and report less
 * than one call costs.
 *
 * The first call's result is checked on every rank against a closed-form
 * serial reference; a wrong result aborts the run, since timing a wrong
 * answer is worthless.  Timing never judges anything here.
 *
 * What differs between collectives (buffers, the call, the check, the
 * bound) sits behind `struct coll_kind`: one for the reductions, one for
 * the exchanges; the driver below it is shared.
 *
 * Everything the harness needs for itself goes through PMPI_*, so that it
 * neither measures nor depends on the code under test, even when colibri
 * also replaces MPI_* in this process.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "colibri.h"

#define MAX_ALGS 64

enum dist { DIST_UNIFORM, DIST_SKEWED, DIST_RANDOM };
static const char *const dist_names[] = {"uniform", "skewed", "random"};

/* The collectives it measures (not yet allgather(v), bcast, barrier). */
#define BENCHED_COLLS (COLIBRI_ALLTOALLV + 1)
static const char *const coll_names[BENCHED_COLLS] = {
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
    enum dist dist; /* alltoallv block sizes */
    int have_bound;
    double alpha, beta, gamma;
    const char *native_label;
    const char *csv;
    int quiet;
};

static int rank, size;

static int is_exchange(colibri_coll c) { return c == COLIBRI_ALLTOALL || c == COLIBRI_ALLTOALLV; }

static const char USAGE[] =
    "usage: colibri-bench [-c allreduce|reduce|reduce_scatter_block|reduce_scatter|\n"
    "                         alltoall|alltoallv]\n"
    "         [-a all|name,name,...] [-m min_bytes] [-M max_bytes] [-s step]\n"
    "         [-i iterations]\n"
    "         [-w warmup] [-R repetitions (fastest reported)]\n"
    "         [-t double|float|int|int64] [-D uniform|skewed|random] [-r root] [-B]\n"
    "         [-L alpha,beta,gamma] [-N native_label] [-o file.csv] [-q]\n"
    "  names: native, auto, or colibri algorithms (colibri-info lists them)\n"
    "  sizes accept K, M, G suffixes (powers of 1024); alltoall(v): bytes per block\n"
    "  -D (alltoallv): uniform = every block the size; skewed = rank 0's blocks\n"
    "     100x larger; random = 0..2x the size, fixed seed\n";

/* The common flags (bench_common.h) as parsed, for usage messages. */
static struct bench_opts common;

static void usage_exit(const char *msg) { bench_usage_exit(&common, msg); }

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

static const struct type types[] = {{"double", MPI_DOUBLE, 8},
                                    {"float", MPI_FLOAT, 4},
                                    {"int", MPI_INT, 4},
                                    {"int64", MPI_INT64_T, 8}};

struct parse_state {
    struct options *o;
    char *alg_list;
};

/* colibri-bench's own flags (the common ones are bench_parse's). */
static int own_option(int c, const char *arg, void *ctx)
{
    struct parse_state *st = ctx;
    struct options *o = st->o;
    switch (c) {
    case 'a': st->alg_list = (char *)arg; return 1;
    case 't':
        for (size_t i = 0; i < sizeof types / sizeof *types; i++)
            if (strcmp(arg, types[i].name) == 0) {
                o->type = types[i];
                return 1;
            }
        usage_exit("unknown type");
        return 0;
    case 'D':
        for (int i = 0; i < (int)(sizeof dist_names / sizeof *dist_names); i++)
            if (strcmp(arg, dist_names[i]) == 0) {
                o->dist = (enum dist)i;
                return 1;
            }
        usage_exit("unknown distribution");
        return 0;
    case 'r': {
        char *end;
        long v = strtol(arg, &end, 10);
        if (end == arg || *end || v < 0 || v > INT_MAX) {
            char msg[128];
            snprintf(msg, sizeof msg, "bad root '%s'", arg);
            usage_exit(msg);
        }
        o->root = (int)v;
        return 1;
    }
    case 'B': o->barrier_each = 1; return 1;
    case 'L':
        if (sscanf(arg, "%lf,%lf,%lf", &o->alpha, &o->beta, &o->gamma) != 3)
            usage_exit("-L wants alpha,beta,gamma (s, s/byte, s/byte)");
        o->have_bound = 1;
        return 1;
    case 'N': o->native_label = arg; return 1;
    case 'q': o->quiet = 1; return 1;
    default: return -1;
    }
}

static void parse_options(int argc, char **argv, struct options *o)
{
    memset(o, 0, sizeof *o);
    o->coll = COLIBRI_ALLREDUCE;
    o->type = types[0];
    o->native_label = "native";
    bench_opts_init(&common, "colibri-bench", USAGE);
    common.min_bytes = 8;
    common.max_bytes = 64 << 20;
    common.step = 2;
    struct parse_state st = {o, NULL};
    if (bench_parse(argc, argv, "c:a:m:M:s:i:w:R:t:D:r:BL:N:o:qh", &common, own_option, &st) <
        argc)
        usage_exit("unexpected argument");
    if (common.coll) {
        int found = 0;
        for (int i = 0; i < BENCHED_COLLS; i++)
            if (strcmp(common.coll, coll_names[i]) == 0) {
                o->coll = (colibri_coll)i;
                found = 1;
            }
        if (!found)
            usage_exit("unknown collective");
    }
    if (common.iters == 0)
        usage_exit("need at least one iteration");
    o->min_bytes = common.min_bytes;
    o->max_bytes = common.max_bytes;
    o->step = common.step > INT_MAX ? INT_MAX : (int)common.step;
    o->iters = common.iters;
    o->warmup = common.warmup;
    o->reps = common.reps;
    o->csv = common.csv;
    if (o->root >= size)
        usage_exit("root out of range");
    if (o->min_bytes < 1 || o->max_bytes < o->min_bytes)
        usage_exit("need 1 <= min bytes <= max bytes");
    if (o->step < 2)
        usage_exit("the size step must be at least 2");
    if (o->coll == COLIBRI_REDUCE || is_exchange(o->coll))
        o->barrier_each = 1;
    char def[] = "all";
    parse_algs(o, st.alg_list ? st.alg_list : def);
}

static void max_over_ranks(double *v, int n) { bench_max_over_ranks(v, n, MPI_COMM_WORLD); }

/* ---- per-collective parts ----
 * One size of one collective: its buffers and, for the exchanges, this
 * rank's per-peer byte counts and offsets.  Built by setup, freed by
 * free_bufs; fill, call and check read it. */
struct bufs {
    int64_t n;           /* reductions: elements; exchanges: nominal block bytes */
    int64_t nbytes;      /* the size reported */
    size_t send_bytes, recv_bytes;
    void *send, *recv;
    MPI_Count *counts;   /* reduce_scatter(_block): every rank's output count */
    MPI_Count *scounts, *rcounts; /* alltoallv: this rank's, per peer */
    MPI_Aint *sdispls, *rdispls;
    int64_t peer_bytes;  /* exchanges: most bytes any rank sends or receives to/from others */
};

struct coll_kind {
    /* 0 when there is nothing to run at this size */
    int (*setup)(const struct options *o, int64_t req, struct bufs *b);
    void (*fill)(const struct options *o, struct bufs *b);
    int (*call)(const struct options *o, const char *alg, struct bufs *b);
    /* aborts the run on a wrong result */
    void (*check)(const struct options *o, const char *alg, const struct bufs *b);
    int (*dry_run)(const struct options *o, const char *alg, const struct bufs *b,
                   colibri_cost *cost);
    double (*bound_usec)(const struct options *o, const struct bufs *b);
    void (*print_bound)(const struct options *o); /* the header line that defines it */
};

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "colibri-bench: rank %d: out of memory (%zu bytes)\n", rank, n);
        PMPI_Abort(MPI_COMM_WORLD, 3);
    }
    return p;
}

static int ceil_log2(int p)
{
    int k = 0;
    while ((1 << k) < p)
        k++;
    return k;
}

/* ---- reductions: data and its closed-form reference ----
 * Rank r contributes x_r[i] = r + (i mod 17): every partial sum is an integer
 * below 2^24 for p <= 4096, so float and double sums are exact in any order,
 * and sum_r x_r[i] = p(p-1)/2 + p (i mod 17).  A lost or doubled contribution,
 * or a block put in the wrong place, changes the result. */
static double input_value(int r, int64_t i) { return (double)r + (double)(i % 17); }

static double expected_value(int64_t i)
{
    return (double)size * (size - 1) / 2 + (double)size * (double)(i % 17);
}

static void reduction_fill(const struct options *o, struct bufs *b)
{
    const struct type *t = &o->type;
    for (int64_t i = 0; i < b->n; i++) {
        double v = input_value(rank, i);
        if (t->dt == MPI_DOUBLE)
            ((double *)b->send)[i] = v;
        else if (t->dt == MPI_FLOAT)
            ((float *)b->send)[i] = (float)v;
        else if (t->dt == MPI_INT)
            ((int *)b->send)[i] = (int)v;
        else
            ((int64_t *)b->send)[i] = (int64_t)v;
    }
    memset(b->recv, 0xff, b->recv_bytes);
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

/* Per-rank output counts of reduce_scatter(_block). */
static int reduction_setup(const struct options *o, int64_t req, struct bufs *b)
{
    int64_t n = req / o->type.size;
    if (o->coll == COLIBRI_REDUCE_SCATTER_BLOCK)
        n -= n % size; /* whole blocks only: the size reported is what ran */
    if (n == 0)
        return 0;
    b->n = n;
    b->nbytes = n * o->type.size;
    b->send_bytes = b->recv_bytes = (size_t)b->nbytes;
    b->send = xmalloc(b->send_bytes);
    b->recv = xmalloc(b->recv_bytes);
    if (o->coll == COLIBRI_REDUCE_SCATTER || o->coll == COLIBRI_REDUCE_SCATTER_BLOCK) {
        b->counts = xmalloc((size_t)size * sizeof *b->counts);
        for (int r = 0; r < size; r++)
            b->counts[r] = o->coll == COLIBRI_REDUCE_SCATTER_BLOCK ? n / size
                                                                   : n / size + (r < n % size);
    }
    return 1;
}

/* A wrong result ends the run at once from the rank that saw it: nothing
 * collective is trusted after that. */
static void reduction_check(const struct options *o, const char *alg, const struct bufs *b)
{
    /* The elements of the global vector that this rank's result holds. */
    int64_t first = 0, len = b->n;
    if (o->coll == COLIBRI_REDUCE && rank != o->root)
        len = 0;
    else if (b->counts) {
        for (int r = 0; r < rank; r++)
            first += b->counts[r];
        len = b->counts[rank];
    }
    for (int64_t j = 0; j < len; j++) {
        double got = element(&o->type, b->recv, j), want = expected_value(first + j);
        if (got != want) {
            fprintf(stderr,
                    "colibri-bench: WRONG RESULT: %s %s p=%d n=%lld bytes rank %d element %lld: "
                    "got %.17g, expected %.17g; aborting\n",
                    coll_names[o->coll], strcmp(alg, "native") == 0 ? o->native_label : alg,
                    size, (long long)b->nbytes, rank, (long long)(first + j), got, want);
            PMPI_Abort(MPI_COMM_WORLD, 4);
        }
    }
}

static int reduction_call(const struct options *o, const char *alg, struct bufs *b)
{
    switch (o->coll) {
    case COLIBRI_ALLREDUCE:
        return colibri_allreduce(b->send, b->recv, b->n, o->type.dt, MPI_SUM, MPI_COMM_WORLD,
                                 alg);
    case COLIBRI_REDUCE:
        return colibri_reduce(b->send, b->recv, b->n, o->type.dt, MPI_SUM, o->root,
                              MPI_COMM_WORLD, alg);
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        return colibri_reduce_scatter_block(b->send, b->recv, b->counts[0], o->type.dt, MPI_SUM,
                                            MPI_COMM_WORLD, alg);
    default:
        return colibri_reduce_scatter(b->send, b->recv, b->counts, o->type.dt, MPI_SUM,
                                      MPI_COMM_WORLD, alg);
    }
}

static int reduction_dry_run(const struct options *o, const char *alg, const struct bufs *b,
                             colibri_cost *cost)
{
    MPI_Count count = o->coll == COLIBRI_REDUCE_SCATTER_BLOCK ? b->counts[0] : b->n;
    return colibri_dry_run(o->coll, alg, 0, size, o->root, count, b->counts, o->type.size, 1, 0,
                           cost);
}

/* The reachable form of the lower bound, in microseconds: the latency,
 * bandwidth and reduction terms added (each alone is a strict lower bound;
 * their maximum is the strict bound).  Allreduce moves 2(p-1)/p n per rank,
 * reduce and reduce-scatter (p-1)/p n. */
static double reduction_bound_usec(const struct options *o, const struct bufs *b)
{
    double f = (double)(size - 1) / size * (double)b->nbytes;
    double words = o->coll == COLIBRI_ALLREDUCE ? 2 * f : f;
    return 1e6 * (ceil_log2(size) * o->alpha + words * o->beta + f * o->gamma);
}

static void reduction_print_bound(const struct options *o)
{
    printf("# bound: ceil(lg p) a + %s(p-1)/p n b + (p-1)/p n g, a=%g s b=%g s/B g=%g s/B\n",
           o->coll == COLIBRI_ALLREDUCE ? "2" : "", o->alpha, o->beta, o->gamma);
}

static const struct coll_kind reduction = {reduction_setup, reduction_fill, reduction_call,
                                           reduction_check, reduction_dry_run,
                                           reduction_bound_usec, reduction_print_bound};

/* ---- exchanges (alltoall, alltoallv) ----
 * Byte j of the block rank s sends rank d is a hash of (s, d, j): a block
 * from the wrong sender, for the wrong receiver, shifted, truncated or not
 * written at all shows up in the receiver's check of its own bytes. */
static uint32_t mix(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x7feb352dU;
    h ^= h >> 15;
    h *= 0x846ca68bU;
    return h ^ (h >> 16);
}

static unsigned char payload(int s, int d, int64_t j)
{
    return (unsigned char)mix((uint32_t)s * 0x9e3779b1U ^ mix((uint32_t)d + 0x632be5abU) ^
                              (uint32_t)j * 0x85ebca77U ^ (uint32_t)(j >> 32));
}

/* Bytes rank s sends rank d in alltoallv, nominal size c.  A pure function
 * of (s, d), so that sender and receiver agree without communicating. */
static MPI_Count block_bytes(const struct options *o, int s, int d, int64_t c)
{
    switch (o->dist) {
    case DIST_SKEWED: return s == 0 ? 100 * c : c;
    case DIST_RANDOM: return (MPI_Count)(mix(mix((uint32_t)s ^ 0x2545f491U) + (uint32_t)d) %
                                         (uint32_t)(2 * c + 1));
    default: return c;
    }
}

static int exchange_setup(const struct options *o, int64_t req, struct bufs *b)
{
    b->n = b->nbytes = req;
    int64_t sent = 0, recvd = 0; /* to and from the others */
    if (o->coll == COLIBRI_ALLTOALL) {
        b->send_bytes = b->recv_bytes = (size_t)req * (size_t)size;
        sent = recvd = req * (size - 1);
    } else {
        b->scounts = xmalloc((size_t)size * sizeof *b->scounts);
        b->rcounts = xmalloc((size_t)size * sizeof *b->rcounts);
        b->sdispls = xmalloc((size_t)size * sizeof *b->sdispls);
        b->rdispls = xmalloc((size_t)size * sizeof *b->rdispls);
        size_t soff = 0, roff = 0;
        for (int r = 0; r < size; r++) {
            b->scounts[r] = block_bytes(o, rank, r, req);
            b->rcounts[r] = block_bytes(o, r, rank, req);
            b->sdispls[r] = (MPI_Aint)soff;
            b->rdispls[r] = (MPI_Aint)roff;
            soff += (size_t)b->scounts[r];
            roff += (size_t)b->rcounts[r];
            if (r != rank) {
                sent += b->scounts[r];
                recvd += b->rcounts[r];
            }
        }
        b->send_bytes = soff;
        b->recv_bytes = roff;
    }
    b->send = xmalloc(b->send_bytes);
    b->recv = xmalloc(b->recv_bytes);
    double most = (double)(sent > recvd ? sent : recvd);
    max_over_ranks(&most, 1);
    b->peer_bytes = (int64_t)most;
    return 1;
}

static void exchange_block(const struct bufs *b, int peer, int send, int64_t *off, int64_t *len)
{
    if (!b->scounts) {
        *off = peer * b->n;
        *len = b->n;
    } else {
        *off = send ? b->sdispls[peer] : b->rdispls[peer];
        *len = send ? b->scounts[peer] : b->rcounts[peer];
    }
}

static void exchange_fill(const struct options *o, struct bufs *b)
{
    (void)o;
    unsigned char *s = b->send;
    for (int d = 0; d < size; d++) {
        int64_t off, len;
        exchange_block(b, d, 1, &off, &len);
        for (int64_t j = 0; j < len; j++)
            s[off + j] = payload(rank, d, j);
    }
    memset(b->recv, 0xff, b->recv_bytes);
}

static void exchange_check(const struct options *o, const char *alg, const struct bufs *b)
{
    const unsigned char *r = b->recv;
    for (int s = 0; s < size; s++) {
        int64_t off, len;
        exchange_block(b, s, 0, &off, &len);
        for (int64_t j = 0; j < len; j++) {
            unsigned char want = payload(s, rank, j);
            if (r[off + j] != want) {
                fprintf(stderr,
                        "colibri-bench: WRONG RESULT: %s %s p=%d block %lld bytes: rank %d, "
                        "byte %lld of the block from rank %d: got 0x%02x, expected 0x%02x; "
                        "aborting\n",
                        coll_names[o->coll],
                        strcmp(alg, "native") == 0 ? o->native_label : alg, size,
                        (long long)b->nbytes, rank, (long long)j, s, r[off + j], want);
                PMPI_Abort(MPI_COMM_WORLD, 4);
            }
        }
    }
}

static int exchange_call(const struct options *o, const char *alg, struct bufs *b)
{
    if (o->coll == COLIBRI_ALLTOALL)
        return colibri_alltoall(b->send, b->n, MPI_BYTE, b->recv, b->n, MPI_BYTE,
                                MPI_COMM_WORLD, alg);
    return colibri_alltoallv(b->send, b->scounts, b->sdispls, MPI_BYTE, b->recv, b->rcounts,
                             b->rdispls, MPI_BYTE, MPI_COMM_WORLD, alg);
}

/* The dry run of alltoallv assumes a rank receives what it sends; rank 0's
 * send counts are enough to tell whether the algorithm applies. */
static int exchange_dry_run(const struct options *o, const char *alg, const struct bufs *b,
                            colibri_cost *cost)
{
    return colibri_dry_run(o->coll, alg, 0, size, 0, b->n, b->scounts, 1, 1, 0, cost);
}

/* The strict lower bound, in microseconds: a rank's data must reach
 * ceil(lg p) hops away in the single-port model, and the busiest rank must
 * push (or take in) all its bytes for the others through one link:
 * (p-1) c for alltoall with c-byte blocks. */
static double exchange_bound_usec(const struct options *o, const struct bufs *b)
{
    double lat = ceil_log2(size) * o->alpha, bw = (double)b->peer_bytes * o->beta;
    return 1e6 * (lat > bw ? lat : bw);
}

static void exchange_print_bound(const struct options *o)
{
    printf("# bound: max(ceil(lg p) a, B b), B = most bytes a rank sends or receives to/from "
           "the others (alltoall: (p-1) c), a=%g s b=%g s/B\n", o->alpha, o->beta);
}

static const struct coll_kind exchange = {exchange_setup, exchange_fill, exchange_call,
                                          exchange_check, exchange_dry_run,
                                          exchange_bound_usec, exchange_print_bound};

static void free_bufs(struct bufs *b)
{
    free(b->send);
    free(b->recv);
    free(b->counts);
    free(b->scounts);
    free(b->rcounts);
    free(b->sdispls);
    free(b->rdispls);
    memset(b, 0, sizeof *b);
}

/* OSU-like scaling: many calls for short buffers, few for long ones
 * (nbytes: what one rank sends per call). */
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

/* The restrictions of colibri's `alg` for `coll`; NULL when it has none
 * such. */
static const char *catalog_restrictions(colibri_coll coll, const char *alg)
{
    for (int i = 0; i < colibri_catalog_size(); i++) {
        colibri_algorithm_info info;
        colibri_catalog_get(i, &info);
        if (info.coll == coll && strcmp(info.name, alg) == 0)
            return info.restrictions;
    }
    return NULL;
}

/* Whether colibri can run `alg` here; checked on rank 0 by a dry run so that
 * an unusable algorithm is skipped with one note instead of a flood of
 * errors.  Where the dry run cannot tell -- schedules that depend on the
 * peers' counts, node-aware algorithms (a dry run has no node layout) --
 * the algorithm tries; the checked first call still catches anything the
 * dry run cannot see. */
static int available(const struct options *o, const struct coll_kind *k, const char *alg,
                     const struct bufs *b, int *noted)
{
    if (strcmp(alg, "native") == 0 || strcmp(alg, "auto") == 0)
        return 1;
    int ok = 0;
    if (rank == 0) {
        const char *restr = catalog_restrictions(o->coll, alg);
        colibri_cost cost;
        int rc = restr && strstr(restr, "node-aware") ? MPI_SUCCESS : k->dry_run(o, alg, b, &cost);
        ok = restr && (rc == MPI_SUCCESS || rc == MPI_ERR_UNSUPPORTED_OPERATION);
        if (!ok && !*noted) {
            if (!restr)
                fprintf(stderr, "colibri-bench: '%s' is no %s algorithm of this colibri: "
                                "skipped\n", alg, coll_names[o->coll]);
            else
                fprintf(stderr, "colibri-bench: %s '%s' does not apply at p=%d, %lld bytes: "
                                "skipped where it does not\n",
                        coll_names[o->coll], alg, size, (long long)b->nbytes);
            *noted = 1;
        }
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok;
}

/* Set when all ranks read one clock (MPI_WTIME_IS_GLOBAL, as under SMPI). */
static int global_clock;

struct timed_call {
    const struct options *o;
    const struct coll_kind *k;
    const char *alg;
    struct bufs *b;
};

static int one_call(void *ctx, int i)
{
    (void)i;
    struct timed_call *c = ctx;
    return c->k->call(c->o, c->alg, c->b);
}

/* The fastest of -R measurements of `iters` timed calls (bench_time: a
 * stretch from the last rank's start to the last rank's end, or without a
 * global clock OSU-style the largest of the ranks' own durations, which also
 * charges the barrier's exit skew to the collective), in us per call;
 * negative when a call failed. */
static double measure(const struct options *o, const struct coll_kind *k, const char *alg,
                      struct bufs *b, int iters, int warmup)
{
    struct timed_call c = {o, k, alg, b};
    const struct bench_loop l = {one_call, &c, MPI_COMM_WORLD, iters, warmup, o->barrier_each,
                                 global_clock};
    const double t = bench_best_of(&l, o->reps);
    return t < 0 ? t : t * 1e6;
}

/* ---- output ---- */

struct row {
    double usec[MAX_ALGS];
    const char *ran; /* what "auto" picked */
};

static void print_header(const struct options *o, const struct coll_kind *k)
{
    if (o->coll == COLIBRI_ALLTOALLV)
        printf("# colibri-bench alltoallv, %d processes, MPI_BYTE, %s block sizes (bytes = the "
               "nominal block)%s\n", size, dist_names[o->dist],
               o->barrier_each ? ", barrier before every call" : "");
    else if (o->coll == COLIBRI_ALLTOALL)
        printf("# colibri-bench alltoall, %d processes, MPI_BYTE, bytes = one block%s\n", size,
               o->barrier_each ? ", barrier before every call" : "");
    else
        printf("# colibri-bench %s, %d processes, type %s, op sum%s\n", coll_names[o->coll],
               size, o->type.name, o->barrier_each ? ", barrier before every call" : "");
    if (o->have_bound)
        k->print_bound(o);
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

static void print_row(const struct options *o, const struct coll_kind *k, const struct bufs *b,
                      const struct row *r)
{
    printf("%12lld", (long long)b->nbytes);
    for (int a = 0; a < o->nalgs; a++) {
        int w = (int)(strlen(o->algs[a]) > 11 ? strlen(o->algs[a]) : 11);
        if (r->usec[a] < 0)
            printf(" %*s", w, "-");
        else
            printf(" %*.2f", w, r->usec[a]);
    }
    if (o->have_bound)
        printf(" %11.2f", k->bound_usec(o, b));
    printf("  %s\n", r->ran ? r->ran : "");
    fflush(stdout);
}

/* alltoallv rows name their distribution with the collective
 * ("alltoallv:skewed"): the same nominal size means different data. */
static void csv_row(FILE *f, const struct options *o, const struct coll_kind *k,
                    const struct bufs *b, const char *alg, double usec, const char *ran)
{
    fprintf(f, "%s%s%s,%s,%d,%lld,%.3f,", coll_names[o->coll],
            o->coll == COLIBRI_ALLTOALLV ? ":" : "",
            o->coll == COLIBRI_ALLTOALLV ? dist_names[o->dist] : "",
            strcmp(alg, "native") == 0 ? o->native_label : alg, size, (long long)b->nbytes, usec);
    if (o->have_bound)
        fprintf(f, "%.3f", k->bound_usec(o, b));
    fprintf(f, ",%s\n", ran ? ran : alg);
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
    global_clock = bench_global_clock(MPI_COMM_WORLD);

    struct options o;
    parse_options(argc, argv, &o);

    FILE *csv = bench_csv_open(o.csv, "coll,alg,p,bytes,usec,bound_usec,ran");
    const struct coll_kind *k = is_exchange(o.coll) ? &exchange : &reduction;
    int failed[MAX_ALGS] = {0}, noted[MAX_ALGS] = {0};
    if (rank == 0 && !o.quiet)
        print_header(&o, k);

    for (int64_t req = o.min_bytes; req <= o.max_bytes; req *= o.step) {
        struct bufs b = {0};
        if (!k->setup(&o, req, &b))
            continue;
        int iters = iterations_for(&o, (int64_t)b.send_bytes), warmup = warmup_for(&o, iters);
        struct row row;
        row.ran = NULL;
        for (int a = 0; a < o.nalgs; a++) {
            const char *alg = o.algs[a];
            row.usec[a] = -1;
            if (failed[a] || !available(&o, k, alg, &b, &noted[a]))
                continue;
            k->fill(&o, &b);
            double call_failed = k->call(&o, alg, &b) != MPI_SUCCESS;
            max_over_ranks(&call_failed, 1);
            if (call_failed != 0) {
                if (rank == 0)
                    fprintf(stderr, "colibri-bench: %s '%s' failed at %lld bytes; skipped from "
                                    "here on\n", coll_names[o.coll], alg, (long long)b.nbytes);
                failed[a] = 1;
                continue;
            }
            k->check(&o, alg, &b);
            const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, o.coll);
            if (strcmp(alg, "auto") == 0)
                row.ran = ran;
            row.usec[a] = measure(&o, k, alg, &b, iters, warmup);
            if (row.usec[a] < 0) {
                if (rank == 0)
                    fprintf(stderr, "colibri-bench: %s '%s' failed while timed at %lld bytes\n",
                            coll_names[o.coll], alg, (long long)b.nbytes);
                failed[a] = 1;
                continue;
            }
            if (csv)
                csv_row(csv, &o, k, &b, alg, row.usec[a], ran);
        }
        if (rank == 0 && !o.quiet)
            print_row(&o, k, &b, &row);
        if (csv)
            fflush(csv);
        free_bufs(&b);
        if (req > INT64_MAX / o.step)
            break;
    }
    bench_csv_close(csv);
    PMPI_Finalize();
    return 0;
}
