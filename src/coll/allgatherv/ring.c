/*
 * Allgatherv by a ring: the ring allgather (allgather/ring.c) with blocks
 * of their own sizes at their own displacements: at step s each rank
 * passes block rank - s on to rank + 1 and receives block rank - s - 1
 * from rank - 1, straight into the output.  Empty blocks send nothing at
 * either end (the sizes are known to all).
 *
 * Cost (COST_FORMULA below): p-1 rounds; a step waits for the largest
 * block moving in it, at most c, the largest block.
 *
 * Bytes (schedule.h): rcounts[j], rdispls[j] are block j's bytes and
 * offset in RECV; not in place, the rank's own block is first copied from
 * SEND (its rcounts[rank] bytes) to its place.
 */
#include "../../patterns/ring.h"
#include "../algorithm.h"

COST_FORMULA(allgatherv, ring,
             "(p-1)(a + 2 o + c b), c largest block bytes; b as allgather ring's");

int allgatherv_ring_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank;
    const int64_t *n = p->rcounts, *d = p->rdispls;
    const int next = ring_shift(rank, size, 1), prev = ring_shift(rank, size, -1);
    if (!p->in_place) {
        sched_copy(s, BUF_SEND, 0, BUF_RECV, d[rank], n[rank]);
        sched_round(s);
    }
    for (int step = 0; step < size - 1; step++) {
        const int sb = ring_ag_send_block(rank, size, step), rb = ring_ag_recv_block(rank, size, step);
        sched_send(s, next, BUF_RECV, d[sb], n[sb]);
        sched_recv(s, prev, BUF_RECV, d[rb], n[rb]);
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double allgatherv_ring_cost(const struct sched_params *p, const struct cost_params *m)
{
    return (p->size - 1) *
           (m->alpha + 2 * m->o + (double)p->volume_max * m->beta * cost_port_share(p, 1));
}
