/*
 * SLOAVx (node-aware alltoallv) on the loopback runner: every rank's
 * schedule run on real bytes with one shared segment per node, over node
 * placements (even, uneven, interleaved, one node, one rank per node),
 * radices, count patterns (uniform, skewed, zero, empty ranks) and in
 * place; after each, every rank must hold the call's sizes (the headers
 * of its messages: sched_params.sizes_out).  Also the layout arithmetic of patterns/nodes.h.
 */
#include "loopback.h"
#include "patterns/node_segment.h"
#include "patterns/nodes.h"
#include "select/select.h"

#define CHECK_MAX_LINES -1 /* every failure printed */
#include "../lib/check.h"

struct layout_mem {
    int node_of[64], local_index[64], node_start[65], node_ranks[64];
    struct node_layout l;
};

/* Layout from each rank's leader. */
static void make_layout(struct layout_mem *m, int p, const int *leader_of)
{
    m->l.n_nodes = node_layout_fill(p, leader_of, m->node_of, m->local_index, m->node_start,
                                    m->node_ranks);
    m->l.node_of = m->node_of, m->l.local_index = m->local_index;
    m->l.node_start = m->node_start, m->l.node_ranks = m->node_ranks;
}

static void test_layout_arithmetic(void)
{
    /* Interleaved placement: ranks 0,3,4 | 1,5 | 2. */
    int leader_of[6] = {0, 1, 2, 0, 0, 1};
    struct layout_mem m;
    make_layout(&m, 6, leader_of);
    int node_of[6] = {0, 1, 2, 0, 0, 1}, local[6] = {0, 0, 0, 1, 2, 1};
    int start[4] = {0, 3, 5, 6}, ranks[6] = {0, 3, 4, 1, 5, 2};
    check(m.l.n_nodes == 3, "layout: 3 nodes, got %d", m.l.n_nodes);
    check(memcmp(m.node_of, node_of, sizeof node_of) == 0, "layout: node_of");
    check(memcmp(m.local_index, local, sizeof local) == 0, "layout: local_index");
    check(memcmp(m.node_start, start, sizeof start) == 0, "layout: node_start");
    check(memcmp(m.node_ranks, ranks, sizeof ranks) == 0, "layout: node_ranks");
    check(node_max_ranks(m.l.n_nodes, m.node_start) == 3, "node_max_ranks: 3");
    int bad[3] = {0, 2, 2}; /* rank 1's leader is above it */
    check(node_layout_fill(3, bad, m.node_of, m.local_index, m.node_start, m.node_ranks) == -1,
           "layout: inconsistent leaders rejected");
    check(node_meta_bytes(4, 16) == 2 * 4 * 16 * 8, "node_meta_bytes");
}

/* Blocked placement: node sizes `sizes` (n entries) in rank order. */
static int blocked(int *leader_of, const int *sizes, int n)
{
    int r = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < sizes[i]; j++, r++)
            leader_of[r] = r - j;
    return r;
}

enum pattern { UNIFORM, SKEWED, ZERO, EMPTY_RANKS, RANDOM, NPATTERNS };
static const char *const pattern_names[] = {"uniform", "skewed", "zero", "empty-ranks", "random"};

static int64_t count_of(enum pattern pat, int p, int i, int j)
{
    switch (pat) {
    case UNIFORM: return 5;
    case SKEWED: return i == 0 ? 40 + j : (j == p - 1 ? 17 : (i + j) % 3);
    case ZERO: return 0;
    case EMPTY_RANKS: return i % 3 == 1 || j % 4 == 2 ? 0 : 1 + (i * 7 + j) % 5;
    default: return (int64_t)((unsigned)(i * 2654435761u + j * 40503u) >> 7) % 23;
    }
}

static void run_case(const struct algorithm *a, const char *what, int p, const int *leader_of)
{
    struct layout_mem m;
    make_layout(&m, p, leader_of);
    int64_t *counts = malloc((size_t)p * p * sizeof *counts), sizes[3 * 64];
    int rails[] = {1, 2, 3, 0}; /* the radix asks for rails: 0 as many as fit */
    for (int pat = 0; pat < NPATTERNS; pat++) {
        for (int i = 0; i < p; i++)
            for (int j = 0; j < p; j++)
                counts[i * p + j] = count_of(pat, p, i, j);
        for (int ri = 0; ri < 4; ri++)
            for (int ip = 0; ip < 2; ip++)
                for (int dl = 0; dl < 2; dl++) {
                    /* 3 calls in a row: a rank starts the next while its
                     * node's others finish the last */
                    struct lb_case c = {.alg = a, .p = p, .radix = rails[ri], .in_place = ip,
                                        .counts = counts, .displs = dl, .layout = &m.l,
                                        .calls = 3, .sizes = sizes};
                    char err[256];
                    for (int i = 0; i < 3 * p; i++)
                        sizes[i] = -1;
                    int rc = lb_run(&c, NULL, err, sizeof err);
                    check(rc == 0, "sloavx %s p=%d %s rails=%d%s%s: %s", what, p,
                           pattern_names[pat], rails[ri], ip ? " in-place" : "",
                           dl ? " reversed" : "", err);
                    /* every rank knows the call's sizes: the maximum over
                     * ranks of each rank's own (node_segment.h) */
                    int64_t want[NSEG_SIZES] = {0, 0, -INT64_MAX}, w[NSEG_SIZES];
                    int64_t sc[64], rcv[64];
                    for (int i = 0; i < p; i++) {
                        for (int j = 0; j < p; j++)
                            sc[j] = lb_count(&c, i, j), rcv[j] = lb_count(&c, j, i);
                        node_seg_rank_sizes(sc, rcv, p, i, w);
                        node_seg_sizes_max(want, w);
                    }
                    bool same = true;
                    for (int i = 0; i < p; i++)
                        same &= memcmp(sizes + 3 * i, want, sizeof want) == 0;
                    check(same, "sloavx %s p=%d %s rails=%d%s: sizes_out is not the call's "
                          "(%lld %lld %lld)", what, p, pattern_names[pat], rails[ri],
                          ip ? " in-place" : "", (long long)want[0], (long long)want[1],
                          (long long)-want[2]);
                }
    }
    free(counts);
}

/* 4 nodes of 4, 2 rails: rail 0 serves node distances 1 and 3, rail 1
 * distance 2, each with one message per distance each way and no other;
 * the other ranks send nothing; the node synchronises through flags. */
static void test_rounds(const struct algorithm *a)
{
    int sizes[4] = {4, 4, 4, 4}, leader_of[16];
    int p = blocked(leader_of, sizes, 4);
    struct layout_mem m;
    make_layout(&m, p, leader_of);
    int64_t counts[256];
    for (int i = 0; i < 256; i++)
        counts[i] = 3;
    struct sched_cost cost[16];
    char err[256];
    struct lb_case c = {.alg = a, .p = p, .radix = 2, .counts = counts, .layout = &m.l};
    check(lb_run(&c, cost, err, sizeof err) == 0, "rounds case: %s", err);
    /* Node-aggregated blocks of 4 x 4 x 3 = 48 bytes behind a 24-byte
     * header (the node's sizes). */
    for (int r = 0; r < p; r++) {
        int li = r % 4, msgs = li == 0 ? 2 : li == 1 ? 1 : 0;
        check(cost[r].rounds == (msgs > 0) && cost[r].msgs_sent == msgs &&
                  cost[r].msgs_recvd == msgs && cost[r].bytes_sent == 72 * msgs,
              "rank %d: %d rounds, %lld msgs, %lld bytes; want %d, %d, %d", r, cost[r].rounds,
              (long long)cost[r].msgs_sent, (long long)cost[r].bytes_sent, msgs > 0, msgs,
              72 * msgs);
        /* COUNTS, READY once per rail (and RECEIVED on a rail) set; every
         * other rank's COUNTS and READY (a rail: for its rail), and the
         * other rails' RECEIVED, waited for */
        int sets = li < 2 ? 4 : 3, waits = 3 + 3 + (li < 2 ? 1 : 2);
        check(cost[r].flag_sets == sets && cost[r].flag_waits == waits,
              "rank %d: %lld flag sets, %lld waits; want %d, %d", r, (long long)cost[r].flag_sets,
              (long long)cost[r].flag_waits, sets, waits);
        /* its 16 blocks into the segment, its 16 out: 2 x 48 bytes; a rail
         * also writes each message's header */
        check(cost[r].shm_elems_copied == 2 * 48 + 24 * msgs,
              "rank %d: %lld bytes copied through the segment", r,
              (long long)cost[r].shm_elems_copied);
    }
}

int main(void)
{
    const struct algorithm *a = catalog_find(COLIBRI_ALLTOALLV, "sloavx");
    if (!a) {
        printf("sloavx not in the catalog\n");
        check_print_totals(0, 1);
        return 1;
    }
    test_layout_arithmetic();
    int leader_of[64];
    int s4x4[] = {4, 4, 4, 4}, s527[] = {5, 2, 7}, s1[] = {6}, s111[] = {1, 1, 1, 1, 1};
    int s_big[] = {3, 1, 4, 1, 5, 9, 2};
    run_case(a, "4x4", blocked(leader_of, s4x4, 4), leader_of);
    run_case(a, "5,2,7", blocked(leader_of, s527, 3), leader_of);
    run_case(a, "one node", blocked(leader_of, s1, 1), leader_of);
    run_case(a, "one rank per node", blocked(leader_of, s111, 5), leader_of);
    run_case(a, "3,1,4,1,5,9,2", blocked(leader_of, s_big, 7), leader_of);
    int inter[7] = {0, 1, 2, 0, 1, 0, 2}; /* round-robin-ish placement */
    run_case(a, "interleaved", 7, inter);
    int single[1] = {0};
    run_case(a, "p=1", 1, single);
    test_rounds(a);
    return check_summary();
}
