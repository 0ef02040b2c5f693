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

#include "butterfly.h"

/* Most steps of any butterfly over an int number of ranks. */
#define HALVING_MAXL BUTTERFLY_MAXL

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

/* Recursive halving of per-rank blocks (reduce_scatter): p ranks' output
 * counts fold onto 2^L folded blocks, block b being the outputs of the
 * ranks that fold into virtual rank b (butterfly.h): one or two of them. */
static inline int64_t halving_folded_count(const int64_t *counts, int p, int b)
{
    const int rem = p - pof2_floor(p);
    return b < rem ? counts[2 * b] + counts[2 * b + 1] : counts[b + rem];
}

/* The bit-reversed layout that recursive halving works in: position q of
 * the permuted vector holds folded block bit_reverse(q, L), which is where
 * virtual rank bit_reverse(q, L) ends.  nat[b]: offset of folded block b in
 * the input (natural order), b = 0..2^L; pos[q]: offset of position q in
 * the permuted vector, q = 0..2^L (2^L + 1 entries each). */
static inline void halving_layout(const int64_t *counts, int p, int64_t *nat, int64_t *pos)
{
    const int pof2 = pof2_floor(p), L = floor_log2(p);
    nat[0] = pos[0] = 0;
    for (int b = 0; b < pof2; b++)
        nat[b + 1] = nat[b] + halving_folded_count(counts, p, b);
    for (int q = 0; q < pof2; q++) {
        const int b = bit_reverse(q, L);
        pos[q + 1] = pos[q] + nat[b + 1] - nat[b];
    }
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

#endif
