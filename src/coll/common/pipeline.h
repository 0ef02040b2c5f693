/*
 * The pipelined broadcast fragment shared by bcast/pipeline.c (a chain) and
 * bcast/binary_tree.c (a binary tree): the buffer cut into segments of
 * `seg` bytes (the last shorter), received from the parent one segment a
 * round while the previous one goes on to the children
 * (patterns/pipeline.h).
 */
#ifndef COLIBRI_COMMON_PIPELINE_H
#define COLIBRI_COMMON_PIPELINE_H

#include "../algorithm.h"

/* The segment in bytes: the call's (COLIBRI_SEGMENT_BYTES, a tuning rule),
 * else 64 KiB, as the ring reductions cut theirs (common/ring.h). */
int64_t pipeline_segment(const struct sched_params *p);

/* The cost of the pipeline down a tree `depth` hops deep whose inner ranks
 * have `children` children: k + depth - 1 steps (patterns/pipeline.h), each
 * a message in and `children` out and a segment of s = min(n, segment)
 * bytes to each child.  k counts at least one segment: an empty buffer
 * still costs the tree's latency in the model (the schedule sends nothing
 * then), so that the pipeline never wins there.  0 for p = 1. */
double pipeline_cost(const struct sched_params *p, const struct cost_params *m, int depth,
                     int children);

/* Round j (0..k) receives segment j from `parent` (none for the root,
 * parent < 0) and sends segment j - 1 (the root: segment j) to each of the
 * n_children `children`, all in BUF_RECV at their own offsets. */
void pipeline_bcast(struct schedule *s, int parent, const int *children, int n_children,
                    int64_t n, int64_t seg);

#endif
