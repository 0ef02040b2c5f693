/*
 * Allreduce by recursive halving and doubling with 3-2 elimination
 * (Rabenseifner & Traff, EuroPVM/MPI 2004) for p that is not a power of two.
 *
 * Why: the fold of the plain Rabenseifner algorithm sends whole vectors to
 * and from the p - p' extra ranks, about 4 n b + 2 n g in all.  Here the
 * extra ranks drop out inside the halving instead, where the data is already
 * cut: ranks are grouped level by level into nodes of 2 or 3 children
 * (patterns/three_two.h); at a three-child node the last child's survivors
 * send the lower half of their range to the first child's and the upper half
 * to the second child's, while those two exchange halves as an ordinary
 * pair.  After floor(lg p) levels p' = 2^floor(lg p) ranks each hold one
 * block reduced over all p; the allgather runs the levels backwards and at a
 * three-child node both survivors also send their half to the eliminated one.
 *
 * Cost (COST_FORMULA below), L = floor(lg p), n/2^l the half exchanged at
 * level l, x_l = 1 if level l has three-child nodes, else 0: 2L rounds (L
 * for the reduce-scatter), no extra ones; a level with three-child nodes
 * moves and reduces twice its half on the slowest path.
 * p = 2^L is plain Rabenseifner (2(p-1)/p n b + (p-1)/p n g).  Otherwise the
 * plan (three_two.h) uses level l0 = 1 + (trailing zeros of p - p'), and
 * level L as well when p - p' > p'/2, which gives
 *     b: 2(1 - 1/p') n + 2 n / 2^l0   [+ 2 n / p' with the second level]
 *     g: (1 - 1/p') n + n / 2^l0      [+ n / p']
 * At most 3 n b and 3/2 n g; equal only when p - p' is odd and > p'/2 (p =
 * 7, 13, 15, 25, 27, 29, 31, ...), strictly less for every other p, against
 * 2(1 - 1/p') n + 2n b and (2 - 1/p') n g for the fold.  For example
 *     p     rounds   b          g
 *     5     4        5/2 n      5/4 n
 *     6     4        2 n        n
 *     7     4        3 n        3/2 n
 *     12    6        2 n        n
 *     100   12       9/4 n      9/8 n
 * (With n not divisible by p' each level moves its largest half.)
 *
 * Every node combines its children in order, lower on the left, so the
 * result is in exact rank order and non-commutative operations are safe.
 */
#include "../../patterns/three_two.h"
#include "../halving_steps.h"

COST_FORMULA(allreduce, rabenseifner_3_2,
             "2 floor(lg p) a + 2 sum_l (1+x_l) n/2^l b + sum_l (1+x_l) n/2^l g, x_l = 1 on the "
             "(at most 2) levels with 3-2 eliminations; <= 3 n b, <= 3/2 n g");

/* The rank's view of level l: its node's positions split into the halves
 * [lo, lo + len) and [lo + len, lo + 2 len), its child index c, and who[k],
 * the survivor of child k with the rank's own index (k < children). */
struct level {
    int lo, len, c, children, who[3];
};

static struct level level_at(const struct tt_plan *pl, int l, const int *node, const int *child,
                             const int *V)
{
    struct level x;
    int first = tt_first_child(pl, l, node[l]);
    halving_range(V[l], pl->L, l - 1, &x.lo, &x.len);
    x.len /= 2;
    x.c = child[l];
    x.children = tt_children(pl, l, node[l]);
    for (int k = 0; k < x.children; k++)
        x.who[k] = tt_member(pl, l - 1, first + k, V[l]);
    return x;
}

int allreduce_rabenseifner_3_2_build(const struct sched_params *p, struct schedule *s)
{
    const int64_t n = p->count;
    struct tt_plan pl;
    tt_make_plan(p->size, &pl);
    const int L = pl.L;
    int node[HALVING_MAXL + 1], child[HALVING_MAXL + 1], V[HALVING_MAXL + 1];
    const int out = tt_path(&pl, p->rank, node, child, V), top = out <= L ? out : L;
    struct halving h = {s, L, n, NULL, p->in_place ? BUF_RECV : BUF_SEND, BUF_RECV, BUF_TMP};

    if (L == 0) {
        sched_copy(s, h.in, 0, BUF_RECV, 0, n);
        sched_round(s);
    }
    /* Reduce-scatter: the first two children keep a half each; the third, if
     * any, hands both halves over and leaves. */
    int src = h.in;
    for (int l = 1; l <= top; l++) {
        struct level x = level_at(&pl, l, node, child, V);
        if (x.c == 2) {
            hv_send(&h, x.who[0], src, x.lo, x.len);
            hv_send(&h, x.who[1], src, x.lo + x.len, x.len);
            sched_round(s);
            break;
        }
        int keep = x.lo + x.c * x.len, give = x.lo + (1 - x.c) * x.len;
        sched_need_tmp(s, BUF_TMP, hv_count(&h, keep, x.len));
        hv_exchange(&h, src, x.who[1 - x.c], x.c == 1, keep, give, x.len);
        if (x.children == 3) {
            sched_need_tmp(s, BUF_TMP2, hv_count(&h, keep, x.len));
            hv_recv_reduce(&h, BUF_TMP2, x.who[2], false, keep, x.len);
        }
        sched_round(s);
        src = h.work;
    }

    /* Allgather: the same levels backwards; the third child gets both
     * halves back. */
    for (int l = top; l >= 1; l--) {
        struct level x = level_at(&pl, l, node, child, V);
        if (x.c == 2) {
            hv_recv(&h, x.who[0], h.work, x.lo, x.len);
            hv_recv(&h, x.who[1], h.work, x.lo + x.len, x.len);
            sched_round(s);
            continue;
        }
        int keep = x.lo + x.c * x.len, give = x.lo + (1 - x.c) * x.len;
        hv_send(&h, x.who[1 - x.c], h.work, keep, x.len);
        hv_recv(&h, x.who[1 - x.c], h.work, give, x.len);
        if (x.children == 3)
            hv_send(&h, x.who[2], h.work, keep, x.len);
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double allreduce_rabenseifner_3_2_cost(const struct sched_params *p, const struct cost_params *m)
{
    struct tt_plan pl;
    tt_make_plan(p->size, &pl);
    double t = 0;
    for (int l = 1; l <= pl.L; l++) {
        double h = (double)halving_max_half(p->count, pl.L, l - 1) * (double)p->elem_size *
                   (pl.t[l] ? 2 : 1);
        t += 2 * m->alpha + 2 * h * m->beta + h * m->gamma;
    }
    return t;
}
