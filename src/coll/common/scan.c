/* The prefix patterns as schedule fragments (scan.h). */
#include "scan.h"

#include "../../patterns/ring.h"
#include "../../patterns/scan.h"

/* One round of a prefix pattern: send the partial in BUF_RECV to `to`,
 * receive the combination of the positions below into BUF_TMP from `from`
 * and combine it on the left (peers -1: none). */
static void prefix_round(struct schedule *s, int to, int from, int64_t n)
{
    if (to >= 0)
        sched_send(s, to, BUF_RECV, 0, n);
    if (from >= 0) {
        sched_need_tmp(s, BUF_TMP, n);
        sched_recv(s, from, BUF_TMP, 0, n);
        sched_reduce(s, BUF_TMP, 0, BUF_RECV, 0, n, 0); /* RECV = TMP (op) RECV */
    }
    sched_round(s);
}

static int shifted(int peer, int shift) { return peer < 0 ? -1 : peer + shift; }

void scan_rd_rounds(struct schedule *s, int v, int P, int shift, int64_t n)
{
    for (int k = 0; k < scan_levels(P); k++)
        prefix_round(s, shifted(scan_rd_to(v, P, k), shift), shifted(scan_rd_from(v, k), shift),
                     n);
}

void scan_sweep_rounds(struct schedule *s, int v, int P, int shift, int64_t n)
{
    const int L = scan_levels(P);
    for (int k = 0; k < L; k++)
        prefix_round(s, shifted(scan_up_to(v, P, k), shift),
                     shifted(scan_up_from(v, P, k), shift), n);
    for (int j = L - 2; j >= 0; j--)
        prefix_round(s, shifted(scan_down_to(v, P, j), shift),
                     shifted(scan_down_from(v, P, j), shift), n);
}

void exscan_shift_round(struct schedule *s, int rank, int size, int64_t n, bool in_place)
{
    if (rank + 1 < size)
        sched_send(s, rank + 1, BUF_SEND, 0, n);
    if (rank > 0) {
        /* in place, this rank's input is in BUF_RECV until the send is done */
        const int into = in_place && rank + 1 < size ? BUF_TMP : BUF_RECV;
        if (into == BUF_TMP)
            sched_need_tmp(s, BUF_TMP, n);
        sched_recv(s, rank - 1, into, 0, n);
        sched_copy(s, into, 0, BUF_RECV, 0, n);
    }
    sched_round(s);
}

/* A copy that the reduction after it into the same destination chains
 * with (SOP_CHAIN: one pass over the destination). */
static void copy_chained(struct schedule *s, int src, int64_t off, int dst, int64_t n)
{
    const uint32_t before = s->n_ops;
    sched_copy(s, src, off, dst, off, n);
    if (s->n_ops > before)
        s->ops[s->n_ops - 1].flags |= SOP_CHAIN;
}

void scan_chain_build(const struct sched_params *p, struct schedule *s, int64_t seg,
                      bool exclusive)
{
    const int rank = p->rank, size = p->size;
    const int64_t n = p->count, m = ring_nsegments(n, seg);
    const bool prev = rank > 0, next = rank + 1 < size;
    /* exscan, in place, passing on: the prefix arrives in BUF_TMP, as the
     * input it is combined with is still in BUF_RECV */
    const int into = exclusive && next && p->in_place ? BUF_TMP : exclusive ? BUF_RECV : BUF_TMP;
    const int64_t piece = n < seg ? n : seg;
    if (prev && into == BUF_TMP)
        sched_need_tmp(s, BUF_TMP, piece);
    if (exclusive && next && prev)
        sched_need_tmp(s, BUF_TMP2, piece);
    /* rank 0 passes its input on as it is, segment c in round c; the others
     * receive segment c in round c and pass it on in round c + 1 */
    for (int64_t c = 0; c <= m; c++) {
        const int64_t off = c * seg, len = ring_segment_len(n, seg, c);
        const int64_t poff = (c - 1) * seg, plen = c ? ring_segment_len(n, seg, c - 1) : 0;
        if (!prev) {
            if (next)
                sched_send(s, rank + 1, BUF_SEND, off, len);
            if (!exclusive && !p->in_place)
                sched_copy(s, BUF_SEND, off, BUF_RECV, off, len);
            sched_round(s);
            continue;
        }
        if (next && c > 0)
            sched_send(s, rank + 1, exclusive ? BUF_TMP2 : BUF_RECV, exclusive ? 0 : poff, plen);
        const int64_t at = into == BUF_RECV ? off : 0;
        sched_recv(s, rank - 1, into, at, len);
        if (!exclusive) {
            if (!p->in_place)
                copy_chained(s, BUF_SEND, off, BUF_RECV, len);
            sched_reduce(s, BUF_TMP, 0, BUF_RECV, off, len, 0);
        } else {
            if (next) { /* pass on prefix (op) input */
                sched_copy(s, BUF_SEND, off, BUF_TMP2, 0, len);
                sched_reduce(s, into, at, BUF_TMP2, 0, len, 0);
            }
            sched_copy(s, into, at, BUF_RECV, off, len);
        }
        sched_round(s);
    }
}
