/*
 * The executor: runs a schedule over MPI point-to-point on the
 * communicator's private duplicate, to completion or one round at a time;
 * and the agreements that selection needs, run as schedules.
 */
#ifndef COLIBRI_EXECUTOR_H
#define COLIBRI_EXECUTOR_H

#include "call.h"

/* Runs the schedule to completion.  Scratch buffers are allocated here.  A
 * dynamic schedule is extended (mutated) as it runs. */
int exec_run(struct coll_call *call, struct schedule *s);

/* The same run, one step at a time, for nonblocking and persistent calls
 * (exec_run is these three with waiting steps).  A run posts round 0 at
 * exec_start; each exec_step completes the posted round (PMPI_Waitall when
 * `wait`, else PMPI_Testall and return if it is not done), applies its local
 * operations and posts the next, as long as rounds complete; *done says the
 * schedule has finished.  The state must stay where it is while a run is
 * under way (the small request arrays are inline).  Scratch memory survives
 * from one run to the next of the same state (persistent requests) until
 * exec_release.  Start from exec_init's state. */
#define EXEC_SMALL_REQS 16
struct exec {
    struct coll_call *c;
    struct schedule *s;
    void *buf[BUF_NBUFS];
    void *blocks[2];           /* scratch allocations, `have` bytes each */
    int64_t have[2];
    MPI_Request small_reqs[EXEC_SMALL_REQS], *big_reqs;
    MPI_Status small_st[EXEC_SMALL_REQS], *big_st;
    uint32_t small_op[EXEC_SMALL_REQS], *big_op; /* op index of each request */
    int64_t cap_reqs;          /* 0: the small arrays are in use */
    int nreq;                  /* requests of the posted round */
    uint32_t round;            /* the round posted, or the next to post */
    uint32_t local;            /* its next local operation (after a flag wait) */
    uint64_t epoch;            /* the run's first epoch (schedule.h, SOP_FLAG_SET) */
    int64_t region_bytes;      /* a slot's regions (schedule.h, NODE_REGION_GAP): apart by */
    uint64_t regions;          /* ...and how many (1: the slot's start only) */
    int tag;
    bool posted, finished;
    bool truncated;            /* a message of this run was truncated (exec_step) */
};
void exec_init(struct exec *x);
int exec_start(struct exec *x, struct coll_call *call, struct schedule *s, int tag);
int exec_step(struct exec *x, bool wait, bool *done);
void exec_release(struct exec *x);

/* The tag of the next collective on `cs` (every rank starts its collectives
 * on a communicator in the same order, so they agree on it). */
int exec_next_tag(struct comm_state *cs);

/* Local reduction dst = src (op) dst, in MPI_Reduce_local order. */
int exec_reduce_local(const struct reducer *r, const void *src, void *dst, int64_t count,
                      const struct dtinfo *d);

#endif
