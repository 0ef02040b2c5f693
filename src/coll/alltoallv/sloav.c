/*
 * SLOAV: logarithmic alltoallv for blocks of any size (Xu et al., CCGrid
 * 2013), with a tunable radix as in Fan et al. (HPDC'22) and TuNA (HPDC'25).
 *
 * Radix-k Bruck exchange (patterns/radix.h): slot i holds the block for rank
 * + i; digit by digit, the slots whose digit d is v go to rank + v k^d, so
 * after D = ceil(log_k p) digits every block has moved i ranks, to its
 * destination.  The k-1 sub-rounds of a digit move disjoint slots to
 * distinct peers, so they run in one round.  Blocks are forwarded through
 * ranks that do not know their sizes (only each rank's own counts are
 * known), so each sub-round is preceded by METADATA: one int64 byte count
 * per slot it moves.  Receivers size their receives from it: no global
 * maximum, no padding.
 *
 * The exchange itself (rounds, metadata pipeline, scratch arenas, what a
 * mismatched count does) is common/sloav_exchange.h, over all ranks: slot
 * j of a rank is its block in SEND for rank + j, delivered to RECV at
 * rdispls[source].  SLOAVx (sloavx.c) runs the same exchange over node
 * leaders.
 *
 * Cost (COST_FORMULA below): the k-1 sub-rounds of a digit share a round,
 * and the metadata of digit d > 0 travels in the round of data d-1, so
 * only R1's is exposed: D + 1 latencies; each sub-round sends and receives
 * a metadata and a data message, o each; every forwarded block carries its
 * 8-byte count.  k = 2: S = lg p, M = p lg(p)/2; k = p: S = M = p-1 (direct
 * exchange plus one metadata round).  L is the most ranks on one
 * node when the layout is known: they all forward at once through the
 * node's link (sloavx sends each byte off the node once instead).
 */
#include <stdlib.h>

#include "../../patterns/radix.h"
#include "../algorithm.h"
#include "../common/sloav_exchange.h"

COST_FORMULA(alltoallv, sloav,
             "(D + 1) a + 4 S o + M (n + 8) L b, D = ceil(log_k p), S = sum_d min(k-1, "
             "floor((p-1)/k^d)) sub-rounds, M = sum_d #{0<i<p: digit_d(i) != 0} forwarded blocks, "
             "d < ceil(log_k p); p = k^D: S = D(k-1), M = D p (k-1)/k; n largest block; L most "
             "ranks per node; k radix (COLIBRI_RADIX, else tuned)");

static void sloav_free(void *state)
{
    if (state)
        sloav_exchange_free(state);
    free(state);
}

static int sloav_resume(struct schedule *s, void *const buf[])
{
    if (sloav_exchange_round(s->state, s, buf))
        s->resume = NULL;
    return s->oom ? -1 : 0;
}

int alltoallv_sloav_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size;
    struct sx_block *blk = malloc(2 * (size_t)size * sizeof *blk);
    struct sloav_exchange *x = malloc(sizeof *x);
    if (!blk || !x) {
        free(blk);
        free(x);
        return -1;
    }
    for (int j = 0; j < size; j++) {
        blk[j] = (struct sx_block){BUF_SEND, p->sdispls[j], p->scounts[j]};
        blk[size + j] = (struct sx_block){BUF_RECV, p->rdispls[j], p->rcounts[j]};
    }
    struct sloav_group g = {size, p->rank, NULL, p->radix, blk, blk + size, p->in_place};
    int rc = sloav_exchange_init(x, &g);
    free(blk);
    if (rc != 0) {
        free(x);
        return -1;
    }
    s->state = x;
    s->free_state = sloav_free;
    if (sloav_exchange_start(x, s))
        s->resume = sloav_resume;
    return s->oom ? -1 : 0;
}

double alltoallv_sloav_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int size = p->size;
    if (size == 1)
        return 0;
    int k = sloav_exchange_radix(size, p->radix);
    int D = radix_digits(size, k);
    int64_t moved = 0;
    for (int d = 0; d < D; d++)
        moved += radix_moving(size, k, radix_weight(k, d));
    /* p->count: the largest block of any rank when selecting automatically. */
    double bytes = (double)moved * (double)(p->count + 8);
    return (D + 1) * m->alpha + 4.0 * radix_subrounds(size, k) * m->o +
           bytes * m->beta * cost_link_share(p);
}
