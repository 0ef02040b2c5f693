/*
 * patterns/blocks.h, exhaustively against definitions:
 *  - blocks_wrap, for p = 1..70, every first block and run length: the
 *    pieces cover blocks first .. first+n-1 (mod p) once each, in order,
 *    each inside 0..p-1, and there are two only when the run passes p-1;
 *  - the fold's ranges, for p = 1..300: survivor j holds exactly the old
 *    ranks that fold into it (itself and, for j < rem, its even partner),
 *    and every aligned group [g, g + d) of survivors covers one contiguous
 *    run of old ranks, [blocks_fold_lo(g), blocks_fold_lo(g + d));
 *  - recursive doubling over the fold, simulated on sets of blocks for
 *    p = 1..300: every rank ends with all p blocks, every message carries
 *    only blocks its sender holds and none the receiver has;
 *  - the binomial scatter, p = 1..300: the subtrees of a rank's children
 *    and the rank itself partition its own subtree, the root's is 0..p-1,
 *    so every relative rank receives each chunk of its subtree once, from
 *    its parent, which holds it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "patterns/blocks.h"
#include "patterns/fold.h"

#include "../lib/check.h"

enum { NMAX = 300 };

static void test_wrap(int p)
{
    bool ok = true;
    for (int first = 0; first < p; first++)
        for (int n = 0; n <= p; n++) {
            int start[2], len[2], seen[70] = {0}, k = 0;
            int pieces = blocks_wrap(first, n, p, start, len);
            ok = ok && (pieces == 2) == (first + n > p);
            for (int i = 0; i < pieces; i++)
                for (int b = start[i]; b < start[i] + len[i]; b++, k++) {
                    ok = ok && b >= 0 && b < p && b == (first + k) % p;
                    if (b >= 0 && b < p)
                        seen[b]++;
                }
            ok = ok && k == n;
            for (int b = 0; b < p; b++)
                ok = ok && seen[b] <= 1;
        }
    check(ok, "blocks_wrap p=%d", p);
}

static void test_fold(int p)
{
    const int q = pof2_floor(p), rem = p - q;
    bool ok = blocks_fold_lo(0, rem) == 0 && blocks_fold_lo(q, rem) == p;
    for (int r = 0; r < p; r++) {
        int j = fold_rem_newrank(r, rem);
        int owner = j >= 0 ? j : fold_rem_newrank(r + 1, rem); /* even: its odd partner */
        ok = ok && blocks_fold_lo(owner, rem) <= r && r < blocks_fold_lo(owner + 1, rem);
    }
    for (int j = 0; j < q; j++)
        ok = ok && blocks_fold_lo(j + 1, rem) - blocks_fold_lo(j, rem) == (j < rem ? 2 : 1);
    check(ok, "fold ranges p=%d", p);

    /* recursive doubling on sets of blocks */
    static bool has[NMAX][NMAX], next[NMAX][NMAX];
    memset(has, 0, sizeof has);
    for (int r = 0; r < p; r++)
        has[r][r] = true;
    for (int i = 0; i < rem; i++) /* even 2i gives its block to 2i+1 */
        has[2 * i + 1][2 * i] = true;
    ok = true;
    for (int d = 1; d < q; d *= 2) {
        memcpy(next, has, sizeof has);
        for (int j = 0; j < q; j++) {
            int peer = j ^ d, g = peer & ~(d - 1), r = fold_rem_oldrank(j, rem);
            int pr = fold_rem_oldrank(peer, rem);
            for (int b = blocks_fold_lo(g, rem); b < blocks_fold_lo(g + d, rem); b++) {
                ok = ok && has[pr][b] && !has[r][b];
                next[r][b] = true;
            }
        }
        memcpy(has, next, sizeof has);
    }
    for (int i = 0; i < rem; i++)
        memcpy(has[2 * i], has[2 * i + 1], sizeof has[0]);
    for (int r = 0; r < p; r++)
        for (int b = 0; b < p; b++)
            ok = ok && has[r][b];
    check(ok, "recursive doubling over the fold p=%d", p);
}

static void test_scatter(int p)
{
    bool ok = blocks_subtree_end(0, p) == p;
    for (int x = 0; x < p; x++) {
        const int lb = blocks_lowbit(x, p), end = blocks_subtree_end(x, p);
        int covered = x + 1; /* x itself, then its children in order */
        for (int c = 1; c < lb && x + c < p; c *= 2) {
            ok = ok && covered == x + c && blocks_lowbit(x + c, p) == c;
            covered = blocks_subtree_end(x + c, p);
        }
        ok = ok && covered == end && end <= p && end > x;
        if (x) /* inside the parent's subtree */
            ok = ok && x - lb >= 0 && blocks_subtree_end(x - lb, p) >= end;
    }
    check(ok, "binomial scatter subtrees p=%d", p);
}

int main(void)
{
    for (int p = 1; p <= 70; p++)
        test_wrap(p);
    for (int p = 1; p <= NMAX; p++) {
        test_fold(p);
        test_scatter(p);
    }
    return check_summary();
}
