/*
 * Leader gather (node-aware): each node's blocks meet in its shared
 * segment, each node's blocks cross to the root's node once, in one
 * message from the node's leader, and the root copies every block out of
 * its node's segment.
 *
 * Per use u of the segment's slots (patterns/node_reduce.h), a piece of
 * c' bytes of every block (c' = node_gather_piece: the p pieces of a use
 * fill what a slot holds for the reductions' chunk), positions in node
 * order (node 0's ranks, then node 1's, ...: each node's pieces one
 * contiguous area, at the same place on every node):
 *   1. every rank waits until the slot's use NODE_SLOTS earlier is done
 *      with (an earlier call's: by every rank of the node; within the
 *      call: by the reader of its position, the root or the leader, the
 *      only ranks that read the slot); every rank but the root copies its
 *      piece into the slot at its position and says READY;
 *   2. the leader of every other node (local rank 0) waits for its
 *      node's READY and sends the node's area to the root; the root
 *      receives every other node's area into its place in its node's
 *      slot (one message per node), waits for its own node's READY, and
 *      copies the p-1 other pieces out into its receive buffer (runs of
 *      consecutive ranks in one copy; its own block from its send buffer,
 *      unless in place);
 *   3. every rank says DONE (a leader once its send is complete).
 * The root takes N-1 messages where linear takes p-1 and binomial ceil(lg
 * p) rounds of forwarded blocks; each node's blocks cross the network once,
 * (p - L) b into the root's node, L b out of each other node: the least a
 * port can carry.  On one node: one copy in, one copy out, no message.
 *
 * Memory traffic per block byte b (cost_node_traffic): a rank 2 local
 * (its piece read, the segment written); the root (p-1) streamed (the
 * pieces read from the segment) and p-1 local (written out), its own
 * block 2 local unless in place.  The root's path: one rank's piece in,
 * then its copies out.
 *
 * Cost (COST_FORMULA below; N nodes of at most L ranks, b block bytes,
 * uses of c' bytes of each block, B a byte crossing cores, s a flag
 * hand-off): per use 2 s, plus, between nodes, the leaders' flat step
 * (T_flat of L b over N; on uneven nodes a + 2 o + max((N-1) o, (p-L) b
 * beta) at the root), plus (1.5 (p-1) + 2) b B on the root's node.
 */
#include "../../patterns/node_segment.h"
#include "../common/node_phases.h"

COST_FORMULA(gather, node_leader,
             "ceil(b/c') 2 s + T_flat(L b over N leaders) on nodes of equal size, else a + 2 o "
             "+ max((N-1) o, (p-L) b beta); + (1.5 (p-1) + 2) b B; N nodes of at most L ranks, "
             "c' the piece of each block a segment slot holds, B a byte crossing cores, s a "
             "flag hand-off");

int gather_node_leader_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    const int64_t b = p->count;
    const int Lmax = node_max_ranks(v.N, v.l->node_start);
    const int64_t piece = node_gather_piece(v.C, Lmax, p->size);
    if (piece < 1)
        return -1;
    const int root_node = v.l->node_of[p->root], root_li = v.l->local_index[p->root];
    const bool root = p->rank == p->root;
    const int first = v.l->node_start[v.node], L = v.L;
    /* the leaders' step: the selector's flat gather on nodes of equal
     * size, else one message from each leader to the root */
    const bool embed = v.N > 1 && p->inner && Lmax * v.N == p->size;
    const int64_t chunks = node_chunks(b, piece);
    for (int64_t k = 0; k < chunks; k++) {
        const int u = (int)k;
        const int64_t at = node_chunk_at(k, piece), m = node_chunk_len(b, k, piece);
        /* 1. the slot free: its first uses (an earlier call's, of any
         * collective) once every rank of the node is done with them;
         * later ones once their reader is done with this rank's position
         * (the root on its node, the leader elsewhere: a root or a leader
         * is the only reader of what it overwrites) */
        if (u < NODE_SLOTS)
            node_reuse_wait(s, &v, u);
        else if (!root && !(v.node != root_node && v.li == 0))
            sched_flag_wait(s, u, node_flag(v.node == root_node ? root_li : 0, NODE_DONE),
                            -NODE_SLOTS);
        if (!root) {
            sched_copy_slot(s, u, BUF_SEND, at, BUF_SHM, (first + v.li) * m, m);
            node_set(s, &v, u, NODE_READY);
        }
        if (root) {
            /* 2. the other nodes' areas, then its own node's pieces */
            sched_round(s);
            if (embed) {
                if (node_rooted_embed(s, p, &v, u, m, true) != 0)
                    return -1;
            } else {
                for (int n = 0; n < v.N; n++) {
                    if (n == root_node)
                        continue;
                    const int fs = v.l->node_start[n];
                    sched_recv_slot(s, u, node_rank(&v, n, 0), BUF_SHM, fs * m,
                                    (v.l->node_start[n + 1] - fs) * m);
                }
                sched_round(s);
            }
            node_wait(s, &v, u, NODE_READY, 0, root_li);
            node_wait(s, &v, u, NODE_READY, root_li + 1, L - root_li - 1);
            node_pieces_copy(s, p, &v, u, b, at, m, true);
        } else if (v.node != root_node && v.li == 0) {
            /* 2. a leader: its node's area to the root */
            node_wait(s, &v, u, NODE_READY, 1, L - 1);
            sched_round(s);
            if (embed) {
                if (node_rooted_embed(s, p, &v, u, m, true) != 0)
                    return -1;
            } else {
                sched_send_slot(s, u, p->root, BUF_SHM, first * m, L * m);
                sched_round(s);
            }
        }
        /* 3. done with the slot */
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    s->shm_epochs = chunks;
    return s->oom ? -1 : 0;
}

double gather_node_leader_cost(const struct sched_params *p, const struct cost_params *m)
{
    /* a rank's piece in (2 local), the root's p-1 out (streamed and
     * local), its own block (2 local) */
    const double P = p->size;
    return node_rooted_cost(p, m, P + 3, P - 1);
}
