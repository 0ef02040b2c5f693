/*
 * The phases that node-aware reductions (coll/<collective>/node_*.c) are made of, on
 * the node's reduction segment (patterns/node_reduce.h):
 *   publish   a rank copies its chunk into its input area, says READY;
 *   reduce    a rank combines a range of all its node's inputs, in rank
 *             order, after waiting for them to be READY;
 *   embed     the ranks that own the same range on every node run a flat
 *             algorithm between nodes on it (the selector's choice);
 *   gather    a rank waits for the REDUCED ranges and copies them out.
 * A rank says DONE once it has read all it reads of a slot; the next use
 * of the slot (NODE_SLOTS uses later) first waits for every DONE of the
 * last one, so no call or chunk needs a barrier.
 */
#ifndef COLIBRI_NODE_PHASES_H
#define COLIBRI_NODE_PHASES_H

#include "../../patterns/node_reduce.h"
#include "../../patterns/nodes.h"
#include "../algorithm.h"

/* One rank's view of the layout, from sched_params. */
struct node_view {
    int me, node, li, L, N, R; /* R: rails (the fewest ranks on a node) */
    int64_t C;                 /* chunk, in elements */
    const struct node_layout *l;
};
void node_view_init(struct node_view *v, const struct sched_params *p);
/* Declares the reductions' slot layout (the node's L input areas and the
 * output, node_slot_elems) as the schedule's reach into a slot, the same
 * on every rank of the node, for a call of `bytes` (its vector, the same
 * on every rank) of NODE_REGION_MIN_BYTES or more: its uses then move
 * through the slot's regions (sched/schedule.h, NODE_REGION_GAP). */
#define NODE_REGION_MIN_BYTES 16384
void node_slot_span(struct schedule *s, const struct node_view *v, double bytes);
/* The threshold node_slot_span applies (NODE_REGION_MIN_BYTES; the
 * symbolic tests set 0, so that every layout's span is checked). */
extern double node_region_min_bytes;

/* Rank of local index `li` on node n. */
static inline int node_rank(const struct node_view *v, int n, int li)
{
    return v->l->node_ranks[v->l->node_start[n] + li];
}

/* Use u: wait until every rank of the node, this one included, is done
 * with the slot's previous use (before this rank writes anything into
 * it). */
void node_reuse_wait(struct schedule *s, const struct node_view *v, int u);
/* Use u: node_reuse_wait, copy `len` elements from (buf, off) into this
 * rank's input area and say READY. */
void node_publish(struct schedule *s, const struct node_view *v, int u, int buf, int64_t off,
                  int64_t len);
/* node_publish without elements [skip_at, skip_at + skip_len) of the
 * chunk: a range of its input that only this rank reads (node_reduce_own),
 * so never copied into the segment. */
void node_publish_except(struct schedule *s, const struct node_view *v, int u, int buf,
                         int64_t off, int64_t len, int64_t skip_at, int64_t skip_len);
/* Use u: wait for every local rank's READY, then combine elements [at,
 * at + len) of all the node's input areas in rank order into (dst, off)
 * (BUF_SHM: the slot's). */
void node_reduce(struct schedule *s, const struct node_view *v, int u, int64_t at, int64_t len,
                 int dst, int64_t off);
/* node_reduce reading this rank's own operand from its chunk at (own,
 * own_off) instead of its input area (own < 0: from the area).  (own,
 * own_off + at) must not overlap (dst, off): the result is built from the
 * last rank's operand down. */
void node_reduce_own(struct schedule *s, const struct node_view *v, int u, int64_t at,
                     int64_t len, int dst, int64_t off, int own, int64_t own_off);
/* Use u: set this rank's flag f; wait for flag f of local ranks [first,
 * first + n). */
void node_set(struct schedule *s, const struct node_view *v, int u, enum node_flag f);
void node_wait(struct schedule *s, const struct node_view *v, int u, enum node_flag f, int first,
               int n);

/* Appends `inner`'s schedule for `sub` (a flat algorithm between the ranks
 * group[0 .. sub->size-1], this rank being group[sub->rank]) with its
 * buffers mapped: SEND to (sbuf, soff), RECV to (rbuf, roff), its scratch
 * into ours; BUF_SHM sides address use u's slot.  The inner schedule must
 * be static (no resume).  Closes the rounds around it.  Returns 0, or -1
 * when out of memory. */
int node_embed(struct schedule *s, sched_build_fn inner, const struct sched_params *sub,
               const int *group, int u, int sbuf, int64_t soff, int rbuf, int64_t roff);

/* The split-rail schedule of allreduce and reduce (their files say how),
 * chunk after chunk: every rank publishes its chunk from buffer `in`; rank
 * li < R of the node reduces its slice from all the node's inputs into the
 * output area, runs p->inner over the nodes' rank li in place there (sub:
 * its root, if any; count, rank, size and in_place are set here) and says
 * REDUCED; a rank that wants the result (`copy_out`) waits for every
 * slice and copies the chunk out.  A rail reads its own slice of its input
 * where it is (never copied into the segment); a `sole_reader` of the
 * result (the reduce's root) on one node reduces its slice straight into
 * its receive buffer, unless in place, and copies out the others only.
 * Returns 0, or -1 when out of memory. */
int node_rail_schedule(const struct sched_params *p, struct schedule *s, int in,
                       struct sched_params sub, bool copy_out, bool sole_reader);
/* Its cost with `syncs` flag hand-offs on the node (the formulas in the
 * algorithms' files). */
double node_rail_cost(const struct sched_params *p, const struct cost_params *m, int syncs,
                      bool direct);
/* The ranks of local index li on every node (N entries; NULL when out of
 * memory). */
int *node_rail(const struct node_view *v, int li);

/* The flat parameters for a step between nodes over `count` elements (the
 * caller sets rank, size, root, counts and in_place). */
struct sched_params node_sub_params(const struct sched_params *p, int64_t count);

/* The block movers (allgather node_rails, gather and scatter node_leader)
 * keep use u's piece of every rank's block in the slot in node order: the
 * piece of m bytes at `at` of a block of b bytes, rank node_ranks[q]'s at
 * q m.  `out`: the slot's pieces into the receive buffer (rank r's at r b
 * + at), this rank's own from its send buffer at `at`; else the send
 * buffer's pieces (r b + at) into the slot, its own into its receive
 * buffer at `at`.  Its own is left where it is when in place; runs of
 * consecutive ranks go in one copy where the pieces are whole blocks. */
void node_pieces_copy(struct schedule *s, const struct sched_params *p, const struct node_view *v,
                      int u, int64_t b, int64_t at, int64_t m, bool out);
/* The rails allgather(v)'s step between nodes and the wait before its
 * copies out (allgather/node_rails.c, allgatherv/node_rails.c), use u:
 * rail i (local rank i < G) waits for the node's READY, sends the node's
 * area of the slot to rail i of each node it serves and receives theirs
 * into their places, in one round, and says REDUCED; then every rank waits
 * for the G rails' REDUCED (G = 0, one node: for every READY).  Node-order
 * position q's piece lies at at[q] in the slot (p + 1 entries, the last the
 * end), at q m where `at` is NULL; empty areas send nothing at either end. */
void node_rails_swap(struct schedule *s, const struct node_view *v, int u, int G,
                     const int64_t *at, int64_t m);
/* Gather and scatter node_leader's step between nodes, on nodes of equal
 * size: the leaders (the root on its node, local rank 0 elsewhere) run the
 * selector's flat gather (`gather`) or scatter (p->inner) of use u's node
 * areas, L m bytes each, rooted at the root's node, in place in the slot
 * (node n's area at n L m; the root node's own area in place).  Returns
 * 0, or -1 when out of memory. */
int node_rooted_embed(struct schedule *s, const struct sched_params *p, const struct node_view *v,
                      int u, int64_t m, bool gather);
/* Their cost: the leaders' step (p->inner_cost, once per use of the
 * slots, on nodes of equal size; else the root's N-1 messages: a + 2 o +
 * max((N-1) o, (p-L) b beta)) plus the segment's traffic, `local` and
 * `streamed` bytes per block byte, two flag hand-offs per use. */
double node_rooted_cost(const struct sched_params *p, const struct cost_params *m, double local,
                        double streamed);

/* The rails allgather(v)'s cost (allgather/node_rails.c,
 * allgatherv/node_rails.c): `uses` uses of the slots, each a round of
 * ceil((N-1)/G) messages each way per rail, `port` bytes into the busiest
 * node's port, and the segment's traffic for blocks of b bytes on average
 * (its piece in, the others' out, its own block copied). */
double node_rails_gather_cost(const struct sched_params *p, const struct cost_params *m,
                              double uses, double port, double b);

#endif
