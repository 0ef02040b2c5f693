/*
 * SLOAV and SLOAVx at the seed's scale, dry: what each rank and each node's
 * network port sends.
 *
 * 1. The exchange's shape (common/sloav_exchange.h, sloav_exchange_shape)
 *    at p = 64 .. 4096 and every radix the selector tries: with the sizes
 *    carried in each message, D = ceil(log_k p) rounds and S messages per
 *    participant for short blocks, against the D + 1 rounds and 2 S
 *    messages of a separate metadata message per sub-round; blocks beyond
 *    the receiver's reserve add one round and one message per overflowing
 *    digit and message, re-derived here.
 * 2. Loopback runs (loopback.h: every rank's schedule on real bytes) of
 *    1024 ranks as 64 nodes x 16, 8-byte blocks, with the agreed largest
 *    block (automatic selection) and without: every rank's rounds,
 *    messages and bytes exactly as the shape says for SLOAV (flat); for
 *    SLOAVx one round and one message each way per node distance its rail
 *    serves (16 rails: at most 4), none from the other ranks; the bytes
 *    through node 0's port: SLOAVx's (N-1) L^2 n, each byte once with no
 *    sizes, against SLOAV's 16 ranks' forwarded blocks with their 8-byte
 *    sizes (0.25 at 8 B).
 * 3. SLOAVx dry at 1024 and 4096 ranks (256 nodes x 16), 16, 4 and 1
 *    rails: every rank's schedule built and resumed node by node on its
 *    node's metadata, its messages as its rail says, no message to a rank
 *    of its own node (the node synchronises through flags), 2 p n bytes
 *    copied through the segment, each byte through the port once.
 */
#include "loopback.h"
#include "coll/common/sloav_exchange.h"
#include "patterns/node_segment.h"
#include "patterns/radix.h"
#define CHECK_MAX_LINES 30
#include "../lib/check.h"

static void test_shapes(void)
{
    int ps[] = {64, 100, 1000, 1024, 4095, 4096};
    int ks[] = {2, 3, 4, 8, 16, 32, 64, 128, 256, 1024, 4096};
    for (unsigned i = 0; i < sizeof ps / sizeof *ps; i++)
        for (unsigned j = 0; j < sizeof ks / sizeof *ks; j++) {
            int p = ps[i], k = ks[j] < p ? ks[j] : p;
            int D = radix_digits(p, k), S = radix_subrounds(p, k);
            int64_t M = 0;
            for (int d = 0; d < D; d++)
                M += radix_moving(p, k, radix_weight(k, d));
            /* blocks of n bytes, largest block agreed (a) or not (0) */
            struct {
                int64_t n, agreed;
            } cases[] = {{8, 0}, {8, 8}, {512, 0}, {512, 512}, {65536, 0}, {65536, 65536}};
            for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
                int64_t n = cases[c].n, a = cases[c].agreed, over = 0;
                int over_digits = 0;
                for (int d = 0; d < D; d++) {
                    bool any = false;
                    for (int v = 1; v <= radix_values(p, k, radix_weight(k, d)); v++) {
                        int64_t cnt = radix_nmoving(p, k, radix_weight(k, d), v);
                        /* the receiver reserves c n (at most 1 MiB) when
                         * the largest block is agreed, else 4 KiB */
                        int64_t cap = a ? (cnt * a < (1 << 20) ? cnt * a : 1 << 20) : 4096;
                        if (cnt * n > cap)
                            over++, any = true;
                    }
                    over_digits += any;
                }
                struct sx_shape sh;
                sloav_exchange_shape(p, k, n, a, &sh);
                check(sh.rounds == D + over_digits && sh.msgs == S + over && sh.blocks == M,
                      "p=%d k=%d %lld B%s: %d rounds %lld msgs %lld blocks, want %d, %lld, %lld",
                      p, k, (long long)n, a ? " agreed" : "", sh.rounds, (long long)sh.msgs,
                      (long long)sh.blocks, D + over_digits, (long long)(S + over), (long long)M);
                /* short blocks: one message per sub-round, D rounds (a
                 * separate metadata message would be 2 S and D + 1) */
                if (n == 8 && (a || p <= 1024))
                    check(sh.rounds == D && sh.msgs == S, "p=%d k=%d 8 B: overflow", p, k);
                /* 64 KiB blocks, largest unknown: every message overflows */
                if (n == 65536 && !a)
                    check(sh.rounds == 2 * D && sh.msgs == 2 * S, "p=%d k=%d 64 KiB", p, k);
            }
        }
}

/* Blocked layout of N nodes of L ranks. */
struct blocked {
    int *leader_of, *node_of, *local_index, *node_start, *node_ranks;
    struct node_layout l;
};
static void blocked_layout(struct blocked *b, int P, int L)
{
    b->leader_of = malloc((5 * (size_t)P + 1) * sizeof(int));
    b->node_of = b->leader_of + P, b->local_index = b->node_of + P;
    b->node_ranks = b->local_index + P, b->node_start = b->node_ranks + P;
    for (int r = 0; r < P; r++)
        b->leader_of[r] = r - r % L;
    b->l = (struct node_layout){node_layout_fill(P, b->leader_of, b->node_of, b->local_index,
                                                 b->node_start, b->node_ranks),
                                b->node_of, b->local_index, b->node_start, b->node_ranks};
}

/* 1024 ranks as 64 nodes x 16, 8-byte blocks, on the loopback runner:
 * SLOAV's rounds, messages and bytes as its shape says; SLOAVx's rails
 * (as many as fit: 16) one message per node distance each way, its other
 * ranks none; the bytes through node 0's port. */
static void test_1024(int64_t agreed)
{
    enum { P = 1024, L = 16, N = P / L, B = 8 };
    struct blocked bl;
    blocked_layout(&bl, P, L);
    int64_t *counts = malloc((size_t)P * P * sizeof *counts);
    struct sched_cost *cost = calloc(P, sizeof *cost);
    for (int i = 0; i < P * P; i++)
        counts[i] = B;
    char err[256];
    int64_t port[2] = {0, 0}; /* node 0's port bytes: sloav, sloavx */
    for (int x = 0; x < 2; x++) {
        const struct algorithm *a = catalog_find(COLIBRI_ALLTOALLV, x ? "sloavx" : "sloav");
        /* The builders read the agreed largest block from the params'
         * count: the loopback runner passes `block`, which alltoallv ignores. */
        struct lb_case c = {.alg = a, .p = P, .radix = x ? 0 : 32, .counts = counts,
                            .layout = &bl.l, .block = agreed};
        bool ran = check(lb_run(&c, cost, err, sizeof err) == 0, "%s p=1024: %s", a->name, err);
        if (!ran)
            continue;
        struct sx_shape sh;
        sloav_exchange_shape(P, 32, B, agreed, &sh);
        for (int r = 0; r < P; r++) {
            const struct sched_cost *cr = &cost[r];
            const int li = bl.local_index[r], msgs = node_seg_rail_msgs(N, L, li);
            if (!x)
                check(cr->rounds == sh.rounds && cr->msgs_sent == sh.msgs &&
                          cr->bytes_sent == sh.blocks * (B + 8),
                      "sloav rank %d: %d rounds %lld msgs %lld bytes, want %d %lld %lld", r,
                      cr->rounds, (long long)cr->msgs_sent, (long long)cr->bytes_sent, sh.rounds,
                      (long long)sh.msgs, (long long)(sh.blocks * (B + 8)));
            else
                check(cr->rounds == (msgs > 0) && cr->msgs_sent == msgs &&
                          cr->bytes_sent == (int64_t)msgs * (L * L * B + NSEG_HEADER),
                      "sloavx rank %d: %d rounds %lld msgs %lld bytes, want %d %d %lld", r,
                      cr->rounds, (long long)cr->msgs_sent, (long long)cr->bytes_sent, msgs > 0,
                      msgs, (long long)msgs * (L * L * B + NSEG_HEADER));
            /* every byte node 0's ranks send to another node crosses its
             * port: sloav's ranks send nearly all to other nodes (at most
             * what stays on the node is counted in excess) */
            if (bl.node_of[r] == 0)
                port[x] += cr->bytes_sent;
        }
    }
    /* SLOAVx sends each byte off the node once, aggregated, with one
     * 24-byte header per pair of nodes (the node's sizes); SLOAV's ranks
     * forward theirs with an 8-byte size each */
    check(port[1] == (int64_t)(N - 1) * (L * L * B + NSEG_HEADER) && port[1] * 3 < port[0],
          "node port bytes: sloavx %lld, sloav %lld: want (N-1) (L^2 n + 24), < 1/3 of sloav",
          (long long)port[1], (long long)port[0]);
    printf("p=1024 64x16 8 B%s: node port bytes sloav %lld, sloavx %lld\n",
           agreed ? " (largest block agreed)" : "", (long long)port[0], (long long)port[1]);
    free(counts);
    free(cost);
    free(bl.leader_of);
}

/* SLOAVx's schedules dry, node by node (no messages run): P ranks as
 * nodes of L, 8-byte blocks, `rails` asked for.  Every rank's resumes run
 * on its node's metadata as the executor would; then each rank sends
 * exactly its rail's messages, none to a rank of its own node, and its
 * node's port carries each byte once. */
static void test_dry(int P, int L, int rails)
{
    enum { B = 8 };
    const int N = P / L, G = node_seg_rails(rails, L, N);
    struct blocked bl;
    blocked_layout(&bl, P, L);
    const struct algorithm *a = catalog_find(COLIBRI_ALLTOALLV, "sloavx");
    int64_t *cnt = malloc(2 * (size_t)P * sizeof *cnt), *dsp = cnt + P;
    for (int j = 0; j < P; j++)
        cnt[j] = B, dsp[j] = (int64_t)j * B;
    struct schedule *s = calloc((size_t)L, sizeof *s);
    int64_t port = 0, on_node = 0, bad = 0;
    for (int n = 0; n < N; n++) {
        void *shm = NULL;
        for (int pass = 0; pass < 3; pass++)
            for (int li = 0; li < L; li++) {
                const int r = bl.node_ranks[bl.node_start[n] + li];
                struct sched_params sp = {.rank = r, .size = P, .radix = rails, .scounts = cnt,
                                          .sdispls = dsp, .rcounts = cnt, .rdispls = dsp,
                                          .layout = &bl.l};
                if (pass == 0) {
                    sched_init(&s[li]);
                    check(a->build(&sp, &s[li]) == 0, "build rank %d", r);
                    if (!shm)
                        shm = malloc((size_t)s[li].shm_bytes);
                    continue;
                }
                int64_t sizes[NSEG_SIZES]; /* the scratch: the node's sizes */
                void *buf[BUF_NBUFS] = {NULL, NULL, sizes, NULL, shm};
                check(s[li].resume && s[li].resume(&s[li], buf) == 0, "resume rank %d", r);
                if (pass < 2)
                    continue;
                struct sched_cost c;
                sched_cost(&s[li], 1, &c);
                const int msgs = node_seg_rail_msgs(N, G, li);
                for (uint32_t i = 0; i < s[li].n_ops; i++)
                    if (s[li].ops[i].kind == SOP_SEND && bl.node_of[s[li].ops[i].peer] == n)
                        on_node++;
                bad += !check(!s[li].resume && c.rounds == (msgs > 0) && c.msgs_sent == msgs &&
                                  c.msgs_recvd == msgs &&
                                  c.bytes_sent == (int64_t)msgs * (L * L * B + NSEG_HEADER) &&
                                  c.shm_elems_copied == 2 * (int64_t)P * B + msgs * NSEG_HEADER,
                              "sloavx p=%d G=%d rank %d: %d rounds %lld msgs %lld bytes %lld "
                              "copied; want %d %d %lld %lld", P, G, r, c.rounds,
                              (long long)c.msgs_sent, (long long)c.bytes_sent,
                              (long long)c.shm_elems_copied, msgs > 0, msgs,
                              (long long)msgs * (L * L * B + NSEG_HEADER),
                              2 * (long long)P * B + msgs * NSEG_HEADER);
                if (n == 0)
                    port += c.bytes_sent;
                sched_free(&s[li]);
            }
        free(shm);
        if (bad > 8)
            break;
    }
    check(on_node == 0, "sloavx p=%d: %lld messages to ranks of the sender's node", P,
          (long long)on_node);
    check(port == (int64_t)(N - 1) * (L * L * B + NSEG_HEADER),
          "sloavx p=%d G=%d: node 0's port %lld bytes", P,
          G, (long long)port);
    /* the busiest rail: ceil((N-1)/G) messages each way */
    check(node_seg_rail_msgs(N, G, 0) == (N - 1 + G - 1) / G, "p=%d: busiest rail", P);
    printf("sloavx dry p=%d (%dx%d), %d rails: %d messages on the busiest, port %lld bytes\n", P,
           N, L, G, node_seg_rail_msgs(N, G, 0), (long long)port);
    free(s);
    free(cnt);
    free(bl.leader_of);
}

int main(void)
{
    test_shapes();
    test_1024(0);
    test_1024(8);
    test_dry(1024, 16, 0);
    test_dry(1024, 16, 4);
    test_dry(4096, 16, 0);
    test_dry(4096, 16, 1);
    return check_summary();
}
