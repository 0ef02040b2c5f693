/*
 * SLOAVx alltoallv (after Xu et al., CCGrid 2013): node-aware exchange of
 * variable-size blocks.
 *
 * The ranks of a node pool their blocks in the node's shared segment, laid
 * out so that everything the node sends to another node is one
 * node-aggregated block (patterns/node_segment.h), and only such blocks
 * cross the network: one message per pair of nodes instead of one per pair
 * of ranks.  G ranks of each node (the rails) share that traffic: node
 * distance j = 1 .. N-1 belongs to rail (j-1) mod G, which sends its node's
 * block for node n+j straight out of the segment and receives node n-j's
 * straight into it, so a rail pays ceil((N-1)/G) message overheads where a
 * lone leader paid N-1 (or SLOAV's logarithmic exchange over nodes paid
 * S(N, k) and forwarded every aggregated block D/2 times through the
 * node's port).  Ranks of a node order their accesses to the segment with
 * the node's flags (SOP_FLAG_SET / SOP_FLAG_WAIT), not messages: no
 * per-message overhead inside a node.
 *
 *   1. Every rank writes its send and receive byte counts into the
 *      segment's metadata area and sets its COUNTS flag; once every rank's
 *      is set, every rank derives the same segment layout from them.
 *   2. Every rank copies its blocks into the send area, in the node-
 *      aggregated order: those for its own node and rail 0's distances,
 *      then rail 1's, and so on, raising READY to epoch + i once rail i's
 *      are in.  Rail i waits for every rank's READY to reach epoch + i,
 *      exchanges its distances' blocks and sets RECEIVED.  So a rail sends
 *      while a rank with much to copy (skewed sizes) still copies the next
 *      rail's blocks: at 1024 simulated ranks with rank 0's blocks 100x the
 *      others', 96.0 us where one READY for all took 158.9.
 *   3. Every rank copies the blocks from its own node's ranks out of the
 *      send area (after every READY) and, after every RECEIVED, its blocks
 *      from other nodes out of the receive area.
 * Each node-aggregated block starts with a 24-byte header, the sending
 * node's sizes (its largest block, the most and fewest bytes one of its
 * ranks exchanges: patterns/node_segment.h), which each rank derives from
 * the metadata.  Since every node hears from every other, every rank ends
 * the call knowing the sizes of the whole call, those an automatic
 * selection agrees on with an allreduce (sched_params.sizes_out): the next
 * automatic call on the communicator predicts its sizes from them and
 * needs no agreement of its own (api/alltoall.c).
 *
 * Successive calls.  A run takes G epochs (schedule.h; at least one) from
 * the node state's counter, the same sequence on every rank of the node (SLOAVx is
 * blocking-only, and calls on the communicators sharing a node state are
 * ordered alike); the flags live in a window of their own, which a growth
 * of the segment keeps, and only grow.  No barrier between calls is
 * needed: a rank writes its counts for call e only after it has seen every
 * READY of call e-1, set once its writer had read call e-1's metadata; and
 * it writes the data areas only after every COUNTS of call e, set once its
 * writer had finished call e-1.
 *
 * Erroneous programs (a sender's count differs from its receiver's): every
 * rail message is posted, and carries at least its header, so no rail
 * waits for a message that never comes.  A sender on the receiver's
 * node whose count is larger is seen in the metadata: the receiver reports
 * MPI_ERR_TRUNCATE.  A node's block longer than its receiving node
 * expects is MPI's truncation error on the rail that receives it, which
 * runs on to the end (runtime/executor.c), sets its RECEIVED flag as
 * always, and reports MPI_ERR_TRUNCATE: no rank of the node hangs.
 *
 * Cost (COST_FORMULA below; p ranks on N nodes of at most L and at least R
 * ranks, n the largest block, G = min(k, R, N-1) rails): one round of rail
 * messages, ceil((N-1)/G) each way on the busiest rail; the node's port
 * carries every byte the node sends once, (N-1) L^2 n, and a 24-byte header
 * per message; every rank copies its p blocks into the segment and its p
 * blocks out (2 p n at the shared memory's B per byte); 3 flag hand-offs s
 * (counts, blocks, received).  (The model does not credit the overlap of
 * a skewed rank's copies with the rails' sends.)
 * One node: the 2 hand-offs and the copies only.
 */
#include <stdlib.h>
#include <string.h>

#include "../../patterns/node_reduce.h"
#include "../../patterns/node_segment.h"
#include "../../patterns/nodes.h"
#include "../algorithm.h"

COST_FORMULA(alltoallv, sloavx,
             "a + 2 ceil((N-1)/G) o + (N-1) (L^2 n + 24) b + 2 p n B + 3 s over N nodes of L ranks (at "
             "least R), G = min(k, R, N-1) rails per node (k: COLIBRI_RADIX, else tuned with o); "
             "N = 1: 2 s + 2 p n B; B and s on-node copy per byte and flag hand-off");

struct sloavx {
    int p, me, li, nloc, node, n_nodes, rails;
    int64_t *sizes_out;                       /* sched_params.sizes_out */
    int *node_of, *node_start, *node_ranks;   /* the layout, copied */
    int64_t *sc, *sd, *rc, *rd;               /* this rank's counts, copied */
    int64_t *send_off, *recv_off, *local_off; /* segment offsets (node_seg_offsets) */
    int64_t *so, *sl, *ro, *rl;               /* node-aggregated blocks (node_seg_blocks) */
    int64_t *meta;                            /* nloc x 2p: the node's counts */
    int stage;
};

static void sloavx_free(void *state)
{
    struct sloavx *x = state;
    if (!x)
        return;
    free(x->node_of);
    free(x->sc);
    free(x->meta);
    free(x);
}

/* Copies out of the segment, consecutive ones that continue each other on
 * both sides merged (a rank's blocks from one node's ranks lie back to
 * back in the receive area, and usually in its receive buffer): fewer
 * operations, the same bytes. */
struct copy_run {
    int64_t src, dst, len;
};
static void copy_out(struct schedule *s, struct copy_run *c, int64_t src, int64_t dst, int64_t len)
{
    if (len > 0 && c->len > 0 && c->src + c->len == src && c->dst + c->len == dst) {
        c->len += len;
        return;
    }
    sched_copy(s, BUF_SHM, c->src, BUF_RECV, c->dst, c->len);
    *c = (struct copy_run){src, dst, len};
}

/* Waits until flag f of every local rank but this one (l < n) reaches
 * the run's epoch + u. */
static void wait_all(struct sloavx *x, struct schedule *s, enum node_seg_flag f, int n, int u)
{
    for (int l = 0; l < n; l++)
        if (l != x->li)
            sched_flag_wait(s, u, node_seg_flag(l, f), 0);
}

/* This rail's messages: for each of its distances j, the node's block for
 * node + j out of the send area, node - j's into the receive area. */
static void rail_exchange(struct sloavx *x, struct schedule *s)
{
    const int N = x->n_nodes, G = x->rails;
    wait_all(x, s, NSEG_READY, x->nloc, x->li); /* every rank's blocks for this rail */
    /* each block's header: the node's sizes, from the scratch */
    for (int t = 0; t < node_seg_rail_msgs(N, G, x->li); t++) {
        const int to = node_seg_to(x->node, node_seg_rail_dist(G, x->li, t), N);
        sched_copy(s, BUF_TMP, 0, BUF_SHM, x->so[to], NSEG_HEADER);
    }
    sched_round(s); /* after those READY */
    for (int t = 0; t < node_seg_rail_msgs(N, G, x->li); t++) {
        const int j = node_seg_rail_dist(G, x->li, t);
        const int to = node_seg_to(x->node, j, N), from = node_seg_from(x->node, j, N);
        const int peer_to = x->node_ranks[x->node_start[to] + x->li];
        const int peer_from = x->node_ranks[x->node_start[from] + x->li];
        sched_recv(s, peer_from, BUF_SHM, x->ro[from], x->rl[from]);
        sched_send(s, peer_to, BUF_SHM, x->so[to], x->sl[to]);
    }
    sched_flag_set(s, 0, node_seg_flag(x->li, NSEG_RECEIVED));
}

/* This rank's blocks for the ranks of node m into the send area. */
static void copy_in(struct sloavx *x, struct schedule *s, int m)
{
    for (int q = x->node_start[m]; q < x->node_start[m + 1]; q++) {
        const int d = x->node_ranks[q];
        sched_copy(s, BUF_SEND, x->sd[d], BUF_SHM, x->send_off[d], x->sc[d]);
    }
}

static int sloavx_resume(struct schedule *s, void *const buf[]);

/* Stage 1: every rank's counts are in; lay out the segment and append the
 * rest of the schedule.  Returns -1 when out of memory. */
static int exchange(struct sloavx *x, struct schedule *s, void *const buf[])
{
    const int p = x->p;
    memcpy(x->meta, (char *)buf[BUF_SHM], (size_t)x->nloc * 2 * (size_t)p * sizeof *x->meta);
    const struct node_seg g = {x->meta, p, x->nloc, x->node, x->n_nodes,
                               x->node_of, x->node_start, x->node_ranks};
    int64_t send_at, recv_at;
    /* The same on every rank of the node: all read the same metadata. */
    node_seg_areas(&g, &send_at, &recv_at, &s->shm_bytes);
    node_seg_offsets(&g, x->li, x->me, send_at, recv_at, x->send_off, x->local_off, x->recv_off);
    node_seg_blocks(&g, send_at, recv_at, x->so, x->sl, x->ro, x->rl);
    /* the headers the rails send; stage 2 starts from them too */
    node_seg_sizes(&g, (int64_t *)buf[BUF_TMP]);

    /* Blocks into the send area rail by rail, READY reaching epoch + i
     * once rail i's are in: the node's own first, with rail 0's; a rail
     * sends once every rank's blocks for it are in, while a rank with much
     * to copy still copies the next rail's. */
    copy_in(x, s, x->node);
    for (int i = 0; i < (x->rails > 0 ? x->rails : 1); i++) {
        for (int t = 0; t < node_seg_rail_msgs(x->n_nodes, x->rails, i); t++)
            copy_in(x, s, node_seg_to(x->node, node_seg_rail_dist(x->rails, i, t), x->n_nodes));
        sched_flag_set(s, i, node_seg_flag(x->li, NSEG_READY));
    }
    if (x->li < x->rails)
        rail_exchange(x, s);
    /* From this node's ranks (every READY seen: a rail's wait for its own
     * saw them), then from the others' (every RECEIVED). */
    if (x->li >= x->rails)
        wait_all(x, s, NSEG_READY, x->nloc, 0);
    for (int q = x->node_start[x->node]; q < x->node_start[x->node + 1]; q++) {
        const int src = x->node_ranks[q];
        if (x->meta[(int64_t)(q - x->node_start[x->node]) * 2 * p + x->me] > x->rc[src])
            s->truncated = true; /* the sender's count is larger: erroneous */
        sched_copy(s, BUF_SHM, x->local_off[q - x->node_start[x->node]], BUF_RECV, x->rd[src],
                   x->rc[src]);
    }
    wait_all(x, s, NSEG_RECEIVED, x->rails, 0);
    struct copy_run run = {0, 0, 0};
    for (int q = 0; q < p; q++) {
        const int r = x->node_ranks[q]; /* node by node: the receive area's order */
        if (x->node_of[r] != x->node)
            copy_out(s, &run, x->recv_off[r], x->rd[r], x->rc[r]);
    }
    copy_out(s, &run, 0, 0, 0);
    sched_round(s);
    if (x->sizes_out) { /* every header is in (every RECEIVED seen) */
        x->stage = 2;
        s->resume = sloavx_resume;
    }
    return 0;
}

/* Stage 2: the call's sizes, this node's (still in the scratch) and every
 * other node's from the headers of what it received: the same on every
 * rank. */
static void sizes_of_call(struct sloavx *x, void *const buf[])
{
    int64_t v[NSEG_SIZES], w[NSEG_SIZES];
    memcpy(v, buf[BUF_TMP], sizeof v);
    for (int m = 0; m < x->n_nodes; m++)
        if (m != x->node) {
            memcpy(w, (const char *)buf[BUF_SHM] + x->ro[m], sizeof w);
            node_seg_sizes_max(v, w);
        }
    memcpy(x->sizes_out, v, sizeof v);
}

static int sloavx_resume(struct schedule *s, void *const buf[])
{
    struct sloavx *x = s->state;
    const int64_t p = x->p;
    if (x->stage == 2) {
        s->resume = NULL;
        sizes_of_call(x, buf);
        return 0;
    }
    if (x->stage == 0) {
        /* Counts into this rank's metadata area, then every rank's. */
        memcpy((int64_t *)buf[BUF_SHM] + x->li * 2 * p, x->sc, (size_t)p * sizeof *x->sc);
        memcpy((int64_t *)buf[BUF_SHM] + x->li * 2 * p + p, x->rc, (size_t)p * sizeof *x->rc);
        sched_flag_set(s, 0, node_seg_flag(x->li, NSEG_COUNTS));
        wait_all(x, s, NSEG_COUNTS, x->nloc, 0);
        sched_round(s);
        x->stage = 1;
        return 0;
    }
    s->resume = NULL;
    return exchange(x, s, buf);
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
    x->sc = malloc((7 * (size_t)P + 4 * (size_t)l->n_nodes) * sizeof *x->sc);
    if (!x->node_of || !x->sc)
        return -1;
    x->p = P, x->me = p->rank;
    x->n_nodes = l->n_nodes;
    x->node_start = x->node_of + P;
    x->node_ranks = x->node_start + l->n_nodes + 1;
    memcpy(x->node_of, l->node_of, (size_t)P * sizeof *x->node_of);
    memcpy(x->node_start, l->node_start, ((size_t)l->n_nodes + 1) * sizeof *x->node_start);
    memcpy(x->node_ranks, l->node_ranks, (size_t)P * sizeof *x->node_ranks);
    x->node = l->node_of[p->rank];
    x->li = l->local_index[p->rank];
    x->nloc = l->node_start[x->node + 1] - l->node_start[x->node];
    x->rails = node_seg_rails(p->radix, node_fewest(l->n_nodes, l->node_start), l->n_nodes);
    x->sd = x->sc + P, x->rc = x->sc + 2 * P, x->rd = x->sc + 3 * P;
    x->send_off = x->sc + 4 * P, x->recv_off = x->sc + 5 * P, x->local_off = x->sc + 6 * P;
    x->so = x->sc + 7 * P, x->sl = x->so + l->n_nodes, x->ro = x->sl + l->n_nodes;
    x->rl = x->ro + l->n_nodes;
    memcpy(x->sc, p->scounts, (size_t)P * sizeof *x->sc);
    memcpy(x->sd, p->sdispls, (size_t)P * sizeof *x->sd);
    memcpy(x->rc, p->rcounts, (size_t)P * sizeof *x->rc);
    memcpy(x->rd, p->rdispls, (size_t)P * sizeof *x->rd);
    x->meta = malloc((size_t)x->nloc * 2 * (size_t)P * sizeof *x->meta);
    if (!x->meta)
        return -1;
    /* The metadata area is written by the first resume: the runtime grows
     * the segment to shm_bytes before it. */
    s->shm_bytes = node_meta_bytes(x->nloc, P);
    s->shm_epochs = x->rails > 1 ? x->rails : 1; /* READY counts the rails up */
    sched_need_tmp(s, BUF_TMP, NSEG_HEADER);
    x->sizes_out = p->sizes_out;
    s->resume = sloavx_resume;
    return 0;
}

double alltoallv_sloavx_cost(const struct sched_params *p, const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const int P = p->size, N = l ? l->n_nodes : P;
    /* n: a typical block; the busiest rank's excess crosses the port and
     * the segment once more (cost_excess_volume: skewed sizes) */
    const double L = l ? node_max_ranks(N, l->node_start) : 1, n = cost_typical_block(p);
    const double excess = cost_excess_volume(p);
    const double copies = (2.0 * P * n + 2 * excess) * m->shm_beta;
    if (N == 1)
        return 2 * m->shm_alpha + copies;
    const int G = node_seg_rails(p->radix, l ? node_fewest(N, l->node_start) : 1, N);
    const double msgs = (double)((N - 1 + G - 1) / G);
    return m->alpha + 2 * msgs * m->o + ((N - 1) * (L * L * n + NSEG_HEADER) + excess) * m->beta +
           copies + 3 * m->shm_alpha;
}
