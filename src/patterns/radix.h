/*
 * Radix-k digit exchange: the index arithmetic of Bruck's all-to-all and of
 * SLOAV, its variable-size form.
 *
 * Slot i of rank r holds the block bound for rank (r + i) mod p (the initial
 * rotation, radix_slot_dest); a block never changes slot, only rank.  Write i
 * in radix k >= 2 with D = ceil(log_k p) digits of weights w = k^d.  In
 * sub-round (d, v), v = 1..k-1, every rank sends the slots whose digit d is
 * v to rank r + v w and receives the same slots from r - v w.  Summed over
 * the digits a block in slot i moves sum_d digit_d(i) k^d = i ranks forward,
 * from its source s to s + i, its destination; so rank t ends with the block
 * of source t - i in slot i (the final inverse rotation, radix_slot_source).
 *
 * Sub-round (d, v) moves slot v w and upwards, so it is empty unless
 * v w < p.  Non-empty sub-rounds:
 *      R = sum over d < D of min(k-1, floor((p-1) / k^d))
 * which is ceil(log2 p) for k = 2 and at most (k-1) ceil(log_k p).  A block
 * is done once its highest non-zero digit has moved, i.e. after sub-round
 * (d, v) for exactly the slots v w <= i < (v + 1) w (radix_final).
 *
 * The slots moving in (d, v) form runs of w consecutive slots starting at
 * c k w + v w, c = 0, 1, ... (the last run may be cut short by p), so a
 * builder packs and unpacks them run by run.
 *
 * Pure functions, no MPI: tests/unit/test_patterns_radix.c checks them.
 */
#ifndef COLIBRI_PATTERN_RADIX_H
#define COLIBRI_PATTERN_RADIX_H

#include <stdbool.h>
#include <stdint.h>

/* Digits D of slot indices 0..p-1 in radix k >= 2 (0 when p = 1). */
static inline int radix_digits(int p, int k)
{
    int d = 0;
    for (int64_t w = 1; w < p; w *= k)
        d++;
    return d;
}

/* k^d, the weight of digit d (d < radix_digits, so it is below p). */
static inline int radix_weight(int k, int d)
{
    int w = 1;
    while (d-- > 0)
        w *= k;
    return w;
}

/* Digit of slot i at weight w. */
static inline int radix_digit(int i, int k, int64_t w) { return (int)(i / w % k); }

/* Whether slot i moves in sub-round (w, v). */
static inline bool radix_moves(int i, int k, int64_t w, int v) { return radix_digit(i, k, w) == v; }

/* Sub-rounds of the digit of weight w with anything to move: v = 1 .. this. */
static inline int radix_values(int p, int k, int64_t w)
{
    int64_t n = (p - 1) / w; /* values v with v w < p */
    return n < k - 1 ? (int)n : k - 1;
}

/* Non-empty sub-rounds over all digits (R above). */
static inline int radix_subrounds(int p, int k)
{
    int n = 0;
    for (int64_t w = 1; w < p; w *= k)
        n += radix_values(p, k, w);
    return n;
}

/* Rank that sub-round (w, v) sends to (dir = +1) or receives from (-1). */
static inline int radix_peer(int rank, int p, int v, int64_t w, int dir)
{
    int64_t q = ((int64_t)rank + dir * (int64_t)v * w) % p;
    return (int)(q < 0 ? q + p : q);
}

/* Whether slot i reaches its destination in sub-round (w, v). */
static inline bool radix_final(int i, int v, int64_t w)
{
    return (int64_t)v * w <= i && i < (int64_t)(v + 1) * w;
}

/* Run c of the slots moving in (w, v): its first slot, or p when there is
 * no such run; its length is min(w, p - start). */
static inline int radix_run_start(int p, int k, int64_t w, int v, int c)
{
    int64_t start = (int64_t)c * k * w + v * w;
    return start < p ? (int)start : p;
}

/* Number of slots moving in (w, v): #{i < p : digit_w(i) = v}. */
static inline int radix_nmoving(int p, int k, int64_t w, int v)
{
    int64_t period = k * w, tail = p % period - v * w;
    int64_t n = p / period * w + (tail < 0 ? 0 : tail < w ? tail : w);
    return (int)n;
}

/* Slots that move at all at the digit of weight w: #{0 < i < p :
 * digit_w(i) != 0}. */
static inline int64_t radix_moving(int p, int k, int64_t w)
{
    int64_t period = w * k, full = p / period, rest = p % period;
    int64_t still = full * w + (rest < w ? rest : w); /* digit 0, i = 0 included */
    return p - still;
}

/* Initial rotation: slot i of `rank` holds what it sends to rank + i. */
static inline int radix_slot_dest(int rank, int p, int i) { return (rank + i) % p; }

/* Final inverse rotation: slot i of `rank` was sent by rank - i. */
static inline int radix_slot_source(int rank, int p, int i) { return (rank - i + p) % p; }

/* ceil(sqrt(p)): D <= 2 with about 2 sqrt(p) messages per rank, each byte
 * forwarded at most twice.  Fan et al. (HPDC'22) and TuNA (HPDC'25) measure
 * the best radix of Bruck alltoallv near sqrt(p). */
static inline int radix_sqrt(int p)
{
    int k = 2;
    while ((int64_t)k * k < p)
        k++;
    return k;
}

#endif
