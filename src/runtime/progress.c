/*
 * COLIBRI_PROGRESS_THREAD=1: a thread that advances nonblocking and
 * persistent collectives while the application computes, so they overlap
 * without the application calling MPI_Test.
 *
 * It must not cost a core when there is nothing to do: with no operation
 * running it sleeps on a condition variable (woken by the next start); when
 * a pass over the running operations finds nothing new, it sleeps between
 * passes, 1 us doubling up to 256 us, back to 1 us as soon as a round
 * completes.  It needs MPI_THREAD_MULTIPLE (it calls MPI from a second
 * thread); at a lower level colibri prints one warning (rank 0 of
 * MPI_COMM_WORLD) and runs without it,
 * progress then happening in the application's MPI wait and test calls.
 * SimGrid SMPI has no threads calling MPI: there the variable is ignored
 * with a warning.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../config/config.h"
#include "progress.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static pthread_t thread;
static enum { UNDECIDED, OFF, ON, STOPPING } state = UNDECIDED;
/* What the thread runs (progress_thread_ensure's arguments). */
static bool (*work_pending)(void);
static int (*work_advance)(void);

#ifndef SMPI_H
static void *progress_main(void *arg)
{
    (void)arg;
    long backoff_ns = 1000;
    pthread_mutex_lock(&mu);
    while (state == ON) {
        if (!work_pending()) {
            pthread_cond_wait(&wake, &mu);
            backoff_ns = 1000;
            continue;
        }
        pthread_mutex_unlock(&mu);
        if (work_advance() > 0) {
            backoff_ns = 1000;
        } else {
            struct timespec t = {0, backoff_ns};
            nanosleep(&t, NULL);
            backoff_ns = backoff_ns < 256000 ? 2 * backoff_ns : 256000;
        }
        pthread_mutex_lock(&mu);
    }
    pthread_mutex_unlock(&mu);
    return NULL;
}
#endif

void progress_thread_ensure(bool (*pending)(void), int (*advance)(void))
{
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != UNDECIDED)
        return;
    pthread_mutex_lock(&mu);
    if (state == UNDECIDED) {
        state = OFF;
        work_pending = pending;
        work_advance = advance;
        if (config_get()->progress_thread) {
#ifdef SMPI_H
            fprintf(stderr, "colibri: warning: COLIBRI_PROGRESS_THREAD is ignored under SimGrid "
                            "SMPI; collectives progress in MPI wait and test calls\n");
#else
            int level = MPI_THREAD_SINGLE, rank = 0;
            PMPI_Query_thread(&level);
            PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
            if (level < MPI_THREAD_MULTIPLE) {
                if (rank == 0) /* one line, not one per rank */
                    fprintf(stderr, "colibri: warning: COLIBRI_PROGRESS_THREAD=1 needs "
                                    "MPI_Init_thread with MPI_THREAD_MULTIPLE; running without "
                                    "it (collectives progress in MPI wait and test calls)\n");
            } else if (pthread_create(&thread, NULL, progress_main, NULL) == 0) {
                state = ON;
            } else {
                fprintf(stderr, "colibri: warning: could not start the progress thread\n");
            }
#endif
        }
    }
    pthread_mutex_unlock(&mu);
}

void progress_thread_wake(void)
{
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != ON)
        return;
    pthread_mutex_lock(&mu);
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&mu);
}

void progress_thread_stop(void)
{
    pthread_mutex_lock(&mu);
    bool on = state == ON;
    state = STOPPING;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&mu);
    if (on)
        pthread_join(thread, NULL);
}
