/*
 * Prefix reductions (MPI_Scan, MPI_Exscan): who sends what to whom, over
 * positions v = 0..P-1 (ranks, or ranks shifted by one for an exclusive
 * scan).  Every message carries a combination of a contiguous interval of
 * positions that ends just below the receiver's own interval, so the
 * receiver combines it as the left operand and rank order holds for
 * non-commutative operations.
 *
 * Recursive doubling (Hillis and Steele): in round k (d = 2^k) position v
 * sends its partial, the combination of [max(0, v-d+1), v], to v + d and
 * receives [max(0, v-2d+1), v-d] from v - d.  After ceil(lg P) rounds
 * every v holds [0, v].
 *
 * Up-down sweep (the work-efficient scan of Blelloch; a binomial tree up
 * and down, as Sanders and Träff's prefix sums): up level k (d = 2^k)
 * makes v with (v+1) mod 2d = 0 receive from v - d, so that after the
 * up-sweep v holds its block [v+1-lowbit(v+1), v], lowbit(x) = x & -x.
 * Down level j (d = 2^j, from the top down) makes q with (q+1) mod 2d = 0,
 * which by then holds [0, q], send it to v = q + d, whose block
 * [q+1, q+d] it completes to [0, v].  Positions v with v+1 a power of two
 * hold [0, v] after the up-sweep.  Up level k has messages only when
 * 2^(k+1) <= P, down level j only when 3 2^j <= P: floor(lg P) +
 * D(P) rounds, D(P) = floor(lg(P/3)) + 1 (0 for P < 3), with at most
 * 2 P messages in all where recursive doubling sends about P lg P.
 *
 * Pure functions of (v, P, level), no MPI; -1 for "no peer".
 * tests/unit/test_patterns_scan.c checks them exhaustively.
 */
#ifndef COLIBRI_PATTERN_SCAN_H
#define COLIBRI_PATTERN_SCAN_H

#include <stdint.h>

/* Rounds of recursive doubling and levels of the sweep over P positions:
 * ceil(lg P) (0 for P <= 1). */
static inline int scan_levels(int P)
{
    int k = 0;
    while (k < 31 && ((int64_t)1 << k) < (int64_t)P)
        k++;
    return k;
}

/* Recursive doubling, round k: the position v sends to, receives from. */
static inline int scan_rd_to(int v, int P, int k)
{
    const int64_t t = (int64_t)v + ((int64_t)1 << k);
    return t < P ? (int)t : -1;
}

static inline int scan_rd_from(int v, int k)
{
    const int64_t f = (int64_t)v - ((int64_t)1 << k);
    return f >= 0 ? (int)f : -1;
}

/* Up-sweep level k: v sends its block to v + d when (v+1) mod 2d = d;
 * receives from v - d when (v+1) mod 2d = 0. */
static inline int scan_up_to(int v, int P, int k)
{
    const int64_t d = (int64_t)1 << k, x = (int64_t)v + 1;
    return x % (2 * d) == d && v + d < P ? (int)(v + d) : -1;
}

static inline int scan_up_from(int v, int P, int k)
{
    const int64_t d = (int64_t)1 << k, x = (int64_t)v + 1;
    return v < P && x % (2 * d) == 0 ? (int)(v - d) : -1;
}

/* Down-sweep level j: q with (q+1) mod 2d = 0 sends [0, q] to q + d;
 * v with (v+1) mod 2d = d and v + 1 > d receives it from v - d. */
static inline int scan_down_to(int v, int P, int j)
{
    const int64_t d = (int64_t)1 << j, x = (int64_t)v + 1;
    return x % (2 * d) == 0 && v + d < P ? (int)(v + d) : -1;
}

static inline int scan_down_from(int v, int P, int j)
{
    const int64_t d = (int64_t)1 << j, x = (int64_t)v + 1;
    return v < P && x % (2 * d) == d && x > d ? (int)(v - d) : -1;
}

/* Rounds with messages of the sweep: floor(lg P) up, D(P) down. */
static inline int scan_sweep_up_rounds(int P)
{
    int k = 0;
    while (((int64_t)2 << k) <= (int64_t)P)
        k++;
    return k;
}

static inline int scan_sweep_down_rounds(int P)
{
    int j = 0;
    while (((int64_t)3 << j) <= (int64_t)P)
        j++;
    return j;
}

#endif
