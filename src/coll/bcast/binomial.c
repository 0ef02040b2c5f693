/*
 * Broadcast down a binomial tree over ranks relative to the root
 * (common/binomial.h, btree_rotated): a rank receives the whole buffer from
 * its parent, then sends it to its children, the largest subtree first.
 * ceil(lg p) rounds on the critical path, every message the whole buffer:
 * the short-message choice.
 *
 * Cost (COST_FORMULA below): ceil(lg p)(a + 2 o + n b), n the buffer's
 * bytes (the root sends ceil(lg p) messages one after the other).
 *
 * Bytes (schedule.h): the buffer is RECV on every rank, the root's too.
 */
#include "../../patterns/fold.h"
#include "../algorithm.h"
#include "../common/binomial.h"

COST_FORMULA(bcast, binomial, "ceil(lg p)(a + 2 o + n b), n buffer bytes");

int bcast_binomial_build(const struct sched_params *p, struct schedule *s)
{
    const struct btree t = btree_rotated(p->size, p->root);
    binomial_bcast(s, &t, p->rank, BUF_RECV, 0, p->count);
    return s->oom ? -1 : 0;
}

double bcast_binomial_cost(const struct sched_params *p, const struct cost_params *m)
{
    return ceil_log2(p->size) * (m->alpha + 2 * m->o + (double)p->count * m->beta);
}
