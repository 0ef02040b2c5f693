/*
 * Large counts in the schedule arithmetic: every reduction, all-to-all,
 * allgather, bcast, barrier, gather and scatter algorithm of the catalog (the neutral-element ones excepted: their
 * restriction caps them at SCHED_CHUNK bytes, and selection never gives
 * them more), built for vectors above 2^31 elements and, for alltoall(v),
 * blocks above 2^31 bytes, at p = 2, 3, 7, 64, 1000, 1024, dry-run, no MPI.
 *
 * For each built schedule (schedule.h: 64-bit offsets and counts; the
 * executor splits a message longer than SCHED_CHUNK into pieces of at most
 * INT_MAX elements) it checks:
 *   - no op has a negative offset or count, and every op's [off, off+count)
 *     lies within its buffer: the call's send and receive buffers at their
 *     MPI sizes (reduce: the receive buffer at the root only), the scratch
 *     the schedule declares (tmp_count);
 *   - the output the collective defines is written in full (non-in-place
 *     calls): allreduce and the reduce root [0, n), reduce_scatter
 *     [0, counts[rank]), alltoall every block, alltoallv every block at its
 *     displacement;
 *   - the dry run (sched_cost) and max_round_msgs agree with the ops, and a
 *     message's chunk count is ceil(count / SCHED_CHUNK);
 *   - the bytes sent from i to j equal the bytes j receives from i, and
 *     the message counts agree (every rank built up to p = 8, ranks 0,
 *     p/2 and p-1 beyond, compared among themselves);
 *   - per algorithm where the amount is known exactly: recursive doubling
 *     sends the whole vector in every message; the direct all-to-alls
 *     (pairwise, scattered, linear) send and receive exactly the blocks of
 *     the other ranks; Bruck's bytes are its pattern's (patterns/radix.h);
 *   - the cost model gives a finite, positive time no smaller than a lower
 *     bound of the collective, and auto selection picks an algorithm.
 * Dynamic schedules (sloav) are checked on the rounds they build before
 * data arrives; sloavx needs a node layout and shared memory, and is
 * covered by its own tests at ordinary sizes.
 *
 * Usage: test_large_counts [p...]   (default: 2 3 7 64 1000 1024)
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/check.h"

#include "coll/algorithm.h"
#include "patterns/radix.h"
#include "sched/schedule.h"
#include "select/catalog.h"

#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (check_count(cond))                                                                    \
            check_at(__FILE__, __LINE__, __VA_ARGS__);                                            \
    } while (0)

static const int64_t BIG = (int64_t)INT_MAX + 6;             /* 2^31 + 5 */
static const int64_t HUGE_N = (int64_t)UINT32_MAX + 4;       /* 2^32 + 3 */

/* ---- one rank's schedule against its buffers ---- */

struct bufs {
    int64_t size[BUF_NBUFS]; /* in the schedule's units; -1: must not be used */
};

struct interval {
    int64_t lo, hi;
};

static int cmp_interval(const void *a, const void *b)
{
    const struct interval *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Whether the intervals (sorted here) cover every [need[k].lo, need[k].hi). */
static bool covers(struct interval *w, size_t nw, const struct interval *need, size_t nneed)
{
    qsort(w, nw, sizeof *w, cmp_interval);
    for (size_t k = 0; k < nneed; k++) {
        int64_t at = need[k].lo;
        for (size_t i = 0; i < nw && at < need[k].hi; i++)
            if (w[i].lo <= at && w[i].hi > at)
                at = w[i].hi;
        if (at < need[k].hi)
            return false;
    }
    return true;
}

/* Per p: bytes and messages from rank i to rank j, as sent and as received. */
struct traffic {
    int p;
    int64_t *sent, *recvd, *nsent, *nrecvd;
};

static const char *where;   /* the case, for failure lines */
static uint32_t most_ops;   /* the largest schedule built for this algorithm */

/* Checks the schedule's ops against b, the dry run against the ops, the
 * output coverage (need: the intervals of BUF_RECV that must be written,
 * NULL to skip), and adds the messages to t (NULL to skip).  Returns the
 * bytes this rank sends. */
static int64_t check_schedule(const struct schedule *s, int rank, size_t esize, struct bufs b,
                              const struct interval *need, size_t nneed, struct traffic *t)
{
    if (s->n_ops > most_ops)
        most_ops = s->n_ops;
    b.size[BUF_TMP] = s->tmp_count[0];
    b.size[BUF_TMP2] = s->tmp_count[1];
    CHECK(s->tmp_count[0] >= 0 && s->tmp_count[1] >= 0, "%s rank %d: scratch %lld, %lld", where,
          rank, (long long)s->tmp_count[0], (long long)s->tmp_count[1]);
    CHECK(!s->oom, "%s rank %d: out of memory while building", where, rank);

    struct interval *w = malloc(((size_t)s->n_ops + 1) * sizeof *w);
    size_t nw = 0;
    int64_t bytes_sent = 0, bytes_recvd = 0, msgs_sent = 0, msgs_recvd = 0, most_msgs = 0;
    long long bad = 0;
    char first_bad[256] = "";
    for (uint32_t r = 0; r < s->n_rounds; r++) {
        int64_t round_msgs = 0;
        for (uint32_t k = s->rounds[r].first_op; k < s->rounds[r].first_op + s->rounds[r].n_ops;
             k++) {
            const struct sched_op *op = &s->ops[k];
            const bool in_bytes = op->flags & SOP_BYTES;
            const int64_t unit = in_bytes ? 1 : (int64_t)esize;
            /* Offsets in the op's unit: elements, or bytes for SOP_BYTES. */
            int64_t lim_src = -1, lim_dst = -1;
            bool uses_src = op->kind != SOP_RECV, uses_dst = op->kind != SOP_SEND;
            if (uses_src)
                lim_src = b.size[op->src_buf] < 0 ? -1
                          : in_bytes ? b.size[op->src_buf] * (int64_t)esize
                                     : b.size[op->src_buf];
            if (uses_dst)
                lim_dst = b.size[op->dst_buf] < 0 ? -1
                          : in_bytes ? b.size[op->dst_buf] * (int64_t)esize
                                     : b.size[op->dst_buf];
            bool ok = op->count >= 0 && op->src_off >= 0 && op->dst_off >= 0 &&
                      op->src_buf < BUF_NBUFS && op->dst_buf < BUF_NBUFS;
            if (ok && uses_src)
                ok = lim_src >= 0 && op->count <= lim_src && op->src_off <= lim_src - op->count;
            if (ok && uses_dst)
                ok = lim_dst >= 0 && op->count <= lim_dst && op->dst_off <= lim_dst - op->count;
            if (ok && (op->kind == SOP_SEND || op->kind == SOP_RECV))
                ok = op->peer >= 0 && op->peer < (t ? t->p : INT_MAX) && op->peer != rank;
            if (!ok && bad++ == 0)
                snprintf(first_bad, sizeof first_bad,
                         "round %u: op kind %d peer %d src %d+%lld dst %d+%lld count %lld "
                         "(src size %lld, dst size %lld)",
                         r, op->kind, op->peer, op->src_buf, (long long)op->src_off, op->dst_buf,
                         (long long)op->dst_off, (long long)op->count, (long long)lim_src,
                         (long long)lim_dst);
            if (op->kind == SOP_SEND || op->kind == SOP_RECV) {
                int64_t chunks = op->count > 0 ? (op->count + SCHED_CHUNK - 1) / SCHED_CHUNK : 1;
                round_msgs += chunks;
                int64_t nbytes = op->count * unit;
                if (op->kind == SOP_SEND) {
                    bytes_sent += nbytes;
                    msgs_sent++;
                    if (t && op->peer >= 0 && op->peer < t->p) {
                        t->sent[(int64_t)rank * t->p + op->peer] += nbytes;
                        t->nsent[(int64_t)rank * t->p + op->peer]++;
                    }
                } else {
                    bytes_recvd += nbytes;
                    msgs_recvd++;
                    if (t && op->peer >= 0 && op->peer < t->p) {
                        t->recvd[(int64_t)op->peer * t->p + rank] += nbytes;
                        t->nrecvd[(int64_t)op->peer * t->p + rank]++;
                    }
                }
            }
            if (uses_dst && op->dst_buf == BUF_RECV && !in_bytes)
                w[nw++] = (struct interval){op->dst_off, op->dst_off + op->count};
        }
        if (round_msgs > most_msgs)
            most_msgs = round_msgs;
    }
    CHECK(bad == 0, "%s rank %d: %lld ops outside their buffers or with a bad peer, first %s",
          where, rank, bad, first_bad);
    struct sched_cost c;
    sched_cost(s, esize, &c);
    CHECK(c.bytes_sent == bytes_sent && c.bytes_recvd == bytes_recvd && c.msgs_sent == msgs_sent &&
              c.msgs_recvd == msgs_recvd && c.bytes_sent >= 0 && c.elems_reduced >= 0 &&
              c.elems_copied >= 0,
          "%s rank %d: dry run says %lld/%lld bytes, %lld/%lld msgs sent/received; the ops %lld/%lld, "
          "%lld/%lld",
          where, rank, (long long)c.bytes_sent, (long long)c.bytes_recvd, (long long)c.msgs_sent,
          (long long)c.msgs_recvd, (long long)bytes_sent, (long long)bytes_recvd,
          (long long)msgs_sent, (long long)msgs_recvd);
    CHECK(s->max_round_msgs >= most_msgs,
          "%s rank %d: max_round_msgs %lld, a round posts %lld requests after chunking", where, rank,
          (long long)s->max_round_msgs, (long long)most_msgs);
    if (need)
        CHECK(covers(w, nw, need, nneed), "%s rank %d: the output is not written in full", where,
              rank);
    free(w);
    return bytes_sent;
}

/* The ranks built at p: all of them up to p = 8 (the traffic matrices are
 * then complete); beyond, rank 0, the middle one and p-1 (segmented and
 * pipelined schedules of 2^31 elements hold tens of thousands of ops per
 * rank), their traffic compared between themselves only. */
static int n_ranks_built(int p) { return p <= 8 ? p : 3; }
static int rank_built(int p, int i) { return p <= 8 ? i : i == 0 ? 0 : i == 1 ? p / 2 : p - 1; }
static bool is_built(int p, int r) { return p <= 8 || r == 0 || r == p / 2 || r == p - 1; }

static void traffic_init(struct traffic *t, int p)
{
    size_t n = (size_t)p * (size_t)p;
    t->p = p;
    t->sent = calloc(n, sizeof *t->sent);
    t->recvd = calloc(n, sizeof *t->recvd);
    t->nsent = calloc(n, sizeof *t->nsent);
    t->nrecvd = calloc(n, sizeof *t->nrecvd);
}

static void traffic_check(struct traffic *t)
{
    int p = t->p;
    int64_t bad = -1;
    for (int64_t k = 0; k < (int64_t)p * p && bad < 0; k++)
        if (is_built(p, (int)(k / p)) && is_built(p, (int)(k % p)) &&
            (t->sent[k] != t->recvd[k] || t->nsent[k] != t->nrecvd[k] || t->sent[k] < 0))
            bad = k;
    CHECK(bad < 0, "%s: rank %lld sends rank %lld %lld bytes in %lld messages; it receives %lld in %lld",
          where, (long long)(bad / p), (long long)(bad % p), (long long)(bad >= 0 ? t->sent[bad] : 0),
          (long long)(bad >= 0 ? t->nsent[bad] : 0), (long long)(bad >= 0 ? t->recvd[bad] : 0),
          (long long)(bad >= 0 ? t->nrecvd[bad] : 0));
    free(t->sent);
    free(t->recvd);
    free(t->nsent);
    free(t->nrecvd);
}

static double cost_beta(const struct algorithm *a, const struct sched_params *sp)
{
    struct cost_params m = {.beta = 1};
    return a->cost(sp, &m);
}

static char casebuf[256];

/* ---- reductions ---- */

static void reduction_case(const struct algorithm *a, int p, int64_t n, size_t esize,
                           bool commutative, bool in_place)
{
    const colibri_coll coll = a->coll;
    const bool rs = coll == COLIBRI_REDUCE_SCATTER || coll == COLIBRI_REDUCE_SCATTER_BLOCK;
    int64_t *counts = NULL, total = n;
    if (rs) {
        counts = malloc((size_t)p * sizeof *counts);
        total = 0;
        for (int i = 0; i < p; i++) {
            /* block: n elements each; reduce_scatter: n spread unevenly
             * over the ranks (some empty), the total above 2^31 */
            counts[i] = coll == COLIBRI_REDUCE_SCATTER_BLOCK ? n
                        : p == 1                            ? n
                        : i % 3 == 1                        ? 0
                                                            : n / p * 2 + (i == p - 1 ? n % 7 : 0);
            total += counts[i];
        }
    }
    const int root = coll == COLIBRI_REDUCE ? p / 2 : 0;
    snprintf(casebuf, sizeof casebuf, "%s %s p=%d n=%lld (total %lld) esize=%zu%s%s",
             colibri_coll_name(coll), a->name, p, (long long)n, (long long)total, esize,
             commutative ? "" : " noncommutative", in_place ? " in-place" : "");
    where = casebuf;
    struct traffic t;
    traffic_init(&t, p);
    for (int ri = 0; ri < n_ranks_built(p); ri++) {
        const int rank = rank_built(p, ri);
        /* only the root of a reduce may pass MPI_IN_PLACE */
        struct sched_params sp = {.rank = rank, .size = p, .root = root, .count = rs ? 0 : n,
                                  .counts = counts, .elem_size = esize,
                                  .in_place = in_place && !(coll == COLIBRI_REDUCE && rank != root),
                                  .commutative = commutative};
        if (coll == COLIBRI_REDUCE_SCATTER_BLOCK)
            sp.count = n;
        struct schedule s;
        sched_init(&s);
        int rc = a->build(&sp, &s);
        CHECK(rc == 0, "%s rank %d: builder returned %d", where, rank, rc);
        struct bufs b = {{0}};
        b.size[BUF_SHM] = -1;
        struct interval need = {0, 0};
        switch (coll) {
        case COLIBRI_ALLREDUCE:
            b.size[BUF_SEND] = b.size[BUF_RECV] = n;
            need.hi = n;
            break;
        case COLIBRI_REDUCE:
            b.size[BUF_SEND] = n;
            b.size[BUF_RECV] = rank == root ? n : -1;
            need.hi = rank == root ? n : 0;
            break;
        case COLIBRI_SCAN:
        case COLIBRI_EXSCAN: /* exscan: rank 0's output is not written */
            b.size[BUF_SEND] = b.size[BUF_RECV] = n;
            need.hi = coll == COLIBRI_EXSCAN && rank == 0 ? 0 : n;
            break;
        default:
            b.size[BUF_SEND] = total;
            b.size[BUF_RECV] = sp.in_place ? total : counts[rank];
            need.hi = counts[rank];
            break;
        }
        int64_t sent = check_schedule(&s, rank, esize, b, sp.in_place ? NULL : &need, 1, &t);
        if (strcmp(a->name, "recursive_doubling") == 0 && coll == COLIBRI_ALLREDUCE) {
            bool whole = true;
            for (uint32_t k = 0; k < s.n_ops; k++)
                if (s.ops[k].kind == SOP_SEND || s.ops[k].kind == SOP_RECV)
                    whole = whole && s.ops[k].count == n;
            CHECK(whole, "%s rank %d: a message is not the whole vector", where, rank);
            /* a power of two: lg p rounds of the whole vector */
            if ((p & (p - 1)) == 0) {
                int lg = 0;
                while ((1 << lg) < p)
                    lg++;
                CHECK(sent == (int64_t)lg * n * (int64_t)esize,
                      "%s rank %d: sent %lld bytes, lg p whole vectors are %lld", where, rank,
                      (long long)sent, (long long)lg * n * (long long)esize);
            }
        }
        sched_free(&s);
    }
    traffic_check(&t);

    /* The cost model: finite, positive, at least what the collective must
     * move through its busiest rank's link: allreduce and reduce_scatter
     * (p-1)/p of the vector (the Rabenseifner bound is twice that for
     * allreduce), reduce the same. */
    struct sched_params sp = {.rank = 0, .size = p, .root = root, .count = rs ? n : n,
                              .counts = counts, .elem_size = esize, .commutative = commutative};
    double c = cost_beta(a, &sp), lower = (double)total * (double)esize * (p - 1) / p;
    CHECK(isfinite(c) && c > 0 && c >= 0.999 * lower,
          "%s: the cost model's bandwidth term is %g, the collective needs %g", where, c, lower);
    free(counts);
}

/* ---- all-to-all ---- */

static void alltoall_case(const struct algorithm *a, int p, int64_t blk, bool in_place)
{
    snprintf(casebuf, sizeof casebuf, "alltoall %s p=%d block=%lld bytes%s", a->name, p,
             (long long)blk, in_place ? " in-place" : "");
    where = casebuf;
    struct traffic t;
    traffic_init(&t, p);
    struct interval *need = malloc((size_t)p * sizeof *need);
    const int k = a->tunable_radix ? 2 : 0;
    for (int ri = 0; ri < n_ranks_built(p); ri++) {
        const int rank = rank_built(p, ri);
        struct sched_params sp = {.rank = rank, .size = p, .count = blk, .elem_size = 1,
                                  .in_place = in_place, .commutative = true, .radix = k};
        struct schedule s;
        sched_init(&s);
        int rc = a->build(&sp, &s);
        CHECK(rc == 0, "%s rank %d: builder returned %d", where, rank, rc);
        struct bufs b = {{(int64_t)p * blk, (int64_t)p * blk, 0, 0, -1}};
        size_t nn = 0;
        for (int j = 0; j < p; j++)
            if (!in_place || j != rank)
                need[nn++] = (struct interval){(int64_t)j * blk, (int64_t)(j + 1) * blk};
        int64_t sent = check_schedule(&s, rank, 1, b, in_place ? NULL : need, nn, &t);
        int64_t want = -1;
        if (strcmp(a->name, "bruck") == 0) {
            want = 0;
            for (int64_t stride = 1; stride < p; stride *= 2)
                for (int v = 1; v <= radix_values(p, 2, stride); v++)
                    want += radix_nmoving(p, 2, stride, v) * blk;
        } else {
            want = (int64_t)(p - 1) * blk; /* pairwise, scattered: direct */
        }
        CHECK(sent == want, "%s rank %d: sent %lld bytes, want %lld", where, rank, (long long)sent,
              (long long)want);
        sched_free(&s);
    }
    traffic_check(&t);
    free(need);
    struct sched_params sp = {.rank = 0, .size = p, .count = blk, .elem_size = 1, .radix = k,
                              .commutative = true};
    double c = cost_beta(a, &sp), lower = (double)blk * (p - 1);
    CHECK(isfinite(c) && c > 0 && c >= 0.999 * lower,
          "%s: the cost model's bandwidth term is %g, the collective needs %g", where, c, lower);
}

/* Bytes rank i sends to rank j: above 2^31 for most pairs, none for some. */
/* allgather (blocks of blk bytes), bcast (a buffer of blk bytes from
 * root) and barrier, in bytes. */
static void movement_case(const struct algorithm *a, int p, int64_t blk, bool in_place, int root)
{
    const bool ag = a->coll == COLIBRI_ALLGATHER, bc = a->coll == COLIBRI_BCAST;
    in_place = in_place && ag;
    snprintf(casebuf, sizeof casebuf, "%s %s p=%d bytes=%lld root=%d%s",
             colibri_coll_name(a->coll), a->name, p, (long long)blk, root,
             in_place ? " in-place" : "");
    where = casebuf;
    struct traffic t;
    traffic_init(&t, p);
    for (int ri = 0; ri < n_ranks_built(p); ri++) {
        const int rank = rank_built(p, ri);
        struct sched_params sp = {.rank = rank, .size = p, .root = root, .count = bc || ag ? blk : 0,
                                  .elem_size = 1, .in_place = in_place,
                                  .radix = a->tunable_radix ? 2 : 0};
        struct schedule s;
        sched_init(&s);
        int rc = a->build(&sp, &s);
        CHECK(rc == 0, "%s rank %d: builder returned %d", where, rank, rc);
        struct bufs b = {{ag && !in_place ? blk : -1, ag ? (int64_t)p * blk : bc ? blk : -1, 0, 0,
                          -1}};
        struct interval need = {0, ag ? (int64_t)p * blk : blk};
        const bool wants = (ag && !in_place) || (bc && rank != root);
        check_schedule(&s, rank, 1, b, wants ? &need : NULL, wants, &t);
        sched_free(&s);
    }
    traffic_check(&t);
    struct sched_params sp = {.rank = 0, .size = p, .root = root, .count = bc || ag ? blk : 0,
                              .elem_size = 1, .radix = a->tunable_radix ? 2 : 0};
    double c = cost_beta(a, &sp), lower = ag ? (double)blk * (p - 1) : bc && p > 1 ? (double)blk : 0;
    CHECK(isfinite(c) && c >= 0.999 * lower,
          "%s: the cost model's bandwidth term is %g, the collective needs %g", where, c, lower);
}

/* allgatherv: every other block above 2^31 bytes, the rest 3, packed */
static void allgatherv_case(const struct algorithm *a, int p, bool in_place)
{
    snprintf(casebuf, sizeof casebuf, "allgatherv %s p=%d%s", a->name, p,
             in_place ? " in-place" : "");
    where = casebuf;
    int64_t *v = malloc((size_t)p * 2 * sizeof *v), *d = v + p, total = 0, most = 0;
    for (int j = 0; j < p; j++) {
        v[j] = j % 2 ? BIG : 3;
        d[j] = total;
        total += v[j];
        most = v[j] > most ? v[j] : most;
    }
    struct traffic t;
    traffic_init(&t, p);
    for (int ri = 0; ri < n_ranks_built(p); ri++) {
        const int rank = rank_built(p, ri);
        struct sched_params sp = {.rank = rank, .size = p, .count = total, .volume_max = most,
                                  .elem_size = 1, .in_place = in_place, .rcounts = v,
                                  .rdispls = d};
        struct schedule s;
        sched_init(&s);
        int rc = a->build(&sp, &s);
        CHECK(rc == 0, "%s rank %d: builder returned %d", where, rank, rc);
        struct bufs b = {{in_place ? -1 : v[rank], total, 0, 0, -1}};
        struct interval need = {0, total};
        check_schedule(&s, rank, 1, b, in_place ? NULL : &need, !in_place, &t);
        sched_free(&s);
    }
    traffic_check(&t);
    struct sched_params sp = {.size = p, .count = total, .volume_max = most, .elem_size = 1,
                              .rcounts = v, .rdispls = d};
    double c = cost_beta(a, &sp);
    CHECK(isfinite(c) && c >= 0.999 * (double)(total - most),
          "%s: the cost model's bandwidth term is %g, the collective needs %g", where, c,
          (double)(total - most));
    free(v);
}

/* gather, scatter (blocks of BIG bytes) and gatherv, scatterv (every other
 * block above 2^31 bytes, the rest 3, packed) to or from `root`, in place
 * at the root or not: the root's side is p blocks, every rank's own one.
 * The binomial v forms are dynamic (their inner ranks' data rounds follow
 * the sizes they receive): only the rounds built up front are checked,
 * without the traffic matrix (the loopback runs of
 * test_movement_schedules.c check the rest on short blocks). */
static void rooted_case(const struct algorithm *a, int p, int root, bool in_place)
{
    const bool g = a->coll == COLIBRI_GATHER || a->coll == COLIBRI_GATHERV;
    const bool v = a->coll == COLIBRI_GATHERV || a->coll == COLIBRI_SCATTERV;
    const bool dynamic = v && strcmp(a->name, "binomial") == 0;
    snprintf(casebuf, sizeof casebuf, "%s %s p=%d root=%d%s", colibri_coll_name(a->coll), a->name,
             p, root, in_place ? " in-place" : "");
    where = casebuf;
    int64_t *c = malloc((size_t)p * 2 * sizeof *c), *d = c + p, total = 0;
    for (int j = 0; j < p; j++) {
        c[j] = v && j % 2 == 0 ? 3 : BIG;
        d[j] = total;
        total += c[j];
    }
    struct traffic t;
    traffic_init(&t, p);
    for (int ri = 0; ri < n_ranks_built(p); ri++) {
        const int rank = rank_built(p, ri);
        const bool mine = rank == root, ip = in_place && mine;
        struct sched_params sp = {.rank = rank, .size = p, .root = root, .count = c[rank],
                                  .elem_size = 1, .in_place = ip};
        if (v && mine && g)
            sp.rcounts = c, sp.rdispls = d;
        if (v && mine && !g)
            sp.scounts = c, sp.sdispls = d;
        struct schedule s;
        sched_init(&s);
        int rc = a->build(&sp, &s);
        CHECK(rc == 0, "%s rank %d: builder returned %d", where, rank, rc);
        const int64_t many = mine ? total : -1, own = ip ? -1 : c[rank];
        struct bufs b = {{g ? own : many, g ? many : own, 0, 0, -1}};
        struct interval need = {0, g ? total : c[rank]};
        const bool wants = (g ? mine && !ip : !ip) && !(dynamic && s.resume);
        check_schedule(&s, rank, 1, b, wants ? &need : NULL, wants, dynamic ? NULL : &t);
        sched_free(&s);
    }
    if (dynamic) {
        free(t.sent), free(t.recvd), free(t.nsent), free(t.nrecvd);
    } else {
        traffic_check(&t);
    }
    struct sched_params sp = {.size = p, .root = root, .count = c[root], .elem_size = 1};
    if (v && g)
        sp.rcounts = c;
    if (v && !g)
        sp.scounts = c;
    double cost = cost_beta(a, &sp), lower = (double)(total - c[root]);
    CHECK(isfinite(cost) && cost >= 0.999 * lower,
          "%s: the cost model's bandwidth term is %g, the collective needs %g", where, cost, lower);
    free(c);
}

static int64_t vcount(int i, int j, int p)
{
    if (p > 2 && (i + 2 * j) % 5 == 3)
        return 0;
    return BIG + (i * 7 + j * 3) % 11;
}

static void alltoallv_case(const struct algorithm *a, int p, bool in_place)
{
    snprintf(casebuf, sizeof casebuf, "alltoallv %s p=%d blocks 2^31+ bytes%s", a->name, p,
             in_place ? " in-place" : "");
    where = casebuf;
    const bool dynamic = strcmp(a->name, "sloav") == 0;
    struct traffic t;
    traffic_init(&t, p);
    int64_t *v = malloc((size_t)p * 4 * sizeof *v);
    struct interval *need = malloc((size_t)p * sizeof *need);
    for (int ri = 0; ri < n_ranks_built(p); ri++) {
        const int rank = rank_built(p, ri);
        int64_t *sc = v, *sd = v + p, *rc_ = v + 2 * p, *rd = v + 3 * p, so = 0, ro = 0;
        /* receive blocks in reverse rank order (displacements not monotone) */
        for (int j = 0; j < p; j++) {
            sc[j] = in_place ? vcount(j < rank ? j : rank, j < rank ? rank : j, p)
                             : vcount(rank, j, p);
            rc_[j] = in_place ? sc[j] : vcount(j, rank, p);
        }
        for (int j = 0; j < p; j++) {
            sd[j] = so;
            so += sc[j];
        }
        for (int j = p - 1; j >= 0; j--) {
            rd[j] = ro;
            ro += rc_[j];
        }
        if (in_place) {
            memcpy(sd, rd, (size_t)p * sizeof *sd);
            so = ro;
        }
        struct sched_params sp = {.rank = rank, .size = p, .count = 0, .elem_size = 1,
                                  .in_place = in_place, .commutative = true, .scounts = sc,
                                  .sdispls = sd, .rcounts = rc_, .rdispls = rd};
        int64_t most = 0;
        for (int j = 0; j < p; j++)
            most = sc[j] > most ? sc[j] : most;
        sp.count = most;
        struct schedule s;
        sched_init(&s);
        int brc = a->build(&sp, &s);
        CHECK(brc == 0, "%s rank %d: builder returned %d", where, rank, brc);
        struct bufs b = {{so, ro, 0, 0, -1}};
        size_t nn = 0;
        for (int j = 0; j < p; j++)
            if (!in_place || j != rank)
                need[nn++] = (struct interval){rd[j], rd[j] + rc_[j]};
        int64_t sent = check_schedule(&s, rank, 1, b, in_place || dynamic ? NULL : need, nn,
                                      dynamic ? NULL : &t);
        if (!dynamic) {
            int64_t want = 0;
            for (int j = 0; j < p; j++)
                want += j == rank ? 0 : sc[j];
            CHECK(sent == want, "%s rank %d: sent %lld bytes, its blocks for the others are %lld",
                  where, rank, (long long)sent, (long long)want);
        }
        sched_free(&s);
    }
    if (!dynamic)
        traffic_check(&t);
    else
        free(t.sent), free(t.recvd), free(t.nsent), free(t.nrecvd);
    free(need);
    free(v);
}

int main(int argc, char **argv)
{
    int sizes[16], ns = 0;
    if (argc > 1)
        for (int i = 1; i < argc && ns < 16; i++)
            sizes[ns++] = atoi(argv[i]);
    else {
        int d[] = {2, 3, 7, 64, 1000, 1024};
        for (unsigned i = 0; i < sizeof d / sizeof *d; i++)
            sizes[ns++] = d[i];
    }
    for (int i = 0; i < catalog_count; i++) {
        const struct algorithm *a = &catalog[i];
        if (a->restrictions & (R_NEUTRAL | R_NODE_AWARE))
            continue;
        long long before = check_failed;
        most_ops = 0;
        for (int k = 0; k < ns; k++) {
            int p = sizes[k];
            if (((a->restrictions & R_POW2) && (p & (p - 1))) || ((a->restrictions & R_EVEN) && p % 2))
                continue;
            switch (a->coll) {
            case COLIBRI_ALLTOALL:
                for (int ip = 0; ip < 2; ip++)
                    alltoall_case(a, p, BIG, ip);
                break;
            case COLIBRI_ALLTOALLV:
                for (int ip = 0; ip < 2; ip++)
                    alltoallv_case(a, p, ip);
                break;
            case COLIBRI_ALLGATHERV:
                for (int ip = 0; ip < 2; ip++)
                    allgatherv_case(a, p, ip);
                break;
            case COLIBRI_GATHER:
            case COLIBRI_GATHERV:
            case COLIBRI_SCATTER:
            case COLIBRI_SCATTERV:
                for (int ip = 0; ip < 2; ip++)
                    rooted_case(a, p, ip ? p - 1 : p / 2, ip);
                break;
            case COLIBRI_ALLGATHER:
            case COLIBRI_BCAST:
            case COLIBRI_BARRIER:
                for (int ip = 0; ip < 2; ip++)
                    movement_case(a, p, BIG, ip, ip ? p - 1 : 0);
                break;
            default: {
                /* block collectives: n per block is already the total over
                 * 2^31 at p >= 2; the others carry n in full */
                int64_t ns_[] = {BIG, HUGE_N};
                for (int ni = 0; ni < 2; ni++)
                    for (int comm = 1; comm >= 0; comm--) {
                        if (!comm && (a->restrictions & R_COMMUTATIVE))
                            continue;
                        for (int ip = 0; ip < 2; ip++) {
                            int64_t n = ns_[ni];
                            /* beyond p = 3 a block of BIG / p + 1 is enough
                                 * for a total above 2^31 (BIG per block at
                                 * p = 1024 would be 2^41 elements, in
                                 * segmented schedules of millions of ops) */
                            if (a->coll == COLIBRI_REDUCE_SCATTER_BLOCK && p > 3)
                                n = n / p + 1;
                            reduction_case(a, p, n, ni ? 8 : 1, comm, ip);
                        }
                    }
            }
            }
        }
        printf("%-22s %-20s %-6s (largest schedule: %u ops)\n", colibri_coll_name(a->coll),
               a->name, check_failed == before ? "ok" : "FAILED", most_ops);
        fflush(stdout);
    }

    /* Auto selection on the large counts: an algorithm, on every collective. */
    for (int k = 0; k < ns; k++)
        for (int coll = 0; coll < COLIBRI_NCOLL; coll++) {
            const char *name = colibri_select((colibri_coll)coll, sizes[k], BIG, 8, 1);
            CHECK(name && *name, "auto %s p=%d count=%lld: no algorithm",
                  colibri_coll_name((colibri_coll)coll), sizes[k], (long long)BIG);
        }
    return check_summary();
}
