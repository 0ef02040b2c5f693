/*
 * Recursive halving / doubling over 2^L virtual ranks.
 *
 * The vector is cut into 2^L blocks ("positions").  Halving steps run with
 * distance doubling: in step s virtual rank v pairs with v ^ 2^s, so after s
 * steps v shares its data with the aligned, contiguous group of 2^s virtual
 * ranks around it -- which is what lets a non-commutative operation combine
 * lower ranks on the left.  In step s the pair splits the positions both hold
 * in two halves and the one whose bit s is clear keeps the lower half, so
 * after L steps v holds position bit_reverse(v).  The allgather (or gather)
 * runs the same steps backwards.
 *
 * Pure functions, no MPI: unit tests call them directly.
 */
#ifndef COLIBRI_PATTERN_HALVING_H
#define COLIBRI_PATTERN_HALVING_H

#include <stdint.h>

#include "fold.h"

/* Most steps of any butterfly over an int number of ranks. */
#define HALVING_MAXL 31

/* Start of block b when n elements are cut into nblocks near-equal blocks,
 * the first n % nblocks of them one element longer. */
static inline int64_t block_offset(int64_t n, int nblocks, int b)
{
    int64_t q = n / nblocks, r = n % nblocks;
    return b * q + (b < r ? b : r);
}

static inline int bit_reverse(int v, int bits)
{
    int r = 0;
    for (int i = 0; i < bits; i++)
        r |= (v >> i & 1) << (bits - 1 - i);
    return r;
}

/* Positions [*lo, *lo + *len) that virtual rank v holds after `steps`
 * halving steps of a 2^L-rank butterfly.  Only the low `steps` bits of v
 * matter: v and v ^ 2^s hold the same range before step s. */
static inline void halving_range(int v, int L, int steps, int *lo, int *len)
{
    *lo = 0;
    *len = 1 << L;
    for (int s = 0; s < steps; s++) {
        *len >>= 1;
        if (v >> s & 1)
            *lo += *len;
    }
}

/* Elements in the largest half exchanged in step s of the halving of n
 * near-equal blocks: the one starting at position 0 holds the longer blocks. */
static inline int64_t halving_max_half(int64_t n, int L, int s)
{
    return block_offset(n, 1 << L, (1 << L) >> (s + 1));
}

/* Elements one rank sends (and reduces) in a whole halving of n elements,
 * taking every step's largest half: (2^L - 1)/2^L n when 2^L divides n. */
static inline int64_t halving_volume(int64_t n, int L)
{
    int64_t v = 0;
    for (int s = 0; s < L; s++)
        v += halving_max_half(n, L, s);
    return v;
}

/* Role of virtual rank v in step s of the binomial gather to virtual root vr
 * that undoes the halving (steps run from L-1 down to 0): 1 receives the
 * partner's positions, -1 sends its own and is done, 0 idle. */
static inline int gather_role(int v, int vr, int s)
{
    if ((v ^ vr) >> (s + 1))
        return 0;
    return ((v ^ vr) >> s & 1) ? -1 : 1;
}

/*
 * The pairwise fold of fold.h, except that a root in a folded pair is the
 * one that stays, so a reduce never needs an extra hop to reach it.  New
 * ranks (and so the rank order) are those of fold.h.
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
