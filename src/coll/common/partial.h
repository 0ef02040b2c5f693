/*
 * A rank's running partial result in a reduction: at first only its own
 * input, later an accumulator that received contributions are combined into.
 * The tree, ring and pairwise builders share it so that each one combines in
 * rank order and without a needless copy: the first contribution is received
 * straight into the accumulator, and the input is folded into it from there.
 */
#ifndef COLIBRI_COMMON_PARTIAL_H
#define COLIBRI_COMMON_PARTIAL_H

#include "../algorithm.h"

struct partial {
    int in_buf, acc_buf;
    int64_t in_off, acc_off;
    bool acc_is_input; /* the accumulator is the input's own storage (in place) */
    bool combined;     /* the accumulator holds a combination already */
};

static inline struct partial partial_make(int in_buf, int64_t in_off, int acc_buf, int64_t acc_off,
                                          bool acc_is_input)
{
    struct partial pt = {in_buf, acc_buf, in_off, acc_off, acc_is_input, false};
    return pt;
}

/* Where the partial result is now. */
static inline int partial_buf(const struct partial *pt)
{
    return pt->combined || pt->acc_is_input ? pt->acc_buf : pt->in_buf;
}

static inline int64_t partial_off(const struct partial *pt)
{
    return pt->combined || pt->acc_is_input ? pt->acc_off : pt->in_off;
}

/*
 * Adds to the open round: receive n elements from `peer` and combine them
 * with the partial, the peer's data on the left if peer_is_left.  `scratch`
 * (BUF_TMP or BUF_TMP2, at scratch_off) takes the message when the
 * accumulator cannot.  Does not close the round.
 */
void partial_recv(struct schedule *s, struct partial *pt, int peer, int64_t n, bool peer_is_left,
                  bool commutative, int scratch, int64_t scratch_off);

/* Makes the accumulator hold the result even if nothing was received. */
void partial_finish(struct schedule *s, struct partial *pt, int64_t n);

/*
 * Reduce-scatter: my share of my block is at displs[rank] of the input and
 * the result goes to the start of the output.  In place, those overlap other
 * ranks' blocks unless displs[rank] is 0, so the result then accumulates in
 * BUF_TMP2 and rs_finish moves it out once every input block is spent.
 */
struct partial rs_partial(const struct sched_params *p, const int64_t *displs);
void rs_finish(struct schedule *s, const struct sched_params *p, struct partial *pt);

#endif
