/*
 * Exscan (exclusive prefix reduction) by recursive doubling, as MPICH's:
 * every rank keeps two combinations, its partial [max(0, r-2^k+1), r]
 * (its own input included), which it sends to r + 2^k in round k, and its
 * result [max(0, r-2^k+1), r-1] (without it).  What arrives from r - 2^k
 * covers the ranks just below both and is combined on the left of each.
 * Rank 0 receives nothing and its receive buffer is not touched (MPI
 * leaves it undefined).
 *
 * Cost (COST_FORMULA below): ceil(lg p) rounds of the whole vector; a rank
 * combines twice per round (result and partial), except where no later
 * round needs its partial (r + 2^(k+1) >= p, the last round always) and in
 * round 0, where the result is a copy.  As a bound, 2 n g per round.
 *
 * Left operands only, so non-commutative operations keep rank order.
 */
#include "../../patterns/scan.h"
#include "../algorithm.h"

COST_FORMULA(exscan, recursive_doubling,
             "ceil(lg p)(a + n b + 2 n g); across nodes b as scan recursive_doubling's "
             "(cost_port_share)");

int exscan_recursive_doubling_build(const struct sched_params *p, struct schedule *s)
{
    const int rank = p->rank, size = p->size;
    const int64_t n = p->count;
    bool have_result = false;
    for (int k = 0; k < scan_levels(size); k++) {
        const int to = scan_rd_to(rank, size, k), from = scan_rd_from(rank, k);
        /* the partial is sent in a later round k' > k only if rank + 2^k' < p */
        const bool partial_needed = (int64_t)rank + ((int64_t)2 << k) < size;
        if (to >= 0)
            sched_send(s, to, k == 0 ? BUF_SEND : BUF_TMP, 0, n);
        if (k == 0 && partial_needed) { /* before BUF_RECV is written (in place) */
            sched_need_tmp(s, BUF_TMP, n);
            sched_copy(s, BUF_SEND, 0, BUF_TMP, 0, n);
        }
        if (from >= 0) {
            sched_need_tmp(s, BUF_TMP2, n);
            sched_recv(s, from, BUF_TMP2, 0, n);
            if (partial_needed)
                sched_reduce(s, BUF_TMP2, 0, BUF_TMP, 0, n, 0);
            if (have_result)
                sched_reduce(s, BUF_TMP2, 0, BUF_RECV, 0, n, 0);
            else
                sched_copy(s, BUF_TMP2, 0, BUF_RECV, 0, n);
            have_result = true;
        }
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double exscan_recursive_doubling_cost(const struct sched_params *p, const struct cost_params *m)
{
    const double nb = (double)p->count * (double)p->elem_size;
    /* the node's port shared as in scan's recursive doubling */
    return scan_levels(p->size) * (m->alpha + 2 * nb * m->gamma) +
           nb * m->beta * cost_scan_port_rounds(p);
}
