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
#include "../common/node_phases.h"

COST_FORMULA(reduce, node_split_rail,
             "2 s + (2 n + L n/R) B + (L-1) n/R g + T_flat(n/R over N, b x R); N nodes of L "
             "ranks, R rails, B and s on-node copy per byte and flag hand-off");

int reduce_node_split_rail_build(const struct sched_params *p, struct schedule *s)
{
    const bool root = p->rank == p->root;
    struct sched_params sub = node_sub_params(p, 0);
    sub.root = p->layout->node_of[p->root];
    return node_rail_schedule(p, s, p->in_place && root ? BUF_RECV : BUF_SEND, sub, root);
}

double reduce_node_split_rail_cost(const struct sched_params *p, const struct cost_params *m)
{
    return node_rail_cost(p, m, 2);
}
