/*
 * colibri — fast MPI collective algorithms over MPI point-to-point.
 *
 * Three ways in:
 *  - preload libcolibri.so under an unmodified MPI program: MPI_Allreduce and
 *    friends then run colibri's algorithms (see README);
 *  - call the functions below, naming an algorithm or letting colibri pick;
 *  - link libcolibri.a into a SimGrid SMPI program.
 *
 * Every function returns an MPI error code and reports errors through the
 * communicator's error handler, exactly as the MPI call it mirrors.
 */
#ifndef COLIBRI_H
#define COLIBRI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COLIBRI_VERSION_MAJOR 0
#define COLIBRI_VERSION_MINOR 1

typedef enum colibri_coll {
    COLIBRI_ALLREDUCE = 0,
    COLIBRI_REDUCE,
    COLIBRI_REDUCE_SCATTER,
    COLIBRI_REDUCE_SCATTER_BLOCK,
    COLIBRI_ALLTOALL,
    COLIBRI_ALLTOALLV,
    COLIBRI_ALLGATHER,
    COLIBRI_BCAST,
    COLIBRI_BARRIER,
    COLIBRI_ALLGATHERV,
    COLIBRI_GATHER,
    COLIBRI_GATHERV,
    COLIBRI_SCATTER,
    COLIBRI_SCATTERV,
    /* prefix reductions (scan.c) */
    COLIBRI_SCAN,
    COLIBRI_EXSCAN,
    COLIBRI_NCOLL
} colibri_coll;

/* Algorithm names are those of the catalog (colibri-info lists them);
 * NULL or "auto" lets colibri choose, "native" calls the MPI below. */
int colibri_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      const char *algorithm);
int colibri_reduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                   MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                   const char *algorithm);
int colibri_reduce_scatter_block(const void *sendbuf, void *recvbuf,
                                 MPI_Count recvcount, MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm,
                                 const char *algorithm);
int colibri_reduce_scatter(const void *sendbuf, void *recvbuf,
                           const MPI_Count recvcounts[], MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, const char *algorithm);

/* All-to-all.  Counts and displacements are in elements of the side's
 * datatype, as in MPI_Alltoall(v)_c; sendbuf may be MPI_IN_PLACE. */
int colibri_alltoall(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm,
                     const char *algorithm);
int colibri_alltoallv(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint sdispls[], MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype,
                      MPI_Comm comm, const char *algorithm);

/* Allgather(v), in the elements of each side's datatype as
 * MPI_Allgather(v)_c (sendbuf may be MPI_IN_PLACE); broadcast from `root`;
 * barrier. */
int colibri_allgather(const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm,
                      const char *algorithm);
int colibri_allgatherv(const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf,
                       const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm,
                       const char *algorithm);
int colibri_bcast(void *buffer, MPI_Count count, MPI_Datatype datatype,
                  int root, MPI_Comm comm, const char *algorithm);
int colibri_barrier(MPI_Comm comm, const char *algorithm);

/* Gather(v) to and scatter(v) from `root`, in the elements of each side's
 * datatype as MPI_Gather(v)_c and MPI_Scatter(v)_c: the receive side of a
 * gather and the send side of a scatter count only at the root (recvcounts
 * and displs, sendcounts and displs: one entry per rank, read at the root
 * only); at the root a gather's sendbuf, a scatter's recvbuf, may be
 * MPI_IN_PLACE. */
int colibri_gather(const void *sendbuf, MPI_Count sendcount,
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm,
                   const char *algorithm);
int colibri_gatherv(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[],
                    MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const char *algorithm);
int colibri_scatter(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const char *algorithm);
int colibri_scatterv(const void *sendbuf, const MPI_Count sendcounts[],
                     const MPI_Aint displs[], MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, const char *algorithm);
/* Prefix reductions, as MPI_Scan and MPI_Exscan (sendbuf may be
 * MPI_IN_PLACE): rank i receives x_0 op ... op x_i (exscan: op ... x_{i-1},
 * rank 0's recvbuf left untouched), in rank order for non-commutative
 * operations.  Nonblocking and persistent forms as below. */
int colibri_scan(const void *sendbuf, void *recvbuf, MPI_Count count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 const char *algorithm);
int colibri_iscan(const void *sendbuf, void *recvbuf, MPI_Count count,
                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                  const char *algorithm, MPI_Request *request);
int colibri_scan_init(const void *sendbuf, void *recvbuf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                      const char *algorithm, MPI_Request *request);
int colibri_exscan(const void *sendbuf, void *recvbuf, MPI_Count count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   const char *algorithm);
int colibri_iexscan(const void *sendbuf, void *recvbuf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    const char *algorithm, MPI_Request *request);
int colibri_exscan_init(const void *sendbuf, void *recvbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                        const char *algorithm, MPI_Request *request);

/* Nonblocking and persistent forms.  The same algorithms (and names) as
 * the blocking calls; *request is an ordinary MPI_Request for MPI_Wait,
 * MPI_Test and the rest of that family (also mixed with point-to-point
 * requests), MPI_Request_free, and for the persistent forms MPI_Start and
 * MPI_Startall (or colibri_start).
 *  - colibri_i<coll>: starts the collective; its status on completion is
 *    the empty status (MPI_ANY_SOURCE, MPI_ANY_TAG, count 0).
 *  - colibri_<coll>_init: builds the schedule and its scratch once, returns
 *    an inactive persistent request; each start runs it on the buffers'
 *    current contents.  Available on every MPI (MPI-3 included).
 * The schedules advance inside MPI wait and test calls made through
 * colibri (the interposed MPI_Wait..., MPI_Test..., so link or preload
 * libcolibri), and on a progress thread with COLIBRI_PROGRESS_THREAD=1
 * (needs MPI_THREAD_MULTIPLE).  Algorithms marked "blocking-only" in the
 * catalog are not used for these calls.  A nonblocking alltoallv with
 * automatic selection first agrees on the largest block with the other
 * ranks, nonblocking too, then chooses; a persistent one agrees at its
 * creation. */
int colibri_iallreduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                       const char *algorithm, MPI_Request *request);
int colibri_ireduce(const void *sendbuf, void *recvbuf, MPI_Count count,
                    MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                    const char *algorithm, MPI_Request *request);
int colibri_ireduce_scatter_block(const void *sendbuf, void *recvbuf,
                                  MPI_Count recvcount, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm,
                                  const char *algorithm, MPI_Request *request);
int colibri_ireduce_scatter(const void *sendbuf, void *recvbuf,
                            const MPI_Count recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, const char *algorithm,
                            MPI_Request *request);
int colibri_ialltoall(const void *sendbuf, MPI_Count sendcount,
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm,
                      const char *algorithm, MPI_Request *request);
int colibri_ialltoallv(const void *sendbuf, const MPI_Count sendcounts[],
                       const MPI_Aint sdispls[], MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[],
                       const MPI_Aint rdispls[], MPI_Datatype recvtype,
                       MPI_Comm comm, const char *algorithm,
                       MPI_Request *request);
int colibri_iallgather(const void *sendbuf, MPI_Count sendcount,
                       MPI_Datatype sendtype, void *recvbuf,
                       MPI_Count recvcount, MPI_Datatype recvtype,
                       MPI_Comm comm, const char *algorithm,
                       MPI_Request *request);
int colibri_iallgatherv(const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf,
                        const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, MPI_Comm comm,
                        const char *algorithm, MPI_Request *request);
int colibri_ibcast(void *buffer, MPI_Count count, MPI_Datatype datatype,
                   int root, MPI_Comm comm, const char *algorithm,
                   MPI_Request *request);
int colibri_ibarrier(MPI_Comm comm, const char *algorithm,
                     MPI_Request *request);
int colibri_igather(const void *sendbuf, MPI_Count sendcount,
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const char *algorithm, MPI_Request *request);
int colibri_igatherv(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[],
                     MPI_Datatype recvtype, int root, MPI_Comm comm,
                     const char *algorithm, MPI_Request *request);
int colibri_iscatter(const void *sendbuf, MPI_Count sendcount,
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm,
                     const char *algorithm, MPI_Request *request);
int colibri_iscatterv(const void *sendbuf, const MPI_Count sendcounts[],
                      const MPI_Aint displs[], MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm,
                      const char *algorithm, MPI_Request *request);

int colibri_allreduce_init(const void *sendbuf, void *recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                           const char *algorithm, MPI_Request *request);
int colibri_reduce_init(const void *sendbuf, void *recvbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, int root,
                        MPI_Comm comm, const char *algorithm,
                        MPI_Request *request);
int colibri_reduce_scatter_block_init(const void *sendbuf, void *recvbuf,
                                      MPI_Count recvcount,
                                      MPI_Datatype datatype, MPI_Op op,
                                      MPI_Comm comm, const char *algorithm,
                                      MPI_Request *request);
int colibri_reduce_scatter_init(const void *sendbuf, void *recvbuf,
                                const MPI_Count recvcounts[],
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                const char *algorithm, MPI_Request *request);
int colibri_alltoall_init(const void *sendbuf, MPI_Count sendcount,
                          MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, const char *algorithm,
                          MPI_Request *request);
int colibri_alltoallv_init(const void *sendbuf, const MPI_Count sendcounts[],
                           const MPI_Aint sdispls[], MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[],
                           const MPI_Aint rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm, const char *algorithm,
                           MPI_Request *request);
int colibri_allgather_init(const void *sendbuf, MPI_Count sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           MPI_Count recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, const char *algorithm,
                           MPI_Request *request);
int colibri_allgatherv_init(const void *sendbuf, MPI_Count sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            const MPI_Count recvcounts[],
                            const MPI_Aint displs[], MPI_Datatype recvtype,
                            MPI_Comm comm, const char *algorithm,
                            MPI_Request *request);
int colibri_bcast_init(void *buffer, MPI_Count count, MPI_Datatype datatype,
                       int root, MPI_Comm comm, const char *algorithm,
                       MPI_Request *request);
int colibri_barrier_init(MPI_Comm comm, const char *algorithm,
                         MPI_Request *request);
int colibri_gather_init(const void *sendbuf, MPI_Count sendcount,
                        MPI_Datatype sendtype, void *recvbuf,
                        MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, const char *algorithm,
                        MPI_Request *request);
int colibri_gatherv_init(const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf,
                         const MPI_Count recvcounts[], const MPI_Aint displs[],
                         MPI_Datatype recvtype, int root, MPI_Comm comm,
                         const char *algorithm, MPI_Request *request);
int colibri_scatter_init(const void *sendbuf, MPI_Count sendcount,
                         MPI_Datatype sendtype, void *recvbuf,
                         MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, const char *algorithm,
                         MPI_Request *request);
int colibri_scatterv_init(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint displs[], MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm,
                          const char *algorithm, MPI_Request *request);

/* MPI_Start for any request (colibri's persistent ones and the MPI's):
 * for programs that link colibri without its MPI_Start wrapper. */
int colibri_start(MPI_Request *request);

/* One pass of progress over the running nonblocking and persistent
 * collectives (what the interposed wait and test calls do); returns how
 * many rounds or operations advanced. */
int colibri_progress(void);

/* 1 when the MPI below calls colibri's progress from its own (Open MPI's
 * opal_progress): then any blocking MPI call of the program advances
 * colibri's running collectives; 0 where it does not (MPICH, Intel MPI,
 * the standard-ABI build, SMPI, or
 * COLIBRI_PROGRESS_HOOK=0): docs/nonblocking.md, "Progress", says what a
 * program then must not do. */
int colibri_progress_hooked(void);

/* What this process's waits did to keep both engines turning (counts since
 * MPI_Init): `mpi_pokes`, calls that drove the MPI's progress from a
 * colibri wait (after a flag wait's spin, MPICH's generalized-request
 * wait); `hook_calls`, calls of colibri's hook by the MPI's progress loop,
 * `hook_turns` those that advanced colibri's operations; `colibri_turns`,
 * passes over colibri's operations made by a colibri wait for something
 * else (a blocking collective, setup, an interposed blocking call). */
struct colibri_progress_stats {
    long long mpi_pokes, hook_calls, hook_turns, colibri_turns;
};
int colibri_progress_stats(struct colibri_progress_stats *stats);

/* Sparse reductions (allreduce, reduce, reduce_scatter(_block)): where most elements are the
 * operation's neutral element, colibri sends only the others.  By default
 * it estimates the density itself (see docs/sparse.md); this sets the
 * expected fraction of non-neutral elements per rank for the next calls on
 * `comm` instead (the same value on every rank; <= 0 goes back to the
 * estimate and makes the next call estimate afresh, for a program whose
 * data just changed: otherwise an estimate serves 32 calls of the same
 * count, type and op).  Every rank must pass the same value. */
int colibri_sparse_hint(MPI_Comm comm, double density);

/* A user-defined operation has no neutral element colibri could know: this
 * gives `op` on `datatype` one (the datatype's size in bytes at `neutral`;
 * NULL forgets it), so that reductions with that pair can go sparse like
 * the predefined ones.  The op must be commutative and op(e, e) == e bit
 * for bit; the datatype contiguous, of at most 32 bytes.  Local: every rank
 * must register the same pair before using it.  Errors (MPI_ERR_OP,
 * MPI_ERR_TYPE, MPI_ERR_ARG) go through MPI_COMM_SELF's error handler. */
int colibri_op_neutral(MPI_Op op, MPI_Datatype datatype, const void *neutral);

/* Bytes this process did not send on `comm` because blocks travelled
 * sparse, summed over all calls so far. */
long long colibri_sparse_bytes_saved(MPI_Comm comm);

/* colibri reads its COLIBRI_* environment variables once, at the first
 * call, as MPI libraries read their tuning variables.  A program that
 * changes them with setenv() calls this to make them take effect (on every
 * rank, between collectives). */
void colibri_config_reload(void);

/* Setup: what colibri's per-communicator state costs (docs/setup.md).
 * Creating a communicator costs colibri nothing; state is built on the
 * first colibri collective on it, and only what that collective needs.
 * Communicators with the same group share their group's state (node
 * layout, cached schedules), and the node layout of a derived communicator
 * is predicted from MPI_COMM_WORLD's without communication.
 * COLIBRI_SETUP=eager instead builds every communicator's own state, node
 * layout exchanged (MPI_Comm_split_type, a minimum over the node and
 * colibri's own allgather of node leaders), on its first
 * colibri collective, as a library without these techniques does; for
 * comparison.  COLIBRI_CACHE_BYTES caps the schedules cached per process
 * (least recently used go first; default 8 MiB, 0: none cached).
 *
 * Counters of this process since MPI_Init, never reset. */
struct colibri_setup_stats {
    long long comm_states;         /* communicator states created */
    long long comm_states_live;    /* ... and not yet freed */
    long long group_states;        /* group states created */
    long long group_shared;        /* first uses that found their group's state there */
    long long group_states_live;
    long long layouts_predicted;   /* node layouts computed locally from a parent's */
    long long layouts_exchanged;   /* node layouts computed by communicating */
    long long setup_collectives;   /* communicating MPI calls made for setup (dup,
                                      layout exchange, node communicator,
                                      first shared segment) */
    long long layout_collectives;  /* of those, the layout exchanges' */
    long long state_bytes;         /* heap bytes of colibri state allocated now,
                                      cached schedules included */
    long long shm_bytes;           /* shared-segment bytes this process allocated, now */
    long long schedules_cached;    /* schedules put in the cache */
    long long schedule_hits;       /* calls that reused a cached schedule */
    long long schedules_evicted;   /* dropped to stay under COLIBRI_CACHE_BYTES */
    long long schedule_bytes;      /* of state_bytes, the cached schedules' now */
    long long layout_rounds;       /* rounds of colibri's own allgather of node
                                      leaders in layout exchanges (ceil(lg p)
                                      per exchange) */
    long long layout_messages;     /* point-to-point messages this process sent
                                      in them (one per round) */
    long long online_agreements;   /* online selection's agreements, each one small
                                      MPI_MAX over the communicator: its decisions and,
                                      exploring a long shape, one after each candidate's
                                      calls from native's on (docs/tuning.md) */
    long long online_explored;     /* calls online selection ran as exploration */
    long long online_skipped;      /* automatic alltoallv calls that went to the MPI
                                      below without agreeing on the block sizes: every
                                      shape agreed on was settled on native
                                      (docs/tuning.md) */
    long long online_memo_explored; /* exploring calls that a memo served, as a
                                      settled call of the candidate runs: native's
                                      from the native memo at the interposed entry
                                      point, a colibri algorithm's from its call memo
                                      (counted in online_explored too) */
    long long rule_skipped;        /* automatic alltoallv calls that went to the MPI
                                      below without agreeing on the block sizes: the
                                      tuning file sends every size below on that
                                      communicator, or its rules sent the last agreed
                                      calls' sizes below (a window, docs/tuning.md) */
    long long native_memos;        /* calls remembered at the interposed entry points
                                      (each took the full path and went to the MPI
                                      below, or had nothing to move): an identical
                                      call after one is served there without
                                      colibri's driver, while the memo stays */
    long long named_skipped;       /* interposed MPI_Alltoallv calls that went to the
                                      MPI below with the caller's arrays because
                                      COLIBRI_ALLTOALLV_ALGORITHM=native names it */
};

int colibri_setup_stats(struct colibri_setup_stats *stats);

/* The node layout colibri uses on `comm` (collective over `comm` the first
 * time, as a first node-aware collective would be; then local):
 * node_of[r] (comm size entries) is the node of rank r, nodes numbered in
 * order of their lowest rank; *n_nodes their number.  The layout is what
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) gives, predicted or exchanged
 * (see colibri_setup_stats). */
int colibri_node_layout(MPI_Comm comm, int node_of[], int *n_nodes);

/* The catalog. */
typedef struct colibri_algorithm_info {
    colibri_coll coll;
    const char *collective;    /* "allreduce", "reduce", ... */
    const char *name;          /* "rabenseifner", ... */
    const char *restrictions;  /* space-separated, "" when none */
    const char *cost;          /* alpha-beta-gamma cost formula */
    int nonblocking;           /* also runs nonblocking and persistent calls */
} colibri_algorithm_info;

int colibri_catalog_size(void);
int colibri_catalog_get(int index, colibri_algorithm_info *info);
const char *colibri_coll_name(colibri_coll coll);

/* What automatic selection uses, as lines of text into buf (len bytes,
 * truncated): the tuning file in force (COLIBRI_TUNING, else the site's
 * default $PREFIX/etc/colibri/tuning) with its rules used and lines
 * ignored, the MPI and shape it was measured on, and the cost model's
 * parameters and where they come from.  colibri-info prints it. */
void colibri_tuning_describe(char *buf, size_t len);

/* Which MPI this library was compiled for and which it runs on, as two
 * lines of text into buf (len bytes, truncated):
 *   built for: <library and version from its mpi.h> (MPI x.y[, standard ABI a.b])
 *   runs on: <MPI_Get_library_version's first line>
 * A library built for the MPI-5 standard ABI (make MPI=abi) runs on any
 * MPI's libmpi_abi.so.  Callable before MPI_Init.  colibri-info prints it. */
void colibri_mpi_describe(char *buf, size_t len);

/* Name of the algorithm the last call of `coll` on `comm` ran on this
 * process ("native" when it went to the MPI below), or NULL if none ran. */
const char *colibri_last_algorithm(MPI_Comm comm, colibri_coll coll);

/* What the algorithm colibri would pick for this call (same on every rank)
 * on a communicator whose node layout it does not know: the node-aware
 * algorithms, which a real communicator's layout makes eligible, are not
 * among the candidates (colibri_last_algorithm says what a call ran).
 * alltoall: `count` elements per block; alltoallv: the largest block;
 * gather, scatter: per rank; gatherv, scatterv: not read (only the root
 * knows their sizes, so selection reads none). */
const char *colibri_select(colibri_coll coll, int comm_size, MPI_Count count,
                           int type_size, int commutative);

/* Dry run, no MPI communication: the cost of one rank's schedule.
 * For reduce_scatter, `counts` gives every rank's output count; for
 * alltoallv, this rank's count to (and from) each peer; for allgatherv,
 * gatherv and scatterv, every rank's block (as the root's recvcounts or
 * sendcounts, blocks packed in rank order); otherwise pass NULL
 * and `count` (alltoall: elements per block; gather, scatter: per rank).  Algorithms whose later rounds
 * depend on the peers' counts (sloav, sloavx) return
 * MPI_ERR_UNSUPPORTED_OPERATION. */
typedef struct colibri_cost {
    int rounds;               /* rounds that communicate */
    int64_t msgs_sent, msgs_recvd;
    int64_t bytes_sent, bytes_recvd;
    int64_t elems_reduced, elems_copied;
    int64_t tmp_bytes;        /* scratch memory */
} colibri_cost;

int colibri_dry_run(colibri_coll coll, const char *algorithm, int rank,
                    int comm_size, int root, MPI_Count count,
                    const MPI_Count *counts, int type_size, int commutative,
                    int in_place, colibri_cost *cost);

#ifdef __cplusplus
}
#endif
#endif
