/*
 * Drop-in layer: strong MPI_* definitions that route the C entry points to
 * colibri.  Preloaded (or linked before libmpi) they take precedence over the
 * MPI library's; colibri itself only ever calls PMPI_*.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "../runtime/handles.h"
#include "../runtime/native.h"
#include "../runtime/online_turn.h"
#include "../runtime/operation.h"
#include "../runtime/progress.h"
#include "../runtime/state/engines.h"
#include "../runtime/stats.h"
#include "colibri.h"

/* Intercommunicators, MPI_COMM_NULL and handles colibri cannot read go to
 * the MPI below with the caller's own arguments, before anything is widened
 * or read: array lengths (the remote group's size for alltoall(v) on an
 * intercommunicator), MPI_ROOT and MPI_PROC_NULL roots, MPI_IN_PLACE rules,
 * info and error reports are then exactly the MPI's.  Every entry point
 * begins with this, after (for the collectives a `native` tuning rule may
 * send below) native_memo_hit: a call that went below by automatic choice
 * was an intracommunicator's, and an identical one goes below at once.
 * MPI_Allreduce and MPI_Reduce leave the test to colibri_allreduce and
 * colibri_reduce, whose first step is the same test (after their memo of an
 * identical call, which only an intracommunicator's call enters) and whose
 * pass-through makes the very same MPI call: the int count converts back
 * unchanged, nothing is widened, and a blocking call has no request to
 * check first.  A repeated call so tests its communicator once, or not at
 * all (api/reductions.c, call_memo). */
#define PASS_THROUGH(comm, pmpi_call)                                                   \
    do {                                                                                \
        if (comm_passes_through(comm))                                                  \
            return pmpi_call;                                                           \
    } while (0)

/* After native_memo_hit's answer `hit`: the MPI's call for
 * NATIVE_MEMO_BELOW, MPI_SUCCESS for NATIVE_MEMO_NOTHING where `same_rest`
 * (the arguments the memo does not key on cannot make the call another),
 * else the MPI's call too (it checks them and has nothing to move). */
#define MEMO_OR_BELOW(hit, same_rest, pmpi_call)                                        \
    do {                                                                                \
        const int memo_hit_ = (hit);                                                    \
        if (memo_hit_ == NATIVE_MEMO_NOTHING && (same_rest))                            \
            return MPI_SUCCESS;                                                         \
        if (memo_hit_ == NATIVE_MEMO_TIMED)                                             \
            return native_memo_timed(pmpi_call);                                        \
        if (memo_hit_ != NATIVE_MEMO_MISS)                                              \
            return pmpi_call;                                                           \
    } while (0)
/* A nonblocking call's: the MPI's call for NATIVE_MEMO_BELOW; for
 * NATIVE_MEMO_NOTHING (an identical call, checked then, had nothing to
 * move) a request already complete (native.h, nothing_request).  Looked
 * up only where the arguments the memo does not key on are the same. */
#define MEMO_OR_STARTED(hit, comm, request, pmpi_call)                                  \
    do {                                                                                \
        const int memo_hit_ = (hit);                                                    \
        if (memo_hit_ == NATIVE_MEMO_NOTHING)                                           \
            return nothing_request((comm), (request));                                  \
        if (memo_hit_ == NATIVE_MEMO_BELOW)                                             \
            return pmpi_call;                                                           \
    } while (0)

/* MEMO_OR_STARTED for MPI_Ialltoall and MPI_Iallgather (their arguments
 * by these names, `pmpi` the MPI's call): keyed by the receive side,
 * looked up where the send side is the same or in place. */
#define BLOCKS_MEMO_OR_STARTED(coll, pmpi)                                              \
    do {                                                                                \
        if (sendbuf == MPI_IN_PLACE || (sendcount == recvcount && sendtype == recvtype))\
            MEMO_OR_STARTED(native_memo_hit((coll), CALL_NONBLOCKING, comm, recvcount,  \
                                            recvtype, MPI_OP_NULL, 0),                  \
                            comm, request,                                              \
                            pmpi(sendbuf, sendcount, sendtype, recvbuf, recvcount,      \
                                 recvtype, comm, request));                             \
    } while (0)

/* The same where an identical call never has nothing to move. */
#define MEMO_BELOW(hit, pmpi_call) MEMO_OR_BELOW(hit, false, pmpi_call)

/* The same where the key comes from a counts array (native.h:
 * ALLGATHERV_MEMO_KEY, REDUCE_SCATTER_MEMO_KEY: the total, and the largest
 * block or a hash in the root's place), one pass over its entries (an
 * intracommunicator's size of them); only once a call has been
 * remembered.  It begins with PASS_THROUGH, except on the thread's last
 * communicator with colibri state (online_seen_size): an
 * intracommunicator whose size colibri knows, so no PMPI_ call comes
 * before the lookup there. */
#define COUNTS_MEMO_BELOW(key, coll, comm, counts, dt, op, pmpi_call)                        \
    do {                                                                                \
        int size_ = online_seen_size(comm);                                             \
        if (size_ == 0)                                                                 \
            PASS_THROUGH(comm, pmpi_call);                                              \
        if (__atomic_load_n(&native_memo_used, __ATOMIC_RELAXED) && (counts) &&         \
            (size_ > 0 || PMPI_Comm_size((comm), &size_) == MPI_SUCCESS)) {             \
            int64_t total_;                                                             \
            int extra_;                                                                 \
            key((counts), size_, total_, extra_);                                       \
            MEMO_BELOW(native_memo_hit((coll), CALL_BLOCKING, (comm), total_, (dt), (op), \
                                       extra_),                                         \
                       pmpi_call);                                                      \
        }                                                                               \
    } while (0)

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    MEMO_OR_BELOW(native_memo_hit(COLIBRI_ALLREDUCE, CALL_BLOCKING, comm, count, datatype, op, 0),
                  true, PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm));
    return colibri_allreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm)
{
    MEMO_OR_BELOW(native_memo_hit(COLIBRI_REDUCE, CALL_BLOCKING, comm, count, datatype, op, root),
                  true, PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm));
    return colibri_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    MEMO_OR_BELOW(native_memo_hit(COLIBRI_REDUCE_SCATTER_BLOCK, CALL_BLOCKING, comm, recvcount,
                                  datatype, op, 0),
                  true, PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm));
    PASS_THROUGH(comm, PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm));
    return colibri_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL);
}

/* int arrays widened to colibri's MPI_Count/MPI_Aint; small communicators
 * use the stack. */
static MPI_Count *widen(const int *v, int n, MPI_Count *small)
{
    if (!v)
        return NULL;
    MPI_Count *w = n <= 64 ? small : malloc((size_t)n * sizeof *w);
    for (int i = 0; w && i < n; i++)
        w[i] = v[i];
    return w;
}

#if MPI_VERSION >= 4
#define PERSISTENT_BELOW(f, ...) f(__VA_ARGS__, MPI_INFO_NULL, req)
#else
#define PERSISTENT_BELOW(f, ...) MPI_ERR_UNSUPPORTED_OPERATION /* no MPI_*_init below MPI-4 */
#endif
/* The MPI below's call of the form `kind` (requests in *req). */
#define BELOW(blocking, nonblocking, persistent, ...)                                   \
    (kind == CALL_BLOCKING      ? blocking(__VA_ARGS__)                                 \
     : kind == CALL_NONBLOCKING ? nonblocking(__VA_ARGS__, req)                         \
                                : PERSISTENT_BELOW(persistent, __VA_ARGS__))

/* MPI_Reduce_scatter, MPI_Ireduce_scatter, MPI_Reduce_scatter_init with int
 * counts, on an intracommunicator (PASS_THROUGH has sent the rest below).  A
 * NULL array goes to the MPI below, which reports it; so does a call colibri
 * has no memory to widen. */
static int reduce_scatter_int(enum call_kind kind, const void *sendbuf, void *recvbuf,
                              const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm, MPI_Request *req)
{
    int size = 0;
    MPI_Count small[64], *counts = NULL;
    if (PMPI_Comm_size(comm, &size) == MPI_SUCCESS)
        counts = widen(recvcounts, size, small);
    if (!counts)
        return BELOW(PMPI_Reduce_scatter, PMPI_Ireduce_scatter, PMPI_Reduce_scatter_init, sendbuf,
                     recvbuf, recvcounts, datatype, op, comm);
    int rc = kind == CALL_BLOCKING
                 ? colibri_reduce_scatter(sendbuf, recvbuf, counts, datatype, op, comm, NULL)
             : kind == CALL_NONBLOCKING
                 ? colibri_ireduce_scatter(sendbuf, recvbuf, counts, datatype, op, comm, NULL, req)
                 : colibri_reduce_scatter_init(sendbuf, recvbuf, counts, datatype, op, comm, NULL,
                                               req);
    if (counts != small)
        free(counts);
    return rc;
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    COUNTS_MEMO_BELOW(REDUCE_SCATTER_MEMO_KEY, COLIBRI_REDUCE_SCATTER, comm, recvcounts, datatype,
                      op, PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm));
    return reduce_scatter_int(CALL_BLOCKING, sendbuf, recvbuf, recvcounts, datatype, op, comm,
                              NULL);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    /* nothing to move: only if the send side is the same (empty) too */
    MEMO_OR_BELOW(
        native_memo_hit(COLIBRI_ALLTOALL, CALL_BLOCKING, comm, recvcount, recvtype, MPI_OP_NULL, 0),
        sendbuf == MPI_IN_PLACE || (sendcount == recvcount && sendtype == recvtype),
        PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
    PASS_THROUGH(comm, PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                     comm));
    return colibri_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

/* MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init with int arrays, on an
 * intracommunicator (PASS_THROUGH has sent the rest below, whose arrays have
 * the remote group's size): the arrays have PMPI_Comm_size entries. */
static int alltoallv_int(enum call_kind kind, const void *sendbuf, const int sendcounts[],
                         const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Request *req)
{
    int size = 0;
    if (PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return BELOW(PMPI_Alltoallv, PMPI_Ialltoallv, PMPI_Alltoallv_init, sendbuf, sendcounts,
                     sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
    _Static_assert(sizeof(MPI_Count) == sizeof(MPI_Aint), "MPI_Count and MPI_Aint differ");
    MPI_Count s[4][64];
    bool in_place = sendbuf == MPI_IN_PLACE;
    MPI_Count *sc = in_place ? NULL : widen(sendcounts, size, s[0]);
    MPI_Count *sd = in_place ? NULL : widen(sdispls, size, s[1]);
    MPI_Count *rc = widen(recvcounts, size, s[2]), *rd = widen(rdispls, size, s[3]);
    const MPI_Aint *sdw = (const MPI_Aint *)sd, *rdw = (const MPI_Aint *)rd;
    int ret;
    if ((!sc && sendcounts && !in_place) || (!sd && sdispls && !in_place) ||
        (!rc && recvcounts) || (!rd && rdispls))
        ret = BELOW(PMPI_Alltoallv, PMPI_Ialltoallv, PMPI_Alltoallv_init, sendbuf, sendcounts,
                    sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                    comm); /* out of memory: the MPI below can still do it */
    else if (kind == CALL_BLOCKING)
        ret = colibri_alltoallv(sendbuf, sc, sdw, sendtype, recvbuf, rc, rdw, recvtype, comm, NULL);
    else if (kind == CALL_NONBLOCKING)
        ret = colibri_ialltoallv(sendbuf, sc, sdw, sendtype, recvbuf, rc, rdw, recvtype, comm,
                                 NULL, req);
    else
        ret = colibri_alltoallv_init(sendbuf, sc, sdw, sendtype, recvbuf, rc, rdw, recvtype, comm,
                                     NULL, req);
    MPI_Count *all[4] = {sc, sd, rc, rd};
    for (int i = 0; i < 4; i++)
        if (all[i] != s[i])
            free(all[i]);
    return ret;
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    /* the agreed sizes settled on native: the caller's arrays go below as
     * they are (runtime/online_turn.h, online_skip_sizes_of; only an
     * intracommunicator has colibri state) */
    if (online_skip_sizes_of(comm))
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                              rdispls, recvtype, comm);
    PASS_THROUGH(comm, PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                      rdispls, recvtype, comm));
    return alltoallv_int(CALL_BLOCKING, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                         recvcounts, rdispls, recvtype, comm, NULL);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    MEMO_BELOW(native_memo_hit(COLIBRI_ALLGATHER, CALL_BLOCKING, comm, recvcount, recvtype, MPI_OP_NULL, 0),
               PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
    PASS_THROUGH(comm, PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm));
    return colibri_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                             NULL);
}

/* MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init with int arrays, on
 * an intracommunicator (PASS_THROUGH has sent the rest below): the arrays
 * have PMPI_Comm_size entries. */
static int allgatherv_int(enum call_kind kind, const void *sendbuf, int sendcount,
                          MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                          const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Request *req)
{
    int size = 0;
    MPI_Count s[2][64], *rc = NULL, *rd = NULL;
    if (PMPI_Comm_size(comm, &size) == MPI_SUCCESS)
        rc = widen(recvcounts, size, s[0]), rd = widen(displs, size, s[1]);
    int ret;
    if (!rc || !rd) /* NULL arrays (the MPI below reports them), or out of memory */
        ret = BELOW(PMPI_Allgatherv, PMPI_Iallgatherv, PMPI_Allgatherv_init, sendbuf, sendcount,
                    sendtype, recvbuf, recvcounts, displs, recvtype, comm);
    else if (kind == CALL_BLOCKING)
        ret = colibri_allgatherv(sendbuf, sendcount, sendtype, recvbuf, rc, (const MPI_Aint *)rd,
                                 recvtype, comm, NULL);
    else if (kind == CALL_NONBLOCKING)
        ret = colibri_iallgatherv(sendbuf, sendcount, sendtype, recvbuf, rc, (const MPI_Aint *)rd,
                                  recvtype, comm, NULL, req);
    else
        ret = colibri_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, rc,
                                      (const MPI_Aint *)rd, recvtype, comm, NULL, req);
    if (rc != s[0])
        free(rc);
    if (rd != s[1])
        free(rd);
    return ret;
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm)
{
    COUNTS_MEMO_BELOW(ALLGATHERV_MEMO_KEY, COLIBRI_ALLGATHERV, comm, recvcounts, recvtype,
                      MPI_OP_NULL,
                      PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                      recvtype, comm));
    return allgatherv_int(CALL_BLOCKING, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                          displs, recvtype, comm, NULL);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    MEMO_BELOW(native_memo_hit(COLIBRI_BCAST, CALL_BLOCKING, comm, count, datatype, MPI_OP_NULL, root),
               PMPI_Bcast(buffer, count, datatype, root, comm));
    PASS_THROUGH(comm, PMPI_Bcast(buffer, count, datatype, root, comm));
    return colibri_bcast(buffer, count, datatype, root, comm, NULL);
}

int MPI_Barrier(MPI_Comm comm)
{
    MEMO_BELOW(native_memo_hit(COLIBRI_BARRIER, CALL_BLOCKING, comm, 0, MPI_BYTE, MPI_OP_NULL, 0),
               PMPI_Barrier(comm));
    PASS_THROUGH(comm, PMPI_Barrier(comm));
    return colibri_barrier(comm, NULL);
}

/* Nonblocking forms (MPI-3). */
int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    MEMO_OR_STARTED(
        native_memo_hit(COLIBRI_ALLREDUCE, CALL_NONBLOCKING, comm, count, datatype, op, 0), comm,
        request, PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request));
    PASS_THROUGH(comm, PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request));
    return colibri_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL, request);
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *request)
{
    MEMO_OR_STARTED(
        native_memo_hit(COLIBRI_REDUCE, CALL_NONBLOCKING, comm, count, datatype, op, root), comm,
        request, PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request));
    PASS_THROUGH(comm, PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request));
    return colibri_ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL, request);
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request *request)
{
    MEMO_OR_STARTED(native_memo_hit(COLIBRI_REDUCE_SCATTER_BLOCK, CALL_NONBLOCKING, comm,
                                    recvcount, datatype, op, 0),
                    comm, request,
                    PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                               request));
    PASS_THROUGH(comm, PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                                  request));
    return colibri_ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL,
                                         request);
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm,
                                            request));
    return reduce_scatter_int(CALL_NONBLOCKING, sendbuf, recvbuf, recvcounts, datatype, op, comm,
                              request);
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    BLOCKS_MEMO_OR_STARTED(COLIBRI_ALLTOALL, PMPI_Ialltoall);
    PASS_THROUGH(comm, PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      comm, request));
    return colibri_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                             request);
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                       rdispls, recvtype, comm, request));
    return alltoallv_int(CALL_NONBLOCKING, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                         recvcounts, rdispls, recvtype, comm, request);
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    BLOCKS_MEMO_OR_STARTED(COLIBRI_ALLGATHER, PMPI_Iallgather);
    PASS_THROUGH(comm, PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, request));
    return colibri_iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              NULL, request);
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                        recvtype, comm, request));
    return allgatherv_int(CALL_NONBLOCKING, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                          displs, recvtype, comm, request);
}

int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request *request)
{
    MEMO_OR_STARTED(native_memo_hit(COLIBRI_BCAST, CALL_NONBLOCKING, comm, count, datatype,
                                    MPI_OP_NULL, root),
                    comm, request, PMPI_Ibcast(buffer, count, datatype, root, comm, request));
    PASS_THROUGH(comm, PMPI_Ibcast(buffer, count, datatype, root, comm, request));
    return colibri_ibcast(buffer, count, datatype, root, comm, NULL, request);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Ibarrier(comm, request));
    return colibri_ibarrier(comm, NULL, request);
}

#if MPI_VERSION >= 4
/* MPI-4 large-count forms (mpi4py on MPICH calls these for every reduction). */
int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Allreduce_c(sendbuf, recvbuf, count, datatype, op, comm));
    return colibri_allreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Reduce_c(sendbuf, recvbuf, count, datatype, op, root, comm));
    return colibri_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}

int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Reduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op,
                                                   comm));
    return colibri_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL);
}

int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Reduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm));
    return colibri_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, NULL);
}

int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Alltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm));
    return colibri_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Alltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                        rdispls, recvtype, comm));
    return colibri_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                             recvtype, comm, NULL);
}

int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                        recvtype, comm));
    return colibri_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                             NULL);
}

int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                     MPI_Datatype recvtype, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Allgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                         recvtype, comm));
    return colibri_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                              comm, NULL);
}

int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Bcast_c(buffer, count, datatype, root, comm));
    return colibri_bcast(buffer, count, datatype, root, comm, NULL);
}

/* MPI-4 persistent collectives (the info argument has no key colibri
 * reads) and the nonblocking large-count forms. */
int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info,
                                           request));
    return colibri_allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, NULL, request);
}

int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info,
                                        request));
    return colibri_reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, NULL, request);
}

int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op,
                                                      comm, info, request));
    return colibri_reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                             NULL, request);
}

int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm,
                                                info, request));
    return reduce_scatter_int(CALL_PERSISTENT, sendbuf, recvbuf, recvcounts, datatype, op, comm,
                              request);
}

int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, comm, info, request));
    return colibri_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 NULL, request);
}

int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                           recvcounts, rdispls, recvtype, comm, info, request));
    return alltoallv_int(CALL_PERSISTENT, sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                         recvcounts, rdispls, recvtype, comm, request);
}

int MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                           recvtype, comm, info, request));
    return colibri_allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm, NULL, request);
}

int MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int displs[],
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                            displs, recvtype, comm, info, request));
    return allgatherv_int(CALL_PERSISTENT, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                          displs, recvtype, comm, request);
}

int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Bcast_init(buffer, count, datatype, root, comm, info, request));
    return colibri_bcast_init(buffer, count, datatype, root, comm, NULL, request);
}

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Barrier_init(comm, info, request));
    return colibri_barrier_init(comm, NULL, request);
}

int MPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Iallgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                         recvtype, comm, request));
    return colibri_iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              NULL, request);
}

int MPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Iallgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                          displs, recvtype, comm, request));
    return colibri_iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                               recvtype, comm, NULL, request);
}

int MPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Ibcast_c(buffer, count, datatype, root, comm, request));
    return colibri_ibcast(buffer, count, datatype, root, comm, NULL, request);
}

int MPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Iallreduce_c(sendbuf, recvbuf, count, datatype, op, comm, request));
    return colibri_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL, request);
}

int MPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Ireduce_c(sendbuf, recvbuf, count, datatype, op, root, comm, request));
    return colibri_ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL, request);
}

int MPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Ireduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                                    request));
    return colibri_ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL,
                                         request);
}

int MPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Ireduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm,
                                              request));
    return colibri_ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, NULL,
                                   request);
}

int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Ialltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                        comm, request));
    return colibri_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL,
                             request);
}

int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Ialltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                         recvcounts, rdispls, recvtype, comm, request));
    return colibri_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm, NULL, request);
}
#endif

/*
 * Gather, gatherv, scatter, scatterv: blocking, nonblocking, persistent and
 * large-count forms.  Gather's receive arguments and scatter's send
 * arguments count at the root only: the v forms' int arrays are widened
 * there alone (PMPI_Comm_size entries) and stay NULL elsewhere, where MPI
 * lets a program pass anything.  The memo of native calls (native.h) is
 * keyed by the block a rank describes: its own (a gather's send side, a
 * scatter's receive side), the root's receive (gather) or send (scatter)
 * side when its own block is MPI_IN_PLACE, as colibri_gather notes it.
 */
#define GATHER_KEY(sendbuf) sendbuf == MPI_IN_PLACE ? recvcount : sendcount, \
                            sendbuf == MPI_IN_PLACE ? recvtype : sendtype
#define SCATTER_KEY(recvbuf) recvbuf == MPI_IN_PLACE ? sendcount : recvcount, \
                             recvbuf == MPI_IN_PLACE ? sendtype : recvtype

/* The v forms' int arrays widened at the root (NULL elsewhere, and for a
 * NULL array, which colibri reports); false when out of memory. */
static bool widen_at_root(const int *counts, const int *displs, int root, MPI_Comm comm,
                          MPI_Count small[2][64], MPI_Count **c, MPI_Count **d)
{
    int rank = -1, size = 0;
    *c = *d = NULL;
    if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS || rank != root ||
        PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return true;
    *c = widen(counts, size, small[0]);
    *d = widen(displs, size, small[1]);
    return (*c || !counts) && (*d || !displs);
}

static void free_widened(MPI_Count small[2][64], MPI_Count *c, MPI_Count *d)
{
    if (c != small[0])
        free(c);
    if (d != small[1])
        free(d);
}

/* MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init with int arrays, on an
 * intracommunicator (PASS_THROUGH has sent the rest below). */
static int gatherv_int(enum call_kind kind, const void *sendbuf, int sendcount,
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request *req)
{
    MPI_Count s[2][64], *rc, *rd;
    int ret;
    if (!widen_at_root(recvcounts, displs, root, comm, s, &rc, &rd))
        ret = BELOW(PMPI_Gatherv, PMPI_Igatherv, PMPI_Gatherv_init, sendbuf, sendcount, sendtype,
                    recvbuf, recvcounts, displs, recvtype, root, comm); /* out of memory */
    else if (kind == CALL_BLOCKING)
        ret = colibri_gatherv(sendbuf, sendcount, sendtype, recvbuf, rc, (const MPI_Aint *)rd,
                              recvtype, root, comm, NULL);
    else if (kind == CALL_NONBLOCKING)
        ret = colibri_igatherv(sendbuf, sendcount, sendtype, recvbuf, rc, (const MPI_Aint *)rd,
                               recvtype, root, comm, NULL, req);
    else
        ret = colibri_gatherv_init(sendbuf, sendcount, sendtype, recvbuf, rc,
                                   (const MPI_Aint *)rd, recvtype, root, comm, NULL, req);
    free_widened(s, rc, rd);
    return ret;
}

/* MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init likewise. */
static int scatterv_int(enum call_kind kind, const void *sendbuf, const int sendcounts[],
                        const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *req)
{
    MPI_Count s[2][64], *sc, *sd;
    int ret;
    if (!widen_at_root(sendcounts, displs, root, comm, s, &sc, &sd))
        ret = BELOW(PMPI_Scatterv, PMPI_Iscatterv, PMPI_Scatterv_init, sendbuf, sendcounts, displs,
                    sendtype, recvbuf, recvcount, recvtype, root, comm); /* out of memory */
    else if (kind == CALL_BLOCKING)
        ret = colibri_scatterv(sendbuf, sc, (const MPI_Aint *)sd, sendtype, recvbuf, recvcount,
                               recvtype, root, comm, NULL);
    else if (kind == CALL_NONBLOCKING)
        ret = colibri_iscatterv(sendbuf, sc, (const MPI_Aint *)sd, sendtype, recvbuf, recvcount,
                                recvtype, root, comm, NULL, req);
    else
        ret = colibri_scatterv_init(sendbuf, sc, (const MPI_Aint *)sd, sendtype, recvbuf,
                                    recvcount, recvtype, root, comm, NULL, req);
    free_widened(s, sc, sd);
    return ret;
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    MEMO_BELOW(native_memo_hit(COLIBRI_GATHER, CALL_BLOCKING, comm, GATHER_KEY(sendbuf), MPI_OP_NULL,
                        root),
               PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
    PASS_THROUGH(comm, PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                   root, comm));
    return colibri_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                          NULL);
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    /* the v forms' automatic choice reads no count (only the root knows
     * them): the memo's key is the communicator and root (api/rooted.c) */
    MEMO_BELOW(native_memo_hit(COLIBRI_GATHERV, CALL_BLOCKING, comm, 0, MPI_DATATYPE_NULL,
                               MPI_OP_NULL, root),
               PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            root, comm));
    PASS_THROUGH(comm, PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, root, comm));
    return gatherv_int(CALL_BLOCKING, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                       recvtype, root, comm, NULL);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    MEMO_BELOW(native_memo_hit(COLIBRI_SCATTER, CALL_BLOCKING, comm, SCATTER_KEY(recvbuf), MPI_OP_NULL,
                        root),
               PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
    PASS_THROUGH(comm, PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    root, comm));
    return colibri_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           NULL);
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    MEMO_BELOW(native_memo_hit(COLIBRI_SCATTERV, CALL_BLOCKING, comm, 0, MPI_DATATYPE_NULL,
                               MPI_OP_NULL, root),
               PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                             root, comm));
    PASS_THROUGH(comm, PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                     recvtype, root, comm));
    return scatterv_int(CALL_BLOCKING, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                        recvtype, root, comm, NULL);
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    root, comm, request));
    return colibri_igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           NULL, request);
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, root, comm, request));
    if (native_always_below(comm, COLIBRI_GATHERV, CALL_NONBLOCKING))
        return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                             root, comm, request);
    return gatherv_int(CALL_NONBLOCKING, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                       displs, recvtype, root, comm, request);
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                     root, comm, request));
    return colibri_iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            NULL, request);
}

int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                      recvtype, root, comm, request));
    if (native_always_below(comm, COLIBRI_SCATTERV, CALL_NONBLOCKING))
        return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                              root, comm, request);
    return scatterv_int(CALL_NONBLOCKING, sendbuf, sendcounts, displs, sendtype, recvbuf,
                        recvcount, recvtype, root, comm, request);
}

#if MPI_VERSION >= 4
int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                        recvtype, root, comm, info, request));
    return colibri_gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm, NULL, request);
}

int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                         displs, recvtype, root, comm, info, request));
    return gatherv_int(CALL_PERSISTENT, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                       recvtype, root, comm, request);
}

int MPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                         recvtype, root, comm, info, request));
    return colibri_scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                comm, NULL, request);
}

int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                          recvcount, recvtype, root, comm, info, request));
    return scatterv_int(CALL_PERSISTENT, sendbuf, sendcounts, displs, sendtype, recvbuf,
                        recvcount, recvtype, root, comm, request);
}

int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Gather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                     root, comm));
    return colibri_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                          NULL);
}

int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Gatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                      recvtype, root, comm));
    return colibri_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           root, comm, NULL);
}

int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Scatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      root, comm));
    return colibri_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           NULL);
}

int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    PASS_THROUGH(comm, PMPI_Scatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                       recvtype, root, comm));
    return colibri_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                            root, comm, NULL);
}

int MPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Igather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      root, comm, request));
    return colibri_igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                           NULL, request);
}

int MPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                   MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Igatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                       recvtype, root, comm, request));
    return colibri_igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            root, comm, NULL, request);
}

int MPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Iscatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       root, comm, request));
    return colibri_iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            comm, NULL, request);
}

int MPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    PASS_THROUGH(comm, PMPI_Iscatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                        recvtype, root, comm, request));
    return colibri_iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                             root, comm, NULL, request);
}
#endif

/* The prefix reductions, every form (api/reductions.c, colibri_scan),
 * straight to colibri: scan and exscan are invalid on an
 * intercommunicator, and colibri_scan's first step reports that itself
 * (MPI_ERR_COMM; Open MPI 4.1's MPI_Exscan crashes on one); MPI_COMM_NULL
 * and unreadable handles go below from there. */
int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm)
{
    MEMO_BELOW(native_memo_hit(COLIBRI_SCAN, CALL_BLOCKING, comm, count, datatype, op, 0),
               PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm));
    return colibri_scan(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm)
{
    MEMO_BELOW(native_memo_hit(COLIBRI_EXSCAN, CALL_BLOCKING, comm, count, datatype, op, 0),
               PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm));
    return colibri_exscan(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request *request)
{
    return colibri_iscan(sendbuf, recvbuf, count, datatype, op, comm, NULL, request);
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request *request)
{
    return colibri_iexscan(sendbuf, recvbuf, count, datatype, op, comm, NULL, request);
}

#if MPI_VERSION >= 4
int MPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
               MPI_Op op, MPI_Comm comm)
{
    return colibri_scan(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int MPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm)
{
    return colibri_exscan(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int MPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return colibri_iscan(sendbuf, recvbuf, count, datatype, op, comm, NULL, request);
}

int MPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return colibri_iexscan(sendbuf, recvbuf, count, datatype, op, comm, NULL, request);
}

int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return colibri_scan_init(sendbuf, recvbuf, count, datatype, op, comm, NULL, request);
}

int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    return colibri_exscan_init(sendbuf, recvbuf, count, datatype, op, comm, NULL, request);
}
#endif

/* A program may free an operation or a datatype right after starting a
 * nonblocking or persistent collective that uses it; one that a colibri
 * operation still uses is freed when that operation ends (handles.h). */
int MPI_Op_free(MPI_Op *op)
{
    return handle_defer_op_free(op) ? MPI_SUCCESS : handle_free_now(op, NULL);
}

int MPI_Type_free(MPI_Datatype *datatype)
{
    return handle_defer_type_free(datatype) ? MPI_SUCCESS : handle_free_now(NULL, datatype);
}

int MPI_Finalize(void)
{
    progress_thread_stop();
    nbc_drain();
    engines_unhook();
    stats_report();
    return PMPI_Finalize();
}
