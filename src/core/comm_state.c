/*
 * Per-communicator state, created lazily on the first colibri collective and
 * cached as an attribute, so creating a communicator costs colibri nothing.
 */
#include <stdlib.h>

#include "runtime.h"

static int keyval = MPI_KEYVAL_INVALID;

static int state_delete(MPI_Comm comm, int key, void *attr, void *extra)
{
    (void)comm, (void)key, (void)extra;
    struct comm_state *cs = attr;
    int finalized = 0;
    PMPI_Finalized(&finalized);
    if (!finalized)
        PMPI_Comm_free(&cs->comm);
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
