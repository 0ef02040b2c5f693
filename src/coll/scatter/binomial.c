/*
 * Scatter down a binomial tree over ranks counted from the root
 * (common/rooted.h): a rank receives its whole subtree's blocks from its
 * parent as one run (two messages where the run passes rank p-1), keeps
 * its own and hands each child the run of the child's subtree, the largest
 * first (it has the most to forward), one round each, as the binomial
 * broadcast does.  ceil(lg p) rounds on the critical path; the root sends
 * p/2, p/4, ... blocks, (p-1) c bytes in all: the choice where latency
 * counts, at large p.
 *
 * Cost (COST_FORMULA below): ceil(lg p) rounds of a message each way and
 * the p-1 blocks through the root's link (its subtrees forward while it
 * sends).
 *
 * Bytes (schedule.h): the root's SEND holds block j at j c; RECV is a
 * rank's own block (at the root, in place, its block stays in SEND).  A
 * rank with children receives its subtree's blocks in TMP, (end - x) c
 * bytes, its own block first; a leaf receives straight into RECV.
 */
#include "../../patterns/fold.h"
#include "../algorithm.h"
#include "../common/rooted.h"

COST_FORMULA(scatter, binomial, "ceil(lg p)(a + 2 o) + (p-1) c b, c block bytes");

int scatter_binomial_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, root = p->root, x = (p->rank - root + size) % size;
    const int64_t c = p->count;
    const int lb = blocks_lowbit(x, size), end = blocks_subtree_end(x, size);
#define ABS(rel) (((rel) + root) % size)
    if (!x) {
        if (!p->in_place)
            sched_copy(s, BUF_SEND, (int64_t)root * c, BUF_RECV, 0, c);
    } else if (end == x + 1) {
        sched_recv(s, ABS(x - lb), BUF_RECV, 0, c);
        sched_round(s);
    } else {
        sched_need_tmp(s, BUF_TMP, (end - x) * c);
        rooted_run(s, false, ABS(x - lb), x, end, x, root, size, c, BUF_SEND);
        sched_copy(s, BUF_TMP, 0, BUF_RECV, 0, c);
        sched_round(s);
    }
    for (int d = lb / 2; d >= 1; d /= 2) { /* largest subtree first */
        if (x + d >= size)
            continue;
        rooted_run(s, true, ABS(x + d), x + d, blocks_subtree_end(x + d, size), x, root, size, c,
                   BUF_SEND);
        sched_round(s);
    }
    sched_round(s); /* the root's copy when it sends nothing */
#undef ABS
    return s->oom ? -1 : 0;
}

double scatter_binomial_cost(const struct sched_params *p, const struct cost_params *m)
{
    return ceil_log2(p->size) * (m->alpha + 2 * m->o) +
           (double)(p->size - 1) * (double)p->count * m->beta;
}
