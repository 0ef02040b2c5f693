/* Setup accounting (setup.h) and colibri_setup_stats. */
#include <stdlib.h>

#include "setup.h"

struct colibri_setup_stats setup_stats;

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
