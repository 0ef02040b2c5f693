/*
 * The data-movement drivers' view of the user's buffers (alltoall.c,
 * movement.c): a side of the call (send or receive) is blocks of elements
 * of its datatype, presented to the schedule as contiguous bytes: the
 * user's memory when the type is contiguous, else a staging area that is
 * packed before a run and unpacked after it.
 */
#ifndef COLIBRI_API_BYTES_H
#define COLIBRI_API_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../runtime/call.h"

/* One side (send or receive) of the call, in elements of its datatype. */
struct side {
    const void *buf;
    const int64_t *counts, *displs; /* alltoallv; NULL for alltoall */
    int64_t count;                  /* alltoall: elements per block */
    MPI_Datatype dt;
    struct dtinfo dti;
};

int64_t side_count(const struct side *s, int j);
int64_t side_displ(const struct side *s, int j);
/* MPI_ERR_TYPE, _COUNT or _BUFFER (message in msg) for a side of `size`
 * blocks; `what` is "send" or "recv". */
int check_side(const struct side *s, int size, const char *what, char *msg, size_t len);

/* A side's bytes: the user's memory when its type is contiguous, else a
 * staging area holding block j's packed bytes at byte offset displs[j] x
 * type size.  `base` is where byte offset 0 lies. */
struct view {
    char *base;
    void *stage; /* allocation to free, NULL when the user's memory is used */
};

/* Opens blocks 0..size-1 of a side as bytes (packing them when `fill`);
 * closing unpacks them first when `drain`, and frees the staging area. */
int view_open(const struct side *s, int size, bool fill, struct view *v, MPI_Comm comm);
int view_close(const struct side *s, int size, struct view *v, bool drain, MPI_Comm comm);

/* A predefined datatype: never freed, so its handle never names another. */
bool predefined(MPI_Datatype dt);
/* Whether the call selects automatically (no name, or "auto", given or
 * from COLIBRI_<COLL>_ALGORITHM). */
bool wants_auto(colibri_coll coll, const char *requested);

struct comm_state;
struct sched_params;
/* A data-movement call's node parameters (api/movement.c, api/rooted.c):
 * where it may run a node-aware algorithm (automatic selection of a
 * collective that has one: bcast, barrier, allgather, gather, scatter; or
 * one named), the node layout (computed once per communicator; predicted
 * without a message where it can be) and the chunk of the node's
 * reduction segment, in bytes, into sp; the layout alone where a tuning
 * file's rules or model depend on the node shape.  MPI_SUCCESS, or the
 * layout's error. */
int movement_node_params(struct comm_state *cs, colibri_coll coll, const char *requested,
                         struct sched_params *sp);

#endif
