/*
 * Rails allgather (node-aware): the node's blocks meet in its shared
 * segment, each node's blocks cross to every other node once, spread over
 * the node's ranks as rails, and every rank copies the p blocks out of
 * the segment.
 *
 * Per use u of the segment's slots (patterns/node_reduce.h), a piece of
 * c' bytes of every block (c' = node_gather_piece: the p pieces of a use
 * fill what a slot holds for the reductions' chunk):
 *   1. every rank waits until its node is done with the slot's use
 *      NODE_SLOTS earlier (where that use belongs to an earlier call),
 *      copies its piece into the slot at its position
 *      in node order (node 0's ranks, then node 1's, ...: each node's
 *      pieces one contiguous area, at the same place on every node) and
 *      says READY;
 *   2. rail i (local rank i < G = min(R, N-1), R the fewest ranks on a
 *      node) waits for the node's READY, then, for each node distance j
 *      = i+1, i+1+G, ... < N (patterns/node_segment.h's rails), sends
 *      the node's area to rail i of node n+j and receives node n-j's area
 *      from rail i of that node into its place, all in one round; it says
 *      REDUCED;
 *   3. every rank waits for the G rails' REDUCED (on one node: for every
 *      READY), copies the p-1 other pieces out of the slot into its
 *      receive buffer (its own from its send buffer, unless in place),
 *      and says DONE.
 * Each node's blocks cross the network once, to each other node: the
 * least a node's port can carry, (p - L) b in and L (N-1) b out, where a
 * flat allgather over ranks placed round-robin carries L times more; the
 * step between nodes is one round of ceil((N-1)/G) messages each way per
 * rail (4 at 64 nodes of 16), where the leaders' recursive doubling takes
 * lg N rounds.  The node's pieces reach its ranks through the segment.
 *
 * Memory traffic per rank and block byte b (cost_node_traffic): 2 local
 * (its piece read and written into the segment), (p-1) streamed (the
 * others' pieces read from the segment), p-1 local (written out), its own
 * block copied (2 local) unless in place.
 *
 * Cost (COST_FORMULA below; N nodes of at most L ranks, G rails, b block
 * bytes, uses of c' bytes of each block): per use a + 2 ceil((N-1)/G) o
 * + 3 s, plus (p-L) b beta through the node's port, plus (p+3) b / 2 +
 * (p-1) b of the segment's b.
 */
#include <math.h>
#include <stdlib.h>

#include "../../patterns/node_segment.h"
#include "../common/node_phases.h"

COST_FORMULA(allgather, node_rails,
             "ceil(b/c') (a + 2 ceil((N-1)/G) o + 3 s) + (p-L) b beta + (1.5 (p-1) + 2) b B; N "
             "nodes of at most L ranks, G = min(fewest, N-1) rails, c' the piece of each block a "
             "segment slot holds, B a byte crossing cores, s a flag hand-off");

int allgather_node_rails_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    const int64_t b = p->count;
    const int Lmax = node_max_ranks(v.N, v.l->node_start);
    const int64_t piece = node_gather_piece(v.C, Lmax, p->size);
    const int G = node_seg_rails(0, v.R, v.N);
    if (piece < 1)
        return -1;
    const int first = v.l->node_start[v.node];
    const int64_t chunks = node_chunks(b, piece);
    for (int64_t k = 0; k < chunks; k++) {
        const int u = (int)k;
        const int64_t at = node_chunk_at(k, piece), m = node_chunk_len(b, k, piece);
        /* 1. its piece into the node's area, once the slot is free: the
         * wait is for uses of earlier calls only, as within a call this
         * rank's wait for use u-1 (REDUCED of the rails, READY on one
         * node) already says that every rank of the node has said READY
         * there, i.e. DONE with use u-2 (a wait the tests find makes no
         * difference) */
        if (u < NODE_SLOTS)
            node_reuse_wait(s, &v, u);
        sched_copy_slot(s, u, p->in_place ? BUF_RECV : BUF_SEND,
                        p->in_place ? p->rank * b + at : at, BUF_SHM, (first + v.li) * m, m);
        node_set(s, &v, u, NODE_READY);
        /* 2. the rails: the node's area to and from its nodes; 3.
         * everything out */
        node_rails_swap(s, &v, u, G, NULL, m);
        node_pieces_copy(s, p, &v, u, b, at, m, true);
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    s->shm_epochs = chunks;
    return s->oom ? -1 : 0;
}

double allgather_node_rails_cost(const struct sched_params *p, const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const int Lmax = node_max_ranks(l->n_nodes, l->node_start);
    const double b = (double)p->count;
    const int64_t piece = node_gather_piece(p->node_chunk, Lmax, p->size);
    const double uses = piece > 0 && p->count > piece ? ceil(b / (double)piece) : 1;
    return node_rails_gather_cost(p, m, uses,
                                  (p->size - node_fewest(l->n_nodes, l->node_start)) * b, b);
}
