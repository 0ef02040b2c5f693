/*
 * Sparse reduce-scatter (and reduce-scatter-block) by the recursive halving
 * of recursive_halving.c with Träff's neutral-element elimination: every
 * half travels in the smallest of its dense, index/value, bitmap and runs
 * forms
 * (common/sparse_acc.h), and the partial shrinks to the rank's own block.
 *
 * recursive_halving.c copies the input into scratch with folded block b at
 * position bit_reverse(b), so that distance-doubling halving ends with each
 * rank's own block and combines in rank order.  Here that permutation is
 * applied as the input is encoded (sparse_acc_build_blocks): every rank,
 * the folded-away ones too, works in position order from the start, and
 * the same halving steps run on position ranges.
 *
 * Cost (COST_FORMULA below, for reduce_scatter_block too; N the sum of
 * counts, p' = 2^L = 2^floor(lg p), B(m) the expected bytes of N elements
 * combining m inputs and B(m, w) those of the densest range of a fraction w
 * of them, as in allreduce/sparse_rabenseifner.c): the allreduce's halving
 * over all N elements; the fold returns each folded-away rank its block,
 * charged as B(p)/p (equal counts).
 *
 * Operand roles are recursive_halving.c's for commutative operations (the
 * received half is the kernel's `in`, in the fold too), so results are
 * bitwise the dense ones.
 */
#include <stdlib.h>

#include "../../patterns/halving.h"
#include "../algorithm.h"
#include "../common/sparse_acc.h"

COST_FORMULA(reduce_scatter, sparse_recursive_halving,
             "L a + sum_{s<L} (B(2^s p/p', 2^-(s+1)) (b + g) + H(2^s p/p', 2^-(s+1))) + N g + H(1) "
             "+ H(p) [+ 2 a + B(1)(b + g) + B(p)/p b fold], N elements in all, B, H as allreduce "
             "sparse_rabenseifner over N");

int reduce_scatter_sparse_recursive_halving_build(const struct sched_params *p,
                                                  struct schedule *s)
{
    const int size = p->size, rank = p->rank, pof2 = pof2_floor(size);
    struct butterfly bf;
    butterfly_init(&bf, rank, size, -1);
    const int L = bf.L, v = bf.v;
    const int64_t *counts = p->counts;
    int64_t total = 0;
    for (int i = 0; i < size; i++)
        total += counts[i];
    if (total == 0)
        return 0; /* nothing to reduce */

    /* nat: folded block b's offset in the input; pos: position q's offset in
     * the permuted vector; seg: the input's pieces in position order. */
    int64_t *nat = malloc((4 * (size_t)pof2 + 2) * sizeof *nat);
    if (!nat)
        return -1;
    int64_t *pos = nat + pof2 + 1, *seg = pos + pof2 + 1;
    halving_layout(counts, size, nat, pos);
    for (int q = 0; q < pof2; q++) {
        const int b = bit_reverse(q, L);
        seg[2 * q] = nat[b];
        seg[2 * q + 1] = nat[b + 1] - nat[b];
    }

    struct sparse_step steps[HALVING_MAXL + 2];
    int n = 0;
    if (v < 0) {
        steps[n++] = (struct sparse_step){.kind = SP_SEND, .peer = bf.extra};
        steps[n++] = (struct sparse_step){.kind = SP_RECV_RANGE, .peer = bf.extra,
                                          .len = counts[rank]};
    } else {
        const bool folded = butterfly_folded(&bf);
        if (folded)
            steps[n++] = (struct sparse_step){.kind = SP_RECV_COMBINE, .recv_is_in = true,
                                              .peer = bf.extra};
        n += sparse_halving_steps(steps + n, total, L, pos, v, bf.peer);
        if (folded) { /* the block holds the extra rank's part, then this rank's */
            const int64_t mine = pos[bit_reverse(v, L)];
            steps[n++] = (struct sparse_step){.kind = SP_SPLIT, .peer = bf.extra,
                                              .off = mine + counts[bf.extra], .len = counts[rank],
                                              .off2 = mine, .len2 = counts[bf.extra]};
        }
    }
    int rc = sparse_acc_build_blocks(p, s, steps, n, true, total, seg, pof2);
    free(nat);
    return rc;
}

double reduce_scatter_sparse_recursive_halving_cost(const struct sched_params *p,
                                                    const struct cost_params *m)
{
    const int pof2 = pof2_floor(p->size), L = floor_log2(p->size);
    struct sched_params q = *p; /* the model's B(m) is over the whole vector */
    q.count = 0;
    for (int i = 0; i < p->size; i++)
        q.count += p->counts[i];
    double t = sparse_model_local(&q, m) + L * m->alpha + sparse_model_halving(&q, m);
    if (pof2 != p->size && q.count > 0)
        t += 2 * m->alpha + sparse_model_bytes(&q, 1) * (m->beta + m->gamma) +
             sparse_model_bytes(&q, p->size) / p->size * m->beta;
    return t;
}
