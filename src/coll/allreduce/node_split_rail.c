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
 * A rail's own slice of its input is read where it is, never copied into
 * the segment (only it reads it).
 *
 * Memory traffic per rank and vector byte (cost_node_traffic, algorithm.h):
 * 3 + 1/R local (publish of all but its slice: read and write; its slice
 * read in place; the result written), (L-1)/R streamed (the others'
 * slices), (R-1)/R dirty (the other rails' reduced slices), (L-1)/R
 * reduced.
 *
 * Cost (COST_FORMULA below; N nodes of L ranks, R rails, n bytes, b the
 * segment's cost per byte that crosses to another core, s a flag hand-off
 * per chunk of c bytes): on the node the traffic above, three hand-offs
 * per chunk; between nodes, the
 * flat allreduce of n / R bytes over N ranks, its bandwidth term paid R
 * times (R rails share a port).
 */
#include "../common/node_phases.h"

COST_FORMULA(allreduce, node_split_rail,
             "3 s n/c + ((3 + 1/R)/2 n + (L-1) n/R + 1.5 (R-1) n/R) b + (L-1) n/R g + "
             "T_flat(n/R over N, beta x R); N nodes of L ranks, R rails (fewest ranks on a node), "
             "b a byte crossing cores, s a flag hand-off per chunk of c bytes");

int allreduce_node_split_rail_build(const struct sched_params *p, struct schedule *s)
{
    return node_rail_schedule(p, s, p->in_place ? BUF_RECV : BUF_SEND, node_sub_params(p, 0),
                              true, false);
}

double allreduce_node_split_rail_cost(const struct sched_params *p, const struct cost_params *m)
{
    return node_rail_cost(p, m, 3, false);
}
