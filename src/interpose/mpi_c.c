/*
 * Drop-in layer: strong MPI_* definitions that route the C entry points to
 * colibri.  Preloaded (or linked before libmpi) they take precedence over the
 * MPI library's; colibri itself only ever calls PMPI_*.
 */
#include <stdbool.h>
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

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return colibri_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
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

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    int size = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
    _Static_assert(sizeof(MPI_Count) == sizeof(MPI_Aint), "MPI_Count and MPI_Aint differ");
    MPI_Count s[4][64];
    bool in_place = sendbuf == MPI_IN_PLACE;
    MPI_Count *sc = in_place ? NULL : widen(sendcounts, size, s[0]);
    MPI_Count *sd = in_place ? NULL : widen(sdispls, size, s[1]);
    MPI_Count *rc = widen(recvcounts, size, s[2]), *rd = widen(rdispls, size, s[3]);
    int ret;
    if ((!sc && sendcounts && !in_place) || (!sd && sdispls && !in_place) ||
        (!rc && recvcounts) || (!rd && rdispls))
        ret = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                             recvtype, comm); /* out of memory: the MPI below can still do it */
    else
        ret = colibri_alltoallv(sendbuf, sc, (const MPI_Aint *)sd, sendtype, recvbuf, rc,
                                (const MPI_Aint *)rd, recvtype, comm, NULL);
    MPI_Count *all[4] = {sc, sd, rc, rd};
    for (int i = 0; i < 4; i++)
        if (all[i] != s[i])
            free(all[i]);
    return ret;
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

int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return colibri_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return colibri_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                             recvtype, comm, NULL);
}
#endif

int MPI_Finalize(void)
{
    stats_report();
    return PMPI_Finalize();
}
