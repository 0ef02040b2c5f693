/*
 * Reduce-scatter by pairwise exchange: at step i (1..p-1) each rank sends
 * its share of block rank+i straight to that rank and receives the share of
 * its own block from rank-i, which it adds in.  Every share travels once,
 * directly to its owner, and no rank waits on a chain: p-1 independent
 * exchanges, good for long vectors and any p, any counts.
 *
 * Cost (COST_FORMULA below, reduce_scatter's and reduce_scatter_block's):
 * p-1 steps of one message each way, paced by the largest block.
 *
 * Shares arrive in the order rank-1, rank-2, ...: commutative operations
 * only.
 */
#include <stdlib.h>

#include "../../patterns/ring.h"
#include "../algorithm.h"
#include "../common/partial.h"

COST_FORMULA(reduce_scatter, pairwise,
             "(p-1)(a + c b + c g), c largest block bytes; (p-1) a + (p-1)/p n b + (p-1)/p n g for "
             "equal blocks");
COST_FORMULA(reduce_scatter_block, pairwise, "(p-1) a + (p-1)/p n b + (p-1)/p n g");

int reduce_scatter_pairwise_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank;
    int64_t *displs = malloc(((size_t)size + 1) * sizeof *displs);
    if (!displs)
        return -1;
    ring_displs(p->counts, size, displs);
    struct partial mine = rs_partial(p, displs);
    for (int i = 1; i < size; i++) {
        int to = ring_shift(rank, size, i), from = ring_shift(rank, size, -i);
        sched_send(s, to, BUF_SEND, displs[to], p->counts[to]);
        partial_recv(s, &mine, from, p->counts[rank], false, true, BUF_TMP, 0);
        sched_round(s);
    }
    rs_finish(s, p, &mine);
    free(displs);
    return s->oom ? -1 : 0;
}

double reduce_scatter_pairwise_cost(const struct sched_params *p, const struct cost_params *m)
{
    int64_t c = ring_max_count(p->counts, p->size);
    double cb = (double)c * (double)p->elem_size;
    return (p->size - 1) * (m->alpha + cb * (m->beta + m->gamma));
}
