/*
 * Bruck's all-to-all index arithmetic with radix k >= 2.
 *
 * Each rank first rotates its p blocks so that local block i holds the data
 * destined to rank + i.  Block i must then travel a distance of i ranks,
 * which it does digit by digit in base k: in sub-round (d, v), for digit
 * position d (stride k^d) and digit value v in 1..k-1, every rank sends the
 * blocks whose digit d equals v to rank + v k^d and receives the same
 * positions from rank - v k^d.  A block keeps its position i all along, so
 * after every digit has been handled it sits at rank + i, and the block at
 * position i of rank r came from r - i: the final inverse rotation.
 *
 * Sub-rounds that would move no block are skipped: (d, v) moves block v k^d
 * and upwards, so it exists iff v k^d < p.  Rounds:
 *      R = sum over d with k^d < p of min(k-1, ceil(p / k^d) - 1)
 * which is ceil(log2 p) for k = 2 and at most (k-1) ceil(log_k p).
 *
 * The blocks moving in (d, v) form runs of `stride` = k^d consecutive
 * positions starting at c k stride + v stride, c = 0, 1, ... (the last run
 * may be cut short by p), so a builder packs and unpacks them run by run.
 *
 * Pure functions, no MPI: unit tests call them directly.
 */
#ifndef COLIBRI_PATTERN_BRUCK_H
#define COLIBRI_PATTERN_BRUCK_H

#include <stdbool.h>
#include <stdint.h>

/* Digit values 1..bruck_values(...) of the digit with this stride are the
 * sub-rounds that move something. */
static inline int bruck_values(int p, int k, int64_t stride)
{
    int64_t above = (p + stride - 1) / stride - 1; /* values v with v stride < p */
    return above < k - 1 ? (int)above : k - 1;
}

static inline int bruck_rounds(int p, int k)
{
    int r = 0;
    for (int64_t stride = 1; stride < p; stride *= k)
        r += bruck_values(p, k, stride);
    return r;
}

/* Digit of `i` at this stride. */
static inline int bruck_digit(int i, int k, int64_t stride) { return i / (int)stride % k; }

static inline bool bruck_moves(int i, int k, int64_t stride, int v)
{
    return bruck_digit(i, k, stride) == v;
}

/* Peers of sub-round (stride, v), which exists only when v stride < p. */
static inline int bruck_send_peer(int rank, int p, int64_t stride, int v)
{
    int to = rank + (int)(v * stride);
    return to >= p ? to - p : to;
}

static inline int bruck_recv_peer(int rank, int p, int64_t stride, int v)
{
    int from = rank - (int)(v * stride);
    return from < 0 ? from + p : from;
}

/* Run c of the blocks moving in (stride, v): first position, or p when
 * there is no such run; its length is min(stride, p - start). */
static inline int bruck_run_start(int p, int k, int64_t stride, int v, int c)
{
    int64_t start = (int64_t)c * k * stride + v * stride;
    return start < p ? (int)start : p;
}

/* Number of blocks moving in (stride, v). */
static inline int bruck_nmoving(int p, int k, int64_t stride, int v)
{
    int64_t period = k * stride, tail = p % period - v * stride;
    int64_t n = p / period * stride + (tail < 0 ? 0 : tail < stride ? tail : stride);
    return (int)n;
}

/* Initial rotation: local block i holds what this rank sends to rank + i. */
static inline int bruck_block_dest(int rank, int p, int i) { return (rank + i) % p; }

/* Final inverse rotation: local block i was sent by rank - i. */
static inline int bruck_block_source(int rank, int p, int i) { return (rank - i + p) % p; }

#endif
