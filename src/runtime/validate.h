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

/* MPI_SUCCESS, or an MPI error class with a one-line description in msg.
 * Whether the MPI defines a->op on a->dt is not checked here: see
 * pair_goes_native. */
int validate_call(const struct call_args *a, char *msg, size_t len);

/* True when op is a predefined reduction colibri has no kernel for on dt
 * (MPI_SUM on MPI_CHAR, MPI_LAND on MPI_AINT, a derived datatype, a pair
 * MPI does not define at all): the call goes to the MPI below, which
 * serves it or reports its own error, as it would without colibri. */
int pair_goes_native(MPI_Op op, MPI_Datatype dt);

/* "MPI_SUM on MPI_CHAR", for messages. */
void pair_describe(MPI_Op op, MPI_Datatype dt, char *s, size_t len);

/* Reports an error the MPI way: one line on stderr naming the call and the
 * problem, then the communicator's error handler; returns the class. */
int raise_error(MPI_Comm comm, const char *fname, int err_class, const char *msg);

#endif
