/* Setup accounting (setup.h) and colibri_setup_stats. */
#include <pthread.h>
#include <stdlib.h>

#include "setup.h"

struct colibri_setup_stats setup_stats;

int setup_multiple = -1;

bool setup_threads_ask(void)
{
    int init = 0, fin = 0, level = MPI_THREAD_MULTIPLE;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    if (!init || fin)
        return true; /* nothing known: lock */
    PMPI_Query_thread(&level);
    const int m = level == MPI_THREAD_MULTIPLE;
    __atomic_store_n(&setup_multiple, m, __ATOMIC_RELAXED);
    return m;
}

static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
void setup_lock_now(void) { pthread_mutex_lock(&lock); }
void setup_unlock_now(void) { pthread_mutex_unlock(&lock); }

void *state_alloc(size_t bytes)
{
    void *p = calloc(1, bytes);
    if (p)
        setup_stats.state_bytes += (long long)bytes;
    return p;
}

void state_free(void *p, size_t bytes)
{
    if (!p)
        return;
    setup_stats.state_bytes -= (long long)bytes;
    free(p);
}

int colibri_setup_stats(struct colibri_setup_stats *stats)
{
    if (!stats)
        return MPI_ERR_ARG;
    *stats = setup_stats;
    return MPI_SUCCESS;
}
