/*
 * Split-rail reduce-scatter (node-aware; reduce_scatter and
 * reduce_scatter_block): the node reduces through its shared segment, each
 * of R ranks per node owning a slice, and the slices are reduce-scattered
 * between nodes so that each node receives only its own ranks' blocks.
 *
 * The vector is handled in node order (V'): the blocks of node 0's ranks,
 * then node 1's, ... (the communicator's order when nodes hold consecutive
 * ranks), so that every node's blocks are one range of V' and a slice of
 * V' meets the nodes' ranges in node order, as a flat reduce-scatter over
 * N nodes wants them.  Per chunk of V' (patterns/node_reduce.h):
 *   1. every rank copies the parts of its input that fall in the chunk
 *      into its input area (block by block, since V' permutes blocks);
 *   2. rank i < R of each node combines slice i of the node's inputs in
 *      rank order into the output area, then runs the selector's flat
 *      reduce-scatter of that slice with rank i of every other node, node
 *      m receiving the part of the slice inside its range; it puts its
 *      part back in the output area;
 *   3. every rank copies the part of its block in the chunk out.
 * A program reducing in place over a layout that is not in node order has
 * its input staged in scratch first: step 3 would overwrite input that a
 * later chunk still has to publish.
 *
 * Non-commutative operations: rank order within a node, node order
 * between nodes (the catalog asks for nodes of consecutive ranks).
 *
 * Cost (COST_FORMULA below; n bytes of the whole vector): a copy in of n,
 * (L-1) n / R reduced, two hand-offs, a copy out of the rank's block, and
 * the flat reduce-scatter of n / R over N nodes, R rails sharing a port.
 */
#include <stdlib.h>

#include "../common/node_phases.h"

COST_FORMULA(reduce_scatter, node_split_rail,
             "2 s + (n + n/p + L n/R) B + (L-1) n/R g + T_flat(n/R over N, b x R); N nodes of L "
             "ranks, R rails, B and s on-node copy per byte and flag hand-off");
COST_FORMULA(reduce_scatter_block, node_split_rail,
             "2 s + (p + 1 + L p/R) n B + (L-1) p n/R g + T_flat(p n/R over N, b x R); n the "
             "block, N nodes of L ranks, R rails");

/* The overlap of [a, a + la) and [b, b + lb): its start (len in *len). */
static int64_t overlap(int64_t a, int64_t la, int64_t b, int64_t lb, int64_t *len)
{
    const int64_t lo = a > b ? a : b, hi = a + la < b + lb ? a + la : b + lb;
    *len = hi > lo ? hi - lo : 0;
    return lo;
}

struct rs_plan {
    struct node_view v;
    int64_t total;
    int64_t *disp;      /* p: block offsets in the communicator's order (V) */
    int64_t *pos;       /* p: block offsets in node order (V') */
    int64_t *node_at;   /* N + 1: each node's range in V' */
    int64_t *sub_counts;/* N: a slice's part in each node's range */
    int *rail;          /* N: the rank of this rail on each node */
};

static void plan_free(struct rs_plan *pl)
{
    free(pl->disp);
    free(pl->rail);
}

static int plan_init(struct rs_plan *pl, const struct sched_params *p)
{
    node_view_init(&pl->v, p);
    const int P = p->size, N = pl->v.N;
    pl->disp = malloc((2 * (size_t)P + 2 * (size_t)N + 1) * sizeof *pl->disp);
    pl->rail = node_rail(&pl->v, pl->v.li);
    if (!pl->disp || !pl->rail)
        return -1;
    pl->pos = pl->disp + P;
    pl->node_at = pl->pos + P;
    pl->sub_counts = pl->node_at + N + 1;
    int64_t off = 0;
    for (int q = 0; q < P; q++)
        pl->disp[q] = off, off += p->counts[q];
    pl->total = off;
    off = 0;
    for (int n = 0; n < N; n++) {
        pl->node_at[n] = off;
        for (int q = pl->v.l->node_start[n]; q < pl->v.l->node_start[n + 1]; q++) {
            const int r = pl->v.l->node_ranks[q];
            pl->pos[r] = off, off += p->counts[r];
        }
    }
    pl->node_at[N] = off;
    return 0;
}

int reduce_scatter_node_split_rail_build(const struct sched_params *p, struct schedule *s)
{
    struct rs_plan pl = {0};
    if (plan_init(&pl, p) != 0) {
        plan_free(&pl);
        return -1;
    }
    const struct node_view *v = &pl.v;
    node_slot_span(s, v, (double)pl.total * (double)p->elem_size);
    const int me = p->rank;
    const int64_t C = v->C, chunks = node_chunks(pl.total, C);
    int in = p->in_place ? BUF_RECV : BUF_SEND;
    /* the inner results go to TMP2, after a staged in-place input */
    int64_t inner_at = 0;
    if (p->in_place && !node_blocked(v->N, v->l->node_start, v->l->node_ranks)) {
        sched_copy(s, BUF_RECV, 0, BUF_TMP2, 0, pl.total);
        sched_need_tmp(s, BUF_TMP2, pl.total);
        in = BUF_TMP2;
        inner_at = pl.total;
    }
    int rc = 0;
    for (int64_t k = 0; k < chunks && rc == 0; k++) {
        const int u = (int)k;
        const int64_t A = node_chunk_at(k, C), m = node_chunk_len(pl.total, k, C);
        node_reuse_wait(s, v, u);
        for (int r = 0; r < p->size; r++) {
            int64_t len, x = overlap(A, m, pl.pos[r], p->counts[r], &len);
            sched_copy_slot(s, u, in, pl.disp[r] + (x - pl.pos[r]), BUF_SHM,
                            node_input(v->li, C) + (x - A), len);
        }
        node_set(s, v, u, NODE_READY);
        if (v->li < v->R) {
            const int64_t sa = node_slice_at(m, v->li, v->R), sl = node_slice_len(m, v->li, v->R);
            const int64_t out = node_output(v->L, C);
            node_reduce(s, v, u, sa, sl, BUF_SHM, out + sa);
            if (v->N > 1 && sl > 0) {
                int64_t mine = 0, mine_at = 0;
                for (int n = 0; n < v->N; n++) {
                    int64_t len, x = overlap(A + sa, sl, pl.node_at[n],
                                             pl.node_at[n + 1] - pl.node_at[n], &len);
                    pl.sub_counts[n] = len;
                    if (n == v->node)
                        mine = len, mine_at = x - A;
                }
                struct sched_params sub = node_sub_params(p, 0);
                sub.rank = v->node, sub.size = v->N, sub.counts = pl.sub_counts;
                sched_need_tmp(s, BUF_TMP2, inner_at + mine);
                rc = node_embed(s, p->inner, &sub, pl.rail, u, BUF_SHM, out + sa, BUF_TMP2,
                                inner_at);
                sched_copy_slot(s, u, BUF_TMP2, inner_at, BUF_SHM, out + mine_at, mine);
            }
            node_set(s, v, u, NODE_REDUCED);
        }
        node_wait(s, v, u, NODE_REDUCED, 0, v->R);
        int64_t len, x = overlap(A, m, pl.pos[me], p->counts[me], &len);
        sched_copy_slot(s, u, BUF_SHM, node_output(v->L, C) + (x - A), BUF_RECV, x - pl.pos[me],
                        len);
        node_set(s, v, u, NODE_DONE);
        sched_round(s);
    }
    plan_free(&pl);
    s->shm_epochs = chunks;
    return rc != 0 || s->oom ? -1 : 0;
}

double reduce_scatter_node_split_rail_cost(const struct sched_params *p,
                                           const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, L = node_max_ranks(N, l->node_start);
    const int R = node_fewest(N, l->node_start);
    int64_t total = 0, most = 0;
    for (int q = 0; q < p->size; q++) {
        total += p->counts[q];
        most = p->counts[q] > most ? p->counts[q] : most;
    }
    const double n = (double)total * (double)p->elem_size;
    /* the flat step over N nodes, each receiving its L blocks' share of
     * a slice: equal shares of n / R (an estimate for uneven counts) */
    int64_t *share = malloc((size_t)N * sizeof *share);
    double inner = 0;
    if (share) {
        for (int q = 0; q < N; q++)
            share[q] = (total / R + N - 1) / N;
        struct sched_params sub = node_sub_params(p, 0);
        sub.size = N, sub.counts = share;
        inner = cost_node_inner(p->inner_cost, &sub, m, R);
        free(share);
    }
    return cost_node_local(m, n, (double)most * (double)p->elem_size,
                           (double)(L - 1) * n / R, 2) + inner;
}
