/*
 * Schedules: every colibri algorithm is a builder that emits one of these.
 *
 * A schedule is a list of rounds.  A round first posts all of its receives and
 * sends at once and waits for them, then applies its local operations (reduce,
 * copy) in order.  The same schedule is run to completion by the blocking
 * executor, stepped by the nonblocking one, re-run by the persistent one and
 * dry-run (no MPI) by the cost checker.
 *
 * Builders see no MPI handles: only ranks, counts and element sizes.  That is
 * what lets tests build the schedule of every rank of a 1000-rank run in one
 * process and check it against the cost model and a symbolic reduction.
 */
#ifndef COLIBRI_SCHEDULE_H
#define COLIBRI_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Logical buffers.  The executor binds them to memory at run time:
 * SEND is the user's input (recvbuf when the call is in place, per the
 * collective's MPI semantics), RECV the user's output, TMP/TMP2 scratch
 * of the sizes the builder declared, SHM the node's shared-memory segment
 * (node-aware algorithms only; offsets are from the segment's start).
 *
 * Units.  Reductions count offsets and lengths in elements of the call's
 * datatype.  Data-movement collectives (alltoall, alltoallv) count them in
 * bytes of packed data: the executor presents every buffer as contiguous
 * bytes (packing and unpacking non-contiguous user types at the edges), so
 * blocks of different send and receive types, and variable sizes, are just
 * byte ranges to a builder. */
enum sched_buf {
    BUF_SEND = 0,
    BUF_RECV = 1,
    BUF_TMP = 2,
    BUF_TMP2 = 3,
    BUF_SHM = 4,
    BUF_NBUFS = 5
};

/* SOP_FLAG_SET and SOP_FLAG_WAIT order the ranks of a node around the
 * node's reduction segment (patterns/node_reduce.h) without a message:
 * each flag is a 64-bit counter in a cache line of its own that only ever
 * grows.  SET stores (release) the value `epoch + count` into flag dst_off;
 * WAIT waits until flag src_off holds at least `epoch + count` (acquire).
 * `epoch` is the run's first epoch: a run takes schedule.shm_epochs epochs
 * in a row from its communicator's counter, in call order, the same on
 * every rank of the node, so no flag has to be reset between calls. */
enum sched_op_kind { SOP_SEND, SOP_RECV, SOP_REDUCE, SOP_COPY, SOP_FLAG_SET, SOP_FLAG_WAIT };

/* SOP_REDUCE flag: the destination holds the left (lower-rank) operand,
 * i.e. dst = dst (op) src.  Without it dst = src (op) dst, the order of
 * MPI_Reduce_local.  Only matters for non-commutative operations. */
#define SOP_DST_IS_LEFT 0x1u
/* SEND/RECV flag: a zero-byte message kept on purpose (zero-count
 * operations are otherwise dropped); flag ops carry it too. */
#define SOP_SYNC 0x2u
/* SEND/RECV flag: offset and count are in bytes, sent as MPI_BYTE (the
 * call's datatype must then be contiguous).  Sparse reductions send blocks
 * in an encoded form whose size is not a whole number of elements. */
#define SOP_BYTES 0x4u
/* RECV flag (with SOP_BYTES): `count` is the most that may arrive; once the
 * round has completed, the executor replaces it with the number of bytes
 * that did arrive (MPI_Get_count), for the resume function to read.  So the
 * receiver of a block of data-dependent size needs no extra message.  Must
 * not exceed SCHED_CHUNK (never split). */
#define SOP_UPTO 0x8u
/* Any op: its BUF_SHM offsets (flag indices for the flag ops) are relative
 * to one slot of the node's reduction segment, slot (epoch + u) mod
 * NODE_SLOTS for the use u of the run (patterns/node_reduce.h), encoded as
 * SOP_SLOT(u).  A cached schedule so addresses the slot its use gets at
 * each run, which differs from run to run. */
#define NODE_SLOTS 2
/* Regions.  A slot holds as many regions of a run's span (shm_slot_span)
 * as fit, each NODE_REGION_GAP bytes past the last (64-byte aligned), and
 * the use with epoch e takes region (e / NODE_SLOTS) mod their number: the
 * successive uses of a slot move through its memory instead of rewriting
 * the lines the other ranks read a use or two ago, which are still in
 * their caches (a write to such a line first takes it from them).  2 ranks
 * on this 2-core VM, Intel MPI 2021.19, 128 KiB reduce by node_split_rail,
 * 300 back-to-back calls, 12 alternating runs: 22-31 us a call with the
 * two slots rewritten in place, 8.9-18 us with regions (Intel's own
 * 10-21), as the first two calls after another algorithm ran before.
 * The gap keeps regions off power-of-two distances.  Every rank of the
 * node addresses a use alike (the epoch is the node's, the span its
 * layout's: sched_slot_reach), and a slot is reused only when all are
 * done with its last use, whichever region that was.  Schedules that
 * declare no span use each slot's start, as before. */
#define NODE_REGION_GAP (4096 + 64)
#define SOP_SLOT_SHIFT 4
#define SOP_SLOT_MASK 0x30u
/* COPY/REDUCE flag: this op and the next (a REDUCE of the same count into
 * the same destination, itself perhaps flagged so) form a chain that the
 * executor may apply piece by piece, every op of the chain on one piece of
 * the destination before the next piece, so that the piece stays in this
 * core's first-level cache between them: one pass over memory where the
 * ops one after the other make one each.  The result is the same (an MPI
 * operation combines elements one by one); a dry run and the cost model
 * see the ops as they are. */
#define SOP_CHAIN 0x40u

/* Messages longer than this many elements go out as several, split the same
 * way on both sides, so any count works without large-count point-to-point. */
#define SCHED_CHUNK ((int64_t)2147483647)

struct sched_op {
    uint8_t kind;
    uint8_t src_buf;   /* SEND: buffer read; REDUCE/COPY: source */
    uint8_t dst_buf;   /* RECV: buffer written; REDUCE/COPY: destination */
    uint8_t flags;
    int peer;          /* SEND/RECV only */
    int64_t src_off;   /* in elements of the call's datatype */
    int64_t dst_off;
    int64_t count;     /* elements */
};

struct sched_round {
    uint32_t first_op;
    uint32_t n_ops;
};

struct schedule;
struct sparse_op;
struct cost_params;
/* Dynamic schedules.  Some algorithms cannot know their later rounds before
 * data arrives (SLOAV learns the sizes of the blocks it forwards from the
 * previous round's metadata).  Their builder emits the rounds it can and sets
 * `resume`; the executor runs those, then calls resume with the bound
 * buffers (`buf[i]` points at element/byte 0 of logical buffer i), which
 * appends the next rounds (and may raise tmp_count) or clears `resume` when
 * the schedule is complete.  Returns 0, or -1 when out of memory.
 * A dynamic schedule belongs to one call: it is never cached or shared. */
typedef int (*sched_resume_fn)(struct schedule *s, void *const buf[]);

struct schedule {
    struct sched_op *ops;
    uint32_t n_ops, cap_ops;
    struct sched_round *rounds;
    uint32_t n_rounds, cap_rounds;
    uint32_t open_first;     /* first op of the round being built */
    int64_t tmp_count[2];    /* elements of scratch for BUF_TMP, BUF_TMP2 */
    /* Bytes of the node's shared segment (BUF_SHM) the next round needs.
     * Every rank of a node must raise it to the same value at the same point
     * of its schedule: growing the segment is collective over the node and
     * does not keep its contents. */
    int64_t shm_bytes;
    /* Epochs (uses of a reduction-segment slot) one run takes (see
     * SOP_FLAG_SET); 0 for schedules that use no flag. */
    int64_t shm_epochs;
    /* Elements of a slot that its slot-relative data ops stay within, the
     * same on every rank of a node (sched_slot_reach; 0: not declared):
     * the executor then places each use of a slot in one of the regions of
     * that span the slot holds (NODE_REGION_GAP). */
    int64_t shm_slot_span;
    int64_t max_round_msgs;  /* most MPI requests one round posts (after chunking) */
    bool oom;                /* an allocation failed while building */
    sched_resume_fn resume;  /* dynamic schedules only (see above) */
    /* Set by a dynamic schedule that received a block larger than the
     * receiver's count (an erroneous program).  It still runs to the end, so
     * no peer waits for it, and the executor then reports MPI_ERR_TRUNCATE. */
    bool truncated;
    void *state;             /* the resume function's private state */
    void (*free_state)(void *state);
};

/* What a builder knows about the call: pure data, no MPI handles. */
struct sched_params {
    int rank, size, root;
    int64_t count;            /* allreduce/reduce: elements per rank */
    const int64_t *counts;    /* reduce_scatter(_block): output elements of each rank (size entries) */
    size_t elem_size;         /* bytes of one element, for accounting only */
    bool in_place;
    bool commutative;
    int64_t segment;          /* pipelining unit in elements (0: algorithm default) */
    int radix;                /* k of k-ary algorithms (0: algorithm default) */
    /* alltoall: `count` is the block size in bytes (every pair exchanges the
     * same).  alltoallv: this rank's per-peer byte counts and byte offsets
     * (size entries each); with in_place, s* equal r*.  NULL otherwise. */
    const int64_t *scounts, *sdispls, *rcounts, *rdispls;
    /* Node-aware algorithms: which ranks share a node (NULL: unknown). */
    const struct node_layout *layout;
    /* Node-aware reductions: elements of one rank's input slot in the node's
     * reduction segment (patterns/node_reduce.h; the same on every node),
     * 0 when there is no segment. */
    int64_t node_chunk;
    /* Node-aware reductions: the flat algorithm their ranks run between
     * nodes, over N nodes and the slice they own, chosen by the selector
     * (an algorithm's builder, coll/algorithm.h), and its radix. */
    int (*inner)(const struct sched_params *p, struct schedule *s);
    double (*inner_cost)(const struct sched_params *p, const struct cost_params *m);
    int inner_radix;
    /* Sparse reductions (kernels/sparse.h): the operation's kernel and neutral
     * element, NULL when it has none (MAXLOC, user ops, derived types);
     * `density`, the expected fraction of non-neutral elements that every
     * rank agreed on (0: unknown), feeds the sparse algorithms' cost. */
    const struct sparse_op *sparse;
    double density;
    /* From the same agreement, the shape of the present positions (0:
     * unknown, taken as independent positions anywhere, runs of one): the
     * fraction of the vector their union over all ranks may fill
     * (sparse_support), the fraction from the first to the last of them,
     * and their mean run length in elements. */
    double support, span, run_length;
    /* Automatic alltoallv: besides the largest block (`count`), the most and
     * the fewest bytes any rank sends or receives to or from the others
     * (the larger of the two directions), agreed by all ranks: how the
     * blocks spread, for the costs (0: unknown, every block taken as
     * `count`). */
    int64_t volume_max, volume_min;
    /* Node-aware alltoallv: where it leaves, once it has run, the sizes
     * every rank of the call would agree on (the largest block, the most
     * and minus the fewest bytes a rank exchanges: patterns/node_segment.h,
     * node_seg_rank_sizes), which its messages carry for nothing; NULL:
     * not wanted.  Automatic selection predicts the next call's from them. */
    int64_t *sizes_out;
    /* Selection only: the call is nonblocking or persistent, so algorithms
     * marked blocking-only in the catalog do not qualify. */
    bool nonblocking;
};

/* Ranks grouped by shared-memory node, in the communicator's numbering.
 * Pure data: computed once per communicator and cached by the runtime. */
struct node_layout {
    int n_nodes;
    const int *node_of;     /* size entries: node index of each rank */
    const int *local_index; /* size entries: position of each rank on its node */
    const int *node_start;  /* n_nodes + 1 entries: offsets into node_ranks */
    const int *node_ranks;  /* size entries: ranks of node 0, then node 1, ... ascending */
};

void sched_init(struct schedule *s);
void sched_free(struct schedule *s);
void sched_reset(struct schedule *s);
/* Heap bytes a schedule holds (its op and round arrays). */
int64_t sched_bytes(const struct schedule *s);
/* Gives back the arrays' unused capacity (a schedule about to be cached). */
void sched_trim(struct schedule *s);

/* Builder primitives.  Zero-count operations are dropped here, so builders
 * need not special-case empty blocks. */
void sched_send(struct schedule *s, int peer, int buf, int64_t off, int64_t count);
void sched_recv(struct schedule *s, int peer, int buf, int64_t off, int64_t count);
/* Byte-unit messages (SOP_BYTES); the receive takes up to max_bytes and
 * records what arrived in the op's count (SOP_UPTO).  Returns the op's
 * index in s->ops, where the resume function finds that count. */
void sched_send_bytes(struct schedule *s, int peer, int buf, int64_t off, int64_t bytes);
uint32_t sched_recv_upto(struct schedule *s, int peer, int buf, int64_t off, int64_t max_bytes);
void sched_reduce(struct schedule *s, int src, int64_t src_off, int dst, int64_t dst_off,
                  int64_t count, unsigned flags);
void sched_copy(struct schedule *s, int src, int64_t src_off, int dst, int64_t dst_off,
                int64_t count);
/* Zero-byte messages kept on purpose (SOP_SYNC): a message both sides post
 * even when it carries nothing, so neither waits for one that never comes. */
void sched_signal(struct schedule *s, int peer);
void sched_await(struct schedule *s, int peer);
/* Flags of the reduction segment's slot of use u (SOP_FLAG_SET/WAIT):
 * set flag `flag` to epoch + u, or wait until it holds epoch + u + delta
 * (delta < 0: a flag of an earlier use of the slot). */
void sched_flag_set(struct schedule *s, int u, int flag);
void sched_flag_wait(struct schedule *s, int u, int flag, int64_t delta);
/* Declares that the schedule's slot-relative data ops stay within the
 * first `elems` elements of a slot, a figure the same on every rank of
 * the node (its layout's, not this rank's reach): its uses then move
 * through the slot's regions (NODE_REGION_GAP).  tests/unit/symbolic.h
 * checks both for every algorithm that declares it. */
void sched_slot_reach(struct schedule *s, int64_t elems);
/* Copy and reduce whose BUF_SHM side is in the slot of use u. */
void sched_copy_slot(struct schedule *s, int u, int src, int64_t src_off, int dst,
                     int64_t dst_off, int64_t count);
void sched_reduce_slot(struct schedule *s, int u, int src, int64_t src_off, int dst,
                       int64_t dst_off, int64_t count, unsigned flags);
/* sched_copy_slot with op flags (SOP_CHAIN). */
void sched_copy_slot_flags(struct schedule *s, int u, int src, int64_t src_off, int dst,
                           int64_t dst_off, int64_t count, unsigned flags);
void sched_send_slot(struct schedule *s, int u, int peer, int buf, int64_t off, int64_t count);
void sched_recv_slot(struct schedule *s, int u, int peer, int buf, int64_t off, int64_t count);
/* Closes the current round; an empty round is not recorded. */
void sched_round(struct schedule *s);
void sched_need_tmp(struct schedule *s, int buf, int64_t count);

/* Dry run: what one rank's schedule costs. */
struct sched_cost {
    int rounds;            /* rounds with communication */
    int64_t msgs_sent, msgs_recvd;
    int64_t bytes_sent, bytes_recvd;
    int64_t elems_reduced; /* local reduction work, in elements */
    int64_t elems_copied;
    /* Node-aware schedules: of the above, elements copied into or out of
     * the node's segment and reduced from it, and flag operations. */
    int64_t shm_elems_copied, shm_elems_reduced;
    int64_t flag_sets, flag_waits;
};
/* Counts the rounds built so far; a dynamic schedule's later rounds are not
 * known without running it (the unit tests' loopback runner does that). */
void sched_cost(const struct schedule *s, size_t elem_size, struct sched_cost *c);

#endif
