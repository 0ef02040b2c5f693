/*
 * Allreduce by a ring: the vector is cut into p blocks; a ring
 * reduce-scatter (p-1 steps) leaves each rank the sum of its block, and a
 * ring allgather (p-1 steps) passes the sums round.  Every step every rank
 * sends and receives one block, so the links stay busy with no rank
 * carrying more than its share: bandwidth-optimal for long vectors, at the
 * price of 2(p-1) latencies.
 *
 * Cost (COST_FORMULA below): each of the reduce-scatter's p-1 steps sends,
 * receives and reduces one block of c = ceil(n/p) bytes in k = ceil(c /
 * segment) segments (1 for short vectors), a latency each; each of the
 * allgather's p-1 steps passes one block whole.
 *
 * Each block is summed along the ring starting from its owner's right
 * neighbour and wrapping past rank p-1, so commutative operations only.
 */
#include <stdlib.h>

#include "../../patterns/ring.h"
#include "../algorithm.h"
#include "../common/ring.h"

COST_FORMULA(allreduce, ring,
             "(p-1)((k+1) a + 2 c b + c g), c = ceil(n/p) block bytes, k = ceil(c/segment) "
             "segments (segment 64 KiB, COLIBRI_SEGMENT_BYTES); 2(p-1) a + 2(p-1)/p n b + (p-1)/p "
             "n g when p divides n and k = 1");

int allreduce_ring_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank;
    int64_t *displs = malloc(((size_t)size + 1) * sizeof *displs);
    if (!displs)
        return -1;
    for (int j = 0; j <= size; j++)
        displs[j] = ring_even_offset(p->count, size, j);

    struct partial mine = partial_make(BUF_SEND, displs[rank], BUF_RECV, displs[rank], p->in_place);
    ring_reduce_scatter(s, rank, size, displs, ring_segment(p), BUF_SEND, &mine);

    for (int step = 0; step < size - 1; step++) {
        int xb = ring_ag_send_block(rank, size, step), yb = ring_ag_recv_block(rank, size, step);
        sched_send(s, ring_shift(rank, size, 1), BUF_RECV, displs[xb], displs[xb + 1] - displs[xb]);
        sched_recv(s, ring_shift(rank, size, -1), BUF_RECV, displs[yb], displs[yb + 1] - displs[yb]);
        sched_round(s);
    }
    free(displs);
    return s->oom ? -1 : 0;
}

double allreduce_ring_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int size = p->size;
    int64_t b = ring_even_count(p->count, size, 0);
    if (size == 1 || b == 0)
        return 0;
    double k = (double)ring_nsegments(b, ring_segment(p));
    double bb = (double)b * (double)p->elem_size;
    return (size - 1) * (k * m->alpha + bb * (m->beta + m->gamma)) +
           (size - 1) * (m->alpha + bb * m->beta);
}
