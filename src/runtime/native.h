/* The MPI below, called with colibri's MPI_Count arguments. */
#ifndef COLIBRI_NATIVE_H
#define COLIBRI_NATIVE_H

#include <mpi.h>
#include <stdint.h>

#include "call.h"

struct native_args {
    colibri_coll coll;
    const void *sendbuf;
    void *recvbuf;
    int64_t count;
    const int64_t *counts;
    MPI_Datatype dt;
    MPI_Op op;
    int root;
    MPI_Comm comm;
};

/* The MPI below's call in the form `kind` (nonblocking and persistent give
 * their request in *req). */
int native_call(const struct native_args *a, enum call_kind kind, MPI_Request *req);

/* alltoall / alltoallv, with colibri's 64-bit counts and displacements
 * (alltoall: sendcount/recvcount; alltoallv: the arrays, in elements). */
struct exchange_args {
    colibri_coll coll;
    const void *sendbuf;
    int64_t sendcount;
    const int64_t *sendcounts, *sdispls;
    MPI_Datatype sendtype;
    void *recvbuf;
    int64_t recvcount;
    const int64_t *recvcounts, *rdispls;
    MPI_Datatype recvtype;
    MPI_Comm comm;
};

int native_exchange(const struct exchange_args *a, enum call_kind kind, MPI_Request *req);

/* Intercommunicators and MPI_COMM_NULL go to the MPI below, which handles
 * or reports them. */
int comm_passes_through(MPI_Comm comm);

#endif
