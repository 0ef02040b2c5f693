/*
 * Sparse allreduce by recursive doubling (Träff's neutral-element
 * elimination): the exchanges of recursive_doubling.c, but every block
 * travels in the smaller of its dense and sparse forms, chosen when it is
 * sent, and partials are combined sparse or dense (common/sparse_acc.h).
 * The partial after round i combines 2^i inputs, so at density d it holds
 * about 1 - (1-d)^(2^i) present elements and switches to dense on its own
 * once that stops paying.
 *
 * Cost (COST_FORMULA below): B(m) is the expected bytes of a block
 * combining m inputs in its smallest form, for elements of s bytes and
 * k = n U(m) present, U(m) the union model of kernels/sparse.h over the agreed
 * density, support and run length l: 1 - (1-d)^m for scattered positions,
 * about d for clustered ones.  Round i exchanges a partial of 2^i p/p'
 * inputs (2^i when p is a power of two); n g is the input scan and output
 * write; H(m) = B(m) S the local work of a block in a sparse form (S =
 * cost_params.sparse per byte, 0 for a dense block: encode or pack, unpack
 * and merge, and the result's decoding).  When p is not a power of two the
 * fold sends one input, reduced, and the result back.
 * At density 1 this is recursive doubling plus the scan, so the selector
 * only picks it on an agreed density estimate (p->density).
 *
 * Operand roles are recursive doubling's (received block is the kernel's
 * `in`), so results are bitwise the dense ones.  Operations without a
 * neutral element (MAXLOC, user ops, derived types) and vectors past
 * SCHED_CHUNK bytes are outside its catalog restriction (neutral-element).
 */
#include "../../patterns/butterfly.h"
#include "../algorithm.h"
#include "../common/sparse_acc.h"

COST_FORMULA(allreduce, sparse_recursive_doubling,
             "sum_{i<lg p'} (a + B(2^i p/p')(b + g) + H(2^i p/p')) + n g + H(1) + H(p) [+ 2 a + "
             "(B(1) + B(p)) b + B(1) g fold], B(m) = min(n s, 16 + min(4 k, n/8, 8 k/l) + s k), k "
             "= n U(m), U the union of m inputs (density d, support, run length l: kernels/sparse.h), "
             "H(m) = B(m) S local work of a sparse-form block (0 if dense), S per byte");

int allreduce_sparse_recursive_doubling_build(const struct sched_params *p, struct schedule *s)
{
    if (p->count == 0)
        return 0; /* nothing to reduce */
    const int size = p->size, rank = p->rank;
    struct butterfly b;
    butterfly_init(&b, rank, size, -1);
    struct sparse_step steps[66];
    int n = 0;
    if (butterfly_folded(&b)) {
        if (b.v < 0)
            steps[n++] = (struct sparse_step){.kind = SP_SEND, .recv_is_in = true, .peer = b.extra};
        else
            steps[n++] = (struct sparse_step){.kind = SP_RECV_COMBINE, .recv_is_in = true, .peer = b.extra};
    }
    if (b.v >= 0)
        for (int i = 0; i < b.L; i++)
            steps[n++] = (struct sparse_step){.kind = SP_EXCH, .recv_is_in = true, .peer = b.peer[i]};
    if (butterfly_folded(&b)) {
        if (b.v < 0)
            steps[n++] = (struct sparse_step){.kind = SP_RECV_REPLACE, .recv_is_in = true, .peer = b.extra};
        else
            steps[n++] = (struct sparse_step){.kind = SP_SEND, .recv_is_in = true, .peer = b.extra};
    }
    return sparse_acc_build(p, s, steps, n, true);
}

double allreduce_sparse_recursive_doubling_cost(const struct sched_params *p,
                                                const struct cost_params *m)
{
    const int pof2 = pof2_floor(p->size), k = floor_log2(p->size);
    const double folded = (double)p->size / pof2;
    double t = sparse_model_local(p, m);
    for (int i = 0; i < k; i++)
        t += m->alpha + sparse_model_bytes(p, folded * (1 << i)) * (m->beta + m->gamma) +
             sparse_model_handling(p, m, folded * (1 << i), 1);
    if (pof2 != p->size) {
        const double b1 = sparse_model_bytes(p, 1), bp = sparse_model_bytes(p, p->size);
        t += 2 * m->alpha + (b1 + bp) * m->beta + b1 * m->gamma;
    }
    return t;
}
