/*
 * patterns/bruck.h, exhaustively for p = 1..200 and every radix k = 2..p:
 * the whole Bruck all-to-all is simulated with block labels (every rank's
 * blocks moved along the sub-rounds) and every block must end at its
 * destination, at the position the final rotation reads it from.  Also the
 * round count against an independent count of the digit values that occur,
 * the runs against bruck_moves, and the peers against each other.
 * Each (p, k) counts as four checks (rounds twice, ceil(lg p) for k = 2,
 * arrival); a failing sub-round adds one.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patterns/bruck.h"

static int passed, failed;

static bool check(bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (ok) {
        passed++;
    } else if (++failed <= 40) {
        fputs("FAIL ", stdout);
        vprintf(fmt, ap);
        putchar('\n');
    }
    va_end(ap);
    return ok;
}

/* Sum over digit positions of the nonzero values digit d takes among 0..p-1,
 * counted by looking at every i (not by the formula bruck_values uses). */
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
            int d = bruck_block_dest(r, p, i), s = bruck_block_source(r, p, i);
            ok = ok && d >= 0 && d < p && !seen[d] && (d - r + p) % p == i && s >= 0 && s < p &&
                 bruck_block_dest(s, p, i) == r;
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
        int nv = bruck_values(p, k, stride);
        /* Every value past nv would move nothing. */
        if (nv != k - 1 && (int64_t)(nv + 1) * stride < p)
            check(false, "p=%d k=%d stride=%lld: only %d values", p, k, (long long)stride, nv);
        for (int v = 1; v <= nv; v++, rounds++) {
            /* The runs cover exactly the blocks bruck_moves names, in order. */
            for (int i = 0; i < p; i++)
                moving[i] = false;
            int n = 0, last = -1;
            for (int c = 0, first; (first = bruck_run_start(p, k, stride, v, c)) < p; c++) {
                int64_t len = p - first < stride ? p - first : stride;
                for (int i = first; i < first + len; i++) {
                    ok = ok && i > last && !moving[i];
                    moving[i] = true;
                    last = i;
                    n++;
                }
            }
            for (int i = 0; i < p; i++)
                ok = ok && moving[i] == bruck_moves(i, k, stride, v);
            ok = ok && n > 0 && n == bruck_nmoving(p, k, stride, v);
            if (!ok) {
                check(ok, "p=%d k=%d stride=%lld v=%d: runs (%d blocks) differ from bruck_moves "
                      "or bruck_nmoving %d", p, k, (long long)stride, v, n,
                      bruck_nmoving(p, k, stride, v));
                return;
            }
            /* Peers: send and receive are inverse shifts by v * stride. */
            for (int r = 0; r < p; r++) {
                from[r] = bruck_recv_peer(r, p, stride, v);
                ok = ok && from[r] >= 0 && from[r] < p &&
                     bruck_send_peer(from[r], p, stride, v) == r &&
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
    check(rounds == bruck_rounds(p, k), "p=%d k=%d: %d sub-rounds, bruck_rounds says %d", p, k,
          rounds, bruck_rounds(p, k));
    check(rounds == occurring_values(p, k), "p=%d k=%d: %d rounds, %d digit values occur", p, k,
          rounds, occurring_values(p, k));
    if (k == 2)
        check(rounds == ceil_log2(p), "p=%d k=2: %d rounds, not ceil(lg p)", p, rounds);
    /* At the end, position i of rank r holds what rank r - i sent to r. */
    check(memcmp(blk, end, (size_t)p * p * sizeof *blk) == 0,
          "p=%d k=%d: a block did not reach its destination", p, k);
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
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
