/* Agreements between a communicator's ranks, for selection (agree.c). */
#ifndef COLIBRI_AGREE_H
#define COLIBRI_AGREE_H

#include "call.h"

/* The maximum of one `dt` value over the communicator's ranks, in place:
 * for the agreements selection needs (agree.c says how).  `dt` is an
 * 8-byte predefined type: MPI_INT64_T or MPI_DOUBLE. */
int agree_max(struct comm_state *cs, MPI_Datatype dt, void *value);
/* The same, elementwise over `count` values (one message per round: the
 * sparse reductions agree on their whole input profile at once). */
int agree_max_n(struct comm_state *cs, MPI_Datatype dt, void *value, int64_t count);
/* The same agreement as a call and schedule (`s` initialised) to run
 * later: nonblocking calls step it like any other schedule. */
int agree_max_prepare(struct comm_state *cs, MPI_Datatype dt, void *value, struct coll_call *c,
                      struct schedule *s);

#endif
