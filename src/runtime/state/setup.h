/*
 * Setup accounting (colibri_setup_stats): every byte of per-communicator and
 * per-group state colibri allocates goes through state_alloc/state_free, and
 * every communicating MPI call it makes for setup is counted, so tests can
 * check that creating a communicator costs nothing and that freeing it gives
 * everything back.
 */
#ifndef COLIBRI_SETUP_H
#define COLIBRI_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#include "colibri.h"

/* This process's counters (setup.c). */
extern struct colibri_setup_stats setup_stats;

/* calloc/free that count the bytes in setup_stats.state_bytes; state_free
 * takes the size that was allocated. */
void *state_alloc(size_t bytes);
void state_free(void *p, size_t bytes);

/* Whether colibri's calls can run on several threads at once: the MPI was
 * initialised with MPI_THREAD_MULTIPLE (application threads, colibri's
 * progress thread).  True while MPI is not initialised.  The level cannot
 * change once MPI is, so it is asked once (setup_multiple: 1 or 0 once
 * known, -1 before). */
extern int setup_multiple;
bool setup_threads_ask(void);
static inline bool setup_threads(void)
{
    const int m = __atomic_load_n(&setup_multiple, __ATOMIC_RELAXED);
    return m >= 0 ? m : setup_threads_ask();
}

/* The process-wide tables (group states, schedule cache) are shared by
 * every communicator, so an application that runs collectives on several
 * communicators from several threads (MPI_THREAD_MULTIPLE) must not see
 * them half-updated: their updates hold this lock (recursive), never across
 * communication.  Below MPI_THREAD_MULTIPLE no two threads are ever inside
 * colibri at once (the progress thread needs that level too), so the lock
 * is not taken there: a lock and unlock pair was about 75 instructions, and
 * a short allreduce took two or three.  (setup_threads gives a lock and its
 * unlock the same answer: both lie inside one collective call.) */
void setup_lock_now(void);
void setup_unlock_now(void);
static inline void setup_lock(void)
{
    if (setup_threads())
        setup_lock_now();
}
static inline void setup_unlock(void)
{
    if (setup_threads())
        setup_unlock_now();
}

/* One communicating MPI call made for setup; `layout`: a layout exchange's. */
static inline void setup_count_collective(int layout)
{
    setup_stats.setup_collectives++;
    setup_stats.layout_collectives += layout != 0;
}

#endif
