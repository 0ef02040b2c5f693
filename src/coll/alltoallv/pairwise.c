/*
 * Alltoallv by pairwise exchange: at step i (1..p-1) each rank sends its
 * block for rank + i and receives the one from rank - i, byte counts and
 * offsets from scounts/sdispls/rcounts/rdispls.  One message each way per
 * step, every byte once and directly; zero-byte blocks send nothing, so a
 * step with both empty costs nothing.
 *
 * Cost (COST_FORMULA below; c the largest block in bytes, p->count): p-1
 * rounds of one message each way, the L ranks of a node sharing its link.
 *
 * In place (SEND is RECV, s* = r*): the blocks of steps i >= p/2 would be
 * overwritten (by step p-i) before they leave, so they are staged in TMP
 * first; the others are sent from where they are (common/exchange.h).
 */
#include "../algorithm.h"
#include "../common/exchange.h"

COST_FORMULA(alltoallv, pairwise,
             "(p-1)(a + 2 o + L c b), c largest block bytes, L most ranks per node");

int alltoallv_pairwise_build(const struct sched_params *p, struct schedule *s)
{
    return exchange_build(p, s, 1);
}

double alltoallv_pairwise_cost(const struct sched_params *p, const struct cost_params *m)
{
    return exchange_cost(p, m, 1);
}
