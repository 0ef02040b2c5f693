/*
 * Symbolic execution of schedules, without MPI.
 *
 * Builds the schedule of every rank of a p-process call and runs them all
 * together on symbolic data: each element carries the set of ranks whose
 * contribution it holds, the element index it belongs to, and the contiguous
 * rank interval it covers.  Messages match in per-channel FIFO order as in
 * MPI; a round completes only when its receives have data and its sends have
 * matching receives (rendezvous), so a deadlock is found, not hung on.
 *
 * It catches: unmatched or mis-sized messages, deadlock, reading scratch or
 * output before it is written, writing the user's input, touching the
 * output at a non-root, out-of-bounds access, overlapping buffers within a
 * round, counting a contribution twice, mixing element indices, combining
 * out of rank order (non-commutative), a wrong or incomplete result, and
 * an allreduce whose ranks combine the contributions in different
 * bracketings (each element carries a hash of its expression tree): with
 * floating point those give different last bits on different ranks, and
 * MPI requires every rank to receive the same result.  A scan's rank r must
 * end with exactly ranks [0, r], an exscan's [0, r-1], and an exscan's rank
 * 0 must leave its output untouched (its input, in place).
 *
 * Node-aware algorithms (sym_node set before sym_run): the ranks of a node
 * share one symbolic segment of NODE_SLOTS slots and its flags (a run is
 * the communicator's first: epoch 1).  A round's local operations run in
 * order and a flag wait that does not hold stops its rank there until
 * another rank sets the flag; ranks are stepped in ascending or, with
 * sym_node.reverse, descending order, so that a missing wait shows as a
 * read of an element not yet written (or of another chunk's) in one of
 * the two orders.
 *
 * Header-only on purpose: each unit test that needs it includes it.
 */
#ifndef COLIBRI_TEST_SYMBOLIC_H
#define COLIBRI_TEST_SYMBOLIC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patterns/node_reduce.h"
#include "sched/schedule.h"
#include "select/catalog.h"

#define SYM_MAXP 256
#define SYM_WORDS (SYM_MAXP / 64)

struct sym {
    uint64_t mask[SYM_WORDS];
    int64_t idx;   /* element index of the full vector */
    int lo, hi;    /* rank interval, when combined in order */
    uint8_t valid; /* 0: never written */
    uint8_t ordered;
    uint64_t tree; /* hash of the bracketing: leaf(rank), or node(left, right) */
};

static uint64_t sym_mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ x >> 33;
}

struct sym_msg {
    struct sym *data;
    int64_t count;
};

struct sym_chan {
    struct sym_msg *msgs;
    int64_t n_sent, cap, n_recv_posted;
};

/* An idempotent, exact operation (MAX of integers; node_dissemination.c):
 * a contribution may arrive more than once and the result is the set of
 * contributions, whatever the bracketing. */
static bool sym_idempotent;

/* The segment every schedule is built with (sched_params.segment; 0: the
 * algorithm's default). */
static int64_t sym_segment;

/* Node-aware algorithms: the layout, chunk and flat algorithm between nodes
 * sym_run gives them (layout NULL: none). */
static struct {
    const struct node_layout *layout;
    int64_t chunk;
    const struct algorithm *inner;
    bool reverse;
    int radix; /* the call's radix (0: the algorithm's default) */
    const int *order; /* the stepping order, p ranks (NULL: by `reverse`) */
    /* with `starve`, rank `slow` moves only when no other rank can: what it
     * writes arrives as late as the waits allow (a missing wait shows) */
    bool starve;
    int slow;
} sym_node;

struct sym_rank {
    struct schedule s;
    struct sym *buf[BUF_NBUFS];
    int64_t len[BUF_NBUFS];
    uint32_t round;
    uint32_t local;  /* next local op of the round (after a flag wait) */
    bool posted, got;
    uint64_t *flags; /* the node's flags (node-aware) */
    int64_t slot_elems;
    int slot_flags;
    /* sequence numbers of this round's messages per op */
    int64_t *seq;
};

struct sym_result {
    char error[256];
    int max_rounds;            /* rounds that communicate, max over ranks */
    int64_t max_bytes_sent;    /* per rank, max */
    int64_t max_msgs_sent;
    int64_t total_bytes_sent;
};

static int sym_fail(struct sym_result *r, const char *fmt, ...)
{
    if (!r->error[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->error, sizeof r->error, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void sym_set_rank(struct sym *e, int rank, int64_t idx)
{
    memset(e, 0, sizeof *e);
    e->mask[rank / 64] = 1ull << (rank % 64);
    e->idx = idx;
    e->lo = e->hi = rank;
    e->valid = 1;
    e->ordered = 1;
    e->tree = sym_mix((uint64_t)rank + 1);
}

static int sym_check_range(struct sym_result *res, struct sym_rank *R, int rank, int buf,
                           int64_t off, int64_t count, bool write, bool in_place)
{
    if (off < 0 || off + count > R->len[buf])
        return sym_fail(res, "rank %d: %s buffer %d [%lld,+%lld) out of bounds (len %lld)", rank,
                        write ? "writes" : "reads", buf, (long long)off, (long long)count,
                        (long long)R->len[buf]);
    if (write && buf == BUF_SEND && !in_place)
        return sym_fail(res, "rank %d writes the user's send buffer", rank);
    return 0;
}

static int sym_reduce(struct sym_result *res, int rank, const struct sym *left,
                      const struct sym *right, struct sym *out, bool commutative)
{
    if (!left->valid || !right->valid)
        return sym_fail(res, "rank %d reduces an unwritten element", rank);
    if (left->idx != right->idx)
        return sym_fail(res, "rank %d combines element %lld with element %lld", rank,
                        (long long)left->idx, (long long)right->idx);
    struct sym r = *left;
    if (sym_idempotent) {
        r.tree = 0;
        for (int w = 0; w < SYM_WORDS; w++) {
            r.mask[w] = left->mask[w] | right->mask[w];
            r.tree = sym_mix(r.tree * 31 + r.mask[w]);
        }
        r.ordered = 0;
        *out = r;
        return 0;
    }
    for (int w = 0; w < SYM_WORDS; w++) {
        if (left->mask[w] & right->mask[w])
            return sym_fail(res, "rank %d counts a contribution twice (element %lld)", rank,
                            (long long)left->idx);
        r.mask[w] = left->mask[w] | right->mask[w];
    }
    r.ordered = left->ordered && right->ordered && left->hi + 1 == right->lo;
    if (!commutative && !r.ordered)
        return sym_fail(res, "rank %d combines ranks [%d..%d] with [%d..%d] out of order", rank,
                        left->lo, left->hi, right->lo, right->hi);
    r.lo = left->lo;
    r.hi = right->hi;
    /* (a b) and (b a) differ too: only the IEEE operations themselves are
     * commutative, and not for NaN payloads */
    r.tree = sym_mix(sym_mix(left->tree) * 31 + right->tree + 0x9e3779b97f4a7c15ull);
    *out = r;
    return 0;
}

static bool sym_full(const struct sym *e, int p)
{
    for (int r = 0; r < p; r++)
        if (!(e->mask[r / 64] >> (r % 64) & 1))
            return false;
    return true;
}

static bool ranges_overlap(int ba, int64_t oa, int64_t ca, int bb, int64_t ob, int64_t cb)
{
    return ba == bb && oa < ob + cb && ob < oa + ca;
}

/* An op's offset into buffer `buf`: BUF_SHM sides of slot-relative ops
 * land in their use's slot (epoch 1). */
static int64_t sym_off(const struct sym_rank *me, const struct sched_op *op, int buf, int64_t off)
{
    const unsigned rel = (op->flags & SOP_SLOT_MASK) >> SOP_SLOT_SHIFT;
    return buf == BUF_SHM && rel ? off + (int64_t)(rel % NODE_SLOTS) * me->slot_elems : off;
}

static uint64_t *sym_flag(const struct sym_rank *me, const struct sched_op *op, int64_t idx)
{
    const unsigned rel = (op->flags & SOP_SLOT_MASK) >> SOP_SLOT_SHIFT;
    return &me->flags[(int64_t)(rel % NODE_SLOTS) * me->slot_flags + idx];
}

/*
 * Runs `a` for coll on p ranks.  counts: per-rank output counts for the
 * reduce_scatter collectives (NULL otherwise).  Returns 0, or -1 with
 * res->error set.
 */
extern double node_region_min_bytes; /* coll/common/node_phases.h */

static int sym_run(const struct algorithm *a, int p, int root, int64_t count,
                   const int64_t *counts, bool commutative, bool in_place, struct sym_result *res)
{
    memset(res, 0, sizeof *res);
    node_region_min_bytes = 0; /* every node reduction declares its slot reach: checked below */
    if (p > SYM_MAXP)
        return sym_fail(res, "p > %d", SYM_MAXP);
    colibri_coll coll = a->coll;
    bool rs = coll == COLIBRI_REDUCE_SCATTER || coll == COLIBRI_REDUCE_SCATTER_BLOCK;
    int64_t total = count, *displs = NULL;
    if (rs) {
        displs = calloc((size_t)p + 1, sizeof *displs);
        for (int i = 0; i < p; i++)
            displs[i + 1] = displs[i] + counts[i];
        total = displs[p];
    }
    struct sym_rank *R = calloc((size_t)p, sizeof *R);
    struct sym_chan *ch = calloc((size_t)p * (size_t)p, sizeof *ch);
    int rc = 0;
    const struct node_layout *nl = sym_node.layout;
    const int n_nodes = nl ? nl->n_nodes : 0;
    struct sym **shm = calloc((size_t)n_nodes + 1, sizeof *shm);
    uint64_t **flags = calloc((size_t)n_nodes + 1, sizeof *flags);
    for (int n = 0; n < n_nodes; n++) {
        const int L = nl->node_start[n + 1] - nl->node_start[n];
        shm[n] = calloc((size_t)(NODE_SLOTS * node_slot_elems(L, sym_node.chunk)) + 1,
                        sizeof(struct sym));
        flags[n] = calloc((size_t)(NODE_SLOTS * node_slot_flags(L)), sizeof(uint64_t));
    }

    for (int r = 0; r < p && !rc; r++) {
        struct sched_params sp = {0};
        sp.rank = r;
        sp.size = p;
        sp.root = root;
        sp.count = count;
        sp.counts = counts;
        sp.elem_size = 1;
        sp.commutative = commutative;
        sp.segment = sym_segment;
        sp.layout = sym_node.layout;
        sp.node_chunk = sym_node.chunk;
        sp.inner = sym_node.inner ? sym_node.inner->build : NULL;
        sp.radix = sym_node.radix;
        bool is_root = coll != COLIBRI_REDUCE || r == root;
        sp.in_place = in_place && is_root;
        sched_init(&R[r].s);
        if (a->build(&sp, &R[r].s) != 0 || R[r].s.oom) {
            rc = sym_fail(res, "rank %d: builder failed", r);
            break;
        }
        int64_t out_len = rs ? counts[r] : count;
        if (coll == COLIBRI_REDUCE && r != root)
            out_len = 0;
        if (sp.in_place)
            out_len = total;
        R[r].len[BUF_RECV] = out_len;
        R[r].buf[BUF_RECV] = calloc((size_t)out_len + 1, sizeof(struct sym));
        if (sp.in_place) {
            R[r].buf[BUF_SEND] = R[r].buf[BUF_RECV];
            R[r].len[BUF_SEND] = out_len;
        } else {
            R[r].len[BUF_SEND] = total;
            R[r].buf[BUF_SEND] = calloc((size_t)total + 1, sizeof(struct sym));
        }
        for (int64_t j = 0; j < total; j++)
            sym_set_rank(&R[r].buf[BUF_SEND][j], r, j);
        for (int t = 0; t < 2; t++) {
            R[r].len[BUF_TMP + t] = R[r].s.tmp_count[t];
            R[r].buf[BUF_TMP + t] = calloc((size_t)R[r].s.tmp_count[t] + 1, sizeof(struct sym));
        }
        R[r].seq = calloc((size_t)R[r].s.n_ops + 1, sizeof(int64_t));
        if (nl) {
            const int n = nl->node_of[r], L = nl->node_start[n + 1] - nl->node_start[n];
            R[r].slot_elems = node_slot_elems(L, sym_node.chunk);
            R[r].slot_flags = node_slot_flags(L);
            R[r].buf[BUF_SHM] = shm[n];
            R[r].len[BUF_SHM] = NODE_SLOTS * R[r].slot_elems;
            R[r].flags = flags[n];
            /* a declared slot reach (sched_slot_reach): the node's, not
             * this rank's, and no slot-relative data op beyond it (the
             * executor moves each use through regions of that span) */
            const int64_t span = R[r].s.shm_slot_span;
            for (int q = 0; q < r && !rc; q++) /* every rank built before on its node */
                if (nl->node_of[q] == n && R[q].s.shm_slot_span != span)
                    rc = sym_fail(res, "rank %d declares a slot reach of %lld, rank %d of its node %lld",
                                  r, (long long)span, q, (long long)R[q].s.shm_slot_span);
            if (span > R[r].slot_elems)
                rc = sym_fail(res, "rank %d: slot reach %lld beyond the slot's %lld", r,
                              (long long)span, (long long)R[r].slot_elems);
            for (uint32_t i = 0; i < R[r].s.n_ops && span > 0 && !rc; i++) {
                const struct sched_op *op = &R[r].s.ops[i];
                if (!(op->flags & SOP_SLOT_MASK) || op->kind == SOP_FLAG_SET ||
                    op->kind == SOP_FLAG_WAIT)
                    continue;
                if ((op->src_buf == BUF_SHM && op->src_off + op->count > span) ||
                    (op->dst_buf == BUF_SHM && op->dst_off + op->count > span))
                    rc = sym_fail(res, "rank %d op %u reaches past the declared slot reach %lld", r,
                                  i, (long long)span);
            }
        }

        struct sched_cost c;
        sched_cost(&R[r].s, 1, &c);
        if (c.rounds > res->max_rounds)
            res->max_rounds = c.rounds;
        if (c.bytes_sent > res->max_bytes_sent)
            res->max_bytes_sent = c.bytes_sent;
        if (c.msgs_sent > res->max_msgs_sent)
            res->max_msgs_sent = c.msgs_sent;
        res->total_bytes_sent += c.bytes_sent;
    }

    int finished = 0;
    bool slow_turn = false;
    while (!rc && finished < p) {
        bool progress = false;
        const bool skip_slow = sym_node.starve && !slow_turn;
        finished = 0;
        for (int ri = 0; ri < p && !rc; ri++) {
            const int r = sym_node.order ? sym_node.order[ri] : sym_node.reverse ? p - 1 - ri : ri;
            struct sym_rank *me = &R[r];
            if (me->round >= me->s.n_rounds) {
                finished++;
                continue;
            }
            if (skip_slow && r == sym_node.slow)
                continue;
            const struct sched_round *rd = &me->s.rounds[me->round];
            struct sched_op *ops = &me->s.ops[rd->first_op];
            int64_t *seq = &me->seq[rd->first_op];
            bool in_place_r = me->buf[BUF_SEND] == me->buf[BUF_RECV];
            if (!me->posted) {
                for (uint32_t i = 0; i < rd->n_ops && !rc; i++) {
                    struct sched_op *op = &ops[i];
                    if (op->kind != SOP_SEND && op->kind != SOP_RECV)
                        continue;
                    if (op->peer < 0 || op->peer >= p || op->peer == r) {
                        rc = sym_fail(res, "rank %d: bad peer %d", r, op->peer);
                        break;
                    }
                    bool w = op->kind == SOP_RECV;
                    const int64_t off = sym_off(me, op, op->src_buf, op->src_off);
                    if ((rc = sym_check_range(res, me, r, op->src_buf, off, op->count, w,
                                              in_place_r)))
                        break;
                    for (uint32_t j = 0; j < i && !rc; j++) {
                        struct sched_op *o = &ops[j];
                        if ((o->kind == SOP_RECV || w) &&
                            (o->kind == SOP_SEND || o->kind == SOP_RECV) &&
                            ranges_overlap(o->src_buf, sym_off(me, o, o->src_buf, o->src_off),
                                           o->count, op->src_buf, off, op->count))
                            rc = sym_fail(res, "rank %d round %u: overlapping message buffers", r,
                                          me->round);
                    }
                    if (op->kind == SOP_SEND) {
                        struct sym_chan *c = &ch[(size_t)r * p + op->peer];
                        if (c->n_sent == c->cap) {
                            c->cap = c->cap ? 2 * c->cap : 8;
                            c->msgs = realloc(c->msgs, (size_t)c->cap * sizeof *c->msgs);
                        }
                        struct sym_msg *m = &c->msgs[c->n_sent];
                        m->count = op->count;
                        m->data = malloc((size_t)op->count * sizeof(struct sym));
                        memcpy(m->data, &me->buf[op->src_buf][off],
                               (size_t)op->count * sizeof(struct sym));
                        for (int64_t k = 0; k < op->count; k++)
                            if (!m->data[k].valid)
                                rc = sym_fail(res, "rank %d sends an unwritten element", r);
                        seq[i] = c->n_sent++;
                    } else {
                        struct sym_chan *c = &ch[(size_t)op->peer * p + r];
                        seq[i] = c->n_recv_posted++;
                    }
                }
                me->posted = true;
                progress = true;
            }
            if (rc)
                break;
            if (!me->got) {
                bool ready = true;
                for (uint32_t i = 0; i < rd->n_ops && ready; i++) {
                    struct sched_op *op = &ops[i];
                    if (op->kind == SOP_SEND)
                        ready = ch[(size_t)r * p + op->peer].n_recv_posted > seq[i];
                    else if (op->kind == SOP_RECV)
                        ready = ch[(size_t)op->peer * p + r].n_sent > seq[i];
                }
                if (!ready)
                    continue;
                for (uint32_t i = 0; i < rd->n_ops && !rc; i++) {
                    struct sched_op *op = &ops[i];
                    if (op->kind != SOP_RECV)
                        continue;
                    struct sym_msg *m = &ch[(size_t)op->peer * p + r].msgs[seq[i]];
                    if (m->count != op->count) {
                        rc = sym_fail(res, "rank %d receives %lld from %d, which sent %lld", r,
                                      (long long)op->count, op->peer, (long long)m->count);
                        break;
                    }
                    memcpy(&me->buf[op->src_buf][sym_off(me, op, op->src_buf, op->src_off)],
                           m->data, (size_t)m->count * sizeof(struct sym));
                }
                me->got = true;
                progress = true;
            }
            bool blocked = false;
            for (; me->local < rd->n_ops && !rc && !blocked; me->local++) {
                struct sched_op *op = &ops[me->local];
                if (op->kind == SOP_FLAG_SET) {
                    *sym_flag(me, op, op->dst_off) = 1 + (uint64_t)op->count;
                    if (sym_node.starve && r == sym_node.slow) {
                        /* the slow rank pauses after each flag it sets */
                        me->local++;
                        blocked = progress = true;
                        break;
                    }
                } else if (op->kind == SOP_FLAG_WAIT) {
                    if (op->count < 0 || *sym_flag(me, op, op->src_off) >= 1 + (uint64_t)op->count)
                        continue;
                    blocked = true;
                    break;
                } else if (op->kind == SOP_REDUCE || op->kind == SOP_COPY) {
                    const int64_t so = sym_off(me, op, op->src_buf, op->src_off);
                    const int64_t dof = sym_off(me, op, op->dst_buf, op->dst_off);
                    if ((rc = sym_check_range(res, me, r, op->src_buf, so, op->count,
                                              false, in_place_r)) ||
                        (rc = sym_check_range(res, me, r, op->dst_buf, dof, op->count,
                                              true, in_place_r)))
                        break;
                    if (op->kind == SOP_REDUCE && op->src_buf == BUF_SEND &&
                        (op->flags & SOP_DST_IS_LEFT) && !commutative) {
                        rc = sym_fail(res, "rank %d: dst-is-left reduce reads the user's input",
                                      r);
                        break;
                    }
                    for (int64_t k = 0; k < op->count && !rc; k++) {
                        struct sym *src = &me->buf[op->src_buf][so + k];
                        struct sym *dst = &me->buf[op->dst_buf][dof + k];
                        if (op->kind == SOP_COPY) {
                            if (!src->valid)
                                rc = sym_fail(res, "rank %d copies an unwritten element", r);
                            *dst = *src;
                        } else if (op->flags & SOP_DST_IS_LEFT) {
                            rc = sym_reduce(res, r, dst, src, dst, commutative);
                        } else {
                            rc = sym_reduce(res, r, src, dst, dst, commutative);
                        }
                    }
                }
                progress = true;
            }
            if (blocked)
                continue;
            me->local = 0;
            me->got = false;
            me->round++;
            me->posted = false;
            progress = true;
        }
        slow_turn = skip_slow && !progress;
        if (!rc && !progress && finished < p && !slow_turn)
            rc = sym_fail(res, "deadlock");
    }

    for (int r = 0; r < p && !rc; r++) {
        for (int s = 0; s < p && !rc; s++) {
            struct sym_chan *c = &ch[(size_t)r * p + s];
            if (c->n_sent != c->n_recv_posted)
                rc = sym_fail(res, "%lld messages %d->%d but %lld receives",
                              (long long)c->n_sent, r, s, (long long)c->n_recv_posted);
        }
    }
    const bool prefix = coll == COLIBRI_SCAN || coll == COLIBRI_EXSCAN;
    for (int r = 0; r < p && !rc; r++) {
        int64_t n = rs ? counts[r] : count, base = rs ? displs[r] : 0;
        if (coll == COLIBRI_REDUCE && r != root)
            continue;
        if (prefix) {
            /* the ranks [0, hi] this rank's output must hold, in order */
            const int hi = coll == COLIBRI_SCAN ? r : r - 1;
            for (int64_t j = 0; j < n && !rc; j++) {
                const struct sym *e = &R[r].buf[BUF_RECV][j];
                bool exact = e->valid && e->idx == j;
                for (int q = 0; q < p && exact; q++)
                    exact = (e->mask[q / 64] >> (q % 64) & 1) == (q <= hi);
                if (hi < 0 && !in_place && e->valid)
                    rc = sym_fail(res, "exscan rank 0 writes its output (element %lld)",
                                  (long long)j);
                else if (hi < 0 && in_place && !(e->valid && e->tree == sym_mix(1)))
                    rc = sym_fail(res, "exscan rank 0 changes its in-place buffer (element %lld)",
                                  (long long)j);
                else if (hi >= 0 && !exact)
                    rc = sym_fail(res, "rank %d: output element %lld %s", r, (long long)j,
                                  e->valid ? "does not hold exactly ranks 0..its prefix"
                                           : "is unwritten");
                else if (hi >= 0 && !commutative && !(e->ordered && e->lo == 0 && e->hi == hi))
                    rc = sym_fail(res, "rank %d: output element %lld not in rank order", r,
                                  (long long)j);
            }
            continue;
        }
        for (int64_t j = 0; j < n && !rc; j++) {
            struct sym *e = &R[r].buf[BUF_RECV][j];
            if (!e->valid || e->idx != base + j)
                rc = sym_fail(res, "rank %d: output element %lld is %s", r, (long long)j,
                              e->valid ? "the wrong element" : "unwritten");
            else if (!sym_full(e, p))
                rc = sym_fail(res, "rank %d: output element %lld misses contributions", r,
                              (long long)j);
            else if (!commutative && !(e->ordered && e->lo == 0 && e->hi == p - 1))
                rc = sym_fail(res, "rank %d: output element %lld not in rank order", r,
                              (long long)j);
            else if (coll == COLIBRI_ALLREDUCE && e->tree != R[0].buf[BUF_RECV][j].tree)
                rc = sym_fail(res, "rank %d: output element %lld combined in another bracketing "
                              "than rank 0's (bitwise different results)", r, (long long)j);
        }
    }

    for (int r = 0; r < p; r++) {
        for (int s = 0; s < p; s++) {
            struct sym_chan *c = &ch[(size_t)r * p + s];
            for (int64_t m = 0; m < c->n_sent; m++)
                free(c->msgs[m].data);
            free(c->msgs);
        }
        if (R[r].buf[BUF_SEND] != R[r].buf[BUF_RECV])
            free(R[r].buf[BUF_SEND]);
        free(R[r].buf[BUF_RECV]);
        free(R[r].buf[BUF_TMP]);
        free(R[r].buf[BUF_TMP2]);
        free(R[r].seq);
        sched_free(&R[r].s);
    }
    for (int n = 0; n < n_nodes; n++)
        free(shm[n]), free(flags[n]);
    free(shm);
    free(flags);
    free(R);
    free(ch);
    free(displs);
    return rc;
}

#endif
