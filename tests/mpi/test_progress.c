// ranks: 2 3 4
// mpich-ranks: 2
// env-ranks: COLIBRI_PROGRESS_HOOK=0 2 3
// asan-ranks: 2
// ompi5-ranks: 2 3 4
// mpich5-ranks: 2
// impi-ranks: 2
// abi-ranks: 2
/*
 * Each place colibri waits keeps both engines turning (issue #25,
 * runtime/state/engines.c), one scenario each, made to hang where it
 * would not: rank 0 starts a colibri nonblocking collective X (a
 * node_leader schedule of shared-memory flags in a, a rabenseifner one of
 * two rounds of messages after) and enters some other wait; the others start X late, wait for it, which needs rank 0's part
 * of X to go on, and only then join rank 0's call.
 *
 *  a. a flag wait drives the MPI's progress: rank 0 waits for X while the
 *     others start late; its colibri_progress_stats count MPI pokes;
 *  b. a blocking colibri collective run while X runs turns colibri's
 *     engine (a message schedule, recursive_doubling, and a flag schedule,
 *     node_leader): rank 0 runs it before waiting for X, the others after;
 *  c. a native blocking MPI_Barrier progresses X through the MPI's hook
 *     where the MPI has one (colibri_progress_hooked; skipped otherwise);
 *  d. a blocking MPI_Recv for a message sent after the sender's wait for X;
 *  e. colibri's setup of a communicator first used while X runs.
 *
 * Every scenario must complete (a watchdog turns a hang into a failure
 * naming it) and leave the counters that show which path did the work.
 * The sleep that makes the others late only sets the scene; no time is
 * measured or compared.
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "colibri.h"

#include "../lib/check.h"

#define N 4096

static int rank, size;
static volatile const char *scenario = "start";

static void on_alarm(int sig)
{
    (void)sig;
    char line[160];
    int n = snprintf(line, sizeof line, "WATCHDOG: rank %d hung in scenario %s\n", rank,
                     (const char *)scenario);
    (void)!write(2, line, (size_t)n);
    _exit(3);
}

static int in[N], out[N];

/* Starts X, a nonblocking allreduce on `c` with `x_alg`. */
static const char *x_alg = "node_leader";
static MPI_Request start_x(MPI_Comm c)
{
    MPI_Request r;
    for (int i = 0; i < N; i++)
        in[i] = rank + i;
    int rc = colibri_iallreduce(in, out, N, MPI_INT, MPI_SUM, c, x_alg, &r);
    check(rc == MPI_SUCCESS, "rank %d: start of X failed in %s", rank, (const char *)scenario);
    return r;
}

static void finish_x(MPI_Request *r)
{
    int rc = MPI_Wait(r, MPI_STATUS_IGNORE);
    long bad = -1;
    for (int i = 0; i < N && bad < 0; i++)
        if (out[i] != size * i + size * (size - 1) / 2)
            bad = i;
    check(rc == MPI_SUCCESS && bad < 0, "rank %d: X wrong in %s (rc %d, element %ld)", rank,
          (const char *)scenario, rc, bad);
}

static struct colibri_progress_stats stats(void)
{
    struct colibri_progress_stats s;
    colibri_progress_stats(&s);
    return s;
}

static void late(void) { usleep(30000); }

/* b: a blocking colibri allreduce with `alg` on c2 while X runs on c1. */
static void blocking_run(MPI_Comm c1, MPI_Comm c2, const char *alg)
{
    int a[64], b[64];
    for (int i = 0; i < 64; i++)
        a[i] = i;
    if (rank != 0)
        late();
    MPI_Request x = start_x(c1);
    const struct colibri_progress_stats before = stats();
    if (rank != 0)
        finish_x(&x);
    int rc = colibri_allreduce(a, b, 64, MPI_INT, MPI_SUM, c2, alg);
    check(rc == MPI_SUCCESS && b[5] == 5 * size, "rank %d: %s wrong (rc %d)", rank,
          (const char *)scenario, rc);
    if (rank == 0) {
        check(stats().colibri_turns > before.colibri_turns,
              "rank 0: %s: the blocking run never turned colibri's engine", (const char *)scenario);
        finish_x(&x);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm c1, c2;
    MPI_Comm_dup(MPI_COMM_WORLD, &c1);
    MPI_Comm_dup(MPI_COMM_WORLD, &c2);
    signal(SIGALRM, on_alarm);
    alarm(60);
    const int hooked = colibri_progress_hooked();

    /* warm-up: the node segments of c1 and c2 exist before the scenarios */
    MPI_Request w = start_x(c1);
    finish_x(&w);
    w = start_x(c2);
    finish_x(&w);

    scenario = "a (flag wait pokes the MPI)";
    {
        const struct colibri_progress_stats before = stats();
        if (rank != 0)
            late();
        MPI_Request x = start_x(c1);
        finish_x(&x);
        if (rank == 0)
            check(stats().mpi_pokes > before.mpi_pokes,
                  "rank 0: a flag wait of %d ms never drove the MPI's progress", 30);
    }

    /* From here X is a schedule of two rounds or more (a reduce-scatter,
     * then an allgather) on every rank: a late rank's X needs rank 0's
     * second round, which only colibri's engine on rank 0 posts. */
    x_alg = "rabenseifner";
    scenario = "b (blocking message schedule while X runs)";
    blocking_run(c1, c2, "recursive_doubling");
    scenario = "b (blocking flag schedule while X runs)";
    blocking_run(c1, c2, "node_leader");

    scenario = "c (native MPI_Barrier while X runs)";
    if (hooked) {
        if (rank != 0)
            late();
        MPI_Request x = start_x(c1);
        const struct colibri_progress_stats before = stats();
        if (rank != 0)
            finish_x(&x);
        check(PMPI_Barrier(c2) == MPI_SUCCESS, "rank %d: barrier failed", rank);
        if (rank == 0) {
            check(stats().hook_turns > before.hook_turns,
                  "rank 0: the MPI's barrier never called colibri's hook");
            finish_x(&x);
        }
    } else if (rank == 0) {
        printf("c skipped: the MPI below has no progress hook colibri can use\n");
    }

    scenario = "d (MPI_Recv while X runs)";
    {
        if (rank != 0)
            late();
        MPI_Request x = start_x(c1);
        int msg = -1;
        if (rank == 0) {
            int rc = MPI_Recv(&msg, 1, MPI_INT, 1, 7, c2, MPI_STATUS_IGNORE);
            check(rc == MPI_SUCCESS && msg == 42, "rank 0: MPI_Recv got %d (rc %d)", msg, rc);
            finish_x(&x);
        } else {
            finish_x(&x);
            msg = 42;
            if (rank == 1)
                MPI_Send(&msg, 1, MPI_INT, 0, 7, c2);
        }
    }

    scenario = "e (setup of a new communicator while X runs)";
    {
        MPI_Comm c3;
        MPI_Comm_dup(MPI_COMM_WORLD, &c3); /* before X: colibri knows nothing of it */
        if (rank != 0)
            late();
        MPI_Request x = start_x(c1);
        if (rank != 0)
            finish_x(&x);
        int a = 1, b = 0;
        int rc = colibri_allreduce(&a, &b, 1, MPI_INT, MPI_SUM, c3, "recursive_doubling");
        check(rc == MPI_SUCCESS && b == size, "rank %d: allreduce on the new communicator "
              "gave %d (rc %d)", rank, b, rc);
        if (rank == 0)
            finish_x(&x);
        MPI_Comm_free(&c3);
    }

    alarm(0);
    MPI_Comm_free(&c1);
    MPI_Comm_free(&c2);
    long long mine[2] = {check_passed, check_failed}, tot[2] = {0, 0};
    PMPI_Allreduce(mine, tot, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%lld passed, %lld failed (MPI progress hook: %s)\n", tot[0], tot[1],
               hooked ? "yes" : "no");
    MPI_Finalize();
    return tot[1] ? 1 : 0;
}
