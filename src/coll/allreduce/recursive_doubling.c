/*
 * Allreduce by recursive doubling: in round i every process exchanges its
 * whole vector with the process 2^i away and combines.  Latency-optimal for
 * short vectors.
 *
 * Cost (COST_FORMULA below): lg p rounds, each exchanging and reducing the
 * whole vector, when p is a power of two.  Otherwise the pairwise fold onto
 * p' = 2^floor(lg p) adds one round before (the even rank's vector, reduced
 * by its neighbour) and one after (the result handed back).
 *
 * The lower rank's data is always the left operand, and the fold pairs
 * neighbours, so non-commutative operations get the exact rank order.
 */
#include "../../patterns/butterfly.h"
#include "../algorithm.h"

COST_FORMULA(allreduce, recursive_doubling,
             "lg p' (a + n b + n g) [+ 2(a + n b) + n g fold when p != p']");

int allreduce_recursive_doubling_build(const struct sched_params *p, struct schedule *s)
{
    const int64_t n = p->count;
    const int size = p->size, rank = p->rank;
    struct butterfly b;
    butterfly_init(&b, rank, size, -1);

    if (!p->in_place)
        sched_copy(s, BUF_SEND, 0, BUF_RECV, 0, n);
    sched_round(s);
    sched_need_tmp(s, BUF_TMP, n);

    if (butterfly_folded(&b)) {
        if (b.v < 0) {
            sched_send(s, b.extra, BUF_RECV, 0, n);
        } else {
            sched_recv(s, b.extra, BUF_TMP, 0, n);
            sched_reduce(s, BUF_TMP, 0, BUF_RECV, 0, n, 0);
        }
        sched_round(s);
    }

    if (b.v >= 0) {
        for (int i = 0; i < b.L; i++) {
            const int partner = b.peer[i];
            sched_send(s, partner, BUF_RECV, 0, n);
            sched_recv(s, partner, BUF_TMP, 0, n);
            sched_reduce(s, BUF_TMP, 0, BUF_RECV, 0, n, partner < rank ? 0 : SOP_DST_IS_LEFT);
            sched_round(s);
        }
    }

    if (butterfly_folded(&b)) {
        if (b.v < 0)
            sched_recv(s, b.extra, BUF_RECV, 0, n);
        else
            sched_send(s, b.extra, BUF_RECV, 0, n);
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double allreduce_recursive_doubling_cost(const struct sched_params *p, const struct cost_params *m)
{
    double nb = (double)p->count * (double)p->elem_size;
    int pof2 = pof2_floor(p->size), k = floor_log2(p->size);
    int extra = pof2 == p->size ? 0 : 1;
    return (k + 2 * extra) * (m->alpha + nb * m->beta) + (k + extra) * nb * m->gamma;
}
