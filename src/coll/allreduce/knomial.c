/*
 * Allreduce by recursive multiplying (k-ary butterfly): in each round a rank
 * exchanges its whole vector with the k-1 others of its group of k and
 * reduces them all.  log_k p rounds instead of lg p: the latency-optimal
 * choice for short vectors where a round costs more than k-1 messages.
 *
 * Radix k = sched_params.radix (values below 2 mean the default, 4).  Any p:
 * the rounds run in mixed radix over q = j k^m <= p (patterns/knomial.h),
 * m rounds of radix k and, when j > 1, one of radix j; the p - q < k^m extra
 * ranks fold pairwise onto their neighbours first and get the result last.
 *
 * Cost (COST_FORMULA below), one port per rank: a round of radix r sends
 * and receives r-1 messages of n bytes and reduces them, for one latency
 * and the processor overhead of each message: 2 (r-1) o, of which the
 * selector's cost_with_overhead adds 2 o per latency (coll/algorithm.h),
 * so the formula adds the other 2 (r-2) o (with 0.5 us per message under
 * SMPI, radix 4 at 64 ranks costs 3 us of overhead a round, not 1).
 * p = k^m gives log_k p rounds, p = j k^m gives ceil(log_k p) rounds, any
 * other p at most ceil(log_k p) rounds plus the fold's two.
 *
 * Every rank of a group combines the group's k vectors in the same
 * bracketing, left to right in digit order, ((x0 x1) x2) ... x(k-1): the
 * lower digits into scratch slot 0 first, then its own vector on their
 * right, then the higher ones.  So every rank ends with bitwise the same
 * result (floating-point sums of other bracketings differ in the last
 * bits, and MPI requires one result on all ranks), and rank order is kept:
 * a group is k adjacent intervals of ranks, so non-commutative operations
 * are safe.
 */
#include "../../patterns/fold.h"
#include "../../patterns/knomial.h"
#include "../algorithm.h"

COST_FORMULA(allreduce, knomial,
             "m(a + 2(k-2) o + (k-1) n (b + g)) [+ a + 2(j-2) o + (j-1) n (b + g) if j > 1] "
             "[+ 2(a + n b) + n g fold "
             "when rem > 0], p = j k^m + rem, rem < k^m, k radix (COLIBRI_RADIX, default 4)");

static int radix_of(const struct sched_params *p) { return p->radix >= 2 ? p->radix : 4; }

int allreduce_knomial_build(const struct sched_params *p, struct schedule *s)
{
    const int64_t n = p->count;
    const int rank = p->rank, in = p->in_place ? BUF_RECV : BUF_SEND;
    struct kn_plan pl;
    kn_make_plan(p->size, radix_of(p), &pl);
    const int v = fold_rem_newrank(rank, pl.rem);
    const bool folded = rank < 2 * pl.rem;

    if (v < 0) {
        sched_send(s, rank + 1, in, 0, n);
        sched_round(s);
        sched_recv(s, rank + 1, BUF_RECV, 0, n);
        sched_round(s);
        return s->oom ? -1 : 0;
    }
    sched_copy(s, in, 0, BUF_RECV, 0, n);
    if (folded) {
        sched_need_tmp(s, BUF_TMP, n);
        sched_recv(s, rank - 1, BUF_TMP, 0, n);
        sched_reduce(s, BUF_TMP, 0, BUF_RECV, 0, n, 0);
    }
    sched_round(s);

    for (int i = 0; i < kn_rounds(&pl); i++) {
        int stride, radix = kn_round(&pl, i, &stride);
        int d = v / stride % radix, base = v - d * stride;
        sched_need_tmp(s, BUF_TMP, (int64_t)(radix - 1) * n);
        /* Slot e (e != d) of scratch receives digit e's vector. */
        for (int e = 0; e < radix; e++) {
            if (e == d)
                continue;
            int peer = fold_rem_oldrank(base + e * stride, pl.rem);
            sched_send(s, peer, BUF_RECV, 0, n);
            sched_recv(s, peer, BUF_TMP, (e - (e > d)) * n, n);
        }
        /* x0 ... x(d-1) left to right in slot 0, then (that) x_d */
        for (int e = 1; e < d; e++)
            sched_reduce(s, BUF_TMP, e * n, BUF_TMP, 0, n, SOP_DST_IS_LEFT);
        if (d > 0)
            sched_reduce(s, BUF_TMP, 0, BUF_RECV, 0, n, 0);
        for (int e = d + 1; e < radix; e++)
            sched_reduce(s, BUF_TMP, (e - 1) * n, BUF_RECV, 0, n, SOP_DST_IS_LEFT);
        sched_round(s);
    }

    if (folded) {
        sched_send(s, rank - 1, BUF_RECV, 0, n);
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double allreduce_knomial_cost(const struct sched_params *p, const struct cost_params *m)
{
    const double n = (double)p->count * (double)p->elem_size;
    struct kn_plan pl;
    kn_make_plan(p->size, radix_of(p), &pl);
    double t = 0;
    for (int i = 0; i < kn_rounds(&pl); i++) {
        int stride, others = kn_round(&pl, i, &stride) - 1;
        t += m->alpha + 2 * (others - 1) * m->o + others * n * (m->beta + m->gamma);
    }
    if (pl.rem)
        t += 2 * m->alpha + 2 * n * m->beta + n * m->gamma;
    return t;
}
