/*
 * Alltoall by throttled linear exchange (MPICH's "scattered" with its bblock
 * throttle): the p-1 exchanges of the pairwise schedule, shift i sending to
 * rank + i and receiving from rank - i, posted W shifts per round.  Windows
 * keep many transfers in flight, and spread over the destinations (every
 * rank starts at a different one), without flooding a rank with p-1
 * unexpected messages at once.
 *
 * W = the radix (COLIBRI_RADIX), or 32 by default: MPICH's default
 * MPIR_CVAR_ALLTOALL_THROTTLE, a window that already keeps the network busy
 * with medium blocks while bounding the requests and unexpected messages
 * per round.  W >= p-1 is the plain linear exchange.
 *
 * Cost (COST_FORMULA below): ceil((p-1)/W) rounds whose messages' latencies
 * overlap; each message still costs the processor o at both ends (see
 * common/exchange.h).
 *
 * In place: the input blocks whose slot is received into no later than the
 * round they leave in are copied to TMP first (common/exchange.h).
 */
#include "../algorithm.h"
#include "../common/exchange.h"

COST_FORMULA(alltoall, scattered, "ceil((p-1)/W) a + (p-1)(2 o + c b), W = radix (32)");

int alltoall_scattered_build(const struct sched_params *p, struct schedule *s)
{
    return exchange_build(p, s, p->radix > 0 ? p->radix : 32);
}

double alltoall_scattered_cost(const struct sched_params *p, const struct cost_params *m)
{
    return exchange_cost(p, m, p->radix > 0 ? p->radix : 32);
}
