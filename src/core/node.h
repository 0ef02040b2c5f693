/*
 * The runtime side of node-aware algorithms: which ranks of a communicator
 * share a node, and the node's shared-memory segment that schedules address
 * as BUF_SHM.  Both are set up on first use and kept in the communicator's
 * state (runtime.h) until it is freed.
 */
#ifndef COLIBRI_NODE_H
#define COLIBRI_NODE_H

#include "runtime.h"

/* The communicator's node layout, computed on first use (collective over
 * the communicator: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and an
 * allgather of node leaders), then cached. */
int node_layout_get(struct comm_state *cs, const struct node_layout **out);

/* Binds c->shm, c->shm_size and c->shm_grow to the communicator's node
 * segment (needs node_layout_get first).  The first call on a communicator
 * allocates it, collectively over the node, with room for the metadata of
 * patterns/nodes.h (node_meta_bytes); shm_grow reallocates it, collectively
 * over the node, without keeping its contents. */
int node_segment_attach(struct coll_call *c);

/* Frees the node communicator and segment (comm_state.c, on state deletion). */
void node_state_free(struct comm_state *cs);

#endif
