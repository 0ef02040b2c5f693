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
 * known), so each sub-round's message starts with one int64 byte count per
 * block it carries: no global maximum, no padding, no separate metadata
 * message.
 *
 * The exchange itself (rounds, message format, scratch arenas, what a
 * mismatched count does) is common/sloav_exchange.h, over all ranks: slot
 * j of a rank is its block in SEND for rank + j, delivered to RECV at
 * rdispls[source].
 *
 * Cost (COST_FORMULA below): the k-1 sub-rounds of a digit share a round
 * and each is one message carrying its blocks' sizes in front of them, so
 * D latencies and 2 S per-message overheads (S sends, S receives); every
 * forwarded block carries its 8-byte size.  A message whose blocks exceed
 * what the receiver reserved (common/sloav_exchange.h: c n up to 1 MiB
 * when the largest block n is agreed, as automatic selection does, else
 * 4 KiB) sends
 * the rest in an overflow round: X more latencies and messages, counted
 * per digit.  k = 2: S = lg p, M = p lg(p)/2; k = p: S = M = p-1 (a direct
 * exchange).  The radix minimising this is taken (select.c), so with
 * o = 0.5 us and small blocks a larger k trades data forwarded for fewer
 * messages.  L is the most ranks on one node when the layout is known:
 * they all forward at once through the node's link (sloavx sends each byte
 * off the node once instead).
 */
#include <stdlib.h>

#include "../algorithm.h"
#include "../common/sloav_exchange.h"

COST_FORMULA(alltoallv, sloav,
             "(D + X) a + 2 (S + Y) o + M (n + 8) L b, D = ceil(log_k p), S = sum_d min(k-1, "
             "floor((p-1)/k^d)) sub-rounds, M = sum_d #{0<i<p: digit_d(i) != 0} forwarded blocks, "
             "d < ceil(log_k p); p = k^D: S = D(k-1), M = D p (k-1)/k; X digits and Y messages "
             "whose c blocks exceed min(c n, 1 MiB) (4 KiB when named: overflow); n largest block; L most ranks per "
             "node; k radix (COLIBRI_RADIX, else tuned with o)");

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
    /* p->count: the largest block, agreed when selecting automatically, 0
     * (unknown) when the algorithm is named. */
    struct sloav_group g = {size,        p->rank,    NULL, p->radix, blk, blk + size,
                            p->in_place, p->count};
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
    if (p->size == 1)
        return 0;
    /* p->count: the largest block of any rank when selecting automatically.
     * The blocks a rank forwards are typical ones, the lightest rank's mean
     * (volume_min over p - 1 peers), and the busiest rank moves its excess
     * volume once (skewed sizes: one rank's large blocks leave it in its
     * first rounds); unknown volumes: every block the largest. */
    struct sx_shape sh;
    sloav_exchange_shape(p->size, p->radix, p->count, p->count, &sh);
    return sh.rounds * m->alpha + 2.0 * (double)sh.msgs * m->o +
           ((double)sh.blocks * (cost_typical_block(p) + 8) + cost_excess_volume(p)) * m->beta *
               cost_link_share(p);
}
