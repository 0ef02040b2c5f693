/*
 * Local reduction kernels for predefined operations on predefined datatypes.
 *
 * A kernel computes inout[i] = in[i] (op) inout[i] for n elements of the
 * datatype, where element i lives at byte offset i*extent (so the pair types
 * of MAXLOC/MINLOC, whose extent exceeds their size, are handled as the
 * structs they are).  All predefined operations are commutative, so the
 * operand order only matters for MAXLOC/MINLOC ties, where MPI fixes the
 * result (the smaller index) regardless of order.
 */
#ifndef COLIBRI_KERNELS_H
#define COLIBRI_KERNELS_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

typedef void (*colibri_kernel)(const void *in, void *inout, size_t n);

/* The kernel for a predefined op on a predefined datatype, or NULL when
 * colibri has none for the pair (the call then goes to the MPI below,
 * which serves or refuses it) or when op or type is not predefined. */
colibri_kernel kernel_lookup(MPI_Op op, MPI_Datatype type);

/* True for the predefined reduction operations (MPI_SUM ... MPI_MINLOC).
 * MPI_REPLACE and MPI_NO_OP are not reduction operations. */
int kernel_op_is_predefined(MPI_Op op);

/* Short printable names, for error messages ("MPI_SUM", "MPI_DOUBLE");
 * NULL when not predefined. */
const char *kernel_op_name(MPI_Op op);
const char *kernel_type_name(MPI_Datatype type);

/* Sparse reductions (sparse.h): fills *o with the kernel, the size and the
 * neutral element of op on type; false when op has none on type (MAXLOC,
 * MINLOC, derived types, user-defined ops without kernel_set_neutral). */
struct sparse_op;
bool kernel_sparse_op(MPI_Op op, MPI_Datatype type, struct sparse_op *o);

/* Registers e as the neutral element of the user-defined, commutative op
 * on a contiguous type of at most 32 bytes (NULL: forgets it), after which
 * kernel_sparse_op serves that pair through MPI_Reduce_local.  Returns an
 * MPI error class and *why on bad input. */
int kernel_set_neutral(MPI_Op op, MPI_Datatype type, const void *e, const char **why);

/* Forgets every neutral element registered for the operation or the
 * datatype (MPI_OP_NULL / MPI_DATATYPE_NULL: none), which the program is
 * freeing: MPI may give a later object the same handle. */
void kernel_forget_handle(MPI_Op op, MPI_Datatype type);

#endif
