/*
 * COLIBRI_STATS=1: count calls per (collective, algorithm) and, at
 * MPI_Finalize, print the totals over all ranks from rank 0 of
 * MPI_COMM_WORLD, one line each:  colibri: <collective> <algorithm> calls=<n>
 * where <collective> is "allreduce", "iallreduce" (nonblocking) or
 * "allreduce_init" (persistent, counted per start).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../select/catalog.h"
#include "../config/config.h"
#include "stats.h"

/* Per form of the call: one slot per catalog entry, then one "native"
 * slot per collective.  Atomic: the progress thread counts the nonblocking
 * runs it finishes. */
#define MAX_SLOTS 256
static long long counts[CALL_KINDS * MAX_SLOTS];

void stats_count(const struct algorithm *a, colibri_coll coll, enum call_kind kind)
{
    int slot = a ? (int)(a - catalog) : catalog_count + (int)coll;
    if (slot < MAX_SLOTS)
        __atomic_add_fetch(&counts[kind * MAX_SLOTS + slot], 1, __ATOMIC_RELAXED);
}

static void print_line(int kind, colibri_coll coll, const char *alg, long long n)
{
    static const char *const prefix[CALL_KINDS] = {"", "i", ""};
    static const char *const suffix[CALL_KINDS] = {"", "", "_init"};
    fprintf(stderr, "colibri: %s%s%s %s calls=%lld\n", prefix[kind], colibri_coll_name(coll),
            suffix[kind], alg, n);
}

void stats_report(void)
{
    if (!config_get()->stats)
        return;
    int nslots = catalog_count + COLIBRI_NCOLL, rank;
    long long total[CALL_KINDS * MAX_SLOTS];
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Reduce(counts, total, CALL_KINDS * MAX_SLOTS, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank != 0)
        return;
    for (int k = 0; k < CALL_KINDS; k++)
        for (int i = 0; i < nslots; i++) {
            long long n = total[k * MAX_SLOTS + i];
            if (!n)
                continue;
            if (i < catalog_count)
                print_line(k, catalog[i].coll, catalog[i].name, n);
            else
                print_line(k, (colibri_coll)(i - catalog_count), "native", n);
        }
    fflush(stderr);
}
