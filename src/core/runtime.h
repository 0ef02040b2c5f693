/*
 * The MPI side of colibri: per-communicator state, datatype and operation
 * facts, and the executor that runs a schedule over MPI point-to-point.
 * Everything here calls PMPI_* so that colibri's own traffic never re-enters
 * the interposed MPI_* entry points or a profiling tool.
 */
#ifndef COLIBRI_RUNTIME_H
#define COLIBRI_RUNTIME_H

#include <mpi.h>
#include <stdbool.h>

#include "colibri.h"
#include "kernels.h"
#include "schedule.h"

/* Call shapes whose sparsity estimates a communicator keeps per reduction
 * collective (struct comm_state.estimate). */
#define SPARSE_SHAPES 4

struct algorithm;

/* The three forms of every collective. */
enum call_kind { CALL_BLOCKING, CALL_NONBLOCKING, CALL_PERSISTENT, CALL_KINDS };
/* The MPI name of a form of a collective ("MPI_Iallreduce"), for errors. */
const char *coll_fname(colibri_coll coll, enum call_kind kind);

struct sched_entry;

/* A node's communicator and shared segment, for node-aware algorithms
 * (node.c): set up on first use, freed with the last communicator using it. */
struct node_state {
    MPI_Comm comm;    /* MPI_COMM_NULL: not created yet */
    MPI_Win win;      /* valid while size > 0 */
    void *shm;        /* the segment, contiguous across the node's ranks */
    int64_t size;
    int users;        /* communicator states using it */
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
     * collective (collectives.c).  Every rank updates them in the same
     * order, in its blocking calls of the same shapes, so they agree. */
    double density_hint;
    int64_t sparse_saved;
    struct sparse_estimate {
        int64_t count; /* 0: an empty slot */
        MPI_Datatype dt;
        MPI_Op op;
        double density, support, span, run_length; /* as in sched_params */
        int uses;      /* further calls the estimate serves */
        int interval;  /* calls the last estimate was given to serve; 0: no
                        * call seen, -1: one call seen, not estimated yet */
        unsigned last; /* estimate_clock when it last served */
    } estimate[COLIBRI_ALLTOALL][SPARSE_SHAPES]; /* the reductions: allreduce .. reduce_scatter_block */
    unsigned estimate_clock;
    /* Node-aware algorithms (node.c): the group's node state, or this
     * communicator's own where operations on two communicators of the group
     * may overlap (node_state_bind). */
    struct node_state *node;
    struct node_state own_node;
};

/* The schedule for a call: a cached one when the same (algorithm, call
 * parameters) ran before on a communicator of this group, else freshly
 * built and cached (sched_cache.c).  Dynamic schedules and calls with
 * per-rank count vectors (reduce_scatter, alltoallv) are never cached: they
 * are built into cs->scratch, freed when the call releases it.  A cached
 * schedule stays pinned (never evicted, even by another thread's call)
 * until comm_release_schedule;
 * cs->scratch serves one call on the communicator at a time.  NULL: out of
 * memory. */
struct schedule *comm_cached_schedule(struct comm_state *cs, colibri_coll coll,
                                      const struct algorithm *alg, const struct sched_params *p);
void comm_release_schedule(struct comm_state *cs, struct schedule *s);
/* Drops a group's cached schedules (when the group state is freed). */
void sched_cache_drop_group(struct group_state *g);

/* Returns MPI_SUCCESS and the state, creating it on first use (collective
 * over `comm`, like the first collective call itself). */
int comm_state_get(MPI_Comm comm, struct comm_state **out);
/* The state if it exists; never communicates. */
struct comm_state *comm_state_find(MPI_Comm comm);

/* The group state of `comm` (a new reference): the shared one of an equal
 * group if there is one, else a new one.  Local: no communication. */
int group_state_get(MPI_Comm comm, struct group_state **out);
void group_state_release(struct group_state *g);
/* MPI_COMM_WORLD's group state once its layout is known (kept until
 * MPI_Finalize), else NULL: the parent of predicted layouts. */
struct group_state *group_state_world_parent(void);
/* Called once the layout of a world group state is known. */
void group_state_keep_world(struct group_state *g);

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
    /* Node-aware algorithms: the node's shared segment bound to BUF_SHM, and
     * how to enlarge it (collective over the node's ranks). */
    void *shm;
    int64_t shm_size;
    int (*shm_grow)(struct coll_call *c, int64_t bytes);
    struct sched_params sp;
};

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
    int tag;
    bool posted, finished;
};
void exec_init(struct exec *x);
int exec_start(struct exec *x, struct coll_call *call, struct schedule *s, int tag);
int exec_step(struct exec *x, bool wait, bool *done);
void exec_release(struct exec *x);

/* The tag of the next collective on `cs` (every rank starts its collectives
 * on a communicator in the same order, so they agree on it). */
int exec_next_tag(struct comm_state *cs);

/* The maximum of one `dt` value over the communicator's ranks, in place:
 * colibri's own recursive doubling on its private communicator, for the
 * agreements selection needs (the MPI below may do a 8-byte allreduce
 * linearly: SMPI's default took 60 us at 256 ranks where this takes 10). */
int exec_agree_max(struct comm_state *cs, MPI_Datatype dt, void *value);
/* The same, elementwise over `count` values (one message per round: the
 * sparse reductions agree on their whole input profile at once). */
int exec_agree_max_n(struct comm_state *cs, MPI_Datatype dt, void *value, int64_t count);
/* The same agreement as a call and schedule (`s` initialised) to run
 * later: nonblocking calls step it like any other schedule. */
int exec_agree_prepare(struct comm_state *cs, MPI_Datatype dt, void *value, struct coll_call *c,
                       struct schedule *s);

/* Allocates scratch for `count` elements of the call's type honouring its
 * lower bound; returns the element-0 pointer and the block to free. */
void *exec_alloc_elems(const struct dtinfo *d, int64_t count, void **block);

/* Local reduction dst = src (op) dst, in MPI_Reduce_local order. */
int exec_reduce_local(const struct reducer *r, const void *src, void *dst, int64_t count,
                      const struct dtinfo *d);

/* Statistics (COLIBRI_STATS), per form of the call: MPI_Allreduce,
 * MPI_Iallreduce, MPI_Allreduce_init (counted at each start). */
void stats_count(const struct algorithm *a, colibri_coll coll, enum call_kind kind);
void stats_report(void);

#endif
