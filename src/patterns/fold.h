/*
 * Power-of-two folding: p = p' + rem with p' the largest power of two <= p.
 * The first 2*rem ranks pair up (2i, 2i+1); the even one hands its vector to
 * the odd one and sits out, so the p' survivors run a power-of-two pattern
 * with "new ranks" 0..p'-1 that keep the original rank order (what keeps
 * non-commutative reductions exact).
 * Pure functions, no MPI: unit tests call them directly.
 */
#ifndef COLIBRI_PATTERN_FOLD_H
#define COLIBRI_PATTERN_FOLD_H

static inline int pof2_floor(int p)
{
    int q = 1;
    while (q <= p / 2)
        q *= 2;
    return q;
}

static inline int ceil_log2(int p)
{
    int k = 0;
    while ((1 << k) < p)
        k++;
    return k;
}

static inline int floor_log2(int p)
{
    int k = 0;
    while ((2 << k) <= p)
        k++;
    return k;
}

/* The same fold for any number `rem` of pairs (k-nomial folds onto a
 * non-power of two): new rank of `rank`, or -1 if it sits out. */
static inline int fold_rem_newrank(int rank, int rem)
{
    if (rank < 2 * rem)
        return rank % 2 ? rank / 2 : -1;
    return rank - rem;
}

static inline int fold_rem_oldrank(int newrank, int rem)
{
    return newrank < rem ? 2 * newrank + 1 : newrank + rem;
}

/* New rank of `rank` after folding p onto pof2_floor(p), or -1 if it sits out. */
static inline int fold_newrank(int rank, int p)
{
    return fold_rem_newrank(rank, p - pof2_floor(p));
}

/* Original rank of a survivor. */
static inline int fold_oldrank(int newrank, int p)
{
    return fold_rem_oldrank(newrank, p - pof2_floor(p));
}

/*
 * The same pairwise fold, except that a root in a folded pair is the
 * one that stays, so a reduce never needs an extra hop to reach it.  New
 * ranks (and so the rank order) are those above.
 */
static inline int fold_rooted_newrank(int rank, int p, int root)
{
    int rem = p - pof2_floor(p);
    if (root < 2 * rem && root % 2 == 0 && rank / 2 == root / 2)
        return rank == root ? root / 2 : -1;
    return fold_newrank(rank, p);
}

static inline int fold_rooted_oldrank(int newrank, int p, int root)
{
    int rem = p - pof2_floor(p);
    int old = fold_oldrank(newrank, p);
    return root < 2 * rem && root % 2 == 0 && old == root + 1 ? root : old;
}

#endif
