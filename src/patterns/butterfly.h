/*
 * Fold-then-butterfly: the skeleton of recursive doubling, Rabenseifner's
 * halving/doubling and recursive halving on any number of ranks.
 *
 * p = p' + rem, p' = 2^L the largest power of two <= p.  The first 2 rem
 * ranks form pairs (2i, 2i+1) and one of each pair sits out (fold.h): it
 * hands its vector to the other, its `extra`, before the butterfly and gets
 * the result back after it.  The p' survivors run the butterfly on virtual
 * ranks v = 0..p'-1 (in rank order, which keeps non-commutative reductions
 * exact): in step i, v pairs with v ^ 2^i, whose real rank is peer[i].
 * A reduce folds with its root kept in (fold_rooted_*), so the result
 * needs no extra hop to reach it.
 *
 * Pure functions, no MPI: tests/unit/test_patterns_butterfly.c checks them.
 */
#ifndef COLIBRI_PATTERN_BUTTERFLY_H
#define COLIBRI_PATTERN_BUTTERFLY_H

#include <stdbool.h>

#include "fold.h"

/* Most steps of any butterfly over an int number of ranks. */
#define BUTTERFLY_MAXL 31

struct butterfly {
    int L;      /* steps: lg p' */
    int v;      /* virtual rank, or -1 when this rank sits out */
    int extra;  /* the other rank of its folded pair, -1 when not in one */
    int peer[BUTTERFLY_MAXL]; /* real rank of v ^ 2^i, i < L (-1 elsewhere, or when v < 0) */
};

/* Whether the rank is in a folded pair, on either side. */
static inline bool butterfly_folded(const struct butterfly *b) { return b->extra >= 0; }

/* The roles of `rank` of p; root >= 0: a reduce's fold, which keeps the
 * root in (fold_rooted_newrank); root < 0: the plain fold. */
static inline void butterfly_init(struct butterfly *b, int rank, int p, int root)
{
    const int rem = p - pof2_floor(p);
    b->L = floor_log2(p);
    b->v = root >= 0 ? fold_rooted_newrank(rank, p, root) : fold_newrank(rank, p);
    b->extra = rank < 2 * rem ? rank ^ 1 : -1;
    for (int i = 0; i < BUTTERFLY_MAXL; i++)
        b->peer[i] = b->v < 0 || i >= b->L ? -1
                     : root >= 0         ? fold_rooted_oldrank(b->v ^ 1 << i, p, root)
                                         : fold_oldrank(b->v ^ 1 << i, p);
}

#endif
