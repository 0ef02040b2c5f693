/*
 * Rails reduce (node-aware, short vectors across nodes): allreduce
 * node_rails' schedule (coll/allreduce/node_rails.c derives it), the
 * root's result in its receive buffer and every other rank's in scratch.
 * For a short vector a round costs a latency and a message's overhead on
 * each rail whether one node or all of a group's get the combination, so
 * the reduce takes the allreduce's ceil(log_K N) rounds, where a tree
 * between node leaders (node_leader over a binomial tree) takes lg N.
 * Every rank combines in the same bracketing, the root's node included.
 *
 * Non-commutative operations: rank order within a node, node order
 * between nodes (the catalog says so).
 *
 * Cost: allreduce node_rails' (COST_FORMULA below).
 */
#include "../common/node_rails.h"

COST_FORMULA(reduce, node_rails,
             "as allreduce node_rails: (T+1) s + (L+1) n b + (L-1) n g + sum_t(a + (1+s_t) o + "
             "(k_t-1) n b_net + (1.5 (k_t-1) + 1) n b + (k_t-1) n g), T = ceil(log_K N); slices of "
             "64 B and up (f = 1/L): 2 (T+1) s + (4-2f) n b + (L-1) f n g + sum_t(a + (1+s_t) o + "
             "(k_t-1) n b_net + (2 + 1.5 (k_t-1) f - 0.5 f) n b + (k_t-1) f n g)");

int reduce_node_rails_build(const struct sched_params *p, struct schedule *s)
{
    return node_rails_schedule(p, s, p->rank == p->root ? BUF_RECV : BUF_TMP2);
}

double reduce_node_rails_cost(const struct sched_params *p, const struct cost_params *m)
{
    return node_rails_cost(p, m);
}
