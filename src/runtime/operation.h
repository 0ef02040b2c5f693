/*
 * Collective operations as objects: one prepared call (buffers, schedule,
 * scratch) that the blocking path runs to completion, the nonblocking path
 * starts and leaves to the progress engine, and the persistent path starts
 * again and again.  the drivers of src/api/ (reductions.c, alltoall.c) prepare them; the same
 * schedules serve all three forms.
 *
 * The application holds an ordinary MPI_Request:
 *  - nonblocking: a generalized request (MPI_Grequest_start) that colibri
 *    completes when the schedule finishes; its status is the empty status
 *    (source MPI_ANY_SOURCE, tag MPI_ANY_TAG, count 0) with MPI_ERROR the
 *    operation's result;
 *  - persistent: a persistent zero-byte receive on colibri's private
 *    duplicate of MPI_COMM_SELF, which colibri satisfies with a zero-byte
 *    send to itself when a run finishes (generalized requests cannot be
 *    restarted).  MPI_Start on it runs the schedule again.
 * Either way the MPI below completes the request and MPI_Wait/Test/... work
 * on it unchanged once colibri has progressed the schedule: the interposed
 * wait and test calls (interpose/requests.c) do that, and so does the
 * optional progress thread (progress.h).
 */
#ifndef COLIBRI_NBC_H
#define COLIBRI_NBC_H

#include <stdbool.h>

#include "executor.h"

/* Where a call's cached schedule was found, so that a repeated call finds
 * it again without a lookup (comm_schedule_again; api/reductions.c's call
 * memo keeps one per remembered call).  s == NULL: not known. */
struct sched_hint {
    struct schedule *s;
    uint64_t stamp;
};

#define OP_AGREED 3 /* the most values a prelude agrees on */
struct coll_op {
    struct coll_call c;
    const struct algorithm *alg;
    enum call_kind kind;
    const char *fname;            /* "MPI_Iallreduce", ... for error messages */
    MPI_Comm comm;                /* the caller's communicator */
    /* The handles a nonblocking or persistent operation keeps alive while
     * it exists (handles.h), which the program may free right after the
     * call: the user-defined operation (MPI_OP_NULL: none) and the
     * datatypes (MPI_DATATYPE_NULL: none) that the drivers set; the
     * communicator's state is pinned too (comm_state_pin). */
    MPI_Op held_op;
    MPI_Datatype held_types[2];
    bool pinned;
    /* The schedule a run executes.  A nonblocking call takes the
     * communicator's cached schedule, pinned until its run ends (`cached`),
     * so a repeated call builds nothing; a schedule the cache does not keep
     * (dynamic ones: SLOAV, sparse; per-rank count vectors) becomes the
     * operation's `own`, as the communicator's scratch may be rebuilt by a
     * later call while this one runs.  Persistent calls build `own` once,
     * or at every start when it is dynamic (a run extends it). */
    struct schedule own;
    struct schedule *cached;
    bool rebuild;
    /* Set by a driver that remembers the call: where the schedule was
     * found, read and updated by the lookup (NULL: look it up). */
    struct sched_hint *hint;
    /* The collective's edges: before each run (pack non-contiguous
     * inputs), after it (unpack outputs; gets and returns the result), and
     * freeing the memory of the object that contains this one.  NULL: none. */
    int (*before)(struct coll_op *op);
    int (*after)(struct coll_op *op, int rc);
    void (*destroy)(struct coll_op *op);
    /* A nonblocking call that must agree with every rank on a value before
     * it can choose its algorithm (automatic alltoallv: the largest block)
     * first runs that agreement as a schedule of its own (`pre`, from
     * agree_max_prepare, on `agreed`); then `choose` selects the
     * algorithm and builds `own` (op_build).  NULL: no prelude. */
    int (*choose)(struct coll_op *op);
    struct schedule pre_s;
    int64_t agreed[OP_AGREED];
    int main_tag;
    bool in_prelude;
    MPI_Request req;              /* the request the application holds */
    int self_tag;                 /* persistent: the tag of its receive on colibri's self comm */
    int rc;                       /* result of the last run */
    bool running, completed, user_freed;
    struct coll_op *next, *prev;
    /* Last, not cleared for a new operation (op_clear): the prelude's call,
     * which agree_max_prepare fills, and the progress engine's state with
     * its kilobyte of inline requests. */
    struct coll_call pre;
    struct exec x;
};

/* Readies a new operation (on the stack or from malloc) for its fields to
 * be set. */
void op_clear(struct coll_op *op);

/* Builds op->own for op->alg (prelude's choose functions). */
int op_build(struct coll_op *op);

/* Runs a prepared blocking call (on the communicator's cached schedule);
 * reports errors through the communicator's error handler. */
int op_run_blocking(struct coll_op *op);

/* The same run of a call prepared by an earlier one (a copy of its
 * coll_call, with this call's buffers), for collectives with no
 * before/after edges: no coll_op is made, the schedule is found through
 * *hint.  Errors go to `comm`'s handler as op_run_blocking's do. */
int op_rerun_blocking(struct coll_call *c, const struct algorithm *alg, struct sched_hint *hint,
                      MPI_Comm comm, const char *fname);

/* Takes a prepared nonblocking call (heap-allocated, freed through
 * op->destroy), starts it and gives the application its request. */
int op_launch(struct coll_op *op, MPI_Request *req);

/* Takes a prepared persistent call: builds its schedule and gives the
 * application an inactive persistent request that MPI_Start runs. */
int op_persist(struct coll_op *op, MPI_Request *req);

/* MPI_Start on a request: starts it and returns true when it is
 * colibri's, else returns false and does nothing.  *rc gets the result. */
bool nbc_start(MPI_Request *req, int *rc);

/* MPI_Request_free on a request: frees it and returns true when it is a
 * colibri persistent request (an active one finishes first). */
bool nbc_free_persistent(MPI_Request *req, int *rc);

/* Whether any colibri operation is running (cheap, no lock). */
bool nbc_busy(void);

/* One pass over the running operations, testing (never waiting on) their
 * current rounds; returns how many rounds or operations advanced.  Safe
 * from any thread; a pass already under way elsewhere makes it return 0. */
int nbc_progress(void);
/* Whether the MPI below calls nbc_progress from its own progress loop
 * (state/engines.h); registers colibri's engine with it first. */
bool nbc_mpi_hooked(void);

/* Runs every running operation to its end (MPI_Finalize: a collective
 * whose request the program freed still completes, MPI-4 3.7.3, and its
 * end releases the communicator state it holds: left running on one rank,
 * that state's shared window would be freed by the other ranks alone). */
void nbc_drain(void);

/* MPI_Wait on `req`: when it is the request of the only running
 * operation, runs that operation to its end as a blocking call runs, waiting
 * for each round (PMPI_Waitall) instead of polling, and returns true (the
 * request is then complete, or about to be for a persistent one).  Nothing
 * else of colibri's on this process needs progress meanwhile.  False, and
 * nothing done, otherwise. */
bool nbc_wait_alone(MPI_Request req);

#endif
