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
 *    1024 ranks as 64 nodes x 16, 8-byte blocks: every rank's rounds,
 *    messages and bytes exactly as the shape says, SLOAV (flat) and SLOAVx
 *    (the leader sends the node's traffic once, its other ranks only
 *    signal it), and the bytes through each node's port: SLOAVx's leader
 *    sends M (L^2 n + 8) where SLOAV's 16 ranks send 16 M (n + 8) between
 *    them: less than half at 8 B (0.45: the 8-byte sizes travel once per
 *    aggregated block, not once per block).  With the agreed largest block (automatic selection) and without.
 */
#include "loopback.h"
#include "coll/common/sloav_exchange.h"
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

/* 1024 ranks as 64 nodes x 16: the loopback runs and per-port bytes. */
static void test_1024(int64_t agreed)
{
    enum { P = 1024, L = 16, N = P / L, B = 8 };
    static int leader_of[P], node_of[P], local_index[P], node_start[N + 1], node_ranks[P];
    for (int r = 0; r < P; r++)
        leader_of[r] = r - r % L;
    struct node_layout l = {node_layout_fill(P, leader_of, node_of, local_index, node_start,
                                             node_ranks),
                            node_of, local_index, node_start, node_ranks};
    int64_t *counts = malloc((size_t)P * P * sizeof *counts);
    struct sched_cost *cost = calloc(P, sizeof *cost);
    for (int i = 0; i < P * P; i++)
        counts[i] = B;
    char err[256];
    int64_t port[2] = {0, 0}; /* node 0's port bytes: sloav, sloavx */
    for (int x = 0; x < 2; x++) {
        const struct algorithm *a = catalog_find(COLIBRI_ALLTOALLV, x ? "sloavx" : "sloav");
        int k = x ? 8 : 32, n = x ? N : P;
        /* The builders read the agreed largest block from the params'
         * count: the loopback runner passes `block`, which alltoallv ignores. */
        struct lb_case c = {.alg = a, .p = P, .radix = k, .counts = counts, .layout = &l,
                            .block = agreed};
        bool ran = check(lb_run(&c, cost, err, sizeof err) == 0, "%s p=1024: %s", a->name, err);
        if (!ran)
            continue;
        int64_t blk = x ? (int64_t)L * L * B : B;
        struct sx_shape sh;
        sloav_exchange_shape(n, k, blk, agreed ? (x ? (int64_t)L * L * agreed : agreed) : 0, &sh);
        for (int r = 0; r < P; r++) {
            const struct sched_cost *cr = &cost[r];
            bool leader = local_index[r] == 0;
            if (!x) {
                check(cr->rounds == sh.rounds && cr->msgs_sent == sh.msgs &&
                          cr->bytes_sent == sh.blocks * (B + 8),
                      "sloav rank %d: %d rounds %lld msgs %lld bytes, want %d %lld %lld", r,
                      cr->rounds, (long long)cr->msgs_sent, (long long)cr->bytes_sent, sh.rounds,
                      (long long)sh.msgs, (long long)(sh.blocks * (B + 8)));
            } else if (leader) {
                /* the exchange, plus 2 fan-outs of L - 1 signals; 4 node
                 * signal rounds besides the exchange's */
                check(cr->msgs_sent == sh.msgs + 2 * (L - 1) &&
                          cr->bytes_sent == sh.blocks * (blk + 8) && cr->rounds == sh.rounds + 4,
                      "sloavx leader %d: %d rounds %lld msgs %lld bytes, want %d %lld %lld", r,
                      cr->rounds, (long long)cr->msgs_sent, (long long)cr->bytes_sent,
                      sh.rounds + 4, (long long)(sh.msgs + 2 * (L - 1)),
                      (long long)(sh.blocks * (blk + 8)));
            } else {
                check(cr->msgs_sent == 2 && cr->bytes_sent == 0,
                      "sloavx rank %d sends %lld msgs %lld bytes, want 2 signals", r,
                      (long long)cr->msgs_sent, (long long)cr->bytes_sent);
            }
            /* every byte node 0's ranks send to another node crosses its
             * port: sloav's ranks send nearly all to other nodes (at most
             * what stays on the node is counted in excess) */
            if (node_of[r] == 0)
                port[x] += cr->bytes_sent;
        }
    }
    /* SLOAVx sends the node's bytes once, aggregated (L^2 n blocks); SLOAV's
     * 16 ranks each forward their own: for 8-byte blocks the 8-byte sizes
     * weigh as much as the data in SLOAV and nothing in SLOAVx */
    check(port[1] > 0 && port[1] * 2 < port[0],
          "node port bytes: sloavx %lld, sloav %lld: want sloavx < 1/2 of sloav",
          (long long)port[1], (long long)port[0]);
    printf("p=1024 64x16 8 B%s: node port bytes sloav %lld, sloavx %lld\n",
           agreed ? " (largest block agreed)" : "", (long long)port[0], (long long)port[1]);
    free(counts);
    free(cost);
}

int main(void)
{
    test_shapes();
    test_1024(0);
    test_1024(8);
    return check_summary();
}
