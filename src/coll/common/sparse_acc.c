/* Sparse partial results walked through a step list (sparse_acc.h). */
#include "sparse_acc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/sparse.h"
#include "../../patterns/halving.h"

struct sp_state {
    const struct sparse_op *o;
    int64_t lo, n;    /* the elements [lo, lo+n) the partial covers */
    int64_t dense, max_nnz; /* its dense bytes, most present elements that pay */
    int64_t area;     /* bytes of one scratch area: the whole vector's dense size */
    int acc;          /* area holding the partial */
    bool acc_sparse;
    int64_t acc_bytes;
    /* The input was sparse: a dense partial may then hold ranges that pay
     * sparse again once cut (clustered data: the filled-in part is in one
     * range), so halving and joining try to encode them.  A dense input
     * never pays for those scans. */
    bool input_sparse;
    int rx;           /* area of the block received in the last round, -1: none */
    uint32_t rx_op;   /* its SOP_UPTO op, whose count says what arrived */
    int pc, nsteps;   /* next step; -1: the input is not read yet */
    bool output;
    int nseg;         /* the input in position order: nseg (offset, length) pairs, */
    const int64_t *seg; /* or NULL: as it is */
    struct sparse_step steps[];
};

static char *area(const struct sp_state *st, void *const buf[], int a)
{
    return (char *)buf[BUF_TMP] + (int64_t)a * st->area;
}

static void set_range(struct sp_state *st, int64_t lo, int64_t n)
{
    st->lo = lo;
    st->n = n;
    st->dense = n * (int64_t)st->o->es;
    st->max_nnz = sparse_max_nnz(n, st->o->es);
}

static void account(const struct sp_state *st, int64_t dense, int64_t sent)
{
    if (st->o->bytes_saved)
        *st->o->bytes_saved += dense - sent;
}

/* Validates the block of n elements that arrived (`got` bytes) and brings a
 * bitmap-form block, and a runs-form one unless `keep_runs`, into index
 * form, in place.  Returns its bytes in that form (the dense size for a
 * dense block), or -1 when it is not a block of this call. */
static int64_t unpack(const struct sp_state *st, void *const buf[], int64_t got, int64_t n,
                      bool keep_runs)
{
    const struct sparse_op *o = st->o;
    char *rx = area(st, buf, st->rx);
    if (got == n * (int64_t)o->es)
        return got;
    if (!sparse_check(rx, got, o->es, n))
        return -1;
    const int64_t nnz = sparse_nnz(rx), bytes = sparse_bytes(nnz, o->es);
    /* A sender keeps a block sparse only below max_nnz: more cannot be ours
     * (and its index form would not fit the area). */
    if (bytes != got && nnz > sparse_max_nnz(n, o->es))
        return -1;
    if (keep_runs && sparse_is_runs(rx))
        return got;
    char *tmp = area(st, buf, 3);
    if (sparse_unpack(o, rx, tmp))
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
        sparse_apply(o, in, io, (size_t)st->n);
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

/* Writes block x (n elements, sparse or dense) densely at out (none: a
 * rank whose block is empty may pass no buffer). */
static void densify(const struct sp_state *st, const char *x, bool sparse, int64_t n, char *out)
{
    if (n <= 0)
        return;
    if (sparse)
        sparse_decode(st->o, x, out);
    else
        memcpy(out, x, (size_t)(n * (int64_t)st->o->es));
}

/* SP_GATHER and SP_JOIN, after the round: the partial and the peer's
 * adjacent range (`got` bytes, index form or dense) become one partial
 * over both. */
static void join(struct sp_state *st, void *const buf[], const struct sparse_step *step,
                 int64_t got)
{
    const size_t es = st->o->es;
    const bool rs = got != step->len * (int64_t)es, own_first = st->lo < step->off;
    const int t = 3 - st->acc - st->rx;
    const char *a = area(st, buf, own_first ? st->acc : st->rx),
               *b = area(st, buf, own_first ? st->rx : st->acc);
    bool as = own_first ? st->acc_sparse : rs, bs = own_first ? rs : st->acc_sparse;
    const int64_t na = own_first ? st->n : step->len, nb = own_first ? step->len : st->n;
    char *out = area(st, buf, t);
    set_range(st, own_first ? st->lo : step->off, na + nb);
    st->acc = t;
    if (as != bs && st->input_sparse) { /* does the dense side pay sparse within the union? */
        const char *sp = as ? a : b;
        char *enc = area(st, buf, 3);
        const int64_t room = st->max_nnz - sparse_nnz(sp);
        if (room >= 0 && sparse_encode(st->o, as ? b : a, as ? nb : na, enc, room,
                                       area(st, buf, 4)) >= 0) {
            if (as)
                b = enc;
            else
                a = enc;
            as = bs = true;
        }
    }
    if (as && bs && sparse_nnz(a) + sparse_nnz(b) <= st->max_nnz) {
        st->acc_sparse = true;
        st->acc_bytes = sparse_concat(st->o, a, na, b, nb, out);
        return;
    }
    densify(st, a, as, na, out);
    densify(st, b, bs, nb, out + na * (int64_t)es);
    st->acc_sparse = false;
    st->acc_bytes = st->dense;
}

/* Reads what arrived in the last round into the partial. */
static int settle(struct sp_state *st, void *const buf[], const struct sparse_step *prev,
                  int64_t got_bytes)
{
    const bool ranged = prev->kind == SP_GATHER || prev->kind == SP_JOIN ||
                        prev->kind == SP_RECV_RANGE;
    const int64_t n = ranged ? prev->len : st->n;
    const bool replace = prev->kind == SP_RECV_REPLACE || prev->kind == SP_RECV_RANGE;
    /* Combined into a dense partial, a runs block is only decoded or merged
     * into dense (both work on its runs directly); anything else needs the
     * index form. */
    int64_t got = unpack(st, buf, got_bytes, n, !ranged && !replace && !st->acc_sparse);
    if (got < 0)
        return -1;
    if (replace) {
        if (prev->kind == SP_RECV_RANGE)
            set_range(st, prev->off, prev->len);
        st->acc = st->rx;
        st->acc_sparse = got != st->dense;
        st->acc_bytes = got;
    } else if (prev->kind == SP_GATHER || prev->kind == SP_JOIN) {
        join(st, buf, prev, got);
    } else {
        combine(st, buf, prev->recv_is_in, got != st->dense);
    }
    return 0;
}

/* Sends the whole partial, in its smallest form. */
static void send_partial(struct schedule *s, struct sp_state *st, void *const buf[], int peer)
{
    const char *at = area(st, buf, st->acc);
    int64_t bytes = st->acc_bytes;
    if (st->acc_sparse) /* the area neither the partial nor this round's receive uses */
        bytes = sparse_pack(st->o, at, area(st, buf, (st->acc + 2) % 3), (const void **)&at);
    sched_send_bytes(s, peer, BUF_TMP, at - area(st, buf, 0), bytes);
    account(st, st->dense, bytes);
}

/* SP_HALVE: sends the elements [off2, off2+len2) of the partial, which
 * shrinks to [off, off+len), and posts for the peer's copy of that range
 * (SP_SPLIT: does not).
 * A sparse partial is cut by binary search; each piece takes its smallest
 * form.  The piece sent lives in scratch area 3 or 4 (or, dense, stays in
 * the partial's area) and nothing writes there before the round is over. */
static void halve(struct schedule *s, struct sp_state *st, void *const buf[],
                  const struct sparse_step *step)
{
    const struct sparse_op *o = st->o;
    const int64_t es = (int64_t)o->es, g = step->off2 - st->lo, k = step->off - st->lo;
    const int a = st->acc;
    char *acc = area(st, buf, a);
    if (step->len2 > 0) {
        int64_t at = a * st->area + g * es, bytes = step->len2 * es, enc = -1;
        if (!st->acc_sparse && st->input_sparse) /* a cut of a dense partial may pay sparse */
            enc = sparse_encode(o, acc + g * es, step->len2, area(st, buf, 3),
                                sparse_max_nnz(step->len2, o->es), area(st, buf, 4));
        char *x = area(st, buf, 3), *y = area(st, buf, 4);
        const void *wire = NULL;
        if (enc >= 0) {
            bytes = sparse_pack(o, x, y, &wire);
        } else if (st->acc_sparse) {
            sparse_slice(o, acc, g, step->len2, x);
            if (sparse_nnz(x) > sparse_max_nnz(step->len2, o->es))
                sparse_decode(o, x, y), wire = y;
            else
                bytes = sparse_pack(o, x, y, &wire);
        }
        if (wire)
            at = (const char *)wire - area(st, buf, 0);
        sched_send_bytes(s, step->peer, BUF_TMP, at, bytes);
        account(st, step->len2 * es, bytes);
    }
    int keep = a, rx = (a + 1) % 3;
    bool keep_sparse = st->acc_sparse;
    int64_t keep_bytes = step->len * es;
    if (st->acc_sparse) {
        keep = (a + 1) % 3;
        rx = (a + 2) % 3;
        char *kp = area(st, buf, keep);
        if (sparse_slice_nnz(acc, k, step->len) <= sparse_max_nnz(step->len, o->es)) {
            keep_bytes = sparse_slice(o, acc, k, step->len, kp);
        } else { /* the receive area is free until the round runs */
            sparse_slice(o, acc, k, step->len, area(st, buf, rx));
            sparse_decode(o, area(st, buf, rx), kp);
            keep_sparse = false;
        }
    } else {
        int64_t b = -1;
        if (st->input_sparse) /* the receive area is scratch until the round runs */
            b = sparse_encode(o, acc + k * es, step->len, area(st, buf, (a + 1) % 3),
                              sparse_max_nnz(step->len, o->es), area(st, buf, (a + 2) % 3));
        if (b >= 0 || k != 0) {
            keep = (a + 1) % 3;
            rx = (a + 2) % 3;
        }
        if (b >= 0) {
            keep_sparse = true;
            keep_bytes = b;
        } else if (k != 0) { /* the lower part is being sent from here: move the upper */
            memcpy(area(st, buf, keep), acc + k * es, (size_t)keep_bytes);
        }
    }
    set_range(st, step->off, step->len);
    st->acc = keep;
    st->acc_sparse = keep_sparse;
    st->acc_bytes = keep_bytes;
    if (step->kind == SP_HALVE && step->len > 0) {
        st->rx = rx;
        st->rx_op = sched_recv_upto(s, step->peer, BUF_TMP, rx * st->area, st->dense);
    }
}

static int resume(struct schedule *s, void *const buf[])
{
    struct sp_state *st = s->state;
    const struct sparse_op *o = st->o;
    if (st->pc < 0) {
        /* the only full pass over the input: scan and encode in one go
         * (blocks in position order are gathered first) */
        const char *x = buf[BUF_SEND];
        int dense_at = 0;
        if (st->seg) {
            char *g = area(st, buf, 1);
            const int64_t es = (int64_t)o->es;
            for (int i = 0; i < st->nseg; i++) {
                memcpy(g, x + st->seg[2 * i] * es, (size_t)(st->seg[2 * i + 1] * es));
                g += st->seg[2 * i + 1] * es;
            }
            x = area(st, buf, 1);
            dense_at = 1;
        }
        char *a0 = area(st, buf, 0);
        int64_t b = sparse_encode(o, x, st->n, a0, st->max_nnz, area(st, buf, 3));
        st->acc_sparse = st->input_sparse = b >= 0;
        st->acc_bytes = b >= 0 ? b : st->dense;
        st->acc = b >= 0 ? 0 : dense_at;
        if (b < 0 && !st->seg)
            memcpy(a0, x, (size_t)st->dense);
        st->pc = 0;
    } else if (st->rx >= 0) {
        if (settle(st, buf, &st->steps[st->pc - 1], s->ops[st->rx_op].count) != 0)
            return -1;
        st->rx = -1;
    }
    if (st->pc == st->nsteps) {
        if (st->output)
            densify(st, area(st, buf, st->acc), st->acc_sparse, st->n, buf[BUF_RECV]);
        s->resume = NULL;
        return 0;
    }
    const struct sparse_step *step = &st->steps[st->pc++];
    if (step->kind == SP_HALVE || step->kind == SP_SPLIT) {
        halve(s, st, buf, step);
    } else if (step->kind == SP_RECV_RANGE && step->len == 0) {
        set_range(st, step->off, 0); /* nothing arrives: the partial is empty */
        st->acc_sparse = false;
        st->acc_bytes = 0;
    } else {
        if (step->kind == SP_EXCH || step->kind == SP_SEND || step->kind == SP_GATHER)
            send_partial(s, st, buf, step->peer);
        const bool ranged = step->kind == SP_GATHER || step->kind == SP_JOIN ||
                            step->kind == SP_RECV_RANGE;
        const int64_t len = ranged ? step->len : st->n;
        if (step->kind != SP_SEND && len > 0) {
            st->rx = (st->acc + 1) % 3;
            st->rx_op = sched_recv_upto(s, step->peer, BUF_TMP, st->rx * st->area,
                                        len * (int64_t)o->es);
        }
    }
    sched_round(s);
    return s->oom ? -1 : 0;
}

int sparse_acc_build_blocks(const struct sched_params *p, struct schedule *s,
                            const struct sparse_step *steps, int nsteps, bool output, int64_t n,
                            const int64_t *seg, int nseg)
{
    const size_t steps_bytes = (size_t)nsteps * sizeof *steps;
    struct sp_state *st = malloc(sizeof *st + steps_bytes + 2 * (size_t)nseg * sizeof *seg);
    if (!st)
        return -1;
    st->o = p->sparse;
    set_range(st, 0, n);
    st->area = (st->dense + 15) & ~(int64_t)15;
    st->rx = -1;
    st->pc = -1;
    st->nsteps = nsteps;
    st->output = output;
    memcpy(st->steps, steps, steps_bytes);
    st->nseg = nseg;
    st->seg = NULL;
    if (seg) {
        int64_t *copy = (int64_t *)((char *)st->steps + steps_bytes);
        memcpy(copy, seg, 2 * (size_t)nseg * sizeof *seg);
        st->seg = copy;
    }
    s->state = st;
    s->free_state = free;
    s->resume = resume;
    const int64_t es = (int64_t)p->elem_size;
    sched_need_tmp(s, BUF_TMP, (5 * st->area + es - 1) / es);
    return 0;
}

int sparse_acc_build(const struct sched_params *p, struct schedule *s,
                     const struct sparse_step *steps, int nsteps, bool output)
{
    return sparse_acc_build_blocks(p, s, steps, nsteps, output, p->count, NULL, 0);
}

double sparse_model_range_bytes(const struct sched_params *p, double merged, double w)
{
    const double dense = (double)p->count * w * (double)p->elem_size;
    if (!p->sparse || p->density <= 0)
        return dense;
    const double d = fmin(p->density, 1), support = p->support > 0 ? p->support : 1,
                 span = p->span > 0 ? p->span : 1;
    /* the support spread evenly over the span: a range of w holds at most
     * min(w, span)/span of it (all of it for clustered data, w of it for
     * scattered data) */
    const double k = (double)p->count * sparse_union(d, support, merged) * fmin(w, span) / span;
    const double index = 4 * k, bitmap = (double)p->count * w / 8,
                 runs = 8 * fmax(k / fmax(p->run_length, 1), k > 0);
    return fmin(dense, SPARSE_HDR + fmin(index, fmin(bitmap, runs)) + k * (double)p->elem_size);
}

double sparse_model_bytes(const struct sched_params *p, double merged)
{
    return sparse_model_range_bytes(p, merged, 1);
}

double sparse_model_handling(const struct sched_params *p, const struct cost_params *m,
                             double merged, double w)
{
    const double b = sparse_model_range_bytes(p, merged, w);
    return b < (double)p->count * w * (double)p->elem_size ? b * m->sparse : 0;
}

double sparse_model_halving(const struct sched_params *p, const struct cost_params *m)
{
    const int pof2 = pof2_floor(p->size), L = floor_log2(p->size);
    const double f = (double)p->size / pof2;
    double t = 0;
    for (int s = 0; s < L; s++) {
        const double merged = f * (1 << s), w = 1.0 / (2 << s);
        t += sparse_model_range_bytes(p, merged, w) * (m->beta + m->gamma) +
             sparse_model_handling(p, m, merged, w);
    }
    return t;
}

double sparse_model_doubling(const struct sched_params *p, const struct cost_params *m)
{
    const int pof2 = pof2_floor(p->size), L = floor_log2(p->size);
    double t = 0;
    for (int i = 0; i < L; i++) {
        const double w = (double)(1 << i) / pof2;
        t += sparse_model_range_bytes(p, p->size, w) * m->beta +
             sparse_model_handling(p, m, p->size, w);
    }
    return t;
}

double sparse_model_local(const struct sched_params *p, const struct cost_params *m)
{
    /* a read-only scan and a write: together about one reduction's worth */
    return (double)p->count * (double)p->elem_size * m->gamma +
           sparse_model_handling(p, m, 1, 1) + sparse_model_handling(p, m, p->size, 1);
}

/* Start of position q: off[q], or block_offset's near-equal cut. */
static int64_t pos_off(int64_t count, int L, const int64_t *off, int q)
{
    return off ? off[q] : block_offset(count, 1 << L, q);
}

struct sparse_step sparse_range_step(int kind, int peer, int64_t count, int L,
                                     const int64_t *off, int lo, int len)
{
    const int64_t a = pos_off(count, L, off, lo), b = pos_off(count, L, off, lo + len);
    return (struct sparse_step){.kind = (uint8_t)kind, .recv_is_in = true, .peer = peer,
                                .off = a, .len = b - a};
}

int sparse_halving_steps(struct sparse_step *steps, int64_t count, int L, const int64_t *off,
                         int v, const int *peer)
{
    int lo = 0, len = 1 << L;
    for (int i = 0; i < L; i++) {
        const bool upper = v >> i & 1;
        len >>= 1;
        steps[i] = sparse_range_step(SP_HALVE, peer[i], count, L, off, upper ? lo + len : lo, len);
        const struct sparse_step give =
            sparse_range_step(SP_HALVE, peer[i], count, L, off, upper ? lo : lo + len, len);
        steps[i].off2 = give.off;
        steps[i].len2 = give.len;
        lo += upper ? len : 0;
    }
    return L;
}
