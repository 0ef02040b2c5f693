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

/* Segments of a buffer of n bytes as the cost models count them: at least
 * one (an empty buffer still costs the tree's latency in the model, so
 * that it never wins there). */
int64_t pipeline_model_segments(const struct sched_params *p);

/* Round j (0..k) receives segment j from `parent` (none for the root,
 * parent < 0) and sends segment j - 1 (the root: segment j) to each of the
 * n_children `children`, all in BUF_RECV at their own offsets. */
void pipeline_bcast(struct schedule *s, int parent, const int *children, int n_children,
                    int64_t n, int64_t seg);

#endif
