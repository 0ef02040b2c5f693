/*
 * The reduction tree of 3-2 elimination (Rabenseifner & Traff, EuroPVM/MPI
 * 2004), for any number of ranks p, with L = floor(lg p) levels and
 * p' = 2^L survivors.
 *
 * Level 0 has a node per rank.  Level l (1..L) has G[l] nodes, each made of
 * 2 or 3 consecutive nodes of level l-1: the first G[l] - t[l] have two
 * children, the last t[l] have three.  Every node of level l has 2^l
 * survivors; in a three-child node the last child is eliminated: its
 * survivors hand their halves to the first two children's and drop out of the
 * reduce-scatter, and get the result back in the allgather.  Children are
 * intervals of ranks in order, so reducing them in child order keeps the
 * rank order of non-commutative operations.
 *
 * A level with three-child nodes makes that level's exchange twice as long
 * for the ranks involved (one receives a half from both others), so the plan
 * eliminates the r = p - p' extra ranks on as few and as deep levels as
 * possible: p = 2^L + sum_l t[l] 2^(l-1) and t[l] <= G[l] (the children of a
 * level must fit its nodes).  With l0 = 1 + (trailing zero bits of r):
 *   r <= p'/2:  t[l0] = r / 2^(l0-1), one level;
 *   r >  p'/2:  t[L] = 1 and t[l0] = (r - p'/2) / 2^(l0-1), two levels.
 * Every plan must use a level <= l0, and one level cannot eliminate more than
 * p'/2 ranks, so no level-synchronous plan pays less.
 *
 * Pure functions, no MPI: unit tests call them directly.
 */
#ifndef COLIBRI_PATTERN_THREE_TWO_H
#define COLIBRI_PATTERN_THREE_TWO_H

#include "halving.h"

struct tt_plan {
    int L;
    int t[HALVING_MAXL + 1]; /* t[l]: three-child nodes of level l (t[0] unused) */
    int G[HALVING_MAXL + 1]; /* G[l]: nodes of level l; G[0] = p */
};

static inline void tt_make_plan(int p, struct tt_plan *pl)
{
    int pof2 = pof2_floor(p), r = p - pof2;
    pl->L = floor_log2(p);
    for (int l = 0; l <= HALVING_MAXL; l++)
        pl->t[l] = pl->G[l] = 0;
    if (r > 0) {
        int l0 = 1;
        while (!(r >> (l0 - 1) & 1))
            l0++;
        if (r <= pof2 / 2) {
            pl->t[l0] = r >> (l0 - 1);
        } else {
            pl->t[pl->L] = 1;
            pl->t[l0] = (r - pof2 / 2) >> (l0 - 1);
        }
    }
    pl->G[pl->L] = 1;
    for (int l = pl->L; l > 0; l--)
        pl->G[l - 1] = 2 * pl->G[l] + pl->t[l];
}

static inline int tt_children(const struct tt_plan *pl, int l, int h)
{
    return h < pl->G[l] - pl->t[l] ? 2 : 3;
}

/* First child (a node of level l-1) of node h of level l. */
static inline int tt_first_child(const struct tt_plan *pl, int l, int h)
{
    int pairs = pl->G[l] - pl->t[l];
    return h < pairs ? 2 * h : 2 * pairs + 3 * (h - pairs);
}

/* Parent (a node of level l) of node g of level l-1; *child: g's index in it. */
static inline int tt_parent(const struct tt_plan *pl, int l, int g, int *child)
{
    int pairs = pl->G[l] - pl->t[l];
    if (g < 2 * pairs) {
        *child = g % 2;
        return g / 2;
    }
    *child = (g - 2 * pairs) % 3;
    return pairs + (g - 2 * pairs) / 3;
}

/* Rank of the survivor with index V (bit j-1: its child index at level j)
 * of node h of level l. */
static inline int tt_member(const struct tt_plan *pl, int l, int h, int V)
{
    for (; l > 0; l--)
        h = tt_first_child(pl, l, h) + (V >> (l - 1) & 1);
    return h;
}

/* Where `rank` sits at each level: node[l] (its node of level l), child[l]
 * (index of its level-(l-1) node in node[l]), V[l] (its survivor index in
 * its node of level l-1).  Returns the level at which it is eliminated, or
 * L + 1 for a survivor. */
static inline int tt_path(const struct tt_plan *pl, int rank, int *node, int *child, int *V)
{
    int g = rank, v = 0;
    for (int l = 1; l <= pl->L; l++) {
        node[l] = tt_parent(pl, l, g, &child[l]);
        V[l] = v;
        if (child[l] == 2)
            return l;
        v |= child[l] << (l - 1);
        g = node[l];
    }
    return pl->L + 1;
}

#endif
