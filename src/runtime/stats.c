/*
 * COLIBRI_STATS=1: count calls per (collective, algorithm) and, at
 * MPI_Finalize, print the totals over all ranks from rank 0 of
 * MPI_COMM_WORLD, one line each:  colibri: <collective> <algorithm> calls=<n>
 * where <collective> is "allreduce", "iallreduce" (nonblocking) or
 * "allreduce_init" (persistent, counted per start); then online selection's
 * lines (docs/tuning.md): colibri: online <collective> explored calls=<n>
 * decisions=<n> extra_us=<what exploring cost over the winners>,
 * colibri: online <collective> skipped size agreements calls=<n>
 * (alltoallv), colibri: online <collective> settled <algorithm> shapes=<n>.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../select/catalog.h"
#include "../config/config.h"
#include "stats.h"

/* Per form of the call: one slot per catalog entry, then one "native"
 * slot per collective.  Atomic: the progress thread counts the nonblocking
 * runs it finishes.  Counted only while COLIBRI_STATS is on (only then
 * printed): the locked add was about half of what perf charged colibri's
 * functions in a settled 8 B alltoall loop (Open MPI 5, 2 ranks). */
#define MAX_SLOTS 256
static long long counts[CALL_KINDS * MAX_SLOTS];

static int slot_of(const struct algorithm *a, colibri_coll coll)
{
    return a ? (int)(a - catalog) : catalog_count + (int)coll;
}

/* After the "native" slots, one "none" slot per collective: automatic
 * calls with nothing to move, which ran nothing. */
void stats_count_none(colibri_coll coll, enum call_kind kind)
{
    if (!config_get()->stats)
        return;
    const int slot = catalog_count + COLIBRI_NCOLL + (int)coll;
    if (slot < MAX_SLOTS)
        __atomic_add_fetch(&counts[kind * MAX_SLOTS + slot], 1, __ATOMIC_RELAXED);
}

void stats_count(const struct algorithm *a, colibri_coll coll, enum call_kind kind)
{
    if (!config_get()->stats)
        return;
    const int slot = slot_of(a, coll);
    if (slot < MAX_SLOTS)
        __atomic_add_fetch(&counts[kind * MAX_SLOTS + slot], 1, __ATOMIC_RELAXED);
}

/* Online selection (select/online.h): per collective the calls it ran as
 * exploration and its decisions, and per algorithm the shapes settled on
 * it now (a re-check that switches moves one). */
static long long online_explored[COLIBRI_NCOLL], online_decisions[COLIBRI_NCOLL],
    online_skipped[COLIBRI_NCOLL], online_extra_ns[COLIBRI_NCOLL];
static long long online_settled[MAX_SLOTS];

void stats_online_explored(colibri_coll coll)
{
    if (!config_get()->stats)
        return;
    __atomic_add_fetch(&online_explored[coll], 1, __ATOMIC_RELAXED);
}

void stats_online_skipped(colibri_coll coll)
{
    if (!config_get()->stats) /* (a skipped alltoallv's only other cost) */
        return;
    __atomic_add_fetch(&online_skipped[coll], 1, __ATOMIC_RELAXED);
}

void stats_online_decided(colibri_coll coll, bool had, const struct algorithm *was,
                          const struct algorithm *now, double extra)
{
    __atomic_add_fetch(&online_decisions[coll], 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&online_extra_ns[coll], (long long)(extra * 1e9), __ATOMIC_RELAXED);
    if (had && slot_of(was, coll) < MAX_SLOTS)
        __atomic_sub_fetch(&online_settled[slot_of(was, coll)], 1, __ATOMIC_RELAXED);
    if (slot_of(now, coll) < MAX_SLOTS)
        __atomic_add_fetch(&online_settled[slot_of(now, coll)], 1, __ATOMIC_RELAXED);
}

/* The online lines: the most on any rank (every rank of a communicator
 * explores and decides the same shapes, so a sum would count each p
 * times). */
#define ONLINE_VALUES (4 * COLIBRI_NCOLL + MAX_SLOTS)
static void online_gather(long long most[ONLINE_VALUES])
{
    long long mine[ONLINE_VALUES];
    memcpy(mine, online_explored, sizeof online_explored);
    memcpy(mine + COLIBRI_NCOLL, online_decisions, sizeof online_decisions);
    memcpy(mine + 2 * COLIBRI_NCOLL, online_skipped, sizeof online_skipped);
    memcpy(mine + 3 * COLIBRI_NCOLL, online_settled, sizeof online_settled);
    memcpy(mine + 3 * COLIBRI_NCOLL + MAX_SLOTS, online_extra_ns, sizeof online_extra_ns);
    PMPI_Reduce(mine, most, ONLINE_VALUES, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
}

static void online_print(const long long most[ONLINE_VALUES])
{
    for (int c = 0; c < COLIBRI_NCOLL; c++)
        if (most[c] || most[COLIBRI_NCOLL + c])
            fprintf(stderr, "colibri: online %s explored calls=%lld decisions=%lld extra_us=%.1f\n",
                    colibri_coll_name((colibri_coll)c), most[c], most[COLIBRI_NCOLL + c],
                    (double)most[3 * COLIBRI_NCOLL + MAX_SLOTS + c] / 1e3);
    for (int c = 0; c < COLIBRI_NCOLL; c++)
        if (most[2 * COLIBRI_NCOLL + c])
            fprintf(stderr, "colibri: online %s skipped size agreements calls=%lld\n",
                    colibri_coll_name((colibri_coll)c), most[2 * COLIBRI_NCOLL + c]);
    for (int i = 0; i < catalog_count + COLIBRI_NCOLL && i < MAX_SLOTS; i++) {
        const long long n = most[3 * COLIBRI_NCOLL + i];
        if (n > 0)
            fprintf(stderr, "colibri: online %s settled %s shapes=%lld\n",
                    colibri_coll_name(i < catalog_count ? catalog[i].coll
                                                        : (colibri_coll)(i - catalog_count)),
                    i < catalog_count ? catalog[i].name : "native", n);
    }
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
    int nslots = catalog_count + 2 * COLIBRI_NCOLL, rank;
    long long total[CALL_KINDS * MAX_SLOTS];
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Reduce(counts, total, CALL_KINDS * MAX_SLOTS, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    long long online[ONLINE_VALUES];
    online_gather(online);
    if (rank != 0)
        return;
    for (int k = 0; k < CALL_KINDS; k++)
        for (int i = 0; i < nslots; i++) {
            long long n = total[k * MAX_SLOTS + i];
            if (!n)
                continue;
            if (i < catalog_count)
                print_line(k, catalog[i].coll, catalog[i].name, n);
            else if (i < catalog_count + COLIBRI_NCOLL)
                print_line(k, (colibri_coll)(i - catalog_count), "native", n);
            else
                print_line(k, (colibri_coll)(i - catalog_count - COLIBRI_NCOLL), "none", n);
        }
    online_print(online);
    fflush(stderr);
}
