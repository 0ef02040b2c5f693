/*
 * The progress thread (COLIBRI_PROGRESS_THREAD=1, progress.c): advances
 * running operations while the application computes.  It knows nothing of
 * operations: it is given the two functions it calls.
 */
#ifndef COLIBRI_PROGRESS_H
#define COLIBRI_PROGRESS_H

#include <stdbool.h>

/* Starts the thread on first use when COLIBRI_PROGRESS_THREAD=1 asks for
 * it.  `pending` says (cheaply, without a lock) whether anything runs;
 * `advance` makes one pass and returns how much advanced (0: nothing). */
void progress_thread_ensure(bool (*pending)(void), int (*advance)(void));
/* Wakes a sleeping thread: an operation has started. */
void progress_thread_wake(void);
/* Stops and joins the thread (MPI_Finalize). */
void progress_thread_stop(void);

#endif
