/*
 * The layout of a node's shared segment in a node-aware alltoallv (SLOAVx):
 * where each block lives, derived by every rank of the node from the same
 * published counts, so they agree without exchanging offsets.
 *
 *   [0, meta)          metadata: for each local rank l (local index), its
 *                      send byte counts to every rank, then its receive
 *                      byte counts from every rank (2 p int64 per rank);
 *   [send_at, recv_at) every byte the node sends, ordered by destination
 *                      node, destination rank, local source: the blocks for
 *                      node m form one contiguous node-aggregated block;
 *   [recv_at, end)     every byte the node receives from other nodes,
 *                      ordered by source node, local destination, source
 *                      rank: how the source node's send area orders its
 *                      aggregated block for this node, so that block lands
 *                      in one piece.
 *
 * Pure functions, no MPI: tests/unit/test_patterns_node_segment.c checks
 * them.
 */
#ifndef COLIBRI_PATTERN_NODE_SEGMENT_H
#define COLIBRI_PATTERN_NODE_SEGMENT_H

#include <stdint.h>

/* Bytes of the metadata area of a node of node_size ranks out of size. */
static inline int64_t node_meta_bytes(int node_size, int size)
{
    return 2 * (int64_t)node_size * size * (int64_t)sizeof(int64_t);
}

/* A node's view: its published metadata and the communicator's layout
 * (patterns/nodes.h). */
struct node_seg {
    const int64_t *meta; /* nloc x 2p, as above */
    int p, nloc, node, n_nodes;
    const int *node_of, *node_start, *node_ranks;
};

/* Bytes local rank ls sends to rank d, and local rank ld receives from s. */
static inline int64_t node_seg_send(const struct node_seg *g, int ls, int d)
{
    return g->meta[(int64_t)ls * 2 * g->p + d];
}
static inline int64_t node_seg_recv(const struct node_seg *g, int ld, int s)
{
    return g->meta[(int64_t)ld * 2 * g->p + g->p + s];
}

/* Start of the send and receive areas and the segment's end. */
static inline void node_seg_areas(const struct node_seg *g, int64_t *send_at, int64_t *recv_at,
                                  int64_t *end)
{
    int64_t send_total = 0, recv_total = 0;
    for (int l = 0; l < g->nloc; l++)
        for (int r = 0; r < g->p; r++) {
            send_total += node_seg_send(g, l, r);
            recv_total += g->node_of[r] != g->node ? node_seg_recv(g, l, r) : 0;
        }
    *send_at = node_meta_bytes(g->nloc, g->p);
    *recv_at = *send_at + send_total;
    *end = *recv_at + recv_total;
}

/* The offsets of local rank li's (rank me's) blocks: send_off[d], its block
 * to rank d in the send area; local_off[l], the block from local rank l to
 * it there; recv_off[s], the block from rank s of another node to it in
 * the receive area (p, nloc and p entries).  Each is a prefix sum over the
 * node's blocks: one pass for all, O(p L), where looking blocks up one at a
 * time cost O(p^2 L) per call. */
static inline void node_seg_offsets(const struct node_seg *g, int li, int me, int64_t send_at,
                                    int64_t recv_at, int64_t *send_off, int64_t *local_off,
                                    int64_t *recv_off)
{
    int64_t off = send_at;
    for (int q = 0; q < g->p; q++) {
        const int d = g->node_ranks[q];
        for (int l = 0; l < g->nloc; l++) {
            if (l == li)
                send_off[d] = off;
            if (d == me)
                local_off[l] = off;
            off += node_seg_send(g, l, d);
        }
    }
    off = recv_at;
    for (int m = 0; m < g->n_nodes; m++) {
        if (m == g->node)
            continue;
        for (int l = 0; l < g->nloc; l++)
            for (int q = g->node_start[m]; q < g->node_start[m + 1]; q++) {
                if (l == li)
                    recv_off[g->node_ranks[q]] = off;
                off += node_seg_recv(g, l, g->node_ranks[q]);
            }
    }
}

/* The node-aggregated blocks: for each node m, the block this node sends
 * it (send_off[m], send_len[m]; empty for the node itself) and the block
 * it receives from m (recv_off[m], recv_len[m]) (n_nodes entries each). */
static inline void node_seg_blocks(const struct node_seg *g, int64_t send_at, int64_t recv_at,
                                   int64_t *send_off, int64_t *send_len, int64_t *recv_off,
                                   int64_t *recv_len)
{
    int64_t so = send_at, ro = recv_at;
    for (int m = 0; m < g->n_nodes; m++) {
        int64_t sl = 0, rl = 0;
        for (int q = g->node_start[m]; q < g->node_start[m + 1]; q++)
            for (int l = 0; l < g->nloc; l++) {
                sl += node_seg_send(g, l, g->node_ranks[q]);
                rl += m != g->node ? node_seg_recv(g, l, g->node_ranks[q]) : 0;
            }
        send_off[m] = so, send_len[m] = m != g->node ? sl : 0;
        recv_off[m] = ro, recv_len[m] = rl;
        so += sl, ro += rl;
    }
}

#endif
