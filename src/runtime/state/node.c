/*
 * Node layout and shared segment of a communicator (see node.h).
 *
 * The segment is one MPI_Win_allocate_shared window on the node's
 * communicator, all of it allocated by the node's first rank (size 0
 * elsewhere) and addressed by every rank through MPI_Win_shared_query of
 * that rank: so it is one contiguous range of bytes, at possibly different
 * addresses in each process, which is what BUF_SHM offsets assume.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../config/config.h"
#include "../../patterns/dissemination.h"
#include "../../patterns/node_reduce.h"
#include "../../patterns/node_segment.h"
#include "../../patterns/nodes.h"
#include "engines.h"
#include "node.h"
#include "setup.h"
#ifdef COLIBRI_SMPI
#include <simgrid/cond.h>
#include <simgrid/mutex.h>
#endif

/* The communicator's node state (node.h says which), bound on first use. */
static struct node_state *node_state_of(struct comm_state *cs)
{
    if (!cs->node) {
        int level = MPI_THREAD_SINGLE;
        PMPI_Query_thread(&level);
        const bool own = config_get()->setup_eager || level == MPI_THREAD_MULTIPLE;
        cs->node = own ? &cs->own_node : &cs->grp->node;
        cs->node->users++;
    }
    return cs->node;
}

/* colibri's own allgather of one 64-bit integer per rank over cs->comm
 * (out: size entries), so that setup costs the same whatever the MPI's MPI_Allgather
 * does (SimGrid SMPI's default sends p^2 messages: a 256-rank layout
 * exchange took minutes of simulation with it).  Bruck's dissemination
 * (patterns/dissemination.h) of radix 2: ceil(lg p) rounds, in each one
 * message to rank r + 2^t and one from r - 2^t (min(2^t, p - 2^t) values),
 * p - 1 values received in all; the rounds and bytes of MPICH's and Open
 * MPI's own short allgathers (recursive doubling, Bruck).  The tag is the
 * communicator's next call tag, taken at the same collective on every
 * rank, as the executor takes it (exec_next_tag). */
#define LAYOUT_RADIX 2
static int allgather_i64(struct comm_state *cs, int64_t value, int64_t *out)
{
    const int p = cs->size, r = cs->rank;
    int64_t *slot = malloc((size_t)p * sizeof *slot);
    if (!slot)
        return MPI_ERR_NO_MEM;
    slot[0] = value; /* slot i: rank r - i (mod p) */
    const int tag = (int)(cs->seq++ & 0x7fff);
    int rc = MPI_SUCCESS;
    for (int t = 0; t < dis_rounds(p, LAYOUT_RADIX) && rc == MPI_SUCCESS; t++) {
        const long long D = dis_distance(LAYOUT_RADIX, t);
        MPI_Request reqs[2 * (LAYOUT_RADIX - 1)];
        int n = 0;
        for (int j = 1; j < LAYOUT_RADIX && dis_active(p, j, D) && rc == MPI_SUCCESS; j++) {
            const int c = (int)dis_count(p, j, D);
            rc = PMPI_Irecv(slot + j * D, c, MPI_INT64_T, dis_from(r, j, D, p), tag, cs->comm, &reqs[n]);
            n += rc == MPI_SUCCESS;
            if (rc == MPI_SUCCESS)
                rc = PMPI_Isend(slot, c, MPI_INT64_T, dis_to(r, j, D, p), tag, cs->comm, &reqs[n]);
            n += rc == MPI_SUCCESS;
            setup_stats.layout_messages += rc == MPI_SUCCESS;
        }
        const int wrc = n > 0 ? PMPI_Waitall(n, reqs, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
        if (rc == MPI_SUCCESS)
            rc = wrc;
        setup_stats.layout_rounds++;
    }
    for (int i = 0; i < p && rc == MPI_SUCCESS; i++)
        out[dis_slot_node(r, i, p)] = slot[i];
    free(slot);
    return rc;
}

/* The reference path: every rank learns its node from MPI and tells the
 * others its node's leader.  Keeps the node communicator it makes.  Three
 * setup calls: MPI_Comm_split_type and a minimum over the node (the MPI's;
 * they cost what the node's ranks alone cost) and allgather_i64, which also
 * agrees on the node-aware chunk: the smallest any rank's machine asks
 * for (machine_chunk_bytes). */
/* Before the node's blocking setup collectives (the layout exchange's
 * MPI_Comm_split_type, MPI_Comm_create_group, MPI_Win_allocate_shared,
 * MPI_Barrier): every rank
 * of the communicator meets in a nonblocking barrier, waited for with
 * colibri's engine turning (engines.h).  A rank may reach this setup
 * while its other colibri operations run, and a rank that first waits for
 * one of those needs this one to advance it; once the barrier completes
 * every rank is inside this setup, so the blocking collectives after it
 * need no one outside.  One more setup collective where a layout is
 * exchanged and at a communicator's first node-aware call. */
static int setup_rendezvous(struct comm_state *cs)
{
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = PMPI_Ibarrier(cs->comm, &r);
    setup_count_collective(0);
    return rc != MPI_SUCCESS ? rc : engines_wait(&r, MPI_STATUS_IGNORE);
}

/* The node-aware chunk this rank's machine asks for, in bytes
 * (node_chunk_for_cache: a quarter of a core's second-level cache), or
 * COLIBRI_NODE_CHUNK_BYTES.  Under SMPI a fixed 64 KiB: the simulated
 * platform has no cache, and simulated times must not depend on the
 * machine that runs the simulation. */
static int64_t machine_chunk_bytes(void)
{
    const long long set = config_get()->node_chunk_bytes;
    if (set > 0)
        return set;
    int64_t l2 = 0;
#ifndef COLIBRI_SMPI
    for (int i = 0; i < 8 && !l2; i++) {
        char path[96], buf[32];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        const bool two = fgets(buf, sizeof buf, f) && atoi(buf) == 2;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (two && (f = fopen(path, "r"))) {
            char *end = NULL;
            if (fgets(buf, sizeof buf, f)) {
                l2 = strtoll(buf, &end, 10);
                l2 *= end && *end == 'K' ? 1024 : end && *end == 'M' ? 1024 * 1024 : 1;
            }
            fclose(f);
        }
    }
#endif
    return node_chunk_for_cache(l2);
}

static int leaders_exchange(struct comm_state *cs, int *leader_of, int64_t *chunk)
{
    MPI_Comm node = MPI_COMM_NULL;
    int rc = setup_rendezvous(cs);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_split_type(cs->comm, MPI_COMM_TYPE_SHARED, cs->rank, MPI_INFO_NULL, &node);
    int leader = cs->rank;
    setup_count_collective(1);
    /* The leader is the node's lowest rank.  Not simply the node
     * communicator's rank 0: SMPI 3.32 orders it by MPI_COMM_WORLD rank
     * whatever the key, which differs in a reordered communicator. */
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Allreduce(&cs->rank, &leader, 1, MPI_INT, MPI_MIN, node);
        setup_count_collective(1);
    }
    int64_t *both = rc == MPI_SUCCESS ? malloc((size_t)cs->size * sizeof *both) : NULL;
    if (rc == MPI_SUCCESS && !both)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) {
        /* leader in the low 32 bits, this machine's chunk (KiB) above */
        const int64_t kib = (machine_chunk_bytes() + 1023) / 1024;
        rc = allgather_i64(cs, kib << 32 | (int64_t)(uint32_t)leader, both);
        setup_count_collective(1);
    }
    for (int i = 0; rc == MPI_SUCCESS && i < cs->size; i++) {
        leader_of[i] = (int)(uint32_t)both[i];
        const int64_t bytes = (both[i] >> 32) * 1024;
        if (i == 0 || bytes < *chunk)
            *chunk = bytes;
    }
    free(both);
    /* Kept for the segment.  The node state has no communicator yet: the
     * exchange runs once per group state, before any segment, and the
     * group's node state goes no later than its layout. */
    if (rc == MPI_SUCCESS)
        node_state_of(cs)->comm = node;
    else if (node != MPI_COMM_NULL)
        PMPI_Comm_free(&node);
    return rc;
}

/* Prediction: the group's ranks in the parent's numbering, and the parent's
 * layout, say who shares a node.  Local.  MPI_ERR_RANK when a member is not
 * in the parent (the same answer on every member). */
static int leaders_predict(struct comm_state *cs, const struct group_state *parent, int *leader_of)
{
    const int size = cs->size;
    int *mem = malloc((2 * (size_t)size + (size_t)parent->layout.n_nodes) * sizeof *mem);
    if (!mem)
        return MPI_ERR_NO_MEM;
    int *idx = mem, *parent_rank = mem + size, *first = mem + 2 * size;
    for (int i = 0; i < size; i++)
        idx[i] = i;
    int rc = PMPI_Group_translate_ranks(cs->grp->group, size, idx, parent->group, parent_rank);
    if (rc == MPI_SUCCESS &&
        node_leaders_predict(size, parent_rank, parent->size, parent->layout.node_of,
                             parent->layout.n_nodes, first, leader_of) != 0)
        rc = MPI_ERR_RANK;
    free(mem);
    return rc;
}

int node_layout_get(struct comm_state *cs, const struct node_layout **out)
{
    struct group_state *g = cs->grp;
    if (g->layout_mem) {
        *out = &g->layout;
        return MPI_SUCCESS;
    }
    const int size = cs->size;
    int *mem = state_alloc(node_layout_bytes(size));
    int *leader_of = malloc((size_t)size * sizeof *leader_of + 1);
    if (!mem || !leader_of) {
        state_free(mem, node_layout_bytes(size));
        free(leader_of);
        return MPI_ERR_NO_MEM;
    }
    const struct group_state *parent = config_get()->setup_eager ? NULL : group_state_world_parent();
    int rc = parent ? leaders_predict(cs, parent, leader_of) : MPI_ERR_RANK;
    int64_t chunk = parent ? parent->chunk_bytes : 0;
    if (rc == MPI_SUCCESS) {
        setup_stats.layouts_predicted++;
    } else {
        rc = leaders_exchange(cs, leader_of, &chunk);
        setup_stats.layouts_exchanged++;
    }
    int n_nodes = -1;
    if (rc == MPI_SUCCESS) {
        n_nodes = node_layout_fill(size, leader_of, mem, mem + size, mem + 2 * size,
                                   mem + 3 * size + 1);
        if (n_nodes < 0)
            rc = MPI_ERR_INTERN;
    }
    free(leader_of);
    if (rc != MPI_SUCCESS) {
        state_free(mem, node_layout_bytes(size));
        return rc;
    }
    g->layout = (struct node_layout){n_nodes, mem, mem + size, mem + 2 * size, mem + 3 * size + 1};
    g->layout_mem = mem;
    g->layout_max_ranks = node_max_ranks(n_nodes, g->layout.node_start);
    g->chunk_bytes = chunk;
    group_state_keep_world(g);
    *out = &g->layout;
    return MPI_SUCCESS;
}

/* The node's communicator when the layout was predicted: made from the
 * layout over the node's ranks alone, so no message leaves the node. */
static int node_comm_create(struct comm_state *cs, struct node_state *ns)
{
    const struct node_layout *l = &cs->grp->layout;
    const int n = l->node_of[cs->rank];
    MPI_Group all, node;
    int rc = PMPI_Comm_group(cs->comm, &all);
    if (rc != MPI_SUCCESS)
        return rc;
    /* node_ranks ascend: the node communicator's rank 0 is the leader */
    rc = PMPI_Group_incl(all, l->node_start[n + 1] - l->node_start[n], l->node_ranks + l->node_start[n],
                         &node);
    PMPI_Group_free(&all);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Comm_create_group(cs->comm, node, 0, &ns->comm);
    setup_count_collective(0);
    PMPI_Group_free(&node);
    return rc;
}

/* What this process allocated of its node's segment (the node's first rank
 * holds all of it). */
static int64_t own_share(const struct node_state *ns)
{
    int node_rank = 0;
    PMPI_Comm_rank(ns->comm, &node_rank);
    return node_rank == 0 ? ns->size : 0;
}

/* (Re)allocates the node's segment with at least `bytes`, collectively over
 * the node; contents are not kept. */
static int segment_alloc(struct node_state *ns, int64_t bytes)
{
    int node_rank, rc;
    PMPI_Comm_rank(ns->comm, &node_rank);
    int64_t old = ns->size;
    if (old > 0) {
        /* Every rank of the node is here, at the same point of its schedule,
         * only once none of them touches the old segment any more. */
        rc = PMPI_Barrier(ns->comm);
        setup_stats.shm_bytes -= own_share(ns);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Win_free(&ns->win);
        ns->shm = NULL;
        ns->size = 0;
        if (rc != MPI_SUCCESS)
            return rc;
        /* Growing by half at least keeps a slowly growing sequence of calls
         * from reallocating every time (the same on every rank). */
        if (bytes < old + old / 2)
            bytes = old + old / 2;
    } else {
        setup_count_collective(0);
    }
    void *base;
    rc = PMPI_Win_allocate_shared(node_rank == 0 ? (MPI_Aint)bytes : 0, 1, MPI_INFO_NULL,
                                  ns->comm, &base, &ns->win);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Aint got;
    int disp;
    rc = PMPI_Win_shared_query(ns->win, 0, &got, &disp, &ns->shm);
    if (rc != MPI_SUCCESS || got < bytes) {
        PMPI_Win_free(&ns->win);
        ns->shm = NULL;
        return rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
    }
    ns->size = bytes;
    setup_stats.shm_bytes += own_share(ns);
    return MPI_SUCCESS;
}

int node_segment_grow(struct node_segment *seg, int64_t bytes)
{
    struct node_state *ns = seg->cs->node;
    int rc = segment_alloc(ns, bytes);
    seg->base = ns->shm;
    seg->size = ns->size;
    return rc;
}

/* A window of `flag_bytes` (header and flags, zeroed) then `data` bytes on
 * the node's communicator, allocated by its rank 0, collectively; *shm is
 * its cache-line-aligned start, *bytes what rank 0 allocated. */
static int flag_window(MPI_Comm comm, int64_t flag_bytes, int64_t data, MPI_Win *win, void **shm,
                       int64_t *bytes)
{
    int node_rank = 0;
    int rc = PMPI_Comm_rank(comm, &node_rank);
    if (rc != MPI_SUCCESS)
        return rc;
    /* + a cache line: the window's base need not be aligned (Open MPI's
     * was 8 mod 16, misaligning long doubles), ours is */
    *bytes = NODE_FLAG_STRIDE + flag_bytes + data;
    void *base;
    rc = PMPI_Win_allocate_shared(node_rank == 0 ? (MPI_Aint)*bytes : 0, 1, MPI_INFO_NULL, comm,
                                  &base, win);
    setup_count_collective(0);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Aint got;
    int disp;
    rc = PMPI_Win_shared_query(*win, 0, &got, &disp, shm);
    if (rc == MPI_SUCCESS && got < *bytes)
        rc = MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS) /* the same offset on every rank: it is the segment's */
        *shm = (char *)*shm + (NODE_FLAG_STRIDE - (uintptr_t)*shm % NODE_FLAG_STRIDE) % NODE_FLAG_STRIDE;
    /* Flags start at 0, below every epoch (from 1): zeroed by the
     * owner before anyone may read them. */
    if (rc == MPI_SUCCESS && node_rank == 0) {
        memset(*shm, 0, (size_t)flag_bytes);
#ifdef COLIBRI_SMPI
        /* Simulated ranks only switch at simulation calls, and a
         * polling sleep costs the simulator a CPU action each time:
         * flag waits sleep on the node's condition instead. */
        void **sim = *shm;
        sim[0] = sg_mutex_init();
        sim[1] = sg_cond_init();
#endif
    }
    if (rc == MPI_SUCCESS)
        rc = PMPI_Barrier(comm);
    if (rc != MPI_SUCCESS) {
        PMPI_Win_free(win);
        return rc;
    }
    if (node_rank == 0)
        setup_stats.shm_bytes += *bytes;
    return MPI_SUCCESS;
}

/* Frees a flag_window (collective over the node: no rank uses it after). */
static void flag_window_free(MPI_Comm comm, MPI_Win *win, void *header, int64_t bytes)
{
    int node_rank = 1;
    PMPI_Comm_rank(comm, &node_rank);
#ifdef COLIBRI_SMPI
    void *sim[2] = {((void **)header)[0], ((void **)header)[1]};
#else
    (void)header;
#endif
    if (node_rank == 0)
        setup_stats.shm_bytes -= bytes;
    PMPI_Win_free(win);
#ifdef COLIBRI_SMPI
    if (node_rank == 0) {
        sg_cond_destroy(sim[1]);
        sg_mutex_destroy(sim[0]);
    }
#endif
}

/* Whether flag waits on a node of `nloc` of the communicator's ranks
 * should yield the core while they wait (node_segment.yield, executor.c's
 * flag_wait): only where the node runs more of the job's ranks than it has
 * processors, so that the rank being waited for may be waiting for this
 * rank's core.  Elsewhere a wait spins, as the MPI's own waits do.
 * Yielding there cost a whole time slice per poll as soon as any other
 * process was runnable on the core: Linux's EEVDF scheduler (6.18 here)
 * runs every other runnable task of the core before the yielder again and
 * charges the yielder for it (a 100 us loop with one sched_yield took 3 ms
 * beside a busy process on its core, with ten 28 ms); with one busy process
 * beside 2 ranks on 2 cores, Open MPI 5's reduce through the segment took
 * 4-7x native at 1-4 MiB (docs/results/ompi5-reduce/).  The job's ranks on
 * the node: MPI_COMM_WORLD's layout where it is known, at least `nloc`.
 * Decided once per segment. */
static bool node_oversubscribed(int nloc)
{
    static long cpus; /* online processors, read once (sysconf reads /sys) */
    if (!cpus)
        cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int ranks = nloc, me = -1;
    const struct group_state *w = group_state_world_parent();
    if (w && w->layout_mem && PMPI_Comm_rank(MPI_COMM_WORLD, &me) == MPI_SUCCESS && me >= 0 &&
        me < w->size) {
        const int n = w->layout.node_of[me];
        const int on_node = w->layout.node_start[n + 1] - w->layout.node_start[n];
        ranks = on_node > ranks ? on_node : ranks;
    }
    return cpus < 1 || ranks > cpus;
}

/* Binds the flag-related fields of seg to a window made by flag_window. */
static void bind_flags(struct node_segment *seg, void *header, unsigned char *flags,
                       uint64_t *epoch, bool yield)
{
    seg->flags = flags;
    seg->epoch = epoch;
    seg->yield = yield;
    seg->sim_mutex = ((void **)header)[0];
    seg->sim_cond = ((void **)header)[1];
}

int node_segment_attach(struct comm_state *cs, struct node_segment *seg)
{
    if (!cs->grp->layout_mem)
        return MPI_ERR_INTERN;
    struct node_state *ns = node_state_of(cs);
    if (ns->comm == MPI_COMM_NULL || !ns->flags) {
        int rc = setup_rendezvous(cs);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (ns->comm == MPI_COMM_NULL) {
        int rc = node_comm_create(cs, ns);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (!ns->flags) {
        int nloc = 0;
        int rc = PMPI_Comm_size(ns->comm, &nloc);
        const int64_t flag_bytes = NODE_HEADER_BYTES + (int64_t)node_seg_flags(nloc) * NODE_FLAG_STRIDE;
        void *shm;
        if (rc == MPI_SUCCESS)
            rc = flag_window(ns->comm, flag_bytes, 0, &ns->flag_win, &shm, &ns->flag_bytes);
        if (rc != MPI_SUCCESS)
            return rc;
        ns->header = shm;
        ns->flags = (unsigned char *)shm + NODE_HEADER_BYTES;
        ns->epoch = 1;
        ns->yield = node_oversubscribed(nloc);
    }
    seg->cs = cs;
    seg->base = ns->shm;
    seg->size = ns->size;
    seg->slot_flags = 0;
    bind_flags(seg, ns->header, ns->flags, &ns->epoch, ns->yield);
    return MPI_SUCCESS;
}

int node_reduction_attach(struct comm_state *cs, struct node_segment *seg)
{
    struct node_reduction *r = &cs->red;
    if (!r->flags) {
        if (!cs->grp->layout_mem)
            return MPI_ERR_INTERN;
        struct node_state *ns = &cs->own_node;
        int rc = setup_rendezvous(cs);
        if (rc == MPI_SUCCESS && ns->comm == MPI_COMM_NULL)
            rc = node_comm_create(cs, ns);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Comm_size(ns->comm, &r->nloc);
        if (rc != MPI_SUCCESS)
            return rc;
        const int64_t flag_bytes = NODE_HEADER_BYTES +
            (int64_t)NODE_SLOTS * node_slot_flags(r->nloc) * NODE_FLAG_STRIDE;
        const int64_t data = config_get()->node_shm_bytes > 0 ? config_get()->node_shm_bytes : 0;
        void *shm;
        int64_t bytes;
        rc = flag_window(ns->comm, flag_bytes, data, &r->win, &shm, &bytes);
        if (rc != MPI_SUCCESS)
            return rc;
        r->header = shm;
        r->flags = (unsigned char *)shm + NODE_HEADER_BYTES;
        r->data = (char *)shm + flag_bytes;
        r->data_bytes = data;
        r->bytes = bytes;
        r->epoch = 1;
        r->mapped = false;
        r->yield = node_oversubscribed(r->nloc);
    }
    seg->cs = cs;
    seg->base = r->data;
    seg->size = r->data_bytes;
    seg->slot_flags = node_slot_flags(r->nloc);
    seg->slot_bytes = node_slot_bytes(r->data_bytes, NODE_SLOTS);
    seg->mapped = &r->mapped;
    bind_flags(seg, r->header, r->flags, &r->epoch, r->yield);
    return MPI_SUCCESS;
}

/* Frees the communicator's reduction segment and, when no node state uses
 * it, the node communicator it lives on. */
static void reduction_release(struct comm_state *cs, int finalized)
{
    struct node_reduction *r = &cs->red;
    if (r->flags && !finalized)
        flag_window_free(cs->own_node.comm, &r->win, r->header, r->bytes);
    r->flags = NULL;
    r->data = NULL;
    if (cs->node != &cs->own_node && cs->own_node.comm != MPI_COMM_NULL) {
        if (!finalized)
            PMPI_Comm_free(&cs->own_node.comm);
        cs->own_node.comm = MPI_COMM_NULL;
    }
}

void node_state_release(struct comm_state *cs)
{
    int finalized = 0;
    PMPI_Finalized(&finalized);
    reduction_release(cs, finalized);

    struct node_state *ns = cs->node;
    cs->node = NULL;
    if (!ns || --ns->users > 0)
        return;
    if (!finalized && ns->size > 0) {
        setup_stats.shm_bytes -= own_share(ns);
        PMPI_Win_free(&ns->win);
    }
    if (!finalized && ns->flags)
        flag_window_free(ns->comm, &ns->flag_win, ns->header, ns->flag_bytes);
    ns->flags = NULL;
    if (!finalized && ns->comm != MPI_COMM_NULL)
        PMPI_Comm_free(&ns->comm);
    ns->comm = MPI_COMM_NULL;
    ns->shm = NULL;
    ns->size = 0;
}
