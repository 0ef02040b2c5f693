/*
 * Per-communicator state, created lazily on the first colibri collective and
 * cached as an attribute, so creating a communicator costs colibri nothing.
 */
#include <stdlib.h>

#include "../select/catalog.h"

#include "node.h"
#include "runtime.h"

static int keyval = MPI_KEYVAL_INVALID;

static int state_delete(MPI_Comm comm, int key, void *attr, void *extra)
{
    (void)comm, (void)key, (void)extra;
    struct comm_state *cs = attr;
    int finalized = 0;
    PMPI_Finalized(&finalized);
    if (!finalized) {
        PMPI_Comm_free(&cs->comm);
        node_state_free(cs);
    }
    free(cs->layout_mem);
    for (int i = 0; i < COLIBRI_NCOLL; i++)
        sched_free(&cs->cache[i].s);
    free(cs);
    return MPI_SUCCESS;
}

int comm_state_get(MPI_Comm comm, struct comm_state **out)
{
    int rc, found = 0;
    if (keyval == MPI_KEYVAL_INVALID) {
        /* Not copied on MPI_Comm_dup: a dup gets its own state on first use. */
        rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, state_delete, &keyval, NULL);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    rc = PMPI_Comm_get_attr(comm, keyval, out, &found);
    if (rc != MPI_SUCCESS || found)
        return rc;

    struct comm_state *cs = calloc(1, sizeof *cs);
    if (!cs)
        return MPI_ERR_NO_MEM;
    PMPI_Comm_rank(comm, &cs->rank);
    PMPI_Comm_size(comm, &cs->size);
    rc = PMPI_Comm_dup(comm, &cs->comm);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_set_attr(comm, keyval, cs);
    if (rc != MPI_SUCCESS) {
        free(cs);
        return rc;
    }
    *out = cs;
    return MPI_SUCCESS;
}

struct comm_state *comm_state_find(MPI_Comm comm)
{
    struct comm_state *cs = NULL;
    int found = 0;
    if (keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL ||
        PMPI_Comm_get_attr(comm, keyval, &cs, &found) != MPI_SUCCESS || !found)
        return NULL;
    return cs;
}

static bool same_key(const struct sched_params *x, const struct sched_params *y)
{
    return x->rank == y->rank && x->size == y->size && x->root == y->root &&
           x->count == y->count && x->elem_size == y->elem_size && x->in_place == y->in_place &&
           x->commutative == y->commutative && x->segment == y->segment && x->radix == y->radix;
}

struct schedule *comm_cached_schedule(struct comm_state *cs, colibri_coll coll,
                                      const struct algorithm *alg, const struct sched_params *p)
{
    struct sched_cache *e = &cs->cache[coll];
    /* Per-rank count vectors are not compared: those calls always build
     * (reduce_scatter_block's are all `count`). */
    bool keyed = coll != COLIBRI_REDUCE_SCATTER && coll != COLIBRI_ALLTOALLV;
    if (e->alg == alg && keyed && same_key(&e->key, p))
        return &e->s;
    e->alg = NULL;
    sched_reset(&e->s);
    if (alg->build(p, &e->s) != 0 || e->s.oom)
        return NULL;
    /* A dynamic schedule grows while it runs: it serves this call only. */
    if (keyed && !e->s.resume) {
        e->alg = alg;
        e->key = *p;
        e->key.counts = NULL;
        e->key.layout = NULL;
    }
    return &e->s;
}
