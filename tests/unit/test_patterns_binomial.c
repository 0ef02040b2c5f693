/*
 * patterns/binomial.h, exhaustively for p = 1..130 and every root q,
 * checked against definitions: every position but the root has exactly one
 * parent, a position in 0..p-1 other than itself, and following parents
 * reaches q (the tree is connected and rooted at q) within ceil(lg p) hops;
 * binomial_nchildren counts exactly the positions whose parent it is;
 * binomial_step is mutual (x receives from y at level j exactly when y
 * sends to x at level j), a position sends once and is idle afterwards,
 * receives only before it sends, and the messages take ceil(lg p) levels;
 * every merge joins two adjacent intervals of positions, so the root ends
 * holding 0..p-1 in order.  With q = 0 a parent is the position with its
 * lowest set bit cleared; relrank and absrank are inverse.
 */
#include <stdbool.h>
#include <stdio.h>

#include "patterns/binomial.h"

#include "../lib/check.h"

enum { MAXP = 130 };

static int lg_ceil(int p) /* independent of fold.h's ceil_log2 */
{
    int k = 0;
    while ((1 << k) < p)
        k++;
    return k;
}

static void test_tree(int p, int q)
{
    int parent[MAXP], children[MAXP] = {0};
    bool ok = true;
    for (int x = 0; x < p; x++) {
        parent[x] = binomial_parent(x, q, p);
        if (x == q)
            ok = ok && parent[x] == -1;
        else
            ok = ok && parent[x] >= 0 && parent[x] < p && parent[x] != x;
    }
    if (!check(ok, "p=%d q=%d: parents out of range", p, q))
        return;
    int height = 0;
    for (int x = 0; x < p; x++) {
        if (x != q)
            children[parent[x]]++;
        int d = 0, y = x;
        while (y != q && d <= p)
            y = parent[y], d++;
        ok = ok && y == q && d <= lg_ceil(p);
        if (d > height)
            height = d;
    }
    check(ok, "p=%d q=%d: not a tree rooted at q of depth <= %d", p, q, lg_ceil(p));
    if ((p & (p - 1)) == 0)
        check(height == lg_ceil(p), "p=%d q=%d: height %d", p, q, height);
    for (int x = 0; x < p; x++)
        check(binomial_nchildren(x, q, p) == children[x], "p=%d q=%d: %d has %d children, says %d",
              p, q, x, children[x], binomial_nchildren(x, q, p));
    if (q == 0)
        for (int x = 1; x < p; x++)
            check(parent[x] == (x & (x - 1)), "p=%d: classic parent of %d is %d", p, x, parent[x]);

    /* the levels, run in order on intervals [lo, hi] of positions */
    int lo[MAXP], hi[MAXP];
    bool sent[MAXP] = {false};
    for (int x = 0; x < p; x++)
        lo[x] = hi[x] = x;
    int levels = 0;
    for (int j = 0; j < 31 && (1 << j) < 2 * p; j++) {
        bool any = false;
        int nsent[MAXP] = {0};
        for (int x = 0; x < p; x++) {
            int peer = -1, back = -1;
            enum binomial_role r = binomial_step(x, j, q, p, &peer);
            if (r == BINOMIAL_IDLE)
                continue;
            any = true;
            ok = !sent[x] && peer >= 0 && peer < p && peer != x && !sent[peer];
            enum binomial_role rb = ok ? binomial_step(peer, j, q, p, &back) : BINOMIAL_IDLE;
            ok = ok && back == x && rb == (r == BINOMIAL_SEND ? BINOMIAL_RECV : BINOMIAL_SEND);
            ok = ok && (r != BINOMIAL_SEND || peer == parent[x]);
            if (!check(ok, "p=%d q=%d level %d: %d <-> %d not mutual", p, q, j, x, peer))
                return;
            if (r == BINOMIAL_SEND)
                nsent[x]++;
        }
        for (int x = 0; x < p; x++) {
            int peer = -1;
            if (binomial_step(x, j, q, p, &peer) != BINOMIAL_RECV)
                continue;
            /* adjacent intervals only: the receiver knows the side */
            if (!check(hi[peer] + 1 == lo[x] || hi[x] + 1 == lo[peer],
                       "p=%d q=%d level %d: %d [%d,%d] merges %d [%d,%d]", p, q, j, x, lo[x],
                       hi[x], peer, lo[peer], hi[peer]))
                return;
            lo[x] = lo[x] < lo[peer] ? lo[x] : lo[peer];
            hi[x] = hi[x] > hi[peer] ? hi[x] : hi[peer];
        }
        for (int x = 0; x < p; x++)
            sent[x] = sent[x] || nsent[x];
        levels += any;
    }
    check(lo[q] == 0 && hi[q] == p - 1, "p=%d q=%d: root ends with [%d, %d]", p, q, lo[q], hi[q]);
    for (int x = 0; x < p; x++)
        check(sent[x] == (x != q), "p=%d q=%d: %d sent %d", p, q, x, sent[x]);
    check(levels == lg_ceil(p), "p=%d q=%d: %d levels", p, q, levels);
}

int main(void)
{
    for (int p = 1; p <= MAXP; p++)
        for (int q = 0; q < p; q++) {
            test_tree(p, q);
            for (int x = 0; x < p; x++) {
                int rel = binomial_relrank(x, q, p);
                check(rel >= 0 && rel < p && (rel + q) % p == x && binomial_absrank(rel, q, p) == x,
                      "p=%d q=%d: relrank(%d) = %d", p, q, x, rel);
            }
        }
    return check_summary();
}
