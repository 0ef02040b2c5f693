/*
 * Sparse reduce by Rabenseifner's reduce-scatter and gather (rabenseifner.c
 * with Träff's neutral-element elimination): the halving steps of the
 * sparse allreduce (common/sparse_acc.h), then the binomial gather of the
 * reduced ranges towards the root's virtual rank, each range travelling in
 * its smallest form; the root writes the dense result.
 *
 * Cost (COST_FORMULA below; B(m), B(m, w) and H as in
 * allreduce/sparse_rabenseifner.c, p' = 2^L = 2^floor(lg p)): the
 * allreduce's halving, then the gather, whose L ranges the root receives
 * one after the other (for a result clustered in one region, up to L B(p));
 * the fold, when p != p', only sends one input.
 *
 * Operand roles are rabenseifner.c's for commutative operations (the
 * received block is the kernel's `in`, in the fold too), so results are
 * bitwise the dense ones.
 */
#include "../../patterns/halving.h"
#include "../algorithm.h"
#include "../common/sparse_acc.h"

COST_FORMULA(reduce, sparse_rabenseifner,
             "2 lg p' a + sum_{s<lg p'} (B(2^s p/p', 2^-(s+1)) (b + g) + H(2^s p/p', 2^-(s+1))) + "
             "sum_{i<lg p'} (B(p, 2^i/p') b + H(p, 2^i/p')) + n g + H(1) + H(p) [+ a + B(1)(b + g) "
             "fold], B, H as allreduce sparse_rabenseifner");

int reduce_sparse_rabenseifner_build(const struct sched_params *p, struct schedule *s)
{
    if (p->count == 0)
        return 0; /* nothing to reduce */
    const int size = p->size, rank = p->rank, root = p->root;
    struct butterfly b;
    butterfly_init(&b, rank, size, root);
    const int L = b.L, v = b.v, vr = fold_rooted_newrank(root, size, root);
    struct sparse_step steps[2 * HALVING_MAXL + 1];
    int n = 0;
    if (v < 0) {
        steps[n++] = (struct sparse_step){.kind = SP_SEND, .peer = b.extra};
        return sparse_acc_build(p, s, steps, n, false);
    }
    if (butterfly_folded(&b))
        steps[n++] = (struct sparse_step){.kind = SP_RECV_COMBINE, .recv_is_in = true,
                                          .peer = b.extra};
    const int *peer = b.peer;
    n += sparse_halving_steps(steps + n, p->count, L, NULL, v, peer);
    for (int i = L - 1; i >= 0; i--) {
        const int role = gather_role(v, vr, i);
        int lo, len;
        if (role > 0) {
            halving_range(v ^ 1 << i, L, i + 1, &lo, &len);
            steps[n++] = sparse_range_step(SP_JOIN, peer[i], p->count, L, NULL, lo, len);
        } else if (role < 0) {
            steps[n++] = (struct sparse_step){.kind = SP_SEND, .peer = peer[i]};
        }
    }
    return sparse_acc_build(p, s, steps, n, rank == root);
}

double reduce_sparse_rabenseifner_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int pof2 = pof2_floor(p->size), L = floor_log2(p->size);
    double t = sparse_model_local(p, m) + 2 * L * m->alpha + sparse_model_halving(p, m) +
               sparse_model_doubling(p, m);
    if (pof2 != p->size)
        t += m->alpha + sparse_model_bytes(p, 1) * (m->beta + m->gamma);
    return t;
}
