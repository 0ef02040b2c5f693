/*
 * The static alltoall and alltoallv schedules (bruck, pairwise, scattered;
 * linear, pairwise) run on real bytes by the loopback runner (loopback.h),
 * every rank of p = 1..40 and 64, 100, 128, 129, 200: blocks of 0, 1, 3 and
 * 8 bytes, every Bruck radix up to p (a selection past p = 40), scattered
 * windows, alltoallv with random, skewed, single and zero counts in packed
 * and reversed-with-gaps layouts, in place or not.
 *
 * The executed schedules' counts are checked exactly: Bruck's rounds are
 * the pattern's (ceil(lg p) for k = 2) with one message each way per round
 * and its pack sizes in bytes; pairwise has p-1 rounds of one message each
 * way, scattered ceil((p-1)/W), linear one round; zero-byte blocks send
 * nothing.  The cost functions agree with those counts, and the scratch
 * the builders ask for is what the in-place staging needs.
 */
#include "loopback.h"
#include "../lib/check.h"

#include "coll/algorithm.h"
#include "patterns/radix.h"
#include "select/select.h"

static const char *describe(const struct lb_case *c)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "%s %s p=%d radix=%d block=%lld%s%s%s",
             colibri_coll_name(c->alg->coll), c->alg->name, c->p, c->radix, (long long)c->block,
             c->counts ? " v" : "", c->displs == LB_REVERSED ? " reversed" : "", c->in_place ? " in-place" : "");
    return buf;
}

/* Runs the case; on success fills costs (p entries). */
static bool run(const struct lb_case *c, struct sched_cost *costs)
{
    char err[256];
    int rc = lb_run(c, costs, err, sizeof err);
    return check(rc == 0, "%s: %s", describe(c), err);
}

static double overhead_of(const struct algorithm *a, const struct sched_params *sp)
{
    struct cost_params m = {.o = 1};
    return a->cost(sp, &m);
}

static int clamp_radix(int radix, int p)
{
    int k = radix > 0 ? radix : 2;
    if (k > p)
        k = p;
    return k < 2 ? 2 : k;
}

/* ---- alltoall ---- */

static void bruck_case(int p, int radix, int64_t b, bool in_place, struct sched_cost *costs)
{
    struct lb_case c = {.alg = lb_alg(COLIBRI_ALLTOALL, "bruck"), .p = p, .radix = radix,
                        .block = b, .in_place = in_place};
    if (!run(&c, costs))
        return;
    int k = clamp_radix(radix, p), rounds = b ? radix_subrounds(p, k) : 0;
    int64_t bytes = 0;
    for (int64_t stride = 1; stride < p; stride *= k)
        for (int v = 1; v <= radix_values(p, k, stride); v++)
            bytes += radix_nmoving(p, k, stride, v) * b;
    bool ok = true;
    for (int i = 0; i < p; i++)
        ok = ok && costs[i].rounds == rounds && costs[i].msgs_sent == rounds &&
             costs[i].msgs_recvd == rounds && costs[i].bytes_sent == bytes &&
             costs[i].bytes_recvd == bytes;
    check(ok, "%s: rank 0 ran %d rounds, %lld msgs, %lld bytes; pattern says %d, %lld bytes",
          describe(&c), costs[0].rounds, (long long)costs[0].msgs_sent,
          (long long)costs[0].bytes_sent, rounds, (long long)bytes);
    if (k == 2 && b) {
        int lg = 0;
        while ((1 << lg) < p)
            lg++;
        check(rounds == lg, "%s: %d rounds, ceil(lg p) = %d", describe(&c), rounds, lg);
    }
    if (b) {
        struct sched_params sp = {.rank = 0, .size = p, .count = b, .elem_size = 1, .radix = radix};
        check(lb_cost(c.alg, &sp, 1, 0) == rounds && lb_cost(c.alg, &sp, 0, 1) == (double)bytes &&
                  overhead_of(c.alg, &sp) == 2.0 * (double)costs[0].msgs_sent,
              "%s: cost function says %g rounds, %g bytes, %g messages", describe(&c),
              lb_cost(c.alg, &sp, 1, 0), lb_cost(c.alg, &sp, 0, 1), overhead_of(c.alg, &sp) / 2);
    }
}

/* pairwise (window 1) and scattered (window W): p-1 messages each way. */
static void exchange_case(const char *name, int p, int radix, int64_t b, bool in_place,
                          struct sched_cost *costs)
{
    struct lb_case c = {.alg = lb_alg(COLIBRI_ALLTOALL, name), .p = p, .radix = radix, .block = b,
                        .in_place = in_place};
    if (!run(&c, costs))
        return;
    int w = strcmp(name, "pairwise") == 0 ? 1 : radix > 0 ? radix : 32;
    int rounds = b && p > 1 ? (p - 2) / w + 1 : 0, msgs = b ? p - 1 : 0;
    bool ok = true;
    for (int i = 0; i < p; i++)
        ok = ok && costs[i].rounds == rounds && costs[i].msgs_sent == msgs &&
             costs[i].msgs_recvd == msgs && costs[i].bytes_sent == msgs * b &&
             costs[i].bytes_recvd == msgs * b;
    check(ok, "%s: rank 0 ran %d rounds, %lld msgs, %lld bytes; want %d, %d, %lld", describe(&c),
          costs[0].rounds, (long long)costs[0].msgs_sent, (long long)costs[0].bytes_sent, rounds,
          msgs, (long long)(msgs * b));
    struct sched_params sp = {.rank = 0, .size = p, .count = b, .elem_size = 1, .radix = radix};
    check(lb_cost(c.alg, &sp, 1, 0) == (p > 1 ? (p - 2) / w + 1 : 0) &&
              lb_cost(c.alg, &sp, 0, 1) == (double)((p - 1) * b) &&
              overhead_of(c.alg, &sp) == 2.0 * (p - 1),
          "%s: cost function", describe(&c));
}

static void test_alltoall(int p, struct sched_cost *costs)
{
    int64_t blocks[] = {0, 1, 3, 8};
    int big_radices[] = {0, 2, 3, 4, 7, 16, p - 1, p, p + 5};
    for (unsigned bi = 0; bi < sizeof blocks / sizeof *blocks; bi++)
        for (int ip = 0; ip < 2; ip++) {
            int64_t b = blocks[bi];
            if (p <= 40) {
                for (int k = 0; k <= p + 1; k++)
                    if (k != 1)
                        bruck_case(p, k, b, ip, costs);
            } else {
                for (unsigned i = 0; i < sizeof big_radices / sizeof *big_radices; i++)
                    bruck_case(p, big_radices[i], b, ip, costs);
            }
            exchange_case("pairwise", p, 0, b, ip, costs);
            int windows[] = {0, 1, 2, 3, 5, p - 1, p + 4};
            for (unsigned i = 0; i < sizeof windows / sizeof *windows; i++)
                if (windows[i] >= 0)
                    exchange_case("scattered", p, windows[i], b, ip, costs);
        }
}

/* ---- alltoallv ---- */

enum pattern { RANDOM, SKEWED, SINGLE, ZERO, NPATTERNS };
static const char *const pattern_names[] = {"random", "skewed", "single", "zero"};

static void fill(enum pattern pat, int p, int64_t *m)
{
    uint32_t x = 12345u + (uint32_t)p;
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++) {
            x = x * 1103515245u + 12345u;
            uint32_t r = x >> 16;
            switch (pat) {
            case RANDOM: m[i * p + j] = r % 3 == 0 ? 0 : r % 13; break;
            case SKEWED: m[i * p + j] = i == 0 || j == p / 2 ? 40 + r % 5 : r % 4 == 0; break;
            case SINGLE: m[i * p + j] = i == p - 1 && j == 0 ? 9 : 0; break;
            default: m[i * p + j] = 0; break;
            }
        }
}

static void alltoallv_case(const char *name, int p, const int64_t *m, enum pattern pat,
                           enum lb_displs displs, bool in_place, struct sched_cost *costs)
{
    struct lb_case c = {.alg = lb_alg(COLIBRI_ALLTOALLV, name), .p = p, .counts = m,
                        .displs = displs, .in_place = in_place};
    if (!run(&c, costs))
        return;
    bool linear = strcmp(name, "linear") == 0, ok = true;
    int bad = -1;
    for (int i = 0; i < p && ok; i++) {
        int64_t sent = 0, recvd = 0, bsent = 0, brecvd = 0, steps = 0;
        for (int d = 1; d < p; d++) {
            int to = (i + d) % p, from = (i - d + p) % p;
            int64_t out = lb_count(&c, i, to), in = lb_count(&c, from, i);
            sent += out > 0, recvd += in > 0, bsent += out, brecvd += in;
            steps += out > 0 || in > 0;
        }
        int64_t rounds = linear ? steps > 0 : steps;
        ok = costs[i].rounds == rounds && costs[i].msgs_sent == sent &&
             costs[i].msgs_recvd == recvd && costs[i].bytes_sent == bsent &&
             costs[i].bytes_recvd == brecvd;
        bad = i;
    }
    check(ok, "%s %s: rank %d's rounds or messages", describe(&c), pattern_names[pat], bad);
}

static void test_alltoallv(int p, struct sched_cost *costs)
{
    int64_t *m = malloc((size_t)p * p * sizeof *m);
    for (int pat = 0; pat < NPATTERNS; pat++) {
        fill((enum pattern)pat, p, m);
        for (int ip = 0; ip < 2; ip++)
            for (int d = LB_PACKED; d <= LB_REVERSED; d++) {
                alltoallv_case("linear", p, m, (enum pattern)pat, (enum lb_displs)d, ip, costs);
                alltoallv_case("pairwise", p, m, (enum pattern)pat, (enum lb_displs)d, ip, costs);
            }
    }
    free(m);
}

/* ---- scratch and cost functions, built directly ---- */

static void test_scratch(int p)
{
    const int64_t b = 5;
    struct schedule s;
    for (int ip = 0; ip < 2; ip++) {
        struct sched_params sp = {.rank = p / 3, .size = p, .count = b, .elem_size = 1,
                                  .in_place = ip};
        /* Pairwise stages the blocks of shifts i >= p/2: floor(p/2) of them. */
        sched_init(&s);
        alltoall_pairwise_build(&sp, &s);
        check(s.tmp_count[0] == (ip ? p / 2 * b : 0) && s.tmp_count[1] == 0,
              "alltoall pairwise p=%d%s: scratch %lld", p, ip ? " in-place" : "",
              (long long)s.tmp_count[0]);
        sched_free(&s);
        /* Bruck: the rotated blocks, and two packs of the largest sub-round. */
        int64_t most = 0;
        for (int64_t stride = 1; stride < p; stride *= 2)
            if (radix_nmoving(p, 2, stride, 1) > most)
                most = radix_nmoving(p, 2, stride, 1);
        sched_init(&s);
        alltoall_bruck_build(&sp, &s);
        check(s.tmp_count[0] == p * b && s.tmp_count[1] == 2 * most * b,
              "alltoall bruck p=%d: scratch %lld + %lld", p, (long long)s.tmp_count[0],
              (long long)s.tmp_count[1]);
        sched_free(&s);
    }
    /* Linear alltoallv in place stages everything but the own block. */
    int64_t *v = malloc((size_t)p * 2 * sizeof *v), total = 0;
    for (int j = 0; j < p; j++) {
        v[j] = j % 3 == 1 ? 0 : j + 2;
        v[p + j] = total;
        total += v[j];
    }
    struct sched_params sp = {.rank = p - 1, .size = p, .count = 4, .elem_size = 1,
                              .in_place = true, .scounts = v, .sdispls = v + p, .rcounts = v,
                              .rdispls = v + p};
    sched_init(&s);
    alltoallv_linear_build(&sp, &s);
    check(s.tmp_count[0] == total - v[p - 1],
          "alltoallv linear p=%d in-place: scratch %lld of %lld", p, (long long)s.tmp_count[0],
          (long long)(total - v[p - 1]));
    sched_free(&s);
    check(lb_cost(lb_alg(COLIBRI_ALLTOALLV, "linear"), &sp, 1, 0) == (p > 1) &&
              lb_cost(lb_alg(COLIBRI_ALLTOALLV, "pairwise"), &sp, 1, 0) == p - 1 &&
              lb_cost(lb_alg(COLIBRI_ALLTOALLV, "pairwise"), &sp, 0, 1) == (double)(p - 1) * 4,
          "alltoallv cost functions p=%d", p);
    free(v);
}

static void test_catalog_order(void)
{
    const char *want[] = {"alltoall bruck", "alltoall pairwise", "alltoall scattered",
                          "alltoallv linear", "alltoallv pairwise"};
    unsigned n = 0;
    bool ok = true;
    for (int i = 0; i < catalog_count && n < 5; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s %s", colibri_coll_name(catalog[i].coll), catalog[i].name);
        if (catalog[i].coll == COLIBRI_ALLTOALL || catalog[i].coll == COLIBRI_ALLTOALLV)
            ok = ok && strcmp(name, want[n++]) == 0;
    }
    check(ok && n == 5, "catalog order of the alltoall(v) entries");
}

int main(void)
{
    int sizes[48], ns = 0;
    for (int p = 1; p <= 40; p++)
        sizes[ns++] = p;
    int big[] = {64, 100, 128, 129, 200};
    for (unsigned i = 0; i < sizeof big / sizeof *big; i++)
        sizes[ns++] = big[i];
    struct sched_cost *costs = malloc(200 * sizeof *costs);
    test_catalog_order();
    for (int i = 0; i < ns; i++) {
        test_alltoall(sizes[i], costs);
        test_alltoallv(sizes[i], costs);
        test_scratch(sizes[i]);
    }
    free(costs);
    return check_summary();
}
