/*
 * Scan (inclusive prefix reduction) by recursive doubling, after Hillis and
 * Steele: in round k every rank r sends its partial, the combination of
 * ranks [max(0, r-2^k+1), r], to r + 2^k and combines the one it receives
 * from r - 2^k on its left (patterns/scan.h).  After ceil(lg p) rounds rank
 * r holds x_0 (op) ... (op) x_r.  Latency-optimal for short vectors.
 *
 * Cost (COST_FORMULA below): ceil(lg p) rounds, each sending, receiving
 * and combining the whole vector of n bytes on the busiest rank (p - 1).
 * About p lg p messages in all, and ranks combine up to lg p times: the
 * up-down sweep does less work, in twice the rounds.
 *
 * Every received partial covers the ranks just below the receiver's own
 * interval and is the left operand, so non-commutative operations get rank
 * order.  Each rank's bracketing depends only on p and its rank.
 */
#include "../../patterns/scan.h"
#include "../algorithm.h"
#include "../common/scan.h"

COST_FORMULA(scan, recursive_doubling,
             "ceil(lg p)(a + n b + n g); across nodes b in round k x the ranks of a node sending "
             "off it at once at distance 2^k (cost_port_share)");

int scan_recursive_doubling_build(const struct sched_params *p, struct schedule *s)
{
    if (!p->in_place)
        sched_copy(s, BUF_SEND, 0, BUF_RECV, 0, p->count);
    sched_round(s);
    scan_rd_rounds(s, p->rank, p->size, 0, p->count);
    return s->oom ? -1 : 0;
}

double scan_recursive_doubling_cost(const struct sched_params *p, const struct cost_params *m)
{
    const double nb = (double)p->count * (double)p->elem_size;
    /* every rank sends at once: on 16-rank nodes the rounds from distance
     * 16 on push all 16 vectors through the node's one port */
    return scan_levels(p->size) * (m->alpha + nb * m->gamma) + nb * m->beta * cost_scan_port_rounds(p);
}
