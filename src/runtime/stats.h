/* COLIBRI_STATS: which algorithm served how many calls of each form. */
#ifndef COLIBRI_STATS_H
#define COLIBRI_STATS_H

#include "call.h"

/* Statistics (COLIBRI_STATS), per form of the call: MPI_Allreduce,
 * MPI_Iallreduce, MPI_Allreduce_init (counted at each start). */
void stats_count(const struct algorithm *a, colibri_coll coll, enum call_kind kind);
void stats_report(void);
/* An automatic call with nothing to move, which ran nothing ("none"). */
void stats_count_none(colibri_coll coll, enum call_kind kind);
/* Online selection: a call run as exploration; a decision of a shape
 * (`had`: it had settled on `was` before) for `now` (NULL: native), whose
 * exploration cost `extra` seconds over running `now` throughout
 * (online_shape.explore_extra). */
void stats_online_explored(colibri_coll coll);
/* A call that skipped its size agreement (online_turn.h, online_skip_sizes). */
void stats_online_skipped(colibri_coll coll);
void stats_online_decided(colibri_coll coll, bool had, const struct algorithm *was,
                          const struct algorithm *now, double extra);

#endif
