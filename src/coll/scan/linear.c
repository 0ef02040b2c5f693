/*
 * Scan along a chain, pipelined: rank r receives segment c of the prefix
 * [0, r-1] from r - 1, combines its own input on the right and passes
 * segment c of [0, r] to r + 1 in the next round, while it receives
 * segment c + 1.  The baseline, and the bandwidth-optimal choice for long
 * vectors: every rank sends and receives the vector once.
 *
 * Cost (COST_FORMULA below): with m = ceil(n / segment) segments of s
 * bytes, the last segment leaves rank 0 in round m - 1 and reaches rank
 * p - 1 p - 1 rounds later: p + m - 2 rounds of one segment each (a
 * message in, one out, one combine).  p - 1 latencies: short vectors want
 * recursive doubling.
 */
#include "../algorithm.h"
#include "../common/ring.h"
#include "../common/scan.h"

#include "../../patterns/ring.h"

COST_FORMULA(scan, linear,
             "(p + k - 2)(a + s b + s g), k = ceil(n/segment) segments of s bytes (segment 64 KiB, "
             "COLIBRI_SEGMENT_BYTES); 0 for p = 1");

int scan_linear_build(const struct sched_params *p, struct schedule *s)
{
    scan_chain_build(p, s, ring_segment(p), false);
    return s->oom ? -1 : 0;
}

/* Shared with exscan's chain, which has the same rounds. */
double scan_linear_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int64_t seg = ring_segment(p), k = ring_nsegments(p->count, seg);
    if (p->size < 2 || k == 0)
        return 0;
    const double sb = (double)(p->count < seg ? p->count : seg) * (double)p->elem_size;
    return (double)(p->size + k - 2) * (m->alpha + sb * (m->beta + m->gamma));
}
