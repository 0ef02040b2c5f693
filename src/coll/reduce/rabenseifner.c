/*
 * Rabenseifner's reduce: a reduce-scatter by recursive halving, then a
 * binomial gather of the reduced blocks to the root (patterns/halving.h).
 * Every rank reduces (p-1)/p of the vector instead of whole vectors up a
 * tree, so long vectors reduce in about twice the time of one transfer.
 *
 * The gather is the halving run backwards towards the root's virtual rank,
 * so any root receives its blocks directly, with no extra hop.  When p is
 * not a power of two the pairwise fold (patterns/fold.h) keeps the root: in
 * the root's pair the root stays and its neighbour drops out.
 *
 * Cost (COST_FORMULA below): lg p' halving rounds that send and reduce
 * (p'-1)/p' of the vector in all, and lg p' gather rounds that bring the
 * root as much (with n not divisible by p' each step moves its largest
 * half, see halving_max_half).  When p is not a power of two the fold onto
 * p' = 2^floor(lg p) adds one round, the dropped rank's vector reduced by
 * its neighbour, and none at the end: only the root needs the result.
 *
 * Halving runs with distance doubling and the fold pairs neighbours, lower
 * on the left, so non-commutative operations get exact rank order.
 * Non-root ranks work in scratch: they have no output buffer.
 */
#include "../halving_steps.h"

COST_FORMULA(reduce, rabenseifner,
             "2 lg p' a + 2(p'-1)/p' n b + (p'-1)/p' n g [+ a + n b + n g fold when p != p']");

int reduce_rabenseifner_build(const struct sched_params *p, struct schedule *s)
{
    const int64_t n = p->count;
    const int size = p->size, rank = p->rank, root = p->root;
    struct butterfly b;
    butterfly_init(&b, rank, size, root);
    const int L = b.L, v = b.v;
    const bool is_root = rank == root, folded = butterfly_folded(&b);
    struct halving h = {s, L, n, NULL, p->in_place ? BUF_RECV : BUF_SEND,
                        is_root ? BUF_RECV : BUF_TMP, BUF_TMP2};

    if (v < 0) {
        sched_send(s, b.extra, h.in, 0, n);
        sched_round(s);
        return s->oom ? -1 : 0;
    }
    if (!is_root)
        sched_need_tmp(s, BUF_TMP, n);
    sched_need_tmp(s, BUF_TMP2, folded ? n : halving_max_half(n, L, 0));
    if (folded)
        hv_fold_in(&h, b.extra, b.extra < rank, n);

    hv_reduce_scatter(&h, v, b.peer);
    hv_gather(&h, v, fold_rooted_newrank(root, size, root), b.peer);
    return s->oom ? -1 : 0;
}

double reduce_rabenseifner_cost(const struct sched_params *p, const struct cost_params *m)
{
    const double n = (double)p->count * (double)p->elem_size;
    const bool pof2 = pof2_floor(p->size) == p->size;
    return hv_cost(p, m) + (pof2 ? 0 : m->alpha + n * m->beta + n * m->gamma);
}
