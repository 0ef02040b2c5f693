/*
 * Reduce by a binomial tree over ranks relative to the root (MPICH's
 * classic): in round j every rank whose relative rank has lowest set bit 2^j
 * sends its subtree's partial to the rank 2^j below it, which combines.
 * Latency-optimal for short vectors: ceil(lg p) rounds, each rank sends at
 * most once.
 *
 * Cost (COST_FORMULA below): ceil(lg p) rounds, in each of which the root
 * receives and reduces one whole vector.
 *
 * Relative ranks wrap around p-1 -> 0, so partials combine out of rank
 * order: commutative operations only (ordered_binomial has the same cost for
 * any operation).
 */
#include "../algorithm.h"
#include "../common/binomial.h"

COST_FORMULA(reduce, binomial, "ceil(lg p)(a + n b + n g)");

int reduce_binomial_build(const struct sched_params *p, struct schedule *s)
{
    struct btree t = btree_rotated(p->size, p->root);
    return reduce_tree_build(p, s, &t);
}

double reduce_binomial_cost(const struct sched_params *p, const struct cost_params *m)
{
    return reduce_tree_cost(p, m);
}
