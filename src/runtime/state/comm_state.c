/*
 * Per-communicator state, created lazily on the first colibri collective and
 * cached as an attribute, so creating a communicator costs colibri nothing
 * (no message, no allocation).  What depends only on the group lives in the
 * shared group state (group_state.c).
 */
#include "../../config/config.h"
#include "node.h"
#include "state.h"
#include "engines.h"
#include "setup.h"

static int keyval = MPI_KEYVAL_INVALID;

static void state_destroy(struct comm_state *cs)
{
    int finalized = 0;
    PMPI_Finalized(&finalized);
    if (!finalized)
        PMPI_Comm_free(&cs->comm);
    node_state_release(cs);
    sched_free(&cs->scratch);
    setup_stats.state_bytes -= cs->scratch_bytes;
    group_state_release(cs->grp);
    state_free(cs, sizeof *cs);
    setup_stats.comm_states_live--;
}

unsigned comm_state_epoch;

/* The program frees the communicator: the state goes now, or with the last
 * operation still using it. */
static int state_delete(MPI_Comm comm, int key, void *attr, void *extra)
{
    (void)comm, (void)key, (void)extra;
    struct comm_state *cs = attr;
    __atomic_add_fetch(&comm_state_epoch, 1, __ATOMIC_RELAXED);
    /* Collectives still running on the communicator (a request freed right
     * after its start, say) end here, as MPI_Comm_free lets pending
     * operations complete: freeing the state later, at whichever point of
     * colibri's engine the last one ends, would free its node windows
     * (a collective over the node) in an order that differs between ranks,
     * and two ranks each freeing another communicator's window wait for
     * each other forever. */
    while (__atomic_load_n(&cs->running, __ATOMIC_ACQUIRE) > 0)
        engines_turn();
    setup_lock();
    const bool later = cs->pins > 0;
    cs->orphaned = later;
    setup_unlock();
    if (!later)
        state_destroy(cs);
    return MPI_SUCCESS;
}

void comm_state_pin(struct comm_state *cs)
{
    setup_lock();
    cs->pins++;
    setup_unlock();
}

void comm_state_unpin(struct comm_state *cs)
{
    setup_lock();
    const bool last = --cs->pins == 0 && cs->orphaned;
    setup_unlock();
    if (last)
        state_destroy(cs);
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

    struct comm_state *cs = state_alloc(sizeof *cs);
    if (!cs)
        return MPI_ERR_NO_MEM;
    cs->comm = cs->own_node.comm = MPI_COMM_NULL;
    sched_init(&cs->scratch);
    PMPI_Comm_rank(comm, &cs->rank);
    PMPI_Comm_size(comm, &cs->size);
    rc = group_state_get(comm, &cs->grp);
    if (rc != MPI_SUCCESS) {
        state_free(cs, sizeof *cs);
        return rc;
    }
    /* Nonblocking, and waited for with colibri's engine turning (engines.h):
     * a rank may start colibri's first call on this communicator while its
     * other colibri operations run, which a rank still waiting for one of
     * them before it gets here needs to advance.  Every rank dups the same
     * way (a blocking and a nonblocking dup need not match).  Once it
     * completes every rank of `comm` is inside this setup, so the setup's
     * later collectives need no one outside it. */
    MPI_Request dup_req = MPI_REQUEST_NULL;
#ifdef SMPI_H
    /* SimGrid 3.32 has no MPI_Comm_idup: the same meeting by a nonblocking
     * barrier on `comm` (one more setup collective there), then the dup */
    rc = PMPI_Ibarrier(comm, &dup_req);
    if (rc == MPI_SUCCESS)
        rc = engines_wait(&dup_req, MPI_STATUS_IGNORE);
    setup_count_collective(0);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_dup(comm, &cs->comm);
#else
    rc = PMPI_Comm_idup(comm, &cs->comm, &dup_req);
    if (rc == MPI_SUCCESS)
        rc = engines_wait(&dup_req, MPI_STATUS_IGNORE);
#endif
    setup_count_collective(0);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_set_attr(comm, keyval, cs);
    if (rc != MPI_SUCCESS) {
        if (cs->comm != MPI_COMM_NULL)
            PMPI_Comm_free(&cs->comm);
        group_state_release(cs->grp);
        state_free(cs, sizeof *cs);
        return rc;
    }
    setup_stats.comm_states++;
    setup_stats.comm_states_live++;
    *out = cs;
    /* Eager setup: the communicator's node layout right away, exchanged, as
     * a library that sets up every communicator in full does. */
    const struct node_layout *layout;
    return config_get()->setup_eager ? node_layout_get(cs, &layout) : MPI_SUCCESS;
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
