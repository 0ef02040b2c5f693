/* Sparse partial results walked through a step list (sparse_acc.h). */
#include "sparse_acc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/sparse.h"

struct sp_state {
    const struct sparse_op *o;
    int64_t n, dense, area, max_nnz;
    int acc;          /* area holding the partial */
    bool acc_sparse;
    int64_t acc_bytes;
    int rx;           /* area of the block received in the last round, -1: none */
    uint32_t rx_op;   /* its SOP_UPTO op, whose count says what arrived */
    int pc, nsteps;   /* next step; -1: the input is not read yet */
    bool output;
    struct sparse_step steps[];
};

static char *area(const struct sp_state *st, void *const buf[], int a)
{
    return (char *)buf[BUF_TMP] + (int64_t)a * st->area;
}

static void account(const struct sp_state *st, int64_t sent)
{
    if (st->o->bytes_saved)
        *st->o->bytes_saved += st->dense - sent;
}

/* Validates the block that arrived (`got` bytes) and brings a bitmap-form
 * block into index form, in place.  Returns its bytes in index form (the
 * dense size for a dense block), or -1 when it is not a block of this call. */
static int64_t unpack(const struct sp_state *st, void *const buf[], int64_t got)
{
    const struct sparse_op *o = st->o;
    char *rx = area(st, buf, st->rx);
    if (got == st->dense)
        return got;
    if (!sparse_check(rx, got, o->es, st->n))
        return -1;
    if (!sparse_is_bitmap(rx))
        return got;
    /* A sender keeps a partial sparse only below max_nnz: more cannot be ours. */
    const int64_t nnz = sparse_nnz(rx), bytes = sparse_bytes(nnz, o->es);
    if (nnz > st->max_nnz)
        return -1;
    char *tmp = area(st, buf, 3);
    sparse_from_bitmap(o, rx, tmp);
    memcpy(rx, tmp, (size_t)bytes);
    return bytes;
}

/* Combines the received block (sparse: `xs`) with the partial, in the
 * step's roles. */
static void combine(struct sp_state *st, void *const buf[], bool recv_is_in, bool xs)
{
    const struct sparse_op *o = st->o;
    const int third = 3 - st->acc - st->rx;
    const int in_a = recv_is_in ? st->rx : st->acc, io_a = recv_is_in ? st->acc : st->rx;
    const bool ins = recv_is_in ? xs : st->acc_sparse, ios = recv_is_in ? st->acc_sparse : xs;
    char *in = area(st, buf, in_a), *io = area(st, buf, io_a), *z = area(st, buf, third),
         *scratch = area(st, buf, 3);
    if (!ins && !ios) {
        o->kernel(in, io, (size_t)st->n);
        st->acc = io_a;
    } else if (ins && !ios) {
        sparse_merge_sd(o, in, io, st->n, scratch);
        st->acc = io_a;
    } else if (!ins) {
        sparse_merge_ds(o, in, io, z, st->n);
        st->acc = third;
    } else {
        int64_t b = sparse_merge_ss(o, in, io, z, st->max_nnz, scratch);
        st->acc = third;
        if (b >= 0) { /* still sparse */
            st->acc_sparse = true;
            st->acc_bytes = b;
            return;
        }
        /* filled in: from here on the partial is dense */
        sparse_decode(o, io, z);
        sparse_merge_sd(o, in, z, st->n, scratch);
    }
    st->acc_sparse = false;
    st->acc_bytes = st->dense;
}

static int resume(struct schedule *s, void *const buf[])
{
    struct sp_state *st = s->state;
    const struct sparse_op *o = st->o;
    if (st->pc < 0) {
        /* the only full pass over the input: scan and encode in one go */
        char *a0 = area(st, buf, 0);
        int64_t b = sparse_encode(o, buf[BUF_SEND], st->n, a0, st->max_nnz, area(st, buf, 3));
        st->acc_sparse = b >= 0;
        st->acc_bytes = b >= 0 ? b : st->dense;
        if (b < 0)
            memcpy(a0, buf[BUF_SEND], (size_t)st->dense);
        st->acc = 0;
        st->pc = 0;
    } else if (st->rx >= 0) {
        const struct sparse_step *prev = &st->steps[st->pc - 1];
        int64_t got = unpack(st, buf, s->ops[st->rx_op].count);
        if (got < 0)
            return -1;
        if (prev->kind == SP_RECV_REPLACE) {
            st->acc = st->rx;
            st->acc_sparse = got != st->dense;
            st->acc_bytes = got;
        } else {
            combine(st, buf, prev->recv_is_in, got != st->dense);
        }
        st->rx = -1;
    }
    if (st->pc == st->nsteps) {
        if (st->output) {
            if (st->acc_sparse)
                sparse_decode(o, area(st, buf, st->acc), buf[BUF_RECV]);
            else
                memcpy(buf[BUF_RECV], area(st, buf, st->acc), (size_t)st->dense);
        }
        s->resume = NULL;
        return 0;
    }
    const struct sparse_step *step = &st->steps[st->pc++];
    if (step->kind == SP_EXCH || step->kind == SP_SEND) {
        int64_t at = st->acc * st->area, bytes = st->acc_bytes;
        if (st->acc_sparse &&
            sparse_bitmap_bytes(sparse_nnz(area(st, buf, st->acc)), st->n, o->es) < bytes) {
            /* the area neither the partial nor this round's receive uses */
            const int spare = (st->acc + 2) % 3;
            bytes = sparse_to_bitmap(o, area(st, buf, st->acc), area(st, buf, spare));
            at = spare * st->area;
        }
        sched_send_bytes(s, step->peer, BUF_TMP, at, bytes);
        account(st, bytes);
    }
    if (step->kind != SP_SEND) {
        st->rx = (st->acc + 1) % 3;
        st->rx_op = sched_recv_upto(s, step->peer, BUF_TMP, st->rx * st->area, st->dense);
    }
    sched_round(s);
    return s->oom ? -1 : 0;
}

int sparse_acc_build(const struct sched_params *p, struct schedule *s,
                     const struct sparse_step *steps, int nsteps, bool output)
{
    struct sp_state *st = malloc(sizeof *st + (size_t)nsteps * sizeof *steps);
    if (!st)
        return -1;
    st->o = p->sparse;
    st->n = p->count;
    st->dense = p->count * (int64_t)p->elem_size;
    st->area = (st->dense + 15) & ~(int64_t)15;
    st->max_nnz = sparse_max_nnz(st->n, p->elem_size);
    st->rx = -1;
    st->pc = -1;
    st->nsteps = nsteps;
    st->output = output;
    memcpy(st->steps, steps, (size_t)nsteps * sizeof *steps);
    s->state = st;
    s->free_state = free;
    s->resume = resume;
    const int64_t es = (int64_t)p->elem_size;
    sched_need_tmp(s, BUF_TMP, (5 * st->area + es - 1) / es);
    return 0;
}

double sparse_model_bytes(const struct sched_params *p, double merged)
{
    const double dense = (double)p->count * (double)p->elem_size;
    if (!p->sparse || p->density <= 0)
        return dense;
    const double d = 1 - pow(1 - fmin(p->density, 1), merged), k = d * (double)p->count;
    const double index = 4 * k, bitmap = (double)p->count / 8;
    return fmin(dense, SPARSE_HDR + fmin(index, bitmap) + k * (double)p->elem_size);
}

double sparse_model_local(const struct sched_params *p, const struct cost_params *m)
{
    /* a read-only scan and a write: together about one reduction's worth */
    return (double)p->count * (double)p->elem_size * m->gamma;
}
