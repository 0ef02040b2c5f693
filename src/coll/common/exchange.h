/*
 * Direct exchange, the shared body of the pairwise, scattered and linear
 * alltoall(v): for shift i = 1..p-1 each rank sends its block for rank + i
 * straight to it and receives the block of rank - i, `window` shifts per
 * round (1: pairwise; p-1: everything posted at once).  Shifts rather than
 * the XOR pairing of power-of-two p, so that any p, any window and both
 * collectives share one schedule: each round is still a permutation, every
 * rank sending and receiving the same number of messages.
 *
 * Blocks are byte ranges: alltoall's uniform p->count bytes at j * count
 * when p->scounts is NULL, else alltoallv's scounts/sdispls/rcounts/rdispls.
 * Zero-byte blocks send nothing (the schedule drops them on both sides).
 *
 * In place (SEND is RECV), the block for rank + i is overwritten by the
 * receive of shift p - i.  When that receive comes in a later round, the
 * block is sent from where it is; otherwise it is staged in BUF_TMP by a
 * copy-only round before any communication.  Pairwise thus stages the
 * blocks of shifts i >= p/2 (about half the input), linear all of it.
 * (A one-block staging area would need rounds that pair ranks both ways,
 * to == from, which shifts give only at i = p/2.)
 */
#ifndef COLIBRI_COMMON_EXCHANGE_H
#define COLIBRI_COMMON_EXCHANGE_H

#include "../algorithm.h"

int exchange_build(const struct sched_params *p, struct schedule *s, int window);

/* ceil((p-1)/window) a + (p-1)(2 o + L c b), c = p->count: the latencies
 * of one round overlap, but the processor pays o for every message it sends
 * and receives, and every byte crosses the node's link once, shared by the
 * L ranks of the node (cost_link_share). */
double exchange_cost(const struct sched_params *p, const struct cost_params *m, int window);

#endif
