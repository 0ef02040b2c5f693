/*
 * Block arithmetic of the data-movement collectives that spread p blocks
 * (allgather) or p chunks of one buffer (bcast by scatter and allgather):
 * where a run of blocks lies in the output, which blocks a recursive
 * doubling step exchanges, and which chunks a binomial scatter hands down.
 *
 * Runs modulo p.  Bruck's allgather (patterns/dissemination.h) moves runs
 * of consecutive blocks taken modulo p: blocks first, first+1, ... of
 * length n.  Written straight into the output, a run that passes block
 * p-1 is two pieces, [first, p) and [0, n - (p - first)).  Both ends of a
 * message cut the run at the same block (the same absolute indices), so
 * each piece is one message of the same size on both sides.
 *
 * Recursive doubling over the fold (patterns/fold.h): the first 2 rem
 * ranks, rem = p - p', pair up and the even one hands its block to the odd
 * one.  Survivor j (new rank) then holds the blocks of old ranks
 * [blocks_fold_lo(j), blocks_fold_lo(j + 1)): two for j < rem, one after.
 * Survivors of an aligned group of new ranks [g, g + d) hold the old ranks
 * [blocks_fold_lo(g), blocks_fold_lo(g + d)), one contiguous range, so each
 * doubling step sends one message each way, and at the end every survivor
 * holds all p blocks and gives them to its folded partner.
 *
 * Binomial scatter over relative ranks x = 0..p-1 (root 0): x receives
 * from x - lowbit(x) the chunks of its subtree [x, blocks_subtree_end(x))
 * and hands child x + 2^j (2^j < lowbit(x), x + 2^j < p) the chunks
 * [x + 2^j, blocks_subtree_end(x + 2^j)).  The root's lowbit is taken as
 * the smallest power of two >= p.
 *
 * Pure functions, no MPI: tests/unit/test_patterns_blocks.c checks them.
 */
#ifndef COLIBRI_PATTERN_BLOCKS_H
#define COLIBRI_PATTERN_BLOCKS_H

#include <stdint.h>

/* Cuts the run of n blocks from block `first` (0 <= first < p, 0 <= n <=
 * p) at block p-1: start[i], len[i] of its pieces; returns their number,
 * 1 or 2 (a run of 0 blocks is one empty piece). */
static inline int blocks_wrap(int first, int n, int p, int start[2], int len[2])
{
    start[0] = first;
    if (first + n <= p) {
        len[0] = n;
        return 1;
    }
    len[0] = p - first;
    start[1] = 0;
    len[1] = n - len[0];
    return 2;
}

/* First old rank whose block survivor j of the fold holds (j = p' gives p). */
static inline int blocks_fold_lo(int j, int rem) { return j < rem ? 2 * j : j + rem; }

/* Lowest set bit of x > 0; for x = 0 (the root) the smallest power of two >= p. */
static inline int blocks_lowbit(int x, int p)
{
    if (x)
        return x & -x;
    int b = 1;
    while (b < p)
        b *= 2;
    return b;
}

/* End of relative rank x's subtree in the binomial scatter. */
static inline int blocks_subtree_end(int x, int p)
{
    int64_t e = (int64_t)x + blocks_lowbit(x, p);
    return e < p ? (int)e : p;
}

#endif
