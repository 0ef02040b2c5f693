/*
 * Alltoall by pairwise exchange: at step i (1..p-1) each rank sends its
 * block for rank + i straight to it and receives its block from rank - i.
 * Every byte travels once and directly, p-1 rounds of one message each way:
 * the long-block choice, for any p (common/exchange.h has the schedule and
 * why shifts rather than XOR pairs).
 *
 * Cost (COST_FORMULA below): p-1 rounds of one message each way.
 *
 * In place: the blocks of steps i >= p/2 would be overwritten (by step p-i)
 * before they leave, so they go out from a TMP copy; the rest are sent from
 * RECV and every block is received straight into RECV.
 */
#include "../algorithm.h"
#include "../common/exchange.h"

COST_FORMULA(alltoall, pairwise, "(p-1)(a + 2 o + c b), c block bytes");

int alltoall_pairwise_build(const struct sched_params *p, struct schedule *s)
{
    return exchange_build(p, s, 1);
}

double alltoall_pairwise_cost(const struct sched_params *p, const struct cost_params *m)
{
    return exchange_cost(p, m, 1);
}
