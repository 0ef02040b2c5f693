/*
 * The user's buffers of the data-movement collectives as bytes (bytes.h).
 */
#include "bytes.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "../patterns/node_reduce.h"
#include "../runtime/state/node.h"
#include "../runtime/state/state.h"
#include "../select/catalog.h"
#include "../select/select.h"

int64_t side_count(const struct side *s, int j)
{
    return s->counts ? s->counts[j] : s->count;
}

int64_t side_displ(const struct side *s, int j)
{
    return s->counts ? s->displs[j] : (int64_t)j * s->count;
}

int check_side(const struct side *s, int size, const char *what, char *msg, size_t len)
{
    if (s->dt == MPI_DATATYPE_NULL) {
        snprintf(msg, len, "%stype is MPI_DATATYPE_NULL", what);
        return MPI_ERR_TYPE;
    }
    if (!s->counts && s->count < 0) {
        snprintf(msg, len, "%scount is negative (%lld)", what, (long long)s->count);
        return MPI_ERR_COUNT;
    }
    int64_t total = 0;
    for (int j = 0; s->counts && j < size; j++) {
        if (s->counts[j] < 0) {
            snprintf(msg, len, "%scounts[%d] is negative (%lld)", what, j, (long long)s->counts[j]);
            return MPI_ERR_COUNT;
        }
        total += s->counts[j];
    }
    if (!s->counts)
        total = s->count * size;
    MPI_Aint lb = 0, extent = 0;
    if (s->buf == NULL && total > 0 && PMPI_Type_get_true_extent(s->dt, &lb, &extent) == MPI_SUCCESS &&
        lb == 0) {
        snprintf(msg, len, "%sbuf is NULL with %lld elements to %s", what, (long long)total,
                 what[0] == 's' ? "send" : "receive");
        return MPI_ERR_BUFFER;
    }
    return MPI_SUCCESS;
}

static int pack_block(const struct side *s, int j, char *base, bool unpack, MPI_Comm comm)
{
    int64_t n = side_count(s, j), done = 0;
    char *user = (char *)s->buf + side_displ(s, j) * s->dti.extent;
    char *packed = base + side_displ(s, j) * s->dti.size;
    /* PMPI_Pack takes int counts: go a chunk of elements at a time. */
    int64_t chunk = s->dti.size > 0 ? INT_MAX / s->dti.size : n;
    if (chunk < 1)
        chunk = 1;
    while (done < n) {
        int k = (int)(n - done < chunk ? n - done : chunk), pos = 0, bytes = k * s->dti.size;
        char *u = user + done * s->dti.extent, *pk = packed + done * s->dti.size;
        int rc = unpack ? PMPI_Unpack(pk, bytes, &pos, u, k, s->dt, comm)
                        : PMPI_Pack(u, k, s->dt, pk, bytes, &pos, comm);
        if (rc != MPI_SUCCESS)
            return rc;
        done += k;
    }
    return MPI_SUCCESS;
}

int view_open(const struct side *s, int size, bool fill, struct view *v, MPI_Comm comm)
{
    v->stage = NULL;
    if (s->dti.contiguous) {
        v->base = (char *)s->buf;
        return MPI_SUCCESS;
    }
    int64_t lo = 0, hi = 0;
    for (int j = 0; j < size; j++) {
        int64_t a = side_displ(s, j) * s->dti.size, b = a + side_count(s, j) * s->dti.size;
        if (side_count(s, j) == 0)
            continue;
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
    }
    v->stage = malloc(hi > lo ? (size_t)(hi - lo) : 1);
    if (!v->stage)
        return MPI_ERR_NO_MEM;
    v->base = (char *)v->stage - lo;
    for (int j = 0; fill && j < size; j++) {
        int rc = pack_block(s, j, v->base, false, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int view_close(const struct side *s, int size, struct view *v, bool drain, MPI_Comm comm)
{
    int rc = MPI_SUCCESS;
    for (int j = 0; v->stage && drain && j < size && rc == MPI_SUCCESS; j++)
        rc = pack_block(s, j, v->base, true, comm);
    free(v->stage);
    v->stage = NULL;
    return rc;
}

bool predefined(MPI_Datatype dt)
{
    int ni, na, nd, combiner = -1;
    return PMPI_Type_get_envelope(dt, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
           combiner == MPI_COMBINER_NAMED;
}

bool wants_auto(colibri_coll coll, const char *requested)
{
    return select_names_auto(coll, requested);
}

/* Whether the call may run a node-aware algorithm. */
static bool may_be_node_aware(colibri_coll coll, const char *requested)
{
    const char *name = requested ? requested : config_get()->algorithm[coll];
    if (!name || !*name || strcmp(name, "auto") == 0)
        return coll == COLIBRI_BCAST || coll == COLIBRI_BARRIER || coll == COLIBRI_ALLGATHER ||
               coll == COLIBRI_ALLGATHERV || coll == COLIBRI_GATHER || coll == COLIBRI_SCATTER;
    const struct algorithm *a = catalog_find(coll, name);
    return a && (a->restrictions & R_NODE_AWARE);
}

int movement_node_params(struct comm_state *cs, colibri_coll coll, const char *requested,
                         struct sched_params *sp)
{
    const bool node_aware = may_be_node_aware(coll, requested);
    if (!node_aware && !(wants_auto(coll, requested) && select_wants_layout(coll)))
        return MPI_SUCCESS;
    const int rc = node_layout_get(cs, &sp->layout);
    if (rc == MPI_SUCCESS && node_aware)
        sp->node_chunk = node_call_chunk(config_get()->node_shm_bytes, NODE_SLOTS,
                                         cs->grp->layout_max_ranks, cs->grp->chunk_bytes, 1, 0);
    return rc;
}
