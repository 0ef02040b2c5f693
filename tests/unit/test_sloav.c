/*
 * SLOAV alltoallv run in loopback (loopback.h) on real bytes, every rank:
 * p = 1..40 with every radix 2..p+1 and the default, and p = 64, 100, 128,
 * 129, 200 with sampled radices; uniform, empty, random, skewed (one rank
 * sends 100x more) and empty-rank counts, packed or reversed displacements
 * with gaps, in place or not.  Besides the delivered bytes it checks the
 * deterministic shape: D + 1 communication rounds (D = ceil(log_k p); a rank
 * whose last digit moves nothing may skip the last), S metadata messages
 * and, for equal blocks of n bytes, 2S messages and M (n + 8) bytes sent.
 */
#include "loopback.h"
#include "patterns/radix.h"
#define CHECK_MAX_LINES 30
#include "../lib/check.h"


enum pattern { UNIFORM, ZERO, RANDOM, SKEWED, EMPTY_RANKS, NPATTERNS };
static const char *const pattern_names[] = {"uniform", "zero", "random", "skewed", "empty-ranks"};

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
    const char *why = NULL;
    if (lb_run(&c, costs, err, sizeof err) != 0)
        why = err;
    for (int r = 0; r < p && !why; r++) {
        const struct sched_cost *cr = &costs[r];
        if (p == 1 ? cr->rounds != 0 : cr->rounds != D + 1 && cr->rounds != D)
            why = "rounds";
        else if (cr->msgs_sent < S || cr->msgs_sent > 2 * S)
            why = "messages";
        else if (pat == UNIFORM && (cr->rounds != (p > 1 ? D + 1 : 0) || cr->msgs_sent != 2 * S ||
                                    cr->bytes_sent != M * (5 + 8)))
            why = "uniform shape";
        else if (pat == ZERO && (cr->msgs_sent != S || cr->bytes_sent != 8 * M))
            why = "metadata only";
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
