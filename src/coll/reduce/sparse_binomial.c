/*
 * Sparse reduce by the binomial tree of binomial.c (Träff's neutral-element
 * elimination): every subtree's partial travels to its parent in the
 * smaller of its dense and sparse forms, chosen when it is sent; partials
 * are combined sparse or dense (common/sparse_acc.h) and the root writes the
 * dense result.  A level-j partial combines 2^j inputs, so at density d it
 * holds about 1 - (1-d)^(2^j) present elements.
 *
 * Cost (COST_FORMULA below; B(m) and H(m), the local work of a sparse-form
 * block, as in sparse_recursive_doubling.c): the partial the root receives
 * in round j combines 2^j inputs.  At density 1 that is binomial's cost
 * plus the scan, so the selector only picks it on an agreed density
 * estimate (p->density).
 *
 * Operand roles are those of binomial.c's partial (common/partial.h): the
 * first combination takes the rank's input as `in` unless the input already
 * is the accumulator (root in place), later ones the received block, so
 * results are bitwise the dense ones.  Relative ranks wrap around, hence
 * commutative operations only.  Operations without a neutral element are
 * outside its catalog restriction (neutral-element).
 */
#include "../../patterns/binomial.h"
#include "../algorithm.h"
#include "../common/sparse_acc.h"

COST_FORMULA(reduce, sparse_binomial,
             "sum_{j<ceil(lg p)} (a + B(2^j)(b + g) + H(2^j)) + n g + H(1) + H(p), B(m), H(m) as "
             "allreduce sparse_recursive_doubling");

int reduce_sparse_binomial_build(const struct sched_params *p, struct schedule *s)
{
    if (p->count == 0)
        return 0; /* nothing to reduce */
    const int size = p->size, x = binomial_relrank(p->rank, p->root, size);
    struct sparse_step steps[64];
    int n = 0, peer;
    bool holds = p->rank == p->root && p->in_place;
    for (int j = 0; j < ceil_log2(size); j++) {
        enum binomial_role role = binomial_step(x, j, 0, size, &peer);
        if (role == BINOMIAL_RECV) {
            steps[n++] = (struct sparse_step){.kind = SP_RECV_COMBINE, .recv_is_in = holds, .peer = binomial_absrank(peer, p->root, size)};
            holds = true;
        } else if (role == BINOMIAL_SEND) {
            steps[n++] = (struct sparse_step){.kind = SP_SEND, .recv_is_in = false, .peer = binomial_absrank(peer, p->root, size)};
            break;
        }
    }
    return sparse_acc_build(p, s, steps, n, p->rank == p->root);
}

double reduce_sparse_binomial_cost(const struct sched_params *p, const struct cost_params *m)
{
    double t = sparse_model_local(p, m);
    for (int j = 0; j < ceil_log2(p->size); j++)
        t += m->alpha + sparse_model_bytes(p, 1 << j) * (m->beta + m->gamma) +
             sparse_model_handling(p, m, 1 << j, 1);
    return t;
}
