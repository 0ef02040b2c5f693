/* Argument checks, in the order and with the error classes MPI uses,
 * done before any buffer is touched. */
#ifndef COLIBRI_VALIDATE_H
#define COLIBRI_VALIDATE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "colibri.h"

struct call_args {
    colibri_coll coll;
    const void *sendbuf;
    const void *recvbuf;
    int64_t count;          /* allreduce, reduce, reduce_scatter_block */
    const int64_t *counts;  /* reduce_scatter: one per rank */
    MPI_Datatype dt;
    MPI_Op op;
    int root;
    int rank, size;
};

/* MPI_SUCCESS, or an MPI error class with a one-line description in msg. */
int validate_call(const struct call_args *a, char *msg, size_t len);

/* Reports an error the MPI way: one line on stderr naming the call and the
 * problem, then the communicator's error handler; returns the class. */
int raise_error(MPI_Comm comm, const char *fname, int err_class, const char *msg);

#endif
