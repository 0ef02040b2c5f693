/* Combining received contributions into a rank's partial result (partial.h). */
#include "partial.h"

static void need(struct schedule *s, int buf, int64_t off, int64_t n)
{
    if (buf == BUF_TMP || buf == BUF_TMP2)
        sched_need_tmp(s, buf, off + n);
}

void partial_recv(struct schedule *s, struct partial *pt, int peer, int64_t n, bool peer_is_left,
                  bool commutative, int scratch, int64_t scratch_off)
{
    bool holds = pt->combined || pt->acc_is_input;
    need(s, pt->acc_buf, pt->acc_off, n);
    if (!holds && (!peer_is_left || commutative)) {
        /* acc = input (op) received: the input is the left operand of
         * MPI_Reduce_local's order, so no copy is needed. */
        sched_recv(s, peer, pt->acc_buf, pt->acc_off, n);
        sched_reduce(s, pt->in_buf, pt->in_off, pt->acc_buf, pt->acc_off, n, 0);
    } else {
        need(s, scratch, scratch_off, n);
        sched_recv(s, peer, scratch, scratch_off, n);
        /* The input is the right operand here and the executor may not
         * combine into it: copy it over first. */
        if (!holds)
            sched_copy(s, pt->in_buf, pt->in_off, pt->acc_buf, pt->acc_off, n);
        sched_reduce(s, scratch, scratch_off, pt->acc_buf, pt->acc_off, n,
                     peer_is_left ? 0 : SOP_DST_IS_LEFT);
    }
    pt->combined = true;
}

void partial_finish(struct schedule *s, struct partial *pt, int64_t n)
{
    if (pt->combined || pt->acc_is_input)
        return;
    need(s, pt->acc_buf, pt->acc_off, n);
    sched_copy(s, pt->in_buf, pt->in_off, pt->acc_buf, pt->acc_off, n);
    sched_round(s);
    pt->combined = true;
}

struct partial rs_partial(const struct sched_params *p, const int64_t *displs)
{
    int64_t mine = displs[p->rank];
    if (!p->in_place)
        return partial_make(BUF_SEND, mine, BUF_RECV, 0, false);
    if (mine == 0)
        return partial_make(BUF_SEND, mine, BUF_RECV, 0, true);
    return partial_make(BUF_SEND, mine, BUF_TMP2, 0, false);
}

void rs_finish(struct schedule *s, const struct sched_params *p, struct partial *pt)
{
    int64_t n = p->counts[p->rank];
    partial_finish(s, pt, n);
    if (pt->acc_buf != BUF_RECV) {
        sched_copy(s, pt->acc_buf, pt->acc_off, BUF_RECV, 0, n);
        sched_round(s);
    }
}
