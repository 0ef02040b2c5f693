/*
 * Node layout arithmetic: ranks grouped by the node they run on, from one
 * fact per rank (its node's leader, i.e. the lowest rank sharing its node).
 *
 * Nodes are numbered in the order of their leaders, so node 0 holds rank 0;
 * within a node ranks keep ascending order and the leader has local index 0.
 * Every rank computes the same layout from the same allgathered leaders.
 *
 * Pure functions, no MPI: the runtime calls node_layout_fill after an
 * allgather, unit tests call it with made-up placements.
 */
#ifndef COLIBRI_PATTERN_NODES_H
#define COLIBRI_PATTERN_NODES_H

#include <stdint.h>

/* leader_of[r] (size entries, leader_of[r] <= r, leader_of[leader] == leader)
 * -> node_of, local_index (size entries each), node_start (n_nodes + 1) and
 * node_ranks (size).  Returns n_nodes, or -1 when leader_of is inconsistent. */
static inline int node_layout_fill(int size, const int *leader_of, int *node_of, int *local_index,
                                   int *node_start, int *node_ranks)
{
    int n_nodes = 0;
    /* A leader is met before every other rank of its node (it is the lowest):
     * number nodes on the way and count their ranks in node_start[n + 1]. */
    for (int r = 0; r < size; r++) {
        int l = leader_of[r];
        if (l < 0 || l > r || leader_of[l] != l)
            return -1;
        if (l == r) {
            node_of[r] = n_nodes++;
            node_start[n_nodes] = 0;
        } else {
            node_of[r] = node_of[l];
        }
        local_index[r] = node_start[node_of[r] + 1]++;
    }
    node_start[0] = 0;
    for (int n = 0; n < n_nodes; n++)
        node_start[n + 1] += node_start[n];
    for (int r = 0; r < size; r++)
        node_ranks[node_start[node_of[r]] + local_index[r]] = r;
    return n_nodes;
}

/* The most ranks on one node: node_start (n_nodes + 1 offsets) as
 * node_layout_fill computes it. */
static inline int node_max_ranks(int n_nodes, const int *node_start)
{
    int most = 0;
    for (int n = 0; n < n_nodes; n++)
        if (node_start[n + 1] - node_start[n] > most)
            most = node_start[n + 1] - node_start[n];
    return most;
}

/* Bytes of the per-call metadata a node-aware exchange keeps at the start
 * of the node's shared segment: every node rank's send and receive byte
 * counts to and from every rank (2 x node_size x size int64).  The runtime
 * allocates at least this much when it first binds the segment, because the
 * schedule writes it before its first round. */
static inline int64_t node_meta_bytes(int node_size, int size)
{
    return 2 * (int64_t)node_size * size * (int64_t)sizeof(int64_t);
}

#endif
