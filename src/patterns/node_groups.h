/*
 * Groups of nodes merged up to K at a time: the rounds between nodes of
 * the rails allreduce (coll/allreduce/node_rails.c), a mixed-radix
 * exchange that works for any number of nodes N.
 *
 * Level 0 has N groups, one node each.  Level t+1 has n_{t+1} =
 * ceil(n_t / K) groups; group j of level t+1 is the level-t groups
 * [floor(j n_t / n_{t+1}), floor((j+1) n_t / n_{t+1})): consecutive, at
 * most K of them, at least floor(n_t / n_{t+1}), balanced.  So every group
 * of every level is a run of consecutive nodes, and the last level,
 * ng_rounds(N, K) = ceil(log_K N), is one group of all N nodes.
 *
 * Round t merges the level-t groups of each level-(t+1) group (k of them,
 * k <= K): a node x of group a (its position among the k) holds P_a, the
 * combination of its group's nodes, and needs P_b of every other group b.
 * It receives P_b on rail j - 1, j = (a - b) mod k (so on k - 1 different
 * rails), from the node of group b at position i mod |b|, i being x's
 * position in its own group.  So the node at position i of group b sends
 * P_b on rail j - 1 to the nodes z of group (b + j) mod k with
 * (z - first(group)) mod |b| == i: one message where the groups are the
 * same size, ceil(|a| / |b|) at most.  Then x combines P_0 .. P_{k-1} in
 * group order, which every node of the level-(t+1) group does alike: the
 * same bits everywhere, and node order (a non-commutative operation's
 * rank order where nodes hold consecutive ranks).  A node count that no
 * product of radices up to K matches needs no folding: the groups of a
 * level just differ by one in size.
 *
 * Pure functions, no MPI: tests/unit/test_patterns_node_groups.c checks
 * them exhaustively.
 */
#ifndef COLIBRI_PATTERN_NODE_GROUPS_H
#define COLIBRI_PATTERN_NODE_GROUPS_H

/* The most rounds there can be: K >= 2 halves the groups each round. */
#define NG_MAX_ROUNDS 32

/* Rounds until one group holds every node: ceil(log_K N) (0 for N <= 1). */
static inline int ng_rounds(int N, int K)
{
    int t = 0;
    for (long long n = N; n > 1; n = (n + K - 1) / K)
        t++;
    return t;
}

/* n[0 .. ng_rounds(N, K)]: the groups of each level. */
static inline void ng_counts(int N, int K, int n[NG_MAX_ROUNDS + 1])
{
    n[0] = N;
    for (int t = 0; n[t] > 1; t++)
        n[t + 1] = (n[t] + K - 1) / K;
}

/* The first node of level-t group g (g = n_t: N, the end of the last). */
static inline int ng_start(int N, int K, int t, int g)
{
    int n[NG_MAX_ROUNDS + 1];
    ng_counts(N, K, n);
    long long gg = g;
    for (int l = t; l > 0; l--)
        gg = gg * n[l - 1] / n[l];
    return (int)gg;
}

/* The level-t group of node x. */
static inline int ng_group_of(int N, int K, int t, int x)
{
    int n[NG_MAX_ROUNDS + 1];
    ng_counts(N, K, n);
    long long g = x;
    for (int l = 0; l < t; l++)
        g = ((g + 1) * n[l + 1] - 1) / n[l];
    return (int)g;
}

/* Node x's part in round t: its level-(t+1) group merges the k level-t
 * groups first .. first + k - 1 (k = 1: nothing to do this round); x's
 * group is the a-th of them, and x is the i-th node of its group. */
struct ng_round {
    int k, a, i, first;
};

static inline struct ng_round ng_round_of(int N, int K, int t, int x)
{
    int n[NG_MAX_ROUNDS + 1];
    ng_counts(N, K, n);
    const int g = ng_group_of(N, K, t, x), S = ng_group_of(N, K, t + 1, x);
    struct ng_round r;
    r.first = (int)((long long)S * n[t] / n[t + 1]);
    r.k = (int)((long long)(S + 1) * n[t] / n[t + 1]) - r.first;
    r.a = g - r.first;
    r.i = x - ng_start(N, K, t, g);
    return r;
}

/* Group position b's first node and size, in round t of the level-(t+1)
 * group whose first level-t group is `first`. */
static inline int ng_member_start(int N, int K, int t, int first, int b)
{
    return ng_start(N, K, t, first + b);
}
static inline int ng_member_size(int N, int K, int t, int first, int b)
{
    return ng_start(N, K, t, first + b + 1) - ng_start(N, K, t, first + b);
}

/* The node that sends to node x (round r of x) on rail j - 1, j = 1 ..
 * k - 1: group b = (a - j) mod k's node at x's position modulo |b|. */
static inline int ng_sender(int N, int K, int t, const struct ng_round *r, int j)
{
    const int b = ((r->a - j) % r->k + r->k) % r->k;
    return ng_member_start(N, K, t, r->first, b) + r->i % ng_member_size(N, K, t, r->first, b);
}

#endif
