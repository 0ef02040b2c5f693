/*
 * Drop-in layer: strong MPI_* definitions that route the C entry points to
 * colibri.  Preloaded (or linked before libmpi) they take precedence over the
 * MPI library's; colibri itself only ever calls PMPI_*.
 */
#include <stdlib.h>

#include "../core/runtime.h"
#include "colibri.h"

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    return colibri_allreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm)
{
    return colibri_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return colibri_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL);
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    int size = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &size) != MPI_SUCCESS || !recvcounts)
        return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    MPI_Count small[64], *counts = size <= 64 ? small : malloc((size_t)size * sizeof *counts);
    if (!counts)
        return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    for (int i = 0; i < size; i++)
        counts[i] = recvcounts[i];
    int rc = colibri_reduce_scatter(sendbuf, recvbuf, counts, datatype, op, comm, NULL);
    if (counts != small)
        free(counts);
    return rc;
}

#if MPI_VERSION >= 4
/* MPI-4 large-count forms (mpi4py on MPICH calls these for every reduction). */
int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm)
{
    return colibri_allreduce(sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm)
{
    return colibri_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}

int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return colibri_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL);
}

int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return colibri_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, NULL);
}
#endif

int MPI_Finalize(void)
{
    stats_report();
    return PMPI_Finalize();
}
