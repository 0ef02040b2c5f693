// ranks: 2
/*
 * Leak check: 10^5 cycles of create / use / free of a communicator, each
 * use one colibri collective, and colibri's state must come back to where
 * it started, while the process's heap and resident memory stay flat over
 * the second half of the cycles.
 *
 * The cycles rotate through four kinds, so that every path that creates
 * per-communicator state and frees it runs 25 000 times:
 *   0  MPI_Comm_dup of the world, MPI_Allreduce     (group state shared with
 *      the world's: cached schedule reused)
 *   1  MPI_Comm_dup, MPI_Alltoallv                  (per-call count vectors:
 *      never cached; the largest-block prelude of auto selection)
 *   2  MPI_Comm_dup, MPI_Iallreduce + MPI_Wait      (a nonblocking operation
 *      allocated and freed with its request)
 *   3  MPI_Comm_split in reverse rank order, MPI_Ialltoall + MPI_Wait, then
 *      MPI_Allreduce (at p >= 2 a group of its own: its group state and
 *      cached schedules are created and freed with the communicator)
 * Every result is checked.
 *
 * After a warm-up of every kind, colibri_setup_stats() is taken as the
 * baseline; after the cycles these must equal it exactly: live
 * communicator states, live group states, state bytes (cached schedules
 * included), schedule bytes and shared-segment bytes; and exactly one
 * communicator state must have been created per cycle (so that the cycles
 * did run colibri, not the MPI below).  Memory: the heap in use
 * (mallinfo2: uordblks + hblkhd) may not grow by more than HEAP_SLACK bytes
 * between the middle and the end, and VmRSS by more than RSS_SLACK: a leak
 * of 32 bytes per cycle would show as 1.6 MB on the heap.  The MPI below
 * allocates on the same heap; Open MPI 4.1 and MPICH 4.0 do not grow it
 * per dup/free cycle (the slack covers their free lists).
 *
 * Usage: test_leaks [cycles]   (default 100000; a multiple of 4)
 *
 * Runs at 2 ranks: the cost is the MPI below's MPI_Comm_dup/split/free,
 * about 40-60 us a cycle on 2 oversubscribed cores; 10^5 cycles at more
 * ranks would take minutes on CI's 2 cores without exercising anything
 * 2 ranks do not (one rank would not make kind 3 a group of its own).
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "colibri.h"
#include "../lib/check.h"
#include "../lib/proc.h"

#define HEAP_SLACK (512 * 1024)
#define RSS_SLACK (2 * 1024 * 1024)

static int rank, size;

#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (check_count(cond))                                                                    \
            check_at(__FILE__, __LINE__, __VA_ARGS__);                                            \
    } while (0)

static long long heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return (long long)(m.uordblks + m.hblkhd);
}

static long long rss_bytes(void) { return proc_kb_field("/proc/self/status", "VmRSS"); }

/* Counts of failures in the cycles themselves, reported once at the end
 * (10^5 check() calls would say nothing more). */
static long long bad_results, ran_native, mpi_errors;

static void note_rc(int rc)
{
    if (rc != MPI_SUCCESS)
        mpi_errors++;
}

static void cycle(long long i)
{
    MPI_Comm c;
    const int kind = (int)(i % 4);
    const int n = 5 + (int)(i % 7); /* a few shapes, so the cache sees more than one key */
    if (kind == 3)
        note_rc(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &c));
    else
        note_rc(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    int crank;
    MPI_Comm_rank(c, &crank);

    if (kind == 0 || kind == 2 || kind == 3) {
        int in[16], out[16];
        for (int k = 0; k < n; k++)
            in[k] = crank * 3 + k + (int)(i & 0xff);
        if (kind == 2) {
            MPI_Request r;
            note_rc(MPI_Iallreduce(in, out, n, MPI_INT, MPI_SUM, c, &r));
            note_rc(MPI_Wait(&r, MPI_STATUS_IGNORE));
        } else {
            note_rc(MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, c));
        }
        for (int k = 0; k < n; k++)
            bad_results += out[k] != 3 * size * (size - 1) / 2 + size * (k + (int)(i & 0xff));
        const char *ran = colibri_last_algorithm(c, COLIBRI_ALLREDUCE);
        ran_native += !ran || strcmp(ran, "native") == 0;
    }
    if (kind == 1) {
        /* rank r sends (r + j) % 3 + 1 ints to rank j */
        int scounts[64], sdispls[64], rcounts[64], rdispls[64], sbuf[256], rbuf[256];
        int so = 0, ro = 0;
        for (int j = 0; j < size; j++) {
            scounts[j] = (crank + j) % 3 + 1;
            rcounts[j] = (j + crank) % 3 + 1;
            sdispls[j] = so;
            rdispls[j] = ro;
            for (int k = 0; k < scounts[j]; k++)
                sbuf[so + k] = crank * 1000 + j * 10 + k;
            so += scounts[j];
            ro += rcounts[j];
        }
        note_rc(MPI_Alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, c));
        for (int j = 0; j < size; j++)
            for (int k = 0; k < rcounts[j]; k++)
                bad_results += rbuf[rdispls[j] + k] != j * 1000 + crank * 10 + k;
        const char *ran = colibri_last_algorithm(c, COLIBRI_ALLTOALLV);
        ran_native += !ran || strcmp(ran, "native") == 0;
    }
    if (kind == 3) {
        int sbuf[64 * 2], rbuf[64 * 2];
        for (int j = 0; j < size; j++)
            for (int k = 0; k < 2; k++)
                sbuf[j * 2 + k] = crank * 100 + j * 2 + k;
        MPI_Request r;
        note_rc(MPI_Ialltoall(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, c, &r));
        note_rc(MPI_Wait(&r, MPI_STATUS_IGNORE));
        for (int j = 0; j < size; j++)
            for (int k = 0; k < 2; k++)
                bad_results += rbuf[j * 2 + k] != j * 100 + crank * 2 + k;
        const char *ran = colibri_last_algorithm(c, COLIBRI_ALLTOALL);
        ran_native += !ran || strcmp(ran, "native") == 0;
    }
    note_rc(MPI_Comm_free(&c));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long long cycles = argc > 1 ? atoll(argv[1]) : 100000;
    cycles -= cycles % 4;
    if (size > 64) {
        if (rank == 0)
            printf("at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* Warm-up: every kind and shape, so that what lives as long as the
     * world (its state, the cached schedules of its group, the MPI's own
     * free lists) exists before the baseline. */
    for (long long i = 0; i < 4 * 7 * 4; i++)
        cycle(i);
    struct colibri_setup_stats s0, s1;
    colibri_setup_stats(&s0);
    const long long heap0 = heap_in_use(), rss0 = rss_bytes();
    long long heap_mid = 0, rss_mid = 0;
    double t0 = MPI_Wtime();

    for (long long i = 0; i < cycles; i++) {
        cycle(i);
        if (i == cycles / 2) {
            heap_mid = heap_in_use();
            rss_mid = rss_bytes();
        }
    }
    double secs = MPI_Wtime() - t0;
    colibri_setup_stats(&s1);
    const long long heap1 = heap_in_use(), rss1 = rss_bytes();

    CHECK(mpi_errors == 0, "%lld MPI calls returned an error", mpi_errors);
    CHECK(bad_results == 0, "%lld wrong result elements", bad_results);
    CHECK(ran_native == 0, "%lld calls did not run in colibri", ran_native);
    CHECK(s1.comm_states - s0.comm_states == cycles,
          "%lld communicator states created in %lld cycles", s1.comm_states - s0.comm_states,
          cycles);
    CHECK(s1.comm_states_live == s0.comm_states_live, "live communicator states %lld -> %lld",
          s0.comm_states_live, s1.comm_states_live);
    CHECK(s1.group_states_live == s0.group_states_live, "live group states %lld -> %lld",
          s0.group_states_live, s1.group_states_live);
    CHECK(s1.state_bytes == s0.state_bytes, "state bytes %lld -> %lld", s0.state_bytes,
          s1.state_bytes);
    CHECK(s1.schedule_bytes == s0.schedule_bytes, "cached schedule bytes %lld -> %lld",
          s0.schedule_bytes, s1.schedule_bytes);
    CHECK(s1.shm_bytes == s0.shm_bytes, "shared-segment bytes %lld -> %lld", s0.shm_bytes,
          s1.shm_bytes);
    CHECK(s1.schedule_hits > s0.schedule_hits, "no cached schedule was reused");
    CHECK(heap1 - heap_mid <= HEAP_SLACK, "heap in use grew by %lld bytes over the second half",
          heap1 - heap_mid);
    CHECK(rss_mid > 0 && rss1 - rss_mid <= RSS_SLACK, "VmRSS grew by %lld bytes over the second half",
          rss1 - rss_mid);

    printf("rank %d: %lld cycles in %.1f s; state bytes %lld -> %lld, live comm states %lld -> %lld, "
           "group states %lld -> %lld, comm states created %lld, schedule hits %lld; "
           "heap %lld / %lld / %lld, VmRSS %lld / %lld / %lld (start / middle / end)\n",
           rank, cycles, secs, s0.state_bytes, s1.state_bytes, s0.comm_states_live,
           s1.comm_states_live, s0.group_states_live, s1.group_states_live,
           s1.comm_states - s0.comm_states, s1.schedule_hits - s0.schedule_hits, heap0, heap_mid,
           heap1, rss0, rss_mid, rss1);
    fflush(stdout);

    long long t[2] = {check_passed, check_failed}, sum[2];
    PMPI_Allreduce(t, sum, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        check_print_totals(sum[0], sum[1]);
    MPI_Finalize();
    return sum[1] != 0;
}
