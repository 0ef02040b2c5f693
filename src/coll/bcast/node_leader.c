/*
 * Leader broadcast (node-aware): the root's buffer crosses between nodes
 * once per node, then goes into each node's shared segment once, from
 * which every other rank of the node copies it out.
 *
 *   1. the node's leader (the root on the root's node, local rank 0 on
 *      the others) holds the buffer: the root from the start, the other
 *      leaders once the flat broadcast between leaders (the selector's
 *      choice for N ranks and the whole buffer, rooted at the root's node:
 *      binomial for short buffers, scatter + allgather for long ones) has
 *      brought it;
 *   2. chunk by chunk (c bytes, use u of the segment's slots,
 *      patterns/node_reduce.h), the leader waits until every rank of its
 *      node is done with the slot's use NODE_SLOTS earlier, copies the
 *      chunk into the slot (one streaming copy) and says READY;
 *   3. every other rank waits for READY, copies the chunk out, says DONE.
 * The root publishes its first chunk before it sends (its node need not
 * wait for the step between nodes).  The step between nodes runs once,
 * on the whole buffer: run chunk by chunk it paid the flat algorithm's
 * latency once per chunk (a 1 MiB broadcast at 16 x 16 simulated ranks
 * took 856 us so, against 682 for the flat binomial tree).  With both
 * slots in flight the leader copies chunk k+1 in while its node copies
 * chunk k out.
 *
 * Memory traffic per rank and vector byte (cost_node_traffic): the leader
 * 2 local (its buffer read, the segment written); every other rank 1
 * streamed (the segment read) and 1 local (its buffer written).  On the
 * critical path: 3 local, 1 streamed.
 *
 * Cost (COST_FORMULA below; N nodes, n bytes, b the segment's cost per
 * byte that crosses to another core, s a flag hand-off per chunk of c
 * bytes, a local byte b/2): s n/c + 2.5 n b + T_flat(n over N leaders).
 */
#include <stdlib.h>

#include "../common/node_phases.h"

COST_FORMULA(bcast, node_leader,
             "s n/c + 2.5 n b + T_flat(n over N leaders); N nodes, b a byte crossing cores, s a "
             "flag hand-off per chunk of c bytes");

/* The leaders' flat broadcast (p->inner) of the whole buffer, in use u. */
static int between(struct schedule *s, const struct sched_params *p, const struct node_view *v,
                   int root_node, int u)
{
    if (v->N == 1 || p->count == 0)
        return 0;
    int *leaders = malloc((size_t)v->N * sizeof *leaders);
    if (!leaders)
        return -1;
    for (int n = 0; n < v->N; n++)
        leaders[n] = n == root_node ? p->root : node_rank(v, n, 0);
    struct sched_params sub = node_sub_params(p, p->count);
    sub.rank = v->node, sub.size = v->N, sub.root = root_node;
    const int rc = node_embed(s, p->inner, &sub, leaders, u, BUF_RECV, 0, BUF_RECV, 0);
    free(leaders);
    return rc;
}

int bcast_node_leader_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    const int root_node = v.l->node_of[p->root];
    /* the leader's local index on this node */
    const int lead = v.node == root_node ? v.l->local_index[p->root] : 0;
    const bool leader = v.li == lead, root = p->rank == p->root;
    if (v.N > 1 && !p->inner)
        return -1;
    const int64_t chunks = node_chunks(p->count, v.C);
    for (int64_t k = 0; k < chunks; k++) {
        const int u = (int)k;
        const int64_t at = node_chunk_at(k, v.C), m = node_chunk_len(p->count, k, v.C);
        if (leader) {
            /* the leaders' broadcast of the whole buffer: before the first
             * chunk's publish, after it at the root (its node need not
             * wait for the sends) */
            if (!root && k == 0 && between(s, p, &v, root_node, u) != 0)
                return -1;
            node_publish(s, &v, u, BUF_RECV, at, m);
            if (root && k == 0 && between(s, p, &v, root_node, u) != 0)
                return -1;
        } else {
            node_wait(s, &v, u, NODE_READY, lead, 1);
            sched_copy_slot(s, u, BUF_SHM, node_input(lead, v.C), BUF_RECV, at, m);
        }
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    s->shm_epochs = chunks;
    return s->oom ? -1 : 0;
}

double bcast_node_leader_cost(const struct sched_params *p, const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const double n = (double)p->count * (double)p->elem_size;
    const double chunk = (double)p->node_chunk * (double)p->elem_size;
    struct sched_params sub = node_sub_params(p, p->count);
    sub.size = l->n_nodes;
    /* the leader's copy in (2 local), the others' copy out (1 streamed,
     * 1 local), after the leaders' broadcast (the flat movement costs
     * count their messages' overhead) */
    return cost_node_traffic(m, n, chunk, 1, 3 * n, n, 0, 0) +
           (sub.size > 1 && p->inner_cost ? p->inner_cost(&sub, m) : 0);
}
