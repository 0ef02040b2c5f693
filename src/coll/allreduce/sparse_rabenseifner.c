/*
 * Sparse allreduce by Rabenseifner's reduce-scatter and allgather (Träff's
 * neutral-element elimination on rabenseifner.c's exchanges): the halving
 * steps send half of the partial and keep the other half, the doubling
 * steps send the partial and join the peer's range to it, and every piece
 * travels in the smallest of its dense, index/value, bitmap and runs forms
 * (common/sparse_acc.h).  Against sparse recursive doubling it sends each
 * element once per halving step instead of whole vectors every round: at
 * density d on p ranks the halving moves about sum_s B(2^s)/2^(s+1) and the
 * allgather (p-1)/p B(p), so the cost is bounded by the final result's
 * density rather than by the lg p whole partials.
 *
 * Cost (COST_FORMULA below; p' = 2^L = 2^floor(lg p)): B(m) is the
 * expected bytes of the whole vector combining m inputs, as in
 * sparse_recursive_doubling.c, and B(m, w) those of the densest range of a
 * fraction w of it, the one on the critical path: B(m)·w for scattered
 * positions, up to B(m) when they are clustered in one region
 * (sparse_model_range_bytes); H the local work of a sparse-form block.
 * Halving step s sends a range of 2^-(s+1) of the vector combining
 * 2^s p/p' inputs, doubling step i a range of 2^i/p' of the result.
 * So on clustered data, whose union stays small and sits in one range,
 * the halving saves nothing on the critical path, and the allgather
 * forwards the whole region at every step whose range holds it (up to
 * L B(p) instead of (p'-1)/p' B(p)): recursive doubling wins.
 *
 * Operand roles are rabenseifner.c's for commutative operations (the
 * received block is the kernel's `in`), so results are bitwise the dense
 * ones; positions are cut with the same block_offset.
 */
#include "../../patterns/halving.h"
#include "../algorithm.h"
#include "../common/sparse_acc.h"

COST_FORMULA(allreduce, sparse_rabenseifner,
             "2 lg p' a + sum_{s<lg p'} (B(2^s p/p', 2^-(s+1)) (b + g) + H(2^s p/p', 2^-(s+1))) + "
             "sum_{i<lg p'} (B(p, 2^i/p') b + H(p, 2^i/p')) + n g + H(1) + H(p) [+ 2 a + (B(1) + "
             "B(p)) b + B(1) g fold], B(m), H(m) as sparse_recursive_doubling, B(m, w), H(m, w) "
             "for its densest range of a fraction w (span)");

int allreduce_sparse_rabenseifner_build(const struct sched_params *p, struct schedule *s)
{
    if (p->count == 0)
        return 0; /* nothing to reduce */
    struct butterfly b;
    butterfly_init(&b, p->rank, p->size, -1);
    const int L = b.L, v = b.v;
    const bool folded = butterfly_folded(&b);
    struct sparse_step steps[2 * HALVING_MAXL + 2];
    int n = 0;
    if (v < 0) {
        steps[n++] = (struct sparse_step){.kind = SP_SEND, .peer = b.extra};
        steps[n++] = (struct sparse_step){.kind = SP_RECV_REPLACE, .peer = b.extra};
        return sparse_acc_build(p, s, steps, n, true);
    }
    if (folded)
        steps[n++] = (struct sparse_step){.kind = SP_RECV_COMBINE, .recv_is_in = true,
                                          .peer = b.extra};
    const int *peer = b.peer;
    int lo, len;
    n += sparse_halving_steps(steps + n, p->count, L, NULL, v, peer);
    for (int i = L - 1; i >= 0; i--) {
        halving_range(v, L, i + 1, &lo, &len);
        steps[n++] = sparse_range_step(SP_GATHER, peer[i], p->count, L, NULL,
                                       v >> i & 1 ? lo - len : lo + len, len);
    }
    if (folded)
        steps[n++] = (struct sparse_step){.kind = SP_SEND, .peer = b.extra};
    return sparse_acc_build(p, s, steps, n, true);
}

double allreduce_sparse_rabenseifner_cost(const struct sched_params *p,
                                          const struct cost_params *m)
{
    const int pof2 = pof2_floor(p->size), L = floor_log2(p->size);
    double t = sparse_model_local(p, m) + 2 * L * m->alpha + sparse_model_halving(p, m) +
               sparse_model_doubling(p, m);
    if (pof2 != p->size) {
        const double b1 = sparse_model_bytes(p, 1), bp = sparse_model_bytes(p, p->size);
        t += 2 * m->alpha + (b1 + bp) * m->beta + b1 * m->gamma;
    }
    return t;
}
