/*
 * The allgather, bcast and barrier schedules run on real bytes by the
 * loopback runner (loopback.h), every rank of p = 1..40 and 64, 100, 128,
 * 129: allgather blocks of 0, 1, 3 and 8 bytes, in place or not, every
 * Bruck radix up to p (a selection past p = 40); bcast of 0, 1, 3, p-1,
 * p+1 and 8p+5 bytes from every root (a selection past p = 40); barrier
 * at every radix; allgatherv by its three algorithms (Bruck at radix 2,
 * 3, p and past p: at most one message per partner and round) with random, empty,
 * single and uneven blocks, packed or reversed with gaps, in place or not;
 * gather and scatter by both algorithms, blocks of 0, 1, 3 and 8 bytes,
 * from every root (a selection past p = 40), in place at the root or not;
 * gatherv and scatterv with allgatherv's blocks from a few roots.
 * Each run checks every received byte, the untouched
 * send buffer, message sizes and deadlock.
 *
 * Counts: ring allgather p-1 rounds of one block each way; neighbour
 * exchange (even p) p/2 rounds, p-1 blocks received; Bruck's
 * ceil(log_k p) rounds and p-1 blocks received by every rank; recursive
 * doubling lg p' rounds (+2 folded), p-1 blocks received by every
 * survivor; binomial bcast's root sends ceil(lg p) whole buffers and every
 * other rank receives one; scatter+allgather receives less than 2 n.  The
 * cost functions agree with them (latency terms with the rounds, bandwidth
 * terms with the slowest rank's bytes).
 *
 * The barrier: a rank may leave only once it has heard, directly or
 * through others, from every rank.  Simulated on the built schedules with
 * MPI's FIFO matching: a message carries what its sender knew when it
 * posted the round, and after its last round every rank knows every rank.
 */
#include "loopback.h"
#include "../lib/check.h"

#include "coll/algorithm.h"
#include "patterns/blocks.h"
#include "patterns/dissemination.h"
#include "patterns/fold.h"
#include "patterns/pipeline.h"
#include "patterns/radix.h"

static const char *describe(const struct lb_case *c)
{
    static char buf[160];
    snprintf(buf, sizeof buf, "%s %s p=%d radix=%d bytes=%lld root=%d%s",
             colibri_coll_name(c->alg->coll), c->alg->name, c->p, c->radix, (long long)c->block,
             c->root, c->in_place ? " in-place" : "");
    return buf;
}

static bool run(const struct lb_case *c, struct sched_cost *costs)
{
    char err[256];
    int rc = lb_run(c, costs, err, sizeof err);
    return check(rc == 0, "%s: %s", describe(c), err);
}

/* ---- allgather ---- */

static void allgather_case(const char *name, int p, int radix, int64_t b, bool in_place,
                           struct sched_cost *costs)
{
    struct lb_case c = {.alg = lb_alg(COLIBRI_ALLGATHER, name), .p = p, .radix = radix, .block = b,
                        .in_place = in_place};
    if (!run(&c, costs) || !b)
        return;
    struct sched_params sp = {.size = p, .count = b, .elem_size = 1, .radix = radix};
    const double lat = lb_cost(c.alg, &sp, 1, 0), bw = lb_cost(c.alg, &sp, 0, 1);
    int64_t most = 0;
    bool ok = true;
    for (int i = 0; i < p; i++)
        most = costs[i].bytes_recvd > most ? costs[i].bytes_recvd : most;
    if (strcmp(name, "ring") == 0) {
        for (int i = 0; i < p; i++)
            ok = ok && costs[i].rounds == p - 1 && costs[i].msgs_sent == p - 1 &&
                 costs[i].bytes_recvd == (p - 1) * b;
        ok = ok && lat == p - 1 && bw == (double)((p - 1) * b);
    } else if (strcmp(name, "bruck") == 0) {
        int k = cost_radix(&sp);
        for (int i = 0; i < p; i++)
            ok = ok && costs[i].rounds == dis_rounds(p, k) && costs[i].bytes_recvd == (p - 1) * b &&
                 costs[i].msgs_recvd >= radix_subrounds(p, k) &&
                 costs[i].msgs_recvd <= 2 * radix_subrounds(p, k);
        ok = ok && lat == dis_rounds(p, k) && bw == (double)((p - 1) * b);
    } else if (strcmp(name, "neighbor_exchange") == 0) {
        /* p/2 rounds: one block, then pairs of blocks, from a neighbour */
        for (int i = 0; i < p; i++)
            ok = ok && costs[i].rounds == p / 2 && costs[i].msgs_recvd == p / 2 &&
                 costs[i].msgs_sent == p / 2 && costs[i].bytes_recvd == (p - 1) * b;
        ok = ok && lat == p / 2 && bw == (double)((p - 1) * b);
    } else {
        const int q = pof2_floor(p), extra = p != q ? 2 : 0;
        for (int i = 0; i < p; i++) {
            bool folded = fold_newrank(i, p) < 0;
            ok = ok && costs[i].rounds == (folded ? 2 : floor_log2(q) + extra / 2 * (i < 2 * (p - q)) * 2);
            ok = ok && costs[i].bytes_recvd == (folded ? p * b : (p - 1) * b);
        }
        ok = ok && lat == floor_log2(q) + extra && bw >= (double)most &&
             (p != q || bw == (double)most);
    }
    check(ok, "%s: rank 0 ran %d rounds, %lld msgs, %lld bytes in; cost says %g rounds, %g bytes",
          describe(&c), costs[0].rounds, (long long)costs[0].msgs_recvd,
          (long long)costs[0].bytes_recvd, lat, bw);
}

static void test_allgather(int p, struct sched_cost *costs)
{
    const int64_t blocks[] = {0, 1, 3, 8};
    const int big_radices[] = {0, 2, 3, 4, 7, 16, p - 1, p, p + 5};
    for (unsigned bi = 0; bi < sizeof blocks / sizeof *blocks; bi++)
        for (int ip = 0; ip < 2; ip++) {
            const int64_t b = blocks[bi];
            allgather_case("ring", p, 0, b, ip, costs);
            allgather_case("recursive_doubling", p, 0, b, ip, costs);
            if (p % 2 == 0)
                allgather_case("neighbor_exchange", p, 0, b, ip, costs);
            if (p <= 40) {
                for (int k = 0; k <= p + 1; k++)
                    if (k != 1)
                        allgather_case("bruck", p, k, b, ip, costs);
            } else {
                for (unsigned i = 0; i < sizeof big_radices / sizeof *big_radices; i++)
                    allgather_case("bruck", p, big_radices[i], b, ip, costs);
            }
        }
}

/* ---- allgatherv ---- */

static void test_allgatherv(int p, struct sched_cost *costs)
{
    int64_t *v = malloc((size_t)p * sizeof *v);
    uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(p + 1);
    const char *names[] = {"ring", "recursive_doubling", "bruck", "bruck", "bruck", "bruck"};
    const int radices[] = {0, 0, 0, 3, p, p + 2}; /* bruck: 2 (default), 3, p, past p */
    for (int pat = 0; pat < 4; pat++) {
        int64_t total = 0;
        for (int j = 0; j < p; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            v[j] = pat == 0 ? (int64_t)(x % 6)              /* random, zeros among them */
                   : pat == 1 ? 0                             /* all empty */
                   : pat == 2 ? (j == p / 2 ? 5 : 0)          /* one block */
                              : (int64_t)(j % 3 == 0 ? 0 : j + 1); /* uneven */
            total += v[j];
        }
        for (unsigned a = 0; a < sizeof names / sizeof *names; a++)
            for (int lay = 0; lay < 2; lay++)
                for (int ip = 0; ip < 2; ip++) {
                    struct lb_case c = {.alg = lb_alg(COLIBRI_ALLGATHERV, names[a]), .p = p,
                                        .counts = v, .in_place = ip, .radix = radices[a],
                                        .displs = lay ? LB_REVERSED : LB_PACKED};
                    if (!run(&c, costs))
                        continue;
                    bool ok = true;
                    for (int i = 0; i < p; i++)
                        ok = ok && costs[i].bytes_recvd == total - v[i];
                    if (strcmp(names[a], "bruck") == 0) {
                        /* at most one message per partner and round, and
                         * allgather's Bruck's rounds (fewer where the blocks
                         * of a round are all empty) */
                        struct sched_params sp = {.size = p, .radix = radices[a]};
                        const int k = cost_radix(&sp);
                        for (int i = 0; i < p; i++)
                            ok = ok && costs[i].msgs_recvd <= radix_subrounds(p, k) &&
                                 costs[i].rounds <= dis_rounds(p, k);
                    }
                    check(ok, "%s pattern %d: rank 0 received %lld bytes, want %lld",
                          describe(&c), pat, (long long)costs[0].bytes_recvd,
                          (long long)(total - v[0]));
                }
    }
    free(v);
}

/* The pipelined bcasts (chain, binary tree) cut n bytes into k segments of
 * seg bytes (0: 64 KiB): every rank but the root receives each segment
 * once, k messages, n bytes; a rank sends each segment to each of its
 * children (chain: the next rank, binary tree: 2x+1 and 2x+2 below p); a
 * rank with a parent and children runs k + 1 rounds, any other k.  The
 * model's steps are k + depth - 1 (chain depth p-1, tree floor(lg p)), and
 * a step carries a segment to each child of an inner rank. */
static bool pipelined_counts(const char *name, int p, int root, int64_t n, int64_t seg,
                             double lat, double bw, const struct sched_cost *costs)
{
    const bool tree = strcmp(name, "binary_tree") == 0;
    const int64_t s = seg ? seg : 65536, k = (n + s - 1) / s, sb = n < s ? n : s;
    bool ok = true;
    for (int i = 0; i < p; i++) {
        const int x = (i - root + p) % p;
        int kids = 0;
        for (int j = 0; j < 2; j++)
            kids += tree ? pipe_tree_child(x, j, p) >= 0 : j == 0 && x + 1 < p;
        ok = ok && costs[i].bytes_recvd == (x ? n : 0) && costs[i].msgs_recvd == (x ? k : 0) &&
             costs[i].bytes_sent == kids * n && costs[i].msgs_sent == kids * k &&
             costs[i].rounds == (x && kids ? k + 1 : x || kids ? k : 0);
    }
    const int depth = tree ? floor_log2(p) : p - 1, c = tree && p > 2 ? 2 : 1;
    return ok && (p == 1 ? lat == 0 && bw == 0
                         : lat == (double)pipe_steps(k, depth) &&
                               bw == (double)(pipe_steps(k, depth) * c * sb));
}

/* ---- bcast ---- */

static void bcast_case(const char *name, int p, int root, int64_t n, int64_t seg,
                       struct sched_cost *costs)
{
    struct lb_case c = {.alg = lb_alg(COLIBRI_BCAST, name), .p = p, .block = n, .root = root,
                        .segment = seg};
    if (!run(&c, costs) || !n)
        return;
    struct sched_params sp = {.size = p, .count = n, .elem_size = 1, .root = root, .segment = seg};
    const double lat = lb_cost(c.alg, &sp, 1, 0), bw = lb_cost(c.alg, &sp, 0, 1);
    bool ok = true;
    if (strcmp(name, "binomial") == 0) {
        for (int i = 0; i < p; i++)
            ok = ok && costs[i].bytes_recvd == (i == root ? 0 : n);
        ok = ok && costs[root].bytes_sent == ceil_log2(p) * n && lat == ceil_log2(p) &&
             bw == (double)(ceil_log2(p) * n);
    } else if (strcmp(name, "scatter_allgather") == 0) {
        for (int i = 0; i < p; i++)
            ok = ok && costs[i].bytes_recvd < 2 * n && costs[i].bytes_recvd >= (i == root ? 0 : n - n / p - 1);
        ok = ok && lat == ceil_log2(p) + p - 1;
    } else {
        ok = pipelined_counts(name, p, root, n, seg, lat, bw, costs);
    }
    check(ok, "%s segment=%lld: root sent %lld bytes, rank 0 received %lld; cost says %g rounds, %g bytes",
          describe(&c), (long long)seg, (long long)costs[root].bytes_sent,
          (long long)costs[0].bytes_recvd, lat, bw);
}

static void test_bcast(int p, struct sched_cost *costs)
{
    const int64_t sizes[] = {0, 1, 3, p - 1, p + 1, 8 * p + 5};
    const char *names[] = {"binomial", "scatter_allgather", "pipeline", "binary_tree"};
    const int64_t segs[] = {0, 1, 3, 7};
    for (unsigned ni = 0; ni < 4; ni++)
        for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++)
            for (int root = 0; root < p; root += p <= 40 ? 1 : p / 7 + 1)
                for (unsigned gi = 0; gi < (ni < 2 ? 1 : 4); gi++)
                    bcast_case(names[ni], p, root, sizes[si], segs[gi], costs);
}

/* ---- barrier ---- */

enum { KMAX = 130 };
static bool know[KMAX][64][KMAX]; /* [rank][round][rank heard of], before the round */

/* The j-th send from q to r matches the j-th receive of r from q. */
static bool barrier_knowledge(int p, int radix)
{
    struct schedule s[KMAX];
    struct sched_params sp = {.size = p, .radix = radix};
    const struct algorithm *a = lb_alg(COLIBRI_BARRIER, "dissemination");
    bool ok = true;
    for (int r = 0; r < p; r++) {
        sched_init(&s[r]);
        sp.rank = r;
        ok = ok && a->build(&sp, &s[r]) == 0 && s[r].n_rounds < 63;
    }
    memset(know, 0, sizeof know);
    for (int r = 0; r < p; r++)
        for (uint32_t t = 0; t <= s[r].n_rounds; t++)
            know[r][t][r] = true;
    for (bool changed = ok; changed;) {
        changed = false;
        for (int r = 0; r < p; r++) {
            int seen[KMAX] = {0}; /* receives from each q so far */
            for (uint32_t t = 0; t < s[r].n_rounds; t++) {
                const struct sched_round *rd = &s[r].rounds[t];
                for (uint32_t o = rd->first_op; o < rd->first_op + rd->n_ops; o++) {
                    const struct sched_op *op = &s[r].ops[o];
                    if (op->kind != SOP_RECV)
                        continue;
                    /* the matching send: q's seen[q]-th send to r */
                    const int q = op->peer;
                    int n = seen[q]++, at = -1;
                    for (uint32_t u = 0; u < s[q].n_rounds && at < 0; u++) {
                        const struct sched_round *ru = &s[q].rounds[u];
                        for (uint32_t v = ru->first_op; v < ru->first_op + ru->n_ops; v++)
                            if (s[q].ops[v].kind == SOP_SEND && s[q].ops[v].peer == r && n-- == 0) {
                                at = (int)u;
                                break;
                            }
                    }
                    if (at < 0) {
                        ok = false;
                        continue;
                    }
                    for (int x = 0; x < p; x++)
                        if (know[q][at][x] && !know[r][t + 1][x])
                            know[r][t + 1][x] = changed = true;
                }
                for (int x = 0; x < p; x++)
                    if (know[r][t][x] && !know[r][t + 1][x])
                        know[r][t + 1][x] = changed = true;
            }
        }
    }
    for (int r = 0; r < p; r++) {
        for (int x = 0; x < p; x++)
            ok = ok && know[r][s[r].n_rounds][x];
        sched_free(&s[r]);
    }
    return ok;
}

static void test_barrier(int p, struct sched_cost *costs)
{
    for (int k = 0; k <= p + 1; k += (p <= 40 || k < 8) ? 1 : p / 5) {
        if (k == 1)
            continue;
        struct lb_case c = {.alg = lb_alg(COLIBRI_BARRIER, "dissemination"), .p = p, .radix = k};
        if (!run(&c, costs))
            continue;
        struct sched_params sp = {.size = p, .radix = k};
        const int kk = cost_radix(&sp);
        bool ok = true;
        for (int i = 0; i < p; i++)
            ok = ok && costs[i].rounds == dis_rounds(p, kk) &&
                 costs[i].msgs_sent == radix_subrounds(p, kk) && costs[i].bytes_sent == 0;
        check(ok && lb_cost(c.alg, &sp, 1, 0) == dis_rounds(p, kk),
              "%s: %d rounds, %lld messages", describe(&c), costs[0].rounds,
              (long long)costs[0].msgs_sent);
        if (p < KMAX)
            check(barrier_knowledge(p, k), "barrier p=%d radix=%d: a rank leaves before hearing "
                                           "from every rank", p, k);
    }
}

/* ---- gather, scatter, gatherv, scatterv ---- */

/* Gather and scatter by both algorithms from root `root`: every byte (the
 * runner), then what the tree moves.  Binomial: a rank sends (gather) or
 * receives (scatter) its subtree's blocks, (end - x) c bytes, in one or
 * two messages, and the root receives (sends) the other p-1 blocks in at
 * most ceil(lg p) + 1 messages; linear: one block per message.  Every
 * rank's tree depth (the rounds before its data reaches or leaves the
 * root) is at most ceil(lg p), the cost's latency term. */
static void rooted_case(colibri_coll coll, const char *name, int p, int root, int64_t b,
                        bool in_place, struct sched_cost *costs)
{
    struct lb_case c = {.alg = lb_alg(coll, name), .p = p, .block = b, .root = root,
                        .in_place = in_place};
    if (!run(&c, costs) || !b)
        return;
    const bool g = coll == COLIBRI_GATHER, bin = strcmp(name, "binomial") == 0;
    struct sched_params sp = {.size = p, .count = b, .elem_size = 1, .root = root};
    const double lat = lb_cost(c.alg, &sp, 1, 0), bw = lb_cost(c.alg, &sp, 0, 1);
    bool ok = bw == (double)((p - 1) * b) && lat == (p == 1 ? 0 : bin ? ceil_log2(p) : 1);
    for (int i = 0; i < p; i++) {
        const int x = (i - root + p) % p;
        const int64_t mine = i == root ? 0 : bin ? (blocks_subtree_end(x, p) - x) * b : b;
        const int64_t moved = g ? costs[i].bytes_sent : costs[i].bytes_recvd;
        const int64_t msgs = g ? costs[i].msgs_sent : costs[i].msgs_recvd;
        ok = ok && moved == mine && msgs <= (i == root ? 0 : 2) && msgs >= (i != root);
        ok = ok && costs[i].rounds <= (bin ? ceil_log2(p) + 1 : 1);
    }
    const int64_t at_root = g ? costs[root].bytes_recvd : costs[root].bytes_sent;
    const int64_t root_msgs = g ? costs[root].msgs_recvd : costs[root].msgs_sent;
    ok = ok && at_root == (p - 1) * b &&
         root_msgs <= (bin ? ceil_log2(p) + 1 : p - 1) && root_msgs >= (bin ? ceil_log2(p) : p - 1);
    check(ok, "%s: root moved %lld bytes in %lld messages, rank 0 %lld bytes in %d rounds; cost "
              "says %g rounds, %g bytes",
          describe(&c), (long long)at_root, (long long)root_msgs,
          (long long)(g ? costs[0].bytes_sent : costs[0].bytes_recvd), costs[0].rounds, lat, bw);
}

static void test_rooted(int p, struct sched_cost *costs)
{
    const int64_t blocks[] = {0, 1, 3, 8};
    const char *names[] = {"binomial", "linear"};
    const colibri_coll colls[] = {COLIBRI_GATHER, COLIBRI_SCATTER};
    for (int k = 0; k < 2; k++)
        for (unsigned a = 0; a < 2; a++)
            for (unsigned bi = 0; bi < sizeof blocks / sizeof *blocks; bi++)
                for (int root = 0; root < p; root += p <= 40 ? 1 : p / 7 + 1)
                    for (int ip = 0; ip < 2; ip++)
                        rooted_case(colls[k], names[a], p, root, blocks[bi], ip, costs);
}

/* Gatherv and scatterv with allgatherv's count patterns, packed or in
 * reverse order with gaps, in place or not, from a few roots, by both
 * algorithms: every byte, and the root moves exactly the other ranks'
 * blocks.  Binomial: besides its subtree's blocks (in one message) a rank
 * whose parent is not the root sends it the subtree's byte total (gatherv,
 * 8 bytes), and an inner rank receives its subtree's sizes (scatterv, 8
 * bytes a block); the root handles at most ceil(lg p) runs (scatterv: and
 * as many size lists), and no rank takes more than 3 rounds (gatherv) or
 * 2 + ceil(lg p) (scatterv). */
static void test_rooted_v(int p, struct sched_cost *costs)
{
    int64_t *v = malloc((size_t)p * sizeof *v);
    uint64_t x = 0x2545f4914f6cdd1dull * (uint64_t)(p + 3);
    const colibri_coll colls[] = {COLIBRI_GATHERV, COLIBRI_SCATTERV};
    const char *names[] = {"linear", "binomial"};
    /* pattern 4: blocks of 300-1500 bytes (every fifth empty), so that
     * larger subtrees' sizes and blocks exceed a scatterv packet (4 KiB)
     * and smaller ones do not */
    for (int pat = 0; pat < (p <= 40 ? 5 : 4); pat++) {
        for (int j = 0; j < p; j++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            v[j] = pat == 0   ? (int64_t)(x % 6)
                   : pat == 1 ? 0
                   : pat == 2 ? (j == p / 2 ? 5 : 0)
                   : pat == 3 ? (int64_t)(j % 3 == 0 ? 0 : j + 1)
                              : (int64_t)(j % 5 == 4 ? 0 : 300 + x % 1200);
        }
        for (int a = 0; a < 2; a++)
        for (int k = 0; k < 2; k++)
            for (int root = 0; root < p; root += p <= 8 ? 1 : p / 3 + 1)
                for (int lay = 0; lay < 2; lay++)
                    for (int ip = 0; ip < 2; ip++) {
                        struct lb_case c = {.alg = lb_alg(colls[k], names[a]), .p = p,
                                            .counts = v, .in_place = ip, .root = root,
                                            .displs = lay ? LB_REVERSED : LB_PACKED};
                        if (!run(&c, costs))
                            continue;
                        int64_t others = 0, sizes = 0;
                        for (int j = 0; j < p; j++)
                            others += j == root ? 0 : v[j];
                        for (int d = 1; a && k && d < p; d *= 2)
                            if (blocks_subtree_end(d, p) > d + 1)
                                sizes += 8 * (blocks_subtree_end(d, p) - d);
                        const int64_t at_root = k ? costs[root].bytes_sent : costs[root].bytes_recvd;
                        const int64_t root_msgs = k ? costs[root].msgs_sent : costs[root].msgs_recvd;
                        struct sched_params sp = {.size = p, .root = root, .count = v[root]};
                        if (k)
                            sp.scounts = v;
                        else
                            sp.rcounts = v;
                        bool ok = at_root == others + sizes &&
                                  lb_cost(c.alg, &sp, 0, 1) == (double)others &&
                                  root_msgs <= (a ? (1 + k) * ceil_log2(p) : p - 1);
                        for (int i = 0; a && i < p; i++) {
                            const int xi = (i - root + p) % p, lb = blocks_lowbit(xi, p);
                            if (!xi)
                                continue;
                            const int e = blocks_subtree_end(xi, p);
                            int64_t sub = 0;
                            for (int r = xi; r < e; r++)
                                sub += v[(r + root) % p];
                            const int64_t extra = k ? (e > xi + 1 ? 8 * (e - xi) : 0)
                                                    : (xi != lb ? 8 : 0);
                            const int64_t moved = k ? costs[i].bytes_recvd : costs[i].bytes_sent;
                            ok = ok && moved == sub + extra &&
                                 costs[i].rounds <= (k ? 2 + ceil_log2(p) : 3);
                        }
                        check(ok, "%s pattern %d: the root moved %lld bytes in %lld messages, the "
                                  "others' blocks are %lld (+ %lld of sizes)",
                              describe(&c), pat, (long long)at_root, (long long)root_msgs,
                              (long long)others, (long long)sizes);
                    }
    }
    free(v);
}

int main(void)
{
    int sizes[48], ns = 0;
    for (int p = 1; p <= 40; p++)
        sizes[ns++] = p;
    const int big[] = {64, 100, 128, 129};
    for (unsigned i = 0; i < sizeof big / sizeof *big; i++)
        sizes[ns++] = big[i];
    struct sched_cost *costs = malloc(200 * sizeof *costs);
    for (int i = 0; i < ns; i++) {
        test_allgather(sizes[i], costs);
        test_allgatherv(sizes[i], costs);
        test_bcast(sizes[i], costs);
        test_barrier(sizes[i], costs);
        test_rooted(sizes[i], costs);
        test_rooted_v(sizes[i], costs);
    }
    free(costs);
    return check_summary();
}
