/*
 * Leader barrier (node-aware): no message inside a node.
 *   1. every rank says READY in the node's segment (one use of a slot);
 *   2. the leader (local rank 0) waits for every READY of its node, then
 *      runs the flat barrier between leaders (the selector's choice for
 *      N ranks: dissemination with its radix);
 *   3. it says REDUCED, which every other rank of the node waits for;
 *      every rank says DONE (a later user of the slot waits for it).
 * A rank leaves once its leader has heard from every leader, each of
 * which had heard from every rank of its node.  No slot data, so a rank
 * waits only for its own DONE of the slot's use NODE_SLOTS earlier (an
 * outstanding nonblocking call of its own, which must set its flags
 * there first: flags only grow); a leader sets REDUCED of a later use of
 * the slot only once every rank has said READY there, i.e. has left this
 * call.
 *
 * Memory traffic: none (flags only).
 *
 * Cost (COST_FORMULA below): 2 s + T_flat(over N leaders), s a flag
 * hand-off (the leader's L-1 waits overlap).
 */
#include <stdlib.h>

#include "../common/node_phases.h"

COST_FORMULA(barrier, node_leader,
             "2 s + T_flat(over N leaders); s a flag hand-off between the cores of a node");

int barrier_node_leader_build(const struct sched_params *p, struct schedule *s)
{
    struct node_view v;
    node_view_init(&v, p);
    if (v.N > 1 && !p->inner)
        return -1;
    /* Its own flags of this slot only grow: a nonblocking call of its own
     * that took the slot's use NODE_SLOTS earlier may not have run yet,
     * and would store a lower epoch over these (its waiters would then
     * wait for ever).  The others' earlier uses need no wait: no data. */
    sched_flag_wait(s, 0, node_flag(v.li, NODE_DONE), -NODE_SLOTS);
    node_set(s, &v, 0, NODE_READY);
    if (v.li == 0) {
        node_wait(s, &v, 0, NODE_READY, 1, v.L - 1);
        if (v.N > 1) {
            int *leaders = malloc((size_t)v.N * sizeof *leaders);
            if (!leaders)
                return -1;
            for (int n = 0; n < v.N; n++)
                leaders[n] = node_rank(&v, n, 0);
            struct sched_params sub = node_sub_params(p, 0);
            sub.rank = v.node, sub.size = v.N;
            const int rc = node_embed(s, p->inner, &sub, leaders, 0, BUF_TMP, 0, BUF_TMP, 0);
            free(leaders);
            if (rc != 0)
                return -1;
        }
        node_set(s, &v, 0, NODE_REDUCED);
    } else {
        node_wait(s, &v, 0, NODE_REDUCED, 0, 1);
    }
    /* the slot's protocol: every use ends with every rank's DONE, which
     * the next call to write into this slot (a bcast's, a reduction's)
     * waits for */
    node_set(s, &v, 0, NODE_DONE);
    sched_round(s);
    s->shm_epochs = 1;
    return s->oom ? -1 : 0;
}

double barrier_node_leader_cost(const struct sched_params *p, const struct cost_params *m)
{
    struct sched_params sub = node_sub_params(p, 0);
    sub.size = p->layout->n_nodes;
    /* (the flat barrier's cost counts its messages' overhead) */
    return 2 * m->shm_alpha + (sub.size > 1 && p->inner_cost ? p->inner_cost(&sub, m) : 0);
}
