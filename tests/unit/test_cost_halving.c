/*
 * The recursive-halving family (Rabenseifner allreduce and reduce, 3-2
 * elimination, recursive-halving reduce-scatter) and the k-nomial allreduce:
 * their pattern arithmetic, exact dry-run counts against the cost model, and
 * every cost function against the critical path of the schedules of all
 * ranks run together.  Also symbolic runs of the k-nomial allreduce at radices
 * other than the default, which the catalog-wide test does not reach.
 */
#include <math.h>

#include "symbolic.h"
#include "../lib/check.h"

#include "coll/algorithm.h"
#include "patterns/halving.h"
#include "patterns/knomial.h"
#include "patterns/three_two.h"


/* ---- patterns/halving.h ---- */

static void test_blocks(void)
{
    int64_t ns[] = {0, 1, 5, 63, 64, 65, 1000};
    for (unsigned i = 0; i < sizeof ns / sizeof *ns; i++)
        for (int nb = 1; nb <= 70; nb++) {
            int64_t n = ns[i], prev = 0;
            bool ok = block_offset(n, nb, 0) == 0 && block_offset(n, nb, nb) == n;
            for (int b = 1; b <= nb && ok; b++) {
                int64_t len = block_offset(n, nb, b) - prev, want = n / nb + (b <= n % nb);
                ok = len == want;
                prev += len;
            }
            check(ok, "block_offset n=%lld nblocks=%d", (long long)n, nb);
        }
}

/* After s steps the ranges of all v tile the positions, 2^L / 2^s ranks
 * sharing each; v and v ^ 2^s share a range before step s; v ends at bit_reverse(v). */
static void test_halving_ranges(void)
{
    for (int L = 0; L <= 7; L++) {
        int P = 1 << L;
        for (int s = 0; s <= L; s++) {
            int cover[128] = {0};
            bool ok = true;
            for (int v = 0; v < P; v++) {
                int lo, len, lo2, len2;
                halving_range(v, L, s, &lo, &len);
                ok = ok && len == P >> s && lo % len == 0;
                for (int q = lo; q < lo + len && ok; q++)
                    cover[q]++;
                if (s < L) {
                    halving_range(v ^ 1 << s, L, s, &lo2, &len2);
                    ok = ok && lo2 == lo;
                }
                if (s == L)
                    ok = ok && lo == bit_reverse(v, L);
            }
            for (int q = 0; q < P; q++)
                ok = ok && cover[q] == P >> s;
            check(ok, "halving_range L=%d steps=%d", L, s);
        }
        bool inv = true;
        for (int v = 0; v < P; v++)
            inv = inv && bit_reverse(bit_reverse(v, L), L) == v;
        check(inv, "bit_reverse L=%d", L);
    }
}

/* The gather delivers every position to the root once, from ranks that hold
 * them, and a rank that sent never acts again. */
static void test_gather(void)
{
    for (int L = 0; L <= 6; L++) {
        int P = 1 << L;
        for (int vr = 0; vr < P; vr++) {
            uint64_t held[64];
            bool done[64] = {false}, ok = true;
            for (int v = 0; v < P; v++)
                held[v] = 1ull << bit_reverse(v, L);
            for (int s = L - 1; s >= 0 && ok; s--) {
                for (int v = 0; v < P && ok; v++) {
                    int role = gather_role(v, vr, s), u = v ^ 1 << s;
                    if (!role)
                        continue;
                    ok = !done[v] && gather_role(u, vr, s) == -role;
                    if (role > 0) {
                        ok = ok && !(held[v] & held[u]);
                        held[v] |= held[u];
                    } else {
                        done[v] = true;
                    }
                }
            }
            check(ok && held[vr] == (P == 64 ? ~0ull : (1ull << P) - 1),
                  "gather L=%d root %d", L, vr);
        }
    }
}

static void test_volume(void)
{
    for (int L = 0; L <= 10; L++) {
        int64_t P = 1 << L, n = 3 * P;
        check(halving_volume(n, L) == (P - 1) * 3, "halving_volume L=%d", L);
    }
    check(halving_volume(5, 2) == 3 + 2, "halving_volume of uneven blocks");
}

/* The root always stays, survivors keep rank order, and the maps invert. */
static void test_fold_rooted(void)
{
    for (int p = 1; p <= 40; p++)
        for (int root = 0; root < p; root++) {
            int pof2 = pof2_floor(p), last = -1, survivors = 0;
            bool ok = fold_rooted_newrank(root, p, root) >= 0;
            for (int r = 0; r < p && ok; r++) {
                int v = fold_rooted_newrank(r, p, root);
                if (v < 0) {
                    ok = (r ^ 1) < p && fold_rooted_newrank(r ^ 1, p, root) >= 0;
                    continue;
                }
                ok = v > last && v < pof2 && fold_rooted_oldrank(v, p, root) == r;
                last = v;
                survivors++;
            }
            check(ok && survivors == pof2, "fold_rooted p=%d root=%d", p, root);
        }
}

/* ---- patterns/three_two.h ---- */

/* Cheapest level-synchronous plan by brute force: sum of 2^-l over the levels
 * with three-child nodes, over every t[] with t[l] <= G[l] reaching G[0] = p. */
static double best_plan(int p, int l, int64_t G)
{
    if (l == 0)
        return G == p ? 0 : INFINITY;
    double best = INFINITY;
    for (int64_t t = 0; t <= G && 2 * G + t <= p; t++) {
        double c = best_plan(p, l - 1, 2 * G + t) + (t ? ldexp(1, -l) : 0);
        best = c < best ? c : best;
    }
    return best;
}

static void test_plan(void)
{
    for (int p = 1; p <= 20000; p += p < 300 ? 1 : 97) {
        struct tt_plan pl;
        tt_make_plan(p, &pl);
        int levels = 0;
        bool ok = pl.G[0] == p && pl.G[pl.L] == 1 && (1 << pl.L) <= p && p < 2 << pl.L;
        double cost = 0;
        for (int l = 1; l <= pl.L; l++) {
            ok = ok && pl.t[l] >= 0 && pl.t[l] <= pl.G[l] && pl.G[l - 1] == 2 * pl.G[l] + pl.t[l];
            levels += pl.t[l] > 0;
            cost += pl.t[l] ? ldexp(1, -l) : 0;
        }
        check(ok && levels <= 2, "3-2 plan p=%d", p);
        if (p <= 130)
            check(cost == best_plan(p, pl.L, 1), "3-2 plan p=%d is not the cheapest", p);
    }
}

/* Every rank's path: survivors get distinct full indices, members found from
 * the top agree with the paths, eliminated ranks find two live partners. */
static void test_paths(void)
{
    for (int p = 1; p <= 300; p++) {
        struct tt_plan pl;
        tt_make_plan(p, &pl);
        int L = pl.L, seen[512] = {0}, survivors = 0;
        bool ok = true;
        for (int r = 0; r < p && ok; r++) {
            int node[32], child[32], V[32];
            int out = tt_path(&pl, r, node, child, V);
            for (int l = 1; l <= L && l <= out && ok; l++) {
                int first = tt_first_child(&pl, l, node[l]);
                int members = tt_children(&pl, l, node[l]);
                ok = child[l] < members &&
                     tt_member(&pl, l - 1, first + child[l], V[l]) == r;
            }
            if (out > L) {
                int v = L ? V[L] | child[L] << (L - 1) : 0;
                ok = ok && tt_member(&pl, L, 0, v) == r && !seen[v]++;
                survivors++;
            } else {
                int first = tt_first_child(&pl, out, node[out]);
                ok = ok && child[out] == 2 && tt_children(&pl, out, node[out]) == 3 &&
                     tt_member(&pl, out - 1, first, V[out]) < r &&
                     tt_member(&pl, out - 1, first + 1, V[out]) < r;
            }
        }
        check(ok && survivors == 1 << L, "3-2 paths p=%d", p);
    }
}

/* ---- patterns/knomial.h ---- */

static void test_knomial_plan(void)
{
    for (int k = 2; k <= 9; k++)
        for (int p = 1; p <= 300; p++) {
            struct kn_plan pl;
            kn_make_plan(p, k, &pl);
            int km = 1;
            for (int i = 0; i < pl.m; i++)
                km *= k;
            bool ok = km <= p && p / k < km && pl.j >= 1 && pl.j < k && pl.q == pl.j * km &&
                      pl.rem == p - pl.q && pl.rem < km;
            /* Each round's groups partition the q participants. */
            for (int i = 0; i < kn_rounds(&pl) && ok; i++) {
                int stride, radix = kn_round(&pl, i, &stride), cover[300] = {0};
                for (int v = 0; v < pl.q; v++) {
                    int d = v / stride % radix, base = v - d * stride;
                    for (int e = 0; e < radix; e++)
                        if (e != d)
                            cover[base + e * stride]++;
                }
                for (int v = 0; v < pl.q; v++)
                    ok = ok && cover[v] == radix - 1;
            }
            int prod = 1;
            for (int i = 0; i < kn_rounds(&pl); i++) {
                int stride;
                prod *= kn_round(&pl, i, &stride);
            }
            ok = ok && prod == pl.q;
            for (int r = 0; r < p && ok; r++) {
                int v = fold_rem_newrank(r, pl.rem);
                ok = v < 0 ? r % 2 == 0 && r < 2 * pl.rem : v < pl.q && fold_rem_oldrank(v, pl.rem) == r;
            }
            check(ok, "knomial plan p=%d k=%d", p, k);
        }
}

/* ---- dry runs ---- */

static const struct algorithm *alg(colibri_coll coll, const char *name)
{
    const struct algorithm *a = catalog_find(coll, name);
    if (!a) {
        printf("missing from the catalog: %s %s\n", colibri_coll_name(coll), name);
        exit(1);
    }
    return a;
}

static struct sched_params params(int rank, int size, int64_t count, const int64_t *counts)
{
    return (struct sched_params){
        .rank = rank, .size = size, .count = count, .counts = counts, .elem_size = 8,
        .commutative = true};
}

static struct sched_cost dry(const struct algorithm *a, const struct sched_params *sp)
{
    struct schedule s;
    struct sched_cost c;
    sched_init(&s);
    if (a->build(sp, &s) != 0 || s.oom) {
        printf("%s: builder failed\n", a->name);
        exit(1);
    }
    sched_cost(&s, sp->elem_size, &c);
    sched_free(&s);
    return c;
}

/* Rounds that combine received data: the reduce-scatter phase. */
static int reducing_rounds(const struct algorithm *a, const struct sched_params *sp)
{
    struct schedule s;
    sched_init(&s);
    a->build(sp, &s);
    int n = 0;
    for (uint32_t r = 0; r < s.n_rounds; r++) {
        bool comm = false, red = false;
        for (uint32_t i = 0; i < s.rounds[r].n_ops; i++) {
            int k = s.ops[s.rounds[r].first_op + i].kind;
            comm |= k == SOP_SEND || k == SOP_RECV;
            red |= k == SOP_REDUCE;
        }
        n += comm && red;
    }
    sched_free(&s);
    return n;
}

static void test_pof2_counts(void)
{
    const struct algorithm *ar = alg(COLIBRI_ALLREDUCE, "rabenseifner");
    const struct algorithm *rd = alg(COLIBRI_REDUCE, "rabenseifner");
    const struct algorithm *rsb = alg(COLIBRI_REDUCE_SCATTER_BLOCK, "recursive_halving");
    const struct algorithm *tt = alg(COLIBRI_ALLREDUCE, "rabenseifner_3_2");
    static int64_t counts[1024];
    for (int L = 1; L <= 10; L++) {
        int p = 1 << L;
        int64_t n = 3 * p, B = 8;
        for (int i = 0; i < p; i++)
            counts[i] = 3;
        bool ok_ar = true, ok_rs = true, ok_tt = true, ok_rd = true;
        for (int r = 0; r < p; r++) {
            struct sched_params sp = params(r, p, n, counts);
            struct sched_cost c = dry(ar, &sp), t = dry(tt, &sp);
            ok_ar = ok_ar && c.rounds == 2 * L && c.msgs_sent == 2 * L && c.msgs_recvd == 2 * L &&
                    c.bytes_sent == 2 * (p - 1) * n / p * B && c.elems_reduced == (p - 1) * n / p;
            ok_tt = ok_tt && t.rounds == c.rounds && t.bytes_sent == c.bytes_sent &&
                    t.elems_reduced == c.elems_reduced;
            sp.count = 3;
            c = dry(rsb, &sp);
            ok_rs = ok_rs && c.rounds == L && c.msgs_sent == L && c.msgs_recvd == L &&
                    c.bytes_sent == (p - 1) * 3 * B && c.elems_reduced == (p - 1) * 3;
            sp.count = n;
            sp.root = p / 3;
            c = dry(rd, &sp);
            /* The root receives (p-1)/p n in the gather; the others send
             * their block and what they gathered once. */
            ok_rd = ok_rd && c.elems_reduced == (p - 1) * n / p &&
                    (r == p / 3 ? c.rounds == 2 * L && c.bytes_recvd == 2 * (p - 1) * n / p * B &&
                                      c.msgs_sent == L
                                : c.msgs_sent <= L + 1 && c.bytes_recvd <= 2 * (p - 1) * n / p * B);
        }
        check(ok_ar, "rabenseifner allreduce p=%d: 2 lg p messages, 2(p-1)/p n bytes", p);
        check(ok_rs, "recursive_halving reduce_scatter_block p=%d: lg p messages, (p-1)/p n", p);
        check(ok_rd, "rabenseifner reduce p=%d root=%d", p, p / 3);
        check(ok_tt, "rabenseifner_3_2 p=%d is plain Rabenseifner", p);
    }
}

static void test_fold_counts(void)
{
    const struct algorithm *ar = alg(COLIBRI_ALLREDUCE, "rabenseifner");
    for (int p = 3; p <= 100; p++) {
        if (!(p & (p - 1)))
            continue;
        int L = floor_log2(p), pof2 = 1 << L, rem = p - pof2;
        int64_t n = 5 * pof2;
        bool ok = true;
        for (int r = 0; r < p; r++) {
            struct sched_params sp = params(r, p, n, NULL);
            struct sched_cost c = dry(ar, &sp);
            if (r < 2 * rem && r % 2 == 0)
                ok = ok && c.rounds == 2 && c.bytes_sent == n * 8 && c.bytes_recvd == n * 8;
            else if (r < 2 * rem)
                ok = ok && c.rounds == 2 * L + 2 &&
                     c.bytes_sent == (2 * (pof2 - 1) * n / pof2 + n) * 8 &&
                     c.elems_reduced == (pof2 - 1) * n / pof2 + n;
            else
                ok = ok && c.rounds == 2 * L && c.bytes_sent == 2 * (pof2 - 1) * n / pof2 * 8;
        }
        check(ok, "rabenseifner allreduce fold p=%d", p);
    }
}

/* 3-2 elimination: 2 floor(lg p) rounds, floor(lg p) of them reducing, and
 * per rank less than 3n bytes sent and 1.5n elements reduced; ranks that
 * drop out at level l send their range once and receive it once. */
static void test_three_two_counts(void)
{
    const struct algorithm *tt = alg(COLIBRI_ALLREDUCE, "rabenseifner_3_2");
    for (int p = 1; p <= 300; p++) {
        int L = floor_log2(p), pof2 = 1 << L;
        int64_t n = 8 * pof2, B = 8;
        int max_rounds = 0, max_red_rounds = 0;
        int64_t max_bytes = 0, max_reduced = 0;
        struct tt_plan pl;
        tt_make_plan(p, &pl);
        bool ok = true;
        for (int r = 0; r < p; r++) {
            struct sched_params sp = params(r, p, n, NULL);
            struct sched_cost c = dry(tt, &sp);
            int node[32], child[32], V[32], out = tt_path(&pl, r, node, child, V);
            int red = reducing_rounds(tt, &sp);
            if (out > L)
                ok = ok && c.rounds == 2 * L && red == L;
            else
                ok = ok && c.rounds == 2 * out && red == out - 1 &&
                     c.bytes_recvd - c.bytes_sent == 0;
            max_rounds = c.rounds > max_rounds ? c.rounds : max_rounds;
            max_red_rounds = red > max_red_rounds ? red : max_red_rounds;
            max_bytes = c.bytes_sent > max_bytes ? c.bytes_sent : max_bytes;
            max_reduced = c.elems_reduced > max_reduced ? c.elems_reduced : max_reduced;
        }
        bool strict = p == 6 || p == 12 || p == 100;
        check(ok && max_rounds == 2 * L && max_red_rounds == L,
              "3-2 p=%d: %d rounds, %d reducing, expected %d and %d", p, max_rounds,
              max_red_rounds, 2 * L, L);
        check(max_bytes <= 3 * n * B && max_reduced * 2 <= 3 * n &&
                  (!strict || (max_bytes < 3 * n * B && max_reduced * 2 < 3 * n)),
              "3-2 p=%d: %lld bytes sent, %lld reduced for n=%lld", p, (long long)max_bytes,
              (long long)max_reduced, (long long)n);
    }
}

static void test_knomial_counts(void)
{
    const struct algorithm *kn = alg(COLIBRI_ALLREDUCE, "knomial");
    for (int k = 2; k <= 8; k++)
        for (int p = 1; p <= 100; p++) {
            struct kn_plan pl;
            kn_make_plan(p, k, &pl);
            int want = kn_rounds(&pl) + (pl.rem ? 2 : 0), max_rounds = 0;
            int64_t max_msgs = 0;
            for (int r = 0; r < p; r++) {
                struct sched_params sp = params(r, p, 10, NULL);
                sp.radix = k;
                struct sched_cost c = dry(kn, &sp);
                max_rounds = c.rounds > max_rounds ? c.rounds : max_rounds;
                max_msgs = c.msgs_sent > max_msgs ? c.msgs_sent : max_msgs;
            }
            int km = 1, logk = 0;
            while (km < p) {
                km *= k;
                logk++;
            }
            bool ok = max_rounds == want && want <= logk + (pl.rem ? 2 : 0);
            if (km == p)
                ok = ok && max_rounds == logk && max_msgs == (int64_t)logk * (k - 1);
            check(ok, "knomial k=%d p=%d: %d rounds, expected %d", k, p, max_rounds, want);
        }
    struct sched_params sp = params(0, 64, 10, NULL);
    check(dry(kn, &sp).rounds == 3, "knomial default radix is 4");
}

/* ---- cost functions against the critical path ---- */

/* Runs the schedules of all ranks in the cost model: a round starts when the
 * rank finished its previous one and ends when every partner has reached the
 * matching round, plus a (when it communicates), the larger of its bytes sent
 * and received times b, and its bytes reduced times g. */
struct chan {
    int *send_round, *recv_round;
    int n_send, n_recv;
};

static double critical_path(const struct algorithm *a, const struct sched_params *base,
                            const struct cost_params *m)
{
    int p = base->size;
    struct schedule *s = calloc((size_t)p, sizeof *s);
    struct chan *ch = calloc((size_t)p * p, sizeof *ch);
    double **start = calloc((size_t)p, sizeof *start);
    int *at = calloc((size_t)p, sizeof *at);
    for (int r = 0; r < p; r++) {
        struct sched_params sp = *base;
        sp.rank = r;
        sched_init(&s[r]);
        a->build(&sp, &s[r]);
        start[r] = calloc(s[r].n_rounds + 1, sizeof **start);
        for (uint32_t k = 0; k < s[r].n_rounds; k++)
            for (uint32_t i = 0; i < s[r].rounds[k].n_ops; i++) {
                const struct sched_op *op = &s[r].ops[s[r].rounds[k].first_op + i];
                if (op->kind == SOP_SEND) {
                    struct chan *c = &ch[(size_t)r * p + op->peer];
                    c->send_round = realloc(c->send_round, (c->n_send + 1) * sizeof(int));
                    c->send_round[c->n_send++] = (int)k;
                } else if (op->kind == SOP_RECV) {
                    struct chan *c = &ch[(size_t)op->peer * p + r];
                    c->recv_round = realloc(c->recv_round, (c->n_recv + 1) * sizeof(int));
                    c->recv_round[c->n_recv++] = (int)k;
                }
            }
    }
    /* Messages of each channel already matched, on the sending and the
     * receiving side. */
    int *sent = calloc((size_t)p * p, sizeof *sent), *recvd = calloc((size_t)p * p, sizeof *recvd);
    bool progress = true;
    while (progress) {
        progress = false;
        for (int r = 0; r < p; r++) {
            while ((uint32_t)at[r] < s[r].n_rounds) {
                const struct sched_round *rd = &s[r].rounds[at[r]];
                double t = start[r][at[r]], bs = 0, br = 0, red = 0;
                bool ready = true, comm = false;
                for (uint32_t i = 0; i < rd->n_ops && ready; i++) {
                    const struct sched_op *op = &s[r].ops[rd->first_op + i];
                    double bytes = (double)op->count * (double)base->elem_size;
                    if (op->kind == SOP_SEND || op->kind == SOP_RECV) {
                        comm = true;
                        int peer = op->peer;
                        struct chan *c = op->kind == SOP_SEND ? &ch[(size_t)r * p + peer]
                                                              : &ch[(size_t)peer * p + r];
                        int *used = op->kind == SOP_SEND ? &sent[(size_t)r * p + peer]
                                                         : &recvd[(size_t)peer * p + r];
                        int seq = *used;
                        for (uint32_t j = 0; j < i; j++) {
                            const struct sched_op *o = &s[r].ops[rd->first_op + j];
                            seq += o->kind == op->kind && o->peer == peer;
                        }
                        int other = op->kind == SOP_SEND ? c->recv_round[seq] : c->send_round[seq];
                        if (at[peer] < other) {
                            ready = false;
                            break;
                        }
                        t = start[peer][other] > t ? start[peer][other] : t;
                        *(op->kind == SOP_SEND ? &bs : &br) += bytes;
                    } else if (op->kind == SOP_REDUCE) {
                        red += bytes;
                    }
                }
                if (!ready)
                    break;
                for (uint32_t i = 0; i < rd->n_ops; i++) {
                    const struct sched_op *op = &s[r].ops[rd->first_op + i];
                    if (op->kind == SOP_SEND)
                        sent[(size_t)r * p + op->peer]++;
                    else if (op->kind == SOP_RECV)
                        recvd[(size_t)op->peer * p + r]++;
                }
                start[r][at[r] + 1] = t + (comm ? m->alpha : 0) + (bs > br ? bs : br) * m->beta +
                                      red * m->gamma;
                at[r]++;
                progress = true;
            }
        }
    }
    double end = 0;
    for (int r = 0; r < p; r++) {
        if ((uint32_t)at[r] < s[r].n_rounds)
            end = INFINITY; /* deadlock: never expected here */
        else if (start[r][at[r]] > end)
            end = start[r][at[r]];
        free(start[r]);
        sched_free(&s[r]);
    }
    for (size_t i = 0; i < (size_t)p * p; i++) {
        free(ch[i].send_round);
        free(ch[i].recv_round);
    }
    free(s);
    free(ch);
    free(start);
    free(at);
    free(sent);
    free(recvd);
    return end;
}

static bool close_to(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b); }

static const struct cost_params model = {1e-6, 1e-9, 3e-10, 0, 0, 0};

/* Cost function == critical path when n divides evenly; an upper bound
 * otherwise. */
static void test_costs(void)
{
    const struct algorithm *list[] = {
        alg(COLIBRI_ALLREDUCE, "rabenseifner"), alg(COLIBRI_ALLREDUCE, "rabenseifner_3_2"),
        alg(COLIBRI_REDUCE, "rabenseifner"), alg(COLIBRI_ALLREDUCE, "knomial")};
    int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 24, 31, 33, 48, 64, 100, 127};
    for (unsigned ai = 0; ai < sizeof list / sizeof *list; ai++)
        for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            int p = sizes[si];
            int64_t even = 6 * pof2_floor(p), ns[] = {even, even + 5, 3};
            for (int ni = 0; ni < 3; ni++) {
                struct sched_params sp = params(0, p, ns[ni], NULL);
                sp.root = p - 1;
                double cp = critical_path(list[ai], &sp, &model), c = list[ai]->cost(&sp, &model);
                bool exact = ni == 0 || list[ai]->build == allreduce_knomial_build;
                check(exact ? close_to(c, cp) : c >= cp * (1 - 1e-12),
                      "%s %s p=%d n=%lld: cost %.9g, critical path %.9g",
                      colibri_coll_name(list[ai]->coll), list[ai]->name, p, (long long)ns[ni], c,
                      cp);
            }
        }
    for (int k = 2; k <= 6; k++)
        for (int p = 1; p <= 40; p++) {
            struct sched_params sp = params(0, p, 7, NULL);
            sp.radix = k;
            const struct algorithm *kn = alg(COLIBRI_ALLREDUCE, "knomial");
            check(close_to(kn->cost(&sp, &model), critical_path(kn, &sp, &model)),
                  "knomial cost k=%d p=%d", k, p);
        }
}

static void test_reduce_scatter_costs(void)
{
    const struct algorithm *rs = alg(COLIBRI_REDUCE_SCATTER, "recursive_halving");
    const struct algorithm *rsb = alg(COLIBRI_REDUCE_SCATTER_BLOCK, "recursive_halving");
    int64_t counts[130];
    for (int p = 1; p <= 130; p += p < 20 ? 1 : 11) {
        for (int i = 0; i < p; i++)
            counts[i] = 4;
        struct sched_params sp = params(0, p, 4, counts);
        double cp = critical_path(rsb, &sp, &model);
        check(close_to(rsb->cost(&sp, &model), cp), "reduce_scatter_block cost p=%d", p);
        for (int i = 0; i < p; i++)
            counts[i] = (i * 7919 + 3) % 11;
        cp = critical_path(rs, &sp, &model);
        check(rs->cost(&sp, &model) >= cp * (1 - 1e-12), "reduce_scatter cost p=%d uneven", p);
        for (int i = 0; i < p; i++)
            counts[i] = i == p / 2 ? 1000 : 0;
        cp = critical_path(rs, &sp, &model);
        check(close_to(rs->cost(&sp, &model), cp), "reduce_scatter cost p=%d one block: %.9g, %.9g",
              p, rs->cost(&sp, &model), cp);
    }
}

/* The 3-2 table of rabenseifner_3_2.c, and the fold it replaces. */
static void test_three_two_table(void)
{
    const struct algorithm *tt = alg(COLIBRI_ALLREDUCE, "rabenseifner_3_2");
    const struct algorithm *fold = alg(COLIBRI_ALLREDUCE, "rabenseifner");
    const struct cost_params beta = {0, 1, 0, 0, 0, 0}, gamma = {0, 0, 1, 0, 0, 0};
    struct {
        int p;
        double b, g; /* multiples of n */
    } rows[] = {{5, 2.5, 1.25}, {6, 2, 1}, {7, 3, 1.5}, {12, 2, 1}, {100, 2.25, 1.125}};
    for (unsigned i = 0; i < sizeof rows / sizeof *rows; i++) {
        int p = rows[i].p;
        int64_t n = 16 * pof2_floor(p);
        double nb = (double)n * 8;
        struct sched_params sp = params(0, p, n, NULL);
        double b = critical_path(tt, &sp, &beta), g = critical_path(tt, &sp, &gamma);
        check(close_to(b, rows[i].b * nb) && close_to(g, rows[i].g * nb),
              "3-2 p=%d: %.4g n b, %.4g n g, documented %.4g, %.4g", p, b / nb, g / nb, rows[i].b,
              rows[i].g);
        check(b < critical_path(fold, &sp, &beta) && g < critical_path(fold, &sp, &gamma),
              "3-2 p=%d is not cheaper than the fold", p);
    }
    /* <= 3 n b and 3/2 n g always; equality only for odd p - p' > p'/2. */
    for (int p = 2; p <= 300; p++) {
        int pof2 = pof2_floor(p), r = p - pof2;
        int64_t n = 4 * pof2;
        double nb = (double)n * 8;
        struct sched_params sp = params(0, p, n, NULL);
        double b = tt->cost(&sp, &beta) / nb, g = tt->cost(&sp, &gamma) / nb;
        bool tight = r % 2 == 1 && 2 * r > pof2;
        check(tight ? b == 3 && g == 1.5 : b < 3 && g < 1.5, "3-2 bound p=%d: %g n b, %g n g", p,
              b, g);
    }
}

/* ---- k-nomial at other radices, symbolically ---- */

static int radix;

static int knomial_at_radix(const struct sched_params *p, struct schedule *s)
{
    struct sched_params q = *p;
    q.radix = radix;
    return allreduce_knomial_build(&q, s);
}

static void test_knomial_symbolic(void)
{
    struct algorithm a = *alg(COLIBRI_ALLREDUCE, "knomial");
    a.build = knomial_at_radix;
    int radices[] = {2, 3, 5, 8};
    for (unsigned ri = 0; ri < sizeof radices / sizeof *radices; ri++) {
        radix = radices[ri];
        for (int p = 1; p <= 70; p += p < 30 ? 1 : 7)
            for (int mode = 0; mode < 4; mode++) {
                struct sym_result res;
                int64_t n = mode < 2 ? p + 1 : 2;
                int rc = sym_run(&a, p, 0, n, NULL, mode % 2, mode >= 2, &res);
                check(rc == 0, "knomial radix %d p=%d mode %d: %s", radix, p, mode, res.error);
            }
    }
}

int main(void)
{
    test_blocks();
    test_halving_ranges();
    test_gather();
    test_volume();
    test_fold_rooted();
    test_plan();
    test_paths();
    test_knomial_plan();
    test_pof2_counts();
    test_fold_counts();
    test_three_two_counts();
    test_knomial_counts();
    test_costs();
    test_reduce_scatter_costs();
    test_three_two_table();
    test_knomial_symbolic();
    return check_summary();
}
