/*
 * Allgatherv by Bruck's dissemination with radix k (allgather/bruck.c,
 * patterns/dissemination.h) with blocks of their own sizes.  The blocks
 * lie at their own displacements in the output, in any order and with
 * gaps, so a run of blocks is not one piece of it; they travel instead in
 * scratch, in the rotated order of the classic algorithm: slot i of rank r
 * holds the block of rank r - i (mod p), the slots back to back.  Before
 * the round of distance D a rank's slots [0, D) are full; for partner j it
 * sends slots [0, m), m = min(D, p - j D), one message, and receives into
 * its slots [j D, j D + m) what the rank j D below it holds in its slots
 * [0, m): the same blocks, in the same order, so the same bytes at both
 * ends (every rank knows every size).  ceil(log_k p) rounds of k-1
 * messages, every block received once, as for allgather, where recursive
 * doubling and the ring send one message per block or per step.  The
 * price: the own block is copied into the scratch first, and the p-1
 * others out of it to their places at the end.
 *
 * Cost (COST_FORMULA below): R messages each way in ceil(log_k p) rounds
 * (allgather bruck's R), and at most n bytes received, n all blocks'
 * bytes; and the copies through the scratch, about n bytes read and
 * written in the rank's own memory, charged at the model's local copy
 * rate (s, COLIBRI_SHM_BANDWIDTH; half of it each way, as
 * cost_node_traffic weighs a rank's own copies).  So the latencies make it
 * the short-block choice and the copies leave long blocks to recursive
 * doubling and the ring, which receive straight into place.
 *
 * Bytes (schedule.h): rcounts[j], rdispls[j] are block j's bytes and
 * offset in RECV; the rank's own block is SEND (in place: RECV at its
 * displacement); TMP holds the p slots, n bytes.
 */
#include <stdlib.h>

#include "../../patterns/dissemination.h"
#include "../../patterns/radix.h"
#include "../algorithm.h"

COST_FORMULA(allgatherv, bruck,
             "ceil(log_k p) a + 2 R o + n b + n s, R = sum_{d: k^d < p} min(k-1, ceil(p/k^d)-1), "
             "n all blocks' bytes, s a byte copied (COLIBRI_SHM_BANDWIDTH), k radix "
             "(COLIBRI_RADIX, else tuned by the model); across nodes b as allgather bruck's");

int allgatherv_bruck_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank, k = cost_radix(p);
    const int64_t *n = p->rcounts, *d = p->rdispls;
    int64_t *slot = malloc(((size_t)size + 1) * sizeof *slot); /* slot i at slot[i] */
    if (!slot) {
        s->oom = true;
        return -1;
    }
    slot[0] = 0;
    for (int i = 0; i < size; i++)
        slot[i + 1] = slot[i] + n[dis_slot_node(rank, i, size)];
    sched_need_tmp(s, BUF_TMP, slot[size]);
    /* the own block into slot 0, and to its place in the output */
    sched_copy(s, p->in_place ? BUF_RECV : BUF_SEND, p->in_place ? d[rank] : 0, BUF_TMP, 0,
               n[rank]);
    if (!p->in_place)
        sched_copy(s, BUF_SEND, 0, BUF_RECV, d[rank], n[rank]);
    sched_round(s);
    for (int t = 0; t < dis_rounds(size, k); t++) {
        const long long D = dis_distance(k, t);
        for (int j = 1; j < k && dis_active(size, j, D); j++) {
            const long long m = dis_count(size, j, D);
            sched_send(s, dis_to(rank, j, D, size), BUF_TMP, 0, slot[m]);
            sched_recv(s, dis_from(rank, j, D, size), BUF_TMP, slot[j * D],
                       slot[j * D + m] - slot[j * D]);
        }
        sched_round(s);
    }
    for (int i = 1; i < size; i++) {
        const int r = dis_slot_node(rank, i, size);
        sched_copy(s, BUF_TMP, slot[i], BUF_RECV, d[r], n[r]);
    }
    sched_round(s);
    free(slot);
    return s->oom ? -1 : 0;
}

double allgatherv_bruck_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int k = cost_radix(p);
    return dis_rounds(p->size, k) * m->alpha + 2.0 * radix_subrounds(p->size, k) * m->o +
           (double)p->count * (m->beta * cost_bruck_port_share(p, k) + m->shm_beta);
}
