/*
 * Allgather by neighbour exchange (Chen et al., 2005; patterns/neighbor.h)
 * on an even number of ranks: ranks 2m and 2m+1 first swap their blocks,
 * then at each of the p/2 - 1 further steps every rank swaps with one of
 * its two neighbours, alternately, the two blocks (2m', 2m'+1) it received
 * at the step before.  Like the ring, every message goes to a neighbour
 * (on nodes of consecutive ranks most stay on the node) and lands straight
 * in the output, but a step carries two blocks, so half the ring's
 * latencies.  Odd p has no pairing: the catalog restricts it to even p
 * (R_EVEN), and a named call at odd p is refused, never run as another
 * algorithm.
 *
 * Cost (COST_FORMULA below, every rank alike): p/2 rounds of a message
 * each way, one block in the first and two in the others: p-1 blocks
 * received.
 *
 * Bytes (schedule.h): block j of RECV at j c; not in place, the rank's
 * own block is first copied from SEND to its place, in place it is there.
 */
#include "../../patterns/neighbor.h"
#include "../algorithm.h"

COST_FORMULA(allgather, neighbor_exchange, "p/2 (a + 2 o) + (p-1) c b, c block bytes; even p");

int allgather_neighbor_exchange_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank;
    const int64_t b = p->count;
    if (!p->in_place) {
        sched_copy(s, BUF_SEND, 0, BUF_RECV, rank * b, b);
        sched_round(s);
    }
    const int partner = nx_partner(rank, size, 0);
    sched_send(s, partner, BUF_RECV, rank * b, b);
    sched_recv(s, partner, BUF_RECV, partner * b, b);
    sched_round(s);
    for (int t = 1; t < nx_steps(size); t++) {
        const int q = nx_partner(rank, size, t);
        sched_send(s, q, BUF_RECV, 2 * nx_send_pair(rank, size, t) * b, 2 * b);
        sched_recv(s, q, BUF_RECV, 2 * nx_recv_pair(rank, size, t) * b, 2 * b);
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double allgather_neighbor_exchange_cost(const struct sched_params *p, const struct cost_params *m)
{
    return nx_steps(p->size) * (m->alpha + 2 * m->o) +
           (double)(p->size - 1) * (double)p->count * m->beta;
}
