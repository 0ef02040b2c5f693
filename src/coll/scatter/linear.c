/*
 * Scatter by linear exchange: the root posts its p-1 sends in one round,
 * each rank's block straight to it (Open MPI's basic_linear).  No scratch
 * and no forwarding, every block crosses the network once; but the root
 * pays for p-1 messages.
 *
 * Cost (COST_FORMULA below): one latency, a receiver's overhead, and the
 * longer of the root's p-1 send overheads one after the other and the p-1
 * blocks through its link and the first send's overhead, which overlap (as for
 * the linear gather: SimGrid SMPI, 1024 ranks, 64 KiB blocks, 5294 us,
 * the link's bytes alone).
 *
 * Bytes (schedule.h): the root's SEND holds block j at j c; RECV is a
 * rank's own block (at the root, in place, its block stays in SEND).
 */
#include "../algorithm.h"

COST_FORMULA(scatter, linear, "a + o + max((p-1) o, (p-1) c b + o), c block bytes");

int scatter_linear_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, root = p->root;
    const int64_t c = p->count;
    if (p->rank != root) {
        sched_recv(s, root, BUF_RECV, 0, c);
    } else {
        for (int i = 1; i < size; i++) { /* from the rank after the root on */
            const int j = (root + i) % size;
            sched_send(s, j, BUF_SEND, (int64_t)j * c, c);
        }
        if (!p->in_place)
            sched_copy(s, BUF_SEND, (int64_t)root * c, BUF_RECV, 0, c);
    }
    sched_round(s);
    return s->oom ? -1 : 0;
}

double scatter_linear_cost(const struct sched_params *p, const struct cost_params *m)
{
    return cost_linear_rooted(p, m, NULL);
}
