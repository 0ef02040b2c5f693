/*
 * Node layout arithmetic: ranks grouped by the node they run on, from one
 * fact per rank (its node's leader, i.e. the lowest rank sharing its node).
 *
 * Nodes are numbered in the order of their leaders, so node 0 holds rank 0;
 * within a node ranks keep ascending order and the leader has local index 0.
 * Every rank computes the same layout from the same allgathered leaders.
 *
 * Pure functions, no MPI: the runtime calls node_layout_fill after an
 * allgather of leaders (exchanged) or after node_leaders_predict
 * (predicted from a parent layout); unit tests call them with made-up
 * placements.
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

/* Prediction: the leaders of a derived group's ranks from a parent layout
 * alone, with no communication.  A group (dup, split, MPI_Comm_create) of
 * `size` ranks whose rank i is rank parent_rank[i] of a parent communicator
 * with a known layout: rank i shares a node with rank j of the group exactly
 * when their parent ranks do, so rank i's leader is the lowest group rank
 * on the parent node of parent_rank[i].  first_on_node (parent_nodes
 * entries) is scratch.  Fills leader_of (size entries) for
 * node_layout_fill; returns 0, or -1 when a parent rank is out of range. */
static inline int node_leaders_predict(int size, const int *parent_rank, int parent_size,
                                       const int *parent_node_of, int parent_nodes,
                                       int *first_on_node, int *leader_of)
{
    for (int n = 0; n < parent_nodes; n++)
        first_on_node[n] = -1;
    for (int i = 0; i < size; i++) {
        int q = parent_rank[i];
        if (q < 0 || q >= parent_size)
            return -1;
        int n = parent_node_of[q];
        if (first_on_node[n] < 0)
            first_on_node[n] = i;
        leader_of[i] = first_on_node[n];
    }
    return 0;
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

#endif
