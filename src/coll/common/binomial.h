/*
 * Schedule fragments over the binomial trees of patterns/binomial.h, shared
 * by the tree reduce and the reduce+broadcast allreduce.
 */
#ifndef COLIBRI_COMMON_BINOMIAL_H
#define COLIBRI_COMMON_BINOMIAL_H

#include "partial.h"

/* A binomial tree laid over the ranks: position x is rank (x + shift) % p,
 * and the root is at position root_pos. */
struct btree {
    int p, root_pos, shift;
};

/* The classic tree over ranks relative to `root`: ranks visited out of
 * order, so for commutative operations only. */
static inline struct btree btree_rotated(int p, int root)
{
    struct btree t = {p, 0, root};
    return t;
}

/* The tree over absolute ranks: keeps the rank order for any root. */
static inline struct btree btree_ordered(int p, int root)
{
    struct btree t = {p, root, 0};
    return t;
}

/* Gathers the whole reduction of n elements at the root's accumulator (see
 * partial.h); every other rank sends its subtree's partial to its parent. */
void binomial_reduce(struct schedule *s, const struct btree *t, int rank, int64_t n,
                     struct partial *pt, bool commutative, int scratch);

/* Sends n elements at (buf, off) from the root down the tree to the same
 * place on every rank. */
void binomial_bcast(struct schedule *s, const struct btree *t, int rank, int buf, int64_t off,
                    int64_t n);

/* A whole MPI_Reduce over tree t: the result accumulates in the output at
 * the root and in BUF_TMP at the inner ranks. */
int reduce_tree_build(const struct sched_params *p, struct schedule *s, const struct btree *t);

/* Its cost, whatever the tree: ceil(lg p)(a + n b + n g). */
double reduce_tree_cost(const struct sched_params *p, const struct cost_params *m);

#endif
