/*
 * The C API's collectives (colibri.h), which the interposed MPI_* entry
 * points also call: check, select, build the schedule, run it.
 */
#include <stdlib.h>
#include <string.h>

#include "../select/select.h"
#include "config.h"
#include "native.h"
#include "runtime.h"
#include "validate.h"

static const char *const fnames[COLIBRI_NCOLL] = {"MPI_Allreduce", "MPI_Reduce",
                                                  "MPI_Reduce_scatter",
                                                  "MPI_Reduce_scatter_block", "MPI_Alltoall",
                                                  "MPI_Alltoallv"};

static int run(struct native_args *a, const char *requested)
{
    const char *fname = fnames[a->coll];
    if (comm_passes_through(a->comm)) /* the MPI below reports or handles it */
        return native_call(a);

    struct call_args v = {a->coll, a->sendbuf, a->recvbuf, a->count, a->counts, a->dt, a->op,
                          a->root, 0, 0};
    PMPI_Comm_rank(a->comm, &v.rank);
    PMPI_Comm_size(a->comm, &v.size);
    char msg[640];
    int rc = validate_call(&v, msg, sizeof msg);
    if (rc != MPI_SUCCESS)
        return raise_error(a->comm, fname, rc, msg);

    int commutative = 1;
    PMPI_Op_commutative(a->op, &commutative);
    int tsize;
    PMPI_Type_size(a->dt, &tsize);

    struct coll_call c;
    memset(&c, 0, sizeof c);
    c.coll = a->coll;
    c.dt = a->dt;
    c.sp.rank = v.rank;
    c.sp.size = v.size;
    c.sp.root = a->coll == COLIBRI_REDUCE ? a->root : 0;
    c.sp.count = a->count;
    c.sp.elem_size = (size_t)tsize;
    c.sp.in_place = a->sendbuf == MPI_IN_PLACE;
    c.sp.commutative = commutative != 0;
    /* Tuning knobs; every rank must see the same values, as with any MPI
     * tuning variable. */
    const struct config *cfg = config_get();
    c.sp.radix = (int)cfg->radix;
    c.sp.segment = tsize > 0 ? cfg->segment_bytes / tsize : 0;

    int64_t *block_counts = NULL;
    if (a->coll == COLIBRI_REDUCE_SCATTER_BLOCK) {
        block_counts = malloc((size_t)v.size * sizeof *block_counts);
        if (!block_counts)
            return raise_error(a->comm, fname, MPI_ERR_NO_MEM, "out of memory");
        for (int i = 0; i < v.size; i++)
            block_counts[i] = a->count;
        c.sp.counts = block_counts;
    } else if (a->coll == COLIBRI_REDUCE_SCATTER) {
        c.sp.counts = a->counts;
    }

    const struct algorithm *alg;
    rc = select_algorithm(a->coll, &c.sp, requested, &alg, msg, sizeof msg);
    if (rc != MPI_SUCCESS) {
        free(block_counts);
        return raise_error(a->comm, fname, rc, msg);
    }
    if (!alg) {
        free(block_counts);
        struct comm_state *cs;
        if (comm_state_get(a->comm, &cs) == MPI_SUCCESS)
            cs->last[a->coll] = "native";
        stats_count(NULL, a->coll);
        return native_call(a);
    }

    rc = comm_state_get(a->comm, &c.cs);
    if (rc == MPI_SUCCESS)
        rc = dtinfo_init(a->dt, &c.dti);
    if (rc != MPI_SUCCESS) {
        free(block_counts);
        return raise_error(a->comm, fname, rc, "could not set up the communicator");
    }
    c.sendbuf = c.sp.in_place ? a->recvbuf : a->sendbuf;
    c.recvbuf = a->recvbuf;
    c.red.op = a->op;
    c.red.dt = a->dt;
    c.red.commutative = c.sp.commutative;
    c.red.kernel = kernel_lookup(a->op, a->dt);

    struct schedule *s = comm_cached_schedule(c.cs, a->coll, alg, &c.sp);
    rc = s ? exec_run(&c, s) : MPI_ERR_NO_MEM;
    free(block_counts);
    if (rc != MPI_SUCCESS)
        return raise_error(a->comm, fname, rc, "communication failed inside the collective");
    c.cs->last[a->coll] = alg->name;
    stats_count(alg, a->coll);
    return MPI_SUCCESS;
}

int colibri_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, const char *algorithm)
{
    struct native_args a = {COLIBRI_ALLREDUCE, sendbuf, recvbuf, count, NULL, datatype, op, 0, comm};
    return run(&a, algorithm);
}

int colibri_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, const char *algorithm)
{
    struct native_args a = {COLIBRI_REDUCE, sendbuf, recvbuf, count, NULL, datatype, op, root, comm};
    return run(&a, algorithm);
}

int colibri_reduce_scatter_block(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 const char *algorithm)
{
    struct native_args a = {COLIBRI_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                            datatype, op, 0, comm};
    return run(&a, algorithm);
}

int colibri_reduce_scatter(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *algorithm)
{
    /* MPI_Count is a 64-bit integer on every MPI colibri supports. */
    _Static_assert(sizeof(MPI_Count) == sizeof(int64_t), "MPI_Count is not 64-bit");
    struct native_args a = {COLIBRI_REDUCE_SCATTER, sendbuf, recvbuf, 0,
                            (const int64_t *)recvcounts, datatype, op, 0, comm};
    return run(&a, algorithm);
}
