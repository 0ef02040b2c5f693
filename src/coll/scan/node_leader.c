/*
 * Node-aware scan: the ranks of a node combine their prefixes through the
 * node's shared segment, each node's last rank (its leader) takes the
 * node's total into a flat exscan between the N leaders, and every rank
 * of a node puts the lower nodes' prefix it returns on the left of its own.
 * Rank order needs every node to hold consecutive ranks (the catalog's
 * `node-blocked`; nodes are numbered in the order of their lowest ranks),
 * for any operation: a node's prefix covers exactly the ranks below a
 * rank on its node, the leaders' exscan exactly the nodes below it.
 *
 * Per chunk (patterns/node_reduce.h; coll/common/node_scan.c):
 *   1. every rank copies its chunk into its input area and says READY
 *      (the last rank of a node only says READY: no other rank reads its
 *      input, which it reads where it is)
 *      (after its node is done with the slot's use before);
 *   2. local rank i waits for READY of local ranks 0..i and combines their
 *      areas, in rank order, straight into its receive buffer: P_i;
 *   3. on several nodes, the leader (local rank L-1; it waits for all L)
 *      hands P_{L-1}, the node's total, to the flat exscan between the
 *      leaders (the selector's choice of colibri's exscans), which leaves
 *      E, the combination of the nodes below, in the slot's output area,
 *      and says REDUCED;
 *   4. on nodes above the first, every rank waits for its leader's REDUCED
 *      and combines E (op) P_i into its receive buffer; then DONE.
 * The exscan (coll/exscan/node_leader.c) is the same with P_{i-1}: the
 * leader combines the node's total into the output area, E arrives in its
 * own input area (which no other rank of an exscan reads), local rank 0
 * of a node above the first copies E, and rank 0 writes nothing.
 *
 * Messages: only the leaders' exscan between nodes (ceil(lg N) rounds with
 * recursive doubling), where a flat scan over all ranks takes ceil(lg p)
 * rounds, each a message through the node's port for every rank.
 *
 * Memory traffic per rank and vector byte (cost_node_traffic) on the
 * leader's path: its input read in place (an exscan's published and read
 * back), its result written and read back: 4 local at most; L - 1 inputs
 * streamed from the others, E read dirty; L + 1 combinations (an exscan's
 * leader one more, for the node's total).
 * Local rank i reads i + 1 areas: the node's ranks together L (L+1)/2
 * chunks, so it is the short-vector choice on large nodes.
 *
 * Cost (COST_FORMULA below).
 */
#include "../common/node_scan.h"

COST_FORMULA(scan, node_leader,
             "s n/c + (L-1) n B + (L+1) n g + T_exscan(n over N); N nodes of at most L ranks, B a "
             "byte crossing cores, s a flag hand-off per chunk of c bytes; every node's ranks "
             "consecutive");

int scan_node_leader_build(const struct sched_params *p, struct schedule *s)
{
    return node_scan_build(p, s, false);
}

double scan_node_leader_cost(const struct sched_params *p, const struct cost_params *m)
{
    return node_scan_cost(p, m);
}
