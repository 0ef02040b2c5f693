/*
 * Allgather by a ring: at step s (0..p-2) each rank passes block rank - s
 * on to rank + 1 and receives block rank - s - 1 from rank - 1
 * (patterns/ring.h), straight into the output.  Every block travels p-1
 * hops, one block per message: the long-block choice, where the p-1
 * latencies are small against the bytes and every link carries the same.
 *
 * Cost (COST_FORMULA below, every rank alike): p-1 rounds of one message
 * each way of one block c.
 *
 * Bytes (schedule.h): block j of RECV at j c; not in place, the rank's
 * own block is first copied from SEND to its place, in place it is there.
 */
#include "../../patterns/ring.h"
#include "../algorithm.h"

COST_FORMULA(allgather, ring,
             "(p-1)(a + 2 o + c b), c block bytes; b x L on nodes of interleaved ranks, whose "
             "L ranks all send off the node at once (cost_port_share)");

int allgather_ring_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank;
    const int64_t b = p->count;
    const int next = ring_shift(rank, size, 1), prev = ring_shift(rank, size, -1);
    if (!p->in_place) {
        sched_copy(s, BUF_SEND, 0, BUF_RECV, rank * b, b);
        sched_round(s);
    }
    for (int step = 0; step < size - 1; step++) {
        sched_send(s, next, BUF_RECV, ring_ag_send_block(rank, size, step) * b, b);
        sched_recv(s, prev, BUF_RECV, ring_ag_recv_block(rank, size, step) * b, b);
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double allgather_ring_cost(const struct sched_params *p, const struct cost_params *m)
{
    return (p->size - 1) * (m->alpha + 2 * m->o + (double)p->count * m->beta * cost_port_share(p, 1));
}
