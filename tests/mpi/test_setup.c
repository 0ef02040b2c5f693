// ranks: 1 2 3 4 8
// mpich-ranks: 2
// asan-ranks: 3
/*
 * Setup costs, counted (colibri_setup_stats), not timed:
 *  - creating communicators (dup, split, create) costs colibri nothing: no
 *    call, no byte;
 *  - a first collective builds only its own state (no node layout, no
 *    segment for a flat reduction);
 *  - automatic selection of a reduction computes the group's layout once
 *    (predicted, or exchanged for MPI_COMM_WORLD's group), and a
 *    node-aware reduction creates its communicator's segment once;
 *  - communicators of one group share its state: a dup of MPI_COMM_WORLD
 *    and a dup chain find it, and reuse the schedules cached for it, and
 *    the node communicator and segment of node-aware algorithms;
 *  - a derived communicator's node layout is predicted, with no
 *    communication, and equals MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)'s;
 *  - freeing gives every byte back, and 10^4 create/use/free cycles leave
 *    nothing behind;
 *  - the schedule cache stays under COLIBRI_CACHE_BYTES;
 *  - COLIBRI_SETUP=eager builds a private state and exchanges the layout.
 *
 *   test_setup [cycles]     (default 10000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "colibri.h"

#define CHECK_MAX_LINES -1 /* every failure printed */
#include "../lib/check.h"

static int rank, size;

/* One check, agreed over MPI_COMM_WORLD (PMPI: not through colibri). */
static void expect(int ok, const char *what)
{
    int all = 0;
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!check_count(all))
        return;
    if (!ok)
        printf("FAIL [rank %d] %s\n", rank, what);
    fflush(stdout);
}

static struct colibri_setup_stats stats(void)
{
    struct colibri_setup_stats s;
    colibri_setup_stats(&s);
    return s;
}

/* A flat allreduce: it needs neither the node layout nor a segment (auto
 * may choose a node-aware one: test_node_reduction_setup). */
static void allreduce(MPI_Comm comm, int count)
{
    double in[64] = {0}, out[64];
    colibri_allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, comm, "recursive_doubling");
}

/* Every rank's node as MPI_Comm_split_type sees it, numbered as colibri
 * numbers nodes (by their lowest rank). */
static void true_layout(MPI_Comm comm, int *node_of, int *n_nodes)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    MPI_Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, r, MPI_INFO_NULL, &node);
    int leader = r, *leaders = malloc((size_t)p * sizeof *leaders);
    /* the lowest rank: SMPI orders split_type's result by world rank */
    PMPI_Allreduce(&r, &leader, 1, MPI_INT, MPI_MIN, node);
    MPI_Allgather(&leader, 1, MPI_INT, leaders, 1, MPI_INT, comm);
    *n_nodes = 0;
    for (int i = 0; i < p; i++)
        node_of[i] = leaders[i] == i ? (*n_nodes)++ : node_of[leaders[i]];
    free(leaders);
    MPI_Comm_free(&node);
}

static int layout_matches(MPI_Comm comm)
{
    int p;
    MPI_Comm_size(comm, &p);
    int *got = malloc(2 * (size_t)p * sizeof *got), *want = got + p, ng = -1, nw = -2;
    int ok = colibri_node_layout(comm, got, &ng) == MPI_SUCCESS;
    true_layout(comm, want, &nw);
    ok = ok && ng == nw && memcmp(got, want, (size_t)p * sizeof *got) == 0;
    free(got);
    return ok;
}

static void test_creation_is_free(void)
{
    struct colibri_setup_stats a = stats(), b;
    MPI_Comm d, s, c;
    MPI_Group wg, eg;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &s);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int n = (size + 1) / 2, *evens = malloc((size_t)n * sizeof *evens);
    for (int i = 0; i < n; i++)
        evens[i] = 2 * (n - 1 - i); /* reversed */
    MPI_Group_incl(wg, n, evens, &eg);
    MPI_Comm_create(MPI_COMM_WORLD, eg, &c);
    b = stats();
    expect(memcmp(&a, &b, sizeof a) == 0, "creating a dup, a split and a create changed a counter");

    /* The first reduction on the dup: a state, the world group's shared
     * state, the world's cached schedule; no layout, no segment. */
    allreduce(d, 8);
    b = stats();
    expect(b.comm_states == a.comm_states + 1 && b.comm_states_live == a.comm_states_live + 1,
           "first use on a dup: one communicator state");
    expect(b.group_shared == a.group_shared + 1 && b.group_states == a.group_states,
           "a dup of MPI_COMM_WORLD shares the world group's state");
    expect(b.schedule_hits == a.schedule_hits + 1 && b.schedules_cached == a.schedules_cached,
           "a dup reuses the schedule cached for its group");
    expect(b.layouts_predicted == a.layouts_predicted &&
               b.layouts_exchanged == a.layouts_exchanged && b.shm_bytes == a.shm_bytes,
           "a reduction builds no node layout and no segment");
    expect(b.setup_collectives == a.setup_collectives + 1 &&
               b.layout_collectives == a.layout_collectives,
           "first use costs one call (the private dup)");

    /* The split: its own group, its layout predicted, right. */
    a = b;
    allreduce(s, 8);
    b = stats();
    int same_as_world;
    MPI_Group sg;
    MPI_Comm_group(s, &sg);
    MPI_Group_compare(sg, wg, &same_as_world);
    MPI_Group_free(&sg);
    expect(same_as_world == MPI_IDENT ? b.group_shared == a.group_shared + 1
                                      : b.group_states == a.group_states + 1,
           "a split has its own group state");
    a = b;
    expect(layout_matches(s), "the split's predicted layout is MPI_Comm_split_type's");
    b = stats();
    expect(b.layouts_exchanged == a.layouts_exchanged && b.layout_collectives == a.layout_collectives,
           "the split's layout needed no communication");
    expect(same_as_world == MPI_IDENT || b.layouts_predicted == a.layouts_predicted + 1,
           "the split's layout was predicted");
    /* Only the even ranks are in c: the checks are agreed by all. */
    int created_right = 1, created_local = 1;
    if (c != MPI_COMM_NULL) {
        a = stats();
        created_right = layout_matches(c);
        created_local = stats().layouts_exchanged == a.layouts_exchanged;
    }
    expect(created_right, "an MPI_Comm_create group's predicted layout is right");
    expect(created_local, "MPI_Comm_create: no layout exchange");

    /* A dup chain of the split shares everything. */
    MPI_Comm d2, d3;
    long long before_chain = stats().state_bytes;
    MPI_Comm_dup(s, &d2);
    MPI_Comm_dup(d2, &d3);
    a = stats();
    allreduce(d2, 8);
    allreduce(d3, 8);
    expect(layout_matches(d3), "a dup chain's layout is right");
    b = stats();
    expect(b.group_shared == a.group_shared + 2 && b.group_states == a.group_states,
           "a dup chain shares its group's state");
    expect(b.layouts_predicted == a.layouts_predicted && b.layouts_exchanged == a.layouts_exchanged,
           "a dup chain computes no layout");
    MPI_Comm_free(&d3);
    MPI_Comm_free(&d2);
    expect(stats().state_bytes == before_chain, "freeing a dup chain gives its bytes back");

    MPI_Comm_free(&d);
    MPI_Comm_free(&s);
    if (c != MPI_COMM_NULL)
        MPI_Comm_free(&c);
    MPI_Group_free(&eg);
    MPI_Group_free(&wg);
    free(evens);
}

/* Automatic selection of a reduction: the group's layout once, and for a
 * node-aware choice the communicator's own segment once (it is never
 * shared: calls on two communicators may overlap), given back with it. */
static void test_node_reduction_setup(void)
{
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    struct colibri_setup_stats a = stats(), b;
    const long long shm_before = a.shm_bytes;
    double in[8] = {1}, out[8];
    colibri_allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, d, NULL);
    b = stats();
    const char *ran = colibri_last_algorithm(d, COLIBRI_ALLREDUCE);
    const int node_aware = ran && strncmp(ran, "node_", 5) == 0;
    expect(b.layouts_predicted + b.layouts_exchanged <= a.layouts_predicted + a.layouts_exchanged + 1,
           "auto allreduce: at most one layout computed");
    /* a segment is counted on its node's first rank only: summed over the
     * job it must have grown */
    long long grown = b.shm_bytes - a.shm_bytes, grown_all = 0;
    PMPI_Allreduce(&grown, &grown_all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    expect(!node_aware || grown_all > 0, "a node-aware allreduce has a segment");
    a = b;
    colibri_allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, d, NULL);
    colibri_allreduce(in, out, 8, MPI_DOUBLE, MPI_SUM, d, NULL);
    b = stats();
    expect(b.layouts_predicted == a.layouts_predicted &&
               b.layouts_exchanged == a.layouts_exchanged && b.shm_bytes == a.shm_bytes &&
               b.setup_collectives == a.setup_collectives,
           "repeated auto allreduces set nothing up");
    MPI_Comm_free(&d);
    expect(stats().shm_bytes == shm_before, "freeing the communicator gives its segment back");
}

/* An automatic alltoallv agrees on the largest block first.  Where a node
 * holds several of the communicator's ranks that agreement goes through the
 * communicator's reduction segment (runtime/agree.c): not at the first
 * agreement (creating it costs a node communicator and a shared window),
 * from the communicator's 16th on, reused by the next calls (no setup
 * collective), freed with the communicator.  With every rank on a node of
 * its own there is none. */
static void test_agreement_setup(void)
{
    int node_of[64], n_nodes = 0;
    if (size > 64)
        return;
    true_layout(MPI_COMM_WORLD, node_of, &n_nodes);
    MPI_Count cnt[64];
    MPI_Aint dsp[64];
    char sb[64], rb[64];
    for (int j = 0; j < size; j++)
        cnt[j] = 1, dsp[j] = j, sb[j] = (char)(rank * 3 + j);
    /* auto may choose sloavx, whose segment is the group's and outlives
     * the dup: have it now, at this size */
    colibri_alltoallv(sb, cnt, dsp, MPI_CHAR, rb, cnt, dsp, MPI_CHAR, MPI_COMM_WORLD, "sloavx");
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    struct colibri_setup_stats a = stats(), b;
    const long long shm_before = a.shm_bytes;
    int ok = colibri_alltoallv(sb, cnt, dsp, MPI_CHAR, rb, cnt, dsp, MPI_CHAR, d, NULL) ==
             MPI_SUCCESS;
    for (int j = 0; j < size; j++)
        ok = ok && rb[j] == (char)(j * 3 + rank);
    expect(ok, "auto alltoallv on a dup");
    b = stats();
    long long grown = b.shm_bytes - a.shm_bytes, grown_all = 0;
    PMPI_Allreduce(&grown, &grown_all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    expect(grown_all == 0, "the first agreement of an auto alltoallv creates no segment");
    /* a nonblocking automatic alltoallv agrees at every call (its
     * prelude): 20 of them pass the 16th agreement */
    for (int k = 0; k < 20 && ok; k++) {
        MPI_Request req;
        ok = colibri_ialltoallv(sb, cnt, dsp, MPI_CHAR, rb, cnt, dsp, MPI_CHAR, d, NULL, &req) ==
                 MPI_SUCCESS &&
             MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS;
    }
    b = stats();
    grown = b.shm_bytes - a.shm_bytes, grown_all = 0;
    PMPI_Allreduce(&grown, &grown_all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    expect(ok && (n_nodes == size ? grown_all == 0 : grown_all > 0),
           "the agreements of auto alltoallvs use a reduction segment exactly where a node "
           "holds several ranks");
    a = b;
    for (int k = 0; k < 3 && ok; k++)
        ok = colibri_alltoallv(sb, cnt, dsp, MPI_CHAR, rb, cnt, dsp, MPI_CHAR, d, NULL) ==
             MPI_SUCCESS;
    b = stats();
    expect(ok && b.shm_bytes == a.shm_bytes && b.setup_collectives == a.setup_collectives,
           "repeated auto alltoallvs set nothing up");
    MPI_Comm_free(&d);
    expect(stats().shm_bytes == shm_before, "freeing the communicator gives the segment back");
}

static int sloavx(MPI_Comm comm)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    MPI_Count *cnt = malloc((size_t)p * sizeof *cnt);
    MPI_Aint *dsp = malloc((size_t)p * sizeof *dsp);
    char *sb = malloc((size_t)p), *rb = malloc((size_t)p);
    for (int j = 0; j < p; j++)
        cnt[j] = 1, dsp[j] = j, sb[j] = (char)(r + j);
    int ok = colibri_alltoallv(sb, cnt, dsp, MPI_CHAR, rb, cnt, dsp, MPI_CHAR, comm, "sloavx") ==
             MPI_SUCCESS;
    for (int j = 0; j < p; j++)
        ok = ok && rb[j] == (char)(j + r);
    free(cnt), free(dsp), free(sb), free(rb);
    return ok;
}

/* A node-aware exchange allocates its node's segment.  Communicators of one
 * group share the node communicator and segment (this test is not
 * MPI_THREAD_MULTIPLE, so their blocking calls cannot overlap): a dup's
 * first sloavx costs only its private dup, the segment outlives a
 * communicator while another of its group uses it, and goes with the last
 * (at p = 1 the split's group is MPI_COMM_WORLD's, whose layout exchange
 * made the world a user of that node state: there it stays with the world). */
static void test_segment(void)
{
    long long bytes0 = stats().state_bytes, shm0 = stats().shm_bytes;
    MPI_Comm s, d;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &s); /* reversed: its own group if p > 1 */
    expect(sloavx(s), "sloavx on a split");
    long long shm = stats().shm_bytes, any = 0;
    PMPI_Allreduce(&shm, &any, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    expect(any > 0, "sloavx allocated a segment");
    MPI_Comm_dup(s, &d);
    struct colibri_setup_stats a = stats(), b;
    expect(sloavx(d), "sloavx on a dup of the split");
    b = stats();
    expect(b.setup_collectives == a.setup_collectives + 1 && b.shm_bytes == a.shm_bytes,
           "a dup's first sloavx shares its group's node communicator and segment (one setup "
           "call: its private dup)");
    MPI_Comm_free(&s);
    expect(stats().shm_bytes == shm, "the segment stays while a communicator of its group uses it");
    long long before = stats().state_bytes;
    expect(sloavx(d), "sloavx on the dup after the split is freed");
    expect(stats().state_bytes == before, "an alltoallv leaves no schedule with its communicator");
    MPI_Comm_free(&d);
    expect(stats().shm_bytes == (size > 1 ? shm0 : shm) && stats().state_bytes == bytes0,
           "freeing the group's last communicator frees its segment and state");
}

/* One cycle: a communicator (a dup or one of three splits) created, used
 * with one of 8 counts, sometimes asked its layout, freed. */
static long long cycle(int i)
{
    MPI_Comm c;
    if (i % 2)
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
    else
        MPI_Comm_split(MPI_COMM_WORLD, (rank + i) % 3, rank, &c);
    allreduce(c, 1 + i % 8);
    if (i % 16 == 0) {
        int node_of[64], n;
        if (size <= 64)
            colibri_node_layout(c, node_of, &n);
    }
    long long now = stats().state_bytes;
    MPI_Comm_free(&c);
    return now;
}

static void test_cycles(int cycles)
{
    /* The first 48 cycles cache the schedules every later one reuses (those
     * of the world group, kept with it). */
    for (int i = 0; i < 48; i++)
        cycle(i);
    struct colibri_setup_stats a = stats(), b;
    long long most = 0, exchanged = a.layouts_exchanged;
    for (int i = 48; i < cycles; i++) {
        long long now = cycle(i);
        most = now > most ? now : most;
    }
    b = stats();
    char what[160];
    snprintf(what, sizeof what, "%d create/use/free cycles: state %lld bytes -> %lld (peak %lld)",
             cycles, a.state_bytes, b.state_bytes, most);
    expect(b.state_bytes == a.state_bytes && b.comm_states_live == a.comm_states_live &&
               b.group_states_live == a.group_states_live && b.shm_bytes == a.shm_bytes,
           what);
    expect(b.layouts_exchanged == exchanged, "cycles: every layout predicted");
    if (rank == 0)
        printf("%s\n", what);
}

static void test_cache_cap(void)
{
    setenv("COLIBRI_CACHE_BYTES", "4096", 1);
    colibri_config_reload();
    struct colibri_setup_stats a = stats(), b;
    for (int n = 1; n <= 64; n++)
        allreduce(MPI_COMM_WORLD, n);
    b = stats();
    expect(b.schedule_bytes <= 4096, "cached schedules stay under COLIBRI_CACHE_BYTES");
    expect(size == 1 || b.schedules_evicted > a.schedules_evicted, "the cap evicts");
    a = b;
    allreduce(MPI_COMM_WORLD, 64);
    b = stats();
    expect(b.schedule_hits == a.schedule_hits + 1, "the most recent schedule stays cached");
    unsetenv("COLIBRI_CACHE_BYTES");
    colibri_config_reload();
}

static void test_eager(void)
{
    setenv("COLIBRI_SETUP", "eager", 1);
    colibri_config_reload();
    struct colibri_setup_stats a = stats(), b;
    const long long a0 = a.state_bytes;
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    allreduce(d, 8);
    b = stats();
    expect(b.group_states == a.group_states + 1 && b.group_shared == a.group_shared,
           "eager: a private group state");
    int lg = 0, p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    while ((1 << lg) < p)
        lg++;
    expect(b.layouts_exchanged == a.layouts_exchanged + 1 &&
               b.layout_collectives == a.layout_collectives + 3,
           "eager: the layout exchanged on first use (split_type, allreduce, colibri's allgather)");
    /* colibri's own allgather of node leaders (node.c): ceil(lg p) rounds
     * of one message sent, whatever the MPI's MPI_Allgather does */
    expect(b.layout_rounds == a.layout_rounds + lg && b.layout_messages == a.layout_messages + lg,
           "eager: the exchange's allgather takes ceil(lg p) rounds of one message");
    expect(layout_matches(d), "eager: the exchanged layout is right");
    expect(sloavx(d), "eager: sloavx");
    MPI_Comm d2;
    MPI_Comm_dup(d, &d2);
    a = stats();
    expect(sloavx(d2), "eager: sloavx on a dup");
    b = stats();
    expect(b.setup_collectives == a.setup_collectives + 8 && b.layouts_exchanged == a.layouts_exchanged + 1,
           "eager: a dup sets up in full (private dup, layout exchange of 3 calls, two "
           "rendezvous (before the exchange, before the node's windows), its own flag window "
           "and segment)");
    MPI_Comm_free(&d2);
    MPI_Comm_free(&d);
    expect(stats().state_bytes == a0, "eager: freeing gives the bytes back");
    unsetenv("COLIBRI_SETUP");
    colibri_config_reload();
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int cycles = argc > 1 ? atoi(argv[1]) : 10000;

    /* The world's layout is the parent of every prediction: exchanged once. */
    struct colibri_setup_stats a = stats();
    expect(a.comm_states == 0 && a.state_bytes == 0, "nothing allocated before the first collective");
    allreduce(MPI_COMM_WORLD, 8);
    expect(layout_matches(MPI_COMM_WORLD), "MPI_COMM_WORLD's layout is right");
    expect(stats().layouts_exchanged == 1, "MPI_COMM_WORLD's layout exchanged");

    test_creation_is_free();
    test_node_reduction_setup();
    test_agreement_setup();
    test_segment();
    test_cycles(cycles);
    test_cache_cap();
    test_eager();

    if (rank == 0)
        check_print_totals(check_passed, check_failed);
    MPI_Finalize();
    return check_failed != 0;
}
