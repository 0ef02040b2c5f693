/*
 * Reduce-scatter by a ring, for any per-rank counts (zeros included): at
 * step s (0..p-2) each rank passes block rank-s-1 on to rank+1 and adds its
 * share to block rank-s-2 coming from rank-1; after p-1 steps it holds the
 * sum of its own block.  Each step moves one block per link, so it is
 * bandwidth-optimal whatever p is; long blocks go round in segments.
 *
 * Cost (COST_FORMULA below, reduce_scatter's and reduce_scatter_block's):
 * p-1 steps, each passing the largest block in k segments, a latency each.
 *
 * Blocks are summed starting from the owner's right neighbour, wrapping
 * past rank p-1: commutative operations only.
 */
#include <stdlib.h>

#include "../../patterns/ring.h"
#include "../algorithm.h"
#include "../common/ring.h"

COST_FORMULA(reduce_scatter, ring,
             "(p-1)(k a + c b + c g), c largest block bytes, k = ceil(c/segment) segments (segment "
             "64 KiB, COLIBRI_SEGMENT_BYTES); (p-1) a + (p-1)/p n b + (p-1)/p n g for equal blocks "
             "and k = 1");
COST_FORMULA(reduce_scatter_block, ring,
             "(p-1)(k a + n/p b + n/p g), k = ceil(n/p/segment) segments (segment 64 KiB, "
             "COLIBRI_SEGMENT_BYTES); (p-1) a + (p-1)/p n b + (p-1)/p n g when k = 1");

int reduce_scatter_ring_build(const struct sched_params *p, struct schedule *s)
{
    int64_t *displs = malloc(((size_t)p->size + 1) * sizeof *displs);
    if (!displs)
        return -1;
    ring_displs(p->counts, p->size, displs);
    struct partial mine = rs_partial(p, displs);
    ring_reduce_scatter(s, p->rank, p->size, displs, ring_segment(p), BUF_SEND, &mine);
    rs_finish(s, p, &mine);
    free(displs);
    return s->oom ? -1 : 0;
}

double reduce_scatter_ring_cost(const struct sched_params *p, const struct cost_params *m)
{
    int64_t c = ring_max_count(p->counts, p->size);
    if (p->size == 1 || c == 0)
        return 0;
    double k = (double)ring_nsegments(c, ring_segment(p));
    double cb = (double)c * (double)p->elem_size;
    return (p->size - 1) * (k * m->alpha + cb * (m->beta + m->gamma));
}
