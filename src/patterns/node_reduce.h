/*
 * The layout of a node's reduction segment, which the node-aware
 * reductions (coll/<collective>/node_*.c) address through BUF_SHM, and how they cut a
 * vector into chunks and a chunk into slices.
 *
 * The segment is NODE_SLOTS slots (schedule.h) used in turn, one per chunk
 * of a call (a "use"), so that a rank may fill the next slot while the
 * others still read the last one.  A slot of a node of L ranks holds
 *   flags: for each local rank l, three counters (node_flag):
 *          READY   its input chunk is in its input area,
 *          REDUCED the slice it reduces is in the output area,
 *          DONE    it has read all it reads of this slot;
 *   data:  L input areas of C elements (local rank l's at l C), then one
 *          output area of C elements (at L C).
 * C, the chunk, is the same on every node (node_chunk_elems of the largest
 * node), so chunk k covers the same elements everywhere and the ranks of
 * different nodes can exchange slices of it.
 *
 * Pure functions, no MPI: tests/unit/test_patterns_node_reduce.c checks
 * them.
 */
#ifndef COLIBRI_PATTERN_NODE_REDUCE_H
#define COLIBRI_PATTERN_NODE_REDUCE_H

#include <stdint.h>
#include <stdbool.h>

enum node_flag { NODE_READY, NODE_REDUCED, NODE_DONE, NODE_FLAG_KINDS };

/* Index of local rank l's flag f within a slot, and flags per slot. */
static inline int node_flag(int l, enum node_flag f) { return l * NODE_FLAG_KINDS + (int)f; }
static inline int node_slot_flags(int L) { return L * NODE_FLAG_KINDS; }

/* Element offsets within a slot: local rank l's input area, the output. */
static inline int64_t node_input(int l, int64_t C) { return (int64_t)l * C; }
static inline int64_t node_output(int L, int64_t C) { return (int64_t)L * C; }
static inline int64_t node_slot_elems(int L, int64_t C) { return (int64_t)(L + 1) * C; }

/* A slot's bytes in a data area of `bytes` cut into `slots` slots: whole
 * cache lines, and the same for every call whatever its datatype.  Calls of
 * different types share the segment's slots in turn; a slot sized in
 * elements would start at a different byte for each extent, and a call
 * would write into the tail of the slot that another still reads. */
static inline int64_t node_slot_bytes(int64_t bytes, int slots)
{
    return bytes > 0 && slots > 0 ? bytes / slots / 64 * 64 : 0;
}

/* The chunk, in bytes, for a core whose second-level cache holds `l2`
 * bytes (0: not known): a quarter of it, so that a chunk's input, its copy
 * in the segment, the peer's chunk being combined and the output stay in
 * it together, between 16 KiB and 1 MiB; 64 KiB where the cache is not
 * known.  (2 ranks on this AMD EPYC, 512 KiB L2, plain stores into the
 * segment (executor.c, stream_copy): node_split_rail allreduce and reduce
 * took 0.73-0.99x the time of 64 KiB chunks with 128 KiB ones, 256 KiB to
 * 4 MiB, under Open MPI 5 and Intel MPI; an eighth was chosen when the
 * copies streamed to memory.) */
static inline int64_t node_chunk_for_cache(int64_t l2)
{
    if (l2 <= 0)
        return 64 * 1024;
    const int64_t c = l2 / 4;
    return c < 16 * 1024 ? 16 * 1024 : c > 1024 * 1024 ? 1024 * 1024 : c;
}

/* The chunk C, in elements of `extent` bytes, whose Lmax + 1 areas fit a
 * slot of `slot_bytes`, with `over` bytes more after the last element (a
 * type's true extent past its extent); 0: not even one element. */
static inline int64_t node_chunk_elems(int64_t slot_bytes, int Lmax, int64_t extent,
                                       int64_t over)
{
    if (extent <= 0 || Lmax <= 0 || slot_bytes <= over)
        return 0;
    return (slot_bytes - (over > 0 ? over : 0)) / (Lmax + 1) / extent;
}

/* The chunk a call uses: what its slot holds, at most `chunk_bytes` (the
 * cache's, node_chunk_for_cache, agreed by all ranks) but one element at
 * least where the slot holds one. */
static inline int64_t node_chunk_use(int64_t slot_elems, int64_t chunk_bytes, int64_t extent)
{
    const int64_t c = chunk_bytes > 0 && extent > 0 ? chunk_bytes / extent : slot_elems;
    return c < 1 ? (slot_elems < 1 ? slot_elems : 1) : c < slot_elems ? c : slot_elems;
}

/* A call's chunk, in elements, on a segment of `data_bytes` cut into
 * `slots` slots for nodes of at most Lmax ranks (the three above). */
static inline int64_t node_call_chunk(int64_t data_bytes, int slots, int Lmax,
                                      int64_t chunk_bytes, int64_t extent, int64_t over)
{
    return node_chunk_use(node_chunk_elems(node_slot_bytes(data_bytes, slots), Lmax, extent, over),
                          chunk_bytes, extent);
}

/* Chunks of a vector of n elements (at least 1, so that an empty vector
 * still synchronises like any other), and chunk k's first element and
 * length. */
static inline int64_t node_chunks(int64_t n, int64_t C) { return n <= C ? 1 : (n + C - 1) / C; }
static inline int64_t node_chunk_at(int64_t k, int64_t C) { return k * C; }
static inline int64_t node_chunk_len(int64_t n, int64_t k, int64_t C)
{
    int64_t rest = n - k * C;
    return rest < C ? (rest > 0 ? rest : 0) : C;
}

/* A node-aware allgather's piece of every rank's block per use of a
 * slot, in bytes: the slot holds the p pieces of the use (one per rank of
 * the communicator, node after node), within the (Lmax + 1) C bytes that
 * a slot holds for the reductions' chunk C (0: not even one byte). */
static inline int64_t node_gather_piece(int64_t C, int Lmax, int p)
{
    return p > 0 ? (int64_t)(Lmax + 1) * C / p : 0;
}

/* A node-aware allgatherv's piece of a block of n bytes in use u, for
 * pieces of `piece` bytes (node_gather_piece): bytes [u piece, u piece +
 * len) of the block, len between 0 (a block shorter than u pieces) and
 * `piece`.  The uses of a call: enough for its largest block, one at least
 * (so that an empty call still takes part in the slots' protocol). */
static inline int64_t node_v_piece_len(int64_t n, int64_t u, int64_t piece)
{
    const int64_t rest = n - u * piece;
    return rest <= 0 ? 0 : rest < piece ? rest : piece;
}
static inline int64_t node_v_uses(int64_t largest, int64_t piece)
{
    return largest <= piece ? 1 : (largest + piece - 1) / piece;
}

/* Slice i of R of m elements: [m i / R, m (i+1) / R), lengths differing by
 * at most one. */
static inline int64_t node_slice_at(int64_t m, int i, int R) { return m * i / R; }
static inline int64_t node_slice_len(int64_t m, int i, int R)
{
    return m * (i + 1) / R - m * i / R;
}

/* Whether the node_rails reductions combine a chunk of m elements of
 * `elem` bytes in slices, every one of the node's L ranks its own (slice
 * li, node_slice_at) into the slot's output area, then each copying the
 * whole out, instead of each combining the whole: where every slice is at
 * least a cache line (64 bytes), so that no two ranks write one line. */
static inline bool node_rails_split(int64_t m, int L, int64_t elem)
{
    return L > 1 && m / L * elem >= 64;
}

/* The fewest ranks on a node (node_start: n_nodes + 1 offsets,
 * patterns/nodes.h; the most is node_max_ranks there): the number of rails
 * of a split-rail reduction, local ranks 0 .. R-1 of every node owning one
 * slice each and exchanging it with their peers of the same local index. */
static inline int node_fewest(int n_nodes, const int *node_start)
{
    int m = n_nodes > 0 ? node_start[1] - node_start[0] : 0;
    for (int n = 1; n < n_nodes; n++)
        if (node_start[n + 1] - node_start[n] < m)
            m = node_start[n + 1] - node_start[n];
    return m;
}

/* Whether every node holds consecutive ranks: then nodes in their order
 * (by lowest rank) and ranks in node order are the communicator's rank
 * order, which a non-commutative reduction across nodes needs. */
static inline int node_blocked(int n_nodes, const int *node_start, const int *node_ranks)
{
    for (int n = 0; n < n_nodes; n++)
        for (int q = node_start[n] + 1; q < node_start[n + 1]; q++)
            if (node_ranks[q] != node_ranks[q - 1] + 1)
                return 0;
    return 1;
}

#endif
