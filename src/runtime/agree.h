/* Agreements between a communicator's ranks, for selection (agree.c). */
#ifndef COLIBRI_AGREE_H
#define COLIBRI_AGREE_H

#include "call.h"

/* The elementwise maximum of `count` `dt` values over the communicator's
 * ranks, in place, for the agreements selection needs (agree.c says how):
 * one allreduce for all of them (an alltoallv's block sizes, a sparse
 * input's profile).  `dt` is an 8-byte predefined type: MPI_INT64_T or
 * MPI_DOUBLE. */
int agree_max_n(struct comm_state *cs, MPI_Datatype dt, void *value, int64_t count);
/* agree_max_n as a call and schedule (`s` initialised) to run later:
 * nonblocking calls step it like any other schedule. */
int agree_max_prepare(struct comm_state *cs, MPI_Datatype dt, void *value, int64_t count,
                      struct coll_call *c, struct schedule *s);

#endif
