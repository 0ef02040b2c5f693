// ranks: 1 2 3 4 5 7 8
// mpich-ranks: 2
// asan-ranks: 3
/*
 * Sparse reductions against colibri's dense algorithm with the same
 * reduction order, bit for bit:
 *  - allreduce sparse_recursive_doubling vs recursive_doubling and
 *    sparse_rabenseifner vs rabenseifner (lengths below, at and above the
 *    process count: empty ranges too), reduce sparse_binomial vs binomial
 *    and sparse_rabenseifner vs rabenseifner at every root;
 *  - every predefined op with a neutral element x a type of every kind
 *    (integers of each width and signedness, reals, long double, complex,
 *    bool, byte);
 *  - densities 0, one element, 0.1%, 1%, 10%, 50%, 100%, random and
 *    clustered positions, special values (-0.0, NaN, signalling NaN,
 *    infinities, 5 for logical ops), in place or not;
 *  - MPI_COMM_WORLD and sub-communicators (even/odd, reversed order);
 *  - the drop-in path: MPI_Allreduce/MPI_Reduce of a long sparse vector
 *    chooses a sparse algorithm by itself and matches the dense result;
 *    on dense data it does not;
 *  - bytes: at density 0 every block is a 16-byte header, so the bytes
 *    saved are exactly (dense - 16) per message sent (recursive doubling:
 *    whole vectors; Rabenseifner: halves, quarters, ... and back); at 25% in the same
 *    places on every rank each block is a bitmap; never negative.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "colibri.h"
#include "kernels/dense.h"
#include "kernels/sparse.h"
#include "patterns/fold.h"

#include "../lib/check.h"
#include "../lib/xorshift.h" /* seeded per case */

static int world_rank;

static void record(MPI_Comm comm, bool ok, const char *fmt, ...)
{
    int mine = ok, all = 1;
    PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
    int r;
    MPI_Comm_rank(comm, &r);
    if (r == 0)
        check_count(all); /* one case, counted once: by rank 0 of comm */
    if (all)
        return;
    if (!ok && check_failed < 40) {
        va_list ap;
        va_start(ap, fmt);
        printf("FAIL [world rank %d] ", world_rank);
        vprintf(fmt, ap);
        printf("\n");
        va_end(ap);
    }
}

enum kind { K_INT, K_REAL, K_CPLX };
struct type {
    const char *name;
    MPI_Datatype dt;
    enum kind kind;
    size_t part; /* bytes of a real part */
};

static void draw_real(unsigned char *p, size_t part)
{
    const long double sp[] = {-0.0L, 0.0L, NAN, INFINITY, -INFINITY, 1, -1, 0.5L};
    uint64_t r = next();
    long double x = r % 4 == 0 ? sp[(r >> 4) % 8] : (long double)((int64_t)(r % 65) - 32) / 4;
    if (part == 4) {
        float f = (float)x;
        if (r % 64 == 1) {
            uint32_t b = 0x7fa00000u; /* signalling NaN */
            memcpy(&f, &b, 4);
        }
        memcpy(p, &f, 4);
    } else if (part == 8) {
        double d = (double)x;
        if (r % 64 == 1) {
            uint64_t b = 0x7ff4000000000000ull;
            memcpy(&d, &b, 8);
        }
        memcpy(p, &d, 8);
    } else {
        memset(p, 0, part);
        memcpy(p, &x, sizeof x < part ? sizeof x : part);
        memset(p + 10, 0, part - 10);
    }
}

static void draw(const struct type *t, size_t es, unsigned char *v)
{
    memset(v, 0, es);
    if (t->kind == K_INT) {
        uint64_t r = next(), x = r % 8 < 3 ? r % 8 + 1 : r % 8 == 3 ? 5 : next();
        memcpy(v, &x, es);
    } else {
        for (size_t off = 0; off < es; off += t->part)
            draw_real(v + off, t->part);
    }
}

/* density < 0: exactly one element */
static void make(const struct type *t, const struct sparse_op *o, unsigned char *x, int64_t n,
                 double density, bool clustered)
{
    const size_t es = o->es;
    for (int64_t i = 0; i < n; i++)
        memcpy(x + i * (int64_t)es, o->e, es);
    if (density < 0) {
        draw(t, es, x + (int64_t)(next() % (uint64_t)n) * (int64_t)es);
    } else if (clustered) {
        int64_t want = (int64_t)(density * (double)n + 0.5), start = (int64_t)(next() % (uint64_t)n);
        for (int64_t j = 0; j < want; j++)
            draw(t, es, x + ((start + j) % n) * (int64_t)es);
    } else {
        for (int64_t i = 0; i < n; i++)
            if ((double)(next() % 1000000) < density * 1e6)
                draw(t, es, x + i * (int64_t)es);
    }
}

static const double densities[] = {0, -1, 0.001, 0.01, 0.1, 0.5, 1};
static const char *const allreduce_pairs[2][2] = {
    {"sparse_recursive_doubling", "recursive_doubling"}, {"sparse_rabenseifner", "rabenseifner"}};
static const char *const reduce_pairs[2][2] = {{"sparse_binomial", "binomial"},
                                               {"sparse_rabenseifner", "rabenseifner"}};

/* One case on comm: every density, both position kinds, in place or not. */
static void sweep(MPI_Comm comm, const char *cname, const struct type *t, MPI_Op op,
                  const char *oname, int64_t n, bool every_root)
{
    struct sparse_op o;
    if (!kernel_sparse_op(op, t->dt, &o))
        return;
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    const size_t bytes = (size_t)n * o.es;
    unsigned char *in = malloc(bytes), *a = malloc(bytes), *b = malloc(bytes);
    for (unsigned di = 0; di < sizeof densities / sizeof *densities; di++) {
        for (int cl = 0; cl < 2; cl++) {
            for (int ip = 0; ip < 2; ip++) {
                rng = 0x9e3779b97f4a7c15ull * (uint64_t)(rank + 1) + di * 7919 + (uint64_t)cl * 31 +
                      (uint64_t)n;
                make(t, &o, in, n, densities[di], cl);
                /* allreduce: each sparse algorithm against its dense twin */
                for (int k = 0; k < 2; k++) {
                    const char *sa = allreduce_pairs[k][0], *da = allreduce_pairs[k][1];
                    memcpy(a, in, bytes);
                    memcpy(b, in, bytes);
                    int rc1 = colibri_allreduce(ip ? MPI_IN_PLACE : in, a, n, t->dt, op, comm, sa);
                    const char *last = colibri_last_algorithm(comm, COLIBRI_ALLREDUCE);
                    int rc2 = colibri_allreduce(ip ? MPI_IN_PLACE : in, b, n, t->dt, op, comm, da);
                    record(comm, rc1 == MPI_SUCCESS && rc2 == MPI_SUCCESS &&
                                     memcmp(a, b, bytes) == 0 && last && strcmp(last, sa) == 0,
                           "allreduce %s %s %s %s n=%lld d=%g%s%s: rc %d/%d, %s", sa, cname,
                           t->name, oname, (long long)n, densities[di], cl ? " clustered" : "",
                           ip ? " in place" : "", rc1, rc2,
                           memcmp(a, b, bytes) ? "differs from dense" : "last algorithm");
                }
                /* reduce: the same, at every root (or the first and last) */
                for (int root = 0; root < p; root += every_root ? 1 : (p > 1 ? p - 1 : 1)) {
                    const bool inpl = ip && rank == root;
                    for (int k = 0; k < 2; k++) {
                        const char *sa = reduce_pairs[k][0], *da = reduce_pairs[k][1];
                        memcpy(a, in, bytes);
                        memcpy(b, in, bytes);
                        int rc1 = colibri_reduce(inpl ? MPI_IN_PLACE : in, a, n, t->dt, op, root,
                                                 comm, sa);
                        int rc2 = colibri_reduce(inpl ? MPI_IN_PLACE : in, b, n, t->dt, op, root,
                                                 comm, da);
                        bool same = rank != root || memcmp(a, b, bytes) == 0;
                        record(comm, rc1 == MPI_SUCCESS && rc2 == MPI_SUCCESS && same,
                               "reduce %s %s %s %s n=%lld d=%g%s%s root=%d: rc %d/%d, %s", sa,
                               cname, t->name, oname, (long long)n, densities[di],
                               cl ? " clustered" : "", ip ? " in place" : "", root, rc1, rc2,
                               same ? "" : "differs from dense");
                    }
                }
            }
        }
    }
    free(in), free(a), free(b);
}

/* Reduce-scatter: the block form (n per rank) and the vector form with
 * uneven counts, zeros among them, against the dense recursive_halving. */
static void sweep_rs(MPI_Comm comm, const char *cname, const struct type *t, MPI_Op op,
                     const char *oname, int64_t n)
{
    struct sparse_op o;
    if (!kernel_sparse_op(op, t->dt, &o))
        return;
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    MPI_Count *counts = malloc((size_t)p * sizeof *counts);
    for (int k = 0; k < 2; k++) {
        int64_t total = 0;
        for (int i = 0; i < p; i++) {
            counts[i] = k == 0 ? n : (i % 3 == 1 ? 0 : n / (i + 1) + (i == p - 1) * 2 * n);
            total += counts[i];
        }
        const size_t bytes = (size_t)(total > 0 ? total : 1) * o.es;
        unsigned char *in = malloc(bytes), *a = malloc(bytes), *b = malloc(bytes);
        const size_t out = (size_t)counts[rank] * o.es;
        for (unsigned di = 0; di < sizeof densities / sizeof *densities; di++) {
            for (int cl = 0; cl < 2; cl++) {
                for (int ip = 0; ip < 2; ip++) {
                    rng = 0x9e3779b97f4a7c15ull * (uint64_t)(rank + 1) + di * 7919 +
                          (uint64_t)cl * 31 + (uint64_t)total;
                    make(t, &o, in, total, densities[di], cl);
                    memcpy(a, in, bytes);
                    memcpy(b, in, bytes);
                    int rc1, rc2;
                    const void *sa = ip ? MPI_IN_PLACE : in, *sb = ip ? MPI_IN_PLACE : in;
                    if (k == 0) {
                        rc1 = colibri_reduce_scatter_block(sa, a, n, t->dt, op, comm,
                                                           "sparse_recursive_halving");
                        rc2 = colibri_reduce_scatter_block(sb, b, n, t->dt, op, comm,
                                                           "recursive_halving");
                    } else {
                        rc1 = colibri_reduce_scatter(sa, a, counts, t->dt, op, comm,
                                                     "sparse_recursive_halving");
                        rc2 = colibri_reduce_scatter(sb, b, counts, t->dt, op, comm,
                                                     "recursive_halving");
                    }
                    const char *last = colibri_last_algorithm(
                        comm, k == 0 ? COLIBRI_REDUCE_SCATTER_BLOCK : COLIBRI_REDUCE_SCATTER);
                    record(comm, rc1 == MPI_SUCCESS && rc2 == MPI_SUCCESS &&
                                     memcmp(a, b, out) == 0,
                           "%s %s %s %s n=%lld d=%g%s%s: rc %d/%d, %s",
                           k == 0 ? "reduce_scatter_block" : "reduce_scatter", cname, t->name,
                           oname, (long long)n, densities[di], cl ? " clustered" : "",
                           ip ? " in place" : "", rc1, rc2,
                           memcmp(a, b, out) ? "differs from dense" : "");
                    (void)last;
                }
            }
        }
        free(in), free(a), free(b);
    }
    free(counts);
}

/* User-defined operations: none without a registered neutral element; with
 * one (colibri_op_neutral), the same sweeps as the predefined ops. */
static void maxabs(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const double *a = in;
    double *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = fabs(a[i]) > fabs(b[i]) ? a[i] : b[i];
}

static void plain_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((double *)inout)[i] += ((const double *)in)[i];
}

static void user_ops(const struct type *dbl)
{
    MPI_Op op, sum, noncomm;
    MPI_Op_create(maxabs, 1, &op);
    MPI_Op_create(plain_sum, 1, &sum);
    MPI_Op_create(plain_sum, 0, &noncomm);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    double x[4] = {0}, y[4];
    int rc = colibri_allreduce(x, y, 4, MPI_DOUBLE, op, MPI_COMM_WORLD, "sparse_rabenseifner");
    record(MPI_COMM_WORLD, rc != MPI_SUCCESS, "sparse algorithm ran a user op with no neutral element");
    const double zero = 0.0, one = 1.0;
    int c1, c2, c3, c4;
    MPI_Error_class(colibri_op_neutral(MPI_SUM, MPI_DOUBLE, &zero), &c1);
    MPI_Error_class(colibri_op_neutral(noncomm, MPI_DOUBLE, &zero), &c2);
    MPI_Error_class(colibri_op_neutral(sum, MPI_DOUBLE, &one), &c3);
    MPI_Error_class(colibri_op_neutral(op, MPI_DOUBLE_INT, &zero), &c4);
    record(MPI_COMM_WORLD, c1 == MPI_ERR_OP && c2 == MPI_ERR_OP && c3 == MPI_ERR_ARG &&
                               c4 == MPI_ERR_TYPE,
           "colibri_op_neutral errors: %d %d %d %d", c1, c2, c3, c4);
    rc = colibri_op_neutral(op, MPI_DOUBLE, &zero);
    record(MPI_COMM_WORLD, rc == MPI_SUCCESS, "colibri_op_neutral(maxabs, 0.0): %d", rc);
    sweep(MPI_COMM_WORLD, "world", dbl, op, "user maxabs", 700, false);
    sweep_rs(MPI_COMM_WORLD, "world", dbl, op, "user maxabs", 300);
    colibri_op_neutral(op, MPI_DOUBLE, NULL);
    rc = colibri_allreduce(x, y, 4, MPI_DOUBLE, op, MPI_COMM_WORLD, "sparse_rabenseifner");
    record(MPI_COMM_WORLD, rc != MPI_SUCCESS, "a forgotten neutral element still served");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Op_free(&op);
    MPI_Op_free(&sum);
    MPI_Op_free(&noncomm);
}

/* Bytes: at density 0, each message is the 16-byte header. */
static void bytes_check(MPI_Comm comm)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    const int64_t n = 4096;
    double *x = calloc((size_t)n, sizeof *x), *y = malloc((size_t)n * sizeof *y);
    long long before = colibri_sparse_bytes_saved(comm);
    colibri_allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, comm, "sparse_recursive_doubling");
    long long saved = colibri_sparse_bytes_saved(comm) - before;
    const int pof2 = pof2_floor(p), rem = p - pof2, newrank = fold_newrank(rank, p);
    long long sends = (newrank >= 0 ? floor_log2(p) : 0) + (rank < 2 * rem);
    record(comm, saved == sends * (n * 8 - 16), "allreduce d=0: saved %lld bytes, expected %lld",
           saved, sends * (n * 8 - 16));
    /* Rabenseifner: the halving sends n/2 + ... + n/p' and the allgather
     * the same back (n = 4096 divides evenly); the fold moves whole vectors */
    before = colibri_sparse_bytes_saved(comm);
    colibri_allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, comm, "sparse_rabenseifner");
    saved = colibri_sparse_bytes_saved(comm) - before;
    const long long hv = newrank >= 0 ? 2 * (n - n / pof2) : 0,
                    hv_msgs = newrank >= 0 ? 2 * floor_log2(p) : 0,
                    fold = rank < 2 * rem ? n : 0;
    record(comm, saved == (hv + fold) * 8 - 16 * (hv_msgs + (rank < 2 * rem)),
           "rabenseifner d=0: saved %lld bytes, expected %lld", saved,
           (hv + fold) * 8 - 16 * (hv_msgs + (rank < 2 * rem)));
    /* dense data: nothing saved, nothing lost */
    for (int64_t i = 0; i < n; i++)
        x[i] = i + 1;
    before = colibri_sparse_bytes_saved(comm);
    colibri_allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, comm, "sparse_recursive_doubling");
    saved = colibri_sparse_bytes_saved(comm) - before;
    record(comm, saved == 0, "allreduce dense: saved %lld bytes", saved);
    /* every 4th element, the same on all ranks: index form 12 B per present
     * element, the bitmap form n/8 + 8 B each, which every message takes */
    for (int64_t i = 0; i < n; i++)
        x[i] = i % 4 == 0 ? 0.25 : 0;
    before = colibri_sparse_bytes_saved(comm);
    colibri_allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, comm, "sparse_recursive_doubling");
    saved = colibri_sparse_bytes_saved(comm) - before;
    const long long bitmap = 16 + n / 8 + 8 * (n / 4);
    record(comm, saved == sends * (n * 8 - bitmap),
           "allreduce d=25%%: saved %lld bytes, expected %lld (bitmap blocks)", saved,
           sends * (n * 8 - bitmap));
    /* 1% random: saved at least what the model says for the first round */
    for (int64_t i = 0; i < n; i++)
        x[i] = (i * 7919 + rank * 104729) % 100 == 0 ? 1.5 : 0;
    before = colibri_sparse_bytes_saved(comm);
    colibri_reduce(x, y, n, MPI_DOUBLE, MPI_SUM, 0, comm, "sparse_binomial");
    saved = colibri_sparse_bytes_saved(comm) - before;
    const long long nnz = n / 100 + 1;
    record(comm, rank == 0 || saved >= n * 8 - (16 + 12 * (p * nnz)),
           "reduce d=1%%: saved only %lld bytes", saved);
    free(x), free(y);
}

/* The drop-in entry points: automatic choice on a long vector. */
static void dropin_check(MPI_Comm comm)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    const int n = 1 << 17; /* 1 MiB of doubles */
    double *x = calloc((size_t)n, sizeof *x), *y = malloc((size_t)n * sizeof *y),
           *z = malloc((size_t)n * sizeof *z);
    for (int i = rank; i < n; i += 997)
        x[i] = i % 3 ? -0.0 : 0.25 * (rank + 1);
    MPI_Allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, comm);
    const char *last = colibri_last_algorithm(comm, COLIBRI_ALLREDUCE);
    colibri_allreduce(x, z, n, MPI_DOUBLE, MPI_SUM, comm, "recursive_doubling");
    record(comm, p == 1 || (last && strncmp(last, "sparse_", 7) == 0),
           "drop-in allreduce at 0.1%%: ran '%s'", last ? last : "(null)");
    record(comm, memcmp(y, z, (size_t)n * sizeof *y) == 0, "drop-in allreduce differs from dense");
    MPI_Reduce(x, y, n, MPI_DOUBLE, MPI_SUM, p - 1, comm);
    last = colibri_last_algorithm(comm, COLIBRI_REDUCE);
    colibri_reduce(x, z, n, MPI_DOUBLE, MPI_SUM, p - 1, comm, "binomial");
    record(comm, p == 1 || (last && strncmp(last, "sparse_", 7) == 0),
           "drop-in reduce at 0.1%%: ran '%s'", last ? last : "(null)");
    record(comm, rank != p - 1 || memcmp(y, z, (size_t)n * sizeof *y) == 0,
           "drop-in reduce differs from dense");
    /* reduce_scatter_block of the same vector: n/p each */
    MPI_Reduce_scatter_block(x, y, n / p, MPI_DOUBLE, MPI_SUM, comm);
    last = colibri_last_algorithm(comm, COLIBRI_REDUCE_SCATTER_BLOCK);
    colibri_reduce_scatter_block(x, z, n / p, MPI_DOUBLE, MPI_SUM, comm, "recursive_halving");
    record(comm, p == 1 || (last && strncmp(last, "sparse_", 7) == 0),
           "drop-in reduce_scatter_block at 0.1%%: ran '%s'", last ? last : "(null)");
    record(comm, memcmp(y, z, (size_t)(n / p) * sizeof *y) == 0,
           "drop-in reduce_scatter_block differs from dense");
    for (int i = 0; i < n; i++)
        x[i] = i + rank;
    /* another count: a new estimate (the sparse one is reused for 32 calls
     * of the same count, type and op) */
    for (int k = 0; k < 2; k++) { /* estimate made, then reused */
        MPI_Allreduce(x, y, n / 2, MPI_DOUBLE, MPI_SUM, comm);
        last = colibri_last_algorithm(comm, COLIBRI_ALLREDUCE);
        record(comm, last && strstr(last, "sparse") == NULL,
               "drop-in allreduce on dense data ran '%s'", last ? last : "(null)");
    }
    free(x), free(y), free(z);
}

/* Short vectors (8-64 KiB) are estimated at the second call of a shape, not
 * the first; an estimate that finds nothing to gain serves twice as many
 * calls as the one before (32, then 64), so dense data stops paying. */
static void estimate_check(MPI_Comm comm)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    if (p == 1)
        return;
    const int n = 2048; /* 16 KiB of doubles */
    double *sparse = calloc((size_t)n, sizeof *sparse), *dense = malloc((size_t)n * sizeof *dense),
           *y = malloc((size_t)n * sizeof *y);
    sparse[(rank * 613) % n] = rank + 1;
    for (int i = 0; i < n; i++)
        dense[i] = i + rank + 1;
    colibri_sparse_hint(comm, 0); /* forget earlier estimates */
    /* the model's choice at every call: online selection would explore */
    setenv("COLIBRI_ONLINE", "0", 1);
    colibri_config_reload();
    int wrong = -1;
    char ran[64] = "";
    /* call k (from 1) on sparse data runs sparse exactly when an estimate
     * made on sparse data serves it */
    for (int k = 1; k <= 110; k++) {
        const bool is_sparse = k <= 2 || k >= 36;
        MPI_Allreduce(is_sparse ? sparse : dense, y, n, MPI_DOUBLE, MPI_SUM, comm);
        const char *last = colibri_last_algorithm(comm, COLIBRI_ALLREDUCE);
        /* 1: seen; 2: estimated sparse, serves 3..34 (dense data there runs
         * sparse algorithms, exactly); 35: estimated dense, serves 36..99;
         * 100: estimated sparse */
        const bool expect = (k >= 2 && k <= 34) || k >= 100;
        if (wrong < 0 && (last && strstr(last, "sparse")) != expect) {
            wrong = k;
            snprintf(ran, sizeof ran, "%s", last ? last : "(null)");
        }
    }
    unsetenv("COLIBRI_ONLINE");
    colibri_config_reload();
    record(comm, wrong < 0, "16 KiB allreduce, call %d ran '%s'", wrong, ran);
    free(sparse), free(dense), free(y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const struct type types[] = {
        {"int8", MPI_INT8_T, K_INT, 0},        {"uint16", MPI_UINT16_T, K_INT, 0},
        {"int32", MPI_INT32_T, K_INT, 0},      {"uint32", MPI_UINT32_T, K_INT, 0},
        {"int64", MPI_INT64_T, K_INT, 0},      {"uint8", MPI_UINT8_T, K_INT, 0},
        {"float", MPI_FLOAT, K_REAL, 4},       {"double", MPI_DOUBLE, K_REAL, 8},
        {"long double", MPI_LONG_DOUBLE, K_REAL, sizeof(long double)},
        {"float complex", MPI_C_FLOAT_COMPLEX, K_CPLX, 4},
        {"double complex", MPI_C_DOUBLE_COMPLEX, K_CPLX, 8},
        {"bool", MPI_C_BOOL, K_INT, 0},        {"byte", MPI_BYTE, K_INT, 0},
    };
    const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND,
                          MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    const char *onames[] = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"};
    for (unsigned t = 0; t < sizeof types / sizeof *types; t++)
        for (unsigned o = 0; o < sizeof ops / sizeof *ops; o++) {
            sweep(MPI_COMM_WORLD, "world", &types[t], ops[o], onames[o], 1, true);
            sweep(MPI_COMM_WORLD, "world", &types[t], ops[o], onames[o], 700, false);
            sweep_rs(MPI_COMM_WORLD, "world", &types[t], ops[o], onames[o], 1);
            sweep_rs(MPI_COMM_WORLD, "world", &types[t], ops[o], onames[o], 300);
        }
    /* longer vectors, the common pairs */
    sweep(MPI_COMM_WORLD, "world", &types[7], MPI_SUM, "SUM", 20000, true);
    sweep(MPI_COMM_WORLD, "world", &types[2], MPI_BOR, "BOR", 20000, false);

    MPI_Comm halves, reversed;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &halves);
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - world_rank, &reversed);
    for (unsigned t = 6; t < 8; t++) {
        sweep(halves, "halves", &types[t], MPI_SUM, "SUM", 700, true);
        sweep(reversed, "reversed", &types[t], MPI_MAX, "MAX", 700, true);
        sweep_rs(halves, "halves", &types[t], MPI_SUM, "SUM", 500);
        sweep_rs(reversed, "reversed", &types[t], MPI_MIN, "MIN", 500);
    }
    user_ops(&types[7]);
    bytes_check(MPI_COMM_WORLD);
    bytes_check(reversed);
    dropin_check(MPI_COMM_WORLD);
    dropin_check(halves);
    estimate_check(MPI_COMM_WORLD);
    estimate_check(reversed);
    MPI_Comm_free(&halves);
    MPI_Comm_free(&reversed);

    long long mine[2] = {check_passed, check_failed}, total[2];
    PMPI_Allreduce(mine, total, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (world_rank == 0)
        check_print_totals(total[0], total[1]);
    MPI_Finalize();
    return total[1] != 0;
}
