/*
 * Automatic algorithm selection (src/select/) on dry-run parameters, no
 * communication: the sparse reductions on the agreed shape of the data
 * (from test_sparse_kernels), alltoallv on a node layout (from
 * test_sloavx), alltoall by block size (from test_exchange_schedules),
 * bcast by buffer size (the pipelined trees only for long buffers),
 * allgatherv by block size (Bruck only for short blocks), allgather and
 * scan on 16-rank nodes (the node's shared port).
 *
 * Run as a singleton or `mpirun -n 1`.
 */
#include <mpi.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/algorithm.h"
#include "kernels/dense.h"
#include "patterns/fold.h"
#include "kernels/sparse.h"
#include "patterns/nodes.h"
#include "select/online.h"
#include "select/select.h"

#include "../lib/check.h"
#include "../lib/xorshift.h"
#include "node_layouts.h"

/* Automatic selection on the agreed shape (the dry-run half of
 * tests/smpi/sparse_bar.sh): 64 ranks, 1 MiB of doubles.  Clustered data
 * (one run per rank in a shared window of 4 d n) keeps whole partials
 * small, so recursive doubling's lg p rounds beat Rabenseifner's 2 lg p
 * (simulated: 21 against 55 us at 1%); scattered data at 1% fills in and
 * only Rabenseifner's halving keeps bytes down; dense data stays dense.
 * With the shape unknown (density alone, the model before the union
 * estimate) the clustered case goes to Rabenseifner. */
static struct sched_params agreed_params(const struct sparse_op *o, int p, int64_t n, double d,
                                         bool clustered, bool shape)
{
    double v[SPARSE_AGREE], *x = malloc((size_t)n * sizeof *x);
    for (int r = 0; r < p; r++) {
        const int64_t k = (int64_t)(d * (double)n), window = 4 * k;
        const int64_t start = window > k ? (int64_t)(next() % (uint64_t)(window - k + 1)) : 0;
        for (int64_t i = 0; i < n; i++)
            x[i] = (clustered ? i >= start && i < start + k : (double)(next() % 1000000) < d * 1e6)
                       ? 1.0 : 0.0;
        struct sparse_profile pr;
        double w[SPARSE_AGREE];
        sparse_profile(o, x, n, n / 4, &pr);
        sparse_agree_values(&pr, n, n / 4, w);
        for (int j = 0; j < SPARSE_AGREE; j++)
            v[j] = r && v[j] > w[j] ? v[j] : w[j];
    }
    free(x);
    struct sparse_shape sh;
    sparse_shape_of(v, n, p, &sh);
    struct sched_params sp = {.size = p, .count = n, .elem_size = 8, .commutative = true,
                              .sparse = o, .density = sh.density};
    if (shape)
        sp.support = sh.support, sp.span = sh.span, sp.run_length = sh.run_length;
    return sp;
}

static const char *select_for(const struct sparse_op *o, colibri_coll coll, int p, int64_t n,
                              double d, bool clustered, bool shape)
{
    const struct sched_params sp = agreed_params(o, p, n, d, clustered, shape);
    const struct algorithm *a = select_auto(coll, &sp);
    return a ? a->name : "native";
}

static void test_selection(void)
{
    struct sparse_op o;
    kernel_sparse_op(MPI_SUM, MPI_DOUBLE, &o);
    const struct {
        colibri_coll coll;
        int p;
        int64_t n;
        double d;
        bool clustered, shape;
        const char *want;
    } cases[] = {
        {COLIBRI_ALLREDUCE, 64, 1 << 17, 0.01, true, true, "sparse_recursive_doubling"},
        {COLIBRI_ALLREDUCE, 64, 1 << 17, 0.001, true, true, "sparse_recursive_doubling"},
        {COLIBRI_ALLREDUCE, 64, 1 << 17, 0.001, false, true, "sparse_rabenseifner"},
        /* 1% at random positions on 64 ranks: the result is 47% full, and
         * encoding, joining and decoding it costs more than the bytes it
         * saves on a 100 Gb/s network (cost_params.sparse) */
        {COLIBRI_ALLREDUCE, 64, 1 << 17, 0.01, false, true, "rabenseifner"},
        /* with the density alone the positions are taken as scattered */
        {COLIBRI_ALLREDUCE, 64, 1 << 17, 0.01, true, false, "rabenseifner"},
        {COLIBRI_ALLREDUCE, 64, 1 << 17, 1, false, true, "rabenseifner"},
        /* two ranks: 1% pays, 10% does not (measured: 1.36x and 0.36x) */
        {COLIBRI_ALLREDUCE, 2, 1 << 17, 0.01, false, true, "sparse_recursive_doubling"},
        {COLIBRI_ALLREDUCE, 2, 1 << 17, 0.1, false, true, "rabenseifner"},
        /* 8 MiB: the allgather must forward a clustered result whole at
         * every step whose range holds it (charged (p-1)/p of it, auto
         * took Rabenseifner here at half recursive doubling's speed) */
        {COLIBRI_ALLREDUCE, 64, 1 << 20, 0.01, true, true, "sparse_recursive_doubling"},
        {COLIBRI_REDUCE, 64, 1 << 20, 0.01, true, true, "sparse_binomial"},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *got = select_for(&o, cases[i].coll, cases[i].p, cases[i].n, cases[i].d,
                                     cases[i].clustered, cases[i].shape);
        check(strcmp(got, cases[i].want) == 0, "select %s p=%d of %lld at d=%g%s%s: %s, expected %s",
              colibri_coll_name(cases[i].coll), cases[i].p, (long long)cases[i].n, cases[i].d,
              cases[i].clustered ? " clustered" : "", cases[i].shape ? "" : " (density only)",
              got, cases[i].want);
    }
}

/* Automatic alltoallv selection weighs the node's shared link and the
 * block size: with 16 ranks per node the 16 share one port, so short blocks
 * go to a logarithmic exchange (SLOAV, or SLOAVx whose leaders send each
 * byte off the node once but copy the node's data through the segment) and
 * long ones to a direct exchange; with one rank per node SLOAVx is never
 * better than SLOAV (the same exchange plus signals). */
static void test_selection_sees_shared_links(void)
{
    enum { P = 256 };
    static int leader_of[P], node_of[P], local_index[P], node_start[P + 1], node_ranks[P];
    for (int per = 1; per <= 16; per *= 16) {
        for (int r = 0; r < P; r++)
            leader_of[r] = r - r % per;
        struct node_layout l = {node_layout_fill(P, leader_of, node_of, local_index, node_start,
                                                 node_ranks),
                                node_of, local_index, node_start, node_ranks};
        for (int64_t block = 8; block <= 32768; block *= 8) {
            struct sched_params sp = {.size = P, .count = block, .elem_size = 1, .layout = &l};
            const struct algorithm *alg = NULL;
            char msg[256];
            int rc = select_algorithm(COLIBRI_ALLTOALLV, &sp, "auto", &alg, msg, sizeof msg);
            const char *name = rc == 0 && alg ? alg->name : "none";
            bool logarithmic = strncmp(name, "sloav", 5) == 0;
            if (per == 1)
                check(strcmp(name, "sloavx") != 0 && strcmp(name, "none") != 0,
                      "auto alltoallv, one rank per node, %lld B blocks: picked %s",
                      (long long)block, name);
            else
                check(block <= 64 ? logarithmic : block >= 4096 ? !logarithmic : true,
                      "auto alltoallv, 16 ranks per node, %lld B blocks: picked %s, want %s",
                      (long long)block, name, block <= 64 ? "sloav(x)" : "a direct exchange");
        }
    }
}

/* Automatic alltoallv weighs how the blocks spread, not the largest alone:
 * 1024 ranks as 64 nodes of 16, 8-byte blocks except rank 0's, 100 times
 * larger (colibri-bench -D skewed).  Every block taken as the largest, a
 * logarithmic exchange forwards 800-byte blocks log p times (the model then
 * preferred a linear exchange, whose per-message overheads alone cost
 * 1 ms); with the agreed volumes (rank 0 sends 1023 x 800 bytes, the
 * lightest rank 1022 x 8 + 800) SLOAV forwards typical blocks and rank 0's
 * excess once, SLOAVx copies and sends them, and a logarithmic or
 * node-aware exchange is chosen. */
static void test_selection_sees_skew(void)
{
    enum { P = 1024, PER = 16 };
    static int leader_of[P], node_of[P], local_index[P], node_start[P + 1], node_ranks[P];
    for (int r = 0; r < P; r++)
        leader_of[r] = r - r % PER;
    struct node_layout l = {node_layout_fill(P, leader_of, node_of, local_index, node_start,
                                             node_ranks),
                            node_of, local_index, node_start, node_ranks};
    const struct cost_params m = {.alpha = 1e-6, .beta = 8e-11, .gamma = 5e-11, .o = 5e-7,
                                  .shm_beta = 1e-10, .shm_alpha = 1e-7};
    struct sched_params flat = {.size = P, .count = 800, .elem_size = 1, .layout = &l, .radix = 32};
    struct sched_params spread = flat;
    spread.volume_max = (P - 1) * 800, spread.volume_min = (P - 2) * 8 + 800;
    check(alltoallv_sloav_cost(&spread, &m) < 0.75 * alltoallv_sloav_cost(&flat, &m),
          "sloav's cost sees the skew: %g s against %g s with every block the largest",
          alltoallv_sloav_cost(&spread, &m), alltoallv_sloav_cost(&flat, &m));
    check(alltoallv_sloavx_cost(&spread, &m) < 0.75 * alltoallv_sloavx_cost(&flat, &m),
          "sloavx's cost sees the skew: %g s against %g s", alltoallv_sloavx_cost(&spread, &m),
          alltoallv_sloavx_cost(&flat, &m));
    check(alltoallv_linear_cost(&spread, &m) <= alltoallv_linear_cost(&flat, &m) * 1.01,
          "linear's cost: the busiest rank's volume, no more than p - 1 largest blocks");
    spread.radix = 0;
    const struct algorithm *alg = NULL;
    char msg[256];
    int rc = select_algorithm(COLIBRI_ALLTOALLV, &spread, "auto", &alg, msg, sizeof msg);
    const char *name = rc == 0 && alg ? alg->name : "none";
    check(strncmp(name, "sloav", 5) == 0, "auto alltoallv, 64 x 16, skewed: picked %s", name);
}

/* Automatic alltoall: Bruck for short blocks at scale, a direct exchange
 * for long ones, also at p = 2 where both send one message but Bruck copies
 * every block four times. */
static void test_alltoall_selection(void)
{
    const struct { int p; int64_t block; bool bruck; } cases[] = {
        {256, 8, true}, {256, 512, true}, {1024, 8, true}, {64, 64, true},
        {2, 16 << 20, false}, {2, 1 << 20, false}, {16, 1 << 20, false}};
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sched_params sp = {.size = cases[i].p, .count = cases[i].block, .elem_size = 1};
        const struct algorithm *a = NULL;
        char msg[256];
        int rc = select_algorithm(COLIBRI_ALLTOALL, &sp, "auto", &a, msg, sizeof msg);
        const bool is_bruck = rc == 0 && a && strcmp(a->name, "bruck") == 0;
        check(rc == 0 && a && is_bruck == cases[i].bruck,
              "auto alltoall p=%d, %lld B blocks: picked %s", cases[i].p,
              (long long)cases[i].block, a ? a->name : "none");
    }
}

/* Automatic bcast with the default model: the chain only for long
 * buffers (with one segment it is p-1 steps of the whole buffer, never
 * fewer than the binomial tree's ceil(lg p)), so up to 16 KiB it is never
 * chosen; nor is the binary tree at a power of two p, where its
 * floor(lg p) levels of a + 3 o are no fewer than the binomial tree's
 * rounds of a + 2 o.  At other p below 128 its one level less wins short
 * buffers in the model (tests/smpi/bcast.sh: equal or slightly faster in
 * simulated time).  At 16 MiB the chain wins on few ranks (its bytes tend
 * to n b, the scatter-allgather's 2 n b) and the binary tree on 1024 (the
 * chain's p-2 steps of filling the pipe and the ring's p-1 latencies are
 * too many). */
static void test_bcast_selection(void)
{
    const int ps[] = {2, 3, 4, 7, 8, 16, 64, 100, 1024};
    for (unsigned i = 0; i < sizeof ps / sizeof *ps; i++)
        for (int64_t n = 1; n <= 16 << 10; n *= 4) {
            struct sched_params sp = {.size = ps[i], .count = n, .elem_size = 1, .root = 1};
            const struct algorithm *a = select_auto(COLIBRI_BCAST, &sp);
            const bool pow2 = (ps[i] & (ps[i] - 1)) == 0;
            check(a && strcmp(a->name, "pipeline") &&
                      (strcmp(a->name, "binary_tree") || (!pow2 && ps[i] < 128)),
                  "auto bcast p=%d, %lld B: picked %s", ps[i], (long long)n, a ? a->name : "none");
        }
    const struct { int p; int64_t n; const char *want; } cases[] = {
        {3, 16 << 20, "pipeline"}, {4, 16 << 20, "pipeline"}, {16, 16 << 20, "pipeline"},
        {1024, 1 << 20, "binary_tree"}, {1024, 16 << 20, "binary_tree"}};
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct sched_params sp = {.size = cases[i].p, .count = cases[i].n, .elem_size = 1};
        const struct algorithm *a = select_auto(COLIBRI_BCAST, &sp);
        check(a && strcmp(a->name, cases[i].want) == 0, "auto bcast p=%d, %lld B: picked %s, want %s",
              cases[i].p, (long long)cases[i].n, a ? a->name : "none", cases[i].want);
    }
}

/* Automatic gather and scatter with the default model: the binomial tree
 * for short blocks (ceil(lg p) rounds against the root's p-1 message
 * overheads), linear for long ones, where the root's overheads hide behind
 * the bytes through its link and the tree's store-and-forward only adds
 * its rounds (SMPI, 1024 ranks as 64 x 16, 64 KiB: linear 5286 us,
 * binomial 5379; the model charged linear p o on top of its bytes and kept
 * the tree). */
static void test_rooted_selection(void)
{
    const struct { int p; int64_t n; const char *want; } cases[] = {
        {1024, 8, "binomial"},         {1024, 64 << 10, "linear"}, {1024, 1 << 20, "linear"},
        {64, 8, "binomial"},           {64, 256 << 10, "linear"},  {1000, 64, "binomial"},
        {1000, 64 << 10, "linear"}};
    const colibri_coll colls[] = {COLIBRI_GATHER, COLIBRI_SCATTER};
    for (unsigned c = 0; c < 2; c++)
        for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
            struct sched_params sp = {.size = cases[i].p, .count = cases[i].n, .elem_size = 1,
                                      .root = 3};
            const struct algorithm *a = select_auto(colls[c], &sp);
            check(a && strcmp(a->name, cases[i].want) == 0, "auto %s p=%d, %lld B: picked %s, want %s",
                  colibri_coll_name(colls[c]), cases[i].p, (long long)cases[i].n,
                  a ? a->name : "native", cases[i].want);
        }
}

/* Automatic allgatherv with the default model: Bruck for short blocks (its
 * ceil(log_k p) rounds of k-1 messages against recursive doubling's message
 * per block), not for long ones (its copies through scratch). */
static void test_allgatherv_selection(void)
{
    const struct { int p; int64_t block; bool bruck; } cases[] = {
        {64, 8, true}, {100, 8, true}, {7, 64, true}, {64, 1 << 20, false}, {100, 1 << 20, false}};
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        const int p = cases[i].p;
        int64_t *v = malloc(2 * (size_t)p * sizeof *v);
        for (int j = 0; j < p; j++)
            v[j] = cases[i].block, v[p + j] = j * cases[i].block;
        struct sched_params sp = {.size = p, .count = p * cases[i].block, .elem_size = 1,
                                  .volume_max = cases[i].block, .rcounts = v, .rdispls = v + p};
        const struct algorithm *a = select_auto(COLIBRI_ALLGATHERV, &sp);
        check(a && (strcmp(a->name, "bruck") == 0) == cases[i].bruck,
              "auto allgatherv p=%d, %lld B blocks: picked %s", p, (long long)cases[i].block,
              a ? a->name : "none");
        free(v);
    }
}

/* Automatic gatherv and scatterv read p alone (count 0 on every rank): the
 * MPI's own (linear, `by-name`) where the model ranks linear, a + p o,
 * no slower than the binomial tree's ceil(lg p)(a + 2 o): at the default
 * model (a = 1 us, o = 0.2 us) up to p = 30 and at 33-37, where ceil(lg p)
 * has just stepped up, binomial at 31-32 and from 38;
 * select_always_below answers the same per p (the nonblocking entry
 * points' shortcut), and with a named algorithm never. */
static void test_v_selection(void)
{
    const colibri_coll colls[] = {COLIBRI_GATHERV, COLIBRI_SCATTERV};
    const int ps[] = {1, 2, 8, 16, 30, 31, 32, 33, 37, 38, 64, 1024};
    for (int c = 0; c < 2; c++)
        for (unsigned i = 0; i < sizeof ps / sizeof *ps; i++) {
            struct sched_params sp = {.size = ps[i], .elem_size = 1};
            const struct algorithm *a = select_auto(colls[c], &sp);
            /* binomial's ceil(lg p)(a + 2 o) below linear's a + p o */
            const double a_ = 1e-6, o_ = 2e-7;
            const bool tree = ps[i] > 2 && ceil_log2(ps[i]) * (a_ + 2 * o_) <
                                               (a_ + ps[i] * o_) * (1 - 1e-9);
            check(tree ? a && strcmp(a->name, "binomial") == 0 : !a,
                  "auto %s p=%d: picked %s", colibri_coll_name(colls[c]), ps[i],
                  a ? a->name : "native");
            check(select_always_below(colls[c], ps[i]) == !tree,
                  "%s p=%d: always below says %d", colibri_coll_name(colls[c]), ps[i],
                  select_always_below(colls[c], ps[i]));
        }
    setenv("COLIBRI_GATHERV_ALGORITHM", "linear", 1);
    colibri_config_reload();
    check(!select_always_below(COLIBRI_GATHERV, 2), "gatherv named linear: always below");
    unsetenv("COLIBRI_GATHERV_ALGORITHM");
    colibri_config_reload();
    check(select_always_below(COLIBRI_GATHERV, 2), "gatherv auto again: not always below");
}

/* Automatic allgather weighs the node's shared port: 256 ranks as 16
 * nodes of 16 consecutive ranks.  Bruck's and recursive doubling's long
 * distances send every rank of a node off it at once, 16 through one
 * port, where the ring's and the neighbour exchange's send one: with 64
 * KiB blocks (SMPI, bench_node_movement_smpi.sh: Bruck 27.6 ms, ring
 * 1.79 ms, neighbour exchange 2.26 ms) auto must not take a logarithmic
 * one, with 8 B ones it still may.  On one node of 256 the port is not
 * shared and nothing changes.  cost_port_share itself: 1 to L by the
 * distance on consecutive nodes, L on round-robin ones. */
static void test_allgather_port(void)
{
    enum { P = 256, L = 16 };
    for (int rr = 0; rr <= 1; rr++) {
        struct layout_mem m;
        even_layout(&m, P / L, L, rr);
        struct sched_params sp = {.size = P, .count = 8, .elem_size = 1, .layout = &m.l};
        const long long ds[] = {1, 2, 15, 16, 17, 128};
        for (unsigned i = 0; i < sizeof ds / sizeof *ds; i++) {
            const double want = rr ? L : ds[i] < L ? (double)ds[i] : L;
            check(cost_port_share(&sp, ds[i]) == want, "port share at distance %lld%s: %g, want %g",
                  ds[i], rr ? " (round-robin)" : "", cost_port_share(&sp, ds[i]), want);
        }
        const double b = cost_bruck_port_share(&sp, 2);
        check(rr ? b == L : b > 8 && b < L, "Bruck's mean port share%s: %g", rr ? " (round-robin)" : "",
              b);
        if (rr) {
            free(m.node_of);
            continue;
        }
        for (int64_t block = 8; block <= 65536; block *= 8192) {
            sp.count = block;
            const struct algorithm *a = select_auto(COLIBRI_ALLGATHER, &sp);
            const char *name = a ? a->name : "none";
            const bool logarithmic =
                strcmp(name, "bruck") == 0 || strcmp(name, "recursive_doubling") == 0;
            check(block == 8 || !logarithmic,
                  "auto allgather, 16 x 16 ranks, %lld B blocks: picked %s, want no logarithmic "
                  "exchange", (long long)block, name);
        }
        free(m.node_of);
    }
    struct sched_params one = {.size = P, .count = 65536, .elem_size = 1};
    check(cost_port_share(&one, 64) == 1 && cost_bruck_port_share(&one, 2) == 1,
          "no layout: no port share");
}

/* Automatic scan and exscan weigh the node's shared port: 1024 ranks as
 * 64 nodes of 16 consecutive ranks.  Recursive doubling's rounds from
 * distance 16 on send all 16 ranks' vectors off a node at once; the
 * up-down sweep's and the chain's send one a node.  With 64 KiB vectors
 * (SMPI, bench_node_movement_smpi.sh, 0.5 us overheads: recursive
 * doubling 630 us, up-down 128 us, chain 6.9 ms) auto must not take
 * recursive doubling; with 8 B ones (18.6 against 35 us) it must. */
static void test_scan_port(void)
{
    enum { P = 1024, L = 16 };
    struct layout_mem m;
    even_layout(&m, P / L, L, 0);
    const struct node_layout l = m.l;
    const colibri_coll colls[] = {COLIBRI_SCAN, COLIBRI_EXSCAN};
    for (int c = 0; c < 2; c++)
        for (int64_t count = 1; count <= 8192; count *= 8192) {
            struct sched_params sp = {.size = P, .count = count, .elem_size = 8,
                                      .commutative = true, .layout = &l};
            const struct algorithm *a = select_auto(colls[c], &sp);
            const char *name = a ? a->name : "none";
            const bool rd = strcmp(name, "recursive_doubling") == 0;
            check(count == 1 ? rd : !rd, "auto %s, 64 x 16 ranks, %lld B: picked %s",
                  c ? "exscan" : "scan", (long long)count * 8, name);
        }
    /* distances 1, 2, 4, 8 share the port 1 to 8 ways, 16 to 512 16 ways */
    struct sched_params sp = {.size = P, .count = 1, .elem_size = 8, .layout = &l};
    check(cost_scan_port_rounds(&sp) == 15 + 6 * L, "scan's port rounds: %g, want %d",
          cost_scan_port_rounds(&sp), 15 + 6 * L);
    sp.layout = NULL;
    check(cost_scan_port_rounds(&sp) == 10, "no layout: lg p rounds, got %g",
          cost_scan_port_rounds(&sp));
    free(m.node_of);
}

/* Online selection's candidates (select_candidates) include the model's
 * choice on a network ONLINE_BETA_SPAN times slower per byte: on 1% random
 * non-zeros at 64 ranks and 8 MiB the model keeps dense Rabenseifner at
 * 100 Gb/s, and the sparse Rabenseifner it would take at 2.5 Gb/s is
 * explored (tests/smpi/online_kinds.sh: 0.32x Rabenseifner's simulated
 * time there); on dense data no sparse algorithm is. */
static void test_online_kinds(void)
{
    struct sparse_op o;
    kernel_sparse_op(MPI_SUM, MPI_DOUBLE, &o);
    for (int dense = 0; dense < 2; dense++) {
        const struct sched_params sp = agreed_params(&o, 64, 1 << 20, dense ? 1 : 0.01, false, true);
        const struct algorithm *model = select_auto(COLIBRI_ALLREDUCE, &sp);
        const struct algorithm *cand[ONLINE_CANDIDATES];
        const int n = select_candidates(COLIBRI_ALLREDUCE, &sp, model, true, cand);
        int sparse = 0;
        for (int i = 0; i < n; i++)
            sparse += cand[i] && (cand[i]->restrictions & R_NEUTRAL);
        check(model && !(model->restrictions & R_NEUTRAL), "64 ranks, 8 MiB, %s: model took %s",
              dense ? "dense" : "1%", model ? model->name : "native");
        check(dense ? sparse == 0 : sparse == 1 && n >= 3 && cand[n - 1] &&
                                        strcmp(cand[n - 1]->name, "sparse_rabenseifner") == 0,
              "64 ranks, 8 MiB, %s: %d sparse candidates of %d (last %s)", dense ? "dense" : "1%",
              sparse, n, n && cand[n - 1] ? cand[n - 1]->name : "native");
    }
}

/* On one node the fourth candidate is the model's best of the other
 * kind: a flat algorithm where the model chose a node-aware one, and the
 * other way round; never the model's choice or its runner-up again. */
static void test_online_one_node(void)
{
    const colibri_coll colls[] = {COLIBRI_ALLREDUCE, COLIBRI_REDUCE};
    const int ls[] = {2, 4, 16};
    for (unsigned c = 0; c < sizeof colls / sizeof *colls; c++)
        for (unsigned j = 0; j < sizeof ls / sizeof *ls; j++)
            for (int64_t n = 1; n <= 1 << 20; n *= 32) {
                struct layout_mem lm;
                even_layout(&lm, 1, ls[j], 0);
                struct sched_params sp = {.size = ls[j], .count = n, .elem_size = 8,
                                          .commutative = true, .layout = &lm.l,
                                          .node_chunk = 1 << 14};
                const struct algorithm *model = select_auto(colls[c], &sp);
                const struct algorithm *cand[ONLINE_CANDIDATES];
                const int k = model ? select_candidates(colls[c], &sp, model, true, cand) : 0;
                int node = 0, flat = 0, twice = 0;
                for (int i = 0; i < k; i++) {
                    node += cand[i] && (cand[i]->restrictions & R_NODE_AWARE);
                    flat += cand[i] && !(cand[i]->restrictions & R_NODE_AWARE);
                    for (int i2 = 0; i2 < i; i2++)
                        twice += cand[i] == cand[i2];
                }
                check(!model || (node >= 1 && flat >= 1 && !twice),
                      "%s, one node of %d, %lld doubles: %d candidates, %d node-aware, %d flat, "
                      "%d repeated (model %s)",
                      colibri_coll_name(colls[c]), ls[j], (long long)n, k, node, flat, twice,
                      model ? model->name : "native");
                free(lm.node_of);
            }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_selection();
    test_selection_sees_shared_links();
    test_selection_sees_skew();
    test_alltoall_selection();
    test_bcast_selection();
    test_allgatherv_selection();
    test_rooted_selection();
    test_v_selection();
    test_allgather_port();
    test_scan_port();
    test_online_kinds();
    test_online_one_node();
    const int rc = check_summary();
    MPI_Finalize();
    return rc;
}
