/*
 * Leader reduce (node-aware, short vectors): the node reduces through its
 * shared segment into one rank per node, the root on the root's node and
 * local rank 0 elsewhere, and those run the selector's flat reduce between
 * nodes (allreduce/node_leader.c is the same for all ranks).
 *
 * Per chunk (patterns/node_reduce.h): every rank but the representative
 * copies its chunk into the segment (the representative reads its own
 * where it is, unless it is the root's receive buffer with one node, in
 * place); the node's representative combines all inputs in rank order
 * (the root straight into its receive buffer when there is one node, else
 * into the output area, where the flat reduce runs in place); the root
 * copies the result out.
 *
 * Non-commutative operations: rank order within a node, node order
 * between nodes, which is rank order when nodes hold consecutive ranks
 * (the catalog says so).
 *
 * Memory traffic per rank and vector byte on the root's path
 * (cost_node_traffic, algorithm.h): 2 local on one node (its input read in
 * place, the result written; 4 with several nodes, through the output
 * area), L-1 streamed (the others' inputs, published at the same time,
 * chunk by chunk), L-1 reduced.
 *
 * Cost (COST_FORMULA below; as allreduce/node_leader.c): one hand-off per
 * chunk, the traffic above, and the flat reduce of n over N nodes.
 */
#include <stdlib.h>

#include "../common/node_phases.h"

COST_FORMULA(reduce, node_leader,
             "s n/c + ((N = 1 ? 1 : 2) n + (L-1) n) b + (L-1) n g + T_flat(n over N); N nodes "
             "of L ranks, b a byte crossing cores, s a flag hand-off per chunk of c bytes");

int reduce_node_leader_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    node_slot_span(s, &v, (double)p->count * (double)p->elem_size);
    const int root_node = v.l->node_of[p->root];
    const bool root = p->rank == p->root;
    const int in = p->in_place && root ? BUF_RECV : BUF_SEND;
    const int64_t chunks = node_chunks(p->count, v.C);
    int *reps = malloc((size_t)v.N * sizeof *reps);
    if (!reps)
        return -1;
    for (int n = 0; n < v.N; n++)
        reps[n] = n == root_node ? p->root : node_rank(&v, n, 0);
    const bool rep = reps[v.node] == p->rank;
    for (int64_t k = 0; k < chunks; k++) {
        const int u = (int)k;
        const int64_t at = node_chunk_at(k, v.C), m = node_chunk_len(p->count, k, v.C);
        const int64_t out = node_output(v.L, v.C);
        /* the representative alone reads its node's inputs: its own is
         * read where it is, never copied (unless it is the root's receive
         * buffer, in place, which the result overwrites as it is built) */
        const bool own = rep && !p->nonblocking && !(v.N == 1 && in == BUF_RECV);
        if (own)
            node_publish_except(s, &v, u, in, at, m, 0, m);
        else
            node_publish(s, &v, u, in, at, m);
        if (rep && v.N == 1) {
            node_reduce_own(s, &v, u, 0, m, BUF_RECV, at, own ? in : -1, at);
        } else if (rep) {
            node_reduce_own(s, &v, u, 0, m, BUF_SHM, out, own ? in : -1, at);
            struct sched_params sub = node_sub_params(p, m);
            sub.rank = v.node, sub.size = v.N, sub.root = root_node, sub.in_place = true;
            if (m > 0 && node_embed(s, p->inner, &sub, reps, u, BUF_SHM, out, BUF_SHM, out) != 0) {
                free(reps);
                return -1;
            }
            if (root)
                sched_copy_slot(s, u, BUF_SHM, out, BUF_RECV, at, m);
        }
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    free(reps);
    s->shm_epochs = chunks;
    return s->oom ? -1 : 0;
}

double reduce_node_leader_cost(const struct sched_params *p, const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, L = node_max_ranks(N, l->node_start);
    const double n = (double)p->count * (double)p->elem_size;
    struct sched_params sub = node_sub_params(p, p->count);
    sub.size = N, sub.in_place = true;
    /* the root's node's representative is the root: its input read in
     * place, the others' streamed, the result written (and, with several
     * nodes, first into the output area and then copied out) */
    return cost_node_traffic(m, n, (double)p->node_chunk * (double)p->elem_size, 1,
                             N == 1 ? 2 * n : 4 * n, (double)(L - 1) * n, 0,
                             (double)(L - 1) * n) +
           cost_node_inner(p->inner_cost, &sub, m, 1);
}
