/*
 * patterns/pipeline.h, exhaustively for p = 1..300 and every rank, checked
 * against definitions: the chain and the binary tree are spanning trees
 * rooted at x = 0 (every other rank has one parent below p, is that
 * parent's child, and reaches the root by following parents in depth(x)
 * hops); a binary-tree rank has at most two children, 2x+1 and 2x+2, each
 * below p and with x for parent; the binary tree's deepest rank is p - 1,
 * at floor(lg p); and a broadcast of k segments simulated step by step (a
 * rank forwards at step t + 1 what it received at step t) delivers the
 * last segment everywhere at step pipe_steps(k, depth) - 1 exactly.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "patterns/pipeline.h"

#include "../lib/check.h"

enum { MAXP = 300 };

/* Step at which each rank has segment k-1, found by simulation: the root
 * sends segment j at step j; a rank sends at step t + 1 what it got at
 * step t; child c receives at the step its parent sends. */
static int last_arrival(int p, bool tree, int k)
{
    int when[MAXP];
    when[0] = -1; /* the root has it: it sends segment k-1 at step k-1 */
    int last = 0;
    for (int x = 1; x < p; x++) {
        const int par = tree ? pipe_tree_parent(x) : pipe_chain_parent(x);
        /* the parent sends segment k-1 at step (root: k-1, else its arrival + 1) */
        when[x] = par == 0 ? k - 1 : when[par] + 1;
        last = when[x] > last ? when[x] : last;
    }
    return last;
}

static void test_trees(int p)
{
    bool ok = true;
    int deepest = 0;
    for (int x = 0; x < p; x++) {
        /* parents, children, depths */
        const int cp = pipe_chain_parent(x), tp = pipe_tree_parent(x);
        ok = ok && (x == 0 ? tp == -1 && cp == -1 : cp >= 0 && cp < x && tp >= 0 && tp < x);
        int hops = 0;
        for (int y = x; y > 0; y = pipe_tree_parent(y))
            hops++;
        ok = ok && hops == pipe_tree_depth(x) && pipe_chain_depth(x) == x;
        deepest = pipe_tree_depth(x) > deepest ? pipe_tree_depth(x) : deepest;
        for (int i = 0; i < 2; i++) {
            const int c = pipe_tree_child(x, i, p);
            ok = ok && (c == -1 ? 2 * x + 1 + i >= p : c == 2 * x + 1 + i && c < p &&
                                                          pipe_tree_parent(c) == x);
        }
        /* every child is someone's: count x among its parent's children */
        if (x) {
            bool found = false;
            for (int i = 0; i < 2; i++)
                found = found || pipe_tree_child(tp, i, p) == x;
            ok = ok && found;
        }
    }
    check(ok, "pipeline trees p=%d: parents, children or depths wrong", p);
    check(p == 1 || (deepest == floor_log2(p) && pipe_tree_depth(p - 1) == deepest),
          "binary tree p=%d: depth %d, floor(lg p) %d", p, deepest, floor_log2(p));
    for (int k = 1; k <= 9 && p > 1; k += 4) {
        check(last_arrival(p, false, k) == pipe_steps(k, p - 1) - 1,
              "chain p=%d k=%d: last segment at step %d, model %lld steps", p, k,
              last_arrival(p, false, k), pipe_steps(k, p - 1));
        check(last_arrival(p, true, k) == pipe_steps(k, floor_log2(p)) - 1,
              "binary tree p=%d k=%d: last segment at step %d, model %lld steps", p, k,
              last_arrival(p, true, k), pipe_steps(k, floor_log2(p)));
    }
}

int main(void)
{
    for (int p = 1; p <= MAXP; p++)
        test_trees(p);
    return check_summary();
}
