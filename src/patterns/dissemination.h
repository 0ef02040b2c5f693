/*
 * Dissemination over N nodes with radix k (Hensgen, Finkel and Manber's
 * barrier, Bruck et al.'s allgather pattern), for reductions whose
 * operation is idempotent (x op x = x: MAX, MIN, BAND, BOR on integers),
 * where a contribution counted twice changes nothing and so N need not be
 * a power of k.
 *
 * Round t = 0, 1, ... has distance D = k^t.  In it, node n receives the
 * value of node n - j D (mod N) from each j = 1 .. k-1 with j D < N, and
 * sends its own to node n + j D, then combines what it received with its
 * own.  Before round t node n holds nodes n - [0, D) (mod N), after it
 * n - [0, k D): after dis_rounds(N, k) rounds, every node.  The k-1
 * partners of a round are served by k-1 different ranks of the node (the
 * rails), one message each way, so a round costs one message time on
 * every rail at once.
 *
 * As an allgather (Bruck et al.'s, radix k; every rank's value arrives
 * once, no operation needed): node n keeps the values it holds in rotated
 * order, slot i holding node n - i (mod N), so before round t slots
 * [0, D) are full.  For partner j it sends slots [0, dis_count) to
 * dis_to, and what it receives from dis_from (whose slots [0, D) are
 * nodes n - j D - [0, D)) fills its slots [j D, j D + dis_count): the
 * values not held yet and no others, so after the last round slots
 * [0, N) hold every node once.  dis_count is the same at both ends of a
 * message.
 *
 * Pure functions, no MPI: tests/unit/test_patterns_dissemination.c checks
 * the coverage exhaustively, and the allgather's slots.
 */
#ifndef COLIBRI_PATTERN_DISSEMINATION_H
#define COLIBRI_PATTERN_DISSEMINATION_H

/* Rounds until k^rounds >= N (0 for N <= 1); k >= 2. */
static inline int dis_rounds(int N, int k)
{
    int t = 0;
    for (long long D = 1; D < N; D *= k)
        t++;
    return t;
}

/* Distance of round t: k^t. */
static inline long long dis_distance(int k, int t)
{
    long long D = 1;
    while (t-- > 0)
        D *= k;
    return D;
}

/* Whether partner j (1 .. k-1) of a round of distance D exists: j D < N
 * (a larger distance would only bring back nodes already held). */
static inline int dis_active(int N, int j, long long D) { return (long long)j * D < N; }

/* Node n's partners for j: it sends to dis_to, receives from dis_from. */
static inline int dis_to(int n, int j, long long D, int N)
{
    return (int)(((long long)n + (long long)j * D) % N);
}
static inline int dis_from(int n, int j, long long D, int N)
{
    return (int)((((long long)n - (long long)j * D) % N + N) % N);
}

/* The allgather's values in partner j's message of a round of distance D:
 * min(D, N - j D) (those beyond would be held already).  Needs
 * dis_active(N, j, D). */
static inline long long dis_count(int N, int j, long long D)
{
    const long long rest = (long long)N - (long long)j * D;
    return rest < D ? rest : D;
}

/* The node whose value the allgather's slot i of node n holds. */
static inline int dis_slot_node(int n, long long i, int N)
{
    return (int)((((long long)n - i) % N + N) % N);
}

#endif
