/*
 * Node dissemination allreduce, for an idempotent operation (x op x = x,
 * and exact: MAX or MIN of integers) on a short vector: what selection's
 * agreements need (runtime/agree.c), at the fewest rounds between nodes
 * there are for a node of R ranks.
 *
 *   0. Every rank publishes its vector into the node's segment and
 *      combines all of the node's (patterns/node_reduce.h: one flag
 *      hand-off); every rank then holds its node's value.
 *   t. Round t = 0 .. T-1 (patterns/dissemination.h, radix k = R + 1):
 *      rail j-1 (local rank j-1 < R) of node n sends the node's value to
 *      rail j-1 of node n + j k^t and receives node n - j k^t's, for the
 *      j with j k^t < N; it combines that with the node's value, every
 *      rank of the node publishes what it holds and combines all of them
 *      again.  After T = ceil(log_{R+1} N) rounds every rank holds every
 *      node's value.
 * Each round is one message each way on each of up to R rails at once and
 * one hand-off: at 64 nodes of 16 ranks, 2 rounds, where the leaders'
 * recursive doubling (node_leader over recursive_doubling) takes 6.  A
 * contribution reaches a node along several paths (k^T > N), which only
 * an idempotent operation tolerates; different nodes combine in different
 * orders, which only an exact one does: every rank then holds the same
 * bits.  One use of the segment's slots per round and one for step 0.
 *
 * Cost (N nodes of at most L ranks, at least R, n bytes, T as above; B and
 * s the on-node copy per byte and flag hand-off):
 *   (T + 1) (s + (n + L n) B + (L-1) n g) + T (a + 2 o + n b + n g).
 */
#include "node_dissemination.h"

#include "../../patterns/dissemination.h"
#include "node_phases.h"

int node_dissemination_rounds(const struct node_layout *l)
{
    const int R = node_fewest(l->n_nodes, l->node_start);
    return dis_rounds(l->n_nodes, R + 1);
}

/* Use u: publish what this rank holds, combine the node's into it. */
static void node_combine(struct schedule *s, const struct node_view *v, int u, int64_t m)
{
    node_publish(s, v, u, BUF_RECV, 0, m);
    node_reduce(s, v, u, 0, m, BUF_RECV, 0);
    node_set(s, v, u, NODE_DONE);
    sched_round(s);
}

int node_dissemination_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    const int64_t m = p->count;
    const int k = v.R + 1, T = dis_rounds(v.N, k);
    sched_need_tmp(s, BUF_TMP, m);
    node_combine(s, &v, 0, m);
    for (int t = 0; t < T; t++) {
        const long long D = dis_distance(k, t);
        const int j = v.li + 1;
        if (v.li < v.R && dis_active(v.N, j, D)) {
            sched_send(s, node_rank(&v, dis_to(v.node, j, D, v.N), v.li), BUF_RECV, 0, m);
            sched_recv(s, node_rank(&v, dis_from(v.node, j, D, v.N), v.li), BUF_TMP, 0, m);
            /* once both have completed: the round's local operations */
            sched_reduce(s, BUF_TMP, 0, BUF_RECV, 0, m, 0);
        }
        node_combine(s, &v, t + 1, m);
    }
    s->shm_epochs = T + 1;
    return s->oom ? -1 : 0;
}
