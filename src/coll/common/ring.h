/*
 * The ring reduce-scatter fragment (patterns/ring.h), shared by the ring
 * reduce_scatter and the ring allreduce.
 */
#ifndef COLIBRI_COMMON_RING_H
#define COLIBRI_COMMON_RING_H

#include "partial.h"

/* Segment length in elements: the call's, or 64 KiB worth by default. */
int64_t ring_segment(const struct sched_params *p);

/*
 * Reduce-scatters the blocks of the input in `in_buf` (block j at displs[j],
 * displs[p] the total) so that `mine` (my block's input and where its sum
 * goes) ends up holding the sum of block `rank`.  Blocks longer than `seg`
 * elements go round in segments, one whole ring per segment.
 * Uses 2 min(seg, largest block) elements of BUF_TMP.
 */
void ring_reduce_scatter(struct schedule *s, int rank, int p, const int64_t *displs, int64_t seg,
                         int in_buf, struct partial *mine);

#endif
