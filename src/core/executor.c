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

#include "../coll/algorithm.h"
#include "runtime.h"


static void *at(void *base, int64_t off, const struct dtinfo *d)
{
    return (char *)base + off * d->extent;
}

void *exec_alloc_elems(const struct dtinfo *d, int64_t count, void **block)
{
    *block = NULL;
    if (count <= 0)
        return NULL;
    size_t bytes = (size_t)d->true_extent + (size_t)(count - 1) * (size_t)d->extent;
    *block = malloc(bytes ? bytes : 1);
    if (!*block)
        return NULL;
    return (char *)*block - d->true_lb;
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
    if (count <= have[i])
        return MPI_SUCCESS;
    size_t bytes = (size_t)d->true_extent + (size_t)(count - 1) * (size_t)d->extent;
    void *b = realloc(blocks[i], bytes ? bytes : 1);
    if (!b)
        return MPI_ERR_NO_MEM;
    blocks[i] = b;
    buf[BUF_TMP + i] = (char *)b - d->true_lb;
    have[i] = count;
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

int exec_agree_max(struct comm_state *cs, MPI_Datatype dt, void *value)
{
    struct coll_call c;
    memset(&c, 0, sizeof c);
    c.coll = COLIBRI_ALLREDUCE;
    c.dt = dt;
    int rc = dtinfo_init(dt, &c.dti);
    if (rc != MPI_SUCCESS)
        return rc;
    c.red = (struct reducer){MPI_MAX, dt, kernel_lookup(MPI_MAX, dt), true};
    c.cs = cs;
    c.sp.rank = cs->rank;
    c.sp.size = cs->size;
    c.sp.count = 1;
    c.sp.elem_size = (size_t)c.dti.size;
    c.sp.commutative = true;
    c.sp.in_place = true;
    c.sendbuf = c.recvbuf = value;
    struct schedule s;
    sched_init(&s);
    rc = allreduce_recursive_doubling_build(&c.sp, &s) != 0 || s.oom ? MPI_ERR_NO_MEM
                                                                      : exec_run(&c, &s);
    sched_free(&s);
    return rc;
}

int exec_run(struct coll_call *c, struct schedule *s)
{
    const struct dtinfo *d = &c->dti;
    void *blocks[2] = {NULL, NULL};
    int64_t have[2] = {0, 0};
    void *buf[BUF_NBUFS] = {(void *)c->sendbuf, c->recvbuf, NULL, NULL, c->shm};
    MPI_Request small_reqs[16], *reqs = small_reqs;
    MPI_Status small_st[16], *st = small_st;
    uint32_t small_op[16], *req_op = small_op;
    int64_t cap_reqs = 16;
    int rc = MPI_SUCCESS;
    int tag = (int)(c->cs->seq++ & 0x7fff);

    for (uint32_t r = 0; rc == MPI_SUCCESS; r++) {
        /* Scratch is bound before a resume too: it may write what it declared. */
        for (int i = 0; i < 2 && rc == MPI_SUCCESS; i++)
            rc = grow_tmp(d, buf, blocks, have, i, s->tmp_count[i]);
        if (rc != MPI_SUCCESS)
            break;
        if (r == s->n_rounds) {
            if (!s->resume)
                break;
            if (s->resume(s, buf) != 0 || s->oom) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            r--; /* re-test: a resume may add no round (a phase with no data) */
            continue;
        }
        if (s->shm_bytes > c->shm_size) {
            rc = c->shm_grow ? c->shm_grow(c, s->shm_bytes) : MPI_ERR_INTERN;
            buf[BUF_SHM] = c->shm;
        }
        if (rc == MPI_SUCCESS && s->max_round_msgs > cap_reqs) {
            const size_t m = (size_t)s->max_round_msgs;
            MPI_Request *n = malloc(m * sizeof *n);
            MPI_Status *ns = malloc(m * sizeof *ns);
            uint32_t *no = malloc(m * sizeof *no);
            if (!n || !ns || !no) {
                free(n), free(ns), free(no);
                rc = MPI_ERR_NO_MEM;
                break;
            }
            if (reqs != small_reqs)
                free(reqs), free(st), free(req_op);
            reqs = n;
            st = ns;
            req_op = no;
            cap_reqs = s->max_round_msgs;
        }
        if (rc != MPI_SUCCESS)
            break;
        struct sched_op *ops = &s->ops[s->rounds[r].first_op];
        uint32_t nops = s->rounds[r].n_ops;
        int nreq = 0;
        rc = post_round(c, buf, ops, nops, tag, reqs, req_op, &nreq);
        if (nreq > 0 && rc == MPI_SUCCESS)
            rc = PMPI_Waitall(nreq, reqs, st);
        /* SOP_UPTO: record what arrived where the resume function reads it */
        for (int j = 0; j < nreq && rc == MPI_SUCCESS; j++) {
            struct sched_op *op = &ops[req_op[j]];
            if (op->kind == SOP_RECV && (op->flags & SOP_UPTO)) {
                int got = 0;
                rc = PMPI_Get_count(&st[j], MPI_BYTE, &got);
                op->count = got;
            }
        }
        for (uint32_t i = 0; i < nops && rc == MPI_SUCCESS; i++) {
            const struct sched_op *op = &ops[i];
            if (op->kind == SOP_REDUCE)
                rc = reduce_op(c, buf, op);
            else if (op->kind == SOP_COPY)
                rc = copy_elems(at(buf[op->src_buf], op->src_off, d),
                                at(buf[op->dst_buf], op->dst_off, d), op->count, c->dt, d);
        }
    }
    if (rc == MPI_SUCCESS && s->truncated)
        rc = MPI_ERR_TRUNCATE;
    if (reqs != small_reqs)
        free(reqs), free(st), free(req_op);
    free(blocks[0]);
    free(blocks[1]);
    return rc;
}
