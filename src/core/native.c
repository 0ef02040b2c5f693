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
