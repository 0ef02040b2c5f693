/*
 * The schedule and cost that allreduce and reduce node_rails share
 * (coll/allreduce/node_rails.c derives both): the node's inputs combined
 * through its segment, then the nodes in groups of up to K, K - 1 <= R
 * ranks of each node exchanging at once (patterns/node_groups.h).
 */
#ifndef COLIBRI_NODE_RAILS_H
#define COLIBRI_NODE_RAILS_H

#include "../algorithm.h"

/* Every rank ends with the result in `final`: BUF_RECV (an allreduce's
 * ranks, a reduce's root) or BUF_TMP2 (scratch: a reduce's other ranks,
 * whose receive buffer MPI leaves unused).  Returns 0, or -1 when out of
 * memory. */
int node_rails_schedule(const struct sched_params *p, struct schedule *s, int final);
double node_rails_cost(const struct sched_params *p, const struct cost_params *m);

#endif
