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
#include "../common/node_phases.h"

COST_FORMULA(allreduce, node_split_rail,
             "3 s + (2 n + L n/R) B + (L-1) n/R g + T_flat(n/R over N, b x R); N nodes of L "
             "ranks, R rails (fewest ranks on a node), B and s on-node copy per byte and flag "
             "hand-off");

int allreduce_node_split_rail_build(const struct sched_params *p, struct schedule *s)
{
    return node_rail_schedule(p, s, p->in_place ? BUF_RECV : BUF_SEND, node_sub_params(p, 0),
                              true);
}

double allreduce_node_split_rail_cost(const struct sched_params *p, const struct cost_params *m)
{
    return node_rail_cost(p, m, 3);
}
