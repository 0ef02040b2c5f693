/*
 * Node-aware exscan: the node-aware scan (coll/scan/node_leader.c, where
 * the method is described; coll/common/node_scan.c) with each rank's
 * prefix of the ranks below it on its node, P_{i-1}: the leader (local
 * rank L-1) combines the node's total into the slot's output area for the
 * flat exscan between the leaders, E (the nodes below) arrives in the
 * leader's own input area, local rank 0 of a node above the first copies
 * E as its result, and rank 0 writes nothing (MPI leaves its receive
 * buffer undefined).  Every node's ranks consecutive (`node-blocked`).
 *
 * Cost (COST_FORMULA below): the scan's, the leader combining its own
 * input with its prefix once more for the node's total.
 */
#include "../common/node_scan.h"

COST_FORMULA(exscan, node_leader,
             "s n/c + (L-1) n B + (L+1) n g + T_exscan(n over N); N nodes of at most L ranks, B a "
             "byte crossing cores, s a flag hand-off per chunk of c bytes; every node's ranks "
             "consecutive");

int exscan_node_leader_build(const struct sched_params *p, struct schedule *s)
{
    return node_scan_build(p, s, true);
}

double exscan_node_leader_cost(const struct sched_params *p, const struct cost_params *m)
{
    return node_scan_cost(p, m);
}
