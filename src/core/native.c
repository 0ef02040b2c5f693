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

int native_call(const struct native_args *a)
{
    if (!fits_int(a)) {
#if HAVE_LARGE_COUNT
        switch (a->coll) {
        case COLIBRI_ALLREDUCE:
            return PMPI_Allreduce_c(a->sendbuf, a->recvbuf, a->count, a->dt, a->op, a->comm);
        case COLIBRI_REDUCE:
            return PMPI_Reduce_c(a->sendbuf, a->recvbuf, a->count, a->dt, a->op, a->root, a->comm);
        case COLIBRI_REDUCE_SCATTER_BLOCK:
            return PMPI_Reduce_scatter_block_c(a->sendbuf, a->recvbuf, a->count, a->dt, a->op, a->comm);
        case COLIBRI_REDUCE_SCATTER: {
            int size;
            PMPI_Comm_size(a->comm, &size);
            MPI_Count *c = malloc((size_t)size * sizeof *c);
            if (!c)
                return MPI_ERR_NO_MEM;
            for (int i = 0; i < size; i++)
                c[i] = a->counts[i];
            int rc = PMPI_Reduce_scatter_c(a->sendbuf, a->recvbuf, c, a->dt, a->op, a->comm);
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
        return PMPI_Allreduce(a->sendbuf, a->recvbuf, (int)a->count, a->dt, a->op, a->comm);
    case COLIBRI_REDUCE:
        return PMPI_Reduce(a->sendbuf, a->recvbuf, (int)a->count, a->dt, a->op, a->root, a->comm);
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        return PMPI_Reduce_scatter_block(a->sendbuf, a->recvbuf, (int)a->count, a->dt, a->op,
                                         a->comm);
    case COLIBRI_REDUCE_SCATTER: {
        int size;
        PMPI_Comm_size(a->comm, &size);
        int *c = malloc((size_t)size * sizeof *c);
        if (!c)
            return MPI_ERR_NO_MEM;
        for (int i = 0; i < size; i++)
            c[i] = (int)a->counts[i];
        int rc = PMPI_Reduce_scatter(a->sendbuf, a->recvbuf, c, a->dt, a->op, a->comm);
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

int native_exchange(const struct exchange_args *a)
{
    int size = 0;
    if (a->comm != MPI_COMM_NULL)
        PMPI_Comm_size(a->comm, &size);
    int fits = a->coll == COLIBRI_ALLTOALL || (a->recvcounts && a->rdispls)
                   ? exchange_fits_int(a, size)
                   : 1; /* NULL arrays: let the MPI below report them */
    if (a->coll == COLIBRI_ALLTOALL) {
        if (fits)
            return PMPI_Alltoall(a->sendbuf, (int)a->sendcount, a->sendtype, a->recvbuf,
                                 (int)a->recvcount, a->recvtype, a->comm);
#if HAVE_LARGE_COUNT
        return PMPI_Alltoall_c(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                               a->recvtype, a->comm);
#else
        return MPI_ERR_COUNT;
#endif
    }
    if (!fits) {
#if HAVE_LARGE_COUNT
        _Static_assert(sizeof(MPI_Count) == sizeof(int64_t) && sizeof(MPI_Aint) == sizeof(int64_t),
                       "64-bit MPI_Count and MPI_Aint");
        return PMPI_Alltoallv_c(a->sendbuf, (const MPI_Count *)a->sendcounts,
                                (const MPI_Aint *)a->sdispls, a->sendtype, a->recvbuf,
                                (const MPI_Count *)a->recvcounts, (const MPI_Aint *)a->rdispls,
                                a->recvtype, a->comm);
#else
        return MPI_ERR_COUNT;
#endif
    }
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
    int r = PMPI_Alltoallv(a->sendbuf, a->sendcounts ? sc : NULL, a->sdispls ? sd : NULL,
                           a->sendtype, a->recvbuf, a->recvcounts ? rc : NULL,
                           a->rdispls ? rd : NULL, a->recvtype, a->comm);
    free(v);
    return r;
}
