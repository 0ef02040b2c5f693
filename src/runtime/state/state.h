/*
 * What colibri keeps per communicator and per group of processes: created on
 * a communicator's first colibri collective, shared between communicators of
 * one group where nothing orders messages, freed with the communicator.
 * Everything here calls PMPI_* so that colibri's own traffic never re-enters
 * the interposed MPI_* entry points or a profiling tool.
 */
#ifndef COLIBRI_STATE_H
#define COLIBRI_STATE_H

#include <mpi.h>
#include <stdbool.h>

#include "colibri.h"
#include "../../sched/schedule.h"
#include "../../select/online.h"

/* Call shapes whose sparsity estimates a communicator keeps per reduction
 * collective (struct comm_state.estimate). */
#define SPARSE_SHAPES 4

struct algorithm;
struct sched_entry;

/* A node's communicator and shared segment, for node-aware algorithms
 * (node.c): set up on first use, freed with the last communicator using it. */
struct node_state {
    MPI_Comm comm;    /* MPI_COMM_NULL: not created yet */
    MPI_Win win;      /* valid while size > 0 */
    void *shm;        /* the segment, contiguous across the node's ranks */
    int64_t size;
    int users;        /* communicator states using it */
    /* The segment's flags (patterns/node_segment.h), a window of their own
     * that a growth of the segment keeps, created with the first segment:
     * valid while flags != NULL.  `epoch` counts the runs of the
     * schedules using them (schedule.h, SOP_FLAG_SET). */
    MPI_Win flag_win;
    void *header;     /* the window's first NODE_HEADER_BYTES (node.h) */
    unsigned char *flags;
    int64_t flag_bytes;
    uint64_t epoch;
    bool yield;       /* flag waits yield the core (node.c, node_oversubscribed) */
};

/* What depends only on a communicator's group, shared by every communicator
 * with the same group (a dup chain, the same split made twice): the node
 * layout and the cached schedules (a schedule depends on the group only
 * through rank, size and layout).  Found through a table keyed by a hash of
 * the members' MPI_COMM_WORLD ranks and confirmed with MPI_Group_compare;
 * reference counted by the communicator states using it (group_state.c).
 * Nothing here communicates or orders messages, so sharing it between
 * communicators whose operations overlap is safe. */
struct group_state {
    struct group_state *next; /* hash chain */
    uint64_t hash;
    int size, refs;
    MPI_Group group;
    bool world;               /* MPI_COMM_WORLD's group: the parent of predicted layouts */
    bool shared;              /* in the table (lazy setup); eager states are private */
    struct node_layout layout;
    int *layout_mem;          /* NULL: layout not computed yet */
    int layout_max_ranks;     /* the most ranks on one node of the layout */
    int64_t chunk_bytes;      /* the node-aware chunk, the same on every rank (node.c) */
    struct node_state node;   /* used by its communicators when they cannot overlap (node.h) */
    struct sched_entry *cached; /* this group's cached schedules (sched_cache.c) */
};

/* Per communicator: created on its first colibri collective (never at its
 * creation), cached as an MPI attribute, freed with the communicator.  What
 * orders messages stays here, unshared: the private matching context, the
 * tag sequence, and the node communicator and shared segment, which
 * overlapping operations on two communicators of one group would otherwise
 * use at once. */
struct comm_state {
    MPI_Comm comm;      /* private duplicate: colibri's messages never match the application's */
    int rank, size;
    unsigned seq;       /* per-call tag, so successive collectives never cross-match */
    struct group_state *grp;
    const char *last[COLIBRI_NCOLL];
    /* Schedules that are not cached (dynamic, or per-rank count vectors)
     * are built here, one call at a time. */
    struct schedule scratch;
    int64_t scratch_bytes; /* of it, counted in the setup statistics */
    /* Sparse reductions: the caller's density hint (0: none), bytes not
     * sent thanks to sparse blocks, and the agreed density estimates of the
     * last SPARSE_SHAPES call shapes (count, type, op) of each reduction
     * collective (api/reductions.c).  Every rank updates them in the same
     * order, in its blocking calls of the same shapes, so they agree. */
    double density_hint;
    int64_t sparse_saved;
    /* Automatic blocking alltoallv (api/alltoall.c): the sizes of the last
     * call, when it ran SLOAVx, whose messages brought them to every rank
     * (sched_params.sizes_out); the next such call predicts its own from
     * them instead of agreeing.  Every rank sets and clears them at the
     * same calls. */
    int64_t predicted_sizes[3];
    bool predicted;
    /* Online selection (select/online.h, runtime/online_turn.h): the call
     * shapes of blocking automatic calls, what they explored and decided.
     * Every rank updates them at the same calls. */
    struct online_table online;
    /* Automatic blocking alltoallv's skipped size agreements (online.h,
     * struct online_skip), counted in those calls on every rank alike. */
    struct online_skip alltoallv_skip;
    /* Whether the tuning file sends every blocking alltoallv of this
     * communicator below (select_rules_all_native), and with
     * COLIBRI_ALLTOALLV_ALGORITHM leaving interposed calls automatic, as
     * of the configuration of generation rules_native_gen - 1 (0: not
     * known yet): online_turn.h, alltoallv_rules_native. */
    unsigned rules_native_gen;
    bool rules_native, rules_native_interposed;
    struct sparse_estimate {
        int64_t count; /* its size class's first count seen (0: an empty slot) */
        MPI_Datatype dt;
        MPI_Op op;
        double density, support, span, run_length; /* as in sched_params */
        int uses;      /* further calls the estimate serves */
        int interval;  /* calls the last estimate was given to serve; 0: no
                        * call seen, -1: one call seen, not estimated yet */
        unsigned last; /* estimate_clock when it last served */
        unsigned made; /* estimate_clock when it was made (0: none yet; memos compare it) */
    } estimate[COLIBRI_ALLTOALL][SPARSE_SHAPES]; /* the reductions: allreduce .. reduce_scatter_block */
    unsigned estimate_clock;
    /* Node-aware algorithms (node.c): the group's node state, or this
     * communicator's own where operations on two communicators of the group
     * may overlap (node_state_bind). */
    struct node_state *node;
    struct node_state own_node;
    /* Node-aware reductions (node.c, node_reduction_attach): the
     * communicator's own reduction segment on the node communicator of
     * own_node, never shared with another communicator, so that calls on
     * two communicators, which may overlap or run in different orders on
     * different ranks, never share a slot.  `epoch` counts the slot uses
     * of the calls started on it (schedule.h, SOP_FLAG_SET). */
    struct node_reduction {
        MPI_Win win;          /* valid while flags != NULL */
        void *header;         /* the segment's first NODE_HEADER_BYTES (node.h) */
        unsigned char *flags; /* NODE_SLOTS x node_slot_flags(L) counters, a cache line each */
        char *data;           /* node_shm_bytes of slots after the flags */
        int64_t data_bytes;
        int64_t bytes;        /* what the node's first rank allocated */
        int nloc;             /* ranks on this node */
        uint64_t epoch;
        bool yield;           /* flag waits yield the core (node.c, node_oversubscribed) */
        bool mapped;          /* this rank has mapped every data page (executor.c, regions) */
    } red;
    /* agreements (agree.c) prepared on this communicator so far: the same
     * count on every rank at each of them */
    long long agreements;
    /* Nonblocking and persistent operations using the state (they may
     * outlive the program's handle of the communicator: MPI_Comm_free only
     * marks it for deallocation, MPI-4 7.4.3); once the program has freed
     * it (`orphaned`), the last unpin frees the state. */
    int pins;
    /* of those, operations running now (nonblocking or started
     * persistent): MPI_Comm_free runs them to their end first */
    int running;
    bool orphaned;
};

/* The schedule for a call: a cached one when the same (algorithm, call
 * parameters) ran before on a communicator of this group, else freshly
 * built and cached (sched_cache.c).  Dynamic schedules and calls with
 * per-rank count vectors (reduce_scatter, alltoallv) are never cached: they
 * are built into cs->scratch, freed when the call releases it.  A cached
 * schedule stays pinned (never evicted, even by another thread's call)
 * until comm_release_schedule;
 * cs->scratch serves one call on the communicator at a time.  NULL: out of
 * memory.  With `stamp`, *stamp gets what comm_schedule_again needs to
 * find a cached schedule again without a lookup. */
struct schedule *comm_cached_schedule(struct comm_state *cs, colibri_coll coll,
                                      const struct algorithm *alg, const struct sched_params *p,
                                      uint64_t *stamp);
/* A cached schedule (not cs->scratch) that comm_cached_schedule gave with
 * `stamp`, pinned and counted as a cache hit as that would, when it is
 * still in the cache (nothing has been evicted or dropped since); else NULL,
 * and nothing done.  Costs no hash, no key comparison. */
struct schedule *comm_schedule_again(struct schedule *s, uint64_t stamp);
void comm_release_schedule(struct comm_state *cs, struct schedule *s);
/* Drops a group's cached schedules (when the group state is freed). */
void sched_cache_drop_group(struct group_state *g);

/* A memo's call (runtime/native.h's native memo, api/reductions.c's call
 * memo) whose full path would be served by the sparse estimate e, made at
 * `made` (NULL: none takes part): whether the memo may serve it (the same
 * estimate still stands, with calls left), and estimate_memo_take, which
 * counts the call in it as the full path (api/reductions.c, agreed_shape)
 * would.  Every rank takes the same calls from an estimate, memo or not,
 * so every rank makes its next one at the same call. */
static inline bool estimate_memo_ok(const struct sparse_estimate *e, unsigned made)
{
    return !e || (e->made == made && e->interval > 0 && e->uses > 0);
}
static inline void estimate_memo_take(struct comm_state *cs, struct sparse_estimate *e)
{
    if (e) {
        e->uses--;
        e->last = ++cs->estimate_clock;
    }
}

/* Counts the events after which a communicator handle may name another
 * communicator or a call's automatic choice may change (a state's
 * communicator freed, a sparse hint given): what runtime/native.h's
 * shortcut remembers is void after one. */
extern unsigned comm_state_epoch;

/* Returns MPI_SUCCESS and the state, creating it on first use (collective
 * over `comm`, like the first collective call itself). */
int comm_state_get(MPI_Comm comm, struct comm_state **out);
/* The state if it exists; never communicates. */
struct comm_state *comm_state_find(MPI_Comm comm);
/* Keeps the state (and its private communicator) alive for an operation
 * that may outlive the program's communicator handle. */
void comm_state_pin(struct comm_state *cs);
void comm_state_unpin(struct comm_state *cs);

/* The group state of `comm` (a new reference): the shared one of an equal
 * group if there is one, else a new one.  Local: no communication. */
int group_state_get(MPI_Comm comm, struct group_state **out);
void group_state_release(struct group_state *g);
/* MPI_COMM_WORLD's group state once its layout is known (kept until
 * MPI_Finalize), else NULL: the parent of predicted layouts. */
struct group_state *group_state_world_parent(void);
/* Called once the layout of a world group state is known. */
void group_state_keep_world(struct group_state *g);
/* Bytes of a group's layout arrays (node_of, local_index, node_start,
 * node_ranks). */
size_t node_layout_bytes(int size);

#endif
