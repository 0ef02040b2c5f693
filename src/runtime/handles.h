/*
 * The MPI handles a running operation was given, kept alive until it ends.
 *
 * MPI lets a program free an operation or a datatype right after starting
 * a nonblocking or persistent collective that uses it (MPI-4 2.5.1 and
 * 6.4.4: the object is marked for deallocation and lives on until pending
 * operations that use it complete).  The MPI below keeps its own
 * collectives' handles alive, but cannot know that colibri's schedules use
 * them.  So an operation pins the user-defined operation and the derived
 * datatypes it was given, and colibri's MPI_Op_free and MPI_Type_free (C
 * and Fortran entry points, src/interpose/) free a pinned handle only when
 * its last pin goes: the caller's handle is set to the null handle at once,
 * as MPI does.  Predefined handles are never pinned.
 */
#ifndef COLIBRI_HANDLES_H
#define COLIBRI_HANDLES_H

#include <mpi.h>
#include <stdbool.h>

void handle_pin_op(MPI_Op op);
void handle_unpin_op(MPI_Op op);
void handle_pin_type(MPI_Datatype type);
void handle_unpin_type(MPI_Datatype type);

/* MPI_Op_free / MPI_Type_free of a pinned handle: defers the free to the
 * last unpin, sets *h to the null handle and returns true.  False, and
 * nothing done, when the handle is not pinned. */
bool handle_defer_op_free(MPI_Op *op);
bool handle_defer_type_free(MPI_Datatype *type);

/* The free itself (PMPI_Op_free or PMPI_Type_free: one of op, type is
 * NULL), forgetting what colibri registered for the handle first (a
 * neutral element, kernels/dense.h). */
int handle_free_now(MPI_Op *op, MPI_Datatype *type);

#endif
