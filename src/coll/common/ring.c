/*
 * Ring reduce-scatter fragment (ring.h).
 *
 * Segments go round one after the other, each as a complete ring over the
 * same-numbered segment of every block.  A round here posts its messages,
 * waits for them and only then reduces, so segmenting cannot hide the
 * reduction behind the transfer of the next segment; what it buys is that
 * the scratch shrinks to two segments and each segment is reduced while it
 * is still in cache, for one more latency per extra segment.
 */
#include "ring.h"

#include "../../patterns/ring.h"

int64_t ring_segment(const struct sched_params *p)
{
    if (p->segment > 0)
        return p->segment;
    int64_t seg = (int64_t)(65536 / (p->elem_size ? p->elem_size : 1));
    return seg > 0 ? seg : 1;
}

void ring_reduce_scatter(struct schedule *s, int rank, int p, const int64_t *displs, int64_t seg,
                         int in_buf, struct partial *mine)
{
    const int next = ring_shift(rank, p, 1), prev = ring_shift(rank, p, -1);
    int64_t largest = 0;
    for (int j = 0; j < p; j++)
        if (displs[j + 1] - displs[j] > largest)
            largest = displs[j + 1] - displs[j];
    /* Ping-pong slots: a step receives into one while sending the other,
     * which holds what the step before combined. */
    const int64_t slot = largest < seg ? largest : seg;

    for (int64_t c = 0; c < ring_nsegments(largest, seg); c++) {
        for (int step = 0; step < p - 1; step++) {
            int xb = ring_rs_send_block(rank, p, step), yb = ring_rs_recv_block(rank, p, step);
            int64_t xn = ring_segment_len(displs[xb + 1] - displs[xb], seg, c);
            int64_t yn = ring_segment_len(displs[yb + 1] - displs[yb], seg, c);
            int64_t yoff = displs[yb] + c * seg, cur = (step % 2) * slot;
            if (step == 0)
                sched_send(s, next, in_buf, displs[xb] + c * seg, xn);
            else
                sched_send(s, next, BUF_TMP, ((step - 1) % 2) * slot, xn);
            struct partial pt = partial_make(in_buf, yoff, BUF_TMP, cur, false);
            if (step == p - 2) {
                pt = *mine;
                pt.in_off += c * seg;
                pt.acc_off += c * seg;
            }
            partial_recv(s, &pt, prev, yn, false, true, BUF_TMP, cur);
            sched_round(s);
        }
    }
    if (p > 1)
        mine->combined = true;
    partial_finish(s, mine, displs[rank + 1] - displs[rank]);
}
