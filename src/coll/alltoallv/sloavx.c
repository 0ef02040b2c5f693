/*
 * SLOAVx alltoallv (Xu et al., CCGrid 2013): node-aware logarithmic
 * exchange of variable-size blocks.
 *
 * The ranks of a node pool their data in the node's shared segment; only
 * the node leaders (lowest rank of each node) communicate between nodes,
 * with the SLOAV exchange of common/sloav_exchange.h whose
 * blocks are node-aggregated: one block per pair of nodes instead of one per
 * pair of ranks, so the exchange costs ceil(log_k N) steps over N nodes,
 * not ceil(log_k p) over p ranks, and no byte crosses the network twice
 * because of the node's other ranks.
 *
 *   1. Every rank writes its send and receive byte counts into the segment's
 *      metadata area; a node barrier (signals through the leader) makes all
 *      of them visible, and every rank derives the same segment layout.
 *   2. Every rank copies its send blocks into the segment's send area, laid
 *      out by destination node, then destination rank, then local source
 *      rank: the block for node m is one contiguous node-aggregated block.
 *      The ranks then tell the leader their blocks are in (a fan-in); blocks
 *      between ranks of the same node are copied straight to their receive
 *      buffers once the leader's last signal says every block is in.
 *   3. The leader exchanges the aggregated blocks with the other leaders;
 *      the block from node n lands in the segment's receive area, laid out
 *      by local destination then source rank, and a signal from the leader
 *      lets each rank copy its blocks out.
 *
 * The segment holds the metadata (2 L p int64, L ranks on the node), then
 * every byte the node sends, then every byte it receives from other nodes.
 * Nothing in the metadata area is written by a call before every rank of
 * the node has left the previous call's use of it (the first barrier), and
 * the data areas come after it, so successive calls need no extra barrier.
 *
 * Cost (COST_FORMULA below; p ranks on N nodes of L ranks, n the largest
 * block, k the radix over nodes, S and M as in sloav.c but over N
 * participants, the blocks a leader forwards being aggregated, L^2 n bytes
 * each): 4 intra-node signal rounds (a barrier on the counts, the ranks
 * telling the leader their blocks are in, the leader's delivery; none when
 * L = 1), each costing the leader L-1 messages, then the leaders' exchange.
 * Local copies at the memory's cost per byte m (1 / COLIBRI_SHM_BANDWIDTH,
 * what SMPI charges for them): every rank copies its p blocks into the
 * segment and out of it (2 p n); a leader also copies every aggregated
 * block out of the segment into its exchange's scratch and back (2 (N-1)
 * L^2 n; its forwarding between scratch buffers is not counted, as in
 * sloav).
 */
#include <stdlib.h>
#include <string.h>

#include "../../patterns/node_segment.h"
#include "../../patterns/nodes.h"
#include "../algorithm.h"
#include "../common/sloav_exchange.h"
#include "../../patterns/radix.h"

COST_FORMULA(alltoallv, sloavx,
             "(r + D + X) a + (2 (S + Y) + 4 (L-1)) o + M (L^2 n + 8) b + (2 p n + 2 (N-1) L^2 n) m "
             "over N nodes of L ranks, r = 4 node signal rounds (0 when L = 1), D = ceil(log_k "
             "N) (N = 1: r a + 2 p n m); S, M, X, Y as sloav with N for p (leaders' exchange of "
             "node-aggregated blocks); m = 1 / COLIBRI_SHM_BANDWIDTH per byte copied");

struct sloavx {
    int p, me, li, nloc, node, n_nodes, leader, radix;
    int *node_of, *node_start, *node_ranks;   /* the layout, copied */
    int64_t *sc, *sd, *rc, *rd;               /* this rank's counts, copied */
    int64_t *send_off, *recv_off, *local_off; /* segment offsets (node_seg_offsets) */
    int64_t *meta;                            /* nloc x 2p: the node's counts */
    int64_t send_at, recv_at;                 /* segment offsets of the data areas */
    int64_t max_block;                        /* agreed largest block (0: unknown) */
    int stage;
    bool bruck;                               /* leader of a multi-node exchange */
    struct sloav_exchange vb;
};

static void sloavx_free(void *state)
{
    struct sloavx *x = state;
    if (!x)
        return;
    sloav_exchange_free(&x->vb);
    free(x->node_of);
    free(x->sc);
    free(x->meta);
    free(x);
}

/* The node's segment as every rank of it sees it (patterns/node_segment.h). */
static struct node_seg seg_of(const struct sloavx *x)
{
    return (struct node_seg){x->meta, x->p, x->nloc, x->node, x->n_nodes,
                             x->node_of, x->node_start, x->node_ranks};
}

/* Every non-leader tells the leader, the leader waits for all: one round. */
static void to_leader(struct sloavx *x, struct schedule *s)
{
    if (x->li != 0)
        sched_signal(s, x->leader);
    for (int i = 1; x->li == 0 && i < x->nloc; i++)
        sched_await(s, x->node_ranks[x->node_start[x->node] + i]);
}

/* The leader tells every non-leader (ops only; the caller closes the round). */
static void from_leader(struct sloavx *x, struct schedule *s)
{
    if (x->li != 0)
        sched_await(s, x->leader);
    for (int i = 1; x->li == 0 && i < x->nloc; i++)
        sched_signal(s, x->node_ranks[x->node_start[x->node] + i]);
}

/* Copies the blocks from ranks of this node straight out of the segment. */
static void node_internal(struct sloavx *x, struct schedule *s)
{
    for (int q = x->node_start[x->node]; q < x->node_start[x->node + 1]; q++) {
        int src = x->node_ranks[q];
        sched_copy(s, BUF_SHM, x->local_off[q - x->node_start[x->node]], BUF_RECV, x->rd[src],
                   x->rc[src]);
    }
}

/* Stage 1: the node's counts are published; lay out the segment, publish
 * this rank's blocks, copy the node-internal ones.  Returns -1 when out of
 * memory. */
static int publish(struct sloavx *x, struct schedule *s, void *const buf[])
{
    int p = x->p;
    memcpy(x->meta, (char *)buf[BUF_SHM], (size_t)x->nloc * 2 * (size_t)p * sizeof *x->meta);
    const struct node_seg seg = seg_of(x);
    /* The same on every rank of the node: all read the same metadata. */
    node_seg_areas(&seg, &x->send_at, &x->recv_at, &s->shm_bytes);
    node_seg_offsets(&seg, x->li, x->me, x->send_at, x->recv_at, x->send_off, x->local_off,
                     x->recv_off);

    for (int d = 0; d < p; d++)
        sched_copy(s, BUF_SEND, x->sd[d], BUF_SHM, x->send_off[d], x->sc[d]);
    sched_round(s);
    to_leader(x, s);
    sched_round(s);
    /* The leader has seen every rank's blocks land; the others learn it
     * from the leader's last signal (deliver), which saves a fan-out here.
     * Alone on its node a rank has no later signal: it waits here. */
    if (x->n_nodes == 1)
        from_leader(x, s);
    if (x->n_nodes == 1 || x->li == 0)
        node_internal(x, s);
    if (!x->bruck)
        return 0;

    /* The leader's exchange: node m's aggregated block is the send area's
     * span for node m; node n's lands in the receive area's span for n. */
    int N = x->n_nodes;
    struct sx_block *blk = malloc(2 * (size_t)N * sizeof *blk);
    int *leaders = malloc((size_t)N * sizeof *leaders);
    int64_t *span = malloc(4 * (size_t)N * sizeof *span);
    if (!blk || !leaders || !span) {
        free(blk);
        free(leaders);
        free(span);
        return -1;
    }
    node_seg_blocks(&seg, x->send_at, x->recv_at, span, span + N, span + 2 * N, span + 3 * N);
    for (int m = 0; m < N; m++) {
        leaders[m] = x->node_ranks[x->node_start[m]];
        blk[m] = (struct sx_block){BUF_SHM, span[m], span[N + m]};
        blk[N + m] = (struct sx_block){BUF_SHM, span[2 * N + m], span[3 * N + m]};
    }
    free(span);
    /* An aggregated block is at most L^2 of the largest block (agreed by
     * automatic selection, else 0: unknown). */
    int64_t L = node_max_ranks(N, x->node_start);
    struct sloav_group g = {N, x->node, leaders, x->radix, blk, blk + N, false, x->max_block * L * L};
    int rc = sloav_exchange_init(&x->vb, &g);
    free(blk);
    free(leaders);
    if (rc != 0)
        return -1;
    /* Round B of the exchange: packing the outgoing slots, in the round
     * that publishes the node's blocks (they are all in the segment). */
    sloav_exchange_start(&x->vb, s);
    return 0;
}

/* The last round: blocks from other nodes are in the receive area. */
static void deliver(struct sloavx *x, struct schedule *s)
{
    from_leader(x, s);
    if (x->li != 0)
        node_internal(x, s);
    for (int r = 0; r < x->p; r++)
        if (x->node_of[r] != x->node)
            sched_copy(s, BUF_SHM, x->recv_off[r], BUF_RECV, x->rd[r], x->rc[r]);
    sched_round(s);
}

static int sloavx_resume(struct schedule *s, void *const buf[])
{
    struct sloavx *x = s->state;
    int64_t p = x->p;
    if (x->stage == 0) {
        /* Counts into this rank's metadata slot, then a node barrier. */
        memcpy((int64_t *)buf[BUF_SHM] + x->li * 2 * p, x->sc, (size_t)p * sizeof *x->sc);
        memcpy((int64_t *)buf[BUF_SHM] + x->li * 2 * p + p, x->rc, (size_t)p * sizeof *x->rc);
        to_leader(x, s);
        sched_round(s);
        from_leader(x, s);
        sched_round(s);
        x->stage = 1;
        if (x->nloc > 1)
            return 0;
        /* Alone on the node: nothing to wait for, go on. */
    }
    if (x->stage == 1) {
        if (publish(x, s, buf) != 0)
            return -1;
        if (!x->bruck)
            sched_round(s);
        x->stage = 2;
        if (x->n_nodes == 1) {
            s->resume = NULL;
        } else if (!x->bruck) {
            deliver(x, s);
            s->resume = NULL;
        }
        return 0;
    }
    if (sloav_exchange_round(&x->vb, s, buf)) {
        deliver(x, s);
        s->resume = NULL;
    }
    return 0;
}

int alltoallv_sloavx_build(const struct sched_params *p, struct schedule *s)
{
    const struct node_layout *l = p->layout;
    int P = p->size;
    struct sloavx *x = calloc(1, sizeof *x);
    if (!x)
        return -1;
    s->state = x;
    s->free_state = sloavx_free;
    x->node_of = malloc((3 * (size_t)P + 1) * sizeof *x->node_of);
    x->sc = malloc(7 * (size_t)P * sizeof *x->sc);
    if (!x->node_of || !x->sc)
        return -1;
    x->p = P, x->me = p->rank, x->radix = p->radix, x->max_block = p->count;
    x->n_nodes = l->n_nodes;
    x->node_start = x->node_of + P;
    x->node_ranks = x->node_start + l->n_nodes + 1;
    memcpy(x->node_of, l->node_of, (size_t)P * sizeof *x->node_of);
    memcpy(x->node_start, l->node_start, ((size_t)l->n_nodes + 1) * sizeof *x->node_start);
    memcpy(x->node_ranks, l->node_ranks, (size_t)P * sizeof *x->node_ranks);
    x->node = l->node_of[p->rank];
    x->li = l->local_index[p->rank];
    x->nloc = l->node_start[x->node + 1] - l->node_start[x->node];
    x->leader = l->node_ranks[l->node_start[x->node]];
    x->bruck = x->li == 0 && x->n_nodes > 1;
    x->sd = x->sc + P, x->rc = x->sc + 2 * P, x->rd = x->sc + 3 * P;
    x->send_off = x->sc + 4 * P, x->recv_off = x->sc + 5 * P, x->local_off = x->sc + 6 * P;
    memcpy(x->sc, p->scounts, (size_t)P * sizeof *x->sc);
    memcpy(x->sd, p->sdispls, (size_t)P * sizeof *x->sd);
    memcpy(x->rc, p->rcounts, (size_t)P * sizeof *x->rc);
    memcpy(x->rd, p->rdispls, (size_t)P * sizeof *x->rd);
    x->meta = malloc((size_t)x->nloc * 2 * (size_t)P * sizeof *x->meta);
    if (!x->meta)
        return -1;
    /* The metadata area is written before the first round: the runtime
     * grows the segment to shm_bytes before the first resume. */
    s->shm_bytes = node_meta_bytes(x->nloc, P);
    s->resume = sloavx_resume;
    return 0;
}

double alltoallv_sloavx_cost(const struct sched_params *p, const struct cost_params *m)
{
    int P = p->size, N = p->layout ? p->layout->n_nodes : P;
    double L = (double)P / N, signals = L > 1 ? 4 : 0;
    const double copies = 2.0 * P * (double)p->count * m->shm_beta;
    if (N == 1)
        return signals * m->alpha + copies;
    /* Aggregated blocks: L x L blocks of p->count (the largest) bytes. */
    int64_t block = (int64_t)(L * L * (double)p->count);
    struct sx_shape sh;
    sloav_exchange_shape(N, p->radix, block, block, &sh);
    /* The leader's exchange, and 2 signals to and 1 from each of its
     * L - 1 ranks. */
    return (signals + sh.rounds) * m->alpha + (2.0 * (double)sh.msgs + 4 * (L - 1)) * m->o +
           (double)sh.blocks * (double)(block + 8) * m->beta + copies +
           2.0 * (N - 1) * (double)block * m->shm_beta;
}
