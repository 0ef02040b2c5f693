/*
 * Dry runs of the node-aware reductions (coll/<collective>/node_*.c): the
 * schedules of every rank of layouts from 4 x 4 to 64 x 16 (even, uneven,
 * round-robin), built without MPI and counted:
 *  - bytes through each node's network port (messages to ranks of other
 *    nodes), against a flat algorithm's on the same layout and the bound
 *    of the issue: split-rail sends what one rank per node would;
 *  - bytes each rank copies into and out of the segment and reduces from
 *    it; the flag operations; the network rounds;
 *  - the flag protocol's shape: every wait names a flag some rank of the
 *    node sets in the same use, or an earlier use's DONE (slot reuse).
 * And every rank of those layouts run together symbolically (symbolic.h):
 * results complete, in rank order for non-commutative operations, the same
 * bracketing on every rank, no read of a slot before its flag says it is
 * written, at chunks from 1 element up, in both stepping orders.
 * Correct values are checked on real ranks (tests/mpi/test_matrix.c) and
 * under SMPI over several nodes (tests/smpi/node_reductions.sh).
 */
#include <stdlib.h>
#include <string.h>

#include "coll/common/node_dissemination.h"
#include "patterns/node_groups.h"
#include "patterns/node_reduce.h"
#include "patterns/nodes.h"
#include "select/catalog.h"
#include "flag_waits.h"
#include "node_layouts.h"
#include "symbolic.h"

#define CHECK_MAX_LINES 40
#include "../lib/check.h"

struct totals {
    double max_port;          /* bytes a node's port sends, the busiest node */
    int64_t shm_copied_max;   /* elements, the busiest rank */
    int64_t shm_reduced_max;
    int rounds_max;
    int64_t flag_ops;
};

static int build_all(const struct algorithm *a, const struct algorithm *inner, int p,
                     const struct node_layout *l, int64_t count, int64_t chunk, int root,
                     struct totals *t)
{
    memset(t, 0, sizeof *t);
    double *port = calloc((size_t)l->n_nodes, sizeof *port);
    int64_t *counts = malloc((size_t)p * sizeof *counts);
    for (int r = 0; r < p; r++)
        counts[r] = count / p + (r < count % p);
    int ok = 1;
    for (int r = 0; r < p && ok; r++) {
        struct sched_params sp = {.rank = r, .size = p, .root = root, .count = count,
                                  .elem_size = 8, .commutative = true, .layout = l,
                                  .node_chunk = chunk,
                                  .inner = inner ? inner->build : NULL};
        if (a->coll == COLIBRI_REDUCE_SCATTER || a->coll == COLIBRI_REDUCE_SCATTER_BLOCK)
            sp.counts = counts;
        struct schedule s;
        sched_init(&s);
        if (a->build(&sp, &s) != 0) {
            ok = 0;
            sched_free(&s);
            break;
        }
        struct sched_cost c;
        sched_cost(&s, 8, &c);
        for (uint32_t i = 0; i < s.n_ops; i++)
            if (s.ops[i].kind == SOP_SEND && l->node_of[s.ops[i].peer] != l->node_of[r])
                port[l->node_of[r]] += (double)s.ops[i].count * 8;
        if (c.shm_elems_copied > t->shm_copied_max)
            t->shm_copied_max = c.shm_elems_copied;
        if (c.shm_elems_reduced > t->shm_reduced_max)
            t->shm_reduced_max = c.shm_elems_reduced;
        if (c.rounds > t->rounds_max)
            t->rounds_max = c.rounds;
        t->flag_ops += c.flag_sets + c.flag_waits;
        /* every wait's flag kind and local rank are in range; DONE waits
         * of earlier uses come first in their round (slot reuse) */
        const int L = l->node_start[l->node_of[r] + 1] - l->node_start[l->node_of[r]];
        for (uint32_t i = 0; i < s.n_ops; i++) {
            const struct sched_op *op = &s.ops[i];
            if (op->kind != SOP_FLAG_WAIT && op->kind != SOP_FLAG_SET)
                continue;
            int64_t f = op->kind == SOP_FLAG_WAIT ? op->src_off : op->dst_off;
            if (f < 0 || f >= node_slot_flags(L)) {
                check(0, "%s/%s rank %d: flag %lld outside the slot's %d", colibri_coll_name(a->coll),
                      a->name, r, (long long)f, node_slot_flags(L));
                ok = 0;
                break;
            }
            if (op->kind == SOP_FLAG_SET && f / NODE_FLAG_KINDS != l->local_index[r]) {
                check(0, "%s/%s rank %d sets another rank's flag", colibri_coll_name(a->coll),
                      a->name, r);
                ok = 0;
                break;
            }
        }
        /* one use of the slots per chunk; node_rails one more per round
         * between nodes (radix R + 1 by default) */
        int64_t uses = 1;
        if (a->build == allreduce_node_rails_build || a->build == reduce_node_rails_build) {
            const int R = node_fewest(l->n_nodes, l->node_start);
            int K = R + 1 < l->n_nodes ? R + 1 : l->n_nodes;
            uses += ng_rounds(l->n_nodes, K < 2 ? 2 : K);
        }
        if ((a->restrictions & R_NODE_AWARE) &&
            s.shm_epochs != uses * node_chunks(count, chunk)) {
            check(0, "%s/%s rank %d: %lld epochs for %lld chunks", colibri_coll_name(a->coll),
                  a->name, r, (long long)s.shm_epochs, (long long)node_chunks(count, chunk));
            ok = 0;
        }
        sched_free(&s);
    }
    for (int n = 0; n < l->n_nodes; n++)
        if (port[n] > t->max_port)
            t->max_port = port[n];
    free(port);
    free(counts);
    return ok;
}

static void test_port_bytes(void)
{
    const struct algorithm *rab = catalog_find(COLIBRI_ALLREDUCE, "rabenseifner");
    const struct algorithm *split = catalog_find(COLIBRI_ALLREDUCE, "node_split_rail");
    const struct algorithm *leader = catalog_find(COLIBRI_ALLREDUCE, "node_leader");
    const int shapes[][2] = {{4, 4}, {16, 16}, {64, 16}, {8, 3}};
    for (unsigned i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        const int N = shapes[i][0], L = shapes[i][1], p = N * L;
        struct layout_mem m;
        even_layout(&m, N, L, 0);
        const int64_t count = 131072; /* 1 MiB of doubles */
        const double n = (double)count * 8;
        const int64_t chunk = node_chunk_elems(node_slot_bytes(8 << 20, NODE_SLOTS), L, 8, 0);
        struct totals flat, sr, ld;
        check(build_all(rab, NULL, p, &m.l, count, chunk, 0, &flat), "rabenseifner builds");
        check(build_all(split, rab, p, &m.l, count, chunk, 0, &sr), "split-rail builds");
        check(build_all(leader, rab, p, &m.l, count, chunk, 0, &ld), "leader builds");
        /* a node port: flat Rabenseifner's L ranks each send about 2 n;
         * split-rail's R = L rails 2 n / L each, as one rank per node */
        const double one = 2 * n * (N - 1) / N;
        check(sr.max_port <= one * 1.01 + 64 * N, "%dx%d: split-rail port %.0f B > 2n(N-1)/N = %.0f",
              N, L, sr.max_port, one);
        /* Flat Rabenseifner on consecutive nodes keeps its first lg L
         * steps on the node, so its port carries about as much as
         * split-rail's (within rounding); on ranks placed round-robin
         * every step leaves the node and the port carries about L times
         * more.  Split-rail's is the same on both. */
        struct layout_mem rr;
        struct totals flat_rr, sr_rr;
        even_layout(&rr, N, L, 1);
        check(build_all(rab, NULL, p, &rr.l, count, chunk, 0, &flat_rr), "rabenseifner builds");
        check(build_all(split, rab, p, &rr.l, count, chunk, 0, &sr_rr), "split-rail builds");
        check(flat_rr.max_port >= (L / 2.0) * one, "%dx%d round-robin: flat port %.0f B", N, L,
              flat_rr.max_port);
        check(sr_rr.max_port == sr.max_port, "%dx%d: split-rail's port depends on placement", N, L);
        free(rr.node_of);
        check(ld.max_port <= one * 1.01 + 64 * N, "%dx%d: leader port %.0f B", N, L, ld.max_port);
        /* on the node: copy in and out of n, (L-1)/R of it reduced */
        check(sr.shm_copied_max <= 2 * count + count / L + L,
              "%dx%d: split-rail copies %lld elements (n = %lld)", N, L,
              (long long)sr.shm_copied_max, (long long)count);
        /* (L-1)/L of it combining the node's inputs, the flat step's
         * reductions of the rail's slice in place in the segment */
        check(sr.shm_reduced_max <= count + L * node_chunks(count, chunk),
              "%dx%d: split-rail reduces %lld elements from the segment", N, L,
              (long long)sr.shm_reduced_max);
        check(sr.rounds_max <= flat.rounds_max * node_chunks(count, chunk) + 1,
              "%dx%d: split-rail %d network rounds", N, L, sr.rounds_max);
        if (check_failed == 0)
            printf("%dx%d at 1 MiB: port bytes flat %.0f (round-robin %.0f), split-rail %.0f, "
                   "leader %.0f; network rounds flat %d, split-rail %d\n",
                   N, L, flat.max_port, flat_rr.max_port, sr.max_port, ld.max_port,
                   flat.rounds_max, sr.rounds_max);
        free(m.node_of);
    }
}

/* The awkward layouts both tests below use: uneven 5-2-7, round-robin
 * over 4 nodes of 3, one rank per node, one node, 3 x 4, 2 x 2. */
#define N_AWKWARD 6
static const char *const awkward_names[N_AWKWARD] = {"5-2-7", "round-robin 4x3", "5x1",
                                                     "1x6", "3x4", "2x2"};
static const int awkward_sizes[N_AWKWARD] = {14, 12, 5, 6, 12, 4};
static void awkward_layouts(struct layout_mem lay[N_AWKWARD])
{
    int uneven[14] = {0, 0, 0, 0, 0, 5, 5, 7, 7, 7, 7, 7, 7, 7};
    make_layout(&lay[0], 14, uneven);
    even_layout(&lay[1], 4, 3, 1);
    even_layout(&lay[2], 5, 1, 0);
    even_layout(&lay[3], 1, 6, 0);
    even_layout(&lay[4], 3, 4, 0);
    even_layout(&lay[5], 2, 2, 0);
}

/* Every node-aware entry builds for every rank on the awkward layouts at
 * counts around the chunk, every root, with the flag checks of
 * build_all. */
static void test_layouts(void)
{
    const struct algorithm *inner[COLIBRI_NCOLL] = {
        catalog_find(COLIBRI_ALLREDUCE, "recursive_doubling"),
        catalog_find(COLIBRI_REDUCE, "binomial"),
        catalog_find(COLIBRI_REDUCE_SCATTER, "recursive_halving"),
        catalog_find(COLIBRI_REDUCE_SCATTER_BLOCK, "recursive_halving"),
        [COLIBRI_SCAN] = catalog_find(COLIBRI_EXSCAN, "recursive_doubling"),
        [COLIBRI_EXSCAN] = catalog_find(COLIBRI_EXSCAN, "up_down")};
    struct layout_mem lay[N_AWKWARD];
    awkward_layouts(lay);
    const int *sizes = awkward_sizes;
    for (int i = 0; i < catalog_count; i++) {
        const struct algorithm *a = &catalog[i];
        const bool prefix = a->coll == COLIBRI_SCAN || a->coll == COLIBRI_EXSCAN;
        if (!(a->restrictions & R_NODE_AWARE) || (a->coll >= COLIBRI_ALLTOALL && !prefix))
            continue;
        for (int k = 0; k < N_AWKWARD; k++)
            for (int64_t count = 0; count < 40; count += 7) {
                struct totals t;
                int root = a->coll == COLIBRI_REDUCE ? (int)(count % sizes[k]) : 0;
                check(build_all(a, inner[a->coll], sizes[k], &lay[k].l, count, 5, root, &t),
                      "%s/%s layout %d count %lld", colibri_coll_name(a->coll), a->name, k,
                      (long long)count);
            }
    }
    for (int k = 0; k < N_AWKWARD; k++)
        free(lay[k].node_of);
}

static void sym_case(const struct algorithm *a, int p, int root, int64_t count,
                     const int64_t *counts, bool comm, bool ip, const char *layout)
{
    struct sym_result res;
    check(sym_run(a, p, root, count, counts, comm, ip, &res) == 0,
          "%s/%s %s p=%d root=%d count=%lld chunk=%lld radix=%d%s%s%s: %s",
          colibri_coll_name(a->coll), a->name, layout, p, root, (long long)count,
          (long long)sym_node.chunk, sym_node.radix,
          comm ? "" : " non-commutative", ip ? " in-place" : "",
          sym_node.reverse ? " reverse" : "", res.error);
}

static void test_symbolic(void)
{
    const struct algorithm *inner[COLIBRI_NCOLL] = {
        catalog_find(COLIBRI_ALLREDUCE, "recursive_doubling"),
        catalog_find(COLIBRI_REDUCE, "rabenseifner"),
        catalog_find(COLIBRI_REDUCE_SCATTER, "recursive_halving"),
        catalog_find(COLIBRI_REDUCE_SCATTER_BLOCK, "recursive_halving"),
        [COLIBRI_SCAN] = catalog_find(COLIBRI_EXSCAN, "recursive_doubling"),
        [COLIBRI_EXSCAN] = catalog_find(COLIBRI_EXSCAN, "up_down")};
    struct layout_mem lay[N_AWKWARD];
    awkward_layouts(lay);
    const char *const *names = awkward_names;
    const int *sizes = awkward_sizes;
    const int64_t chunks[] = {1, 2, 5, 1000};
    int64_t rc[16];
    for (int i = 0; i < catalog_count; i++) {
        const struct algorithm *a = &catalog[i];
        const bool prefix = a->coll == COLIBRI_SCAN || a->coll == COLIBRI_EXSCAN;
        if (!(a->restrictions & R_NODE_AWARE) || (a->coll >= COLIBRI_ALLTOALL && !prefix))
            continue;
        long long before = check_failed;
        for (int k = 0; k < N_AWKWARD; k++) {
            const int p = sizes[k];
            const struct node_layout *l = &lay[k].l;
            const bool blocked = node_blocked(l->n_nodes, l->node_start, l->node_ranks);
            if (prefix && !blocked) /* (the catalog refuses them there) */
                continue;
            sym_node.layout = l;
            sym_node.inner = inner[a->coll];
            for (int kr = 0; kr < (a->tunable_radix ? 3 : 1); kr++)
            for (unsigned c = 0; c < sizeof chunks / sizeof *chunks; c++)
                for (int rev = 0; rev < 2; rev++)
                    for (int comm = 1; comm >= !blocked; comm--)
                        for (int ip = 0; ip < 2; ip++)
                            for (int64_t n = 0; n <= 13; n += n < 2 ? 1 : 11) {
                                sym_node.chunk = chunks[c];
                                sym_node.reverse = rev;
                                sym_node.radix = kr ? kr + 1 : 0; /* 0: R + 1 */
                                if (a->coll == COLIBRI_REDUCE) {
                                    const int roots[3] = {0, p - 1, p / 2};
                                    for (int r = 0; r < 3; r++)
                                        sym_case(a, p, roots[r], n, NULL, comm, ip, names[k]);
                                } else if (a->coll == COLIBRI_ALLREDUCE || prefix) {
                                    sym_case(a, p, 0, n, NULL, comm, ip, names[k]);
                                } else {
                                    for (int q = 0; q < p; q++)
                                        rc[q] = a->coll == COLIBRI_REDUCE_SCATTER_BLOCK
                                                    ? n
                                                    : (n * (q + 1) + q) % (2 * n + 3);
                                    sym_case(a, p, 0, 0, rc, comm, ip, names[k]);
                                }
                            }
        }
        printf("%-22s %-20s %s\n", colibri_coll_name(a->coll), a->name,
               check_failed == before ? "ok (symbolic)" : "FAILED");
    }
    memset(&sym_node, 0, sizeof sym_node);
    for (int k = 0; k < N_AWKWARD; k++)
        free(lay[k].node_of);
}

/* The schedules of every rank of sp's layout (sp.rank set here), counted:
 * network rounds and messages each way on the busiest rank, messages
 * between ranks of one node. */
struct net_counts {
    int rounds, on_node;
    int64_t most_msgs;
};
static struct net_counts network_counts(sched_build_fn build, struct sched_params sp)
{
    struct net_counts n = {0, 0, 0};
    const struct node_layout *l = sp.layout;
    for (int r = 0; r < sp.size; r++) {
        sp.rank = r;
        struct schedule s;
        sched_init(&s);
        check(build(&sp, &s) == 0, "%d ranks: rank %d builds", sp.size, r);
        struct sched_cost c;
        sched_cost(&s, 8, &c);
        n.rounds = c.rounds > n.rounds ? c.rounds : n.rounds;
        n.most_msgs = c.msgs_sent > n.most_msgs ? c.msgs_sent : n.most_msgs;
        n.most_msgs = c.msgs_recvd > n.most_msgs ? c.msgs_recvd : n.most_msgs;
        for (uint32_t o = 0; o < s.n_ops; o++)
            n.on_node += (s.ops[o].kind == SOP_SEND || s.ops[o].kind == SOP_RECV) &&
                         l->node_of[s.ops[o].peer] == l->node_of[r];
        sched_free(&s);
    }
    return n;
}

/* The agreements' node dissemination (coll/common/node_dissemination.c),
 * a maximum: run symbolically on the awkward layouts and up to 256 ranks,
 * both stepping orders, with a chunk just large enough and a large one,
 * every rank must end with every contribution and the same result; dry
 * runs at 1024 and 4096 ranks on 16-core nodes count its messages: no
 * message inside a node, ceil(log_{R+1} N) network rounds (2 at 64 and at
 * 256 nodes), at most one message each way per rank and round. */
static void test_dissemination(void)
{
    const struct algorithm a = {"node_dissemination", COLIBRI_ALLREDUCE, 0,
                                node_dissemination_build, NULL, NULL, false};
    struct layout_mem lay[N_AWKWARD + 4];
    awkward_layouts(lay);
    even_layout(&lay[N_AWKWARD], 16, 16, 0);
    even_layout(&lay[N_AWKWARD + 1], 64, 4, 0);
    even_layout(&lay[N_AWKWARD + 2], 8, 16, 1);
    int mixed[40];
    for (int r = 0; r < 40; r++) /* nodes of 1, 2, 3, ... ranks, the last cut */
        mixed[r] = r < 1 ? 0 : r < 3 ? 1 : r < 6 ? 3 : r < 10 ? 6 : r < 15 ? 10 : r < 21 ? 15
                 : r < 28 ? 21 : 28;
    make_layout(&lay[N_AWKWARD + 3], 40, mixed);
    const int sizes[] = {14, 12, 5, 6, 12, 4, 256, 256, 128, 40};
    long long before = check_failed;
    sym_idempotent = true;
    for (int k = 0; k < N_AWKWARD + 4; k++) {
        sym_node.layout = &lay[k].l;
        for (int64_t n = 1; n <= 3; n += 2)
            for (int big = 0; big < 2; big++)
                for (int rev = 0; rev < 2; rev++) {
                    sym_node.chunk = big ? 1000 : n;
                    sym_node.reverse = rev;
                    char name[32];
                    snprintf(name, sizeof name, "layout %d", k);
                    sym_case(&a, sizes[k], 0, n, NULL, true, true, name);
                }
    }
    sym_idempotent = false;
    memset(&sym_node, 0, sizeof sym_node);
    for (int k = 0; k < N_AWKWARD + 4; k++)
        free(lay[k].node_of);

    const int shapes[][2] = {{64, 16}, {256, 16}, {5, 3}};
    for (int i = 0; i < 3; i++) {
        const int N = shapes[i][0], L = shapes[i][1], p = N * L;
        struct layout_mem m;
        even_layout(&m, N, L, 0);
        const int T = node_dissemination_rounds(&m.l);
        const struct sched_params sp = {.size = p, .count = 3, .elem_size = 8,
                                        .commutative = true, .in_place = true, .layout = &m.l,
                                        .node_chunk = 3};
        const struct net_counts nc = network_counts(a.build, sp);
        const int rounds = nc.rounds, on_node = nc.on_node;
        const int64_t most_msgs = nc.most_msgs;
        check(T == 2, "%dx%d: %d rounds between nodes", N, L, T);
        check(rounds == T && most_msgs <= T && on_node == 0,
              "%dx%d: %d network rounds, %lld messages on the busiest rank, %d inside a node", N,
              L, rounds, (long long)most_msgs, on_node);
        free(m.node_of);
    }
    printf("%-22s %-20s %s\n", "agreement", a.name,
           check_failed == before ? "ok (symbolic; 2 rounds at 64x16 and 256x16)" : "FAILED");
}

/* node_rails (coll/allreduce/node_rails.c) beyond the awkward layouts:
 *  - symbolically on larger and stranger layouts (8 x 16, 64 x 4, 8 x 16
 *    round-robin, nodes of 1, 2, 3, ... ranks, 67 x 2: a prime node count
 *    above the radix) at radices 2, 3, 5 and R + 1, non-commutative where
 *    the nodes hold consecutive ranks, and the reduce at a root in the
 *    middle;
 *  - dry runs at 1024 ranks (64 x 16) and 4096 (256 x 16): no message
 *    inside a node, ceil(log_K N) network rounds (2 at radix 17 and 8,
 *    where node_leader's leaders take lg N = 6 and 8), at most one message
 *    each way per rank and round at equal group sizes;
 *  - removing any one flag wait from one rank's schedule (a wait that can
 *    matter in a single call: not a reuse wait for a use before the
 *    call's first, nor one for the rank's own DONE) fails the symbolic
 *    check in one of four stepping orders: ascending, descending, the
 *    rank first and the one it should wait for last, and that one
 *    starved (it moves only when nothing else can, and pauses after each
 *    flag it sets). */
static int drop_rank = -1, drop_wait = -1;
static int node_ranks_at(const struct node_layout *l, int n, int li)
{
    return l->node_ranks[l->node_start[n] + li];
}
static int rails_dropped(const struct sched_params *p, struct schedule *s)
{
    int rc = allreduce_node_rails_build(p, s);
    if (rc != 0 || p->rank != drop_rank)
        return rc;
    return flag_wait_drop(s, drop_wait);
}

static void test_rails(void)
{
    const struct algorithm *a = catalog_find(COLIBRI_ALLREDUCE, "node_rails");
    if (!check(a != NULL, "node_rails is in the catalog"))
        return;
    long long before = check_failed;
    struct layout_mem lay[5];
    even_layout(&lay[0], 8, 16, 0);
    even_layout(&lay[1], 64, 4, 0);
    even_layout(&lay[2], 8, 16, 1);
    int mixed[40];
    for (int r = 0; r < 40; r++) /* nodes of 1, 2, 3, ... ranks, the last cut */
        mixed[r] = r < 1 ? 0 : r < 3 ? 1 : r < 6 ? 3 : r < 10 ? 6 : r < 15 ? 10 : r < 21 ? 15
                 : r < 28 ? 21 : 28;
    make_layout(&lay[3], 40, mixed);
    even_layout(&lay[4], 67, 2, 0);
    const int sizes[] = {128, 256, 128, 40, 134};
    const int radices[] = {0, 2, 3, 5};
    for (int k = 0; k < 5; k++) {
        const struct node_layout *l = &lay[k].l;
        const bool blocked = node_blocked(l->n_nodes, l->node_start, l->node_ranks);
        sym_node.layout = l;
        for (int kr = 0; kr < 4; kr++)
            for (int rev = 0; rev < 2; rev++)
                for (int comm = 1; comm >= !blocked; comm--)
                    for (int64_t n = 1; n <= 3; n += 2) {
                        sym_node.radix = radices[kr];
                        sym_node.chunk = n == 3 ? 2 : 1000;
                        sym_node.reverse = rev;
                        char name[32];
                        snprintf(name, sizeof name, "layout %d", k);
                        sym_case(a, sizes[k], 0, n, NULL, comm, rev, name);
                        /* the reduce: the same schedule, the result at a root */
                        const struct algorithm *red = catalog_find(COLIBRI_REDUCE, "node_rails");
                        sym_case(red, sizes[k], (sizes[k] / 3 + n) % sizes[k], n, NULL, comm, rev,
                                 name);
                    }
    }
    /* chunks long enough to combine in slices (node_rails_split: a cache
     * line each, on nodes of 2 from 128 elements of a byte, of 12 from
     * 768), on the mixed layout, where some nodes split and others not */
    for (int kr = 0; kr < 4; kr++)
        for (int rev = 0; rev < 2; rev++)
            for (int c = 0; c < 3; c++) {
                const int64_t chunks[3] = {1000, 130, 300}, counts[3] = {900, 300, 700};
                sym_node.layout = &lay[3].l;
                sym_node.radix = radices[kr];
                sym_node.chunk = chunks[c];
                sym_node.reverse = rev;
                sym_case(a, 40, 0, counts[c], NULL, true, rev, "layout 3, split");
                sym_case(a, 40, 0, counts[c], NULL, false, rev, "layout 3, split");
                const struct algorithm *red = catalog_find(COLIBRI_REDUCE, "node_rails");
                sym_case(red, 40, 17, counts[c], NULL, true, rev, "layout 3, split");
            }
    memset(&sym_node, 0, sizeof sym_node);
    for (int k = 0; k < 5; k++)
        free(lay[k].node_of);

    const int shapes[][3] = {{64, 16, 17}, {64, 16, 8}, {256, 16, 17}, {64, 16, 2}};
    for (int i = 0; i < 4; i++) {
        const int N = shapes[i][0], L = shapes[i][1], K = shapes[i][2], p = N * L;
        struct layout_mem m;
        even_layout(&m, N, L, 0);
        const int T = ng_rounds(N, K);
        const struct sched_params sp = {.size = p, .count = 1, .elem_size = 8,
                                        .commutative = true, .layout = &m.l, .node_chunk = 1024,
                                        .radix = K};
        const struct net_counts nc = network_counts(a->build, sp);
        const int rounds = nc.rounds, on_node = nc.on_node;
        const int64_t most_msgs = nc.most_msgs;
        check(T == (K == 2 ? (N == 64 ? 6 : 8) : 2), "%dx%d radix %d: %d rounds", N, L, K, T);
        check(rounds == T && most_msgs <= T && on_node == 0,
              "%dx%d radix %d: %d network rounds, %lld messages on the busiest rank, %d inside "
              "a node", N, L, K, rounds, (long long)most_msgs, on_node);
        free(m.node_of);
    }

    /* a missing wait must show */
    const struct algorithm dropped = {"node_rails/dropped", COLIBRI_ALLREDUCE, a->restrictions,
                                      rails_dropped, NULL, NULL, true};
    struct layout_mem sm[2];
    int uneven[9] = {0, 0, 0, 3, 3, 5, 5, 5, 5}; /* 3-2-4 */
    make_layout(&sm[0], 9, uneven);
    even_layout(&sm[1], 3, 3, 1);
    const int psm[2] = {9, 9};
    int tried = 0, caught = 0;
    for (int k = 0; k < 4; k++) {
        /* count 2, then 300: the slices (node_rails_split) and their waits */
        const int64_t cnt = k < 2 ? 2 : 300;
        sym_node.layout = &sm[k % 2].l;
        for (int kr = 0; kr < 2; kr++)
            for (int r = 0; r < psm[k % 2]; r++) {
                sym_node.radix = kr ? 2 : 0;
                struct sched_params sp = {.rank = r, .size = psm[k % 2], .count = cnt, .elem_size = 1,
                                          .commutative = true, .layout = &sm[k % 2].l,
                                          .node_chunk = 1000, .radix = sym_node.radix};
                struct schedule s;
                sched_init(&s);
                a->build(&sp, &s);
                struct sched_cost c;
                sched_cost(&s, 1, &c);
                for (int w = 0; w < c.flag_waits; w++) {
                    /* (a wait for its own DONE orders it after its own
                     * earlier calls, never within one) */
                    int owner;
                    if (!wait_matters(&s, w, &owner) || owner == sm[k % 2].l.local_index[r])
                        continue;
                    drop_rank = r, drop_wait = w, tried++;
                    /* both orders, then the rank without its wait first and
                     * the rank it should wait for last (others' waits on
                     * the way may otherwise order the two) */
                    const struct node_layout *l = &sm[k % 2].l;
                    const int y = node_ranks_at(l, l->node_of[r], owner);
                    int order[9], o = 0;
                    order[o++] = r;
                    for (int q = 0; q < psm[k % 2]; q++)
                        if (q != r && q != y)
                            order[o++] = q;
                    if (y != r)
                        order[o++] = y;
                    bool found = false;
                    for (int way = 0; way < 4 && !found; way++) {
                        sym_node.reverse = way == 1;
                        sym_node.order = way == 2 ? order : NULL;
                        sym_node.starve = way == 3, sym_node.slow = y;
                        sym_node.chunk = 1000;
                        struct sym_result res;
                        found = sym_run(&dropped, psm[k % 2], 0, cnt, NULL, true, false, &res) != 0;
                    }
                    sym_node.order = NULL, sym_node.starve = false;
                    caught += found;
                    if (!found)
                        check(false, "layout %d radix %d: rank %d runs without its wait %d", k,
                              sym_node.radix, r, w);
                }
                sched_free(&s);
            }
    }
    drop_rank = drop_wait = -1;
    memset(&sym_node, 0, sizeof sym_node);
    for (int k = 0; k < 2; k++)
        free(sm[k].node_of);
    printf("%-22s %-20s %s (%d of %d waits removed caught)\n", "allreduce", "node_rails",
           check_failed == before ? "ok (symbolic, rounds at 64x16 and 256x16)" : "FAILED",
           caught, tried);
}

/* Calls of different datatypes share a communicator's slots in turn
 * (stress seed 132 at 4 ranks: an Iallreduce of an 8-byte type read its
 * slot while a later MPI_INT call, one slot on, wrote its output area's
 * last 20 bytes over it, when slots were sized in elements of the type):
 * every slot starts at the same byte whatever the type, and a chunk's
 * areas, with the type's bytes past its extent, stay inside it. */
static void test_slots_any_type(void)
{
    const int64_t datas[] = {8 << 20, 1000003, 4096, 640};
    for (size_t b = 0; b < sizeof datas / sizeof datas[0]; b++) {
        const int64_t slot = node_slot_bytes(datas[b], NODE_SLOTS);
        check(slot % 64 == 0 && slot * NODE_SLOTS <= datas[b], "slots fit the data area");
        for (int L = 1; L <= 130; L += 3)
            for (int64_t ext = 1; ext <= 72; ext++)
                for (int64_t over = 0; over <= 16; over += 8) {
                    const int64_t C = node_chunk_elems(slot, L, ext, over);
                    if ((L + 1) * C * ext + (C > 0 ? over : 0) > slot) {
                        check(false, "chunk of L=%d extent %lld over %lld overflows its slot", L,
                              (long long)ext, (long long)over);
                        return;
                    }
                }
        check(node_chunk_elems(slot, 3, 4, 0) * 4 * 4 > slot - 4 * 4,
              "an int chunk fills its slot to the last element");
    }
    /* the chunk from the cache: an eighth of it, 16 KiB to 1 MiB */
    check(node_chunk_for_cache(512 * 1024) == 128 * 1024, "512 KiB L2: 128 KiB chunks");
    check(node_chunk_for_cache(2048 * 1024) == 512 * 1024, "2 MiB L2: 512 KiB chunks");
    check(node_chunk_for_cache(0) == 64 * 1024, "unknown cache: 64 KiB");
    check(node_chunk_for_cache(32 * 1024) == 16 * 1024, "at least 16 KiB");
    check(node_chunk_for_cache(64 << 20) == 1 << 20, "at most 1 MiB");
    /* a call's chunk: the cache's, within what its slot holds */
    check(node_chunk_use(100000, 128 * 1024, 8) == 16384, "doubles: 16384 per chunk");
    check(node_chunk_use(1000, 128 * 1024, 8) == 1000, "no more than the slot holds");
    check(node_chunk_use(1000, 4, 8) == 1, "one element at least");
    check(node_chunk_use(0, 4, 8) == 0, "none where the slot holds none");
}

int main(void)
{
    test_slots_any_type();
    test_port_bytes();
    test_layouts();
    test_symbolic();
    test_dissemination();
    test_rails();
    return check_summary();
}
