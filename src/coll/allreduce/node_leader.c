/*
 * Leader allreduce (node-aware, short vectors): the node reduces through
 * its shared segment, one rank per node runs the step between nodes, and
 * the others read the result from the segment.
 *
 * Per chunk (patterns/node_reduce.h):
 *   1. every rank copies its chunk into its input area of the segment;
 *   2. on a single node every rank then combines all inputs, in rank
 *      order, straight into its receive buffer: one hand-off in all, the
 *      shortest path there is for a short vector;
 *      on several nodes the leader (local rank 0) combines them into the
 *      output area, runs the selector's flat allreduce with the other
 *      leaders in place there, and the others wait for it and copy out.
 * The single-node path reads L n per rank, which is why it is for short
 * vectors (split-rail is for long ones); every rank combines the same
 * operands in the same order, so all get the same bits.
 *
 * Non-commutative operations: the node's inputs in rank order, then the
 * nodes in node order, which is rank order when every node holds
 * consecutive ranks (the catalog says so).
 *
 * Memory traffic per rank and vector byte (cost_node_traffic, algorithm.h):
 * one node: 4 local (publish: read and write; own input read back; result
 * written), L-1 streamed (the others' inputs), L-1 reduced; several: the
 * leader as much plus its output written, every other rank 1 dirty read of
 * the leader's result and 1 local write.
 *
 * Cost (COST_FORMULA below; N nodes of L ranks, n bytes, b the segment's
 * cost per byte that crosses to another core, s a flag hand-off per chunk
 * of c bytes, a local byte b/2, a dirty one 1.5 b): one node:
 * s n/c + (2 n + (L-1) n) b + (L-1) n g; several:
 * 2 s n/c + (2.5 n + (L-1) n + 1.5 n) b + (L-1) n g + the flat allreduce
 * of n over N leaders.
 */
#include <stdlib.h>

#include "../common/node_phases.h"

COST_FORMULA(allreduce, node_leader,
             "N = 1: s n/c + (L+1) n b + (L-1) n g; N > 1: 2 s n/c + (L+3) n b + (L-1) n g + "
             "T_flat(n over N); N nodes of L ranks, b a byte crossing cores, s a flag hand-off "
             "per chunk of c bytes");

int allreduce_node_leader_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    node_slot_span(s, &v, (double)p->count * (double)p->elem_size);
    const int in = p->in_place ? BUF_RECV : BUF_SEND;
    const int64_t chunks = node_chunks(p->count, v.C);
    int *leaders = malloc((size_t)v.N * sizeof *leaders);
    if (!leaders)
        return -1;
    for (int n = 0; n < v.N; n++)
        leaders[n] = node_rank(&v, n, 0);
    for (int64_t k = 0; k < chunks; k++) {
        const int u = (int)k;
        const int64_t at = node_chunk_at(k, v.C), m = node_chunk_len(p->count, k, v.C);
        const int64_t out = node_output(v.L, v.C);
        node_publish(s, &v, u, in, at, m);
        if (v.N == 1) {
            node_reduce(s, &v, u, 0, m, BUF_RECV, at);
        } else {
            if (v.li == 0) {
                node_reduce(s, &v, u, 0, m, BUF_SHM, out);
                struct sched_params sub = node_sub_params(p, m);
                sub.rank = v.node, sub.size = v.N, sub.in_place = true;
                if (m > 0 &&
                    node_embed(s, p->inner, &sub, leaders, u, BUF_SHM, out, BUF_SHM, out) != 0) {
                    free(leaders);
                    return -1;
                }
                node_set(s, &v, u, NODE_REDUCED);
            } else {
                node_wait(s, &v, u, NODE_REDUCED, 0, 1);
            }
            sched_copy_slot(s, u, BUF_SHM, out, BUF_RECV, at, m);
        }
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    free(leaders);
    s->shm_epochs = chunks;
    return s->oom ? -1 : 0;
}

double allreduce_node_leader_cost(const struct sched_params *p, const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, L = node_max_ranks(N, l->node_start);
    const double n = (double)p->count * (double)p->elem_size;
    const double chunk = (double)p->node_chunk * (double)p->elem_size;
    /* one node: publish (read, write), its own input read back, the result
     * written; the L - 1 others' inputs streamed */
    if (N == 1)
        return cost_node_traffic(m, n, chunk, 1, 4 * n, (double)(L - 1) * n, 0,
                                 (double)(L - 1) * n);
    struct sched_params sub = node_sub_params(p, p->count);
    sub.size = N, sub.in_place = true;
    /* several: the leader's publish, own read and output written, then
     * the others read its output (dirty) and write theirs */
    return cost_node_traffic(m, n, chunk, 2, 5 * n, (double)(L - 1) * n, n,
                             (double)(L - 1) * n) +
           cost_node_inner(p->inner_cost, &sub, m, 1);
}
