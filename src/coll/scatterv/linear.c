/*
 * Scatterv by linear exchange: the root posts its sends in one round, each
 * rank's block from its own displacement straight to it; empty blocks send
 * nothing at either end (the root knows every size, a rank its own).  The
 * honest default for scatterv: only the root has sendcounts, so no other
 * rank could forward a subtree's blocks without their sizes sent first.
 *
 * Cost (COST_FORMULA below): one latency, a receiver's overhead, and the
 * longer of the root's p-1 send overheads one after the other and the
 * other blocks' bytes through the root's link and the first send's
 * overhead, which overlap (gather/linear.c)
 * (known at the root; elsewhere, and to selection, taken as p-1 blocks of
 * this rank's size).
 *
 * Bytes (schedule.h): `count` is this rank's block; at the root,
 * scounts[j] and sdispls[j] are block j's bytes and offset in SEND
 * (elsewhere NULL); not in place, the root's own block is copied from its
 * place to RECV.
 */
#include "../algorithm.h"

COST_FORMULA(scatterv, linear, "a + o + max((p-1) o, n b + o), n the other ranks' blocks' bytes");

int scatterv_linear_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, root = p->root;
    if (p->rank != root) {
        sched_recv(s, root, BUF_RECV, 0, p->count);
    } else {
        const int64_t *n = p->scounts, *d = p->sdispls;
        for (int i = 1; i < size; i++) { /* from the rank after the root on */
            const int j = (root + i) % size;
            sched_send(s, j, BUF_SEND, d[j], n[j]);
        }
        if (!p->in_place)
            sched_copy(s, BUF_SEND, d[root], BUF_RECV, 0, n[root]);
    }
    sched_round(s);
    return s->oom ? -1 : 0;
}

double scatterv_linear_cost(const struct sched_params *p, const struct cost_params *m)
{
    return cost_linear_rooted(p, m, p->scounts);
}
