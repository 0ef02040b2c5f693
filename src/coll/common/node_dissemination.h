/*
 * Allreduce of a short vector under an idempotent operation over the
 * node's reduction segment, the nodes combining by dissemination spread
 * over the rails (node_dissemination.c says how and what it costs).  Not
 * in the catalog: the agreements of selection (runtime/agree.c), whose
 * maximum of 8-byte integers it serves, call it directly.
 */
#ifndef COLIBRI_NODE_DISSEMINATION_H
#define COLIBRI_NODE_DISSEMINATION_H

#include "../algorithm.h"

/* p: rank, size, count (at most p->node_chunk elements), elem_size, layout,
 * node_chunk; the input is in BUF_RECV (in place) and the result lands
 * there.  Returns 0, or -1 when out of memory. */
int node_dissemination_build(const struct sched_params *p, struct schedule *s);
/* Rounds between nodes: ceil(log_{R+1} N), R the fewest ranks on a node. */
int node_dissemination_rounds(const struct node_layout *l);

#endif
