/*
 * Predicted node layouts under SimGrid SMPI, with several ranks per host
 * (the hostfile decides): for MPI_COMM_WORLD (exchanged once, the parent),
 * its dups, splits (by parity, into thirds, into blocks that cut hosts,
 * with descending keys), MPI_Comm_create groups (a random subset in random
 * order) and dups of those, colibri's layout (colibri_node_layout) must be
 * what MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) gives on that
 * communicator, and only the world's may have cost communication.  A
 * node-aware alltoallv (sloavx) then runs on each derived communicator,
 * its node communicator made from the predicted layout, and is checked.
 * A dup of a communicator that ran sloavx shares its node communicator and
 * segment: its first use costs exactly one setup call, its private dup, and
 * freeing the derived communicators frees all they added.
 *
 * Prints "N passed, N failed" (rank 0); exits non-zero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"
#include "smpi_errors.h"

#define CHECK_MAX_LINES -1 /* every failure printed (by rank 0) */
#include "../lib/check.h"
#include "smpi_check.h"

static int rank, size;


static struct colibri_setup_stats stats(void)
{
    struct colibri_setup_stats s;
    colibri_setup_stats(&s);
    return s;
}

/* Nodes numbered by their lowest rank, from MPI_Comm_split_type. */
static void true_layout(MPI_Comm comm, int p, int *node_of, int *n_nodes)
{
    int r;
    MPI_Comm_rank(comm, &r);
    MPI_Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, r, MPI_INFO_NULL, &node);
    int leader = r, *leaders = malloc((size_t)p * sizeof *leaders);
    /* the lowest rank: SMPI orders split_type's result by world rank */
    PMPI_Allreduce(&r, &leader, 1, MPI_INT, MPI_MIN, node);
    /* gathered and broadcast: SMPI's default MPI_Allgather sends p^2
     * messages, slow to simulate at 256 ranks; below colibri, whose
     * automatic bcast may be node-aware and set up the communicator's
     * node segment (collectives this check counts) */
    PMPI_Gather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, 0, comm);
    PMPI_Bcast(leaders, p, MPI_INT, 0, comm);
    *n_nodes = 0;
    for (int i = 0; i < p; i++)
        node_of[i] = leaders[i] == i ? (*n_nodes)++ : node_of[leaders[i]];
    free(leaders);
    MPI_Comm_free(&node);
}

/* Layout and sloavx on comm (MPI_COMM_NULL: this rank is not in it). */
static void check_comm(MPI_Comm comm, const char *what)
{
    int layout_ok = 1, local_ok = 1, data_ok = 1;
    char msg[160];
    if (comm != MPI_COMM_NULL) {
        int p, r;
        MPI_Comm_size(comm, &p);
        MPI_Comm_rank(comm, &r);
        int *got = malloc(2 * (size_t)p * sizeof *got), *want = got + p, ng = -1, nw = -2;
        struct colibri_setup_stats a = stats();
        layout_ok = colibri_node_layout(comm, got, &ng) == MPI_SUCCESS;
        local_ok = stats().layout_collectives == a.layout_collectives;
        true_layout(comm, p, want, &nw);
        layout_ok = layout_ok && ng == nw && !memcmp(got, want, (size_t)p * sizeof *got);
        free(got);

        MPI_Count *cnt = malloc((size_t)p * sizeof *cnt);
        MPI_Aint *dsp = malloc((size_t)p * sizeof *dsp);
        int *sb = malloc((size_t)p * sizeof *sb), *rb = malloc((size_t)p * sizeof *rb);
        for (int j = 0; j < p; j++)
            cnt[j] = 1, dsp[j] = j, sb[j] = r * 1000 + j;
        data_ok = colibri_alltoallv(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, comm, "sloavx") ==
                  MPI_SUCCESS;
        for (int j = 0; j < p; j++)
            data_ok = data_ok && rb[j] == j * 1000 + r;
        free(cnt), free(dsp), free(sb), free(rb);
    }
    snprintf(msg, sizeof msg, "%s: layout is MPI_Comm_split_type's", what);
    smpi_report(layout_ok, msg);
    snprintf(msg, sizeof msg, "%s: layout without communication", what);
    smpi_report(local_ok, msg);
    snprintf(msg, sizeof msg, "%s: sloavx", what);
    smpi_report(data_ok, msg);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return_errors(MPI_COMM_WORLD);

    /* The parent: exchanged once. */
    int *node_of = malloc(2 * (size_t)size * sizeof *node_of), *want = node_of + size, n, nw;
    int ok = colibri_node_layout(MPI_COMM_WORLD, node_of, &n) == MPI_SUCCESS;
    true_layout(MPI_COMM_WORLD, size, want, &nw);
    smpi_report(ok && n == nw && !memcmp(node_of, want, (size_t)size * sizeof *want),
           "MPI_COMM_WORLD: layout is MPI_Comm_split_type's");
    free(node_of);
    struct colibri_setup_stats s0 = stats();
    int lg = 0;
    while ((1 << lg) < size)
        lg++;
    smpi_report(s0.layouts_exchanged == 1 && s0.layout_collectives == 3 &&
                    s0.layout_rounds == lg && s0.layout_messages == lg,
           "MPI_COMM_WORLD: one exchange (split_type, minimum over the node, colibri's allgather "
           "of ceil(lg p) rounds)");
    /* The world group's node communicator and segment, which its dups
     * share, are MPI_COMM_WORLD's as long as it lives. */
    check_comm(MPI_COMM_WORLD, "MPI_COMM_WORLD");
    s0 = stats();

    MPI_Comm c, d;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    check_comm(c, "dup of MPI_COMM_WORLD");
    MPI_Comm_free(&c);

    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
    check_comm(c, "split by parity");
    MPI_Comm_dup(c, &d);
    struct colibri_setup_stats before = stats();
    check_comm(d, "dup of the parity split");
    /* the private dup: SimGrid 3.32 has no MPI_Comm_idup, so it is a
     * nonblocking barrier and MPI_Comm_dup here (comm_state.c) */
    smpi_report(stats().setup_collectives == before.setup_collectives + 2,
           "dup of the parity split: only the private dup (node communicator and segment shared)");
    MPI_Comm_free(&d);
    MPI_Comm_free(&c);

    MPI_Comm_split(MPI_COMM_WORLD, rank % 3, size - rank, &c);
    check_comm(c, "split into thirds, descending keys");
    MPI_Comm_free(&c);

    /* Blocks of 3 consecutive ranks cut across hosts of 4, 5, 2, 7 ... */
    MPI_Comm_split(MPI_COMM_WORLD, rank / 3, rank, &c);
    check_comm(c, "split into blocks of 3");
    MPI_Comm_free(&c);

    /* A random subset in random order (the same on every rank). */
    MPI_Group world, sub;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int *members = malloc((size_t)size * sizeof *members), m = 0;
    srand(6);
    for (int r = 0; r < size; r++)
        if (rand() % 3)
            members[m++] = r;
    if (m == 0)
        members[m++] = 0;
    for (int i = m - 1; i > 0; i--) {
        int j = rand() % (i + 1), x = members[i];
        members[i] = members[j], members[j] = x;
    }
    MPI_Group_incl(world, m, members, &sub);
    MPI_Comm_create(MPI_COMM_WORLD, sub, &c);
    check_comm(c, "MPI_Comm_create of a random subset");
    if (c != MPI_COMM_NULL) {
        MPI_Comm_dup(c, &d);
        check_comm(d, "dup of the created communicator");
        MPI_Comm_free(&d);
        MPI_Comm_free(&c);
    } else {
        check_comm(MPI_COMM_NULL, "dup of the created communicator");
    }
    MPI_Group_free(&sub);
    MPI_Group_free(&world);
    free(members);

    struct colibri_setup_stats s1 = stats();
    smpi_report(s1.layouts_exchanged == 1, "derived communicators: no layout exchanged");
    smpi_report(s1.comm_states_live == s0.comm_states_live && s1.shm_bytes == s0.shm_bytes,
           "derived communicators: everything freed");

    if (rank == 0)
        check_print_totals(check_passed, check_failed);
    MPI_Finalize();
    return check_failed != 0;
}
