/*
 * patterns/halving.h, exhaustively over butterflies of 2^L ranks (L = 0..7)
 * and p = 1..130 ranks, every rank and root, checked against definitions:
 *  - block_offset cuts [0, n) into near-equal blocks, longer ones first;
 *  - bit_reverse reverses bits (and is its own inverse);
 *  - halving_range: before step s, v and v ^ 2^s hold the same positions;
 *    in step s they split them into two halves, the lower one to the rank
 *    whose bit s is clear; after L steps v holds bit_reverse(v) alone, so
 *    the ranks' final blocks partition [0, count) and each ends with its
 *    block;
 *  - halving_max_half / halving_volume: the largest half of each step, in
 *    elements, and their sum ((2^L - 1) / 2^L n when 2^L divides n);
 *  - gather_role: run from step L-1 down to 0 it is a binomial gather that
 *    undoes the halving: every pair is one sender and one receiver, a rank
 *    sends once and only while it still holds data, and the root ends
 *    holding every position;
 *  - fold_rooted_*: the fold of fold.h (same new ranks), but a root in a
 *    folded pair is the one that survives.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "patterns/halving.h"

#include "../lib/check.h"

enum { MAXL = 7, MAXP = 130 };

static void test_block_offset(void)
{
    for (int64_t n = 0; n <= 300; n++)
        for (int nb = 1; nb <= 70; nb++) {
            bool ok = block_offset(n, nb, 0) == 0 && block_offset(n, nb, nb) == n;
            int64_t prev = -1;
            for (int b = 0; b < nb && ok; b++) {
                int64_t len = block_offset(n, nb, b + 1) - block_offset(n, nb, b);
                int64_t want = n / nb + (b < n % nb); /* longer blocks first */
                ok = len == want && (prev < 0 || len <= prev);
                prev = len;
            }
            check(ok, "block_offset n=%lld nblocks=%d", (long long)n, nb);
        }
}

static void test_bit_reverse(void)
{
    for (int bits = 0; bits <= 10; bits++)
        for (int v = 0; v < 1 << bits; v++) {
            int r = bit_reverse(v, bits);
            bool ok = r >= 0 && r < 1 << bits && bit_reverse(r, bits) == v;
            for (int i = 0; i < bits; i++)
                ok = ok && ((v >> i) & 1) == ((r >> (bits - 1 - i)) & 1);
            check(ok, "bit_reverse(%d, %d) = %d", v, bits, r);
        }
}

static void test_ranges(void)
{
    for (int L = 0; L <= MAXL; L++) {
        const int P = 1 << L;
        int owner[1 << MAXL];
        memset(owner, -1, sizeof owner);
        for (int v = 0; v < P; v++) {
            int lo, len;
            halving_range(v, L, 0, &lo, &len);
            check(lo == 0 && len == P, "L=%d v=%d: starts with [%d, +%d)", L, v, lo, len);
            for (int s = 0; s < L; s++) {
                int plo, plen, qlo, qlen, nlo, nlen, mlo, mlen;
                const int u = v ^ (1 << s);
                halving_range(v, L, s, &plo, &plen);
                halving_range(u, L, s, &qlo, &qlen);
                check(plo == qlo && plen == qlen, "L=%d s=%d: %d and %d differ before the step",
                      L, s, v, u);
                halving_range(v, L, s + 1, &nlo, &nlen);
                halving_range(u, L, s + 1, &mlo, &mlen);
                /* the two halves of what both held, lower to bit s clear */
                const int keep_lo = (v >> s & 1) ? plo + plen / 2 : plo;
                check(nlen * 2 == plen && nlo == keep_lo && mlen == nlen &&
                          (mlo == nlo + nlen || nlo == mlo + mlen),
                      "L=%d s=%d v=%d: [%d,+%d) -> [%d,+%d), partner [%d,+%d)", L, s, v, plo,
                      plen, nlo, nlen, mlo, mlen);
            }
            halving_range(v, L, L, &lo, &len);
            check(len == 1 && lo == bit_reverse(v, L), "L=%d v=%d ends with [%d,+%d)", L, v, lo,
                  len);
            if (len == 1 && lo >= 0 && lo < P)
                check(owner[lo] < 0, "L=%d: position %d ends at %d and %d", L, lo, owner[lo], v),
                    owner[lo] = v;
        }
        /* the final blocks partition [0, count) */
        for (int64_t n = 0; n <= 40; n++) {
            int64_t covered = 0;
            for (int b = 0; b < P; b++) {
                int v = owner[b];
                if (v < 0)
                    continue;
                int lo, len;
                halving_range(v, L, L, &lo, &len);
                covered += block_offset(n, P, lo + len) - block_offset(n, P, lo);
            }
            check(covered == n, "L=%d n=%lld: final blocks cover %lld", L, (long long)n,
                  (long long)covered);
        }
    }
}

static void test_volume(void)
{
    for (int L = 0; L <= MAXL; L++)
        for (int64_t n = 0; n <= 300; n += 1 + n / 8) {
            const int P = 1 << L;
            int64_t total = 0;
            for (int s = 0; s < L; s++) {
                int64_t biggest = 0;
                for (int v = 0; v < P; v++) { /* the half each rank keeps in step s */
                    int lo, len;
                    halving_range(v, L, s + 1, &lo, &len);
                    int64_t e = block_offset(n, P, lo + len) - block_offset(n, P, lo);
                    if (e > biggest)
                        biggest = e;
                }
                check(halving_max_half(n, L, s) == biggest, "max_half n=%lld L=%d s=%d: %lld, want %lld",
                      (long long)n, L, s, (long long)halving_max_half(n, L, s), (long long)biggest);
                total += biggest;
            }
            check(halving_volume(n, L) == total, "volume n=%lld L=%d", (long long)n, L);
            if (n % P == 0)
                check(halving_volume(n, L) == (P - 1) * (n / P), "volume n=%lld L=%d not (P-1)/P n",
                      (long long)n, L);
        }
}

static void test_gather(void)
{
    for (int L = 0; L <= MAXL; L++) {
        const int P = 1 << L;
        for (int vr = 0; vr < P; vr++) {
            int held[1 << MAXL]; /* positions each rank holds, counted */
            bool active[1 << MAXL];
            for (int v = 0; v < P; v++)
                held[v] = 1, active[v] = true;
            bool ok = true;
            for (int s = L - 1; s >= 0; s--) {
                for (int v = 0; v < P; v++) { /* everyone in a pair still holds data */
                    int role = gather_role(v, vr, s);
                    ok = ok && (role == 0 || (active[v] && gather_role(v ^ (1 << s), vr, s) == -role));
                }
                for (int v = 0; v < P; v++)
                    if (ok && gather_role(v, vr, s) == 1) {
                        held[v] += held[v ^ (1 << s)];
                        active[v ^ (1 << s)] = false;
                    }
            }
            for (int v = 0; v < P; v++)
                ok = ok && active[v] == (v == vr);
            check(ok && held[vr] == P, "gather_role L=%d root %d: root holds %d of %d", L, vr,
                  held[vr], P);
        }
    }
}

static void test_fold_rooted(void)
{
    for (int p = 1; p <= MAXP; p++) {
        int pp = 1;
        while (pp * 2 <= p)
            pp *= 2;
        const int rem = p - pp;
        for (int root = 0; root < p; root++) {
            int seen[MAXP] = {0}, survivors = 0;
            bool ok = fold_rooted_newrank(root, p, root) >= 0;
            for (int r = 0; r < p; r++) {
                int n = fold_rooted_newrank(r, p, root);
                if (n < 0) {
                    /* sits out: in one of the first rem pairs, its partner survives */
                    ok = ok && n == -1 && r < 2 * rem && fold_rooted_newrank(r ^ 1, p, root) >= 0;
                    continue;
                }
                survivors++;
                ok = ok && n < pp && !seen[n]++ && fold_rooted_oldrank(n, p, root) == r;
                /* the new rank of fold.h's survivor of the same pair (or the same rank) */
                ok = ok && (fold_newrank(r, p) == n || fold_newrank(r ^ 1, p) == n);
            }
            check(ok && survivors == pp, "fold_rooted p=%d root=%d (%d survivors)", p, root,
                  survivors);
        }
    }
}

int main(void)
{
    test_block_offset();
    test_bit_reverse();
    test_ranges();
    test_volume();
    test_gather();
    test_fold_rooted();
    return check_summary();
}
