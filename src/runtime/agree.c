/*
 * The agreements selection needs before it can choose (the largest block of
 * an alltoallv, the shape of a sparse input): the maximum of values over a
 * communicator's ranks, run as colibri's own recursive doubling on its
 * private communicator (the MPI below may do an 8-byte allreduce linearly:
 * SMPI's default took 60 us at 256 ranks where this takes 10).
 */
#include <string.h>

#include "../coll/algorithm.h"
#include "agree.h"
#include "executor.h"

static int prepare(struct comm_state *cs, MPI_Datatype dt, void *value, int64_t count,
                         struct coll_call *c, struct schedule *s)
{
    memset(c, 0, sizeof *c);
    c->coll = COLIBRI_ALLREDUCE;
    c->dt = dt;
    int rc = dtinfo_init(dt, &c->dti);
    if (rc != MPI_SUCCESS)
        return rc;
    c->red = (struct reducer){MPI_MAX, dt, kernel_lookup(MPI_MAX, dt), true};
    c->cs = cs;
    c->sp.rank = cs->rank;
    c->sp.size = cs->size;
    c->sp.count = count;
    c->sp.elem_size = (size_t)c->dti.size;
    c->sp.commutative = true;
    c->sp.in_place = true;
    c->sendbuf = c->recvbuf = value;
    sched_reset(s);
    return allreduce_recursive_doubling_build(&c->sp, s) != 0 || s->oom ? MPI_ERR_NO_MEM
                                                                         : MPI_SUCCESS;
}

int agree_max_prepare(struct comm_state *cs, MPI_Datatype dt, void *value, struct coll_call *c,
                       struct schedule *s)
{
    return prepare(cs, dt, value, 1, c, s);
}

int agree_max_n(struct comm_state *cs, MPI_Datatype dt, void *value, int64_t count)
{
    struct coll_call c;
    struct schedule s;
    sched_init(&s);
    int rc = prepare(cs, dt, value, count, &c, &s);
    if (rc == MPI_SUCCESS)
        rc = exec_run(&c, &s);
    sched_free(&s);
    return rc;
}

int agree_max(struct comm_state *cs, MPI_Datatype dt, void *value)
{
    return agree_max_n(cs, dt, value, 1);
}
