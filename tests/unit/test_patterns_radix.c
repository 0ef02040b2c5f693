/*
 * patterns/radix.h, exhaustively, as both of its users read it.
 *
 * Bruck's all-to-all, for p = 1..200 and every radix k = 2..p: the whole
 * exchange is simulated with block labels (every rank's
 * blocks moved along the sub-rounds) and every block must end at its
 * destination, at the position the final rotation reads it from.  Also the
 * round count against an independent count of the digit values that occur,
 * the runs against radix_moves, and the peers against each other.
 * Each (p, k) counts as four checks (rounds twice, ceil(lg p) for k = 2,
 * arrival); a failing sub-round adds one.
 *
 * SLOAV's reading, p = 1..200, every radix k = 2..p+1: each slot's block
 * moves exactly i ranks, in the sub-rounds of its non-zero digits, and is
 * declared final exactly once, at its last move; the counts of sub-rounds
 * and moving slots match the closed forms.  For p <= 40 the whole exchange
 * is also run rank by rank: everyone ends with the block of source t - i in
 * slot i.  radix_sqrt is checked against its definition.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patterns/radix.h"
#include "../lib/check.h"


/* Sum over digit positions of the nonzero values digit d takes among 0..p-1,
 * counted by looking at every i (not by the formula radix_values uses). */
static int occurring_values(int p, int k)
{
    int n = 0;
    bool *seen = calloc((size_t)k, sizeof *seen);
    for (int64_t stride = 1; stride < p; stride *= k) {
        for (int v = 0; v < k; v++)
            seen[v] = false;
        for (int i = 0; i < p; i++)
            seen[i / stride % k] = true;
        for (int v = 1; v < k; v++)
            n += seen[v];
    }
    free(seen);
    return n;
}

static int ceil_log2(int p)
{
    int l = 0;
    while ((1 << l) < p)
        l++;
    return l;
}

/* Label of a block: who sent it (src) and where it must go (dst). */
static int label(int p, int src, int dst) { return src * p + dst; }

/* The rotations do not depend on k: checked once per p, they give every
 * rank's labels at the start (start[r p + i]) and at the end (end[...]). */
static bool rotations(int p, int *start, int *end, bool *seen)
{
    bool ok = true;
    for (int r = 0; r < p; r++) {
        for (int j = 0; j < p; j++)
            seen[j] = false;
        for (int i = 0; i < p; i++) {
            int d = radix_slot_dest(r, p, i), s = radix_slot_source(r, p, i);
            ok = ok && d >= 0 && d < p && !seen[d] && (d - r + p) % p == i && s >= 0 && s < p &&
                 radix_slot_dest(s, p, i) == r;
            if (ok)
                seen[d] = true;
            start[r * p + i] = label(p, r, d);
            end[r * p + i] = label(p, s, r);
        }
    }
    return check(ok, "p=%d: the rotations are not inverse permutations", p);
}

static void simulate(int p, int k, const int *start, const int *end, int *blk, int *col,
                     int *from, bool *moving)
{
    bool ok = true;
    memcpy(blk, start, (size_t)p * p * sizeof *blk);
    int rounds = 0;
    for (int64_t stride = 1; stride < p; stride *= k) {
        int nv = radix_values(p, k, stride);
        /* Every value past nv would move nothing. */
        if (nv != k - 1 && (int64_t)(nv + 1) * stride < p)
            check(false, "p=%d k=%d stride=%lld: only %d values", p, k, (long long)stride, nv);
        for (int v = 1; v <= nv; v++, rounds++) {
            /* The runs cover exactly the blocks radix_moves names, in order. */
            for (int i = 0; i < p; i++)
                moving[i] = false;
            int n = 0, last = -1;
            for (int c = 0, first; (first = radix_run_start(p, k, stride, v, c)) < p; c++) {
                int64_t len = p - first < stride ? p - first : stride;
                for (int i = first; i < first + len; i++) {
                    ok = ok && i > last && !moving[i];
                    moving[i] = true;
                    last = i;
                    n++;
                }
            }
            for (int i = 0; i < p; i++)
                ok = ok && moving[i] == radix_moves(i, k, stride, v);
            ok = ok && n > 0 && n == radix_nmoving(p, k, stride, v);
            if (!ok) {
                check(ok, "p=%d k=%d stride=%lld v=%d: runs (%d blocks) differ from radix_moves "
                      "or radix_nmoving %d", p, k, (long long)stride, v, n,
                      radix_nmoving(p, k, stride, v));
                return;
            }
            /* Peers: send and receive are inverse shifts by v * stride. */
            for (int r = 0; r < p; r++) {
                from[r] = radix_peer(r, p, v, stride, -1);
                ok = ok && from[r] >= 0 && from[r] < p &&
                     radix_peer(from[r], p, v, stride, +1) == r &&
                     (r - from[r] + p) % p == (int)(v * stride);
            }
            if (!ok) {
                check(ok, "p=%d k=%d stride=%lld v=%d: peers", p, k, (long long)stride, v);
                return;
            }
            /* Every rank receives the moving positions from its recv peer. */
            for (int i = 0; i < p; i++) {
                if (!moving[i])
                    continue;
                for (int r = 0; r < p; r++)
                    col[r] = blk[from[r] * p + i];
                for (int r = 0; r < p; r++)
                    blk[r * p + i] = col[r];
            }
        }
    }
    check(rounds == radix_subrounds(p, k), "p=%d k=%d: %d sub-rounds, radix_subrounds says %d", p, k,
          rounds, radix_subrounds(p, k));
    check(rounds == occurring_values(p, k), "p=%d k=%d: %d rounds, %d digit values occur", p, k,
          rounds, occurring_values(p, k));
    if (k == 2)
        check(rounds == ceil_log2(p), "p=%d k=2: %d rounds, not ceil(lg p)", p, rounds);
    /* At the end, position i of rank r holds what rank r - i sent to r. */
    check(memcmp(blk, end, (size_t)p * p * sizeof *blk) == 0,
          "p=%d k=%d: a block did not reach its destination", p, k);
}

/* SLOAV's view of the same digits (formerly test_patterns_sloav.c). */
static void check_slots(int p, int k)
{
    int D = radix_digits(p, k);
    int64_t kd = 1;
    for (int d = 0; d < D; d++)
        kd *= k;
    check(p == 1 ? D == 0 : kd >= p && kd / k < p, "digits p=%d k=%d D=%d", p, k, D);

    int nonempty = 0, bad = 0;
    for (int d = 0; d < D; d++) {
        int w = radix_weight(k, d), moving = 0;
        for (int i = 1; i < p; i++)
            moving += radix_digit(i, k, w) != 0;
        check(radix_moving(p, k, w) == moving, "moving p=%d k=%d d=%d", p, k, d);
        for (int v = 1; v < k; v++) {
            int n = 0;
            for (int i = 1; i < p; i++)
                n += radix_digit(i, k, w) == v;
            nonempty += n > 0;
            bad += (n > 0) != (v <= radix_values(p, k, w));
        }
    }
    check(bad == 0 && nonempty == radix_subrounds(p, k), "sub-rounds p=%d k=%d: %d vs %d", p, k,
          nonempty, radix_subrounds(p, k));

    for (int i = 0; i < p; i++) {
        int64_t moved = 0;
        int finals = 0, after_final = 0;
        for (int d = 0; d < D; d++) {
            int w = radix_weight(k, d);
            for (int v = 1; v <= radix_values(p, k, w); v++) {
                if (radix_digit(i, k, w) != v)
                    continue;
                after_final += finals > 0;
                moved += (int64_t)v * w;
                finals += radix_final(i, v, w);
            }
        }
        check(moved == i && finals == (i > 0) && after_final == 0,
              "slot p=%d k=%d i=%d moved %lld finals %d", p, k, i, (long long)moved, finals);
    }
}

/* Rank-level run: have[r * p + i] = source of the block in slot i of r. */
static void check_ranks(int p, int k)
{
    int *have = malloc((size_t)p * p * sizeof *have), *next = malloc((size_t)p * p * sizeof *next);
    for (int r = 0; r < p; r++)
        for (int i = 0; i < p; i++)
            have[r * p + i] = r;
    int D = radix_digits(p, k), ok = 1;
    for (int d = 0; d < D; d++) {
        int w = radix_weight(k, d);
        for (int v = 1; v <= radix_values(p, k, w); v++) {
            for (int r = 0; r < p; r++)
                for (int i = 0; i < p; i++)
                    next[r * p + i] = have[r * p + i];
            for (int r = 0; r < p; r++) {
                int from = radix_peer(r, p, v, w, -1);
                ok &= radix_peer(from, p, v, w, +1) == r;
                for (int i = 0; i < p; i++)
                    if (radix_digit(i, k, w) == v)
                        next[r * p + i] = have[from * p + i];
            }
            int *t = have;
            have = next, next = t;
        }
    }
    for (int r = 0; r < p; r++)
        for (int i = 0; i < p; i++)
            ok &= have[r * p + i] == ((r - i) % p + p) % p;
    check(ok, "ranks p=%d k=%d", p, k);
    free(have);
    free(next);
}

int main(void)
{
    enum { P = 200 };
    int *start = malloc(P * P * sizeof *start), *end = malloc(P * P * sizeof *end),
        *blk = malloc(P * P * sizeof *blk), *col = malloc(P * sizeof *col),
        *from = malloc(P * sizeof *from);
    bool *moving = malloc(P * sizeof *moving);
    for (int p = 1; p <= P; p++)
        if (rotations(p, start, end, moving))
            for (int k = 2; k <= (p > 2 ? p : 2); k++)
                simulate(p, k, start, end, blk, col, from, moving);
    free(start);
    free(end);
    free(blk);
    free(col);
    free(from);
    free(moving);
    for (int p = 1; p <= 200; p++) {
        for (int k = 2; k <= p + 1; k++) {
            check_slots(p, k);
            if (p <= 40)
                check_ranks(p, k);
        }
        int k = radix_sqrt(p);
        check(k >= 2 && (int64_t)k * k >= p && (k == 2 || (k - 1) * (k - 1) < p) &&
                  radix_digits(p, k) <= 2,
              "default radix p=%d: %d", p, k);
    }
    return check_summary();
}
