/*
 * Setup accounting (colibri_setup_stats): every byte of per-communicator and
 * per-group state colibri allocates goes through state_alloc/state_free, and
 * every communicating MPI call it makes for setup is counted, so tests can
 * check that creating a communicator costs nothing and that freeing it gives
 * everything back.
 */
#ifndef COLIBRI_SETUP_H
#define COLIBRI_SETUP_H

#include <stddef.h>

#include "colibri.h"

/* This process's counters (setup.c). */
extern struct colibri_setup_stats setup_stats;

/* calloc/free that count the bytes in setup_stats.state_bytes; state_free
 * takes the size that was allocated. */
void *state_alloc(size_t bytes);
void state_free(void *p, size_t bytes);

/* The process-wide tables (group states, schedule cache) are shared by
 * every communicator, so an application that runs collectives on several
 * communicators from several threads (MPI_THREAD_MULTIPLE) must not see
 * them half-updated: their updates hold this lock (recursive), never across
 * communication. */
void setup_lock(void);
void setup_unlock(void);

/* One communicating MPI call made for setup; `layout`: a layout exchange's. */
static inline void setup_count_collective(int layout)
{
    setup_stats.setup_collectives++;
    setup_stats.layout_collectives += layout != 0;
}

#endif
