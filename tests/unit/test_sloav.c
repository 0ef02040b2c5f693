/*
 * SLOAV alltoallv run in loopback (loopback.h) on real bytes, every rank:
 * p = 1..40 with every radix 2..p+1 and the default, and p = 64, 100, 128,
 * 129, 200 with sampled radices; uniform, empty, random, skewed (one rank
 * sends 100x more) and empty-rank counts, packed or reversed displacements
 * with gaps, in place or not, and (p <= 16) large equal blocks whose
 * messages overflow the receiver's reserve.  Besides the delivered bytes it
 * checks the deterministic shape: D = ceil(log_k p) communication rounds
 * and S messages, each carrying its blocks' sizes with them (no metadata
 * message), one more round and message per overflowing digit and message
 * (at most 2D and 2S), and for equal blocks of n bytes exactly what
 * sloav_exchange_shape says: M (n + 8) bytes sent.
 */
#include "loopback.h"
#include "coll/common/sloav_exchange.h"
#include "patterns/radix.h"
#define CHECK_MAX_LINES 30
#include "../lib/check.h"


enum pattern { UNIFORM, ZERO, RANDOM, SKEWED, EMPTY_RANKS, LARGE, NPATTERNS };
static const char *const pattern_names[] = {"uniform", "zero",        "random",
                                            "skewed",  "empty-ranks", "large"};
/* LARGE: equal blocks of this many bytes, more than SX_CAP for 3 blocks */
#define LARGE_BLOCK 1500

static uint32_t mix(uint32_t x)
{
    x ^= x >> 16, x *= 0x7feb352d, x ^= x >> 15, x *= 0x846ca68b, x ^= x >> 16;
    return x;
}

static void fill(enum pattern pat, int p, int64_t *m)
{
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++) {
            uint32_t h = mix((uint32_t)(i * 7919 + j * 104729 + p));
            int64_t r = h % 5 == 0 ? 0 : h % 40;
            switch (pat) {
            case UNIFORM: m[i * p + j] = 5; break;
            case ZERO: m[i * p + j] = 0; break;
            case RANDOM: m[i * p + j] = r; break;
            case SKEWED: m[i * p + j] = i == p / 2 ? 300 : 3; break;
            case LARGE: m[i * p + j] = LARGE_BLOCK; break;
            default: m[i * p + j] = i % 3 == 1 || j % 3 == 1 ? 0 : r + 1; break;
            }
        }
}

static void run_case(int p, int k, enum pattern pat, const int64_t *m, bool in_place,
                     enum lb_displs displs, struct sched_cost *costs)
{
    const struct algorithm *a = catalog_find(COLIBRI_ALLTOALLV, "sloav");
    struct lb_case c = {.alg = a, .p = p, .radix = k, .in_place = in_place, .counts = m,
                        .displs = displs};
    char err[256];
    int kk = k >= 2 ? k : radix_sqrt(p);
    kk = kk < p ? kk : p;
    int D = p > 1 ? radix_digits(p, kk) : 0, S = p > 1 ? radix_subrounds(p, kk) : 0;
    int64_t M = 0;
    for (int d = 0; d < D; d++)
        M += radix_moving(p, kk, radix_weight(kk, d));
    /* a named algorithm: no agreed largest block */
    int64_t n = pat == UNIFORM ? 5 : pat == LARGE ? LARGE_BLOCK : 0;
    struct sx_shape sh;
    sloav_exchange_shape(p, k, n, 0, &sh);
    const char *why = NULL;
    if (lb_run(&c, costs, err, sizeof err) != 0)
        why = err;
    if (!why && sh.blocks != M)
        why = "shape's blocks";
    for (int r = 0; r < p && !why; r++) {
        const struct sched_cost *cr = &costs[r];
        if (cr->rounds < D || cr->rounds > 2 * D)
            why = "rounds";
        else if (cr->msgs_sent < S || cr->msgs_sent > 2 * S)
            why = "messages";
        else if ((pat == UNIFORM || pat == LARGE || pat == ZERO) &&
                 (cr->rounds != sh.rounds || cr->msgs_sent != sh.msgs ||
                  cr->bytes_sent != M * (n + 8)))
            why = "equal-block shape";
        else if ((pat == UNIFORM || pat == ZERO) && (cr->rounds != D || cr->msgs_sent != S))
            why = "small blocks: one message per sub-round";
        else if (pat == LARGE && p >= 8 && kk == 2 && cr->rounds == D)
            why = "large blocks: no overflow round";
    }
    if (check_count(!why))
        printf("FAIL p=%d k=%d %s%s%s: %s (rank 0: %d rounds, %lld msgs, %lld bytes; D=%d S=%d "
               "M=%lld)\n",
               p, k, pattern_names[pat], in_place ? " in-place" : "",
               displs == LB_REVERSED ? " reversed" : "", why, costs[0].rounds,
               (long long)costs[0].msgs_sent, (long long)costs[0].bytes_sent, D, S, (long long)M);
}

static void run_p(int p, const int *radices, int nr)
{
    int64_t *m = malloc((size_t)p * p * sizeof *m);
    struct sched_cost *costs = calloc((size_t)p, sizeof *costs);
    for (int pat = 0; pat < NPATTERNS; pat++) {
        if (pat == LARGE && p > 16)
            continue;
        fill((enum pattern)pat, p, m);
        for (int ri = 0; ri < nr; ri++)
            for (int ip = 0; ip < 2; ip++)
                for (int dl = 0; dl < 2; dl++)
                    run_case(p, radices[ri], (enum pattern)pat, m, ip, (enum lb_displs)dl, costs);
    }
    free(m);
    free(costs);
}

int main(void)
{
    int radices[64];
    for (int p = 1; p <= 40; p++) {
        int nr = 0;
        radices[nr++] = 0; /* default */
        for (int k = 2; k <= p + 1; k++)
            radices[nr++] = k;
        run_p(p, radices, nr);
    }
    int big[] = {64, 100, 128, 129, 200};
    for (unsigned b = 0; b < sizeof big / sizeof *big; b++) {
        int p = big[b], s = radix_sqrt(p);
        int sample[] = {0, 2, 3, 4, 7, s - 1, s + 1, p / 2, p - 1, p};
        run_p(p, sample, (int)(sizeof sample / sizeof *sample));
    }
    return check_summary();
}
