/*
 * Split-rail reduce (node-aware, long vectors): as the split-rail
 * allreduce (allreduce/node_split_rail.c), with a flat reduce of each
 * slice towards the root's node instead of an allreduce, and only the
 * root copying the result out.
 *
 * Per chunk (patterns/node_reduce.h): every rank copies its chunk into the
 * segment; rank i < R of each node combines slice i of the node's inputs
 * in rank order into the output area and runs the flat reduce of that
 * slice with rank i of every other node, rooted at the root's node; the
 * root waits for the R slices of its node and copies them out.
 *
 * Non-commutative operations: as the allreduce (the catalog says so).
 *
 * Cost (COST_FORMULA below): a copy in, (L-1) n / R reduced, the root's
 * copy out, two hand-offs, and the flat reduce of n / R over N nodes, R
 * rails sharing each port.
 */
#include <stdlib.h>

#include "../common/node_phases.h"

COST_FORMULA(reduce, node_split_rail,
             "2 s + (2 n + L n/R) B + (L-1) n/R g + T_flat(n/R over N, b x R); N nodes of L "
             "ranks, R rails, B and s on-node copy per byte and flag hand-off");

int reduce_node_split_rail_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    const int root_node = v.l->node_of[p->root];
    const bool root = p->rank == p->root;
    const int in = p->in_place && root ? BUF_RECV : BUF_SEND;
    const int64_t chunks = node_chunks(p->count, v.C);
    int *rail = node_rail(&v, v.li);
    if (!rail)
        return -1;
    struct sched_params sub = node_sub_params(p, 0);
    sub.root = root_node;
    for (int64_t k = 0; k < chunks; k++) {
        const int u = (int)k;
        const int64_t at = node_chunk_at(k, v.C), m = node_chunk_len(p->count, k, v.C);
        if (node_rail_chunk(s, &v, p, u, in, at, m, sub, rail) != 0) {
            free(rail);
            return -1;
        }
        if (root) {
            node_wait(s, &v, u, NODE_REDUCED, 0, v.R);
            sched_copy_slot(s, u, BUF_SHM, node_output(v.L, v.C), BUF_RECV, at, m);
        }
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    free(rail);
    s->shm_epochs = chunks;
    return s->oom ? -1 : 0;
}

double reduce_node_split_rail_cost(const struct sched_params *p, const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, L = node_max_ranks(N, l->node_start);
    const int R = node_fewest(N, l->node_start);
    const double n = (double)p->count * (double)p->elem_size;
    struct sched_params sub = node_sub_params(p, (p->count + R - 1) / R);
    sub.size = N, sub.in_place = true;
    return cost_node_local(m, n, n, (double)(L - 1) * n / R, 2) +
           cost_node_inner(p->inner_cost, &sub, m, R);
}
