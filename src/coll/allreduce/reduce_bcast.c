/*
 * Allreduce as a binomial-tree reduce to rank 0 followed by a binomial
 * broadcast from rank 0 over the same tree.  Simple and latency-bound: good
 * for short vectors on machines where a round's latency dominates, and the
 * baseline the bandwidth-optimal algorithms are measured against.
 *
 * Cost (COST_FORMULA below): ceil(lg p) rounds up the tree, each sending
 * and reducing the vector, and ceil(lg p) down it, each sending it.
 *
 * The tree over absolute ranks rooted at 0 combines adjacent rank ranges
 * with the lower one on the left, so any operation works.  Every rank
 * accumulates in its output, which the broadcast then overwrites.
 */
#include "../../patterns/fold.h"
#include "../algorithm.h"
#include "../common/binomial.h"

COST_FORMULA(allreduce, reduce_bcast, "2 ceil(lg p)(a + n b) + ceil(lg p) n g");

int allreduce_reduce_bcast_build(const struct sched_params *p, struct schedule *s)
{
    struct btree t = btree_ordered(p->size, 0);
    struct partial pt = partial_make(BUF_SEND, 0, BUF_RECV, 0, p->in_place);
    binomial_reduce(s, &t, p->rank, p->count, &pt, p->commutative, BUF_TMP);
    binomial_bcast(s, &t, p->rank, BUF_RECV, 0, p->count);
    return s->oom ? -1 : 0;
}

double allreduce_reduce_bcast_cost(const struct sched_params *p, const struct cost_params *m)
{
    double nb = (double)p->count * (double)p->elem_size;
    int k = ceil_log2(p->size);
    return 2 * k * (m->alpha + nb * m->beta) + k * nb * m->gamma;
}
