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
 * Every aggregated block for or from another node starts with a header of
 * NSEG_HEADER bytes: the sending node's sizes (node_seg_sizes), so that
 * after one exchange every rank knows every node's, and so the sizes of
 * the whole call (the automatic selection's agreement, for nothing).  In
 * front, so that it arrives whole even when an erroneous program's block
 * is cut short or truncated.
 *
 * The node's flags (a window of their own, runtime/state/node.c, that
 * keeps them across a growth of the segment): per local rank l, three
 * counters (node_seg_flag): COUNTS, its counts are in the metadata area;
 * READY, its blocks are in the send area; RECEIVED, it has received what
 * its rail brings from other nodes (rails only).
 *
 * Rails: G ranks per node (local indices 0 .. G-1, G at most the fewest
 * ranks on any node and at most N-1) share the node's traffic to the other
 * N-1 nodes.  Node distance j = 1 .. N-1 belongs to rail (j-1) mod G: rail
 * i of node n sends node n's aggregated block for node n+j (mod N) to rail
 * i of that node and receives node n-j's from rail i of node n-j, one
 * message each way per distance, ceil((N-1-i)/G) of them.
 *
 * Pure functions, no MPI: tests/unit/test_patterns_node_segment.c checks
 * them.
 */
#ifndef COLIBRI_PATTERN_NODE_SEGMENT_H
#define COLIBRI_PATTERN_NODE_SEGMENT_H

#include <stdint.h>

enum node_seg_flag { NSEG_COUNTS, NSEG_READY, NSEG_RECEIVED, NSEG_FLAG_KINDS };

/* Index of local rank l's flag f, and the flags of a node of L ranks. */
static inline int node_seg_flag(int l, enum node_seg_flag f)
{
    return l * NSEG_FLAG_KINDS + (int)f;
}
static inline int node_seg_flags(int L) { return L * NSEG_FLAG_KINDS; }

/* The rails a node runs for a request of g (< 1: as many as possible)
 * over N nodes of at least R ranks each: min(g, R, N-1), 0 when N = 1. */
static inline int node_seg_rails(int g, int R, int N)
{
    int G = N - 1 < R ? N - 1 : R;
    return g >= 1 && g < G ? g : G;
}

/* The rail of node distance j (1 .. N-1) among G, and how many distances
 * rail i serves. */
static inline int node_seg_rail_of(int j, int G) { return (j - 1) % G; }
static inline int node_seg_rail_msgs(int N, int G, int i)
{
    return i < G && i < N - 1 ? (N - 1 - i + G - 1) / G : 0;
}
/* Rail i's t-th distance (t < node_seg_rail_msgs), and the nodes it sends
 * to and receives from at distance j from node n. */
static inline int node_seg_rail_dist(int G, int i, int t) { return i + 1 + t * G; }
static inline int node_seg_to(int n, int j, int N) { return (n + j) % N; }
static inline int node_seg_from(int n, int j, int N) { return (n - j + N) % N; }

/* The sizes an automatic alltoallv agrees on, of one rank's counts (sc, rc:
 * bytes to and from each of p ranks; me: the rank): v[0] the largest block,
 * v[1] the most bytes it exchanges with the others (the larger direction),
 * v[2] minus that; their elementwise maximum over ranks gives the largest
 * block and the most and (negated) fewest bytes any rank exchanges. */
#define NSEG_SIZES 3
static inline void node_seg_rank_sizes(const int64_t *sc, const int64_t *rc, int p, int me,
                                       int64_t v[NSEG_SIZES])
{
    int64_t m = 0, out = 0, in = 0;
    for (int j = 0; j < p; j++) {
        m = sc[j] > m ? sc[j] : m;
        m = rc[j] > m ? rc[j] : m;
        out += j == me ? 0 : sc[j];
        in += j == me ? 0 : rc[j];
    }
    v[0] = m;
    v[1] = out > in ? out : in;
    v[2] = -v[1];
}
static inline void node_seg_sizes_max(int64_t v[NSEG_SIZES], const int64_t w[NSEG_SIZES])
{
    for (int i = 0; i < NSEG_SIZES; i++)
        v[i] = w[i] > v[i] ? w[i] : v[i];
}
#define NSEG_HEADER ((int64_t)(NSEG_SIZES * sizeof(int64_t)))

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

/* The node's sizes: node_seg_rank_sizes of its ranks, combined (from the
 * maximum's identity: no block, no bytes, minus the most there can be). */
static inline void node_seg_sizes(const struct node_seg *g, int64_t v[NSEG_SIZES])
{
    v[0] = v[1] = 0, v[2] = -INT64_MAX;
    for (int l = 0; l < g->nloc; l++) {
        int64_t w[NSEG_SIZES];
        const int64_t *m = g->meta + (int64_t)l * 2 * g->p;
        node_seg_rank_sizes(m, m + g->p, g->p, g->node_ranks[g->node_start[g->node] + l], w);
        node_seg_sizes_max(v, w);
    }
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
    const int64_t headers = (int64_t)(g->n_nodes - 1) * NSEG_HEADER;
    *send_at = node_meta_bytes(g->nloc, g->p);
    *recv_at = *send_at + send_total + headers;
    *end = *recv_at + recv_total + headers;
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
    for (int m = 0; m < g->n_nodes; m++) {
        off += m != g->node ? NSEG_HEADER : 0;
        for (int q = g->node_start[m]; q < g->node_start[m + 1]; q++) {
            const int d = g->node_ranks[q];
            for (int l = 0; l < g->nloc; l++) {
                if (l == li)
                    send_off[d] = off;
                if (d == me)
                    local_off[l] = off;
                off += node_seg_send(g, l, d);
            }
        }
    }
    off = recv_at;
    for (int m = 0; m < g->n_nodes; m++) {
        if (m == g->node)
            continue;
        off += NSEG_HEADER;
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
 * it receives from m (recv_off[m], recv_len[m]) (n_nodes entries each),
 * headers included: each block's first NSEG_HEADER bytes. */
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
        if (m != g->node)
            sl += NSEG_HEADER, rl += NSEG_HEADER;
        send_off[m] = so, send_len[m] = m != g->node ? sl : 0;
        recv_off[m] = ro, recv_len[m] = m != g->node ? rl : 0;
        so += sl, ro += rl;
    }
}

#endif
