/*
 * patterns/fold.h, exhaustively for p = 1..130 (the log helpers up to
 * 4096): the survivors of a fold number a power of two (pof2_floor: the
 * largest <= p), they are the odd rank of each of the first rem = p - p'
 * pairs and every rank from 2 rem up, their new ranks are 0..p'-1 in the
 * original rank order, and fold_newrank / fold_oldrank are inverse.  The
 * same for fold_rem_* with any number of pairs rem <= p / 2 (k-nomial
 * folds onto a non-power of two).  Checked against definitions, not the
 * header's arithmetic.
 */
#include <stdbool.h>
#include <stdio.h>

#include "patterns/fold.h"

#include "../lib/check.h"

enum { MAXP = 130 };

static bool is_pof2(int x) { return x > 0 && (x & (x - 1)) == 0; }

static void test_logs(void)
{
    for (int p = 1; p <= 4096; p++) {
        int f = pof2_floor(p), c = ceil_log2(p), l = floor_log2(p);
        check(is_pof2(f) && f <= p && p < 2 * f, "pof2_floor(%d) = %d", p, f);
        check(c >= 0 && c < 31 && (1 << c) >= p && (c == 0 || (1 << (c - 1)) < p),
              "ceil_log2(%d) = %d", p, c);
        check(l >= 0 && l < 31 && (1 << l) <= p && p < (2 << l), "floor_log2(%d) = %d", p, l);
        check((1 << l) == f, "floor_log2(%d) = %d but pof2_floor = %d", p, l, f);
    }
}

/* A fold of p ranks with `rem` pairs onto p - rem survivors; newrank/oldrank
 * are the header's maps under test. */
static void check_fold(int p, int rem, int (*newrank)(int, int), int (*oldrank)(int, int),
                       int arg, const char *what)
{
    int seen[MAXP], survivors = 0, last_new = -1;
    for (int n = 0; n < p; n++)
        seen[n] = 0;
    for (int r = 0; r < p; r++) {
        int n = newrank(r, arg);
        /* sitting out: exactly the even rank of each of the first rem pairs */
        bool sits_out = r < 2 * rem && r % 2 == 0;
        if (!check((n < 0) == sits_out, "%s p=%d rem=%d: rank %d -> %d", what, p, rem, r, n))
            continue;
        if (n < 0) {
            check(n == -1, "%s p=%d: rank %d sits out as %d, not -1", what, p, r, n);
            check(newrank(r + 1, arg) >= 0, "%s p=%d: partner of %d does not survive", what, p, r);
            continue;
        }
        survivors++;
        check(n < p - rem && !seen[n]++, "%s p=%d rem=%d: new rank %d of %d out of range or twice",
              what, p, rem, n, r);
        check(n > last_new, "%s p=%d rem=%d: rank order not kept at %d", what, p, rem, r);
        last_new = n;
        check(oldrank(n, arg) == r, "%s p=%d rem=%d: oldrank(newrank(%d)) = %d", what, p, rem, r,
              oldrank(n, arg));
    }
    check(survivors == p - rem, "%s p=%d rem=%d: %d survivors", what, p, rem, survivors);
    for (int n = 0; n < p - rem; n++) {
        int r = oldrank(n, arg);
        check(r >= 0 && r < p && newrank(r, arg) == n, "%s p=%d rem=%d: newrank(oldrank(%d))", what,
              p, rem, n);
    }
}

static int newrank_p(int r, int p) { return fold_newrank(r, p); }
static int oldrank_p(int n, int p) { return fold_oldrank(n, p); }
static int newrank_rem(int r, int rem) { return fold_rem_newrank(r, rem); }
static int oldrank_rem(int n, int rem) { return fold_rem_oldrank(n, rem); }

int main(void)
{
    test_logs();
    for (int p = 1; p <= MAXP; p++) {
        int pp = 1;
        while (pp * 2 <= p)
            pp *= 2;
        check_fold(p, p - pp, newrank_p, oldrank_p, p, "fold");
        for (int rem = 0; rem <= p / 2; rem++)
            check_fold(p, rem, newrank_rem, oldrank_rem, rem, "fold_rem");
    }
    return check_summary();
}
