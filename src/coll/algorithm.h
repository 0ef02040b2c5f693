/*
 * What every algorithm file exports: a schedule builder and its cost model.
 * The catalog (src/select/catalog.c) binds them to names and restrictions.
 */
#ifndef COLIBRI_ALGORITHM_H
#define COLIBRI_ALGORITHM_H

#include "../sched/schedule.h"

/* Machine parameters of the cost model: alpha, the latency of a message
 * (overlaps with other messages in flight); beta, seconds per byte sent;
 * gamma, seconds per byte reduced; o, the processor's overhead per message
 * sent or received (LogP's o: serialises, so p-1 messages posted at once
 * cost (p-1) o however well the network overlaps them). */
struct cost_params {
    double alpha, beta, gamma, o;
    /* Sparse reductions: seconds per byte of a block in a sparse form for
     * the local work around it, both ends of a message together (encode or
     * slice, pack, unpack, merge or join, decode): per present element
     * this is branchy, scattered work, not the dense kernel's stream. */
    double sparse;
    /* Node-aware reductions: seconds per byte copied into or out of the
     * node's shared segment, and of a flag hand-off between two ranks of a
     * node (a cache line moving between cores). */
    double shm_beta, shm_alpha;
    /* The MPI below's message latency and seconds per byte between two
     * ranks of one node: a flat algorithm's alpha and beta when the whole
     * communicator is on one node. */
    double node_alpha, node_beta;
};

/* How many ranks share one node's network link in the worst case: the
 * node's ranks all send off-node at once in the exchanges that are not
 * node-aware, so their bandwidth term is paid this many times over (1 when
 * the layout is unknown, i.e. not needed by the selection). */
int cost_link_share(const struct sched_params *p);
/* How many ranks of a node send off it at once when every rank sends to
 * rank + d (d >= 1): on nodes of consecutive ranks, the last min(d, L) of
 * each node's L; on interleaved nodes, all L; 1 on one node or with no
 * layout.  A flat movement pattern's bandwidth term at distance d is paid
 * that many times over through the node's port. */
double cost_port_share(const struct sched_params *p, long long d);
/* The mean of cost_port_share over the blocks a Bruck dissemination of
 * radix k (patterns/dissemination.h) moves, each block weighted alike. */
double cost_bruck_port_share(const struct sched_params *p, int k);
/* The same over recursive doubling's blocks (distance d moves d blocks,
 * d = 1, 2, 4, ... below p's power of two). */
double cost_doubling_port_share(const struct sched_params *p);
/* The sum over a prefix scan's recursive-doubling rounds (every rank sends
 * the whole vector to rank + 2^k, k < ceil(lg p)) of cost_port_share:
 * ceil(lg p) with no layout or on one node. */
double cost_scan_port_rounds(const struct sched_params *p);
/* Automatic alltoallv with agreed volumes (sched_params): a typical block,
 * the lightest rank's mean over its p - 1 peers, and the bytes by which the
 * busiest rank exceeds the lightest; unknown volumes: the largest block
 * (p->count) and 0, every block taken as the largest. */
/* The radix k of a k-ary exchange (Bruck, dissemination): the call's, else
 * 2, at most p and at least 2. */
int cost_radix(const struct sched_params *p);
double cost_typical_block(const struct sched_params *p);
double cost_excess_volume(const struct sched_params *p);
/* Gatherv and scatterv: the bytes of the blocks other than the root's, from
 * the root's counts (bytes per rank), or where they are not known (any
 * other rank, selection) p-1 blocks of this rank's `count`. */
double cost_rooted_volume(const struct sched_params *p, const int64_t *counts);
/* A linear rooted exchange (gather, scatter and their v forms): one
 * latency, a sender's overhead, and the longer of the root's p-1
 * overheads one after the other and the other blocks' bytes (cost_rooted_
 * volume of `counts`) through its link and the last one's overhead, which
 * overlap: the root handles one message while the next streams in
 * (gather/linear.c); at p = 2 a message's a + 2 o + n b, as a binomial
 * tree's, and nothing on one process. */
double cost_linear_rooted(const struct sched_params *p, const struct cost_params *m,
                          const int64_t *counts);



/* Returns 0, or -1 when out of memory.  Builders assume the catalog's
 * restrictions hold; the selector guarantees it. */
typedef int (*sched_build_fn)(const struct sched_params *p, struct schedule *s);

/* Predicted time of the whole collective (the slowest rank), in seconds. */
typedef double (*cost_model_fn)(const struct sched_params *p, const struct cost_params *m);

/* The cost model's alpha-beta-gamma formula, one line of ASCII (a, b, g, o:
 * alpha, beta, gamma, the per-message overhead; n vector bytes, p processes,
 * p' the largest power of two <= p), written once, in the algorithm's file
 * next to its builder:
 *     COST_FORMULA(allreduce, ring, "2(p-1) a + ...");
 * defines allreduce_ring_cost_formula.  The catalog, `colibri-info -v` and
 * the tables of docs/algorithms.md (`colibri-info --markdown`, checked by
 * tests/docs/algorithms.sh) all print this string; the file's header
 * comment derives it. */
/* Node-aware reductions: the cost of the flat step between nodes, `inner`
 * over sub (N nodes), its bandwidth term paid `share` times (the rails of
 * a node share its network port), and of the on-node phases of a vector
 * of n bytes: every rank copies n in and `out` bytes out, the busiest
 * reduces `reduced` bytes from the segment, with `syncs` flag hand-offs. */
/* A reduction's cost with the processor overhead of its messages: the
 * reductions' formulas count latencies, not messages; each latency term is
 * a round in which a rank sends and receives about one message, 2 o.
 * (The exchanges count o in their own formulas.) */
double cost_with_overhead(cost_model_fn f, const struct sched_params *p,
                          const struct cost_params *m);
double cost_node_inner(cost_model_fn inner, const struct sched_params *sub,
                       const struct cost_params *m, int share);
double cost_node_local(const struct cost_params *m, double n, double out, double reduced,
                       int syncs);
/* The memory traffic of a node-aware algorithm's on-node part, on one
 * rank's critical path, in bytes (docs/node-aware.md, "Memory traffic"):
 *   local    read or written in this core's own memory and cache (its
 *            buffers, its own copy into the segment): shm_beta / 2;
 *   streamed read from the segment that another rank wrote there with
 *            streaming stores (its input): shm_beta;
 *   dirty    read from the segment that another core has just computed
 *            into its cache (a reduced slice): 1.5 shm_beta, the line
 *            fetched from that core;
 * weights fitted to 2 ranks on this 2-core AMD EPYC VM (Open MPI 5 and
 * Intel MPI: split-rail's allreduce 1.6-1.8x faster than node_leader's
 * from 64 KiB, node_leader's reduce 1.3-1.5x faster than split-rail's);
 *   reduced  bytes combined: gamma;
 * plus `syncs` flag hand-offs for each chunk of the vector (n bytes,
 * chunk_bytes a chunk). */
double cost_node_traffic(const struct cost_params *m, double n, double chunk_bytes, int syncs,
                         double local, double streamed, double dirty, double reduced);

#define COST_FORMULA(coll, name, text) const char coll##_##name##_cost_formula[] = text
#define DECLARE_COST_FORMULA(coll, name) extern const char coll##_##name##_cost_formula[]

#define DECLARE_ALGORITHM(coll, name)                                               \
    int coll##_##name##_build(const struct sched_params *p, struct schedule *s);      \
    DECLARE_COST_FORMULA(coll, name);                                                 \
    double coll##_##name##_cost(const struct sched_params *p, const struct cost_params *m)

DECLARE_ALGORITHM(allreduce, recursive_doubling);
DECLARE_ALGORITHM(allreduce, rabenseifner);
DECLARE_ALGORITHM(allreduce, rabenseifner_3_2);
DECLARE_ALGORITHM(allreduce, ring);
DECLARE_ALGORITHM(allreduce, reduce_bcast);
DECLARE_ALGORITHM(allreduce, knomial);
DECLARE_ALGORITHM(allreduce, sparse_recursive_doubling);
DECLARE_ALGORITHM(allreduce, sparse_rabenseifner);
DECLARE_ALGORITHM(allreduce, node_leader);
DECLARE_ALGORITHM(allreduce, node_split_rail);
DECLARE_ALGORITHM(allreduce, node_rails);

DECLARE_ALGORITHM(reduce, binomial);
DECLARE_ALGORITHM(reduce, ordered_binomial);
DECLARE_ALGORITHM(reduce, rabenseifner);
DECLARE_ALGORITHM(reduce, sparse_binomial);
DECLARE_ALGORITHM(reduce, sparse_rabenseifner);
DECLARE_ALGORITHM(reduce, node_leader);
DECLARE_ALGORITHM(reduce, node_split_rail);
DECLARE_ALGORITHM(reduce, node_rails);

DECLARE_ALGORITHM(reduce_scatter, recursive_halving);
DECLARE_ALGORITHM(reduce_scatter, pairwise);
DECLARE_ALGORITHM(reduce_scatter, ring);
DECLARE_ALGORITHM(reduce_scatter, sparse_recursive_halving);
DECLARE_ALGORITHM(reduce_scatter, node_split_rail);
/* reduce_scatter_block runs the reduce_scatter builders and cost models;
 * its formulas for equal blocks, where they read differently, sit next to
 * them. */
DECLARE_COST_FORMULA(reduce_scatter_block, recursive_halving);
DECLARE_COST_FORMULA(reduce_scatter_block, pairwise);
DECLARE_COST_FORMULA(reduce_scatter_block, ring);
DECLARE_COST_FORMULA(reduce_scatter_block, node_split_rail);

DECLARE_ALGORITHM(alltoall, bruck);
DECLARE_ALGORITHM(alltoall, pairwise);
DECLARE_ALGORITHM(alltoall, scattered);

DECLARE_ALGORITHM(alltoallv, linear);
DECLARE_ALGORITHM(alltoallv, pairwise);
DECLARE_ALGORITHM(alltoallv, sloav);
DECLARE_ALGORITHM(alltoallv, sloavx);

DECLARE_ALGORITHM(allgather, recursive_doubling);
DECLARE_ALGORITHM(allgather, bruck);
DECLARE_ALGORITHM(allgather, ring);
DECLARE_ALGORITHM(allgather, neighbor_exchange);
DECLARE_ALGORITHM(allgather, node_rails);

/* allgatherv: rcounts and rdispls are every block's bytes and offset,
 * count all blocks' bytes and volume_max the largest block's. */
DECLARE_ALGORITHM(allgatherv, recursive_doubling);
DECLARE_ALGORITHM(allgatherv, ring);
DECLARE_ALGORITHM(allgatherv, bruck);
DECLARE_ALGORITHM(allgatherv, node_rails);

DECLARE_ALGORITHM(bcast, binomial);
DECLARE_ALGORITHM(bcast, scatter_allgather);
DECLARE_ALGORITHM(bcast, pipeline);
DECLARE_ALGORITHM(bcast, binary_tree);
DECLARE_ALGORITHM(bcast, node_leader);

DECLARE_ALGORITHM(barrier, dissemination);
DECLARE_ALGORITHM(barrier, node_leader);

/* gather and scatter: `count` is a block's bytes (every rank's alike), the
 * root's buffer p blocks in rank order.  gatherv and scatterv: `count` is
 * this rank's block, and at the root only rcounts and rdispls (gatherv),
 * scounts and sdispls (scatterv) are every block's bytes and offset. */
DECLARE_ALGORITHM(gather, binomial);
DECLARE_ALGORITHM(gather, linear);
DECLARE_ALGORITHM(gather, node_leader);
DECLARE_ALGORITHM(gatherv, linear);
DECLARE_ALGORITHM(gatherv, binomial);
DECLARE_ALGORITHM(scatter, binomial);
DECLARE_ALGORITHM(scatter, linear);
DECLARE_ALGORITHM(scatter, node_leader);
DECLARE_ALGORITHM(scatterv, linear);
DECLARE_ALGORITHM(scatterv, binomial);
/* Prefix reductions: count elements per rank, as allreduce. */
DECLARE_ALGORITHM(scan, recursive_doubling);
DECLARE_ALGORITHM(scan, up_down);
DECLARE_ALGORITHM(scan, linear);
DECLARE_ALGORITHM(scan, node_leader);
DECLARE_ALGORITHM(exscan, recursive_doubling);
DECLARE_ALGORITHM(exscan, up_down);
DECLARE_ALGORITHM(exscan, linear);
DECLARE_ALGORITHM(exscan, node_leader);

#endif
