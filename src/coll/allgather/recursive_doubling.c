/*
 * Allgather by recursive doubling: at distance d = 1, 2, 4, ... each rank
 * swaps everything it holds with rank ^ d, doubling it, lg p rounds of one
 * message each way.  For p not a power of two the fold of patterns/fold.h
 * (as the reductions' recursive doubling): the first 2 rem ranks, rem =
 * p - p', pair up, the even one sends its block to the odd one first and
 * gets all p blocks from it last; survivors hold contiguous runs of blocks
 * (patterns/blocks.h, blocks_fold_lo), so every step is one message.
 *
 * Cost (COST_FORMULA below): lg p' rounds; at distance d the busiest
 * survivor receives the blocks of d + min(d, rem) ranks; the fold adds two
 * rounds, of one block and of all p:
 *     lg p' (a + 2 o) + (p'-1 + sum_{d = 2^i < p'} min(d, rem)) c b
 *         [+ 2 (a + 2 o) + (p + 1) c b  when p != p'].
 * For p = 2^k it is (lg p)(a + 2 o) + (p-1) c b: the latency of Bruck's
 * radix 2 with messages as large as they come, no wrap.
 */
#include "../../patterns/blocks.h"
#include "../../patterns/fold.h"
#include "../algorithm.h"

COST_FORMULA(allgather, recursive_doubling,
             "lg p' (a + 2 o) + (p'-1 + sum_{d=2^i<p'} min(d, p-p')) c b [+ 2 (a + 2 o) + (p+1) c b "
             "if p != p'], p' = 2^floor(lg p), c block bytes; across nodes b at distance d x the "
             "ranks of a node sending off it at once (cost_port_share)");

int allgather_recursive_doubling_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank, q = pof2_floor(size), rem = size - q;
    const int64_t b = p->count;
    const int me = fold_rem_newrank(rank, rem);
    if (!p->in_place) {
        sched_copy(s, BUF_SEND, 0, BUF_RECV, rank * b, b);
        sched_round(s);
    }
    if (me < 0) { /* folded: hand my block over, get everything back */
        sched_send(s, rank + 1, BUF_RECV, rank * b, b);
        sched_round(s);
        sched_recv(s, rank + 1, BUF_RECV, 0, size * b);
        sched_round(s);
        return s->oom ? -1 : 0;
    }
    if (rank < 2 * rem) {
        sched_recv(s, rank - 1, BUF_RECV, (rank - 1) * b, b);
        sched_round(s);
    }
    for (int d = 1; d < q; d *= 2) {
        const int peer = me ^ d, mine = me & ~(d - 1), theirs = peer & ~(d - 1);
        const int64_t lo = blocks_fold_lo(mine, rem), hi = blocks_fold_lo(mine + d, rem);
        const int64_t plo = blocks_fold_lo(theirs, rem), phi = blocks_fold_lo(theirs + d, rem);
        const int prank = fold_rem_oldrank(peer, rem);
        sched_send(s, prank, BUF_RECV, lo * b, (hi - lo) * b);
        sched_recv(s, prank, BUF_RECV, plo * b, (phi - plo) * b);
        sched_round(s);
    }
    if (rank < 2 * rem) {
        sched_send(s, rank - 1, BUF_RECV, 0, size * b);
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double allgather_recursive_doubling_cost(const struct sched_params *p,
                                         const struct cost_params *m)
{
    const int q = pof2_floor(p->size), rem = p->size - q;
    const double c = (double)p->count, step = m->alpha + 2 * m->o;
    double t = 0;
    for (int d = 1; d < q; d *= 2)
        t += step + (d + (d < rem ? d : rem)) * c * m->beta * cost_port_share(p, d);
    if (rem)
        t += 2 * step + (p->size + 1) * c * m->beta * cost_port_share(p, 1);
    return t;
}
