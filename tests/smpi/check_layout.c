/*
 * MPI_COMM_WORLD's node layout, exchanged on the first automatic
 * allreduce, under SimGrid SMPI with its default collectives (layout.sh
 * passes no --cfg=smpi/allgather: SMPI's default MPI_Allgather sends p^2
 * messages, and colibri's exchange used it, so a 256-rank first call
 * simulated for more than 10 minutes of wall time).  Judged by counts
 * and by simulated time, both deterministic:
 *  - the first automatic 8-byte allreduce exchanges the layout in 3 setup
 *    calls (MPI_Comm_split_type, a minimum over the node, colibri's own
 *    allgather of node leaders), whose allgather takes ceil(lg p) rounds
 *    and sends every rank ceil(lg p) messages;
 *  - the layout is MPI_Comm_split_type's (the truth is gathered and
 *    broadcast here, no allgather either);
 *  - the first call takes no more simulated time than a repeated one plus
 *    the exchange's own bound, ceil(lg p) rounds of at most
 *    LAYOUT_ROUND_US each plus LAYOUT_NODE_US for the node steps: a
 *    latency-bound exchange, where p^2 messages through a node's port
 *    would not be.
 * Prints "N passed, N failed" (rank 0); exits non-zero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"
#include "smpi_errors.h"

#define CHECK_MAX_LINES -1
#include "../lib/check.h"
#include "smpi_check.h"

/* A round: one 1 us message each way plus at most p/2 ints through a
 * node port shared by 16 ranks (16 x 2 KiB at 1024 ranks: 2.6 us at
 * 12.5 GB/s) and 0.5 us of overheads: 5 us is generous, and far below
 * what p - 1 messages per rank through one port cost. */
#define LAYOUT_ROUND_US 5.0
/* MPI_Comm_split_type (SMPI: no simulated time) and the node's minimum
 * (lg 16 rounds of 1 us on the loopback link, SMPI's default allreduce). */
#define LAYOUT_NODE_US 20.0

static int rank, size;

static int ceil_lg(int p)
{
    int t = 0;
    while ((1LL << t) < p)
        t++;
    return t;
}

/* Nodes numbered by their lowest rank, from MPI_Comm_split_type, with no
 * allgather: the leaders gathered at rank 0 and broadcast. */
static void true_layout(int *node_of, int *n_nodes)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int leader = rank, *leaders = malloc((size_t)size * sizeof *leaders);
    PMPI_Allreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, node);
    PMPI_Gather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Bcast(leaders, size, MPI_INT, 0, MPI_COMM_WORLD);
    *n_nodes = 0;
    for (int i = 0; i < size; i++)
        node_of[i] = leaders[i] == i ? (*n_nodes)++ : node_of[leaders[i]];
    free(leaders);
    MPI_Comm_free(&node);
}

/* One automatic allreduce of a double: its simulated time, from the last
 * rank's start to the last rank's end. */
static double timed_call(int *ok)
{
    double x = rank + 1, y = 0, t0, t1, start, end;
    PMPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    *ok = colibri_allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, NULL) == MPI_SUCCESS &&
          y == (double)size * (size + 1) / 2 && *ok;
    t1 = MPI_Wtime();
    PMPI_Allreduce(&t0, &start, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    PMPI_Allreduce(&t1, &end, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return 1e6 * (end - start);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return_errors(MPI_COMM_WORLD);

    struct colibri_setup_stats a, b;
    int ok = 1;
    colibri_setup_stats(&a);
    const double first = timed_call(&ok);
    colibri_setup_stats(&b);
    const double again = timed_call(&ok);
    smpi_report(ok, "the automatic allreduce's sums");

    const int lg = ceil_lg(size);
    smpi_report(b.layouts_exchanged == a.layouts_exchanged + 1 &&
                    b.layout_collectives == a.layout_collectives + 3,
                "first automatic allreduce: the layout exchanged in 3 setup calls");
    smpi_report(b.layout_rounds == a.layout_rounds + lg && b.layout_messages == a.layout_messages + lg,
                "the exchange's allgather: ceil(lg p) rounds, one message sent per round");

    int *got = malloc(2 * (size_t)size * sizeof *got), *want = got + size, ng = -1, nw = -2;
    colibri_setup_stats(&a);
    int layout_ok = colibri_node_layout(MPI_COMM_WORLD, got, &ng) == MPI_SUCCESS;
    colibri_setup_stats(&b);
    true_layout(want, &nw);
    smpi_report(layout_ok && ng == nw && !memcmp(got, want, (size_t)size * sizeof *got),
                "the exchanged layout is MPI_Comm_split_type's");
    smpi_report(b.layout_collectives == a.layout_collectives, "the layout is exchanged once");
    free(got);

    const double bound = again + lg * LAYOUT_ROUND_US + LAYOUT_NODE_US;
    if (rank == 0)
        printf("p=%d nodes=%d: first automatic allreduce %.2f us (layout exchanged: %d rounds), "
               "repeated %.2f us, bound %.2f us\n",
               size, nw, first, lg, again, bound);
    smpi_report(first <= bound, "the first call's simulated time within the exchange's bound");

    int failed = (int)check_failed;
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0)
        check_print_totals(check_passed, check_failed);
    MPI_Finalize();
    return failed ? 1 : 0;
}
