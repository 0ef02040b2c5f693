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
 * hand-off): per use 2 s, plus, between nodes, a + 2 o + max((N-1) o,
 * (p-L) b beta) at the root, plus (p + 1.5) b B on the critical path.
 */
#include <math.h>

#include "../../patterns/node_segment.h"
#include "../common/node_phases.h"

COST_FORMULA(scatter, node_leader,
             "ceil(b/c') 2 s + [N > 1] (a + 2 o + max((N-1) o, (p-L) b beta)) + (p + 1.5) b B; "
             "N nodes of at most L ranks, c' the piece of each block a segment slot holds, B a "
             "byte crossing cores, s a flag hand-off");

/* The root's copies into use u's slot: every other rank's piece of m
 * bytes at `at` of its block (blocks of b bytes), runs of consecutive
 * ranks in one copy where the pieces are whole blocks; its own into its
 * receive buffer unless in place. */
static void copy_in(struct schedule *s, const struct sched_params *p, const struct node_view *v,
                    int u, int64_t b, int64_t at, int64_t m)
{
    const int P = p->size;
    const int *ranks = v->l->node_ranks;
    for (int q = 0; q < P;) {
        const int r = ranks[q];
        if (r == p->rank) {
            if (!p->in_place)
                sched_copy(s, BUF_SEND, r * b + at, BUF_RECV, at, m);
            q++;
            continue;
        }
        int e = q + 1;
        while (m == b && e < P && ranks[e] == ranks[e - 1] + 1 && ranks[e] != p->rank)
            e++;
        sched_copy_slot(s, u, BUF_SEND, r * b + at, BUF_SHM, (int64_t)q * m, (e - q) * m);
        q = e;
    }
}

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
            copy_in(s, p, &v, u, b, at, m);
            node_set(s, &v, u, NODE_READY);
            sched_round(s);
            for (int n = 0; n < v.N; n++) {
                if (n == root_node)
                    continue;
                const int fs = v.l->node_start[n];
                sched_send_slot(s, u, node_rank(&v, n, 0), BUF_SHM, fs * m,
                                (v.l->node_start[n + 1] - fs) * m);
            }
            sched_round(s);
        } else {
            if (v.li == source) {
                /* 2. a leader: its node's area from the root */
                sched_round(s);
                sched_recv_slot(s, u, p->root, BUF_SHM, first * m, L * m);
                sched_round(s);
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
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, Lmax = node_max_ranks(N, l->node_start);
    const int root_node = l->node_of[p->root];
    const int Lr = l->node_start[root_node + 1] - l->node_start[root_node];
    const double b = (double)p->count, P = p->size;
    const int64_t piece = node_gather_piece(p->node_chunk, Lmax, p->size);
    double net = 0;
    if (N > 1) {
        const double overheads = (N - 1.0) * m->o, bytes = (P - Lr) * b * m->beta;
        net = m->alpha + 2 * m->o + (overheads > bytes ? overheads : bytes);
    }
    /* the root's p-1 pieces in (2 local each) and its own (2 local), a
     * rank's piece out (1 streamed, 1 local) */
    return net + cost_node_traffic(m, b * P, piece > 0 ? (double)piece * P : 0, 2,
                                   (2 * P + 1) * b, b, 0, 0);
}
