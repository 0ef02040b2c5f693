/*
 * Broadcast down a binary tree in segments (patterns/pipeline.h): the ranks
 * counted from the root form a complete binary tree in heap order (x's
 * children 2x+1 and 2x+2), the buffer is cut into k segments of s bytes
 * (s from COLIBRI_SEGMENT_BYTES, else 64 KiB), and each rank receives
 * segment j from its parent while it passes segment j-1 to both children
 * (common/pipeline.h).  The pipe fills in floor(lg p) steps instead of the
 * chain's p-1, for twice the bytes out of every inner rank: the
 * long-message choice at large p, where neither the chain's fill nor the
 * scatter-allgather's p-1 ring steps nor the binomial tree's whole buffer
 * per level pays.
 *
 * Cost (COST_FORMULA below): segment j reaches a rank d levels down at
 * step j + d - 1, so the deepest (d = floor(lg p)) has the last of them
 * after k + d - 1 steps; in a step an inner rank takes one message in and
 * sends c = min(2, p-1), c + 1 overheads, and its link carries c segments.
 * k counts at least one segment (see bcast/pipeline.c).
 *
 * Bytes (schedule.h): the buffer is RECV on every rank, the root's too.
 */
#include "../../patterns/pipeline.h"
#include "../algorithm.h"
#include "../common/pipeline.h"

COST_FORMULA(bcast, binary_tree,
             "(k + floor(lg p) - 1)(a + (c+1) o + c s b), c = min(2, p-1) children, s = min(n, "
             "segment) bytes (segment 64 KiB, COLIBRI_SEGMENT_BYTES), k = max(1, ceil(n/s)) "
             "segments, n buffer bytes; 0 for p = 1");

int bcast_binary_tree_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, x = (p->rank - p->root + size) % size;
#define ABS(rel) (((rel) + p->root) % size)
    const int parent = x ? ABS(pipe_tree_parent(x)) : -1;
    int children[2], n = 0;
    for (int i = 0; i < 2; i++)
        if (pipe_tree_child(x, i, size) >= 0)
            children[n++] = ABS(pipe_tree_child(x, i, size));
    pipeline_bcast(s, parent, children, n, p->count, pipeline_segment(p));
#undef ABS
    return s->oom ? -1 : 0;
}

double bcast_binary_tree_cost(const struct sched_params *p, const struct cost_params *m)
{
    return pipeline_cost(p, m, pipe_tree_depth(p->size - 1), p->size > 2 ? 2 : 1);
}
