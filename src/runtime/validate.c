/*
 * Argument validation.  colibri runs instead of the MPI's own collective, so
 * it must reject what that collective rejects, with the same error class,
 * before touching any buffer, and accept what it accepts (pair_goes_native).
 */
#include "validate.h"

#include <stdio.h>
#include <string.h>

#include "../kernels/dense.h"

/* Whether the datatype is one of MPI's named (predefined) ones. */
static int is_predefined_type(MPI_Datatype dt)
{
    int ni, na, nd, combiner;
    return PMPI_Type_get_envelope(dt, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
           combiner == MPI_COMBINER_NAMED;
}

/*
 * Which (operation, datatype) pairs colibri reduces itself.  MPI-3.1 5.9.2
 * defines the predefined operations on groups of predefined datatypes, but
 * the MPIs below accept more than that table (Open MPI and MPICH both take
 * the logical operations on MPI_AINT, MPI_OFFSET and MPI_COUNT and every
 * arithmetic one on MPI_CHAR) and real programs rely on it; a drop-in must
 * not be stricter than the library it replaces.  colibri cannot know that
 * set without asking the MPI at every call, and the results of such pairs
 * are the MPI's to define (MPI_CHAR's signedness, the MPI's own logical
 * values), so a predefined operation on a pair colibri has no kernel for
 * (kernels/dense.c: MPI_CHAR, MPI_WCHAR, the logical operations on the
 * address types, a derived datatype, anything the MPI adds) goes to the MPI
 * below whole: it serves the call, or refuses it with its own error class
 * through the communicator's error handler, before any buffer is touched,
 * on every rank alike, exactly as without colibri.  That also keeps
 * MPI_Reduce_local from refusing a pair mid-schedule on some ranks only
 * (the others would wait forever). */
int pair_goes_native(MPI_Op op, MPI_Datatype dt)
{
    return kernel_op_is_predefined(op) && !kernel_lookup(op, dt);
}

void pair_describe(MPI_Op op, MPI_Datatype dt, char *s, size_t len)
{
    const int named = is_predefined_type(dt);
    const char *on = kernel_op_name(op), *tn = named ? kernel_type_name(dt) : NULL;
    snprintf(s, len, "%s on %s", on ? on : "(user operation)",
             tn ? tn : named ? "(unnamed predefined datatype)" : "a derived datatype");
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
