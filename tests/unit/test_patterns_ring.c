/*
 * patterns/ring.h, exhaustively for p = 1..130 and every rank, checked
 * against definitions: ring_shift is (rank + i) mod p in 0..p-1 for
 * -p <= i <= p; at every step of the reduce-scatter and the allgather what
 * rank r sends to r+1 is what r+1 expects from r (peers are mutual); run
 * step by step, the reduce-scatter adds every rank's share of a block once,
 * and after p-1 steps rank r holds block r summed over all p ranks, and the
 * allgather brings each rank every one of the p blocks once.  Block sizes
 * and offsets, displacements, the largest block and segments are checked
 * against plain sums.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "patterns/ring.h"

#include "../lib/check.h"

enum { MAXP = 130 };

static int mod(int a, int p) { return ((a % p) + p) % p; }

static void test_shift(int p)
{
    bool ok = true;
    for (int r = 0; r < p; r++)
        for (int i = -p; i <= p; i++)
            ok = ok && ring_shift(r, p, i) == mod(r + i, p);
    check(ok, "ring_shift p=%d", p);
}

/* cnt[r][b][c]: how many times rank c's share of block b is in rank r's
 * partial result of b */
static short cnt[MAXP][MAXP][MAXP];

static void test_reduce_scatter(int p)
{
    memset(cnt, 0, sizeof cnt);
    for (int r = 0; r < p; r++)
        for (int b = 0; b < p; b++)
            cnt[r][b][r] = 1;
    bool ok = true;
    for (int s = 0; s < p - 1 && ok; s++) {
        int blk[MAXP];
        static short sent[MAXP][MAXP]; /* what each rank sends, before any adds */
        for (int r = 0; r < p; r++) {
            blk[r] = ring_rs_send_block(r, p, s);
            ok = ok && blk[r] >= 0 && blk[r] < p && ring_rs_recv_block(mod(r + 1, p), p, s) == blk[r];
            if (ok)
                memcpy(sent[r], cnt[r][blk[r]], sizeof sent[r]);
        }
        if (!check(ok, "ring reduce-scatter p=%d step %d: sender and receiver disagree", p, s))
            return;
        for (int r = 0; r < p; r++)
            for (int c = 0; c < p; c++)
                cnt[mod(r + 1, p)][blk[r]][c] += sent[r][c];
    }
    for (int r = 0; r < p && ok; r++)
        for (int c = 0; c < p; c++)
            ok = ok && cnt[r][r][c] == 1;
    check(ok, "ring reduce-scatter p=%d: ranks do not end with their block summed once over all", p);
}

static void test_allgather(int p)
{
    static bool has[MAXP][MAXP];
    memset(has, 0, sizeof has);
    for (int r = 0; r < p; r++)
        has[r][r] = true;
    bool ok = true;
    for (int s = 0; s < p - 1 && ok; s++) {
        int blk[MAXP];
        for (int r = 0; r < p; r++) {
            const int to = mod(r + 1, p);
            blk[r] = ring_ag_send_block(r, p, s);
            ok = ok && blk[r] >= 0 && blk[r] < p && has[r][blk[r]] && !has[to][blk[r]] &&
                 ring_ag_recv_block(to, p, s) == blk[r];
        }
        for (int r = 0; r < p && ok; r++)
            has[mod(r + 1, p)][blk[r]] = true;
        check(ok, "ring allgather p=%d step %d: a block not held, already there or unexpected", p, s);
    }
    for (int r = 0; r < p && ok; r++)
        for (int b = 0; b < p; b++)
            ok = ok && has[r][b];
    check(ok, "ring allgather p=%d: not every block everywhere", p);
}

static void test_blocks(int p)
{
    for (int64_t n = 0; n <= 3 * p + 5; n++) {
        int64_t off = 0, prev = INT64_MAX;
        bool ok = true;
        for (int j = 0; j < p; j++) {
            int64_t c = ring_even_count(n, p, j);
            ok = ok && ring_even_offset(n, p, j) == off && c <= prev && (c == n / p || c == n / p + 1);
            off += c, prev = c;
        }
        check(ok && off == n, "ring_even_* n=%lld p=%d", (long long)n, p);
    }
    int64_t counts[MAXP], displs[MAXP + 1], sum = 0, max = 0;
    for (int j = 0; j < p; j++) {
        counts[j] = (j * 37 + p) % 11;
        sum += counts[j];
        max = counts[j] > max ? counts[j] : max;
    }
    ring_displs(counts, p, displs);
    bool ok = displs[0] == 0 && displs[p] == sum;
    for (int j = 0; j < p; j++)
        ok = ok && displs[j + 1] - displs[j] == counts[j];
    check(ok && ring_max_count(counts, p) == max, "ring_displs / ring_max_count p=%d", p);
}

static void test_segments(void)
{
    for (int64_t count = 0; count <= 200; count++)
        for (int64_t seg = 1; seg <= 70; seg++) {
            int64_t n = ring_nsegments(count, seg), total = 0;
            bool ok = n == (count == 0 ? 0 : (count - 1) / seg + 1);
            for (int64_t c = 0; c < n + 3; c++) {
                int64_t len = ring_segment_len(count, seg, c);
                ok = ok && (c < n ? len > 0 && len <= seg && (len == seg || c == n - 1) : len == 0);
                total += len;
            }
            check(ok && total == count, "segments count=%lld seg=%lld", (long long)count,
                  (long long)seg);
        }
}

int main(void)
{
    for (int p = 1; p <= MAXP; p++) {
        test_shift(p);
        test_reduce_scatter(p);
        test_allgather(p);
        test_blocks(p);
    }
    test_segments();
    return check_summary();
}
