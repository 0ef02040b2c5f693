/*
 * The tree and ring families (binomial, ordered_binomial, reduce_bcast,
 * ring, pairwise): their pattern arithmetic, and dry runs of their schedules
 * against the cost model (rounds, messages, bytes per rank), plus symbolic
 * runs of the segmented ring, which the catalog-wide test never reaches with
 * its short vectors.
 */
#include "symbolic.h"
#include "../lib/check.h"

#include "coll/common/binomial.h"
#include "patterns/binomial.h"
#include "patterns/ring.h"

/* FAIL file:line: ..., the message's arguments evaluated only on failure. */
#define CHECK(cond, ...)                                                                        \
    do {                                                                                        \
        if (check_count(cond))                                                                  \
            check_at(__FILE__, __LINE__, __VA_ARGS__);                                          \
    } while (0)

/* ---- patterns/binomial.h ---- */

/* Runs the tree level by level on rank intervals: every merge must join two
 * adjacent intervals, sent by a position that then leaves, and the root must
 * end with [0, p-1]. */
static void test_binomial_tree(int p, int q)
{
    int lo[300], hi[300], gone[300] = {0}, leaving[300] = {0};
    for (int x = 0; x < p; x++)
        lo[x] = hi[x] = x;
    int levels = ceil_log2(p), ok = 1, root_recvs = 0;
    for (int j = 0; j < levels && ok; j++) {
        for (int x = 0; x < p && ok; x++) {
            int peer = -1, back = -1;
            enum binomial_role role = binomial_step(x, j, q, p, &peer);
            if (role == BINOMIAL_IDLE)
                continue;
            ok = !gone[x] && peer >= 0 && peer < p && peer != x && !gone[peer];
            CHECK(ok, "binomial p=%d q=%d: position %d level %d talks to %d", p, q, x, j, peer);
            enum binomial_role other = binomial_step(peer, j, q, p, &back);
            ok = ok && back == x && other == (role == BINOMIAL_RECV ? BINOMIAL_SEND : BINOMIAL_RECV);
            CHECK(ok, "binomial p=%d q=%d: level %d, %d and %d disagree", p, q, j, x, peer);
            if (ok && role == BINOMIAL_RECV) {
                ok = hi[x] + 1 == lo[peer] || hi[peer] + 1 == lo[x];
                CHECK(ok, "binomial p=%d q=%d: %d merges [%d,%d] with non-adjacent [%d,%d]", p,
                      q, x, lo[x], hi[x], lo[peer], hi[peer]);
                lo[x] = lo[x] < lo[peer] ? lo[x] : lo[peer];
                hi[x] = hi[x] > hi[peer] ? hi[x] : hi[peer];
                leaving[peer] = 1;
                root_recvs += x == q;
            }
        }
        for (int x = 0; x < p; x++)
            gone[x] |= leaving[x];
    }
    CHECK(ok && lo[q] == 0 && hi[q] == p - 1 && !gone[q],
          "binomial p=%d q=%d: root holds [%d,%d]", p, q, lo[q], hi[q]);
    CHECK(root_recvs <= levels, "binomial p=%d q=%d: root receives %d times", p, q, root_recvs);
    int edges = 0;
    for (int x = 0; x < p; x++) {
        edges += binomial_nchildren(x, q, p);
        int par = binomial_parent(x, q, p);
        CHECK((par < 0) == (x == q), "binomial p=%d q=%d: parent of %d is %d", p, q, x, par);
        if (q == 0)
            CHECK(par == (x ? x & (x - 1) : -1), "classic parent p=%d of %d is %d", p, x, par);
    }
    CHECK(edges == p - 1, "binomial p=%d q=%d: %d edges", p, q, edges);
}

static void test_binomial_patterns(void)
{
    for (int p = 1; p <= 70; p++)
        for (int q = 0; q < p; q++)
            test_binomial_tree(p, q);
    test_binomial_tree(256, 0);
    test_binomial_tree(255, 200);
    for (int p = 1; p <= 20; p++)
        for (int root = 0; root < p; root++)
            for (int r = 0; r < p; r++)
                CHECK(binomial_absrank(binomial_relrank(r, root, p), root, p) == r &&
                          binomial_relrank(root, root, p) == 0,
                      "relrank p=%d root=%d rank=%d", p, root, r);
}

/* ---- patterns/ring.h ---- */

static void test_ring_patterns(void)
{
    for (int p = 1; p <= 40; p++) {
        for (int r = 0; r < p; r++) {
            int next = ring_shift(r, p, 1), seen[40] = {0};
            CHECK(ring_shift(next, p, -1) == r && ring_shift(r, p, p) == r &&
                      ring_shift(r, p, -p) == r,
                  "ring_shift p=%d r=%d", p, r);
            for (int s = 0; s < p - 1; s++) {
                /* what r sends at step s is what its successor receives */
                CHECK(ring_rs_send_block(r, p, s) == ring_rs_recv_block(next, p, s) &&
                          ring_ag_send_block(r, p, s) == ring_ag_recv_block(next, p, s),
                      "ring p=%d r=%d step %d: send/recv blocks disagree", p, r, s);
                /* reduce-scatter: step s passes on what step s-1 combined */
                if (s > 0)
                    CHECK(ring_rs_send_block(r, p, s) == ring_rs_recv_block(r, p, s - 1),
                          "ring p=%d r=%d step %d forwards the wrong block", p, r, s);
                seen[ring_ag_recv_block(r, p, s)]++;
            }
            if (p > 1)
                CHECK(ring_rs_recv_block(r, p, p - 2) == r && ring_ag_send_block(r, p, 0) == r,
                      "ring p=%d r=%d does not end with its own block", p, r);
            for (int b = 0; b < p; b++)
                CHECK(seen[b] == (b != r), "ring allgather p=%d r=%d gets block %d %d times", p,
                      r, b, seen[b]);
        }
        for (int64_t n = 0; n < 3 * p + 2; n++) {
            int64_t sum = 0;
            for (int j = 0; j < p; j++) {
                int64_t c = ring_even_count(n, p, j);
                CHECK(ring_even_offset(n, p, j) == sum && c >= n / p && c <= n / p + 1,
                      "even split n=%lld p=%d block %d", (long long)n, p, j);
                sum += c;
            }
            CHECK(sum == n && ring_even_offset(n, p, p) == n, "even split n=%lld p=%d", (long long)n,
                  p);
        }
    }
    int64_t counts[5] = {3, 0, 7, 1, 0}, displs[6];
    ring_displs(counts, 5, displs);
    CHECK(displs[0] == 0 && displs[2] == 3 && displs[3] == 10 && displs[5] == 11, "ring_displs");
    CHECK(ring_max_count(counts, 5) == 7, "ring_max_count");
    for (int64_t count = 0; count < 50; count++) {
        for (int64_t seg = 1; seg < 12; seg++) {
            int64_t sum = 0, k = ring_nsegments(count, seg);
            for (int64_t c = 0; c <= k; c++)
                sum += ring_segment_len(count, seg, c);
            CHECK(sum == count && ring_segment_len(count, seg, k) == 0 &&
                      (k == 0 || ring_segment_len(count, seg, k - 1) > 0),
                  "segments count=%lld seg=%lld", (long long)count, (long long)seg);
        }
    }
}

/* ---- dry runs through the public API ---- */

static colibri_cost dry(colibri_coll coll, const char *alg, int rank, int p, int root, int64_t n,
                        const MPI_Count *counts, int es, int comm, int in_place)
{
    colibri_cost c;
    memset(&c, 0, sizeof c);
    int rc = colibri_dry_run(coll, alg, rank, p, root, n, counts, es, comm, in_place, &c);
    CHECK(rc == MPI_SUCCESS, "dry run %s p=%d rank=%d: rc %d", alg, p, rank, rc);
    return c;
}

static double model(colibri_coll coll, const char *alg, int p, int64_t n, const int64_t *counts,
                    int es, double a, double b, double g)
{
    const struct algorithm *al = catalog_find(coll, alg);
    struct sched_params sp = {0};
    sp.size = p;
    sp.count = n;
    sp.counts = counts;
    sp.elem_size = (size_t)es;
    sp.commutative = true;
    struct cost_params m = {a, b, g, 0, 0, 0};
    return al->cost(&sp, &m);
}

static void test_trees(void)
{
    const int64_t n = 1000;
    const int es = 4;
    const char *algs[] = {"binomial", "ordered_binomial"};
    for (int ai = 0; ai < 2; ai++) {
        for (int p = 1; p <= 70; p++) {
            int k = ceil_log2(p), roots[] = {0, p - 1, p / 2, p / 3};
            for (int ri = 0; ri < 4; ri++) {
                int root = roots[ri];
                for (int r = 0; r < p; r++) {
                    /* ordered_binomial must need no commutativity */
                    colibri_cost c = dry(COLIBRI_REDUCE, algs[ai], r, p, root, n, NULL, es, ai == 0,
                                         r == root && ri == 1);
                    CHECK(c.rounds <= k, "%s p=%d root=%d rank=%d: %d rounds > %d", algs[ai], p,
                          root, r, c.rounds, k);
                    if (r == root)
                        CHECK(c.msgs_recvd <= k && c.msgs_sent == 0 && c.msgs_recvd == c.rounds,
                              "%s p=%d root=%d: root receives %lld, sends %lld", algs[ai], p, root,
                              (long long)c.msgs_recvd, (long long)c.msgs_sent);
                    else
                        CHECK(c.msgs_sent == 1 && c.bytes_sent == n * es,
                              "%s p=%d root=%d rank=%d: sends %lld messages, %lld bytes",
                              algs[ai], p, root, r, (long long)c.msgs_sent,
                              (long long)c.bytes_sent);
                }
            }
            double t = model(COLIBRI_REDUCE, algs[ai], p, n, NULL, es, 1, 0, 0);
            CHECK(t == k, "%s p=%d: model has %g latencies, not %d", algs[ai], p, t, k);
            t = model(COLIBRI_REDUCE, algs[ai], p, n, NULL, es, 0, 1, 1);
            CHECK(t == 2.0 * k * n * es, "%s p=%d: model has %g bytes", algs[ai], p, t);
        }
    }
    for (int p = 1; p <= 70; p++) {
        int k = ceil_log2(p), maxr = 0;
        int64_t total = 0;
        for (int r = 0; r < p; r++) {
            colibri_cost c = dry(COLIBRI_ALLREDUCE, "reduce_bcast", r, p, 0, n, NULL, es, 0, r % 2);
            maxr = c.rounds > maxr ? c.rounds : maxr;
            total += c.msgs_sent;
            CHECK(c.rounds <= 2 * k && c.bytes_sent == c.msgs_sent * n * es,
                  "reduce_bcast p=%d rank=%d: %d rounds", p, r, c.rounds);
        }
        CHECK(maxr == 2 * k && total == 2 * (p - 1), "reduce_bcast p=%d: %d rounds, %lld messages",
              p, maxr, (long long)total);
        CHECK(model(COLIBRI_ALLREDUCE, "reduce_bcast", p, n, NULL, es, 1, 0, 0) == 2 * k,
              "reduce_bcast p=%d model latencies", p);
    }
}

static void test_rings(void)
{
    const int es = 8;
    for (int p = 1; p <= 40; p++) {
        /* unsegmented: n divisible by p, blocks well under 64 KiB */
        const int64_t n = 100 * (int64_t)p;
        MPI_Count cnt[40];
        int64_t counts[40];
        for (int j = 0; j < p; j++)
            cnt[j] = counts[j] = 100;
        for (int r = 0; r < p; r++) {
            colibri_cost c = dry(COLIBRI_ALLREDUCE, "ring", r, p, 0, n, NULL, es, 1, r == 1);
            CHECK(c.rounds == 2 * (p - 1) && c.msgs_sent == 2 * (p - 1) &&
                      c.bytes_sent == 2 * (p - 1) * (n / p) * es &&
                      c.elems_reduced == (p - 1) * (n / p),
                  "ring allreduce p=%d rank=%d: %d rounds, %lld msgs, %lld bytes, %lld reduced", p,
                  r, c.rounds, (long long)c.msgs_sent, (long long)c.bytes_sent,
                  (long long)c.elems_reduced);
            const char *rs[] = {"ring", "pairwise"};
            for (int i = 0; i < 2; i++) {
                c = dry(COLIBRI_REDUCE_SCATTER, rs[i], r, p, 0, 0, cnt, es, 1, 0);
                CHECK(c.rounds == p - 1 && c.msgs_sent == p - 1 && c.msgs_recvd == p - 1 &&
                          c.bytes_sent == (p - 1) * 100 * es && c.elems_reduced == (p - 1) * 100,
                      "%s reduce_scatter p=%d rank=%d: %d rounds, %lld msgs, %lld bytes", rs[i], p,
                      r, c.rounds, (long long)c.msgs_sent, (long long)c.bytes_sent);
            }
        }
        double ab = model(COLIBRI_ALLREDUCE, "ring", p, n, NULL, es, 1, 0, 0);
        double bb = model(COLIBRI_ALLREDUCE, "ring", p, n, NULL, es, 0, 1, 0);
        CHECK(ab == 2 * (p - 1) && bb == 2.0 * (p - 1) * (n / p) * es,
              "ring allreduce p=%d model: %g latencies, %g bytes", p, ab, bb);
        CHECK(model(COLIBRI_REDUCE_SCATTER, "pairwise", p, 0, counts, es, 1, 1, 0) ==
                  (p - 1) * (1.0 + 100 * es),
              "pairwise p=%d model", p);

        /* segmented: 100000-element blocks of doubles go round in 8192-element
         * (64 KiB) segments, 13 per block */
        if (p < 2)
            continue;
        const int64_t big = 100000, segs = 13;
        for (int r = 0; r < p; r += p - 1) {
            colibri_cost c = dry(COLIBRI_ALLREDUCE, "ring", r, p, 0, big * p, NULL, es, 1, 0);
            CHECK(c.rounds == (p - 1) * (segs + 1) && c.bytes_sent == 2 * (p - 1) * big * es &&
                      c.tmp_bytes == (p > 3 ? 2 : p - 2) * 8192 * es,
                  "segmented ring p=%d rank=%d: %d rounds, %lld bytes, %lld scratch bytes", p, r,
                  c.rounds, (long long)c.bytes_sent, (long long)c.tmp_bytes);
        }
        ab = model(COLIBRI_ALLREDUCE, "ring", p, big * p, NULL, es, 1, 0, 0);
        CHECK(ab == (p - 1) * (segs + 1), "segmented ring p=%d model: %g latencies", p, ab);
    }
}

/* ---- symbolic runs of what the catalog-wide test does not reach ---- */

static int seg3_allreduce(const struct sched_params *p, struct schedule *s)
{
    struct sched_params q = *p;
    q.segment = 3;
    return allreduce_ring_build(&q, s);
}

static int seg3_reduce_scatter(const struct sched_params *p, struct schedule *s)
{
    struct sched_params q = *p;
    q.segment = 3;
    return reduce_scatter_ring_build(&q, s);
}

/* The classic relative-rank tree, which is not order-preserving: the
 * symbolic checker must catch it on a non-commutative operation. */
static int rotated_reduce(const struct sched_params *p, struct schedule *s)
{
    struct btree t = btree_rotated(p->size, p->root);
    return reduce_tree_build(p, s, &t);
}

static void test_symbolic(void)
{
    const struct algorithm ar = {"ring/seg3", COLIBRI_ALLREDUCE, R_COMMUTATIVE, seg3_allreduce,
                                 allreduce_ring_cost, "", false};
    const struct algorithm rs = {"ring/seg3", COLIBRI_REDUCE_SCATTER, R_COMMUTATIVE,
                                 seg3_reduce_scatter, reduce_scatter_ring_cost, "", false};
    const struct algorithm rot = {"rotated", COLIBRI_REDUCE, 0, rotated_reduce,
                                  reduce_binomial_cost, "", false};
    struct sym_result res;
    int64_t counts[70];
    for (int p = 1; p <= 33; p++) {
        int64_t ns[] = {0, 1, p - 1, 3 * p, 7 * p + 5, 11 * p - 1};
        for (unsigned i = 0; i < sizeof ns / sizeof *ns; i++) {
            for (int ip = 0; ip < 2; ip++) {
                int rc = sym_run(&ar, p, 0, ns[i], NULL, true, ip, &res);
                CHECK(rc == 0, "segmented ring allreduce p=%d n=%lld%s: %s", p, (long long)ns[i],
                      ip ? " in-place" : "", res.error);
                for (int j = 0; j < p; j++)
                    counts[j] = (ns[i] * (j + 3) + 2 * j) % (2 * ns[i] + 5);
                rc = sym_run(&rs, p, 0, 0, counts, true, ip, &res);
                CHECK(rc == 0, "segmented ring reduce_scatter p=%d n=%lld%s: %s", p,
                      (long long)ns[i], ip ? " in-place" : "", res.error);
            }
        }
    }
    int caught = 0;
    for (int p = 3; p <= 12; p++)
        caught += sym_run(&rot, p, 1, 4, NULL, false, false, &res) != 0;
    CHECK(caught == 10, "the rotated tree passed a non-commutative check %d times", 10 - caught);
    CHECK(sym_run(&rot, 12, 0, 4, NULL, false, false, &res) == 0, "rotated root 0: %s", res.error);
}

int main(void)
{
    test_binomial_patterns();
    test_ring_patterns();
    test_trees();
    test_rings();
    test_symbolic();
    return check_summary();
}
