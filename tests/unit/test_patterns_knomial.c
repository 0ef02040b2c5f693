/*
 * patterns/knomial.h, exhaustively for p = 1..130 and radices k = 2..10,
 * checked against definitions: k^m <= p < k^(m+1), j = floor(p / k^m) in
 * 1..k-1, q = j k^m participants and rem = p - q < k^m <= q folded out;
 * the rounds (m of radix k, then one of radix j when j > 1) have strides
 * k^i, so every participant has one mixed-radix digit per round and the
 * digits name it uniquely; round i joins the ranks that differ only in
 * digit i into groups of the round's radix, which partition 0..q-1; run in
 * order, each group joins adjacent intervals of ranks, so every participant
 * ends holding 0..q-1 in rank order.  The fold of the rem extra ranks
 * (fold.h's fold_rem_*) leaves exactly q survivors, renumbered 0..q-1.
 */
#include <stdbool.h>
#include <stdio.h>

#include "patterns/fold.h"
#include "patterns/knomial.h"

#include "../lib/check.h"

enum { MAXP = 130, MAXK = 10 };

static void test_plan(int p, int k)
{
    struct kn_plan pl;
    kn_make_plan(p, k, &pl);
    int km = 1, m = 0;
    while (km * k <= p)
        km *= k, m++;
    if (!check(pl.k == k && pl.m == m && pl.j == p / km && pl.j >= 1 && pl.j < k &&
                   pl.q == pl.j * km && pl.rem == p - pl.q && pl.rem < km && km <= pl.q,
               "p=%d k=%d: plan m=%d j=%d q=%d rem=%d", p, k, pl.m, pl.j, pl.q, pl.rem))
        return;
    const int rounds = kn_rounds(&pl);
    check(rounds == m + (pl.j > 1), "p=%d k=%d: %d rounds", p, k, rounds);

    /* radices and strides: mixed radix whose digits multiply to q */
    int radix[32], stride[32], prod = 1;
    for (int i = 0; i < rounds; i++) {
        radix[i] = kn_round(&pl, i, &stride[i]);
        check(stride[i] == prod && radix[i] == (i < m ? k : pl.j) && radix[i] >= 2,
              "p=%d k=%d round %d: radix %d stride %d", p, k, i, radix[i], stride[i]);
        prod *= radix[i];
    }
    check(prod == pl.q, "p=%d k=%d: radices multiply to %d, not q = %d", p, k, prod, pl.q);

    /* digits: x = sum d_i stride_i, unique */
    bool ok = true;
    for (int x = 0; x < pl.q; x++) {
        int y = 0;
        for (int i = 0; i < rounds; i++)
            y += (x / stride[i] % radix[i]) * stride[i];
        ok = ok && y == x;
    }
    check(ok, "p=%d k=%d: digits do not name the participants", p, k);

    /* rounds in order on intervals [lo, hi] */
    int lo[MAXP], hi[MAXP], nlo[MAXP], nhi[MAXP];
    for (int x = 0; x < pl.q; x++)
        lo[x] = hi[x] = x;
    for (int i = 0; i < rounds && ok; i++) {
        for (int x = 0; x < pl.q && ok; x++) {
            const int d = x / stride[i] % radix[i], base = x - d * stride[i];
            /* the group: ranks differing only in digit i, adjacent intervals in digit order */
            nlo[x] = lo[base], nhi[x] = hi[base];
            for (int e = 1; e < radix[i]; e++) {
                int y = base + e * stride[i];
                ok = ok && y < pl.q && lo[y] == nhi[x] + 1;
                nhi[x] = hi[y];
            }
            ok = ok && nhi[x] - nlo[x] + 1 == stride[i] * radix[i] && nlo[x] <= x && x <= nhi[x];
        }
        check(ok, "p=%d k=%d round %d: groups do not join adjacent intervals", p, k, i);
        for (int x = 0; x < pl.q; x++)
            lo[x] = nlo[x], hi[x] = nhi[x];
    }
    for (int x = 0; x < pl.q && ok; x++)
        ok = lo[x] == 0 && hi[x] == pl.q - 1;
    check(ok, "p=%d k=%d: participants do not end with 0..q-1", p, k);

    /* the fold onto q */
    int survivors = 0, last = -1;
    ok = true;
    for (int r = 0; r < p; r++) {
        int n = fold_rem_newrank(r, pl.rem);
        if (n < 0)
            continue;
        ok = ok && n == last + 1 && fold_rem_oldrank(n, pl.rem) == r;
        last = n, survivors++;
    }
    check(ok && survivors == pl.q, "p=%d k=%d: fold onto %d leaves %d", p, k, pl.q, survivors);
}

int main(void)
{
    for (int p = 1; p <= MAXP; p++)
        for (int k = 2; k <= MAXK; k++)
            test_plan(p, k);
    return check_summary();
}
