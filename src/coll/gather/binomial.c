/*
 * Gather up a binomial tree over ranks counted from the root
 * (common/rooted.h): a rank receives from all its children at once, each
 * child's whole subtree as one run of blocks (two messages where the run
 * passes rank p-1), into its scratch behind its own block, then sends its
 * subtree's run to its parent; the root receives straight into its output.
 * ceil(lg p) rounds on the critical path, and every block crosses the
 * root's link once, as in the linear gather: the choice where latency
 * counts, at large p.
 *
 * Cost (COST_FORMULA below): ceil(lg p) rounds of a message each way;
 * the root receives the p-1 other blocks, (p-1) c bytes, however the tree
 * hands them in (its children's subtrees gather while it receives).
 *
 * Bytes (schedule.h): the root's RECV holds block j at j c; SEND is a
 * rank's own block (at the root, in place, its block is in RECV already).
 * A rank with children gathers its subtree's blocks in TMP, (end - x) c
 * bytes, its own block first (copied from SEND); a leaf sends from SEND.
 */
#include "../../patterns/fold.h"
#include "../algorithm.h"
#include "../common/rooted.h"

COST_FORMULA(gather, binomial, "ceil(lg p)(a + 2 o) + (p-1) c b, c block bytes");

int gather_binomial_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, root = p->root, x = (p->rank - root + size) % size;
    const int64_t c = p->count;
    const int lb = blocks_lowbit(x, size), end = blocks_subtree_end(x, size);
#define ABS(rel) (((rel) + root) % size)
    if (x && end > x + 1)
        sched_need_tmp(s, BUF_TMP, (end - x) * c);
    for (int d = 1; d < lb && x + d < size; d *= 2)
        rooted_run(s, false, ABS(x + d), x + d, blocks_subtree_end(x + d, size), x, root, size, c,
                   BUF_RECV);
    if (!x && !p->in_place)
        sched_copy(s, BUF_SEND, 0, BUF_RECV, (int64_t)root * c, c);
    else if (x && end > x + 1)
        sched_copy(s, BUF_SEND, 0, BUF_TMP, 0, c);
    sched_round(s);
    if (x) {
        if (end > x + 1)
            rooted_run(s, true, ABS(x - lb), x, end, x, root, size, c, BUF_RECV);
        else
            sched_send(s, ABS(x - lb), BUF_SEND, 0, c);
        sched_round(s);
    }
#undef ABS
    return s->oom ? -1 : 0;
}

double gather_binomial_cost(const struct sched_params *p, const struct cost_params *m)
{
    return ceil_log2(p->size) * (m->alpha + 2 * m->o) +
           (double)(p->size - 1) * (double)p->count * m->beta;
}
