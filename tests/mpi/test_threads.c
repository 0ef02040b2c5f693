// ranks: 2 4
// asan-ranks: 2
/*
 * Collectives from several threads at once (MPI_THREAD_MULTIPLE), each on
 * its own communicator: colibri's process-wide tables (group states, the
 * schedule cache, here capped at 4 KiB so that threads keep evicting each
 * other's schedules) must stay consistent and no schedule may be freed while
 * a call runs it.  Every result is checked.  A race need not show in one
 * run; a crash or a wrong sum fails the test.
 *
 * The threads also run the node-aware sloavx at once on communicators of
 * one group: under MPI_THREAD_MULTIPLE each communicator has its own node
 * communicator and segment (node.h), which the setup counters show; shared,
 * the overlapping exchanges would mix their blocks in one segment.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "colibri.h"

enum { THREADS = 3, ITERS = 300 };
static MPI_Comm comms[THREADS];
static int bad[THREADS];

static void *work(void *arg)
{
    const int t = (int)(long)arg;
    int rank, p;
    MPI_Comm_rank(comms[t], &rank);
    MPI_Comm_size(comms[t], &p);
    long long x[600], y[600];
    for (int it = 0; it < ITERS; it++) {
        const int n = 1 + (it * 37 + t * 11) % 600; /* many counts: many schedules */
        for (int i = 0; i < (n > p ? n : p); i++)
            x[i] = rank + i + t;
        MPI_Allreduce(x, y, n, MPI_LONG_LONG, MPI_SUM, comms[t]);
        for (int i = 0; i < n; i++)
            bad[t] += y[i] != (long long)p * (p - 1) / 2 + (long long)p * (i + t);
        MPI_Alltoall(x, 1, MPI_LONG_LONG, y, 1, MPI_LONG_LONG, comms[t]);
        for (int i = 0; i < p; i++)
            bad[t] += y[i] != i + rank + t;
        MPI_Count cnt[64];
        MPI_Aint dsp[64];
        for (int i = 0; i < p && i < 64; i++)
            cnt[i] = 1, dsp[i] = i;
        memset(y, 0, sizeof y);
        bad[t] += p > 64 || colibri_alltoallv(x, cnt, dsp, MPI_LONG_LONG, y, cnt, dsp, MPI_LONG_LONG,
                                              comms[t], "sloavx") != MPI_SUCCESS;
        for (int i = 0; i < p; i++)
            bad[t] += y[i] != i + rank + t;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    setenv("COLIBRI_CACHE_BYTES", "4096", 1);
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("MPI_THREAD_MULTIPLE not provided: nothing to test\n0 passed, 0 failed\n");
        MPI_Finalize();
        return 0;
    }
    for (int t = 0; t < THREADS; t++) /* the same group: one shared group state */
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    /* The node state of each communicator set up before the threads start,
     * in the same order on every rank (setting it up is collective). */
    struct colibri_setup_stats s0, s1;
    long long first[THREADS];
    for (int t = 0; t < THREADS; t++) {
        colibri_setup_stats(&s0);
        long long x[64] = {0}, y[64];
        MPI_Count cnt[64];
        MPI_Aint dsp[64];
        for (int i = 0; i < 64; i++)
            cnt[i] = 1, dsp[i] = i;
        colibri_alltoallv(x, cnt, dsp, MPI_LONG_LONG, y, cnt, dsp, MPI_LONG_LONG, comms[t], "sloavx");
        colibri_setup_stats(&s1);
        first[t] = s1.setup_collectives - s0.setup_collectives;
    }
    /* The second and third: the private dup, the node setup's rendezvous
     * (a nonblocking barrier, runtime/state/node.c), the node
     * communicator, the segment's flag window and the segment (the first
     * also exchanged the world group's layout). */
    int own_node = first[1] == 5 && first[2] == 5;
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, work, (void *)(long)t);
    int mine = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        mine += bad[t];
    }
    int all = 0, own_everywhere = 0;
    PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    PMPI_Allreduce(&own_node, &own_everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    struct colibri_setup_stats st;
    colibri_setup_stats(&st);
    if (rank == 0) {
        printf("%d wrong elements; schedules cached %lld, evicted %lld\n", all,
               (long long)st.schedules_cached, (long long)st.schedules_evicted);
        if (!own_everywhere)
            printf("FAIL: a communicator's first sloavx did not set up its own node state "
                   "(setup calls %lld, %lld)\n", first[1], first[2]);
        printf("%d passed, %d failed\n", (all == 0 && st.schedules_evicted > 0) + own_everywhere,
               !(all == 0 && st.schedules_evicted > 0) + !own_everywhere);
    }
    for (int t = 0; t < THREADS; t++)
        MPI_Comm_free(&comms[t]);
    MPI_Finalize();
    return all != 0 || !own_everywhere;
}
