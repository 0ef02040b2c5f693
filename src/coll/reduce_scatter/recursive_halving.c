/*
 * Reduce-scatter (and reduce-scatter-block) by recursive halving over ranks:
 * lg p steps, each sending and reducing half of what the rank still holds,
 * so a rank moves (p-1)/p of the vector in total at logarithmic latency.
 * Any per-rank counts work, zeros included.
 *
 * Order-preserving, so safe for non-commutative operations: the halving runs
 * with distance doubling (step s pairs v with v ^ 2^s, always two adjacent
 * intervals of ranks, lower on the left).  Distance doubling would leave
 * virtual rank v with the bit-reversed block, so each rank first copies its
 * input into scratch with block b at position bit_reverse(b): then every
 * exchanged half is contiguous and v ends with its own block.  That local
 * copy of the vector is the price of the rank order; MPICH instead runs
 * distance halving, which is commutative-only.
 *
 * p not a power of two: the pairwise fold of patterns/fold.h.  Even rank 2i
 * (i < p - p') hands its whole vector to 2i+1 and drops out; the survivor's
 * block is the union of both ranks' blocks, and it forwards 2i's part at the
 * end.
 *
 * Cost (COST_FORMULA below, reduce_scatter's and reduce_scatter_block's; n
 * the sum of counts, p' = 2^L = 2^floor(lg p)): M_s is the largest half
 * exchanged in step s, the largest sum of the folded blocks whose index is
 * congruent mod 2^(s+1), so equal counts give (p-1)/p n in all for p = 2^L
 * (not for p != p': the fold makes the survivors' blocks unequal).  The
 * fold adds the even ranks' whole vectors, reduced, and the return of
 * their blocks, the largest of which sets the pace.
 * Skewed counts cost more (one non-empty block: lg p' n (b + g)), which the
 * cost function reports, so the selector moves to pairwise or ring.
 */
#include <math.h>
#include <stdlib.h>

#include "../halving_steps.h"

COST_FORMULA(reduce_scatter, recursive_halving,
             "lg p' a + sum_s M_s (b + g), M_s largest half of step s ((p-1)/p n for equal blocks "
             "and p = p') [+ 2 a + n b + n g + c b fold when p != p', c largest block of a "
             "folded-away rank]");
COST_FORMULA(reduce_scatter_block, recursive_halving,
             "lg p' a + sum_s M_s (b + g), M_s largest half of step s ((p-1)/p n when p = p') [+ 2 "
             "a + n b + n g + n/p b fold when p != p']");

int reduce_scatter_recursive_halving_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank, pof2 = pof2_floor(size);
    const int64_t *counts = p->counts;
    struct butterfly bf;
    butterfly_init(&bf, rank, size, -1);
    const int L = bf.L, v = bf.v, in = p->in_place ? BUF_RECV : BUF_SEND;
    const bool folded = butterfly_folded(&bf);
    int64_t total = 0;
    for (int i = 0; i < size; i++)
        total += counts[i];

    if (v < 0) {
        sched_send(s, bf.extra, in, 0, total);
        sched_round(s);
        sched_recv(s, bf.extra, BUF_RECV, 0, counts[rank]);
        sched_round(s);
        return s->oom ? -1 : 0;
    }

    /* nat: folded blocks' offsets in the input, pos: offsets of positions
     * 0..2^L in the permuted scratch (halving_layout). */
    int64_t *nat = malloc(2 * ((size_t)pof2 + 1) * sizeof *nat);
    if (!nat)
        return -1;
    int64_t *pos = nat + pof2 + 1;
    halving_layout(counts, size, nat, pos);
    struct halving h = {s, L, total, pos, BUF_TMP, BUF_TMP, BUF_TMP2};

    int64_t scratch = folded ? total : 0;
    for (int i = 1; i <= L; i++) {
        int lo, len;
        halving_range(v, L, i, &lo, &len);
        int64_t c = hv_count(&h, lo, len);
        scratch = c > scratch ? c : scratch;
    }
    sched_need_tmp(s, BUF_TMP, total);
    sched_need_tmp(s, BUF_TMP2, scratch);

    if (folded)
        sched_recv(s, bf.extra, BUF_TMP2, 0, total);
    for (int b = 0; b < pof2; b++) {
        int64_t w = pos[bit_reverse(b, L)], cnt = nat[b + 1] - nat[b];
        sched_copy(s, in, nat[b], BUF_TMP, w, cnt);
        if (folded)
            sched_reduce(s, BUF_TMP2, nat[b], BUF_TMP, w, cnt, 0);
    }
    sched_round(s);

    hv_reduce_scatter(&h, v, bf.peer);

    int64_t mine = pos[bit_reverse(v, L)], before = folded ? counts[bf.extra] : 0;
    if (folded)
        sched_send(s, bf.extra, BUF_TMP, mine, before);
    sched_copy(s, BUF_TMP, mine + before, BUF_RECV, 0, counts[rank]);
    sched_round(s);
    free(nat);
    return s->oom ? -1 : 0;
}

double reduce_scatter_recursive_halving_cost(const struct sched_params *p,
                                             const struct cost_params *m)
{
    const int size = p->size, pof2 = pof2_floor(size), rem = size - pof2;
    const double es = (double)p->elem_size;
    int64_t *cnt = malloc((size_t)pof2 * sizeof *cnt);
    if (!cnt)
        return HUGE_VAL;
    for (int b = 0; b < pof2; b++)
        cnt[b] = halving_folded_count(p->counts, size, b);

    /* Step s exchanges the blocks of one class mod 2^(s+1); fold the classes
     * from the finest (s = L-1: single blocks) to the coarsest. */
    double t = 0;
    for (int classes = pof2; classes > 1; classes /= 2) {
        int64_t big = 0;
        for (int c = 0; c < classes; c++) {
            big = cnt[c] > big ? cnt[c] : big;
            if (c >= classes / 2)
                cnt[c - classes / 2] += cnt[c];
        }
        t += (big ? m->alpha : 0) + (double)big * es * (m->beta + m->gamma);
    }
    if (rem) {
        const int64_t total = cnt[0];
        int64_t back = 0;
        for (int i = 0; i < rem; i++)
            back = p->counts[2 * i] > back ? p->counts[2 * i] : back;
        t += (total ? m->alpha : 0) + (double)total * es * (m->beta + m->gamma);
        t += (back ? m->alpha : 0) + (double)back * es * m->beta;
    }
    free(cnt);
    return t;
}
