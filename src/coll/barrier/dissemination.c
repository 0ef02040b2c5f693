/*
 * Barrier by dissemination with radix k (Hensgen, Finkel and Manber 1988;
 * patterns/dissemination.h): in the round of distance D = k^t each rank
 * signals rank + j D and waits for rank - j D, j = 1..k-1 with j D < p.
 * After the round a rank has heard, directly or through others, from the
 * ranks rank - [0, k D): after ceil(log_k p) rounds from every rank, so
 * none leaves before all have entered.  Any p, no folding; k trades
 * rounds against messages per round.
 *
 * Cost (COST_FORMULA below): ceil(log_k p) rounds of zero-byte messages,
 * R of them each way (R as for Bruck's allgather).
 */
#include "../../patterns/dissemination.h"
#include "../../patterns/radix.h"
#include "../algorithm.h"

COST_FORMULA(barrier, dissemination,
             "ceil(log_k p) a + 2 R o, R = sum_{d: k^d < p} min(k-1, ceil(p/k^d)-1), k radix "
             "(COLIBRI_RADIX, else tuned by the model)");

int barrier_dissemination_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank, k = cost_radix(p);
    for (int t = 0; t < dis_rounds(size, k); t++) {
        const long long D = dis_distance(k, t);
        for (int j = 1; j < k && dis_active(size, j, D); j++) {
            sched_signal(s, dis_to(rank, j, D, size));
            sched_await(s, dis_from(rank, j, D, size));
        }
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double barrier_dissemination_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int k = cost_radix(p);
    return dis_rounds(p->size, k) * m->alpha + 2.0 * radix_subrounds(p->size, k) * m->o;
}
