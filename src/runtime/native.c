/*
 * Hands a call to the MPI below.  Counts beyond INT_MAX use the MPI-4
 * large-count entry points where the library has them.
 *
 * The arrays of a call have the length the MPI standard gives them, which on
 * an intercommunicator is not always the local group's size: alltoall(v)'s
 * counts and displacements have one entry per process of the remote group,
 * reduce_scatter's recvcounts one per process of the local group (MPI-4.0
 * sections 6.8 and 6.10.1).  The interposed MPI_* entry points hand
 * intercommunicators to the MPI below themselves, untouched; these functions
 * serve the C API's MPI_Count calls and the MPI below chosen by selection.
 */
#include "native.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "online_turn.h"
#include "stats.h"
#include "state/setup.h"
#include "validate.h"
#include "../config/config.h"
#include "../select/select.h"

#if MPI_VERSION >= 4
#define HAVE_LARGE_COUNT 1
#else
#define HAVE_LARGE_COUNT 0
#endif

/* The form the caller asked for, of the MPI below's call: blocking,
 * nonblocking (MPI_I..., request in *req) or persistent (MPI-4 MPI_..._init;
 * older MPIs have none). */
#define FORMS(blocking, nonblocking, persistent, ...)                                   \
    (kind == CALL_BLOCKING      ? blocking(__VA_ARGS__)                                 \
     : kind == CALL_NONBLOCKING ? nonblocking(__VA_ARGS__, req)                         \
                                : PERSISTENT_FORM(persistent, __VA_ARGS__))
#if MPI_VERSION >= 4
#define PERSISTENT_FORM(f, ...) f(__VA_ARGS__, MPI_INFO_NULL, req)
#else
#define PERSISTENT_FORM(f, ...) MPI_ERR_UNSUPPORTED_OPERATION
#endif

/* Entries of reduce_scatter's recvcounts: the local group's size, also on an
 * intercommunicator; 0 for MPI_COMM_NULL or an unreadable handle (the MPI
 * below reports those). */
static int local_size(MPI_Comm comm)
{
    int size = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return 0;
    return size;
}

static int fits_int(const struct native_args *a)
{
    if (a->coll != COLIBRI_REDUCE_SCATTER)
        return a->count <= INT_MAX;
    int size = a->counts ? local_size(a->comm) : 0;
    for (int i = 0; i < size; i++)
        if (a->counts[i] > INT_MAX)
            return 0;
    return 1;
}

/* What colibri itself finds wrong in a call it hands down goes through the
 * communicator's error handler, as the MPI below's own errors do. */
static int refuse(MPI_Comm comm, colibri_coll coll, enum call_kind kind, int err_class,
                  const char *msg)
{
    if (comm == MPI_COMM_NULL)
        return err_class;
    return raise_error(comm, coll_fname(coll, kind), err_class, msg);
}

#define NO_PERSISTENT "the MPI below has no persistent collectives (MPI-4)"
#define NO_LARGE_COUNT "a count exceeds INT_MAX and the MPI below has no MPI-4 large-count calls"

int native_call(const struct native_args *a, enum call_kind kind, MPI_Request *req)
{
    if (MPI_VERSION < 4 && kind == CALL_PERSISTENT)
        return refuse(a->comm, a->coll, kind, MPI_ERR_UNSUPPORTED_OPERATION, NO_PERSISTENT);
    if (!fits_int(a)) {
#if HAVE_LARGE_COUNT
        switch (a->coll) {
        case COLIBRI_ALLREDUCE:
            return FORMS(PMPI_Allreduce_c, PMPI_Iallreduce_c, PMPI_Allreduce_init_c, a->sendbuf,
                         a->recvbuf, a->count, a->dt, a->op, a->comm);
        case COLIBRI_REDUCE:
            return FORMS(PMPI_Reduce_c, PMPI_Ireduce_c, PMPI_Reduce_init_c, a->sendbuf, a->recvbuf,
                         a->count, a->dt, a->op, a->root, a->comm);
        case COLIBRI_REDUCE_SCATTER_BLOCK:
            return FORMS(PMPI_Reduce_scatter_block_c, PMPI_Ireduce_scatter_block_c,
                         PMPI_Reduce_scatter_block_init_c, a->sendbuf, a->recvbuf, a->count, a->dt,
                         a->op, a->comm);
        case COLIBRI_REDUCE_SCATTER:
            _Static_assert(sizeof(MPI_Count) == sizeof(int64_t), "64-bit MPI_Count");
            return FORMS(PMPI_Reduce_scatter_c, PMPI_Ireduce_scatter_c, PMPI_Reduce_scatter_init_c,
                         a->sendbuf, a->recvbuf, (const MPI_Count *)a->counts, a->dt, a->op,
                         a->comm);
        case COLIBRI_SCAN:
            return FORMS(PMPI_Scan_c, PMPI_Iscan_c, PMPI_Scan_init_c, a->sendbuf, a->recvbuf,
                         a->count, a->dt, a->op, a->comm);
        case COLIBRI_EXSCAN:
            return FORMS(PMPI_Exscan_c, PMPI_Iexscan_c, PMPI_Exscan_init_c, a->sendbuf, a->recvbuf,
                         a->count, a->dt, a->op, a->comm);
        default:
            return MPI_ERR_INTERN;
        }
#else
        return refuse(a->comm, a->coll, kind, MPI_ERR_COUNT, NO_LARGE_COUNT);
#endif
    }
    switch (a->coll) {
    case COLIBRI_ALLREDUCE:
        return FORMS(PMPI_Allreduce, PMPI_Iallreduce, PMPI_Allreduce_init, a->sendbuf, a->recvbuf,
                     (int)a->count, a->dt, a->op, a->comm);
    case COLIBRI_REDUCE:
        return FORMS(PMPI_Reduce, PMPI_Ireduce, PMPI_Reduce_init, a->sendbuf, a->recvbuf,
                     (int)a->count, a->dt, a->op, a->root, a->comm);
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        return FORMS(PMPI_Reduce_scatter_block, PMPI_Ireduce_scatter_block,
                     PMPI_Reduce_scatter_block_init, a->sendbuf, a->recvbuf, (int)a->count, a->dt,
                     a->op, a->comm);
    case COLIBRI_REDUCE_SCATTER: {
        /* narrowed copy, freed on return (see native_exchange) */
        int size = a->counts ? local_size(a->comm) : 0;
        int *c = a->counts ? malloc((size_t)(size ? size : 1) * sizeof *c) : NULL;
        if (a->counts && !c)
            return refuse(a->comm, a->coll, kind, MPI_ERR_NO_MEM, "out of memory");
        for (int i = 0; i < size; i++)
            c[i] = (int)a->counts[i];
        int rc = FORMS(PMPI_Reduce_scatter, PMPI_Ireduce_scatter, PMPI_Reduce_scatter_init,
                       a->sendbuf, a->recvbuf, c, a->dt, a->op, a->comm);
        free(c);
        return rc;
    }
    case COLIBRI_SCAN:
        return FORMS(PMPI_Scan, PMPI_Iscan, PMPI_Scan_init, a->sendbuf, a->recvbuf, (int)a->count,
                     a->dt, a->op, a->comm);
    case COLIBRI_EXSCAN:
        return FORMS(PMPI_Exscan, PMPI_Iexscan, PMPI_Exscan_init, a->sendbuf, a->recvbuf,
                     (int)a->count, a->dt, a->op, a->comm);
    default:
        return MPI_ERR_INTERN;
    }
}

int comm_passes_through(MPI_Comm comm)
{
    int inter = 0;
    if (comm == MPI_COMM_NULL)
        return 1;
    return PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter;
}

static int exchange_fits_int(const struct exchange_args *a, int size)
{
    if (a->coll == COLIBRI_ALLTOALL)
        return a->sendcount <= INT_MAX && a->recvcount <= INT_MAX;
    for (int i = 0; i < size; i++)
        if ((a->sendcounts && a->sdispls && (a->sendcounts[i] > INT_MAX || a->sdispls[i] > INT_MAX ||
                               a->sdispls[i] < INT_MIN)) ||
            a->recvcounts[i] > INT_MAX || a->rdispls[i] > INT_MAX || a->rdispls[i] < INT_MIN)
            return 0;
    return 1;
}

/* Entries of alltoall(v)'s arrays: one per process the call sends to, the
 * remote group's size on an intercommunicator; 0 for MPI_COMM_NULL or an
 * unreadable handle (the MPI below reports those). */
static int peer_count(MPI_Comm comm)
{
    int size = 0, inter = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return 0;
    if ((inter ? PMPI_Comm_remote_size(comm, &size) : PMPI_Comm_size(comm, &size)) != MPI_SUCCESS)
        return 0;
    return size;
}

int native_exchange(const struct exchange_args *a, enum call_kind kind, MPI_Request *req)
{
    if (MPI_VERSION < 4 && kind == CALL_PERSISTENT)
        return refuse(a->comm, a->coll, kind, MPI_ERR_UNSUPPORTED_OPERATION, NO_PERSISTENT);
    const int size = peer_count(a->comm);
    int fits = a->coll == COLIBRI_ALLTOALL || (a->recvcounts && a->rdispls)
                   ? exchange_fits_int(a, size)
                   : 1; /* NULL arrays: let the MPI below report them */
    if (a->coll == COLIBRI_ALLTOALL) {
        if (fits)
            return FORMS(PMPI_Alltoall, PMPI_Ialltoall, PMPI_Alltoall_init, a->sendbuf,
                         (int)a->sendcount, a->sendtype, a->recvbuf, (int)a->recvcount,
                         a->recvtype, a->comm);
#if HAVE_LARGE_COUNT
        return FORMS(PMPI_Alltoall_c, PMPI_Ialltoall_c, PMPI_Alltoall_init_c, a->sendbuf,
                     a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, a->comm);
#else
        return refuse(a->comm, a->coll, kind, MPI_ERR_COUNT, NO_LARGE_COUNT);
#endif
    }
    if (!fits) {
#if HAVE_LARGE_COUNT
        _Static_assert(sizeof(MPI_Count) == sizeof(int64_t) && sizeof(MPI_Aint) == sizeof(int64_t),
                       "64-bit MPI_Count and MPI_Aint");
        return FORMS(PMPI_Alltoallv_c, PMPI_Ialltoallv_c, PMPI_Alltoallv_init_c, a->sendbuf,
                     (const MPI_Count *)a->sendcounts, (const MPI_Aint *)a->sdispls, a->sendtype,
                     a->recvbuf, (const MPI_Count *)a->recvcounts, (const MPI_Aint *)a->rdispls,
                     a->recvtype, a->comm);
#else
        return refuse(a->comm, a->coll, kind, MPI_ERR_COUNT, NO_LARGE_COUNT);
#endif
    }
    /* Narrowed copies of the arrays, freed on return also for the
     * nonblocking and persistent forms: Open MPI, MPICH and SMPI read them
     * only while the call builds its schedule. */
    int *v = malloc((size_t)(size ? size : 1) * 4 * sizeof *v);
    if (!v)
        return refuse(a->comm, a->coll, kind, MPI_ERR_NO_MEM, "out of memory");
    int *sc = v, *sd = v + size, *rc = v + 2 * size, *rd = v + 3 * size;
    for (int i = 0; i < size; i++) {
        sc[i] = a->sendcounts ? (int)a->sendcounts[i] : 0;
        sd[i] = a->sdispls ? (int)a->sdispls[i] : 0;
        rc[i] = a->recvcounts ? (int)a->recvcounts[i] : 0;
        rd[i] = a->rdispls ? (int)a->rdispls[i] : 0;
    }
    int r = FORMS(PMPI_Alltoallv, PMPI_Ialltoallv, PMPI_Alltoallv_init, a->sendbuf,
                  a->sendcounts ? sc : NULL, a->sdispls ? sd : NULL, a->sendtype, a->recvbuf,
                  a->recvcounts ? rc : NULL, a->rdispls ? rd : NULL, a->recvtype, a->comm);
    free(v);
    return r;
}

bool native_pair_agrees(MPI_Op op, MPI_Datatype dt, colibri_kernel k, int tsize)
{
    enum { N = 8 };
    static const unsigned char bytes[N] = {0x00, 0x01, 0x3f, 0x40, 0x7f, 0x80, 0xc0, 0xfe};
    if (!k || tsize <= 0 || tsize > 64)
        return true; /* colibri reduces with the MPI's own MPI_Reduce_local */
    unsigned char in[N * 64], mine[N * 64], theirs[N * 64];
    for (int i = 0; i < N; i++) {
        memset(in + i * tsize, bytes[i], (size_t)tsize);
        memset(mine + i * tsize, bytes[(i * 3 + 1) % N], (size_t)tsize);
    }
    memcpy(theirs, mine, (size_t)(N * tsize));
    k(in, mine, N);
    return PMPI_Reduce_local(in, theirs, N, dt, op) == MPI_SUCCESS &&
           memcmp(mine, theirs, (size_t)(N * tsize)) == 0;
}

int nothing_ran(MPI_Comm comm, colibri_coll coll, bool memo, int64_t count, MPI_Datatype dt,
                MPI_Op op, int root)
{
    struct comm_state *cs; /* created at a first call as any path would */
    if (comm_state_get(comm, &cs) == MPI_SUCCESS) {
        cs->last[coll] = "none";
        if (memo) {
            native_memo_note(coll, CALL_BLOCKING, comm, count, dt, op, root, cs, NULL, NULL)
                ->nothing = true;
        }
    }
    stats_count_none(coll, CALL_BLOCKING);
    return MPI_SUCCESS;
}

int nothing_started(MPI_Comm comm, colibri_coll coll, bool memo, int64_t count, MPI_Datatype dt,
                    MPI_Op op, int root, MPI_Request *req)
{
    /* the state made at a first call only where a memo needs it */
    struct comm_state *cs = NULL;
    if (memo ? comm_state_get(comm, &cs) == MPI_SUCCESS : (cs = online_skip_state(comm)) != NULL) {
        cs->last[coll] = "none";
        if (memo)
            native_memo_note(coll, CALL_NONBLOCKING, comm, count, dt, op, root, cs, NULL, NULL)
                ->nothing = true;
    }
    stats_count_none(coll, CALL_NONBLOCKING);
    return nothing_request(comm, req);
}

bool native_always_below(MPI_Comm comm, colibri_coll coll, enum call_kind kind)
{
    int size = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &size) != MPI_SUCCESS ||
        !select_always_below(coll, size))
        return false;
    struct comm_state *cs = comm_state_find(comm);
    if (cs)
        cs->last[coll] = "native";
    stats_count(NULL, coll, kind);
    return true;
}

/* Allgatherv's arrays have one entry per process it receives from: the
 * remote group's size on an intercommunicator (peer_count).  NULL arrays go
 * below as they are, for the MPI to report. */
static int native_allgatherv(const struct movement_args *a, enum call_kind kind, MPI_Request *req)
{
    const int size = peer_count(a->comm);
    int fits = a->sendcount <= INT_MAX;
    for (int i = 0; a->recvcounts && a->rdispls && i < size; i++)
        fits = fits && a->recvcounts[i] <= INT_MAX && a->rdispls[i] <= INT_MAX &&
               a->rdispls[i] >= INT_MIN;
    if (!fits) {
#if HAVE_LARGE_COUNT
        return FORMS(PMPI_Allgatherv_c, PMPI_Iallgatherv_c, PMPI_Allgatherv_init_c, a->sendbuf,
                     a->sendcount, a->sendtype, a->recvbuf, (const MPI_Count *)a->recvcounts,
                     (const MPI_Aint *)a->rdispls, a->recvtype, a->comm);
#else
        return refuse(a->comm, a->coll, kind, MPI_ERR_COUNT, NO_LARGE_COUNT);
#endif
    }
    /* narrowed copies, freed on return (see native_exchange) */
    int *v = malloc((size_t)(size ? size : 1) * 2 * sizeof *v);
    if (!v)
        return refuse(a->comm, a->coll, kind, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < size; i++) {
        v[i] = a->recvcounts ? (int)a->recvcounts[i] : 0;
        v[size + i] = a->rdispls ? (int)a->rdispls[i] : 0;
    }
    int r = FORMS(PMPI_Allgatherv, PMPI_Iallgatherv, PMPI_Allgatherv_init, a->sendbuf,
                  (int)a->sendcount, a->sendtype, a->recvbuf, a->recvcounts ? v : NULL,
                  a->rdispls ? v + size : NULL, a->recvtype, a->comm);
    free(v);
    return r;
}

/* Gatherv's receive arrays and scatterv's send arrays count at the root
 * only (MPI_ROOT's group on an intercommunicator), with one entry per
 * process of the other side (peer_count); elsewhere they go below as NULL,
 * as do NULL arrays, for the MPI to report. */
static bool arrays_significant(MPI_Comm comm, int root)
{
    int inter = 0, rank = -1;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return false;
    if (inter)
        return root == MPI_ROOT;
    return PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS && rank == root;
}

static int native_rooted_v(const struct movement_args *a, enum call_kind kind, MPI_Request *req)
{
    const bool gv = a->coll == COLIBRI_GATHERV, here = arrays_significant(a->comm, a->root);
    const int64_t *cnt = here ? (gv ? a->recvcounts : a->sendcounts) : NULL;
    const int64_t *dsp = here ? (gv ? a->rdispls : a->sdispls) : NULL;
    if (!cnt || !dsp)
        cnt = dsp = NULL;
    const int size = cnt ? peer_count(a->comm) : 0;
    int fits = (gv ? a->sendcount : a->recvcount) <= INT_MAX;
    for (int i = 0; i < size; i++)
        fits = fits && cnt[i] <= INT_MAX && dsp[i] <= INT_MAX && dsp[i] >= INT_MIN;
    if (!fits) {
#if HAVE_LARGE_COUNT
        if (gv)
            return FORMS(PMPI_Gatherv_c, PMPI_Igatherv_c, PMPI_Gatherv_init_c, a->sendbuf,
                         a->sendcount, a->sendtype, a->recvbuf, (const MPI_Count *)cnt,
                         (const MPI_Aint *)dsp, a->recvtype, a->root, a->comm);
        return FORMS(PMPI_Scatterv_c, PMPI_Iscatterv_c, PMPI_Scatterv_init_c, a->sendbuf,
                     (const MPI_Count *)cnt, (const MPI_Aint *)dsp, a->sendtype, a->recvbuf,
                     a->recvcount, a->recvtype, a->root, a->comm);
#else
        return refuse(a->comm, a->coll, kind, MPI_ERR_COUNT, NO_LARGE_COUNT);
#endif
    }
    /* narrowed copies, freed on return (see native_exchange) */
    int *v = malloc((size_t)(size ? size : 1) * 2 * sizeof *v);
    if (!v)
        return refuse(a->comm, a->coll, kind, MPI_ERR_NO_MEM, "out of memory");
    for (int i = 0; i < size; i++)
        v[i] = (int)cnt[i], v[size + i] = (int)dsp[i];
    int *vc = cnt ? v : NULL, *vd = cnt ? v + size : NULL, r;
    if (gv)
        r = FORMS(PMPI_Gatherv, PMPI_Igatherv, PMPI_Gatherv_init, a->sendbuf, (int)a->sendcount,
                  a->sendtype, a->recvbuf, vc, vd, a->recvtype, a->root, a->comm);
    else
        r = FORMS(PMPI_Scatterv, PMPI_Iscatterv, PMPI_Scatterv_init, a->sendbuf, vc, vd,
                  a->sendtype, a->recvbuf, (int)a->recvcount, a->recvtype, a->root, a->comm);
    free(v);
    return r;
}

/* Gather and scatter, and their v forms. */
static int native_rooted(const struct movement_args *a, enum call_kind kind, MPI_Request *req)
{
    if (a->coll == COLIBRI_GATHERV || a->coll == COLIBRI_SCATTERV)
        return native_rooted_v(a, kind, req);
    const bool g = a->coll == COLIBRI_GATHER;
    if (a->sendcount <= INT_MAX && a->recvcount <= INT_MAX) {
        if (g)
            return FORMS(PMPI_Gather, PMPI_Igather, PMPI_Gather_init, a->sendbuf,
                         (int)a->sendcount, a->sendtype, a->recvbuf, (int)a->recvcount,
                         a->recvtype, a->root, a->comm);
        return FORMS(PMPI_Scatter, PMPI_Iscatter, PMPI_Scatter_init, a->sendbuf,
                     (int)a->sendcount, a->sendtype, a->recvbuf, (int)a->recvcount, a->recvtype,
                     a->root, a->comm);
    }
#if HAVE_LARGE_COUNT
    if (g)
        return FORMS(PMPI_Gather_c, PMPI_Igather_c, PMPI_Gather_init_c, a->sendbuf, a->sendcount,
                     a->sendtype, a->recvbuf, a->recvcount, a->recvtype, a->root, a->comm);
    return FORMS(PMPI_Scatter_c, PMPI_Iscatter_c, PMPI_Scatter_init_c, a->sendbuf, a->sendcount,
                 a->sendtype, a->recvbuf, a->recvcount, a->recvtype, a->root, a->comm);
#else
    return refuse(a->comm, a->coll, kind, MPI_ERR_COUNT, NO_LARGE_COUNT);
#endif
}

int native_movement(const struct movement_args *a, enum call_kind kind, MPI_Request *req)
{
    if (MPI_VERSION < 4 && kind == CALL_PERSISTENT)
        return refuse(a->comm, a->coll, kind, MPI_ERR_UNSUPPORTED_OPERATION, NO_PERSISTENT);
    if (a->coll == COLIBRI_GATHER || a->coll == COLIBRI_GATHERV || a->coll == COLIBRI_SCATTER ||
        a->coll == COLIBRI_SCATTERV)
        return native_rooted(a, kind, req);
    if (a->coll == COLIBRI_BARRIER)
        return FORMS(PMPI_Barrier, PMPI_Ibarrier, PMPI_Barrier_init, a->comm);
    const bool fits = a->sendcount <= INT_MAX && a->recvcount <= INT_MAX;
    if (a->coll == COLIBRI_BCAST) {
        if (fits)
            return FORMS(PMPI_Bcast, PMPI_Ibcast, PMPI_Bcast_init, a->recvbuf, (int)a->recvcount,
                         a->recvtype, a->root, a->comm);
#if HAVE_LARGE_COUNT
        return FORMS(PMPI_Bcast_c, PMPI_Ibcast_c, PMPI_Bcast_init_c, a->recvbuf, a->recvcount,
                     a->recvtype, a->root, a->comm);
#else
        return refuse(a->comm, a->coll, kind, MPI_ERR_COUNT, NO_LARGE_COUNT);
#endif
    }
    if (a->coll == COLIBRI_ALLGATHERV)
        return native_allgatherv(a, kind, req);
    if (fits)
        return FORMS(PMPI_Allgather, PMPI_Iallgather, PMPI_Allgather_init, a->sendbuf,
                     (int)a->sendcount, a->sendtype, a->recvbuf, (int)a->recvcount, a->recvtype,
                     a->comm);
#if HAVE_LARGE_COUNT
    return FORMS(PMPI_Allgather_c, PMPI_Iallgather_c, PMPI_Allgather_init_c, a->sendbuf,
                 a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, a->comm);
#else
    return refuse(a->comm, a->coll, kind, MPI_ERR_COUNT, NO_LARGE_COUNT);
#endif
}

_Thread_local struct native_memo native_memo[NATIVE_MEMO_SLOTS];
bool native_memo_used;

int native_memo_timed(int rc)
{
    return online_turn_memo_end(rc);
}

struct native_memo *native_memo_note(colibri_coll coll, enum call_kind kind, MPI_Comm comm,
                                     int64_t count, MPI_Datatype dt, MPI_Op op, int root,
                                     struct comm_state *cs, struct online_shape *shape,
                                     struct sparse_estimate *est)
{
    const int tag = 1 + (int)coll * CALL_KINDS + (int)kind;
    __atomic_store_n(&native_memo_used, true, __ATOMIC_RELAXED);
    __atomic_add_fetch(&setup_stats.native_memos, 1, __ATOMIC_RELAXED);
    /* (tag, comm)'s way if the set has one; else way 0 if what it holds
     * can no longer serve (another configuration or communicator epoch);
     * else way 0 moves to way 1 (whose memo goes) and this one takes way 0 */
    const unsigned generation = config_get()->generation,
                   epoch = __atomic_load_n(&comm_state_epoch, __ATOMIC_RELAXED);
    struct native_memo *m = native_memo_set(comm, count, tag);
    if (m->tag != tag || m->comm != comm) {
        if (m[1].tag == tag && m[1].comm == comm)
            m++;
        else if (m->tag && m->generation == generation && m->epoch == epoch)
            m[1] = m[0];
    }
    /* the thread's last communicator with state (online_seen_size) */
    online_seen = (struct online_seen){comm, epoch, cs};
    *m =
        (struct native_memo){tag, comm, dt, op, count, root, generation, epoch, &cs->last[coll],
                             shape, shape ? shape->stamp : 0, cs,
                             kind != CALL_BLOCKING ? &cs->online.version : NULL,
                             cs->online.version, false, est, est ? est->made : 0};
    return m;
}
