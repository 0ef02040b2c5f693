/*
 * Argument validation.  colibri runs instead of the MPI's own collective, so
 * it must reject what that collective rejects, with the same error class,
 * before touching any buffer.
 */
#include "validate.h"

#include <stdio.h>
#include <string.h>

#include "../kernels/dense.h"

/* MPI defines the predefined operations on predefined datatypes only
 * (MPI-3.1 5.9.2; Open MPI and MPICH both refuse a derived one with
 * MPI_ERR_OP).  Refusing it here matters beyond conformance: the executor's
 * MPI_Reduce_local would refuse it mid-schedule on some ranks only, and the
 * others would wait forever for their messages. */
static int is_predefined_type(MPI_Datatype dt)
{
    int ni, na, nd, combiner;
    return PMPI_Type_get_envelope(dt, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
           combiner == MPI_COMBINER_NAMED;
}

static int is_in_place(const void *p) { return p == MPI_IN_PLACE; }

/* MPICH's rule: a NULL buffer is an error for a non-empty message unless the
 * datatype addresses memory absolutely (MPI_BOTTOM with a true lower bound). */
static int bad_null(const void *buf, int64_t count, MPI_Datatype dt)
{
    if (buf != NULL || count <= 0)
        return 0;
    MPI_Aint lb, extent;
    PMPI_Type_get_true_extent(dt, &lb, &extent);
    return lb == 0;
}

int validate_call(const struct call_args *a, char *msg, size_t len)
{
    int64_t in_count = a->count, out_count = a->count;
    if (a->coll == COLIBRI_REDUCE_SCATTER) {
        in_count = 0;
        for (int i = 0; i < a->size; i++) {
            if (a->counts[i] < 0) {
                snprintf(msg, len, "recvcounts[%d] is negative (%lld)", i, (long long)a->counts[i]);
                return MPI_ERR_COUNT;
            }
            in_count += a->counts[i];
        }
        out_count = a->counts[a->rank];
    } else if (a->count < 0) {
        snprintf(msg, len, "count is negative (%lld)", (long long)a->count);
        return MPI_ERR_COUNT;
    } else if (a->coll == COLIBRI_REDUCE_SCATTER_BLOCK) {
        in_count = a->count * a->size;
    }

    if (a->dt == MPI_DATATYPE_NULL) {
        snprintf(msg, len, "datatype is MPI_DATATYPE_NULL");
        return MPI_ERR_TYPE;
    }
    if (a->op == MPI_OP_NULL) {
        snprintf(msg, len, "operation is MPI_OP_NULL");
        return MPI_ERR_OP;
    }
    if (a->op == MPI_REPLACE || a->op == MPI_NO_OP) {
        snprintf(msg, len, "%s is not a reduction operation", a->op == MPI_REPLACE ? "MPI_REPLACE" : "MPI_NO_OP");
        return MPI_ERR_OP;
    }
    if (kernel_op_is_predefined(a->op) && !kernel_lookup(a->op, a->dt)) {
        const char *tn = is_predefined_type(a->dt) ? kernel_type_name(a->dt) : "(derived)";
        snprintf(msg, len, "%s is not defined for datatype %s", kernel_op_name(a->op),
                 tn ? tn : "(unnamed)");
        return MPI_ERR_OP;
    }
    if (a->coll == COLIBRI_REDUCE && (a->root < 0 || a->root >= a->size)) {
        snprintf(msg, len, "root %d is not a rank of the communicator (size %d)", a->root, a->size);
        return MPI_ERR_ROOT;
    }

    int is_root = a->coll != COLIBRI_REDUCE || a->rank == a->root;
    if (is_in_place(a->recvbuf)) {
        snprintf(msg, len, "recvbuf is MPI_IN_PLACE");
        return MPI_ERR_BUFFER;
    }
    if (is_in_place(a->sendbuf) && !is_root) {
        snprintf(msg, len, "MPI_IN_PLACE is only allowed at the root");
        return MPI_ERR_BUFFER;
    }
    if (!is_in_place(a->sendbuf) && bad_null(a->sendbuf, in_count, a->dt)) {
        snprintf(msg, len, "sendbuf is NULL with count %lld", (long long)in_count);
        return MPI_ERR_BUFFER;
    }
    if (is_root && bad_null(a->recvbuf, is_in_place(a->sendbuf) ? in_count : out_count, a->dt)) {
        snprintf(msg, len, "recvbuf is NULL with count %lld", (long long)out_count);
        return MPI_ERR_BUFFER;
    }
    if (is_root && in_count > 0 && a->sendbuf == a->recvbuf) {
        snprintf(msg, len, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
        return MPI_ERR_BUFFER;
    }
    return MPI_SUCCESS;
}

int raise_error(MPI_Comm comm, const char *fname, int err_class, const char *msg)
{
    fprintf(stderr, "colibri: %s: %s\n", fname, msg);
    /* MPI_ERRORS_RETURN only means "return the code"; calling it is
     * pointless and crashes SimGrid SMPI 3.32. */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    PMPI_Comm_get_errhandler(comm, &eh);
    if (eh != MPI_ERRORS_RETURN)
        PMPI_Comm_call_errhandler(comm, err_class);
    if (eh != MPI_ERRHANDLER_NULL && eh != MPI_ERRORS_RETURN && eh != MPI_ERRORS_ARE_FATAL)
        PMPI_Errhandler_free(&eh);
    return err_class;
}
