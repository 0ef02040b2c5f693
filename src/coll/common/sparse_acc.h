/*
 * The machinery shared by the sparse reductions: a rank's running partial
 * result kept sparse or dense (kernels/sparse.h), and a dynamic schedule that
 * walks a fixed list of steps, one communication round each.
 *
 * Who talks to whom is known at build time (the step list, pure index
 * arithmetic of the dense algorithm); what travels is not: each block goes
 * in whichever form is smallest when it is sent (dense, index/value pairs,
 * bitmap and values, or runs and values: sparse_pack, kernels/sparse.h), the
 * receiver posts for the
 * dense size and learns the form from the size that arrived (SOP_UPTO), and
 * the resume function combines before emitting the next round.  The
 * reduce-scatter/allgather forms cut the partial into ranges of elements
 * (SP_HALVE) and join ranges back (SP_GATHER); a sparse partial is cut by
 * binary search over its indices, and each piece again takes its smallest
 * form.  Every
 * combination keeps the dense algorithm's operand roles (which block is the
 * kernel's `in`, which its `inout`), so results are bitwise those of the
 * dense schedule.
 *
 * Scratch (BUF_TMP, byte offsets): three areas of the dense block size,
 * holding at any time the partial, the block being received and the next
 * partial, then twice that for the merge's gathered operands.
 */
#ifndef COLIBRI_COMMON_SPARSE_ACC_H
#define COLIBRI_COMMON_SPARSE_ACC_H

#include "../algorithm.h"

enum sparse_step_kind {
    SP_EXCH,         /* send the partial to peer, receive peer's, combine */
    SP_SEND,         /* send the partial to peer */
    SP_RECV_COMBINE, /* receive peer's partial and combine */
    SP_RECV_REPLACE, /* receive the final result from peer */
    SP_HALVE,        /* send elements [off2, off2+len2) of the partial to peer, keep
                      * [off, off+len) and combine peer's copy of it into it */
    SP_GATHER,       /* send the partial to peer, receive peer's elements
                      * [off, off+len) (adjacent to the partial's) and join them */
    SP_JOIN,         /* SP_GATHER without the send (a gather towards a root) */
    SP_SPLIT,        /* SP_HALVE without the receive (hand a range to peer) */
    SP_RECV_RANGE,   /* receive elements [off, off+len) from peer: the new partial */
};

struct sparse_step {
    uint8_t kind;
    bool recv_is_in; /* the received block is the kernel's `in` (else the partial is) */
    int peer;
    int64_t off, len, off2, len2; /* SP_HALVE, SP_GATHER: element ranges of the whole vector */
};

/* Starts the dynamic schedule: the partial begins as this rank's input
 * (BUF_SEND); after the last step the result goes to BUF_RECV if `output`.
 * Needs p->sparse and 0 < count*elem_size <= SCHED_CHUNK. */
int sparse_acc_build(const struct sched_params *p, struct schedule *s,
                     const struct sparse_step *steps, int nsteps, bool output);
/* The same over a vector of n elements whose positions are the input's
 * blocks in another order: nseg pairs (input offset, length) in seg, in
 * the partial's order (copied).  The output is the final partial, whatever
 * range it covers. */
int sparse_acc_build_blocks(const struct sched_params *p, struct schedule *s,
                            const struct sparse_step *steps, int nsteps, bool output, int64_t n,
                            const int64_t *seg, int nseg);

/* Steps over the positions of a 2^L-position butterfly (patterns/halving.h)
 * of `count` elements, position q starting at element off[q] (off: 2^L + 1
 * entries), or cut near-equally (off NULL): one whose range is positions [lo, lo+len), and the
 * L halving steps of virtual rank v (peer[i]: the real rank of v ^ 2^i),
 * written to steps[0..L), the received half always the kernel's `in`
 * (the dense halving's roles for commutative operations).  Returns L. */
struct sparse_step sparse_range_step(int kind, int peer, int64_t count, int L,
                                     const int64_t *off, int lo, int len);
int sparse_halving_steps(struct sparse_step *steps, int64_t count, int L, const int64_t *off,
                         int v, const int *peer);

/* Expected bytes of a block combining `merged` ranks' inputs in its
 * smallest form, by the agreed shape (p->density, support, span,
 * run_length; sparse_union): the whole vector, or the densest range of a
 * fraction w of it, the one on the critical path of a halving step.  With
 * the density unknown, the dense bytes. */
double sparse_model_bytes(const struct sched_params *p, double merged);
double sparse_model_range_bytes(const struct sched_params *p, double merged, double w);

/* The local work around such a block when it travels in a sparse form,
 * H(m, w) = B(m, w) S (S: cost_params.sparse); 0 for a dense block, which
 * the dense kernel handles (g, charged by the caller). */
double sparse_model_handling(const struct sched_params *p, const struct cost_params *m,
                             double merged, double w);

/* The L = floor(lg p) halving steps of a reduce-scatter over p->count
 * elements, on their critical path (each step's densest kept half):
 * sum_{s<L} B(2^s f, 2^-(s+1)) (b + g) + H(2^s f, 2^-(s+1)), f = p/2^L. */
double sparse_model_halving(const struct sched_params *p, const struct cost_params *m);

/* The L doubling steps that bring the reduced result back together
 * (allgather, or the gather to a root) on their critical path: step i
 * moves a range of 2^i/2^L of the result, sum_{i<L} B(p, 2^i/2^L) b +
 * H(p, 2^i/2^L).  (1 - 2^-L) B(p) b for scattered positions; up to L B(p) b
 * for a result clustered in one region, which every step must forward
 * whole. */
double sparse_model_doubling(const struct sched_params *p, const struct cost_params *m);

/* Cost of the input scan and the output's write, which the dense
 * algorithms do not pay: n g (a scan reads one stream and the write writes
 * one, where a reduction of n elements reads two and writes one), plus the
 * encoding of the input and the decoding of the result, H(1) + H(p). */
double sparse_model_local(const struct sched_params *p, const struct cost_params *m);

#endif
