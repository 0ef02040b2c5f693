/*
 * Leader scatter (node-aware), the gather's mirror: the root copies every
 * block into its node's shared segment, sends each other node its blocks
 * in one message to the node's leader, and every rank copies its block
 * out of its node's segment.
 *
 * Per use u of the segment's slots (patterns/node_reduce.h), a piece of
 * c' bytes of every block (c' = node_gather_piece), positions in node
 * order (each node's pieces one contiguous area, at the same place on
 * every node):
 *   1. every rank waits until the slot's use NODE_SLOTS earlier is done
 *      with (an earlier call's: by every rank of the node; within the
 *      call: the root or the leader, which write the node's pieces, wait
 *      for every other rank of the node to have read its own);
 *   2. the root copies the p-1 other pieces of its send buffer into the
 *      slot (runs of consecutive ranks in one copy; its own block from
 *      its send buffer into its receive buffer, unless in place), says
 *      READY to its node, and sends every other node's area to that
 *      node's leader (local rank 0), one message per node; a leader
 *      receives its node's area into its place in its node's slot and
 *      says READY;
 *   3. every other rank waits for its node's READY (the root's, the
 *      leader's) and copies its piece out; every rank says DONE (the root
 *      once its sends are complete).
 * The root sends N-1 messages where linear sends p-1 and binomial ceil(lg
 * p) rounds of forwarded blocks; each node's blocks cross the network
 * once, (p - L) b out of the root's node, L b into each other node.  On
 * one node: one copy in, one copy out, no message.
 *
 * Memory traffic per block byte b (cost_node_traffic): the root (p-1)
 * local read and p-1 local written (the pieces into the segment), its own
 * block 2 local unless in place; every other rank 1 streamed (its piece
 * read from the segment) and 1 local (written out).
 *
 * Cost (COST_FORMULA below; N nodes of at most L ranks, b block bytes,
 * uses of c' bytes of each block, B a byte crossing cores, s a flag
 * hand-off): per use 2 s, plus, between nodes, the leaders' flat step
 * (T_flat of L b over N; on uneven nodes a + 2 o + max((N-1) o, (p-L) b
 * beta) at the root), plus (p + 1.5) b B on the critical path.
 */
#include "../../patterns/node_segment.h"
#include "../common/node_phases.h"

COST_FORMULA(scatter, node_leader,
             "ceil(b/c') 2 s + T_flat(L b over N leaders) on nodes of equal size, else a + 2 o "
             "+ max((N-1) o, (p-L) b beta); + (p + 1.5) b B; N nodes of at most L ranks, c' the "
             "piece of each block a segment slot holds, B a byte crossing cores, s a flag "
             "hand-off");

int scatter_node_leader_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    const int64_t b = p->count;
    const int Lmax = node_max_ranks(v.N, v.l->node_start);
    const int64_t piece = node_gather_piece(v.C, Lmax, p->size);
    if (piece < 1)
        return -1;
    const int root_node = v.l->node_of[p->root];
    const bool root = p->rank == p->root;
    /* whose READY says the node's pieces are in its slot */
    const int source = v.node == root_node ? v.l->local_index[p->root] : 0;
    const int first = v.l->node_start[v.node], L = v.L;
    /* the leaders' step: the selector's flat scatter on nodes of equal
     * size, else one message from the root to each leader */
    const bool embed = v.N > 1 && p->inner && Lmax * v.N == p->size;
    const int64_t chunks = node_chunks(b, piece);
    for (int64_t k = 0; k < chunks; k++) {
        const int u = (int)k;
        const int64_t at = node_chunk_at(k, piece), m = node_chunk_len(b, k, piece);
        /* 1. the slot free: its first uses (an earlier call's, of any
         * collective) once every rank of the node is done with them;
         * later ones, for the rank that writes the node's pieces (the
         * root on its node, the leader elsewhere), once every other rank
         * of the node has read its own (a rank that only reads waits for
         * nothing more) */
        if (u < NODE_SLOTS) {
            node_reuse_wait(s, &v, u);
        } else if (v.li == source) {
            for (int l = 0; l < L; l++)
                if (l != v.li)
                    sched_flag_wait(s, u, node_flag(l, NODE_DONE), -NODE_SLOTS);
        }
        if (root) {
            /* 2. every piece in, its node told, the other nodes' areas out */
            node_pieces_copy(s, p, &v, u, b, at, m, false);
            node_set(s, &v, u, NODE_READY);
            sched_round(s);
            if (embed) {
                if (node_rooted_embed(s, p, &v, u, m, false) != 0)
                    return -1;
            } else {
                for (int n = 0; n < v.N; n++) {
                    if (n == root_node)
                        continue;
                    const int fs = v.l->node_start[n];
                    sched_send_slot(s, u, node_rank(&v, n, 0), BUF_SHM, fs * m,
                                    (v.l->node_start[n + 1] - fs) * m);
                }
                sched_round(s);
            }
        } else {
            if (v.li == source) {
                /* 2. a leader: its node's area from the root */
                sched_round(s);
                if (embed) {
                    if (node_rooted_embed(s, p, &v, u, m, false) != 0)
                        return -1;
                } else {
                    sched_recv_slot(s, u, p->root, BUF_SHM, first * m, L * m);
                    sched_round(s);
                }
                node_set(s, &v, u, NODE_READY);
            } else {
                node_wait(s, &v, u, NODE_READY, source, 1);
            }
            /* 3. its piece out */
            sched_copy_slot(s, u, BUF_SHM, (first + v.li) * m, BUF_RECV, at, m);
        }
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    s->shm_epochs = chunks;
    return s->oom ? -1 : 0;
}

double scatter_node_leader_cost(const struct sched_params *p, const struct cost_params *m)
{
    /* the root's p-1 pieces in (2 local each) and its own (2 local), a
     * rank's piece out (1 streamed, 1 local) */
    return node_rooted_cost(p, m, 2.0 * p->size + 1, 1);
}
