/*
 * Allgather by Bruck's dissemination with radix k (Bruck et al., 1997;
 * patterns/dissemination.h): before the round of distance D = k^t a rank
 * holds the blocks of ranks rank - [0, D); in it, for each j = 1..k-1 with
 * j D < p, it sends the run of its min(D, p - j D) newest-held blocks to
 * rank + j D and receives the same number from rank - j D, so after it
 * holds rank - [0, k D).  ceil(log_k p) rounds, k-1 messages each, every
 * block received once: the short-block choice at any p (no folding, unlike
 * recursive doubling).
 *
 * The blocks are written straight into the output, in rank order, not in
 * the rotated order of the classic algorithm: a run of blocks rank - [a, a
 * + n) is a run modulo p, one message, or two where it passes block p-1
 * (patterns/blocks.h cuts it; both ends cut at the same block).  So there
 * is no final rotation and no scratch.
 *
 * Cost (COST_FORMULA below, every rank alike): R messages each way in
 * ceil(log_k p) rounds (R = sum over rounds of the active partners, as for
 * alltoall's Bruck; a run that wraps adds one message at both ends, not
 * modelled), p-1 blocks received.
 */
#include "../../patterns/blocks.h"
#include "../../patterns/dissemination.h"
#include "../../patterns/radix.h"
#include "../algorithm.h"

COST_FORMULA(allgather, bruck,
             "ceil(log_k p) a + 2 R o + (p-1) c b, R = sum_{d: k^d < p} min(k-1, ceil(p/k^d)-1) "
             "<= (k-1) ceil(log_k p); c block bytes, k radix (COLIBRI_RADIX, else tuned by the "
             "model); across nodes b x the ranks of a node sending off it at once, averaged over "
             "the blocks (cost_bruck_port_share)");

/* The run of n blocks whose newest (highest slot) is held by... : blocks of
 * ranks top - n + 1 .. top (mod p), as one or two messages. */
static void run_msgs(struct schedule *s, bool send, int peer, int top, int n, int p, int64_t b)
{
    int start[2], len[2];
    int first = ((top - n + 1) % p + p) % p;
    int pieces = blocks_wrap(first, n, p, start, len);
    for (int i = 0; i < pieces; i++) {
        if (send)
            sched_send(s, peer, BUF_RECV, start[i] * b, len[i] * b);
        else
            sched_recv(s, peer, BUF_RECV, start[i] * b, len[i] * b);
    }
}

int allgather_bruck_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank, k = cost_radix(p);
    const int64_t b = p->count;
    if (!p->in_place) {
        sched_copy(s, BUF_SEND, 0, BUF_RECV, rank * b, b);
        sched_round(s);
    }
    for (int t = 0; t < dis_rounds(size, k); t++) {
        const long long D = dis_distance(k, t);
        for (int j = 1; j < k && dis_active(size, j, D); j++) {
            const int n = (int)dis_count(size, j, D);
            /* slots [0, n) of mine: ranks rank - n + 1 .. rank */
            run_msgs(s, true, dis_to(rank, j, D, size), rank, n, size, b);
            /* into slots [j D, j D + n): ranks from - n + 1 .. from */
            const int from = dis_from(rank, j, D, size);
            run_msgs(s, false, from, from, n, size, b);
        }
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double allgather_bruck_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int k = cost_radix(p);
    return dis_rounds(p->size, k) * m->alpha + 2.0 * radix_subrounds(p->size, k) * m->o +
           (double)(p->size - 1) * (double)p->count * m->beta * cost_bruck_port_share(p, k);
}
