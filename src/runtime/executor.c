/*
 * The executor: binds a schedule's logical buffers to memory and runs it over
 * MPI point-to-point on the communicator's private duplicate.
 *
 * Each round posts every receive before any send (so rendezvous sends find
 * their receive), waits for all of them, then applies the round's local
 * operations in order.  A message longer than INT_MAX elements is split into
 * chunks on both sides by the same rule, so any MPI_Count works on MPIs
 * without large-count point-to-point.
 */
#include <limits.h>
#include <sched.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "state/engines.h"
#include "executor.h"
#include "shm_charge.h"
#ifdef COLIBRI_SMPI
#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/mutex.h>
#endif


static void *at(void *base, int64_t off, const struct dtinfo *d)
{
    return (char *)base + off * d->extent;
}

static int copy_elems(const void *src, void *dst, int64_t count, MPI_Datatype dt,
                      const struct dtinfo *d)
{
    if (d->contiguous) {
        memmove(dst, src, (size_t)count * (size_t)d->extent);
        return MPI_SUCCESS;
    }
    /* Non-contiguous: let MPI move exactly the type map, never the gaps. */
    for (int64_t done = 0; done < count; done += SCHED_CHUNK) {
        int n = (int)(count - done < SCHED_CHUNK ? count - done : SCHED_CHUNK);
        int rc = PMPI_Sendrecv(at((void *)src, done, d), n, dt, 0, 0, at(dst, done, d), n, dt, 0,
                               0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* A copy from the caller's memory into the node's segment, which another
 * core reads next (an input, or a rail's first operand of its slice, which
 * the root copies out): with streaming stores from STREAM_BYTES on
 * (x86-64) where the node is oversubscribed (g->yield), else plain ones.
 * Streaming sends the data to memory instead of leaving it dirty in this
 * core's cache, from where the reader fetches it line by line: the better
 * choice where the reader runs later, on this core or after its lines have
 * left the cache (issue #26 found it 2x faster for Open MPI 5's reduce
 * when a call went through the segment in one piece).  Since the vectors
 * go through in chunks sized to the cache, a reader running at the same
 * time on another core takes the fresh lines from this core's cache
 * faster than from memory: on 2 ranks of this AMD EPYC VM, quiet,
 * node_split_rail allreduce through plain stores took 0.42-0.62x the
 * streamed time from 16 KiB to 4 MiB under Open MPI 5 and 0.77-0.81x from
 * 64 KiB to 4 MiB under Intel MPI, reduce 0.72-0.96x under Open MPI 5
 * (medians of 5-7 alternating runs, 2026-11-27).  Returns false where it did not copy
 * (plain stores wanted, another architecture, a short copy). */
#define STREAM_BYTES (16 * 1024)
static bool stream_copy(const struct node_segment *g, void *dst, const void *src, size_t n)
{
#if defined(__x86_64__)
    if (!g->yield || n < STREAM_BYTES)
        return false;
    char *d = dst;
    const char *s = src;
    const size_t head = (16 - (uintptr_t)d % 16) % 16;
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), a);
        _mm_stream_si128((__m128i *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(d + i + 48), e);
    }
    memcpy(d + i, s + i, n - i);
    /* streaming stores are weakly ordered: before the flag that says so */
    _mm_sfence();
    return true;
#else
    (void)g, (void)dst, (void)src, (void)n;
    return false;
#endif
}

int exec_reduce_local(const struct reducer *r, const void *src, void *dst, int64_t count,
                      const struct dtinfo *d)
{
    if (r->kernel) {
        r->kernel(src, dst, (size_t)count);
        return MPI_SUCCESS;
    }
    for (int64_t done = 0; done < count; done += SCHED_CHUNK) {
        int n = (int)(count - done < SCHED_CHUNK ? count - done : SCHED_CHUNK);
        int rc = PMPI_Reduce_local(at((void *)src, done, d), at(dst, done, d), n, r->dt, r->op);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/*
 * Slots and flags of the node's reduction segment (schedule.h,
 * patterns/node_reduce.h).  An op marked with a use u addresses slot
 * (epoch + u) mod NODE_SLOTS: its BUF_SHM offsets are relative to that
 * slot's data, its flag index to that slot's flags.
 */
/* The epoch of a slot-relative op's use (flags' slot bits nonzero). */
static uint64_t use_epoch(const struct exec *x, unsigned flags)
{
    return x->epoch + ((flags & SOP_SLOT_MASK) >> SOP_SLOT_SHIFT) - 1;
}

static int64_t slot_of(const struct exec *x, unsigned flags)
{
    return flags & SOP_SLOT_MASK ? (int64_t)(use_epoch(x, flags) % NODE_SLOTS) : 0;
}

/* Element `off` of buffer b, as op addresses it: in its use's slot for
 * the segment, whose slots start at fixed bytes whatever the type, and
 * in the slot's region of that use (schedule.h, NODE_REGION_GAP). */
static void *elem_at(const struct exec *x, void *const buf[], const struct sched_op *op, int b,
                     int64_t off)
{
    char *p = buf[b];
    if (b == BUF_SHM && (op->flags & SOP_SLOT_MASK))
        p += slot_of(x, op->flags) * x->c->shm.slot_bytes +
             (int64_t)(use_epoch(x, op->flags) / NODE_SLOTS % x->regions) * x->region_bytes;
    return p + off * x->c->dti.extent;
}

static _Atomic uint64_t *flag_at(const struct exec *x, const struct sched_op *op, int64_t idx)
{
    const struct node_segment *g = &x->c->shm;
    return (_Atomic uint64_t *)(g->flags +
                                (slot_of(x, op->flags) * g->slot_flags + idx) * NODE_FLAG_STRIDE);
}

/* flag_wait waits until the flag holds at least `want`.  Another rank of
 * the node sets it.  After a short spin (the common case, a partner on
 * another core about to store; 128 pauses, about 5 us on x86, a pause
 * being 40-140 cycles) it polls the caller's nonblocking operations at
 * every poll and, only where the node has more of the job's ranks than
 * processors (g->yield, node.c's node_oversubscribed: the rank it waits
 * for may need this core), yields the core; elsewhere it goes on spinning,
 * as the MPI's own waits do: a yield there gave the core to any other busy
 * process for a whole time slice per poll (node.c says how much).  Under SimGrid
 * SMPI the ranks are threads of one simulation that only switch at MPI or
 * simulation calls: a wait sleeps on the node's condition and is charged
 * NODE_HANDOFF_SECONDS of simulated time once woken, the latency of a
 * cache line moving between cores. */
#define NODE_SPINS 128
#define NODE_HANDOFF_SECONDS 5e-8
static bool flag_reached(_Atomic uint64_t *f, uint64_t want)
{
    return atomic_load_explicit(f, memory_order_acquire) >= want;
}

/* What a blocking wait does besides yielding: turn both engines
 * (engines.h): the caller's nonblocking operations, one of which may hold
 * what this wait waits for (its own earlier call on the same slot), and
 * the MPI's, which may have to move a message before the rank that sets
 * the flag gets there. */

#ifdef COLIBRI_SMPI
/* SMPI: the waiter sleeps on the node's SimGrid condition (node.c) until
 * a set wakes it, then is charged one hand-off; polling would cost the
 * simulator a CPU action per poll (a 1024-rank allreduce took minutes). */
static void flag_wait(const struct node_segment *g, _Atomic uint64_t *f, uint64_t want)
{
    if (flag_reached(f, want))
        return;
    sg_mutex_lock(g->sim_mutex);
    while (!flag_reached(f, want)) {
        if (!engines_colibri_busy()) {
            sg_cond_wait(g->sim_cond, g->sim_mutex);
            continue;
        }
        /* nonblocking operations may hold what this waits for: progress
         * them every simulated microsecond */
        sg_mutex_unlock(g->sim_mutex);
        engines_colibri_turn();
        sg_mutex_lock(g->sim_mutex);
        if (!flag_reached(f, want))
            sg_cond_wait_for(g->sim_cond, g->sim_mutex, 1e-6);
    }
    sg_mutex_unlock(g->sim_mutex);
    sg_actor_sleep_for(NODE_HANDOFF_SECONDS);
}

static void flag_set(const struct node_segment *g, _Atomic uint64_t *f, uint64_t v)
{
    atomic_store_explicit(f, v, memory_order_release);
    sg_mutex_lock(g->sim_mutex);
    sg_cond_notify_all(g->sim_cond);
    sg_mutex_unlock(g->sim_mutex);
}
#else
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void flag_wait(const struct node_segment *g, _Atomic uint64_t *f, uint64_t want)
{
    for (unsigned i = 0; !flag_reached(f, want); i++) {
        if (i < NODE_SPINS) {
            cpu_relax();
            continue;
        }
        /* both engines (engines.h): at every poll where the wait yields,
         * every 32nd (about 1-2 us of pauses) where it spins, so that the
         * MPI call does not delay noticing the flag */
        if (g->yield || (i & 31) == 0)
            engines_turn();
        /* the yield only where the node is oversubscribed (g->yield) */
        if (g->yield)
            sched_yield();
        else
            cpu_relax();
    }
}

static void flag_set(const struct node_segment *g, _Atomic uint64_t *f, uint64_t v)
{
    (void)g;
    atomic_store_explicit(f, v, memory_order_release);
}
#endif

static int reduce_op(const struct exec *x, void *const buf[], const struct sched_op *op)
{
    const struct coll_call *c = x->c;
    const struct dtinfo *d = &c->dti;
    void *src = elem_at(x, buf, op, op->src_buf, op->src_off);
    void *dst = elem_at(x, buf, op, op->dst_buf, op->dst_off);
    if (!(op->flags & SOP_DST_IS_LEFT) || c->red.commutative)
        return exec_reduce_local(&c->red, src, dst, op->count, d);
    /* dst = dst (op) src with MPI_Reduce_local's fixed order: combine into the
     * source (always scratch, never the user's input) and move it over. */
    if (op->src_buf == BUF_SEND)
        return MPI_ERR_INTERN;
    int rc = exec_reduce_local(&c->red, dst, src, op->count, d);
    return rc != MPI_SUCCESS ? rc : copy_elems(src, dst, op->count, c->dt, d);
}

/* Binds scratch buffer i to at least `count` elements, keeping its contents
 * (a dynamic schedule may ask for more after data arrived in it). */
static int grow_tmp(const struct dtinfo *d, void *buf[], void *blocks[], int64_t have[], int i,
                    int64_t count)
{
    if (count <= 0)
        return MPI_SUCCESS;
    const int64_t bytes = (int64_t)d->true_extent + (count - 1) * (int64_t)d->extent;
    if (bytes > have[i]) {
        void *b = realloc(blocks[i], bytes ? (size_t)bytes : 1);
        if (!b)
            return MPI_ERR_NO_MEM;
        blocks[i] = b;
        have[i] = bytes;
    }
    buf[BUF_TMP + i] = (char *)blocks[i] - d->true_lb;
    return MPI_SUCCESS;
}

/* Posts a round's receives, then its sends.  req_op[j] gets the index (in
 * ops) of the op request j belongs to, for the SOP_UPTO receives. */
static int post_round(const struct exec *x, void *const buf[], const struct sched_op *ops,
                      uint32_t nops, int tag, MPI_Request *reqs, uint32_t *req_op, int *nreq)
{
    const struct coll_call *c = x->c;
    const struct dtinfo *d = &c->dti;
    int rc = MPI_SUCCESS;
    bool sends = false; /* the first pass saw one: a second pass posts them */
    for (int pass = 0; pass < 1 + sends; pass++) {
        for (uint32_t i = 0; i < nops && rc == MPI_SUCCESS; i++) {
            const struct sched_op *op = &ops[i];
            sends |= op->kind == SOP_SEND;
            if (op->kind != (pass == 0 ? SOP_RECV : SOP_SEND))
                continue;
            const bool bytes = op->flags & SOP_BYTES;
            MPI_Datatype dt = bytes ? MPI_BYTE : c->dt;
            char *base = bytes ? (char *)buf[op->src_buf] + op->src_off
                               : elem_at(x, buf, op, op->src_buf, op->src_off);
            int64_t done = 0;
            do { /* once even for a zero-byte SOP_SYNC message */
                int n = (int)(op->count - done < SCHED_CHUNK ? op->count - done : SCHED_CHUNK);
                void *p = bytes ? base + done : at(base, done, d);
                rc = pass == 0 ? PMPI_Irecv(p, n, dt, op->peer, tag, c->cs->comm, &reqs[*nreq])
                               : PMPI_Isend(p, n, dt, op->peer, tag, c->cs->comm, &reqs[*nreq]);
                req_op[*nreq] = i;
                (*nreq)++;
                done += SCHED_CHUNK;
            } while (done < op->count && rc == MPI_SUCCESS);
        }
    }
    return rc;
}

int exec_next_tag(struct comm_state *cs)
{
    return (int)(cs->seq++ & 0x7fff);
}

/* Room for one round's requests: the inline arrays up to EXEC_SMALL_REQS,
 * heap ones beyond (kept until exec_release: rounds only grow). */
static int reserve_reqs(struct exec *x, int64_t n)
{
    if (n <= EXEC_SMALL_REQS || n <= x->cap_reqs)
        return MPI_SUCCESS;
    const size_t m = (size_t)n;
    MPI_Request *r = malloc(m * sizeof *r);
    MPI_Status *st = malloc(m * sizeof *st);
    uint32_t *o = malloc(m * sizeof *o);
    if (!r || !st || !o) {
        free(r), free(st), free(o);
        return MPI_ERR_NO_MEM;
    }
    free(x->big_reqs), free(x->big_st), free(x->big_op);
    x->big_reqs = r, x->big_st = st, x->big_op = o;
    x->cap_reqs = n;
    return MPI_SUCCESS;
}

static MPI_Request *reqs_of(struct exec *x) { return x->cap_reqs ? x->big_reqs : x->small_reqs; }
static MPI_Status *st_of(struct exec *x) { return x->cap_reqs ? x->big_st : x->small_st; }
static uint32_t *op_of(struct exec *x) { return x->cap_reqs ? x->big_op : x->small_op; }

/* Prepares round x->round (or extends a dynamic schedule) and posts it.
 * Sets x->finished when there is no round left. */
static int post_next(struct exec *x)
{
    struct coll_call *c = x->c;
    struct schedule *s = x->s;
    int rc = MPI_SUCCESS;
    for (;;) {
        /* Scratch is bound before a resume too: it may write what it declared. */
        for (int i = 0; i < 2 && rc == MPI_SUCCESS; i++)
            rc = grow_tmp(&c->dti, x->buf, x->blocks, x->have, i, s->tmp_count[i]);
        /* So is the node's segment, as large as the schedule says it needs
         * by now (collective over the node: every rank of it raises
         * shm_bytes at the same point of its schedule). */
        if (rc == MPI_SUCCESS && s->shm_bytes > c->shm.size) {
            rc = c->shm.cs ? node_segment_grow(&c->shm, s->shm_bytes) : MPI_ERR_INTERN;
            x->buf[BUF_SHM] = c->shm.base;
        }
        if (rc != MPI_SUCCESS)
            return rc;
        if (x->round < s->n_rounds)
            break;
        if (!s->resume) {
            x->finished = true;
            return MPI_SUCCESS;
        }
        /* a resume may add no round (a phase with no data): test again */
        if (s->resume(s, x->buf) != 0 || s->oom)
            return MPI_ERR_NO_MEM;
    }
    rc = reserve_reqs(x, s->max_round_msgs);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct sched_round *r = &s->rounds[x->round];
    x->nreq = 0;
    x->posted = true;
    return post_round(x, x->buf, &s->ops[r->first_op], r->n_ops, x->tag, reqs_of(x), op_of(x),
                      &x->nreq);
}

/* The posted round's messages are complete: record SOP_UPTO sizes. */
static int messages_done(struct exec *x)
{
    const struct sched_round *r = &x->s->rounds[x->round];
    struct sched_op *ops = &x->s->ops[r->first_op];
    const uint32_t *req_op = op_of(x);
    MPI_Status *st = st_of(x);
    int rc = MPI_SUCCESS;
    /* SOP_UPTO: record what arrived where the resume function reads it */
    for (int j = 0; j < x->nreq && rc == MPI_SUCCESS; j++) {
        struct sched_op *op = &ops[req_op[j]];
        if (op->kind == SOP_RECV && (op->flags & SOP_UPTO)) {
            int got = 0;
            rc = PMPI_Get_count(&st[j], MPI_BYTE, &got);
            op->count = got;
        }
    }
    x->nreq = 0;
    return rc;
}

/* Applies the round's local operations from x->local, in order, then moves
 * to the next round.  A flag wait that is not yet satisfied blocks when
 * `wait`; otherwise it leaves *blocked set and x->local at that op, for
 * the next step to resume from. */
/* A chain of local ops (SOP_CHAIN) from ops[0] on: how many ops it has
 * (at least 1), each one into the same destination range as the first. */
static uint32_t chain_len(const struct sched_op *ops, uint32_t left)
{
    uint32_t k = 1;
    while (k < left && (ops[k - 1].flags & SOP_CHAIN) && ops[k].kind == SOP_REDUCE &&
           ops[k].dst_buf == ops[0].dst_buf && ops[k].dst_off == ops[0].dst_off &&
           ops[k].count == ops[0].count && (ops[k].flags & SOP_SLOT_MASK) ==
           (ops[0].flags & SOP_SLOT_MASK))
        k++;
    return k;
}

/* Runs a chain of k copy/reduce ops piece by piece: pieces of CHAIN_BYTES
 * (a quarter of a first-level data cache) go through all k ops in turn. */
#define CHAIN_BYTES (8 * 1024)
static int run_chain(struct exec *x, const struct sched_op *ops, uint32_t k)
{
    const struct coll_call *c = x->c;
    const struct dtinfo *d = &c->dti;
    int64_t piece = CHAIN_BYTES / (d->extent > 0 ? d->extent : 1);
    if (piece < 1)
        piece = 1;
    int rc = MPI_SUCCESS;
    for (int64_t at = 0; at < ops[0].count && rc == MPI_SUCCESS; at += piece) {
        const int64_t n = ops[0].count - at < piece ? ops[0].count - at : piece;
        for (uint32_t i = 0; i < k && rc == MPI_SUCCESS; i++) {
            struct sched_op o = ops[i];
            o.src_off += at, o.dst_off += at, o.count = n;
            rc = o.kind == SOP_REDUCE
                     ? reduce_op(x, x->buf, &o)
                     : copy_elems(elem_at(x, x->buf, &o, o.src_buf, o.src_off),
                                  elem_at(x, x->buf, &o, o.dst_buf, o.dst_off), n, c->dt, d);
        }
    }
    return rc;
}

static int finish_round(struct exec *x, bool wait, bool *blocked)
{
    struct coll_call *c = x->c;
    const struct sched_round *r = &x->s->rounds[x->round];
    const struct sched_op *ops = &x->s->ops[r->first_op];
    const struct dtinfo *d = &c->dti;
    int rc = MPI_SUCCESS;
    double charge = 0; /* SMPI only: shared memory is not free (shm_charge.h) */
    for (; x->local < r->n_ops && rc == MPI_SUCCESS; x->local++) {
        const struct sched_op *op = &ops[x->local];
        if ((op->flags & SOP_CHAIN) && (op->kind == SOP_COPY || op->kind == SOP_REDUCE)) {
            const uint32_t k = chain_len(op, r->n_ops - x->local);
            rc = run_chain(x, op, k);
            for (uint32_t i = 0; i < k; i++)
                shm_charge_add(&charge, c, &op[i]);
            x->local += k - 1;
            continue;
        }
        if (op->kind == SOP_REDUCE) {
            rc = reduce_op(x, x->buf, op);
            shm_charge_add(&charge, c, op);
            continue;
        }
        if (op->kind == SOP_COPY) {
            if (op->dst_buf == BUF_SHM && d->contiguous && op->src_buf != BUF_SHM &&
                stream_copy(&c->shm, elem_at(x, x->buf, op, op->dst_buf, op->dst_off),
                            at(x->buf[op->src_buf], op->src_off, d),
                            (size_t)op->count * (size_t)d->extent)) {
                shm_charge_add(&charge, c, op);
                continue;
            }
            rc = copy_elems(elem_at(x, x->buf, op, op->src_buf, op->src_off),
                            elem_at(x, x->buf, op, op->dst_buf, op->dst_off),
                            op->count, c->dt, d);
            shm_charge_add(&charge, c, op);
            continue;
        }
        /* a flag says what was done before it: charged first */
        shm_charge_flush(&charge);
        if (op->kind == SOP_FLAG_SET) {
            flag_set(&c->shm, flag_at(x, op, op->dst_off), x->epoch + (uint64_t)op->count);
        } else if (op->kind == SOP_FLAG_WAIT) {
            /* a wait for an earlier use before the first one holds at once */
            if (op->count < 0 && (uint64_t)-op->count >= x->epoch)
                continue;
            _Atomic uint64_t *f = flag_at(x, op, op->src_off);
            const uint64_t want = x->epoch + (uint64_t)op->count;
            if (!wait && !flag_reached(f, want)) {
                *blocked = true;
                return MPI_SUCCESS;
            }
            flag_wait(&c->shm, f, want);
        }
    }
    shm_charge_flush(&charge);
    x->posted = false;
    x->local = 0;
    x->round++;
    return rc;
}

/* A run's scratch is kept for the thread's next run, up to KEEP_BYTES a
 * buffer: a malloc and a free per call were a quarter of a short
 * allreduce's instructions.  A run takes the thread's kept buffers at its
 * start (unless it has its own: a persistent operation keeps its scratch
 * from one start to the next) and gives them back at exec_release, on the
 * thread that releases it (the progress thread may end a nonblocking
 * one), where that thread keeps none.  What a thread keeps (at most
 * 512 KiB) stays until the process ends. */
#define KEEP_BYTES (256 * 1024)
static _Thread_local struct {
    void *block;
    int64_t bytes;
} kept[2];

/* A schedule with no scratch (nor a resume that may ask for some) leaves
 * the kept buffers where they are. */
static void take_kept(struct exec *x, const struct schedule *s)
{
    if (x->blocks[0] || x->blocks[1] ||
        !(s->tmp_count[0] > 0 || s->tmp_count[1] > 0 || s->resume))
        return;
    for (int i = 0; i < 2; i++) {
        x->blocks[i] = kept[i].block, x->have[i] = kept[i].bytes;
        kept[i].block = NULL, kept[i].bytes = 0;
    }
}

static void give_kept(struct exec *x)
{
    for (int i = 0; i < 2; i++)
        if (x->blocks[i] && x->have[i] <= KEEP_BYTES && !kept[i].block) {
            kept[i].block = x->blocks[i], kept[i].bytes = x->have[i];
            x->blocks[i] = NULL;
        }
}

int exec_start(struct exec *x, struct coll_call *c, struct schedule *s, int tag)
{
    x->c = c;
    x->s = s;
    x->buf[BUF_SEND] = (void *)c->sendbuf;
    x->buf[BUF_RECV] = c->recvbuf;
    x->buf[BUF_TMP] = x->buf[BUF_TMP2] = NULL;
    x->buf[BUF_SHM] = c->shm.base;
    x->tag = tag;
    x->round = 0;
    x->local = 0;
    x->nreq = 0;
    /* This run's epochs: taken at the start, in call order (schedule.h) */
    x->epoch = 0;
    if (s->shm_epochs > 0 && c->shm.epoch) {
        x->epoch = *c->shm.epoch;
        *c->shm.epoch += (uint64_t)s->shm_epochs;
    }
    /* the slot's regions for this run's span (schedule.h, NODE_REGION_GAP) */
    x->region_bytes = 0;
    x->regions = 1;
    const int64_t span = s->shm_slot_span * (int64_t)c->dti.extent;
    if (span > 0 && c->shm.slot_bytes > 0) {
        x->region_bytes = (span + 63) / 64 * 64 + NODE_REGION_GAP;
        if (c->shm.slot_bytes / x->region_bytes > 1)
            x->regions = (uint64_t)(c->shm.slot_bytes / x->region_bytes);
    }
#ifndef COLIBRI_SMPI /* (simulated ranks share one process; no fault costs time) */
    /* The first run that moves through regions maps every page of the
     * data area on this rank, one read a page (the other ranks may be
     * writing into it): its regions' first uses would otherwise take their
     * page faults one call after another, about 2000 in 8 MiB, and read
     * as a slow algorithm to online selection's first timed calls (Open
     * MPI's 256 KiB reduce_scatter_block: node_split_rail timed slower
     * than native, where it takes 0.16-0.3x native's time).  A short
     * call moves through no regions (NODE_REGION_MIN_BYTES): a program
     * that makes a communicator for a few short calls pays nothing. */
    if (x->regions > 1 && c->shm.mapped && !*c->shm.mapped) {
        for (int64_t at = 0; at < c->shm.size; at += 4096)
            (void)*(volatile char *)((char *)c->shm.base + at);
        *c->shm.mapped = true;
    }
#endif
    x->posted = false;
    x->finished = false;
    x->truncated = false;
    take_kept(x, s);
    return post_next(x);
}

/* A round whose messages completed with an error: where every error is a
 * truncation (an erroneous program: a sender's count larger than its
 * receiver's), the run goes on to its end, so that no rank waits for a
 * message or flag this one would never send or set, and reports
 * MPI_ERR_TRUNCATE then, as the MPI below reports it.  Any other error
 * ends the run. */
static int only_truncated(struct exec *x, int rc)
{
    for (;;) {
        int cls = MPI_ERR_OTHER;
        bool pending = false; /* MPI_Testall: requests not yet complete */
        PMPI_Error_class(rc, &cls);
        if (cls == MPI_ERR_IN_STATUS) {
            const MPI_Status *st = st_of(x);
            for (int j = 0; j < x->nreq; j++) {
                int e = st[j].MPI_ERROR;
                if (e == MPI_SUCCESS || PMPI_Error_class(e, &e) != MPI_SUCCESS)
                    continue;
                if (e == MPI_ERR_PENDING)
                    pending = true;
                else if (e != MPI_ERR_TRUNCATE)
                    return rc;
            }
        } else if (cls != MPI_ERR_TRUNCATE) {
            return rc;
        }
        x->truncated = true;
        if (!pending)
            return MPI_SUCCESS;
        rc = PMPI_Waitall(x->nreq, reqs_of(x), st_of(x));
        if (rc == MPI_SUCCESS)
            return rc;
    }
}

int exec_step(struct exec *x, bool wait, bool *done)
{
    int rc = MPI_SUCCESS;
    while (rc == MPI_SUCCESS && !x->finished) {
        if (x->posted && x->nreq > 0) {
            if (wait && !engines_colibri_busy()) {
                rc = PMPI_Waitall(x->nreq, reqs_of(x), st_of(x));
            } else if (wait) {
                /* other operations run: they may hold what this round
                 * waits for (engines.h) */
                int flag = 0;
                rc = PMPI_Testall(x->nreq, reqs_of(x), &flag, st_of(x));
                if (rc == MPI_SUCCESS && !flag) {
                    engines_colibri_turn();
                    continue;
                }
            } else {
                int flag = 0;
                rc = PMPI_Testall(x->nreq, reqs_of(x), &flag, st_of(x));
                if (rc == MPI_SUCCESS && !flag)
                    break;
            }
            if (rc != MPI_SUCCESS)
                rc = only_truncated(x, rc);
            if (rc == MPI_SUCCESS)
                rc = messages_done(x);
        }
        bool blocked = false;
        if (rc == MPI_SUCCESS && x->posted)
            rc = finish_round(x, wait, &blocked);
        if (blocked)
            break;
        if (rc == MPI_SUCCESS)
            rc = post_next(x);
    }
    *done = x->finished;
    if (rc == MPI_SUCCESS && x->finished && (x->s->truncated || x->truncated))
        rc = MPI_ERR_TRUNCATE;
    return rc;
}

/* Only what outlives a run needs clearing: no memset of a kilobyte of
 * inline requests and statuses per call. */
void exec_init(struct exec *x)
{
    x->blocks[0] = x->blocks[1] = NULL;
    x->have[0] = x->have[1] = 0;
    x->big_reqs = NULL, x->big_st = NULL, x->big_op = NULL;
    x->cap_reqs = 0;
}

void exec_release(struct exec *x)
{
    if (x->blocks[0] || x->blocks[1])
        give_kept(x);
    /* most runs hold nothing more: no five calls of free(NULL) */
    if (x->blocks[0] || x->blocks[1] || x->cap_reqs) {
        free(x->blocks[0]);
        free(x->blocks[1]);
        free(x->big_reqs), free(x->big_st), free(x->big_op);
    }
    exec_init(x);
}

int exec_run(struct coll_call *c, struct schedule *s)
{
    struct exec x;
    exec_init(&x);
    bool done = false;
    int rc = exec_start(&x, c, s, exec_next_tag(c->cs));
    while (rc == MPI_SUCCESS && !done)
        rc = exec_step(&x, true, &done);
    exec_release(&x);
    return rc;
}
