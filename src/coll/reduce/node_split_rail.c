/*
 * Split-rail reduce (node-aware, long vectors): as the split-rail
 * allreduce (allreduce/node_split_rail.c), with a flat reduce of each
 * slice towards the root's node instead of an allreduce, and only the
 * root copying the result out.
 *
 * Per chunk (patterns/node_reduce.h): every rank copies its chunk into the
 * segment, but for the slice it reduces itself, which it reads where it
 * is; rank i < R of each node combines slice i of the node's inputs in
 * rank order into the output area and runs the flat reduce of that slice
 * with rank i of every other node, rooted at the root's node; the root
 * waits for the R slices of its node and copies them out.  On one node the
 * root, the only reader of the result, combines its own slice straight
 * into its receive buffer and copies out the others only (not in place).
 *
 * Open MPI 5 (issue #26, docs/results/ompi5-reduce/): its native reduce of
 * 2 ranks is a single copy between the processes, and this reduce was 2x
 * slower from 64 KiB on a quiet machine, 4-11x beside one busy process.
 * The second was the flag waits' sched_yield (executor.c, flag_wait: a
 * whole time slice per poll beside a busy process; they spin now unless
 * the node is oversubscribed), the first mostly the other core fetching
 * the segment's freshly written lines from this core's cache (copies into
 * the segment stream to memory now, executor.c) and the copies of operands
 * that no other rank reads (gone).
 *
 * Non-commutative operations: as the allreduce (the catalog says so).
 *
 * Memory traffic per vector byte on the root's path: as the allreduce's
 * (allreduce/node_split_rail.c), the copy out the root's alone; on one
 * node 3 - 1/R local, its own slice combined straight into its receive
 * buffer (-/+ in the formula: one node, several).
 *
 * Cost (COST_FORMULA below): the traffic, two hand-offs per chunk, and the
 * flat reduce of n / R over N nodes, R rails sharing each port.
 */
#include "../common/node_phases.h"

COST_FORMULA(reduce, node_split_rail,
             "2 s n/c + ((3 -/+ 1/R)/2 n + (L-1) n/R + 1.5 (R-1) n/R) b + (L-1) n/R g + "
             "T_flat(n/R over N, beta x R); N nodes of L ranks, R rails, b a byte crossing cores, "
             "s a flag hand-off per chunk of c bytes");

int reduce_node_split_rail_build(const struct sched_params *p, struct schedule *s)
{
    const bool root = p->rank == p->root;
    struct sched_params sub = node_sub_params(p, 0);
    sub.root = p->layout->node_of[p->root];
    return node_rail_schedule(p, s, p->in_place && root ? BUF_RECV : BUF_SEND, sub, root, root);
}

double reduce_node_split_rail_cost(const struct sched_params *p, const struct cost_params *m)
{
    return node_rail_cost(p, m, 2, true);
}
