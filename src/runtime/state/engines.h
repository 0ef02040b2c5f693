/*
 * Both progress engines (engines.c): colibri's schedules and the MPI's own
 * (its nonblocking collectives, point-to-point, RMA).  Wherever colibri
 * waits it turns both; wherever the application waits inside the MPI, the
 * MPI turns colibri's where the MPI lets a library hook into its progress
 * loop.  docs/nonblocking.md, "Progress", states the guarantee.
 */
#ifndef COLIBRI_ENGINES_H
#define COLIBRI_ENGINES_H

#include <mpi.h>
#include <stdbool.h>

/* colibri's engine, as the operation layer provides it: `progress` makes
 * one pass over the running operations (returns how many advanced),
 * `busy` says cheaply whether any runs.  Set before the first nonblocking
 * or persistent operation starts; also installs the MPI progress hook. */
void engines_set_colibri(int (*progress)(void), bool (*busy)(void));

/* MPI_Finalize: the MPI's hook is taken out and the poke's receive
 * cancelled before the MPI ends. */
void engines_unhook(void);

/* Whether colibri operations are running (false before any was set). */
bool engines_colibri_busy(void);

/* One pass of colibri's engine where operations run (0 otherwise). */
int engines_colibri_turn(void);

/* Drives the MPI's own progress once (MPI_Test of a receive nothing
 * matches; no-op under SimGrid SMPI, whose engine needs none). */
void engines_poke_mpi(void);

/* One turn of both engines: what every colibri wait does per poll. */
void engines_turn(void);

/* Whether the MPI below calls colibri's engine from its own progress loop
 * (Open MPI's opal_progress_register), so that
 * any blocking call of the application progresses colibri's operations. */
bool engines_hooked(void);

/* Marks code that changes colibri's operations (the running list, an
 * operation's state): the MPI's hook does not re-enter colibri's engine
 * from MPI calls made in there.  Nested; per thread. */
void engines_enter(void);
void engines_leave(void);

/* PMPI_Wait on one request, keeping colibri's engine turning while
 * colibri operations run (a plain PMPI_Wait otherwise). */
int engines_wait(MPI_Request *req, MPI_Status *status);

/* Counts since the start: MPI pokes, calls of the MPI's hook, those that
 * turned colibri's engine, turns of colibri's engine by colibri's waits. */
void engines_stats(long long out[4]);

#endif
