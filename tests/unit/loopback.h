/*
 * Loopback execution of data-movement schedules (alltoall, alltoallv),
 * without MPI.
 *
 * Builds the schedule of every rank of a p-process call and runs them all in
 * one process on real bytes, the way the executor would: a round posts its
 * receives and sends, completes when every receive has its message and every
 * send has been received (rendezvous, so a deadlock is found, not hung on),
 * then applies its local copies; a dynamic schedule's resume is called when
 * its built rounds are done.  Messages between two ranks match in FIFO order.
 * Ranks of one node (struct node_layout) share one SHM segment, which
 * starts as large as the built schedules ask (as runtime/executor.c binds
 * it) and grows collectively: only when every rank of the node asks for
 * the same size.
 *
 * Flags (SOP_FLAG_SET / SOP_FLAG_WAIT, the growable segment's: no slots)
 * are per node, LB_FLAGS per rank, kept across growths.  With a
 * `node_chunk` the segment is instead the reduction segment's NODE_SLOTS
 * slots (patterns/node_reduce.h), each (Lmax + 1) node_chunk bytes, the
 * least the runtime gives, with node_slot_flags(L) flags per slot, and an
 * op marked with a use addresses the slot (epoch + use) mod NODE_SLOTS,
 * as the executor does.  A run's epoch is
 * 1 plus the epochs of the rank's earlier calls, and a wait that does not
 * hold leaves its rank at that op.  With `calls` > 1 every rank runs the
 * call that many times in a row on the same segment and flags, each with
 * other bytes, starting the next as soon as it finishes the last (while
 * its node's other ranks may still be in it): what successive calls of a
 * node-aware algorithm must survive without a barrier.  Ranks are stepped
 * in a different order each sweep (each as far as it can go, ascending,
 * descending, strided), so that a missing wait shows as a wrong byte.
 *
 * A barrier's ranks also carry what they know (whom they have heard from,
 * directly or through others): a message carries its sender's when it is
 * posted, a flag its setter's when it is set; after its call every rank
 * must know every rank.  `order` steps the ranks in that order, each as
 * far as it goes (the node-aware tests put a rank first and the rank it
 * must wait for last, so that a missing wait shows); `starve` moves rank
 * `slow` only when no other rank can, one step at a time.
 *
 * It checks: message sizes (a receive must get exactly what was sent),
 * deadlock, out-of-bounds access to any buffer, writes to the send buffer
 * or to the receive buffer's gaps, every received block's bytes, and that
 * the ranks of a node agree on the final shared-segment size.
 *
 *   struct lb_case c = {.alg = a, .p = 8, .block = 3};   alltoall
 *   struct lb_case c = {.alg = a, .p = 8, .counts = m};  alltoallv, m[i*p+j] =
 *                                                        bytes rank i sends to j
 *   lb_run(&c, costs, err, sizeof err) -> 0 ok, -1 failure described in err;
 *   costs (p entries, or NULL) gets each rank's whole executed schedule.
 *
 * With in_place an alltoallv's counts are made symmetric (MPI requires
 * sendcounts == recvcounts then): m[i*p+j] for i < j is used both ways.
 * Header-only on purpose: each unit test that needs it includes it.
 */
#ifndef COLIBRI_TEST_LOOPBACK_H
#define COLIBRI_TEST_LOOPBACK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/schedule.h"
#include "patterns/node_reduce.h"
#include "patterns/nodes.h"
#include "select/catalog.h"

enum lb_displs {
    LB_PACKED = 0,   /* blocks in rank order, back to back */
    LB_REVERSED = 1, /* blocks in reverse rank order with 3-byte gaps */
};

struct lb_case {
    const struct algorithm *alg;
    int p, radix;
    bool in_place;
    int64_t block;                    /* alltoall: bytes per block */
    const int64_t *counts;            /* alltoallv: p*p byte counts (NULL: alltoall) */
    enum lb_displs displs;            /* alltoallv layout of both buffers */
    const struct node_layout *layout; /* node-aware algorithms */
    int calls;                        /* successive calls (0: 1) */
    int64_t *sizes;                   /* p x NSEG_SIZES: each rank's sched_params.sizes_out
                                         after its last call (NULL: not asked) */
    int root;                         /* bcast, gather(v), scatter(v) */
    int64_t segment;                  /* pipelined bcasts' segment (0: their default) */
    int64_t node_chunk;               /* the reduction segment's chunk (0: growable segment) */
    const struct algorithm *inner;    /* node-aware: the flat algorithm between nodes */
    const int *order;                 /* p ranks: the stepping order (NULL: the sweeps) */
    bool starve;                      /* rank `slow` moves only when no other rank can, */
    int slow;                         /* one step at a time: it writes and reads late */
};

/* Allgatherv: `counts` has p entries, rank i's block of counts[i] bytes
 * lb_byte(call, i, 0, t), received at its displacement of the `displs`
 * layout (packed or reversed with gaps).  Allgather: rank i's block (`block` bytes) is lb_byte(call, i, 0, t) and
 * every rank's output is the p blocks in rank order.  Bcast: the root's
 * buffer of `block` bytes, lb_byte(call, root, 0, t), is every rank's
 * (SEND is RECV, as the driver binds it).  Barrier: no bytes at all (the
 * runner then checks matching and deadlock only). */
static inline bool lb_movement(const struct lb_case *c) { return c->alg->coll >= COLIBRI_ALLGATHER; }

/* Gather(v) and scatter(v): the root's p blocks, every rank's own.  Gather:
 * rank i's block of `block` bytes (gatherv: counts[i]) is lb_byte(call, i,
 * 0, t), the root's output the p blocks (v: at the `displs` layout's
 * places); scatter: the root's block j is lb_byte(call, root, j, t), rank
 * j's output.  Only the root is in place (its own block in its p-block
 * buffer, which SEND and RECV then both are); the others' buffer of the
 * root's side is empty. */
static inline bool lb_rooted(const struct lb_case *c)
{
    const colibri_coll k = c->alg->coll;
    return k == COLIBRI_GATHER || k == COLIBRI_GATHERV || k == COLIBRI_SCATTER ||
           k == COLIBRI_SCATTERV;
}
static inline bool lb_gathers(const struct lb_case *c)
{
    return c->alg->coll == COLIBRI_GATHER || c->alg->coll == COLIBRI_GATHERV;
}
static inline bool lb_v(const struct lb_case *c)
{
    return c->alg->coll == COLIBRI_GATHERV || c->alg->coll == COLIBRI_SCATTERV ||
           c->alg->coll == COLIBRI_ALLGATHERV;
}

#define LB_FLAGS 8 /* flags per rank of a node */

#define LB_GAP 3
#define LB_GUARD 0xEE

static inline uint8_t lb_byte(int call, int src, int dst, int64_t t)
{
    return (uint8_t)(src * 131 + dst * 31 + t * 7 + 1 + call * 101);
}

struct lb_msg {
    uint8_t *data;
    int64_t len;
    uint64_t *know; /* barrier: its sender's knowledge when posted */
};

struct lb_chan { /* messages from one rank to another, in order */
    struct lb_msg *msgs;
    int64_t n_sent, cap, n_recv_posted;
};

struct lb_rank {
    struct sched_params sp;
    int64_t *sc, *sd, *rc, *rd;
    struct schedule s;
    uint8_t *sendbuf, *recvbuf, *tmp[2];
    int64_t send_len, recv_len, tmp_len[2];
    uint32_t round, local; /* local: next local op of a completed round */
    int idle_resumes, call;
    uint64_t epoch;
    bool posted, arrived, done; /* arrived: the posted round's messages are in */
    bool shm_wait; /* waiting for its node's other ranks to grow the segment */
    int64_t *seq; /* channel sequence number of each op of the posted round */
    uint64_t *know; /* barrier: the ranks it has heard from (lb_world.words) */
};

struct lb_world {
    int p;
    struct lb_rank *r;
    struct lb_chan *ch; /* p*p, [src*p+dst] */
    uint8_t **shm;      /* per node */
    int64_t *shm_len;
    uint64_t **flags;   /* per node, LB_FLAGS per rank of it */
    int64_t *nflags;
    char *err;
    size_t errlen;
    int64_t slot_bytes; /* the reduction segment's slots (0: growable segment) */
    int words;          /* barrier knowledge: 64-bit words per set of ranks (0: not tracked) */
    uint64_t **flag_know; /* per node, `words` per flag */
};

/* a's cost function with only a (rounds) or only b (bytes) set. */
static inline double lb_cost(const struct algorithm *a, const struct sched_params *sp,
                             double alpha, double beta)
{
    struct cost_params m = {.alpha = alpha, .beta = beta};
    return a->cost(sp, &m);
}

/* The catalog's algorithm `name` of coll; a missing one ends the test. */
static inline const struct algorithm *lb_alg(colibri_coll coll, const char *name)
{
    const struct algorithm *a = catalog_find(coll, name);
    if (!a) {
        printf("missing from the catalog: %s %s\n", colibri_coll_name(coll), name);
        exit(1);
    }
    return a;
}

static int lb_fail(struct lb_world *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (w->err[0] == '\0')
        vsnprintf(w->err, w->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int lb_node(const struct lb_world *w, const struct lb_rank *r)
{
    return r->sp.layout ? r->sp.layout->node_of[r->sp.rank] : 0;
}

/* The slot an op of use u addresses (schedule.h: SOP_SLOT bits), 0 when
 * it is not slot-relative or the segment has no slots. */
static int64_t lb_slot(const struct lb_world *w, const struct lb_rank *r, unsigned flags)
{
    const unsigned rel = (flags & SOP_SLOT_MASK) >> SOP_SLOT_SHIFT;
    return w->slot_bytes && rel ? (int64_t)((r->epoch + rel - 1) % NODE_SLOTS) : 0;
}

/* The memory an op touches, bounds-checked. */
static uint8_t *lb_at(struct lb_world *w, struct lb_rank *r, int buf, int64_t off, int64_t len)
{
    uint8_t *base;
    int64_t have;
    switch (buf) {
    case BUF_SEND: base = r->sendbuf, have = r->send_len; break;
    case BUF_RECV: base = r->recvbuf, have = r->recv_len; break;
    case BUF_TMP:
    case BUF_TMP2: base = r->tmp[buf - BUF_TMP], have = r->tmp_len[buf - BUF_TMP]; break;
    case BUF_SHM: base = w->shm[lb_node(w, r)], have = w->shm_len[lb_node(w, r)]; break;
    default: lb_fail(w, "rank %d: bad buffer %d", r->sp.rank, buf); return NULL;
    }
    if (off < 0 || len < 0 || off + len > have) {
        lb_fail(w, "rank %d round %u: buffer %d access [%lld, %lld) outside [0, %lld)", r->sp.rank,
                r->round, buf, (long long)off, (long long)(off + len), (long long)have);
        return NULL;
    }
    return base ? base + off : (uint8_t *)r; /* zero-length: any non-NULL pointer */
}

/* lb_at for op's side (buf, off): a slot-relative segment offset lands in
 * its use's slot. */
static uint8_t *lb_op_at(struct lb_world *w, struct lb_rank *r, const struct sched_op *op, int buf,
                         int64_t off, int64_t len)
{
    if (buf == BUF_SHM)
        off += lb_slot(w, r, op->flags) * w->slot_bytes;
    return lb_at(w, r, buf, off, len);
}

static int lb_grow(uint8_t **b, int64_t *have, int64_t need, bool keep)
{
    if (need <= *have)
        return 0;
    uint8_t *n = keep ? realloc(*b, (size_t)need) : malloc((size_t)need);
    if (!n)
        return -1;
    if (!keep) {
        free(*b);
        memset(n, 0xAB, (size_t)need); /* grown shared segments keep nothing */
    } else {
        memset(n + *have, 0xAB, (size_t)(need - *have));
    }
    *b = n;
    *have = need;
    return 0;
}

/* Binds the buffers a rank's schedule declared so far, as the executor
 * does before each round (not before a resume): 1 done, 0 must wait, -1 error.
 * Growing the shared segment is collective over the node (every rank of it
 * asks for the same size at the same point) and loses its contents, so it
 * happens only once all of them ask. */
static int lb_bind(struct lb_world *w, struct lb_rank *r)
{
    for (int i = 0; i < 2; i++)
        if (lb_grow(&r->tmp[i], &r->tmp_len[i], r->s.tmp_count[i], true))
            return lb_fail(w, "out of memory");
    int node = lb_node(w, r);
    if (r->s.shm_bytes <= w->shm_len[node])
        return 1;
    r->shm_wait = true;
    const struct node_layout *l = r->sp.layout;
    int first = l ? l->node_start[node] : 0, last = l ? l->node_start[node + 1] : w->p;
    for (int q = first; q < last; q++) {
        const struct lb_rank *o = &w->r[l ? l->node_ranks[q] : q];
        if (!o->shm_wait)
            return 0;
        if (o->s.shm_bytes != r->s.shm_bytes)
            return lb_fail(w, "rank %d grows the shared segment to %lld bytes, rank %d to %lld",
                           r->sp.rank, (long long)r->s.shm_bytes, o->sp.rank,
                           (long long)o->s.shm_bytes);
    }
    if (lb_grow(&w->shm[node], &w->shm_len[node], r->s.shm_bytes, false))
        return lb_fail(w, "out of memory");
    for (int q = first; q < last; q++)
        w->r[l ? l->node_ranks[q] : q].shm_wait = false;
    return 1;
}

/* Posts the rank's current round; returns -1 on error. */
static int lb_post(struct lb_world *w, struct lb_rank *r)
{
    const struct sched_round *rd = &r->s.rounds[r->round];
    free(r->seq);
    r->seq = calloc(rd->n_ops ? rd->n_ops : 1, sizeof *r->seq);
    if (!r->seq)
        return lb_fail(w, "out of memory");
    for (uint32_t i = 0; i < rd->n_ops; i++) {
        const struct sched_op *op = &r->s.ops[rd->first_op + i];
        if (op->kind != SOP_SEND && op->kind != SOP_RECV)
            continue;
        if (op->peer < 0 || op->peer >= w->p)
            return lb_fail(w, "rank %d: peer %d out of range", r->sp.rank, op->peer);
        uint8_t *mem = lb_op_at(w, r, op, op->src_buf, op->src_off, op->count);
        if (!mem)
            return -1;
        if (op->kind == SOP_RECV) {
            struct lb_chan *c = &w->ch[op->peer * w->p + r->sp.rank];
            r->seq[i] = c->n_recv_posted++;
            continue;
        }
        struct lb_chan *c = &w->ch[r->sp.rank * w->p + op->peer];
        if (c->n_sent == c->cap) {
            c->cap = c->cap ? 2 * c->cap : 8;
            c->msgs = realloc(c->msgs, (size_t)c->cap * sizeof *c->msgs);
            if (!c->msgs)
                return lb_fail(w, "out of memory");
        }
        struct lb_msg *m = &c->msgs[c->n_sent];
        m->len = op->count;
        m->data = malloc(op->count ? (size_t)op->count : 1);
        if (!m->data)
            return lb_fail(w, "out of memory");
        memcpy(m->data, mem, (size_t)op->count);
        m->know = NULL;
        if (w->words) {
            m->know = malloc((size_t)w->words * sizeof *m->know);
            if (!m->know)
                return lb_fail(w, "out of memory");
            memcpy(m->know, r->know, (size_t)w->words * sizeof *m->know);
        }
        r->seq[i] = c->n_sent++;
    }
    /* A receive may not overlap anything else the round sends or receives:
     * MPI forbids touching a buffer a pending operation owns. */
    for (uint32_t i = 0; i < rd->n_ops; i++) {
        const struct sched_op *a = &r->s.ops[rd->first_op + i];
        if (a->kind != SOP_RECV || a->count == 0)
            continue;
        for (uint32_t k = 0; k < rd->n_ops; k++) {
            const struct sched_op *b = &r->s.ops[rd->first_op + k];
            if (k == i || (b->kind != SOP_SEND && b->kind != SOP_RECV) || b->count == 0)
                continue;
            int ba = a->src_buf == BUF_SEND && r->sp.in_place ? BUF_RECV : a->src_buf;
            int bb = b->src_buf == BUF_SEND && r->sp.in_place ? BUF_RECV : b->src_buf;
            if (ba == bb && a->src_off < b->src_off + b->count && b->src_off < a->src_off + a->count)
                return lb_fail(w, "rank %d round %u: receive into buffer %d [%lld, %lld) overlaps "
                               "a %s of the same round", r->sp.rank, r->round, ba,
                               (long long)a->src_off, (long long)(a->src_off + a->count),
                               b->kind == SOP_SEND ? "send" : "receive");
        }
    }
    r->posted = true;
    return 0;
}

/* The node flag an op addresses, bounds-checked (NULL: error); *k its
 * knowledge where tracked. */
static uint64_t *lb_flag(struct lb_world *w, struct lb_rank *r, const struct sched_op *op,
                         int64_t idx, uint64_t **k)
{
    int node = lb_node(w, r);
    if (w->slot_bytes) {
        const struct node_layout *l = r->sp.layout;
        const int L = l->node_start[node + 1] - l->node_start[node];
        if (idx < 0 || idx >= node_slot_flags(L)) {
            lb_fail(w, "rank %d round %u: flag %lld outside a slot's %d", r->sp.rank, r->round,
                    (long long)idx, node_slot_flags(L));
            return NULL;
        }
        idx += lb_slot(w, r, op->flags) * node_slot_flags(L);
    }
    if (k)
        *k = w->words ? w->flag_know[node] + idx * w->words : NULL;
    if (idx < 0 || idx >= w->nflags[node]) {
        lb_fail(w, "rank %d round %u: flag %lld outside [0, %lld)", r->sp.rank, r->round,
                (long long)idx, (long long)w->nflags[node]);
        return NULL;
    }
    return &w->flags[node][idx];
}

/* Completes the posted round if it can: 1 done or progress, 0 must wait,
 * -1 error. */
static int lb_complete(struct lb_world *w, struct lb_rank *r)
{
    const struct sched_round *rd = &r->s.rounds[r->round];
    struct sched_op *ops = &r->s.ops[rd->first_op];
    for (uint32_t i = 0; i < rd->n_ops && !r->arrived; i++) {
        if (ops[i].kind == SOP_RECV && w->ch[ops[i].peer * w->p + r->sp.rank].n_sent <= r->seq[i])
            return 0;
        if (ops[i].kind == SOP_SEND &&
            w->ch[r->sp.rank * w->p + ops[i].peer].n_recv_posted <= r->seq[i])
            return 0;
    }
    for (uint32_t i = 0; i < rd->n_ops && !r->arrived; i++) {
        struct sched_op *op = &ops[i];
        if (op->kind != SOP_RECV)
            continue;
        struct lb_msg *m = &w->ch[op->peer * w->p + r->sp.rank].msgs[r->seq[i]];
        /* SOP_UPTO: at most count bytes; what arrived becomes the count, as
         * the executor records it (MPI_Get_count) */
        if ((op->flags & SOP_UPTO) && m->len <= op->count)
            op->count = m->len;
        if (m->len != op->count)
            return lb_fail(w, "rank %d round %u: receives %lld bytes from %d, which sent %lld",
                           r->sp.rank, r->round, (long long)op->count, op->peer,
                           (long long)m->len);
        uint8_t *dst = lb_op_at(w, r, op, op->dst_buf, op->dst_off, op->count);
        if (!dst)
            return -1;
        memcpy(dst, m->data, (size_t)m->len);
        for (int q = 0; q < w->words; q++)
            r->know[q] |= m->know[q];
    }
    const bool arrived = r->arrived;
    const uint32_t first_local = r->local;
    r->arrived = true;
    for (; r->local < rd->n_ops; r->local++) {
        const struct sched_op *op = &ops[r->local];
        if (op->kind == SOP_REDUCE)
            return lb_fail(w, "rank %d: reduction in a data-movement schedule", r->sp.rank);
        if (op->kind == SOP_FLAG_SET || op->kind == SOP_FLAG_WAIT) {
            uint64_t *k;
            uint64_t *f =
                lb_flag(w, r, op, op->kind == SOP_FLAG_SET ? op->dst_off : op->src_off, &k);
            if (!f)
                return -1;
            if (op->kind == SOP_FLAG_SET) {
                *f = r->epoch + (uint64_t)op->count;
                if (k)
                    memcpy(k, r->know, (size_t)w->words * sizeof *k);
            } else if (!(op->count < 0 && (uint64_t)-op->count >= r->epoch) &&
                       *f < r->epoch + (uint64_t)op->count) {
                return !arrived || r->local != first_local; /* blocked: progress? */
            } else if (k) {
                for (int q = 0; q < w->words; q++)
                    r->know[q] |= k[q];
            }
            continue;
        }
        if (op->kind != SOP_COPY)
            continue;
        uint8_t *src = lb_op_at(w, r, op, op->src_buf, op->src_off, op->count);
        uint8_t *dst = lb_op_at(w, r, op, op->dst_buf, op->dst_off, op->count);
        if (!src || !dst)
            return -1;
        memmove(dst, src, (size_t)op->count);
    }
    r->posted = false;
    r->arrived = false;
    r->local = 0;
    r->round++;
    return 1;
}

static int64_t lb_count(const struct lb_case *c, int i, int j)
{
    if (lb_v(c))
        return c->counts[i];
    if (!c->counts)
        return c->block;
    if (c->in_place && i > j) /* symmetric: the upper triangle both ways */
        return c->counts[j * c->p + i];
    return c->counts[i * c->p + j];
}

/* Byte counts and offsets of one side of rank i (send: to each j; receive:
 * from each j), laid out per the case; returns the span. */
static int64_t lb_layout(const struct lb_case *c, int i, bool send, int64_t *cnt, int64_t *dsp)
{
    int p = c->p;
    for (int j = 0; j < p; j++)
        cnt[j] = send ? lb_count(c, i, j) : lb_count(c, j, i);
    int64_t off = 0;
    for (int k = 0; k < p; k++) {
        int j = c->displs == LB_REVERSED ? p - 1 - k : k;
        dsp[j] = off;
        off += cnt[j] + (c->displs == LB_REVERSED ? LB_GAP : 0);
    }
    return off;
}

static int lb_gcd(int a, int b) { return b ? lb_gcd(b, a % b) : a; }

/* The root's block j: its bytes and its offset in the root's p-block buffer. */
static int64_t lb_root_count(const struct lb_case *c, const struct lb_rank *r, int j)
{
    return lb_v(c) ? r->rc[j] : c->block;
}
static int64_t lb_root_off(const struct lb_case *c, const struct lb_rank *r, int j)
{
    return lb_v(c) ? r->rd[j] : j * c->block;
}

/* Fills rank i's buffers for call `call` and builds its schedule. */
static int lb_start(struct lb_world *w, const struct lb_case *c, int i, int call)
{
    struct lb_rank *r = &w->r[i];
    const int p = c->p;
    sched_free(&r->s);
    sched_init(&r->s);
    memset(r->recvbuf, LB_GUARD, (size_t)r->recv_len);
    if (!r->sp.in_place)
        memset(r->sendbuf, LB_GUARD, (size_t)r->send_len);
    if (lb_rooted(c) && lb_gathers(c))
        for (int64_t t = 0; t < r->sp.count; t++)
            (r->sp.in_place ? r->recvbuf + lb_root_off(c, r, i) : r->sendbuf)[t] =
                lb_byte(call, i, 0, t);
    for (int j = 0; j < p && lb_rooted(c) && !lb_gathers(c) && i == c->root; j++)
        for (int64_t t = 0; t < lb_root_count(c, r, j); t++)
            r->sendbuf[lb_root_off(c, r, j) + t] = lb_byte(call, i, j, t);
    if (c->alg->coll == COLIBRI_ALLGATHER)
        for (int64_t t = 0; t < c->block; t++)
            (c->in_place ? r->recvbuf + i * c->block : r->sendbuf)[t] = lb_byte(call, i, 0, t);
    if (c->alg->coll == COLIBRI_ALLGATHERV)
        for (int64_t t = 0; t < r->rc[i]; t++)
            (c->in_place ? r->recvbuf + r->rd[i] : r->sendbuf)[t] = lb_byte(call, i, 0, t);
    if (c->alg->coll == COLIBRI_BCAST && i == c->root)
        for (int64_t t = 0; t < c->block; t++)
            r->recvbuf[t] = lb_byte(call, i, 0, t);
    for (int j = 0; j < p && !lb_movement(c); j++) {
        int64_t off = c->counts ? (c->in_place ? r->rd[j] : r->sd[j]) : j * c->block;
        for (int64_t t = 0; t < lb_count(c, i, j); t++)
            r->sendbuf[off + t] = lb_byte(call, i, j, t);
    }
    if (w->words) {
        memset(r->know, 0, (size_t)w->words * sizeof *r->know);
        r->know[i / 64] = 1ull << (i % 64);
    }
    r->call = call;
    r->round = r->local = 0;
    r->posted = r->arrived = r->done = false;
    r->idle_resumes = 0;
    if (c->alg->build(&r->sp, &r->s) != 0 || r->s.oom)
        return lb_fail(w, "rank %d: build failed", i);
    return 0;
}

/* Rank i's received blocks of its current call, the guard bytes around
 * them and its untouched send buffer. */
static int lb_check(struct lb_world *w, const struct lb_case *c, int i)
{
    struct lb_rank *r = &w->r[i];
    const int p = c->p;
    int rc = 0;
    uint8_t *want = malloc(r->recv_len ? (size_t)r->recv_len : 1);
    if (!want)
        return lb_fail(w, "out of memory");
    memset(want, LB_GUARD, (size_t)r->recv_len);
    for (int j = 0; j < p && c->alg->coll == COLIBRI_ALLGATHER; j++)
        for (int64_t t = 0; t < c->block; t++)
            want[j * c->block + t] = lb_byte(r->call, j, 0, t);
    for (int j = 0; j < p && c->alg->coll == COLIBRI_ALLGATHERV; j++)
        for (int64_t t = 0; t < r->rc[j]; t++)
            want[r->rd[j] + t] = lb_byte(r->call, j, 0, t);
    for (int64_t t = 0; c->alg->coll == COLIBRI_BCAST && t < c->block; t++)
        want[t] = lb_byte(r->call, c->root, 0, t);
    if (lb_rooted(c)) { /* gather: the root's p blocks; scatter: the own block */
        const bool g = lb_gathers(c), all = g || r->sp.in_place;
        for (int j = 0; j < p && all && i == c->root; j++)
            for (int64_t t = 0; t < lb_root_count(c, r, j); t++)
                want[lb_root_off(c, r, j) + t] = lb_byte(r->call, g ? j : i, g ? 0 : j, t);
        for (int64_t t = 0; !all && t < r->sp.count; t++)
            want[t] = lb_byte(r->call, c->root, i, t);
    }
    for (int j = 0; j < p && !lb_movement(c); j++) {
        int64_t off = c->counts ? r->rd[j] : j * c->block;
        for (int64_t t = 0; t < lb_count(c, j, i); t++)
            want[off + t] = lb_byte(r->call, j, i, t);
    }
    for (int64_t b = 0; b < r->recv_len; b++)
        if (r->recvbuf[b] != want[b]) {
            rc = lb_fail(w, "rank %d call %d: receive buffer byte %lld is 0x%02x, want 0x%02x", i,
                         r->call, (long long)b, r->recvbuf[b], want[b]);
            break;
        }
    free(want);
    for (int q = 0; q < p && rc == 0 && w->words; q++)
        if (!(r->know[q / 64] >> (q % 64) & 1))
            rc = lb_fail(w, "rank %d call %d leaves the barrier without having heard from rank %d",
                         i, r->call, q);
    const int64_t mine = c->alg->coll == COLIBRI_ALLGATHERV ? r->rc[i] : c->block;
    /* the root's send buffer of a scatter, every byte */
    for (int j = 0; j < p && rc == 0 && lb_rooted(c) && !lb_gathers(c) && i == c->root &&
                    !r->sp.in_place; j++)
        for (int64_t t = 0; t < lb_root_count(c, r, j); t++)
            if (r->sendbuf[lb_root_off(c, r, j) + t] != lb_byte(r->call, i, j, t)) {
                rc = lb_fail(w, "root %d: send buffer written at byte %lld", i,
                             (long long)(lb_root_off(c, r, j) + t));
                break;
            }
    for (int64_t t = 0; rc == 0 && lb_rooted(c) && lb_gathers(c) && !r->sp.in_place &&
                        t < r->sp.count; t++)
        if (r->sendbuf[t] != lb_byte(r->call, i, 0, t))
            rc = lb_fail(w, "rank %d: send buffer written at byte %lld", i, (long long)t);
    for (int64_t t = 0; rc == 0 && (c->alg->coll == COLIBRI_ALLGATHER ||
                                    c->alg->coll == COLIBRI_ALLGATHERV) && !c->in_place &&
                        t < mine; t++)
        if (r->sendbuf[t] != lb_byte(r->call, i, 0, t))
            rc = lb_fail(w, "rank %d: send buffer written at byte %lld", i, (long long)t);
    for (int j = 0; j < p && rc == 0 && !c->in_place && !lb_movement(c); j++) {
        int64_t off = c->counts ? r->sd[j] : j * c->block;
        for (int64_t t = 0; t < lb_count(c, i, j); t++)
            if (r->sendbuf[off + t] != lb_byte(r->call, i, j, t)) {
                rc = lb_fail(w, "rank %d: send buffer written at byte %lld", i,
                             (long long)(off + t));
                break;
            }
    }
    return rc;
}

/* One step of a rank: 1 progress, 0 blocked, -1 error.  A rank that ends
 * a call checks it and starts the next (costs: its first call's). */
static int lb_step(struct lb_world *w, const struct lb_case *c, struct lb_rank *r,
                   struct sched_cost *costs)
{
    if (r->done)
        return 0;
    if (r->posted)
        return lb_complete(w, r);
    if (r->round == r->s.n_rounds) {
        if (!r->s.resume) {
            const int i = r->sp.rank, calls = c->calls > 1 ? c->calls : 1;
            if (lb_check(w, c, i) != 0)
                return -1;
            if (costs && r->call == 0)
                sched_cost(&r->s, 1, &costs[i]);
            if (r->call + 1 == calls) {
                r->done = true;
                return 1;
            }
            r->epoch += (uint64_t)r->s.shm_epochs;
            return lb_start(w, c, i, r->call + 1) == 0 ? 1 : -1;
        }
        for (int i = 0; i < 2; i++) /* resume may write scratch it declared */
            if (lb_grow(&r->tmp[i], &r->tmp_len[i], r->s.tmp_count[i], true))
                return lb_fail(w, "out of memory");
        void *buf[BUF_NBUFS] = {r->sendbuf, r->recvbuf, r->tmp[0], r->tmp[1],
                                w->shm[lb_node(w, r)]};
        uint32_t before = r->s.n_rounds;
        if (r->s.resume(&r->s, buf) != 0 || r->s.oom)
            return lb_fail(w, "rank %d: resume failed", r->sp.rank);
        /* A resume may add nothing (a phase with no data); one that keeps
         * doing so never ends. */
        r->idle_resumes = r->s.n_rounds == before ? r->idle_resumes + 1 : 0;
        if (r->idle_resumes > 64)
            return lb_fail(w, "rank %d: resume adds no round, 64 times running", r->sp.rank);
        return 1;
    }
    int b = lb_bind(w, r);
    if (b <= 0)
        return b;
    return lb_post(w, r) == 0 ? 1 : -1;
}

static int lb_run(const struct lb_case *c, struct sched_cost *costs, char *err, size_t errlen)
{
    int p = c->p, rc = 0;
    err[0] = '\0';
    struct lb_world w = {p, calloc((size_t)p, sizeof(struct lb_rank)),
                         calloc((size_t)p * p, sizeof(struct lb_chan)), NULL, NULL, NULL, NULL,
                         err, errlen, 0, 0, NULL};
    int nodes = c->layout ? c->layout->n_nodes : 1;
    w.shm = calloc((size_t)nodes, sizeof *w.shm);
    w.shm_len = calloc((size_t)nodes, sizeof *w.shm_len);
    w.flags = calloc((size_t)nodes, sizeof *w.flags);
    w.nflags = calloc((size_t)nodes, sizeof *w.nflags);
    if (!w.r || !w.ch || !w.shm || !w.shm_len || !w.flags || !w.nflags) {
        rc = lb_fail(&w, "out of memory");
        goto out;
    }
    if (c->node_chunk > 0 && c->layout)
        w.slot_bytes =
            (int64_t)(node_max_ranks(c->layout->n_nodes, c->layout->node_start) + 1) * c->node_chunk;
    w.words = c->alg->coll == COLIBRI_BARRIER ? (p + 63) / 64 : 0;
    w.flag_know = calloc((size_t)nodes, sizeof *w.flag_know);
    if (!w.flag_know) {
        rc = lb_fail(&w, "out of memory");
        goto out;
    }
    for (int n = 0; n < nodes; n++) {
        const int L = c->layout ? c->layout->node_start[n + 1] - c->layout->node_start[n] : p;
        w.nflags[n] = w.slot_bytes ? NODE_SLOTS * node_slot_flags(L) : LB_FLAGS * L;
        w.flags[n] = calloc((size_t)w.nflags[n], sizeof **w.flags);
        w.flag_know[n] = calloc((size_t)w.nflags[n] * (size_t)w.words + 1, sizeof **w.flag_know);
        if (!w.flags[n] || !w.flag_know[n]) {
            rc = lb_fail(&w, "out of memory");
            goto out;
        }
    }
    for (int i = 0; i < p; i++) {
        struct lb_rank *r = &w.r[i];
        sched_init(&r->s);
        r->epoch = 1;
        r->sc = malloc((size_t)p * 4 * sizeof(int64_t));
        r->know = calloc((size_t)w.words + 1, sizeof *r->know);
        if (!r->sc || !r->know) {
            rc = lb_fail(&w, "out of memory");
            goto out;
        }
        r->sd = r->sc + p, r->rc = r->sc + 2 * p, r->rd = r->sc + 3 * p;
        int64_t ss = lb_layout(c, i, true, r->sc, r->sd);
        int64_t rs = lb_layout(c, i, false, r->rc, r->rd);
        if (!c->counts) /* alltoall: blocks j * block, both sides */
            ss = rs = c->block * p;
        if (c->alg->coll == COLIBRI_ALLGATHERV)
            ss = r->rc[i];
        else if (lb_movement(c)) {
            ss = c->alg->coll == COLIBRI_ALLGATHER ? c->block : 0;
            rs = c->alg->coll == COLIBRI_ALLGATHER ? c->block * p
                 : c->alg->coll == COLIBRI_BCAST   ? c->block
                                                   : 0;
        }
        bool shared = c->in_place || c->alg->coll == COLIBRI_BCAST ||
                      c->alg->coll == COLIBRI_BARRIER;
        if (lb_rooted(c)) { /* the root's p blocks, a rank's own */
            const bool root = i == c->root, g = lb_gathers(c);
            const int64_t span = lb_layout(c, i, false, r->rc, r->rd);
            const int64_t many = root ? (lb_v(c) ? span : c->block * p) : 0;
            const int64_t own = lb_v(c) ? c->counts[i] : c->block;
            shared = c->in_place && root;
            rs = g || shared ? many : own;
            ss = g ? own : many;
        }
        r->recv_len = rs;
        r->recvbuf = malloc(rs ? (size_t)rs : 1);
        if (!r->recvbuf) {
            rc = lb_fail(&w, "out of memory");
            goto out;
        }
        if (shared) {
            r->sendbuf = r->recvbuf, r->send_len = rs;
        } else {
            r->send_len = ss;
            r->sendbuf = malloc(ss ? (size_t)ss : 1);
            if (!r->sendbuf) {
                rc = lb_fail(&w, "out of memory");
                goto out;
            }
        }
        r->sp.rank = i;
        r->sp.size = p;
        r->sp.count = c->block;
        r->sp.root = c->root;
        r->sp.elem_size = 1;
        r->sp.in_place = c->in_place;
        r->sp.radix = c->radix;
        r->sp.segment = c->segment;
        r->sp.layout = c->layout;
        r->sp.node_chunk = c->node_chunk;
        r->sp.inner = c->inner ? c->inner->build : NULL;
        r->sp.sizes_out = c->sizes ? c->sizes + 3 * (int64_t)i : NULL;
        if (c->counts) {
            r->sp.scounts = c->in_place ? r->rc : r->sc;
            r->sp.sdispls = c->in_place ? r->rd : r->sd;
            r->sp.rcounts = r->rc;
            r->sp.rdispls = r->rd;
        }
        if (lb_rooted(c)) {
            const bool root = i == c->root;
            r->sp.in_place = c->in_place && root;
            r->sp.count = lb_v(c) ? c->counts[i] : c->block;
            r->sp.scounts = r->sp.sdispls = r->sp.rcounts = r->sp.rdispls = NULL;
            if (root && c->alg->coll == COLIBRI_GATHERV)
                r->sp.rcounts = r->rc, r->sp.rdispls = r->rd;
            if (root && c->alg->coll == COLIBRI_SCATTERV)
                r->sp.scounts = r->rc, r->sp.sdispls = r->rd;
        }
        if (c->alg->coll == COLIBRI_ALLGATHERV) {
            r->sp.count = r->sp.volume_max = 0;
            for (int j = 0; j < p; j++) {
                r->sp.count += r->rc[j];
                r->sp.volume_max = r->rc[j] > r->sp.volume_max ? r->rc[j] : r->sp.volume_max;
            }
        }
        if (lb_start(&w, c, i, 0) != 0) {
            rc = -1;
            goto out;
        }
    }
    /* As the runtime binds it (runtime/executor.c): the segment grows to what
     * the schedules ask for before their first resume or round, collectively
     * over the node (every rank of it asks for the same size). */
    for (int n = 0; c->layout && n < nodes; n++) {
        const struct lb_rank *first = &w.r[c->layout->node_ranks[c->layout->node_start[n]]];
        for (int q = c->layout->node_start[n] + 1; q < c->layout->node_start[n + 1]; q++)
            if (w.r[c->layout->node_ranks[q]].s.shm_bytes != first->s.shm_bytes) {
                rc = lb_fail(&w, "ranks %d and %d of a node ask for different segments at the start",
                             first->sp.rank, c->layout->node_ranks[q]);
                goto out;
            }
        const int64_t need = w.slot_bytes ? NODE_SLOTS * w.slot_bytes : first->s.shm_bytes;
        if (lb_grow(&w.shm[n], &w.shm_len[n], need, false)) {
            rc = lb_fail(&w, "out of memory");
            goto out;
        }
    }

    /* Sweep k steps every rank: each as far as it goes, then once each
     * ascending, descending, and with a stride coprime to p from a moving
     * start. */
    static const int strides[] = {7, 5, 3, 11, 13};
    bool slow_turn = false;
    for (unsigned k = 0;; k++) {
        int progress = 0, done = 0, stride = 1, start = 0;
        const bool ahead = k % 4 == 0;
        if (k % 4 == 3) {
            stride = strides[(k / 3) % 5];
            if (lb_gcd(stride, p) != 1)
                stride = 1;
            start = (int)(k % (unsigned)p);
        }
        for (int n = 0; n < p; n++) {
            int i = k % 4 == 2 ? p - 1 - n : (int)((start + (int64_t)n * stride) % p);
            if (c->order)
                i = c->order[n];
            const bool slow = c->starve && i == c->slow;
            if (slow && !slow_turn)
                continue;
            for (int s = 1, steps = 0; s > 0 && (!steps || (!slow && (ahead || c->order)));
                 steps++) {
                s = lb_step(&w, c, &w.r[i], costs);
                if (s < 0) {
                    rc = -1;
                    goto out;
                }
                progress += s;
            }
        }
        for (int i = 0; i < p; i++)
            done += w.r[i].done;
        if (done == p)
            break;
        const bool was_slow_turn = slow_turn;
        slow_turn = c->starve && !progress && !was_slow_turn;
        if (!progress && !slow_turn) {
            for (int i = 0; i < p; i++)
                if (!w.r[i].done) {
                    rc = lb_fail(&w, "deadlock: rank %d waits in round %u of %u (call %d)", i,
                                 w.r[i].round, w.r[i].s.n_rounds, w.r[i].call);
                    goto out;
                }
        }
    }
    for (int i = 0; i < p && rc == 0 && c->layout; i++) {
        const struct lb_rank *r = &w.r[i], *first = &w.r[c->layout->node_ranks[c->layout->node_start[lb_node(&w, r)]]];
        if (r->s.shm_bytes != first->s.shm_bytes)
            rc = lb_fail(&w, "rank %d asks for a %lld-byte segment, rank %d of its node for %lld", i,
                         (long long)r->s.shm_bytes, first->sp.rank, (long long)first->s.shm_bytes);
    }
out:
    for (int i = 0; w.r && i < p; i++) {
        struct lb_rank *r = &w.r[i];
        sched_free(&r->s);
        if (r->sendbuf != r->recvbuf)
            free(r->sendbuf);
        free(r->recvbuf);
        free(r->tmp[0]);
        free(r->tmp[1]);
        free(r->seq);
        free(r->sc);
        free(r->know);
    }
    for (int i = 0; w.ch && i < p * p; i++) {
        for (int64_t m = 0; m < w.ch[i].n_sent; m++)
            free(w.ch[i].msgs[m].data), free(w.ch[i].msgs[m].know);
        free(w.ch[i].msgs);
    }
    for (int n = 0; w.shm && n < nodes; n++)
        free(w.shm[n]);
    for (int n = 0; w.flags && n < nodes; n++)
        free(w.flags[n]);
    for (int n = 0; w.flag_know && n < nodes; n++)
        free(w.flag_know[n]);
    free(w.flag_know);
    free(w.flags);
    free(w.nflags);
    free(w.shm);
    free(w.shm_len);
    free(w.r);
    free(w.ch);
    return rc;
}

#endif
