/*
 * The agreements selection needs before it can choose (the largest block of
 * an alltoallv, the shape of a sparse input): the maximum of values over a
 * communicator's ranks, run as one of colibri's own schedules on its
 * private communicator, never the MPI below's allreduce (which may do an
 * 8-byte allreduce linearly: SMPI's default took 60 us at 256 ranks where
 * recursive doubling takes 10).
 *
 * Where a node holds several of the communicator's ranks, the agreement is
 * the node dissemination allreduce (coll/common/node_dissemination.c)
 * through the communicator's reduction segment: the ranks of a node combine
 * their values through shared memory, and the nodes by dissemination over
 * R + 1 with each of the node's R rails talking to another node at once:
 * ceil(log_{R+1} N) rounds of messages (2 at 64 or 256 nodes of 16 ranks,
 * where the node leaders' recursive doubling took lg N: an automatic
 * alltoallv at 1024 simulated ranks spent 12 of its 27.8 us agreeing).
 * A maximum is exact and idempotent, so the paths along which a value
 * arrives more than once, and the different orders in which nodes combine,
 * give every rank the same bits (doubles are made +0.0 where they are
 * zeros first: the maximum of -0.0 and +0.0 depends on the order).  On
 * one node it is a flag hand-off in place of a message round trip.  With
 * one rank per node, or no room in the segment, it is recursive doubling
 * over all ranks.  The segment is the communicator's reduction segment,
 * and an agreement does not create it before the communicator's
 * AGREE_SEGMENT_AFTER-th agreement: creating it (a node communicator and
 * a shared window) took 0.6-1 ms on Open MPI 5 (2 ranks), the whole cost
 * of a first online decision of a short alltoall, while a communicator
 * that agrees a few times (decisions, re-checks) does as well with the
 * messages; one that agrees at every call (automatic alltoallv) gets the
 * segment after a few.  Once a node-aware algorithm has created it,
 * agreements use it.  The choice depends on the layout, the
 * configuration, the count, the communicator's agreements so far and
 * whether its segment exists (created by collective calls that every
 * rank makes alike), so every rank makes it alike.  A blocking
 * agreement's schedule is cached like any call's.
 */
#include <stdatomic.h>
#include <string.h>

#include "../coll/algorithm.h"
#include "../coll/common/node_dissemination.h"
#include "../config/config.h"
#include "../patterns/node_reduce.h"
#include "../select/catalog.h"
#include "agree.h"
#include "executor.h"
#include "state/node.h"

/* The catalog entries, looked up once (the catalog is constant). */
static const struct algorithm *entry(_Atomic(const struct algorithm *) *e, const char *name)
{
    const struct algorithm *a = atomic_load_explicit(e, memory_order_relaxed);
    if (!a) {
        a = catalog_find(COLIBRI_ALLREDUCE, name);
        atomic_store_explicit(e, a, memory_order_relaxed);
    }
    return a;
}
static _Atomic(const struct algorithm *) doubling;
/* (the comment above) */
#define AGREE_SEGMENT_AFTER 16
/* Not in the catalog (node_dissemination.h): nothing selects it. */
static const struct algorithm dissemination = {"node_dissemination", COLIBRI_ALLREDUCE, 0,
                                               node_dissemination_build, NULL, NULL, false};

static int prepare(struct comm_state *cs, MPI_Datatype dt, void *value, int64_t count,
                   struct coll_call *c, const struct algorithm **alg)
{
    if (dt == MPI_DOUBLE)
        for (int64_t i = 0; i < count; i++)
            ((double *)value)[i] += 0.0; /* -0.0 + 0.0 is +0.0 */
    memset(c, 0, sizeof *c);
    c->coll = COLIBRI_ALLREDUCE;
    c->dt = dt;
    c->dti = (struct dtinfo){8, 0, 8, 8, true}; /* agree.h: 8-byte predefined types */
    c->red = (struct reducer){MPI_MAX, dt, kernel_lookup(MPI_MAX, dt), true};
    c->cs = cs;
    c->sp.rank = cs->rank;
    c->sp.size = cs->size;
    c->sp.count = count;
    c->sp.elem_size = (size_t)c->dti.size;
    c->sp.commutative = true;
    c->sp.in_place = true;
    c->sp.radix = 2;
    c->sendbuf = c->recvbuf = value;
    *alg = entry(&doubling, "recursive_doubling");
    const long long made = cs->agreements++;
    if (cs->size < 2 || (!cs->red.flags && made < AGREE_SEGMENT_AFTER))
        return MPI_SUCCESS;
    const struct node_layout *l;
    int rc = node_layout_get(cs, &l);
    if (rc != MPI_SUCCESS)
        return rc;
    const int64_t chunk = node_call_chunk(config_get()->node_shm_bytes, NODE_SLOTS,
                                          cs->grp->layout_max_ranks, cs->grp->chunk_bytes,
                                          c->dti.extent, c->dti.true_extent - c->dti.extent);
    if (l->n_nodes == cs->size || chunk < count)
        return MPI_SUCCESS;
    rc = node_reduction_attach(cs, &c->shm);
    if (rc != MPI_SUCCESS)
        return rc;
    c->sp.layout = l;
    c->sp.node_chunk = chunk;
    *alg = &dissemination;
    return MPI_SUCCESS;
}

int agree_max_prepare(struct comm_state *cs, MPI_Datatype dt, void *value, int64_t count,
                      struct coll_call *c, struct schedule *s)
{
    const struct algorithm *alg;
    int rc = prepare(cs, dt, value, count, c, &alg);
    if (rc != MPI_SUCCESS)
        return rc;
    sched_reset(s);
    return alg->build(&c->sp, s) != 0 || s->oom ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

int agree_max_n(struct comm_state *cs, MPI_Datatype dt, void *value, int64_t count)
{
    struct coll_call c;
    const struct algorithm *alg;
    int rc = prepare(cs, dt, value, count, &c, &alg);
    if (rc != MPI_SUCCESS)
        return rc;
    struct schedule *s = comm_cached_schedule(cs, COLIBRI_ALLREDUCE, alg, &c.sp, NULL);
    if (!s)
        return MPI_ERR_NO_MEM;
    rc = exec_run(&c, s);
    comm_release_schedule(cs, s);
    return rc;
}
