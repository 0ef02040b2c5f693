/*
 * One collective call as the runtime sees it: its form, its datatype and
 * reduction facts, its communicator's state and the schedule's parameters.
 */
#ifndef COLIBRI_CALL_H
#define COLIBRI_CALL_H

#include <mpi.h>
#include <stdbool.h>

#include "colibri.h"
#include "../kernels/dense.h"
#include "../sched/schedule.h"
#include "state/node.h"
#include "state/state.h"

/* The three forms of every collective. */
enum call_kind { CALL_BLOCKING, CALL_NONBLOCKING, CALL_PERSISTENT, CALL_KINDS };
/* The MPI name of a form of a collective ("MPI_Iallreduce"), for errors. */
const char *coll_fname(colibri_coll coll, enum call_kind kind);

/* Facts about the call's datatype. */
struct dtinfo {
    MPI_Aint extent, true_lb, true_extent;
    int size;
    bool contiguous;     /* size == extent == true_extent and no lower-bound shift */
};
int dtinfo_init(MPI_Datatype dt, struct dtinfo *d);

/* How the call's local reductions are done. */
struct reducer {
    MPI_Op op;
    MPI_Datatype dt;
    colibri_kernel kernel;  /* NULL: MPI_Reduce_local */
    bool commutative;
};

/* One collective call, resolved: buffers, type, op and the schedule's
 * parameters.  `sendbuf` is already replaced by the input location that
 * MPI_IN_PLACE means for this collective. */
struct coll_call {
    colibri_coll coll;
    const void *sendbuf;
    void *recvbuf;
    MPI_Datatype dt;
    struct dtinfo dti;
    struct reducer red;
    struct comm_state *cs;
    /* Node-aware algorithms: the node's shared segment bound to BUF_SHM
     * (state/node.h; unbound: shm.cs == NULL). */
    struct node_segment shm;
    struct sched_params sp;
};

#endif
