/*
 * The C API's collectives (colibri.h), which the interposed MPI_* entry
 * points also call: check, select, build the schedule, run it.
 */
#include <stdlib.h>
#include <string.h>

#include "../select/select.h"
#include "config.h"
#include "sparse.h"
#include "native.h"
#include "runtime.h"
#include "validate.h"

static const char *const fnames[COLIBRI_NCOLL] = {"MPI_Allreduce", "MPI_Reduce",
                                                  "MPI_Reduce_scatter",
                                                  "MPI_Reduce_scatter_block", "MPI_Alltoall",
                                                  "MPI_Alltoallv"};

/*
 * The agreed density estimate that lets the selector weigh the sparse
 * algorithms (sched_params.density).  Every rank must pick the same
 * algorithm, and only the rank's own input is local, so the estimate is
 * agreed: each rank counts the non-neutral elements of its input (one scan,
 * cut off past a quarter, which then counts as fully dense) and one
 * small MPI_MAX allreduce gives everyone the densest rank's fraction.  That
 * costs a scan and lg p latencies, so it is done only for vectors of at
 * least SPARSE_AUTO_BYTES and then reused for the next SPARSE_REUSE calls
 * of the same (count, type, op) on the communicator; amortised it stays
 * below 1% of a dense reduction of that size.  A caller's hint
 * (colibri_sparse_hint) replaces the estimate.
 */
#define SPARSE_AUTO_BYTES (64 * 1024)
#define SPARSE_REUSE 32

static double agreed_density(struct comm_state *cs, const struct native_args *a,
                             const struct sparse_op *o, const void *input, int64_t n)
{
    if (cs->density_hint > 0)
        return cs->density_hint;
    struct sparse_estimate *e = &cs->estimate[a->coll];
    if (e->uses > 0 && e->count == n && e->dt == a->dt && e->op == a->op) {
        e->uses--;
        return e->density;
    }
    const int64_t cut = n / 4, k = sparse_count(o, input, n, cut);
    double all = k > cut ? 1 : (double)k / (double)n;
    if (exec_agree_max(cs, MPI_DOUBLE, &all) != MPI_SUCCESS)
        return 0;
    *e = (struct sparse_estimate){n, a->dt, a->op, all > 0 ? all : 1e-9, SPARSE_REUSE};
    return e->density;
}

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

    /* Sparse reductions need the op's neutral element; an automatic choice
     * also needs the agreed density, for long enough vectors only. */
    struct sparse_op sparse;
    const bool sparse_ok = a->coll < COLIBRI_ALLTOALL && kernel_sparse_op(a->op, a->dt, &sparse);
    if (sparse_ok) {
        c.sp.sparse = &sparse;
        const char *name = requested ? requested : cfg->algorithm[a->coll];
        const void *input = c.sp.in_place ? a->recvbuf : a->sendbuf;
        int64_t n = a->coll == COLIBRI_REDUCE_SCATTER_BLOCK ? a->count * v.size : a->count;
        if (a->coll == COLIBRI_REDUCE_SCATTER)
            for (int i = 0; i < v.size; i++)
                n += a->counts[i];
        if ((!name || !*name || strcmp(name, "auto") == 0) && n * (int64_t)tsize >= SPARSE_AUTO_BYTES &&
            comm_state_get(a->comm, &c.cs) == MPI_SUCCESS) {
            c.sp.density = agreed_density(c.cs, a, &sparse, input, n);
            sparse.bytes_saved = &c.cs->sparse_saved;
        }
    }

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
    if (sparse_ok && rc == MPI_SUCCESS)
        sparse.bytes_saved = &c.cs->sparse_saved;
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

int colibri_op_neutral(MPI_Op op, MPI_Datatype datatype, const void *neutral)
{
    const char *why = NULL;
    int rc = kernel_set_neutral(op, datatype, neutral, &why);
    return rc == MPI_SUCCESS ? rc : raise_error(MPI_COMM_SELF, "colibri_op_neutral", rc, why);
}

int colibri_sparse_hint(MPI_Comm comm, double density)
{
    struct comm_state *cs;
    int rc = comm_state_get(comm, &cs);
    if (rc != MPI_SUCCESS)
        return rc;
    cs->density_hint = density > 0 ? (density < 1 ? density : 1) : 0;
    /* the caller says the data changed: estimate afresh on the next call */
    cs->estimate[0].uses = cs->estimate[1].uses = 0;
    return MPI_SUCCESS;
}

long long colibri_sparse_bytes_saved(MPI_Comm comm)
{
    struct comm_state *cs = comm_state_find(comm);
    return cs ? cs->sparse_saved : 0;
}
