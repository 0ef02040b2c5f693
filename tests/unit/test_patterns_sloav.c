/*
 * patterns/sloav.h, exhaustively: p = 1..200, every radix k = 2..p+1.
 * Each slot's block moves exactly i ranks, in the sub-rounds of its non-zero
 * digits, and is declared final exactly once, at its last move; the counts
 * of sub-rounds and moving slots match the closed forms.  For p <= 40 the
 * whole exchange is also run rank by rank: everyone ends with the block of
 * source t - i in slot i.
 */
#include <stdio.h>
#include <stdlib.h>

#include "patterns/sloav.h"

static int passed, failed;

#define CHECK(cond, ...)                          \
    do {                                          \
        if (cond) {                               \
            passed++;                             \
        } else {                                  \
            failed++;                             \
            if (failed <= 20) {                   \
                printf("FAIL " __VA_ARGS__);      \
                printf("\n");                     \
            }                                     \
        }                                         \
    } while (0)

static void check_slots(int p, int k)
{
    int D = sloav_digits(p, k);
    int64_t kd = 1;
    for (int d = 0; d < D; d++)
        kd *= k;
    CHECK(p == 1 ? D == 0 : kd >= p && kd / k < p, "digits p=%d k=%d D=%d", p, k, D);

    int nonempty = 0, bad = 0;
    for (int d = 0; d < D; d++) {
        int w = sloav_weight(k, d), moving = 0;
        for (int i = 1; i < p; i++)
            moving += sloav_digit(i, k, w) != 0;
        CHECK(sloav_moving(p, k, w) == moving, "moving p=%d k=%d d=%d", p, k, d);
        for (int v = 1; v < k; v++) {
            int n = 0;
            for (int i = 1; i < p; i++)
                n += sloav_digit(i, k, w) == v;
            nonempty += n > 0;
            bad += (n > 0) != (v <= sloav_values(p, k, w));
        }
    }
    CHECK(bad == 0 && nonempty == sloav_subrounds(p, k), "sub-rounds p=%d k=%d: %d vs %d", p, k,
          nonempty, sloav_subrounds(p, k));

    for (int i = 0; i < p; i++) {
        int64_t moved = 0;
        int finals = 0, after_final = 0;
        for (int d = 0; d < D; d++) {
            int w = sloav_weight(k, d);
            for (int v = 1; v <= sloav_values(p, k, w); v++) {
                if (sloav_digit(i, k, w) != v)
                    continue;
                after_final += finals > 0;
                moved += (int64_t)v * w;
                finals += sloav_final(i, v, w);
            }
        }
        CHECK(moved == i && finals == (i > 0) && after_final == 0,
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
    int D = sloav_digits(p, k), ok = 1;
    for (int d = 0; d < D; d++) {
        int w = sloav_weight(k, d);
        for (int v = 1; v <= sloav_values(p, k, w); v++) {
            for (int r = 0; r < p; r++)
                for (int i = 0; i < p; i++)
                    next[r * p + i] = have[r * p + i];
            for (int r = 0; r < p; r++) {
                int from = sloav_peer(r, p, v, w, -1);
                ok &= sloav_peer(from, p, v, w, +1) == r;
                for (int i = 0; i < p; i++)
                    if (sloav_digit(i, k, w) == v)
                        next[r * p + i] = have[from * p + i];
            }
            int *t = have;
            have = next, next = t;
        }
    }
    for (int r = 0; r < p; r++)
        for (int i = 0; i < p; i++)
            ok &= have[r * p + i] == ((r - i) % p + p) % p;
    CHECK(ok, "ranks p=%d k=%d", p, k);
    free(have);
    free(next);
}

int main(void)
{
    for (int p = 1; p <= 200; p++) {
        for (int k = 2; k <= p + 1; k++) {
            check_slots(p, k);
            if (p <= 40)
                check_ranks(p, k);
        }
        int k = sloav_default_radix(p);
        CHECK(k >= 2 && (int64_t)k * k >= p && (k == 2 || (k - 1) * (k - 1) < p) &&
                  sloav_digits(p, k) <= 2,
              "default radix p=%d: %d", p, k);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
