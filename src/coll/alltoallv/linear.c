/*
 * Alltoallv by linear exchange: every receive and send of the call posted
 * in one round (Open MPI's basic_linear), the baseline SLOAV is measured
 * against.  Blocks are this rank's scounts/sdispls/rcounts/rdispls in bytes;
 * zero-byte blocks send no message.  The p-1 messages are posted in shift
 * order (rank + i, rank - i) so that ranks do not all start on one target.
 *
 * Cost (COST_FORMULA below; c the largest block in bytes, p->count): one
 * round, each message still paying its startup (see common/exchange.h),
 * and the L ranks of a node sending through its link at once.
 *
 * In place (SEND is RECV, s* = r*): every receive is posted before any
 * block has left, so the whole input but the own block is staged in TMP
 * first.
 */
#include "../algorithm.h"
#include "../common/exchange.h"

COST_FORMULA(alltoallv, linear,
             "a + (p-1)(2 o + L c b), c largest block bytes, L most ranks per node (their link is "
             "shared)");

int alltoallv_linear_build(const struct sched_params *p, struct schedule *s)
{
    return exchange_build(p, s, p->size - 1);
}

double alltoallv_linear_cost(const struct sched_params *p, const struct cost_params *m)
{
    return exchange_cost(p, m, p->size > 1 ? p->size - 1 : 1);
}
