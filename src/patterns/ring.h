/*
 * Ring and shift arithmetic: which block travels where at each step, block
 * offsets, segments.  Blocks are numbered by the rank that ends up owning
 * them.
 *
 * Ring reduce-scatter: at step s (0..p-2) a rank sends block rank-s-1 to
 * rank+1 and receives block rank-s-2 from rank-1, adding its own share, so
 * after p-1 steps it holds the whole sum of block `rank`.  Ring allgather:
 * at step s it passes on block rank-s and receives block rank-s-1.
 *
 * Pure functions, no MPI: unit tests call them directly.
 */
#ifndef COLIBRI_PATTERN_RING_H
#define COLIBRI_PATTERN_RING_H

#include <stdint.h>

/* (rank + i) mod p, for -p <= i <= p. */
static inline int ring_shift(int rank, int p, int i)
{
    int r = (rank + i) % p;
    return r < 0 ? r + p : r;
}

static inline int ring_rs_send_block(int rank, int p, int step) { return ring_shift(rank, p, -step - 1); }
static inline int ring_rs_recv_block(int rank, int p, int step) { return ring_shift(rank, p, -step - 2); }
static inline int ring_ag_send_block(int rank, int p, int step) { return ring_shift(rank, p, -step); }
static inline int ring_ag_recv_block(int rank, int p, int step) { return ring_shift(rank, p, -step - 1); }

/* n elements cut into p blocks whose sizes differ by at most one, larger first. */
static inline int64_t ring_even_count(int64_t n, int p, int j) { return n / p + (j < n % p); }

static inline int64_t ring_even_offset(int64_t n, int p, int j)
{
    int64_t rem = n % p;
    return j * (n / p) + (j < rem ? j : rem);
}

/* displs[0..p]: where each block of `counts` starts, and the total. */
static inline void ring_displs(const int64_t *counts, int p, int64_t *displs)
{
    displs[0] = 0;
    for (int j = 0; j < p; j++)
        displs[j + 1] = displs[j] + counts[j];
}

static inline int64_t ring_max_count(const int64_t *counts, int p)
{
    int64_t c = 0;
    for (int j = 0; j < p; j++)
        if (counts[j] > c)
            c = counts[j];
    return c;
}

static inline int64_t ring_nsegments(int64_t count, int64_t seg)
{
    return (count + seg - 1) / seg;
}

/* Elements of segment c of a block of `count` elements (0 past its end). */
static inline int64_t ring_segment_len(int64_t count, int64_t seg, int64_t c)
{
    int64_t left = count - c * seg;
    return left <= 0 ? 0 : left < seg ? left : seg;
}

#endif
