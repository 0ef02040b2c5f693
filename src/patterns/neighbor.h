/*
 * Neighbour exchange (Chen, Wang, Hua, Chen, "Performance evaluation of
 * allgather algorithms on terascale Linux cluster with fast Ethernet",
 * HPCAsia 2005), for an even number p = 2h of ranks.  Ranks 2m and 2m+1
 * form pair m; pair-block m is the run of blocks 2m, 2m+1 (never passes
 * block p-1: p is even).
 *
 * Step 0: each rank swaps its own block with its pair partner, so both
 * hold pair-block m.  Steps t = 1 .. h-1 alternate the partners: at odd t
 * the even rank 2m swaps with its left neighbour 2m-1 and the odd rank
 * 2m+1 with its right neighbour 2m+2; at even t each swaps with its pair
 * partner again.  A rank sends the pair-block it received at step t-1 (at
 * step 1, its own pair's) and receives the one its partner received then.
 * So the even rank of pair m receives pair-block m - (t+1)/2 at odd t and
 * m + t/2 at even t, the odd rank m + (t+1)/2 and m - t/2 (mod h): the
 * pairs m-1, m+1, m-2, m+2, ... each once, h-1 of them, all but m.
 *
 * h steps, each a message each way: one block in the first, two in the
 * others, p-1 blocks received in all, every partner a neighbour.
 *
 * Pure functions, no MPI: tests/unit/test_patterns_neighbor.c checks them.
 */
#ifndef COLIBRI_PATTERN_NEIGHBOR_H
#define COLIBRI_PATTERN_NEIGHBOR_H

#include <stdbool.h>

static inline int nx_mod(int a, int n) { return ((a % n) + n) % n; }

/* Steps of the exchange on p (even) ranks. */
static inline int nx_steps(int p) { return p / 2; }

/* The rank `rank` swaps with at step t. */
static inline int nx_partner(int rank, int p, int t)
{
    const bool even = rank % 2 == 0, odd_step = t % 2 == 1;
    if (!odd_step)
        return even ? rank + 1 : rank - 1;
    return nx_mod(even ? rank - 1 : rank + 1, p);
}

/* The pair-block `rank` receives at step t >= 1. */
static inline int nx_recv_pair(int rank, int p, int t)
{
    const int h = p / 2, m = rank / 2, d = t % 2 ? (t + 1) / 2 : t / 2;
    const bool down = (rank % 2 == 0) == (t % 2 == 1); /* even at odd t, odd at even t */
    return nx_mod(down ? m - d : m + d, h);
}

/* The pair-block `rank` sends at step t >= 1: what it received at t - 1. */
static inline int nx_send_pair(int rank, int p, int t)
{
    return t == 1 ? rank / 2 : nx_recv_pair(rank, p, t - 1);
}

#endif
