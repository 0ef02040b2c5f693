/*
 * COLIBRI_STATS=1: count calls per (collective, algorithm) and, at
 * MPI_Finalize, print the totals over all ranks from rank 0 of
 * MPI_COMM_WORLD, one line each:  colibri: <collective> <algorithm> calls=<n>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../select/catalog.h"
#include "runtime.h"

/* One slot per catalog entry, then one "native" slot per collective. */
#define MAX_SLOTS 256
static long long counts[MAX_SLOTS];

void stats_count(const struct algorithm *a, colibri_coll coll)
{
    int slot = a ? (int)(a - catalog) : catalog_count + (int)coll;
    if (slot < MAX_SLOTS)
        counts[slot]++;
}

void stats_report(void)
{
    const char *v = getenv("COLIBRI_STATS");
    if (!v || !*v || strcmp(v, "0") == 0)
        return;
    int nslots = catalog_count + COLIBRI_NCOLL, rank;
    long long total[MAX_SLOTS];
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Reduce(counts, total, nslots, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank != 0)
        return;
    for (int i = 0; i < nslots; i++) {
        if (!total[i])
            continue;
        if (i < catalog_count)
            fprintf(stderr, "colibri: %s %s calls=%lld\n", colibri_coll_name(catalog[i].coll),
                    catalog[i].name, total[i]);
        else
            fprintf(stderr, "colibri: %s native calls=%lld\n",
                    colibri_coll_name((colibri_coll)(i - catalog_count)), total[i]);
    }
    fflush(stderr);
}
