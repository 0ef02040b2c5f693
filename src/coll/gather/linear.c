/*
 * Gather by linear exchange: every other rank sends its block straight to
 * the root, which posts all p-1 receives in one round (Open MPI's
 * basic_linear).  No scratch and no forwarding: every block crosses the
 * network once, where the binomial tree hands each through up to
 * ceil(lg p) - 1 ranks between; but the root pays for p-1 messages.
 *
 * Cost (COST_FORMULA below): one latency, a sender's overhead, and the
 * longer of the root's p-1 receive overheads one after the other and the
 * p-1 blocks through its link and the last one's overhead (at p = 2 a
 * message's a + 2 o + c b, as the binomial tree's): the root handles
 * one message while the next streams in (SimGrid SMPI, 1024 ranks, 0.5 us
 * per message: 511 us at 8 B, the overheads; 5286 us at 64 KiB, the
 * link's 67 MB alone), so from c b = o on linear beats the binomial tree,
 * whose store-and-forward adds its ceil(lg p) rounds to the same bytes.
 *
 * Bytes (schedule.h): the root's RECV holds block j at j c; SEND is a
 * rank's own block (at the root, in place, its block is in RECV already).
 */
#include "../algorithm.h"

COST_FORMULA(gather, linear, "a + o + max((p-1) o, (p-1) c b + o), c block bytes");

int gather_linear_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, root = p->root;
    const int64_t c = p->count;
    if (p->rank != root) {
        sched_send(s, root, BUF_SEND, 0, c);
    } else {
        for (int i = 1; i < size; i++) { /* from the rank after the root on */
            const int j = (root + i) % size;
            sched_recv(s, j, BUF_RECV, (int64_t)j * c, c);
        }
        if (!p->in_place)
            sched_copy(s, BUF_SEND, 0, BUF_RECV, (int64_t)root * c, c);
    }
    sched_round(s);
    return s->oom ? -1 : 0;
}

double gather_linear_cost(const struct sched_params *p, const struct cost_params *m)
{
    return cost_linear_rooted(p, m, NULL);
}
