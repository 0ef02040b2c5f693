/*
 * patterns/three_two.h, exhaustively for p = 1..1100 and every rank,
 * checked against what the header promises, not its arithmetic:
 *  - L = floor(lg p); G[L] = 1 node, G[0] = p, G[l-1] = 2 G[l] + t[l] and
 *    0 <= t[l] <= G[l]; p = 2^L + sum_l t[l] 2^(l-1);
 *  - the r = p - 2^L extra ranks are eliminated on as few and as deep
 *    levels as possible: none when r = 0, one level if r <= 2^L / 2, else
 *    two; the shallowest level used is l0 = 1 + (trailing zeros of r);
 *  - the first G[l] - t[l] nodes of level l have two children, the rest
 *    three; children are consecutive and in order, so every node is an
 *    interval of ranks and the root is 0..p-1; tt_parent inverts
 *    tt_first_child;
 *  - every node of level l has 2^l survivors (tt_member), distinct ranks
 *    inside the node, the last child of a three-child node contributing none;
 *  - tt_path: a rank's nodes contain it, its survivor index agrees with
 *    tt_member, exactly r ranks are eliminated and 2^L survive.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "patterns/three_two.h"

#include "../lib/check.h"

enum { MAXP = 1100 };

static int lo_of[HALVING_MAXL + 1][MAXP], hi_of[HALVING_MAXL + 1][MAXP];

static void test_plan(int p)
{
    struct tt_plan pl;
    tt_make_plan(p, &pl);
    int L = 0;
    while ((2 << L) <= p)
        L++;
    const int pp = 1 << L, r = p - pp;
    if (!check(pl.L == L && pl.G[L] == 1 && pl.G[0] == p, "p=%d: L=%d G[L]=%d G[0]=%d", p, pl.L,
               pl.G[L], pl.G[0]))
        return;
    int sum = pp, levels = 0, shallowest = 0;
    bool ok = true;
    for (int l = 1; l <= L; l++) {
        ok = ok && pl.t[l] >= 0 && pl.t[l] <= pl.G[l] && pl.G[l - 1] == 2 * pl.G[l] + pl.t[l];
        sum += pl.t[l] << (l - 1);
        if (pl.t[l]) {
            levels++;
            shallowest = shallowest ? shallowest : l;
        }
    }
    int l0 = 1;
    while (r && !(r >> (l0 - 1) & 1))
        l0++;
    check(ok && sum == p, "p=%d: plan does not add up", p);
    check(levels == (r == 0 ? 0 : r <= pp / 2 ? 1 : 2) && (r == 0 || shallowest == l0),
          "p=%d: r=%d eliminated on %d levels from %d (l0=%d)", p, r, levels, shallowest, l0);

    /* children: consecutive, in order, 2 then 3; nodes are intervals */
    for (int g = 0; g < p; g++)
        lo_of[0][g] = hi_of[0][g] = g;
    for (int l = 1; l <= L && ok; l++) {
        int next = 0;
        for (int h = 0; h < pl.G[l] && ok; h++) {
            const int nc = tt_children(&pl, l, h), first = tt_first_child(&pl, l, h);
            ok = nc == (h < pl.G[l] - pl.t[l] ? 2 : 3) && first == next;
            for (int c = 0; c < nc && ok; c++) {
                int child = -1, pa = tt_parent(&pl, l, first + c, &child);
                ok = pa == h && child == c && (c == 0 || lo_of[l - 1][first + c] == hi_of[l - 1][first + c - 1] + 1);
            }
            if (ok) {
                lo_of[l][h] = lo_of[l - 1][first];
                hi_of[l][h] = hi_of[l - 1][first + nc - 1];
            }
            next = first + nc;
        }
        ok = ok && next == pl.G[l - 1];
        check(ok, "p=%d level %d: children are not consecutive intervals", p, l);
    }
    if (!ok)
        return;
    check(lo_of[L][0] == 0 && hi_of[L][0] == p - 1, "p=%d: root is [%d, %d]", p, lo_of[L][0],
          hi_of[L][0]);

    /* survivors */
    static int seen[MAXP];
    for (int l = 0; l <= L && ok; l++)
        for (int h = 0; h < pl.G[l] && ok; h++) {
            memset(seen, 0, sizeof(int) * (size_t)p);
            for (int V = 0; V < 1 << l && ok; V++) {
                int m = tt_member(&pl, l, h, V);
                ok = m >= lo_of[l][h] && m <= hi_of[l][h] && !seen[m]++;
            }
            check(ok, "p=%d level %d node %d: survivors not distinct inside it", p, l, h);
        }

    int eliminated = 0, survivors = 0;
    int node[HALVING_MAXL + 1], child[HALVING_MAXL + 1], V[HALVING_MAXL + 1];
    for (int x = 0; x < p && ok; x++) {
        int e = tt_path(&pl, x, node, child, V);
        ok = e >= 1 && e <= L + 1;
        int v = 0;
        for (int l = 1; l < e && l <= L && ok; l++) {
            ok = lo_of[l][node[l]] <= x && x <= hi_of[l][node[l]] && child[l] < 2 && V[l] == v &&
                 tt_member(&pl, l - 1, l == 1 ? x : node[l - 1], V[l]) == x;
            v |= child[l] << (l - 1);
        }
        if (ok && e <= L) /* eliminated: the last child of a three-child node */
            ok = child[e] == 2 && tt_children(&pl, e, node[e]) == 3 &&
                 lo_of[e][node[e]] <= x && x <= hi_of[e][node[e]];
        if (ok && e == L + 1)
            ok = tt_member(&pl, L, 0, v) == x;
        eliminated += e <= L, survivors += e == L + 1;
        check(ok, "p=%d: tt_path of rank %d", p, x);
    }
    check(eliminated == r && survivors == pp, "p=%d: %d eliminated, %d survive", p, eliminated,
          survivors);
}

int main(void)
{
    for (int p = 1; p <= MAXP; p++)
        test_plan(p);
    return check_summary();
}
