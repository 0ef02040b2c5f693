/*
 * Allgatherv by recursive doubling over the fold (allgather/
 * recursive_doubling.c, patterns/blocks.h): at distance d each survivor
 * swaps the blocks of its aligned group of d survivors with rank ^ d.  The
 * blocks lie at their own displacements, so a step sends each block of the
 * group as a message of its own (empty ones not at all): lg p' rounds and
 * p-1 blocks received by every survivor, as many messages; the fold adds
 * a round of one block and one of all the others.
 *
 * Cost (COST_FORMULA below): n the bytes of all blocks, c the largest:
 *     lg p' a + 2 (p-1) o + n b  [+ 2 a + 2 p o + (n + c) b  when p != p'].
 */
#include "../../patterns/blocks.h"
#include "../../patterns/fold.h"
#include "../algorithm.h"

COST_FORMULA(allgatherv, recursive_doubling,
             "lg p' a + 2 (p-1) o + n b [+ 2 a + 2 p o + (n + c) b if p != p'], p' = "
             "2^floor(lg p), n all blocks' bytes, c the largest; across nodes b as allgather "
             "recursive_doubling's, averaged over the blocks (cost_doubling_port_share)");

/* Messages for blocks [lo, hi) (all but `skip`) to or from peer. */
static void blocks_msgs(struct schedule *s, const struct sched_params *p, bool send, int peer,
                        int lo, int hi, int skip)
{
    for (int j = lo; j < hi; j++) {
        if (j == skip)
            continue;
        if (send)
            sched_send(s, peer, BUF_RECV, p->rdispls[j], p->rcounts[j]);
        else
            sched_recv(s, peer, BUF_RECV, p->rdispls[j], p->rcounts[j]);
    }
}

int allgatherv_recursive_doubling_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank, q = pof2_floor(size), rem = size - q;
    const int me = fold_rem_newrank(rank, rem);
    if (!p->in_place) {
        sched_copy(s, BUF_SEND, 0, BUF_RECV, p->rdispls[rank], p->rcounts[rank]);
        sched_round(s);
    }
    if (me < 0) { /* folded: hand my block over, get the others back */
        blocks_msgs(s, p, true, rank + 1, rank, rank + 1, -1);
        sched_round(s);
        blocks_msgs(s, p, false, rank + 1, 0, size, rank);
        sched_round(s);
        return s->oom ? -1 : 0;
    }
    if (rank < 2 * rem) {
        blocks_msgs(s, p, false, rank - 1, rank - 1, rank, -1);
        sched_round(s);
    }
    for (int d = 1; d < q; d *= 2) {
        const int peer = me ^ d, mine = me & ~(d - 1), theirs = peer & ~(d - 1);
        const int prank = fold_rem_oldrank(peer, rem);
        blocks_msgs(s, p, true, prank, blocks_fold_lo(mine, rem), blocks_fold_lo(mine + d, rem), -1);
        blocks_msgs(s, p, false, prank, blocks_fold_lo(theirs, rem),
                    blocks_fold_lo(theirs + d, rem), -1);
        sched_round(s);
    }
    if (rank < 2 * rem) {
        blocks_msgs(s, p, true, rank - 1, 0, size, rank - 1);
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double allgatherv_recursive_doubling_cost(const struct sched_params *p,
                                          const struct cost_params *m)
{
    const int q = pof2_floor(p->size), rem = p->size - q;
    const double n = (double)p->count, c = (double)p->volume_max;
    double t = floor_log2(q) * m->alpha + 2.0 * (p->size - 1) * m->o +
               n * m->beta * cost_doubling_port_share(p);
    if (rem)
        t += 2 * m->alpha + 2.0 * p->size * m->o + (n + c) * m->beta * cost_port_share(p, 1);
    return t;
}
