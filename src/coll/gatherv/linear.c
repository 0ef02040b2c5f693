/*
 * Gatherv by linear exchange: every other rank sends its block straight to
 * the root, which posts all its receives in one round, each block at its
 * own displacement; empty blocks send nothing at either end (the root
 * knows every size, a rank its own).  The honest default for gatherv: only
 * the root has recvcounts, so no other rank knows the size of anyone
 * else's block, and a tree, whose inner ranks forward their subtrees'
 * blocks, would need those sizes sent along first.
 *
 * Cost (COST_FORMULA below): one latency, a sender's overhead, and the
 * longer of the root's p-1 receive overheads one after the other and the
 * other blocks' bytes through the root's link and the last one's
 * overhead, which overlap (gather/linear.c; cost_linear_rooted) (known at the
 * root; elsewhere, and to selection, which only reads what every rank
 * knows, taken as p-1 blocks of this rank's size).
 *
 * Bytes (schedule.h): `count` is this rank's block; at the root,
 * rcounts[j] and rdispls[j] are block j's bytes and offset in RECV
 * (elsewhere NULL); not in place, the root's own block is copied from
 * SEND to its place.
 */
#include "../algorithm.h"

COST_FORMULA(gatherv, linear, "a + o + max((p-1) o, n b + o), n the other ranks' blocks' bytes");

int gatherv_linear_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, root = p->root;
    if (p->rank != root) {
        sched_send(s, root, BUF_SEND, 0, p->count);
    } else {
        const int64_t *n = p->rcounts, *d = p->rdispls;
        for (int i = 1; i < size; i++) { /* from the rank after the root on */
            const int j = (root + i) % size;
            sched_recv(s, j, BUF_RECV, d[j], n[j]);
        }
        if (!p->in_place)
            sched_copy(s, BUF_SEND, 0, BUF_RECV, d[root], n[root]);
    }
    sched_round(s);
    return s->oom ? -1 : 0;
}

double gatherv_linear_cost(const struct sched_params *p, const struct cost_params *m)
{
    return cost_linear_rooted(p, m, p->rcounts);
}
