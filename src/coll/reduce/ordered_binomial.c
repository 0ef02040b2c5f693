/*
 * Reduce by an order-preserving binomial tree, for non-commutative
 * operations, delivered straight to any root.
 *
 * The tree is laid over absolute ranks: level j merges adjacent aligned
 * blocks of 2^j ranks, and each block's partial is held by the root if the
 * block contains it, else by the block's first rank (patterns/binomial.h).
 * Every combine joins two adjacent rank ranges with the lower one on the
 * left, so the result is exactly r_0 (op) r_1 (op) ... (op) r_{p-1}; and
 * since the root holds its block at every level, no extra message moves the
 * result from rank 0 to the root.  With root 0 it is the classic tree.
 *
 * Cost (COST_FORMULA below): binomial.c's, for every root.
 */
#include "../algorithm.h"
#include "../common/binomial.h"

COST_FORMULA(reduce, ordered_binomial, "ceil(lg p)(a + n b + n g), any root");

int reduce_ordered_binomial_build(const struct sched_params *p, struct schedule *s)
{
    struct btree t = btree_ordered(p->size, p->root);
    return reduce_tree_build(p, s, &t);
}

double reduce_ordered_binomial_cost(const struct sched_params *p, const struct cost_params *m)
{
    return reduce_tree_cost(p, m);
}
