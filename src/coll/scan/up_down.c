/*
 * Scan by an up-down sweep (the work-efficient scan of Blelloch; the
 * binomial-tree prefix of Sanders and Träff): a binomial tree reduces
 * blocks upwards, rank r ending with its block [r+1-lowbit(r+1), r]
 * (lowbit(x) = x & -x); then, from the top level down, every rank that
 * holds its full prefix [0, q] passes it to q + 2^j, which completes its
 * block with it on the left (patterns/scan.h).
 *
 * Cost (COST_FORMULA below): the up-sweep has floor(lg p) levels with
 * messages, the down-sweep D = floor(lg(p/3)) + 1 (0 for p < 3); each level
 * sends and combines the whole vector once on the critical path.  In all
 * about 2p messages and combines against recursive doubling's p lg p: every
 * rank sends at most twice (the up-sweep once, the down-sweep at most
 * ceil(lg p) times only for ranks r with r+1 a multiple of a high power of
 * two), so it suits networks where the messages of all ranks share links.
 *
 * Each message covers the ranks just below the receiver's interval and is
 * combined on the left: rank order for non-commutative operations.
 */
#include "../../patterns/scan.h"
#include "../algorithm.h"
#include "../common/scan.h"

COST_FORMULA(scan, up_down,
             "(floor(lg p) + D)(a + n b + n g), D = floor(lg(p/3)) + 1 down-sweep rounds "
             "(0 for p < 3)");

int scan_up_down_build(const struct sched_params *p, struct schedule *s)
{
    if (!p->in_place)
        sched_copy(s, BUF_SEND, 0, BUF_RECV, 0, p->count);
    sched_round(s);
    scan_sweep_rounds(s, p->rank, p->size, 0, p->count);
    return s->oom ? -1 : 0;
}

double scan_up_down_cost(const struct sched_params *p, const struct cost_params *m)
{
    const double nb = (double)p->count * (double)p->elem_size;
    const int rounds = scan_sweep_up_rounds(p->size) + scan_sweep_down_rounds(p->size);
    return rounds * (m->alpha + nb * (m->beta + m->gamma));
}
