/*
 * The prefix reductions (scan, exscan): dry runs of every rank's schedule
 * against the cost formulas and the properties their headers claim, and
 * symbolic runs of the pipelined chains with short segments, which the
 * catalog-wide test_schedules never cuts.
 *
 * Critical path: every rank's schedule is replayed with unit rounds (a
 * round with messages starts when the rank's previous one ends and takes
 * one unit, or ends one unit after the latest send it receives from was
 * posted, whichever is later; sends complete at once).  Recursive doubling and the chains
 * must take exactly the rounds of their formulas (a = 1, b = g = 0); the
 * up-down sweep at most its formula's, which counts every down-sweep
 * level as a full round.
 */
#include <math.h>

#include "symbolic.h"
#include "../lib/check.h"

#include "patterns/scan.h"

#define CHECK(cond, ...)                                                                        \
    do {                                                                                        \
        if (check_count(cond))                                                                  \
            check_at(__FILE__, __LINE__, __VA_ARGS__);                                          \
    } while (0)

enum { MAXP = 130 };

static struct schedule S[MAXP];

static void build_all(const struct algorithm *a, int p, int64_t n, int64_t seg, bool in_place)
{
    for (int r = 0; r < p; r++) {
        struct sched_params sp = {.rank = r, .size = p, .count = n, .elem_size = 8,
                                  .in_place = in_place, .commutative = false, .segment = seg};
        sched_init(&S[r]);
        CHECK(a->build(&sp, &S[r]) == 0 && !S[r].oom, "%s %s p=%d: builder failed",
              colibri_coll_name(a->coll), a->name, p);
    }
}

static void free_all(int p)
{
    for (int r = 0; r < p; r++)
        sched_free(&S[r]);
}

/* The unit-latency critical path of the schedules in S (-1: deadlock). */
static double critical_path(int p)
{
    static double start[MAXP];
    static uint32_t round[MAXP];
    static int64_t nsent[MAXP][MAXP], nrecv[MAXP][MAXP];
    static double sent_at[MAXP][MAXP][64];
    memset(nsent, 0, sizeof nsent);
    memset(nrecv, 0, sizeof nrecv);
    for (int r = 0; r < p; r++)
        start[r] = 0, round[r] = 0;
    bool moved = true;
    while (moved) {
        moved = false;
        for (int r = 0; r < p; r++) {
            const struct schedule *s = &S[r];
            if (round[r] >= s->n_rounds)
                continue;
            const struct sched_round *rd = &s->rounds[round[r]];
            /* post the sends of this round (once: nsent counts them) */
            /* a round with messages occupies its rank for one unit */
            bool comm = false;
            for (uint32_t i = 0; i < rd->n_ops; i++)
                comm |= s->ops[rd->first_op + i].kind == SOP_SEND ||
                        s->ops[rd->first_op + i].kind == SOP_RECV;
            double end = start[r] + comm;
            bool ready = true;
            int64_t want[MAXP] = {0};
            for (uint32_t i = 0; i < rd->n_ops; i++) {
                const struct sched_op *op = &s->ops[rd->first_op + i];
                if (op->kind != SOP_RECV)
                    continue;
                const int64_t k = nrecv[op->peer][r] + want[op->peer]++;
                if (k >= nsent[op->peer][r]) {
                    ready = false;
                    break;
                }
                const double t = sent_at[op->peer][r][k % 64] + 1;
                end = t > end ? t : end;
            }
            if (!ready)
                continue;
            for (uint32_t i = 0; i < rd->n_ops; i++) {
                const struct sched_op *op = &s->ops[rd->first_op + i];
                if (op->kind == SOP_SEND)
                    sent_at[r][op->peer][nsent[r][op->peer]++ % 64] = start[r];
                else if (op->kind == SOP_RECV)
                    nrecv[op->peer][r]++;
            }
            start[r] = end;
            round[r]++;
            moved = true;
        }
    }
    double last = 0;
    for (int r = 0; r < p; r++) {
        if (round[r] < S[r].n_rounds)
            return -1;
        last = start[r] > last ? start[r] : last;
    }
    return last;
}

static const struct algorithm *find(colibri_coll c, const char *name)
{
    const struct algorithm *a = catalog_find(c, name);
    CHECK(a != NULL, "%s %s is not in the catalog", colibri_coll_name(c), name);
    return a;
}

static void test_costs(const struct algorithm *a, int p, int64_t n, int64_t seg)
{
    const bool ex = a->coll == COLIBRI_EXSCAN;
    build_all(a, p, n, seg, false);
    struct cost_params unit = {.alpha = 1};
    struct sched_params sp = {.size = p, .count = n, .elem_size = 8, .segment = seg};
    const double formula = a->cost(&sp, &unit), path = critical_path(p);
    const bool exact = strcmp(a->name, "up_down") != 0;
    CHECK(path >= 0, "%s %s p=%d n=%lld: deadlock", colibri_coll_name(a->coll), a->name, p,
          (long long)n);
    CHECK(n == 0 || (exact ? fabs(path - formula) < 1e-9 : path <= formula + 1e-9),
          "%s %s p=%d n=%lld seg=%lld: critical path %g rounds, formula %g",
          colibri_coll_name(a->coll), a->name, p, (long long)n, (long long)seg, path, formula);

    int64_t msgs = 0, most_reduced = 0;
    const int L = scan_levels(p);
    for (int r = 0; r < p; r++) {
        struct sched_cost c;
        sched_cost(&S[r], 8, &c);
        msgs += c.msgs_sent;
        most_reduced = c.elems_reduced > most_reduced ? c.elems_reduced : most_reduced;
        if (ex && r == 0)
            CHECK(c.msgs_recvd == 0 && c.elems_reduced == 0,
                  "exscan %s p=%d: rank 0 receives or reduces", a->name, p);
        if (strcmp(a->name, "linear") == 0 && n > 0)
            CHECK(c.bytes_sent == (r + 1 < p ? n * 8 : 0) && c.bytes_recvd == (r ? n * 8 : 0),
                  "%s linear p=%d rank %d: sends %lld, receives %lld bytes",
                  colibri_coll_name(a->coll), p, r, (long long)c.bytes_sent,
                  (long long)c.bytes_recvd);
    }
    if (n > 0 && strcmp(a->name, "recursive_doubling") == 0) {
        int64_t want = 0;
        for (int k = 0; k < L; k++)
            want += p - (1 << k);
        CHECK(msgs == want, "%s rd p=%d: %lld messages, want %lld", colibri_coll_name(a->coll), p,
              (long long)msgs, (long long)want);
        CHECK(most_reduced <= (ex ? 2 : 1) * (int64_t)L * n, "%s rd p=%d: reduces %lld",
              colibri_coll_name(a->coll), p, (long long)most_reduced);
    }
    if (n > 0 && strcmp(a->name, "up_down") == 0) {
        /* exscan: the shift's p - 1 messages, then the sweep's over p - 1 */
        CHECK(msgs <= 2 * (int64_t)p + (ex ? p : 0), "%s up_down p=%d: %lld messages",
              colibri_coll_name(a->coll), p, (long long)msgs);
        CHECK(most_reduced <= (int64_t)(L + 1) * n, "%s up_down p=%d: a rank reduces %lld",
              colibri_coll_name(a->coll), p, (long long)most_reduced);
    }
    free_all(p);
}

/* Chains cut into short segments, symbolically: every segment of every
 * rank in order, in place or not, non-commutative. */
static void test_segmented(const struct algorithm *a)
{
    for (int64_t seg = 1; seg <= 4; seg++) {
        sym_segment = seg;
        for (int p = 1; p <= 12; p++)
            for (int64_t n = 0; n <= 11; n++)
                for (int ip = 0; ip < 2; ip++)
                    for (int comm = 0; comm < 2; comm++) {
                        struct sym_result res;
                        CHECK(sym_run(a, p, 0, n, NULL, comm, ip, &res) == 0,
                              "%s %s p=%d n=%lld seg=%lld%s%s: %s", colibri_coll_name(a->coll),
                              a->name, p, (long long)n, (long long)seg, ip ? " in-place" : "",
                              comm ? "" : " noncommutative", res.error);
                    }
    }
    sym_segment = 0;
}

int main(void)
{
    const char *names[] = {"recursive_doubling", "up_down", "linear"};
    const colibri_coll colls[] = {COLIBRI_SCAN, COLIBRI_EXSCAN};
    for (int ci = 0; ci < 2; ci++)
        for (int i = 0; i < 3; i++) {
            const struct algorithm *a = find(colls[ci], names[i]);
            if (!a)
                continue;
            for (int p = 1; p <= MAXP; p++) {
                test_costs(a, p, 0, 0);
                test_costs(a, p, 5, 0);
                if (p <= 40)
                    test_costs(a, p, 37, 4); /* a chain of 10 segments */
            }
            if (strcmp(a->name, "linear") == 0)
                test_segmented(a);
        }
    return check_summary();
}
