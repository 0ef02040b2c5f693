/*
 * Exscan along a pipelined chain: rank r receives segment c of the prefix
 * [0, r-1] from r - 1, which is its result, and passes segment c of that
 * prefix combined with its own input (on the right) to r + 1 in the next
 * round.  Rank 0 sends its input as it is and its receive buffer is not
 * touched.  In place, a rank that passes on receives into scratch, as its
 * input is still in its receive buffer.
 *
 * Cost (COST_FORMULA below): scan's chain (coll/scan/linear.c), the same
 * p + k - 2 rounds; rank p - 1 combines nothing.
 */
#include "../algorithm.h"
#include "../common/ring.h"
#include "../common/scan.h"

COST_FORMULA(exscan, linear,
             "(p + k - 2)(a + s b + s g), k = ceil(n/segment) segments of s bytes (segment 64 "
             "KiB, COLIBRI_SEGMENT_BYTES); 0 for p = 1");

int exscan_linear_build(const struct sched_params *p, struct schedule *s)
{
    scan_chain_build(p, s, ring_segment(p), true);
    return s->oom ? -1 : 0;
}

double exscan_linear_cost(const struct sched_params *p, const struct cost_params *m)
{
    return scan_linear_cost(p, m);
}
