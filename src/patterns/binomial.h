/*
 * Binomial trees over positions 0..p-1 with the root at any position q.
 *
 * Level j cuts the positions into aligned blocks of 2^j.  Going from level j
 * to j+1 merges each block with its sibling; the merged block's result ends
 * at its holder, which is q if q lies in the block and otherwise the block's
 * first position.  So every merge is one message, between the holders of two
 * adjacent blocks, and the receiver knows which side the other block is on:
 * combining "left block (op) right block" keeps the rank order however q is
 * placed.  That is what lets one tree reduce a non-commutative operation
 * straight to any root in ceil(lg p) rounds.
 *
 * With q = 0 this is the classic binomial tree (the parent of v is v with its
 * lowest set bit cleared); the classic rooted-anywhere tree is that one over
 * relative ranks (binomial_relrank).
 *
 * Pure functions, no MPI: unit tests call them directly.
 */
#ifndef COLIBRI_PATTERN_BINOMIAL_H
#define COLIBRI_PATTERN_BINOMIAL_H

#include "fold.h"

enum binomial_role { BINOMIAL_IDLE, BINOMIAL_RECV, BINOMIAL_SEND };

/* Rank counted from the root, for trees whose root is position 0. */
static inline int binomial_relrank(int rank, int root, int p) { return (rank - root + p) % p; }

static inline int binomial_absrank(int rel, int root, int p) { return (rel + root) % p; }

/* Holder of the level-j block that contains position x, in the tree rooted at q. */
static inline int binomial_holder(int x, int j, int q)
{
    return (x >> j) == (q >> j) ? q : x >> j << j;
}

/*
 * What position x does at level j: nothing (it has already handed its block
 * on, or its block has no sibling inside 0..p-1), receive the sibling block's
 * result from *peer, or send its own block's result to *peer and leave.
 */
static inline enum binomial_role binomial_step(int x, int j, int q, int p, int *peer)
{
    if (binomial_holder(x, j, q) != x)
        return BINOMIAL_IDLE;
    int sibling = ((x >> j) ^ 1) << j;
    if (sibling >= p)
        return BINOMIAL_IDLE;
    *peer = binomial_holder(sibling, j, q);
    return binomial_holder(x, j + 1, q) == x ? BINOMIAL_RECV : BINOMIAL_SEND;
}

/* The position x sends to, or -1 for the root. */
static inline int binomial_parent(int x, int q, int p)
{
    int peer = -1;
    for (int j = 0; j < ceil_log2(p); j++)
        if (binomial_step(x, j, q, p, &peer) == BINOMIAL_SEND)
            return peer;
    return -1;
}

/* How many positions send to x. */
static inline int binomial_nchildren(int x, int q, int p)
{
    int n = 0, peer;
    for (int j = 0; j < ceil_log2(p); j++)
        n += binomial_step(x, j, q, p, &peer) == BINOMIAL_RECV;
    return n;
}

#endif
