/*
 * Node layout and shared segment of a communicator (see node.h).
 *
 * The segment is one MPI_Win_allocate_shared window on the node's
 * communicator, all of it allocated by the node's first rank (size 0
 * elsewhere) and addressed by every rank through MPI_Win_shared_query of
 * that rank: so it is one contiguous range of bytes, at possibly different
 * addresses in each process, which is what BUF_SHM offsets assume.
 */
#include <stdlib.h>

#include "../patterns/nodes.h"
#include "node.h"

int node_layout_get(struct comm_state *cs, const struct node_layout **out)
{
    if (cs->layout_mem) {
        *out = &cs->layout;
        return MPI_SUCCESS;
    }
    int size = cs->size;
    /* node_of, local_index, node_start (at most size + 1), node_ranks, and
     * the allgathered leaders (scratch, last). */
    int *mem = malloc((5 * (size_t)size + 1) * sizeof *mem);
    if (!mem)
        return MPI_ERR_NO_MEM;
    MPI_Comm node = MPI_COMM_NULL;
    /* Keyed by rank, so the node communicator's rank 0 is the node's lowest
     * rank: its leader. */
    int rc = PMPI_Comm_split_type(cs->comm, MPI_COMM_TYPE_SHARED, cs->rank, MPI_INFO_NULL, &node);
    int leader = cs->rank, *leader_of = mem + 4 * size + 1;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Bcast(&leader, 1, MPI_INT, 0, node);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allgather(&leader, 1, MPI_INT, leader_of, 1, MPI_INT, cs->comm);
    int n_nodes = -1;
    if (rc == MPI_SUCCESS) {
        n_nodes = node_layout_fill(size, leader_of, mem, mem + size, mem + 2 * size,
                                   mem + 3 * size + 1);
        if (n_nodes < 0)
            rc = MPI_ERR_INTERN;
    }
    if (rc != MPI_SUCCESS) {
        if (node != MPI_COMM_NULL)
            PMPI_Comm_free(&node);
        free(mem);
        return rc;
    }
    cs->layout = (struct node_layout){n_nodes, mem, mem + size, mem + 2 * size, mem + 3 * size + 1};
    cs->layout_mem = mem;
    cs->node_comm = node;
    *out = &cs->layout;
    return MPI_SUCCESS;
}

/* (Re)allocates the node's segment with at least `bytes`, collectively over
 * the node; contents are not kept. */
static int segment_alloc(struct comm_state *cs, int64_t bytes)
{
    int node_rank, rc;
    PMPI_Comm_rank(cs->node_comm, &node_rank);
    int64_t old = cs->shm_size;
    if (old > 0) {
        /* Every rank of the node is here, at the same point of its schedule,
         * only once none of them touches the old segment any more. */
        rc = PMPI_Barrier(cs->node_comm);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Win_free(&cs->shm_win);
        cs->shm = NULL;
        cs->shm_size = 0;
        if (rc != MPI_SUCCESS)
            return rc;
        /* Growing by half at least keeps a slowly growing sequence of calls
         * from reallocating every time (the same on every rank). */
        if (bytes < old + old / 2)
            bytes = old + old / 2;
    }
    void *base;
    rc = PMPI_Win_allocate_shared(node_rank == 0 ? (MPI_Aint)bytes : 0, 1, MPI_INFO_NULL,
                                  cs->node_comm, &base, &cs->shm_win);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Aint got;
    int disp;
    rc = PMPI_Win_shared_query(cs->shm_win, 0, &got, &disp, &cs->shm);
    if (rc != MPI_SUCCESS || got < bytes) {
        PMPI_Win_free(&cs->shm_win);
        cs->shm = NULL;
        return rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
    }
    cs->shm_size = bytes;
    return MPI_SUCCESS;
}

static int segment_grow(struct coll_call *c, int64_t bytes)
{
    int rc = segment_alloc(c->cs, bytes);
    c->shm = c->cs->shm;
    c->shm_size = c->cs->shm_size;
    return rc;
}

int node_segment_attach(struct coll_call *c)
{
    struct comm_state *cs = c->cs;
    if (!cs->layout_mem)
        return MPI_ERR_INTERN;
    if (cs->shm_size == 0) {
        const struct node_layout *l = &cs->layout;
        int n = l->node_of[cs->rank];
        int rc = segment_alloc(cs, node_meta_bytes(l->node_start[n + 1] - l->node_start[n], cs->size));
        if (rc != MPI_SUCCESS)
            return rc;
    }
    c->shm = cs->shm;
    c->shm_size = cs->shm_size;
    c->shm_grow = segment_grow;
    return MPI_SUCCESS;
}

void node_state_free(struct comm_state *cs)
{
    if (cs->shm_size > 0)
        PMPI_Win_free(&cs->shm_win);
    if (cs->layout_mem)
        PMPI_Comm_free(&cs->node_comm);
    cs->shm = NULL;
    cs->shm_size = 0;
}
