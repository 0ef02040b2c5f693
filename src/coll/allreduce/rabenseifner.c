/*
 * Rabenseifner's allreduce: a reduce-scatter by recursive halving followed by
 * an allgather by recursive doubling (patterns/halving.h).  Each rank sends
 * and reduces only (p-1)/p of the vector instead of lg p whole vectors, so
 * it is the bandwidth-optimal choice for long vectors at logarithmic latency.
 *
 * The vector is cut into p' near-equal blocks (p' = 2^floor(lg p)); with
 * count < p' some blocks are empty and their messages vanish.
 *
 * Cost (COST_FORMULA below): lg p' halving rounds that send and reduce
 * (p'-1)/p' of the vector in all, and lg p' doubling rounds that send as
 * much (with n not divisible by p' each step moves its largest half, see
 * halving_max_half).  When p is not a power of two the pairwise fold onto
 * p' (patterns/fold.h) adds a round that hands the even rank's whole vector
 * to its odd neighbour and one that hands the result back.
 *
 * Halving runs with distance doubling and the fold pairs neighbours, so every
 * combination joins two adjacent intervals of ranks, lower on the left: the
 * result is in exact rank order and non-commutative operations are safe.
 */
#include "../halving_steps.h"

COST_FORMULA(allreduce, rabenseifner,
             "2 lg p' a + 2(p'-1)/p' n b + (p'-1)/p' n g [+ 2(a + n b) + n g fold when p != p']");

int allreduce_rabenseifner_build(const struct sched_params *p, struct schedule *s)
{
    const int64_t n = p->count;
    struct butterfly b;
    butterfly_init(&b, p->rank, p->size, -1);
    const int L = b.L, v = b.v;
    const bool folded = butterfly_folded(&b);
    struct halving h = {s, L, n, NULL, p->in_place ? BUF_RECV : BUF_SEND, BUF_RECV, BUF_TMP};

    if (v < 0) {
        sched_send(s, b.extra, h.in, 0, n);
        sched_round(s);
        sched_recv(s, b.extra, BUF_RECV, 0, n);
        sched_round(s);
        return s->oom ? -1 : 0;
    }
    sched_need_tmp(s, BUF_TMP, folded ? n : halving_max_half(n, L, 0));
    if (folded)
        hv_fold_in(&h, b.extra, true, n);

    hv_reduce_scatter(&h, v, b.peer);
    hv_allgather(&h, v, b.peer);

    if (folded) {
        sched_send(s, b.extra, BUF_RECV, 0, n);
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double allreduce_rabenseifner_cost(const struct sched_params *p, const struct cost_params *m)
{
    const double n = (double)p->count * (double)p->elem_size;
    const bool pof2 = pof2_floor(p->size) == p->size;
    return hv_cost(p, m) + (pof2 ? 0 : 2 * m->alpha + 2 * n * m->beta + n * m->gamma);
}
