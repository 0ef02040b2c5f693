/*
 * Broadcast as a scatter followed by an allgather (van de Geijn; Barnett
 * et al. 1994): the buffer is cut into p chunks of n/p bytes (sizes
 * differing by at most one, patterns/ring.h), chunk x for the rank x
 * places after the root; a binomial tree over those relative ranks
 * scatters them (each rank receives its subtree's chunks from its parent
 * and hands each child its subtree's, patterns/blocks.h), then a ring
 * allgather of the chunks over the relative ranks completes every buffer.
 * Each rank receives about 2 n bytes instead of the binomial tree's n
 * ceil(lg p) on the root's critical path: the long-message choice.
 *
 * Cost (COST_FORMULA below): the scatter, ceil(lg p) rounds in which the
 * root sends n/2, n/4, ... (p-1)/p n in all; the ring, p-1 rounds of one
 * chunk.
 *
 * Bytes (schedule.h): the buffer is RECV on every rank.
 */
#include "../../patterns/blocks.h"
#include "../../patterns/fold.h"
#include "../../patterns/ring.h"
#include "../algorithm.h"

COST_FORMULA(bcast, scatter_allgather,
             "(ceil(lg p) + p - 1)(a + 2 o) + 2 (p-1)/p n b, n buffer bytes");

int bcast_scatter_allgather_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, root = p->root, x = (p->rank - root + size) % size;
    const int64_t n = p->count;
#define ABS(rel) (((rel) + root) % size)
#define OFF(chunk) ring_even_offset(n, size, chunk)
    /* scatter: from my parent, my subtree's chunks */
    const int lb = blocks_lowbit(x, size), end = blocks_subtree_end(x, size);
    if (x) {
        sched_recv(s, ABS(x - lb), BUF_RECV, OFF(x), OFF(end) - OFF(x));
        sched_round(s);
    }
    for (int c = lb / 2; c >= 1; c /= 2) { /* largest subtree first */
        const int child = x + c;
        if (child >= size)
            continue;
        const int cend = blocks_subtree_end(child, size);
        sched_send(s, ABS(child), BUF_RECV, OFF(child), OFF(cend) - OFF(child));
        sched_round(s);
    }
    /* ring allgather of the chunks over the relative ranks */
    const int next = ABS(ring_shift(x, size, 1)), prev = ABS(ring_shift(x, size, -1));
    for (int step = 0; step < size - 1; step++) {
        const int sb = ring_ag_send_block(x, size, step), rb = ring_ag_recv_block(x, size, step);
        sched_send(s, next, BUF_RECV, OFF(sb), ring_even_count(n, size, sb));
        sched_recv(s, prev, BUF_RECV, OFF(rb), ring_even_count(n, size, rb));
        sched_round(s);
    }
#undef ABS
#undef OFF
    return s->oom ? -1 : 0;
}

double bcast_scatter_allgather_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int size = p->size;
    const double n = (double)p->count;
    return (ceil_log2(size) + size - 1) * (m->alpha + 2 * m->o) +
           2.0 * (size - 1) / size * n * m->beta;
}
