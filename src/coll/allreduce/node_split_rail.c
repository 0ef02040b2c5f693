/*
 * Split-rail allreduce (node-aware, long vectors; UCC's split_rail, the
 * multi-leader allreduce of MVAPICH2): the node reduces through its shared
 * segment, each of R ranks per node owning a slice, and only those slices
 * cross the network, R ranks per node at once.
 *
 * Per chunk of the vector (patterns/node_reduce.h; one chunk up to C
 * elements):
 *   1. every rank copies its chunk into its input area of the segment;
 *   2. rank i < R of each node (R: the fewest ranks on any node) reduces
 *      slice i of all the node's inputs, in rank order, into the output
 *      area, and runs the selector's flat allreduce of that slice with
 *      rank i of every other node, in place in the segment;
 *   3. every rank copies the whole reduced chunk out.
 * Each byte crosses a node's port R times less than in a flat algorithm
 * whose L ranks per node all send at once, and the flat step runs over N
 * nodes, not p ranks.
 *
 * Non-commutative operations: the node's inputs are combined in rank
 * order, then the nodes in node order, which is rank order only when every
 * node holds consecutive ranks (the catalog says so).
 *
 * Cost (COST_FORMULA below; N nodes of L ranks, R rails, n bytes, B the
 * segment's copy cost per byte, s a flag hand-off): on the node, a copy in
 * and out of n, (L - 1) n / R reduced, three hand-offs; between nodes, the
 * flat allreduce of n / R bytes over N ranks, its bandwidth term paid R
 * times (R rails share a port).
 */
#include <stdlib.h>

#include "../common/node_phases.h"

COST_FORMULA(allreduce, node_split_rail,
             "3 s + (2 n + L n/R) B + (L-1) n/R g + T_flat(n/R over N, b x R); N nodes of L "
             "ranks, R rails (fewest ranks on a node), B and s on-node copy per byte and flag "
             "hand-off");

int allreduce_node_split_rail_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    const int in = p->in_place ? BUF_RECV : BUF_SEND;
    const int64_t chunks = node_chunks(p->count, v.C);
    int *rail = node_rail(&v, v.li);
    if (!rail)
        return -1;
    const struct sched_params sub = node_sub_params(p, 0);
    for (int64_t k = 0; k < chunks; k++) {
        const int u = (int)k;
        const int64_t at = node_chunk_at(k, v.C), m = node_chunk_len(p->count, k, v.C);
        if (node_rail_chunk(s, &v, p, u, in, at, m, sub, rail) != 0) {
            free(rail);
            return -1;
        }
        node_wait(s, &v, u, NODE_REDUCED, 0, v.R);
        sched_copy_slot(s, u, BUF_SHM, node_output(v.L, v.C), BUF_RECV, at, m);
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    free(rail);
    s->shm_epochs = chunks;
    return s->oom ? -1 : 0;
}

double allreduce_node_split_rail_cost(const struct sched_params *p, const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, L = node_max_ranks(N, l->node_start);
    const int R = node_fewest(N, l->node_start);
    const double n = (double)p->count * (double)p->elem_size;
    struct sched_params sub = node_sub_params(p, (p->count + R - 1) / R);
    sub.size = N, sub.in_place = true;
    return cost_node_local(m, n, n, (double)(L - 1) * n / R, 3) +
           cost_node_inner(p->inner_cost, &sub, m, R);
}
