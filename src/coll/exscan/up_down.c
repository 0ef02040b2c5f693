/*
 * Exscan by a shift and the up-down sweep: every rank r < p-1 sends its
 * input to r + 1 (rank 0's receive buffer is not touched), then ranks
 * 1..p-1 run scan's up-down sweep (coll/scan/up_down.c) on what they
 * received, as positions 0..p-2: rank r ends with x_0 (op) ... (op)
 * x_{r-1}.  Every rank combines at most about ceil(lg p) + 1 times and
 * sends at most as many messages, about 2p in all.
 *
 * Cost (COST_FORMULA below): one round for the shift, then the sweep's
 * rounds over q = p - 1 positions.
 */
#include "../../patterns/scan.h"
#include "../algorithm.h"
#include "../common/scan.h"

COST_FORMULA(exscan, up_down,
             "(a + n b) + (floor(lg q) + D)(a + n b + n g), q = p - 1, D = floor(lg(q/3)) + 1 "
             "(0 for q < 3); 0 for p = 1");

int exscan_up_down_build(const struct sched_params *p, struct schedule *s)
{
    exscan_shift_round(s, p->rank, p->size, p->count, p->in_place);
    if (p->rank > 0)
        scan_sweep_rounds(s, p->rank - 1, p->size - 1, 1, p->count);
    return s->oom ? -1 : 0;
}

double exscan_up_down_cost(const struct sched_params *p, const struct cost_params *m)
{
    if (p->size < 2)
        return 0;
    const double nb = (double)p->count * (double)p->elem_size;
    const int q = p->size - 1;
    const int rounds = scan_sweep_up_rounds(q) + scan_sweep_down_rounds(q);
    return m->alpha + nb * m->beta + rounds * (m->alpha + nb * (m->beta + m->gamma));
}
