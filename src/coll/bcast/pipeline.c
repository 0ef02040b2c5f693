/*
 * Broadcast down a chain in segments (a pipeline; patterns/pipeline.h): the
 * ranks counted from the root form a chain root -> x=1 -> ... -> x=p-1, the
 * buffer is cut into k segments of s bytes (s from COLIBRI_SEGMENT_BYTES,
 * else 64 KiB), and each rank receives segment j from its predecessor
 * while it passes segment j-1 on (common/pipeline.h).  Every link carries
 * the buffer once and all links work at once, so for long buffers the time
 * tends to n b whatever p: the long-message choice at small p, where the
 * p-2 steps of filling the pipe are cheap.
 *
 * Cost (COST_FORMULA below): segment j reaches relative rank x at step
 * j + x - 1, so the last rank has the last segment after k + p - 2 steps;
 * a step is a message in and one out (a + 2 o) and a segment through a
 * link (s b).  k counts at least one segment, so that an empty buffer is
 * charged the chain's latency (the schedule sends nothing then).
 *
 * Bytes (schedule.h): the buffer is RECV on every rank, the root's too.
 */
#include "../../patterns/pipeline.h"
#include "../algorithm.h"
#include "../common/pipeline.h"

COST_FORMULA(bcast, pipeline,
             "(k + p - 2)(a + 2 o + s b), s = min(n, segment) bytes (segment 64 KiB, "
             "COLIBRI_SEGMENT_BYTES), k = max(1, ceil(n/s)) segments, n buffer bytes; 0 for p = 1");

int bcast_pipeline_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, x = (p->rank - p->root + size) % size;
#define ABS(rel) (((rel) + p->root) % size)
    const int parent = x ? ABS(pipe_chain_parent(x)) : -1, next = ABS(x + 1);
    pipeline_bcast(s, parent, &next, x + 1 < size, p->count, pipeline_segment(p));
#undef ABS
    return s->oom ? -1 : 0;
}

double bcast_pipeline_cost(const struct sched_params *p, const struct cost_params *m)
{
    return pipeline_cost(p, m, pipe_chain_depth(p->size - 1), 1);
}
