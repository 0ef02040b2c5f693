/*
 * The node-aware scan and exscan (coll/scan/node_leader.c,
 * coll/exscan/node_leader.c), one schedule for both.
 */
#ifndef COLIBRI_NODE_SCAN_H
#define COLIBRI_NODE_SCAN_H

#include <stdbool.h>

#include "../algorithm.h"

/* The schedule of rank p->rank; exclusive: an exscan. */
int node_scan_build(const struct sched_params *p, struct schedule *s, bool exclusive);
/* Its cost, scan or exscan (the formulas in coll/scan/node_leader.c,
 * coll/exscan/node_leader.c). */
double node_scan_cost(const struct sched_params *p, const struct cost_params *m);

#endif
