/* The one catalog of colibri's algorithms (see catalog.h). */
#include "catalog.h"

#include <stdio.h>
#include <string.h>

#define ALG(coll, enumv, name, restr, formula) \
    { #name, enumv, restr, coll##_##name##_build, coll##_##name##_cost, formula, false }
/* ... whose radix selection tunes (catalog.h) */
#define ALG_K(coll, enumv, name, restr, formula) \
    { #name, enumv, restr, coll##_##name##_build, coll##_##name##_cost, formula, true }

const struct algorithm catalog[] = {
    ALG(allreduce, COLIBRI_ALLREDUCE, recursive_doubling, 0,
        "ceil(lg p)(a + n b + n g) [+ 2(a + n b) when p is not a power of two]"),
    ALG(allreduce, COLIBRI_ALLREDUCE, rabenseifner, 0,
        "2 lg p' a + 2(p'-1)/p' n b + (p'-1)/p' n g [+ 2(a + n b) + n g fold when p != p']"),
    ALG(allreduce, COLIBRI_ALLREDUCE, rabenseifner_3_2, 0,
        "2 floor(lg p) a + 2 sum_l (1+x_l) n/2^l b + sum_l (1+x_l) n/2^l g, x_l = 1 on the "
        "(at most 2) levels with 3-2 eliminations; <= 3 n b, <= 3/2 n g"),
    ALG(allreduce, COLIBRI_ALLREDUCE, ring, R_COMMUTATIVE,
        "2(p-1) a + 2(p-1)/p n b + (p-1)/p n g"),
    ALG(allreduce, COLIBRI_ALLREDUCE, reduce_bcast, 0,
        "2 ceil(lg p)(a + n b) + ceil(lg p) n g"),
    ALG(allreduce, COLIBRI_ALLREDUCE, knomial, 0,
        "m(a + (k-1) n (b + g)) [+ a + (j-1) n (b + g) if j > 1] [+ 2(a + n b) + n g fold], "
        "p = j k^m + rem, rem < k^m"),
    ALG(allreduce, COLIBRI_ALLREDUCE, sparse_recursive_doubling, R_NEUTRAL,
        "sum_{i<lg p'} (a + B(2^i p/p')(b + g) + H(2^i p/p')) + n g + H(1) + H(p) "
        "[+ 2 a + (B(1) + B(p)) b + B(1) g fold], "
        "B(m) = min(n s, 16 + min(4 k, n/8, 8 k/l) + s k), k = n U(m), U the union of m inputs "
        "(density d, support, run length l: core/sparse.h), H(m) = B(m) S local work of a "
        "sparse-form block (0 if dense), S per byte"),
    ALG(allreduce, COLIBRI_ALLREDUCE, sparse_rabenseifner, R_NEUTRAL,
        "2 lg p' a + sum_{s<lg p'} (B(2^s p/p', 2^-(s+1)) (b + g) + H(2^s p/p', 2^-(s+1))) "
        "+ sum_{i<lg p'} (B(p, 2^i/p') b + H(p, 2^i/p')) + n g + H(1) + H(p) "
        "[+ 2 a + (B(1) + B(p)) b + B(1) g fold], B(m), H(m) as sparse_recursive_doubling, "
        "B(m, w), H(m, w) for its densest range of a fraction w (span)"),

    ALG(reduce, COLIBRI_REDUCE, binomial, R_COMMUTATIVE,
        "ceil(lg p)(a + n b + n g)"),
    ALG(reduce, COLIBRI_REDUCE, ordered_binomial, 0,
        "ceil(lg p)(a + n b + n g), any root"),
    ALG(reduce, COLIBRI_REDUCE, rabenseifner, 0,
        "2 lg p' a + 2(p'-1)/p' n b + (p'-1)/p' n g [+ a + n b + n g fold when p != p']"),
    ALG(reduce, COLIBRI_REDUCE, sparse_binomial, R_COMMUTATIVE | R_NEUTRAL,
        "sum_{j<ceil(lg p)} (a + B(2^j)(b + g) + H(2^j)) + n g + H(1) + H(p), "
        "B(m), H(m) as allreduce sparse_recursive_doubling"),
    ALG(reduce, COLIBRI_REDUCE, sparse_rabenseifner, R_NEUTRAL,
        "2 lg p' a + sum_{s<lg p'} (B(2^s p/p', 2^-(s+1)) (b + g) + H(2^s p/p', 2^-(s+1))) "
        "+ sum_{i<lg p'} (B(p, 2^i/p') b + H(p, 2^i/p')) + n g + H(1) + H(p) "
        "[+ a + B(1)(b + g) fold], B, H as allreduce sparse_rabenseifner"),

    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER, recursive_halving, 0,
        "lg p' a + sum_s M_s (b + g), M_s largest half of step s, (p'-1)/p' n for equal counts "
        "[+ 2 a + n b + n g + c b fold when p != p']"),
    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER, pairwise, R_COMMUTATIVE,
        "(p-1) a + (p-1)/p n b + (p-1)/p n g"),
    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER, ring, R_COMMUTATIVE,
        "(p-1) a + (p-1)/p n b + (p-1)/p n g"),
    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER, sparse_recursive_halving, R_NEUTRAL,
        "L a + sum_{s<L} (B(2^s p/p', 2^-(s+1)) (b + g) + H(2^s p/p', 2^-(s+1))) + N g + H(1) + H(p) "
        "[+ 2 a + B(1)(b + g) + B(p)/p b fold], N elements in all, B, H as allreduce "
        "sparse_rabenseifner over N"),

    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER_BLOCK, recursive_halving, 0,
        "lg p' a + (p'-1)/p' n b + (p'-1)/p' n g [+ 2 a + n b + n g + n/p b fold when p != p']"),
    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER_BLOCK, pairwise, R_COMMUTATIVE,
        "(p-1) a + (p-1)/p n b + (p-1)/p n g"),
    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER_BLOCK, ring, R_COMMUTATIVE,
        "(p-1) a + (p-1)/p n b + (p-1)/p n g"),
    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER_BLOCK, sparse_recursive_halving, R_NEUTRAL,
        "L a + sum_{s<L} (B(2^s p/p', 2^-(s+1)) (b + g) + H(2^s p/p', 2^-(s+1))) + N g + H(1) + H(p) "
        "[+ 2 a + B(1)(b + g) + B(p)/p b fold], N elements in all, B, H as allreduce "
        "sparse_rabenseifner over N"),

    ALG_K(alltoall, COLIBRI_ALLTOALL, bruck, 0,
        "R (a + 2 o) + B c b + (2 p + 2 B) c g (local copies), R = sum_{d: k^d < p} min(k-1, ceil(p/k^d)-1) <= (k-1) ceil(log_k p), "
        "B = sum_{i<p} nonzero base-k digits of i ~ (k-1)/k p log_k p; c block bytes, k radix (COLIBRI_RADIX, else tuned by the model)"),
    ALG(alltoall, COLIBRI_ALLTOALL, pairwise, 0,
        "(p-1)(a + 2 o + c b), c block bytes"),
    ALG(alltoall, COLIBRI_ALLTOALL, scattered, 0,
        "ceil((p-1)/W) a + (p-1)(2 o + c b), W = radix (32)"),

    ALG(alltoallv, COLIBRI_ALLTOALLV, linear, 0,
        "a + (p-1)(2 o + L c b), c largest block bytes, L most ranks per node (their link is shared)"),
    ALG(alltoallv, COLIBRI_ALLTOALLV, pairwise, 0,
        "(p-1)(a + 2 o + L c b), c largest block bytes, L most ranks per node"),
    ALG_K(alltoallv, COLIBRI_ALLTOALLV, sloav, 0,
        "(D + 1) a + 4 S o + M (n + 8) L b, D = ceil(log_k p), S = sum_d min(k-1, floor((p-1)/k^d)) sub-rounds, "
        "M = sum_d #{0<i<p: digit_d(i) != 0} forwarded blocks, d < ceil(log_k p); "
        "p = k^D: S = D(k-1), M = D p (k-1)/k; n largest block; L most ranks per node; k radix (COLIBRI_RADIX, else tuned)"),
    ALG_K(alltoallv, COLIBRI_ALLTOALLV, sloavx, R_NODE_AWARE | R_BLOCKING_ONLY,
        "(4 + D + 1) a + (4 S + 4 (L-1)) o + M (L^2 n + 8) b over N nodes of L ranks: S, M "
        "as sloav with N for p (leaders' exchange of node-aggregated blocks), 4 node signal "
        "rounds, 2 p n local copies"),
};
const int catalog_count = (int)(sizeof catalog / sizeof catalog[0]);

static const char *const coll_names[COLIBRI_NCOLL] = {
    "allreduce", "reduce", "reduce_scatter", "reduce_scatter_block", "alltoall", "alltoallv"};

const char *colibri_coll_name(colibri_coll coll)
{
    return (unsigned)coll < COLIBRI_NCOLL ? coll_names[coll] : NULL;
}

static const char *const restriction_names[] = {"commutative", "power-of-two", "node-aware",
                                                "neutral-element", "blocking-only"};

const struct algorithm *catalog_find(colibri_coll coll, const char *name)
{
    for (int i = 0; i < catalog_count; i++)
        if (catalog[i].coll == coll && strcmp(catalog[i].name, name) == 0)
            return &catalog[i];
    return NULL;
}

/* Elements of the whole vector being reduced (reduce-scatter: all ranks'). */
static int64_t vector_elems(const struct sched_params *p)
{
    if (!p->counts)
        return p->count;
    int64_t n = 0;
    for (int i = 0; i < p->size; i++)
        n += p->counts[i];
    return n;
}

const char *catalog_violation(const struct algorithm *a, const struct sched_params *p)
{
    if ((a->restrictions & R_COMMUTATIVE) && !p->commutative)
        return "needs a commutative operation";
    if ((a->restrictions & R_POW2) && (p->size & (p->size - 1)))
        return "needs a power-of-two number of processes";
    if ((a->restrictions & R_BLOCKING_ONLY) && p->nonblocking)
        return "runs only as a blocking call (it grows the node's shared segment mid-run)";
    if ((a->restrictions & R_NODE_AWARE) && !p->layout)
        return "needs the node layout (node-aware)";
    if ((a->restrictions & R_NEUTRAL) &&
        (!p->sparse || vector_elems(p) * (int64_t)p->elem_size > SCHED_CHUNK))
        return "needs an operation with a neutral element (predefined, or registered with "
               "colibri_op_neutral) on a predefined or contiguous type (and at most 2 GiB)";
    return NULL;
}

const char *catalog_restrictions(const struct algorithm *a, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < sizeof restriction_names / sizeof *restriction_names; i++)
        if (a->restrictions & (1u << i))
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
                                     used ? " " : "", restriction_names[i]);
    return buf;
}

const char *catalog_names(colibri_coll coll, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < catalog_count; i++)
        if (catalog[i].coll == coll)
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
                                     used ? ", " : "", catalog[i].name);
    return buf;
}
