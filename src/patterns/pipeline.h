/*
 * Trees of the pipelined broadcasts (bcast/pipeline.c, bcast/binary_tree.c)
 * over ranks counted from the root, x = (rank - root) mod p: a buffer cut
 * into segments flows down them, each rank passing segment j on while it
 * receives segment j + 1.
 *
 * Chain: x receives from x - 1 and sends to x + 1 (the last rank, p - 1,
 * sends to nobody).  Binary tree in heap order: x's children are 2x + 1
 * and 2x + 2 (those below p), its parent (x - 1) / 2; the tree is complete,
 * so its deepest rank, p - 1, lies floor(lg p) levels below the root.
 *
 * The step at which segment j reaches rank x, one step per hop after the
 * root sends segment j at step j: j + depth(x) - 1.  The last segment
 * (k - 1 of k) reaches the deepest rank at step k + depth - 2, so a
 * broadcast of k segments takes k + depth - 1 steps.
 *
 * Pure functions, no MPI: tests/unit/test_patterns_pipeline.c checks them.
 */
#ifndef COLIBRI_PATTERN_PIPELINE_H
#define COLIBRI_PATTERN_PIPELINE_H

#include "fold.h"

/* Parent of x > 0; -1 for the root. */
static inline int pipe_chain_parent(int x) { return x - 1; }
static inline int pipe_tree_parent(int x) { return x ? (x - 1) / 2 : -1; }

/* Child i (0, 1) of x in the binary tree, or -1 past p. */
static inline int pipe_tree_child(int x, int i, int p)
{
    const long long c = 2LL * x + 1 + i;
    return c < p ? (int)c : -1;
}

/* Hops from the root to x; the deepest rank's is the tree's depth. */
static inline int pipe_chain_depth(int x) { return x; }
static inline int pipe_tree_depth(int x) { return floor_log2(x + 1); }

/* Steps a broadcast of k >= 1 segments takes down a tree of depth d >= 1:
 * the last segment leaves the root at step k - 1 and needs d - 1 more. */
static inline long long pipe_steps(long long k, int depth) { return k + depth - 1; }

#endif
