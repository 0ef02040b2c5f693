/*
 * Hands a call to the MPI below.  Counts beyond INT_MAX use the MPI-4
 * large-count entry points where the library has them.
 */
#include "native.h"

#include <limits.h>
#include <stdlib.h>

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

static int fits_int(const struct native_args *a)
{
    if (a->coll != COLIBRI_REDUCE_SCATTER)
        return a->count <= INT_MAX;
    int size;
    PMPI_Comm_size(a->comm, &size);
    for (int i = 0; i < size; i++)
        if (a->counts[i] > INT_MAX)
            return 0;
    return 1;
}

int native_call(const struct native_args *a, enum call_kind kind, MPI_Request *req)
{
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
        case COLIBRI_REDUCE_SCATTER: {
            int size;
            PMPI_Comm_size(a->comm, &size);
            MPI_Count *c = malloc((size_t)size * sizeof *c);
            if (!c)
                return MPI_ERR_NO_MEM;
            for (int i = 0; i < size; i++)
                c[i] = a->counts[i];
            int rc = FORMS(PMPI_Reduce_scatter_c, PMPI_Ireduce_scatter_c, PMPI_Reduce_scatter_init_c,
                           a->sendbuf, a->recvbuf, c, a->dt, a->op, a->comm);
            free(c);
            return rc;
        }
        default:
            return MPI_ERR_INTERN;
        }
#else
        return MPI_ERR_COUNT;
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
        int size;
        PMPI_Comm_size(a->comm, &size);
        int *c = malloc((size_t)size * sizeof *c);
        if (!c)
            return MPI_ERR_NO_MEM;
        for (int i = 0; i < size; i++)
            c[i] = (int)a->counts[i];
        int rc = FORMS(PMPI_Reduce_scatter, PMPI_Ireduce_scatter, PMPI_Reduce_scatter_init,
                       a->sendbuf, a->recvbuf, c, a->dt, a->op, a->comm);
        free(c);
        return rc;
    }
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
        if ((a->sendcounts && (a->sendcounts[i] > INT_MAX || a->sdispls[i] > INT_MAX ||
                               a->sdispls[i] < INT_MIN)) ||
            a->recvcounts[i] > INT_MAX || a->rdispls[i] > INT_MAX || a->rdispls[i] < INT_MIN)
            return 0;
    return 1;
}

int native_exchange(const struct exchange_args *a, enum call_kind kind, MPI_Request *req)
{
    int size = 0;
    if (a->comm != MPI_COMM_NULL)
        PMPI_Comm_size(a->comm, &size);
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
        return MPI_ERR_COUNT;
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
        return MPI_ERR_COUNT;
#endif
    }
    /* Narrowed copies of the arrays, freed on return also for the
     * nonblocking and persistent forms: Open MPI, MPICH and SMPI read them
     * only while the call builds its schedule. */
    int *v = malloc((size_t)(size ? size : 1) * 4 * sizeof *v);
    if (!v)
        return MPI_ERR_NO_MEM;
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
