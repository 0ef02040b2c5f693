/* The MPI below, called with colibri's MPI_Count arguments. */
#ifndef COLIBRI_NATIVE_H
#define COLIBRI_NATIVE_H

#include <mpi.h>
#include <stdint.h>

#include "colibri.h"

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

int native_call(const struct native_args *a);

#endif
