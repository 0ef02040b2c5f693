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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "executor.h"
#include "shm_charge.h"


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

static int reduce_op(const struct coll_call *c, void *const buf[], const struct sched_op *op)
{
    const struct dtinfo *d = &c->dti;
    void *src = at(buf[op->src_buf], op->src_off, d);
    void *dst = at(buf[op->dst_buf], op->dst_off, d);
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
static int post_round(const struct coll_call *c, void *const buf[], const struct sched_op *ops,
                      uint32_t nops, int tag, MPI_Request *reqs, uint32_t *req_op, int *nreq)
{
    const struct dtinfo *d = &c->dti;
    int rc = MPI_SUCCESS;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < nops && rc == MPI_SUCCESS; i++) {
            const struct sched_op *op = &ops[i];
            if (op->kind != (pass == 0 ? SOP_RECV : SOP_SEND))
                continue;
            const bool bytes = op->flags & SOP_BYTES;
            MPI_Datatype dt = bytes ? MPI_BYTE : c->dt;
            char *base = bytes ? (char *)buf[op->src_buf] + op->src_off
                               : at(buf[op->src_buf], op->src_off, d);
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
    return post_round(c, x->buf, &s->ops[r->first_op], r->n_ops, x->tag, reqs_of(x), op_of(x),
                      &x->nreq);
}

/* The posted round's messages are complete: record SOP_UPTO sizes, apply
 * its local operations, move to the next round. */
static int finish_round(struct exec *x)
{
    struct coll_call *c = x->c;
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
    for (uint32_t i = 0; i < r->n_ops && rc == MPI_SUCCESS; i++) {
        const struct sched_op *op = &ops[i];
        if (op->kind == SOP_REDUCE)
            rc = reduce_op(c, x->buf, op);
        else if (op->kind == SOP_COPY)
            rc = copy_elems(at(x->buf[op->src_buf], op->src_off, &c->dti),
                            at(x->buf[op->dst_buf], op->dst_off, &c->dti), op->count, c->dt,
                            &c->dti);
        shm_charge(c, op); /* SMPI only: shared memory is not free */
    }
    x->posted = false;
    x->nreq = 0;
    x->round++;
    return rc;
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
    x->nreq = 0;
    x->posted = false;
    x->finished = false;
    return post_next(x);
}

int exec_step(struct exec *x, bool wait, bool *done)
{
    int rc = MPI_SUCCESS;
    while (rc == MPI_SUCCESS && !x->finished) {
        if (x->posted && x->nreq > 0) {
            if (wait) {
                rc = PMPI_Waitall(x->nreq, reqs_of(x), st_of(x));
            } else {
                int flag = 0;
                rc = PMPI_Testall(x->nreq, reqs_of(x), &flag, st_of(x));
                if (rc == MPI_SUCCESS && !flag)
                    break;
            }
        }
        if (rc == MPI_SUCCESS && x->posted)
            rc = finish_round(x);
        if (rc == MPI_SUCCESS)
            rc = post_next(x);
    }
    *done = x->finished;
    if (rc == MPI_SUCCESS && x->finished && x->s->truncated)
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
    free(x->blocks[0]);
    free(x->blocks[1]);
    free(x->big_reqs), free(x->big_st), free(x->big_op);
    exec_init(x);
}

/* Blocking runs keep their scratch for the thread's next one, up to
 * KEEP_BYTES a buffer: a malloc and a free per call were a quarter of a
 * short allreduce's instructions.  What a thread keeps (at most 512 KiB)
 * stays until the process ends. */
#define KEEP_BYTES (256 * 1024)
static _Thread_local struct {
    void *block;
    int64_t bytes;
} kept[2];

int exec_run(struct coll_call *c, struct schedule *s)
{
    struct exec x;
    exec_init(&x);
    for (int i = 0; i < 2; i++) {
        x.blocks[i] = kept[i].block, x.have[i] = kept[i].bytes;
        kept[i].block = NULL, kept[i].bytes = 0;
    }
    bool done = false;
    int rc = exec_start(&x, c, s, exec_next_tag(c->cs));
    while (rc == MPI_SUCCESS && !done)
        rc = exec_step(&x, true, &done);
    for (int i = 0; i < 2; i++)
        if (x.have[i] <= KEEP_BYTES) {
            kept[i].block = x.blocks[i], kept[i].bytes = x.have[i];
            x.blocks[i] = NULL;
        }
    exec_release(&x);
    return rc;
}
