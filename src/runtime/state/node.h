/*
 * The runtime side of node-aware algorithms: which ranks of a communicator
 * share a node, and the node's shared-memory segment that schedules address
 * as BUF_SHM.  The layout is group state (shared by the communicators of one
 * group); the node communicator and segment are the communicator's own.
 * All are set up on first use and kept until the communicator is freed.
 */
#ifndef COLIBRI_NODE_H
#define COLIBRI_NODE_H

#include "state.h"

/* The communicator's node layout, computed on first use and cached in its
 * group state.  Lazy setup predicts it from MPI_COMM_WORLD's layout with no
 * communication (patterns/nodes.h, node_leaders_predict); it is exchanged
 * (collective over the communicator: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED),
 * a minimum over the node and colibri's own allgather of node leaders over
 * point-to-point messages, ceil(lg p) rounds) when there is
 * no parent layout yet, the group has a member outside MPI_COMM_WORLD, or
 * setup is eager.  Every rank takes the same branch: they see the same group
 * and, in a correct program, the same order of collectives. */
int node_layout_get(struct comm_state *cs, const struct node_layout **out);

/* A call's view of its node's shared segment: the node state's growable
 * one (SLOAVx: its flags, patterns/node_segment.h, in a window of their own
 * that growing keeps, no slots), or the communicator's reduction segment,
 * whose slots and flags (patterns/node_reduce.h) the executor addresses. */
struct node_segment {
    struct comm_state *cs; /* NULL: not bound */
    void *base;
    int64_t size;          /* bytes; 0 until the first node_segment_grow */
    /* The flags (both segments), and the reduction segment's slots. */
    unsigned char *flags;
    int64_t slot_bytes;    /* a slot's data (node_slot_bytes: whatever the type) */
    int slot_flags;        /* 0: no slots */
    uint64_t *epoch;
    bool *mapped;          /* the reduction segment's: this rank has touched every data page */
    /* Whether a flag wait gives its core away (sched_yield) once it has
     * spun: only where the node runs more of the job's ranks than it has
     * processors (node.c, node_oversubscribed). */
    bool yield;
    /* SMPI builds: the node's SimGrid mutex and condition, on which flag
     * waits sleep until a flag is set (node.c); NULL elsewhere. */
    void *sim_mutex, *sim_cond;
};

/* Bytes between two flags: one cache line each, so a rank spinning on one
 * does not slow down the rank writing the next. */
#define NODE_FLAG_STRIDE 64
/* The reduction segment's first cache line: what SMPI builds share through
 * it (the node's SimGrid mutex and condition), then the flags. */
#define NODE_HEADER_BYTES 64

/* Binds seg to the communicator's node segment (needs node_layout_get
 * first).  The first call on a node state creates the node's communicator
 * if the layout exchange did not, and the segment's flag window (collective
 * over the node's ranks only).
 * node_segment_grow (re)allocates the segment with at least `bytes`,
 * collectively over the node, without keeping its contents: the executor
 * calls it when a schedule's round needs more than seg->size (the schedule
 * says how much, so the segment's layout is the algorithm's business). 
 *
 * Which node state: the group's, shared by its communicators, unless
 * operations on two of them can overlap, when each has its own.  Only
 * blocking calls use a node state (node-aware algorithms are blocking-only),
 * so two of them overlap only when two threads call at once: the state is
 * the communicator's own under MPI_THREAD_MULTIPLE, and with eager setup
 * (every communicator set up in full, the comparison).  Sharing is the same
 * choice on every member: they see the same group and thread level, and
 * group states live and die with the same collective calls and frees,
 * which a correct program orders alike on every rank. */
int node_segment_attach(struct comm_state *cs, struct node_segment *seg);
int node_segment_grow(struct node_segment *seg, int64_t bytes);

/* Binds seg to the communicator's reduction segment (cs->red), creating
 * it on first use: collective over the node's ranks (the node
 * communicator, then MPI_Win_allocate_shared of the flags and a data area
 * of the configured size, zeroed).  seg->base is the data area, cut into
 * slots of seg->slot_bytes. */
int node_reduction_attach(struct comm_state *cs, struct node_segment *seg);

/* Drops the communicator's use of its node state, freeing the node
 * communicator and segment with their last user (comm_state.c, on state
 * deletion; collective over the node unless MPI is finalized). */
void node_state_release(struct comm_state *cs);

#endif
