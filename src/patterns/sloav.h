/*
 * Index arithmetic of radix-k Bruck exchange as SLOAV (alltoallv) uses it.
 *
 * Slot i of rank r holds the block bound for rank (r + i) mod p; a block
 * never changes slot, only rank.  Write i in radix k with D = ceil(log_k p)
 * digits (weights w = k^d).  In sub-round (d, v), v = 1..k-1, every rank
 * sends the slots whose digit d is v to rank r + v w and receives the same
 * slots from r - v w.  Summed over the digits a block in slot i moves
 * sum_d digit_d(i) k^d = i ranks forward: from its source s to s + i, its
 * destination.  So rank t ends with the block of source t - i in slot i.
 *
 * A block is done once its highest non-zero digit has been moved, i.e. after
 * sub-round (d, v) for exactly the slots v w <= i < (v + 1) w; those need no
 * further forwarding.  Sub-round (d, v) is empty (no slot has digit d = v)
 * unless v w < p.
 *
 * Pure functions, no MPI: unit tests call them directly.
 */
#ifndef COLIBRI_PATTERN_SLOAV_H
#define COLIBRI_PATTERN_SLOAV_H

#include <stdbool.h>
#include <stdint.h>

/* Digits D of slot indices 0..p-1 in radix k >= 2 (0 when p = 1). */
static inline int sloav_digits(int p, int k)
{
    int d = 0;
    for (int64_t w = 1; w < p; w *= k)
        d++;
    return d;
}

/* k^d, the weight of digit d (d < sloav_digits, so it is below p). */
static inline int sloav_weight(int k, int d)
{
    int w = 1;
    while (d-- > 0)
        w *= k;
    return w;
}

static inline int sloav_digit(int i, int k, int w) { return i / w % k; }

/* Sub-rounds of digit d with anything to move: v = 1 .. this. */
static inline int sloav_values(int p, int k, int w)
{
    int n = (p - 1) / w;
    return n < k - 1 ? n : k - 1;
}

/* Rank that sub-round (d, v) sends to (dir = +1) or receives from (-1). */
static inline int sloav_peer(int rank, int p, int v, int w, int dir)
{
    int64_t q = ((int64_t)rank + dir * (int64_t)v * w) % p;
    return (int)(q < 0 ? q + p : q);
}

/* Whether slot i reaches its destination in sub-round (d, v). */
static inline bool sloav_final(int i, int v, int w)
{
    return (int64_t)v * w <= i && i < (int64_t)(v + 1) * w;
}

/* Non-empty sub-rounds over all digits: sum_d min(k-1, floor((p-1)/k^d)). */
static inline int sloav_subrounds(int p, int k)
{
    int n = 0, D = sloav_digits(p, k);
    for (int d = 0; d < D; d++)
        n += sloav_values(p, k, sloav_weight(k, d));
    return n;
}

/* Slots that move at digit d: #{0 < i < p : digit_d(i) != 0}. */
static inline int64_t sloav_moving(int p, int k, int w)
{
    int64_t period = (int64_t)w * k, full = p / period, rest = p % period;
    int64_t still = full * w + (rest < w ? rest : w); /* digit d = 0, i = 0 included */
    return p - still;
}

/* Default radix: ceil(sqrt(p)), so D <= 2 (three executor rounds with the
 * metadata pipeline) with about 2 sqrt(p) messages per rank, forwarding each
 * byte at most twice.  Fan et al. (HPDC'22) and TuNA (HPDC'25) measure the
 * best radix of Bruck alltoallv near sqrt(p). */
static inline int sloav_default_radix(int p)
{
    int k = 2;
    while ((int64_t)k * k < p)
        k++;
    return k;
}

#endif
