/*
 * Alltoall by Bruck's algorithm with radix k (patterns/radix.h): rotate the
 * blocks so that block i is bound for rank + i, then move every block along
 * the base-k digits of i, one sub-round per (digit d, value v): the blocks
 * whose digit d is v go, packed into one message, to rank + v k^d.  Short
 * blocks pay few startups for forwarding data up to log_k p times; k trades
 * the two (more rounds, fewer bytes as k grows; k = p is a linear exchange
 * of one block per round through the pack buffers).
 *
 * Cost (COST_FORMULA below, every rank alike): R sub-rounds of one packed
 * message each way, forwarding B blocks of c bytes in all, each packed and
 * unpacked; for k = 2 that is ceil(lg p)(a + 2 o) + ~(p/2) lg p c (b + 2 g)
 * + 2 p c g (o: the processor's per-message overhead, sending and
 * receiving).  The g terms are the local copies (rotation in and out, pack
 * and unpack), charged at g per byte like a reduction's memory traffic:
 * with large blocks they are what makes Bruck lose to a direct exchange
 * even at p = 2, where both send one message (measured on 2 ranks: 16 MiB
 * blocks took 195 ms against 29 ms for pairwise before the model saw them).
 *
 * Buffers: TMP holds the p rotated blocks, TMP2 the outgoing and incoming
 * packs.  In place, SEND is RECV; the first step copies all of it to TMP and
 * RECV is written only by the last, so the aliasing is harmless.
 */
#include "../../patterns/radix.h"
#include "../algorithm.h"

COST_FORMULA(alltoall, bruck,
             "R (a + 2 o) + B c b + (2 p + 2 B) c g (local copies), R = sum_{d: k^d < p} min(k-1, "
             "ceil(p/k^d)-1) <= (k-1) ceil(log_k p), B = sum_{i<p} nonzero base-k digits of i ~ "
             "(k-1)/k p log_k p; c block bytes, k radix (COLIBRI_RADIX, else tuned by the model)");

/* Copies the runs of blocks moving in (stride, v) between their places in
 * TMP and a contiguous pack at `pack_off` of TMP2, in position order. */
static void pack(struct schedule *s, int p, int k, int64_t stride, int v, int64_t b,
                 int64_t pack_off, bool unpack)
{
    int64_t at = pack_off;
    for (int c = 0, start; (start = radix_run_start(p, k, stride, v, c)) < p; c++) {
        int64_t len = (p - start < stride ? p - start : stride) * b;
        if (unpack)
            sched_copy(s, BUF_TMP2, at, BUF_TMP, start * b, len);
        else
            sched_copy(s, BUF_TMP, start * b, BUF_TMP2, at, len);
        at += len;
    }
}

int alltoall_bruck_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank, k = cost_radix(p);
    const int64_t b = p->count;
    int64_t most = 0; /* blocks in the largest pack */
    for (int64_t stride = 1; stride < size; stride *= k)
        for (int v = 1; v <= radix_values(size, k, stride); v++)
            if (radix_nmoving(size, k, stride, v) > most)
                most = radix_nmoving(size, k, stride, v);
    sched_need_tmp(s, BUF_TMP, size * b);
    sched_need_tmp(s, BUF_TMP2, 2 * most * b);

    /* TMP block i = SEND block rank + i. */
    sched_copy(s, BUF_SEND, rank * b, BUF_TMP, 0, (size - rank) * b);
    sched_copy(s, BUF_SEND, 0, BUF_TMP, (size - rank) * b, rank * b);
    for (int64_t stride = 1; stride < size; stride *= k)
        for (int v = 1; v <= radix_values(size, k, stride); v++) {
            int64_t n = radix_nmoving(size, k, stride, v) * b;
            /* Packs after the previous sub-round's unpack, in its round. */
            pack(s, size, k, stride, v, b, 0, false);
            sched_round(s);
            sched_send(s, radix_peer(rank, size, v, stride, +1), BUF_TMP2, 0, n);
            sched_recv(s, radix_peer(rank, size, v, stride, -1), BUF_TMP2, most * b, n);
            pack(s, size, k, stride, v, b, most * b, true);
        }
    for (int i = 0; i < size; i++)
        sched_copy(s, BUF_TMP, i * b, BUF_RECV, radix_slot_source(rank, size, i) * b, b);
    sched_round(s);
    return s->oom ? -1 : 0;
}

double alltoall_bruck_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int size = p->size, k = cost_radix(p);
    const double s = (double)p->count;
    double t = 2 * size * s * m->gamma;
    for (int64_t stride = 1; stride < size; stride *= k)
        for (int v = 1; v <= radix_values(size, k, stride); v++)
            t += m->alpha + 2 * m->o +
                 (double)radix_nmoving(size, k, stride, v) * s * (m->beta + 2 * m->gamma);
    return t;
}
