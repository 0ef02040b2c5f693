/*
 * Rails allgatherv (node-aware): allgather's node_rails
 * (allgather/node_rails.c) with blocks of their own sizes at their own
 * displacements.  The node's blocks meet in its shared segment, each
 * node's blocks cross to every other node once, spread over the node's
 * ranks as rails, and every rank copies the p blocks out of the segment.
 *
 * Per use u of the segment's slots, a piece of every block: bytes [u c',
 * u c' + m_j) of block j, m_j = min(c', max(0, n_j - u c')) (c' =
 * node_gather_piece, the piece allgather takes: the p pieces of a use fit a
 * slot; patterns/node_reduce.h, node_v_piece_len), for as many uses as the
 * largest block needs (one at least).  In a use the pieces lie back to back
 * in node order (node 0's ranks, then node 1's, ...), so each node's pieces
 * are one contiguous area at the same place on every node; every rank
 * knows every block's size (recvcounts), so every rank computes the same
 * places and empty pieces, areas and messages are skipped at both ends.
 *   1. every rank waits until its node is done with the slot's use
 *      NODE_SLOTS earlier (where that use belongs to an earlier call),
 *      copies its piece into its place and says READY;
 *   2. rail i (local rank i < G = min(R, N-1), R the fewest ranks on a
 *      node) waits for the node's READY, then, for each node distance j =
 *      i+1, i+1+G, ... < N (patterns/node_segment.h's rails), sends the
 *      node's area to rail i of node n+j and receives node n-j's area from
 *      rail i of that node into its place, all in one round; it says
 *      REDUCED;
 *   3. every rank waits for the G rails' REDUCED (on one node: for every
 *      READY), copies the other ranks' pieces out of the slot to their
 *      places in its receive buffer (runs of ranks whose blocks follow one
 *      another there as one copy; its own block from its send buffer,
 *      unless in place) and says DONE.
 * Each node's blocks cross the network once, to each other node: the
 * least a node's port can carry, n - n_x in and n_x (N-1) out for a node
 * whose blocks hold n_x of the n bytes, where a flat allgatherv over ranks
 * placed round-robin carries about L times more; the step between nodes is
 * one round of ceil((N-1)/G) messages each way per rail.  Uneven blocks
 * cost uses: a call takes as many as its largest block needs, and the
 * uses' areas shrink as the shorter blocks run out.
 *
 * Memory traffic per rank, over the n bytes of all blocks (cost_node_traffic,
 * as allgather's with b = n/p): its own block read and written into the
 * segment (2 n/p local), the others' pieces read from the segment (n - n/p
 * streamed) and written out (n - n/p local), its own block copied (2 n/p
 * local) unless in place.
 *
 * Cost (COST_FORMULA below; N nodes of at most L ranks, G rails, n all
 * blocks' bytes, c the largest, uses of c' bytes of each block): per use
 * a + 2 ceil((N-1)/G) o + 3 s, plus (n - n_min) beta through the busiest
 * port (n_min: the fewest bytes a node holds), plus the segment's bytes.
 */
#include <math.h>
#include <stdlib.h>

#include "../../patterns/node_segment.h"
#include "../common/node_phases.h"

COST_FORMULA(allgatherv, node_rails,
             "ceil(c/c') (a + 2 ceil((N-1)/G) o + 3 s) + (n - n_min) beta + (1.5 (p-1) + 2) (n/p) "
             "B; n all blocks' bytes, c the largest, n_min the fewest bytes a node holds, N "
             "nodes of at most L ranks, G = min(fewest, N-1) rails, c' the piece of each block a "
             "segment slot holds, B a byte crossing cores, s a flag hand-off");

/* Use u's pieces: len[q], at[q] for node-order position q (at: the
 * piece's offset in the slot, back to back). */
static void use_layout(const struct sched_params *p, const struct node_view *v, int64_t u,
                       int64_t piece, int64_t *len, int64_t *at)
{
    int64_t off = 0;
    for (int q = 0; q < p->size; q++) {
        len[q] = node_v_piece_len(p->rcounts[v->l->node_ranks[q]], u, piece);
        at[q] = off;
        off += len[q];
    }
    at[p->size] = off;
}

/* Step 3: the other ranks' pieces out of the slot into RECV, runs of
 * ranks whose pieces follow one another in both as one copy (empty pieces
 * neither start nor break a run); the own piece from SEND unless in place. */
static void pieces_out(struct schedule *s, const struct sched_params *p,
                       const struct node_view *v, int u, int64_t from, const int64_t *len,
                       const int64_t *at)
{
    const int *ranks = v->l->node_ranks;
    const int64_t *d = p->rdispls;
    for (int q = 0; q < p->size;) {
        const int r = ranks[q];
        if (len[q] == 0) {
            q++;
            continue;
        }
        if (r == p->rank) {
            if (!p->in_place)
                sched_copy(s, BUF_SEND, from, BUF_RECV, d[r] + from, len[q]);
            q++;
            continue;
        }
        int64_t end = d[r] + from + len[q]; /* where the run ends in RECV */
        int e = q + 1;
        while (e < p->size && ranks[e] != p->rank &&
               (len[e] == 0 || d[ranks[e]] + from == end)) {
            end += len[e];
            e++;
        }
        sched_copy_slot(s, u, BUF_SHM, at[q], BUF_RECV, d[r] + from, at[e] - at[q]);
        q = e;
    }
}

int allgatherv_node_rails_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    const int P = p->size;
    const int Lmax = node_max_ranks(v.N, v.l->node_start);
    const int64_t piece = node_gather_piece(v.C, Lmax, P);
    const int G = node_seg_rails(0, v.R, v.N);
    if (piece < 1)
        return -1;
    int64_t *len = malloc((size_t)(2 * P + 1) * sizeof *len);
    if (!len)
        return -1;
    int64_t *at = len + P;
    const int me = v.l->node_start[v.node] + v.li;
    const int64_t uses = node_v_uses(p->volume_max, piece); /* (the largest block) */
    for (int64_t k = 0; k < uses; k++) {
        const int u = (int)k;
        const int64_t from = k * piece;
        use_layout(p, &v, k, piece, len, at);
        /* 1. its piece into its place, once the slot is free (as
         * allgather's: within a call the wait for use u-1 implies it) */
        if (u < NODE_SLOTS)
            node_reuse_wait(s, &v, u);
        if (len[me] > 0)
            sched_copy_slot(s, u, p->in_place ? BUF_RECV : BUF_SEND,
                            p->in_place ? p->rdispls[p->rank] + from : from, BUF_SHM, at[me],
                            len[me]);
        node_set(s, &v, u, NODE_READY);
        /* 2. the rails: the node's area to and from its nodes; 3.
         * everything out */
        node_rails_swap(s, &v, u, G, at, 0);
        pieces_out(s, p, &v, u, from, len, at);
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    free(len);
    s->shm_epochs = uses;
    return s->oom ? -1 : 0;
}

double allgatherv_node_rails_cost(const struct sched_params *p, const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, Lmax = node_max_ranks(N, l->node_start);
    const double n = (double)p->count;
    const int64_t piece = node_gather_piece(p->node_chunk, Lmax, p->size);
    const double uses =
        piece > 0 && p->volume_max > piece ? ceil((double)p->volume_max / (double)piece) : 1;
    /* the fewest bytes a node holds: the busiest port takes the rest
     * (blocks of n/p each where the counts are not given) */
    double least = p->rcounts ? n : n / p->size * node_fewest(N, l->node_start);
    for (int x = 0; x < N && p->rcounts; x++) {
        double held = 0;
        for (int q = l->node_start[x]; q < l->node_start[x + 1]; q++)
            held += (double)p->rcounts[l->node_ranks[q]];
        least = held < least ? held : least;
    }
    return node_rails_gather_cost(p, m, uses, n - least, n / p->size);
}
