/*
 * Runs every catalog algorithm of allreduce, reduce, reduce_scatter and
 * reduce_scatter_block (the data-movement collectives have check_exchange) (plus "auto") under SimGrid SMPI on a few counts,
 * operations, roots and in-place forms, and checks every rank's result
 * against a serial reference computed here, never against the MPI below.
 * Also checks that colibri_last_algorithm names what ran and that an
 * algorithm asked to run outside its catalog restrictions refuses with an
 * error instead of falling back, leaving the output buffer alone.
 *
 *   check_catalog [name ...]   only the algorithms named (default: all)
 *
 * Prints "N passed, N failed" (rank 0); exits non-zero on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"
#include "smpi_errors.h"

#include "../lib/check.h"

static int rank, size;

/* ---- operations and their serial reference ---- */

enum opkind { OP_SUM_INT, OP_MAX_DOUBLE, OP_MATMUL, NOPS };
static const char *const op_names[NOPS] = {"sum/int", "max/double", "matmul(non-commutative)"};

/* 2x2 matrix product modulo 2^32 on 4 unsigned ints: associative, not
 * commutative, so any reordering of the ranks' contributions shows. */
typedef struct { unsigned m[4]; } mat;

static mat mat_mul(mat a, mat b)
{
    mat c;
    c.m[0] = a.m[0] * b.m[0] + a.m[1] * b.m[2];
    c.m[1] = a.m[0] * b.m[1] + a.m[1] * b.m[3];
    c.m[2] = a.m[2] * b.m[0] + a.m[3] * b.m[2];
    c.m[3] = a.m[2] * b.m[1] + a.m[3] * b.m[3];
    return c;
}

/* MPI's convention: inout = in (op) inout, `in` holding the lower ranks. */
static void matmul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    mat *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = mat_mul(a[i], b[i]);
}

static MPI_Datatype mat_type;
static MPI_Op matmul_op;

static size_t elem_size(enum opkind k)
{
    return k == OP_SUM_INT ? sizeof(int) : k == OP_MAX_DOUBLE ? sizeof(double) : sizeof(mat);
}

static MPI_Datatype op_type(enum opkind k)
{
    return k == OP_SUM_INT ? MPI_INT : k == OP_MAX_DOUBLE ? MPI_DOUBLE : mat_type;
}

static MPI_Op op_handle(enum opkind k)
{
    return k == OP_SUM_INT ? MPI_SUM : k == OP_MAX_DOUBLE ? MPI_MAX : matmul_op;
}

/* Rank r's element i; every value differs in r and i. */
static void value(enum opkind k, int r, long i, void *out)
{
    if (k == OP_SUM_INT) {
        *(int *)out = (int)(((r + 1) * (i + 3)) % 97) - 40;
    } else if (k == OP_MAX_DOUBLE) {
        *(double *)out = ((r * 37 + i * 11) % 1009) * 0.5 - 100;
    } else {
        mat m = {{(unsigned)r + 1, (unsigned)i + 2, 3u + (unsigned)r, (unsigned)(r * i) + 1}};
        *(mat *)out = m;
    }
}

static void reference(enum opkind k, long i, void *out)
{
    value(k, 0, i, out);
    for (int r = 1; r < size; r++) {
        union { int i; double d; mat m; } v;
        value(k, r, i, &v);
        if (k == OP_SUM_INT)
            *(int *)out += v.i;
        else if (k == OP_MAX_DOUBLE)
            *(double *)out = v.d > *(double *)out ? v.d : *(double *)out;
        else
            *(mat *)out = mat_mul(*(mat *)out, v.m);
    }
}

/* ---- one call ---- */

struct alg {
    colibri_coll coll;
    const char *name;
    int commutative_only, pow2_only;
    int node_order; /* non-commutative needs nodes of consecutive ranks */
};

/* Whether every host holds consecutive ranks of MPI_COMM_WORLD (found
 * through MPI, not through colibri): a node-order algorithm must refuse a
 * non-commutative operation otherwise. */
static int nodes_blocked = 1;

struct call {
    const struct alg *alg;
    enum opkind op;
    long count; /* allreduce/reduce: vector; reduce_scatter(_block): see counts */
    int root, in_place;
    MPI_Count *counts;
    long total, first; /* whole vector length, first element this rank gets */
};

static void fail(const struct call *c, const char *what)
{
    static int reported;
    if (reported++ == 10)
        fprintf(stderr, "rank %d: further failures not shown\n", rank);
    if (reported > 10)
        return;
    fprintf(stderr,
            "FAIL rank %d/%d %s %s op %s count %ld root %d%s: %s\n", rank, size,
            colibri_coll_name(c->alg->coll), c->alg->name, op_names[c->op], c->count, c->root,
            c->in_place ? " in-place" : "", what);
}

static int invoke(const struct call *c, const void *send, void *recv)
{
    MPI_Datatype dt = op_type(c->op);
    MPI_Op op = op_handle(c->op);
    const void *s = c->in_place ? MPI_IN_PLACE : send;
    switch (c->alg->coll) {
    case COLIBRI_ALLREDUCE:
        return colibri_allreduce(s, recv, c->count, dt, op, MPI_COMM_WORLD, c->alg->name);
    case COLIBRI_REDUCE:
        return colibri_reduce(c->in_place && rank != c->root ? send : s, recv, c->count, dt, op,
                              c->root, MPI_COMM_WORLD, c->alg->name);
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        return colibri_reduce_scatter_block(s, recv, c->count, dt, op, MPI_COMM_WORLD,
                                            c->alg->name);
    default:
        return colibri_reduce_scatter(s, recv, c->counts, dt, op, MPI_COMM_WORLD, c->alg->name);
    }
}

/* Returns 1 if this rank saw the right outcome. */
static int run_case(struct call *c, int expect_refusal)
{
    size_t es = elem_size(c->op);
    long mine = c->total; /* elements this rank's result holds */
    c->first = 0;
    if (c->alg->coll == COLIBRI_REDUCE_SCATTER || c->alg->coll == COLIBRI_REDUCE_SCATTER_BLOCK) {
        for (int r = 0; r < rank; r++)
            c->first += (long)c->counts[r];
        mine = (long)c->counts[rank];
    }
    int is_root = c->alg->coll != COLIBRI_REDUCE || rank == c->root;
    /* +1 element of slack on both buffers to catch overruns. */
    unsigned char *send = malloc((size_t)(c->total + 1) * es);
    unsigned char *recv = malloc((size_t)(c->total + 1) * es);
    unsigned char *canary = malloc(es);
    if (!send || !recv || !canary) {
        fail(c, "out of memory in the test");
        free(send), free(recv), free(canary);
        return 0;
    }
    memset(canary, 0xa5, es);
    for (long i = 0; i < c->total; i++)
        value(c->op, rank, i, send + (size_t)i * es);
    memset(recv, 0xa5, (size_t)(c->total + 1) * es);
    if (c->in_place && is_root)
        memcpy(recv, send, (size_t)c->total * es);
    unsigned char *before = malloc((size_t)(c->total + 1) * es);
    if (before)
        memcpy(before, recv, (size_t)(c->total + 1) * es);

    int rc = invoke(c, send, recv), ok = 1;
    char msg[160];
    if (expect_refusal) {
        if (rc == MPI_SUCCESS)
            fail(c, "ran outside its catalog restriction instead of refusing"), ok = 0;
        else if (before && memcmp(before, recv, (size_t)(c->total + 1) * es) != 0)
            fail(c, "refused but wrote into the output buffer"), ok = 0;
    } else if (rc != MPI_SUCCESS) {
        snprintf(msg, sizeof msg, "returned error %d", rc);
        fail(c, msg), ok = 0;
    } else {
        const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, c->alg->coll);
        if (!ran || (strcmp(c->alg->name, "auto") != 0 && strcmp(ran, c->alg->name) != 0)) {
            snprintf(msg, sizeof msg, "colibri_last_algorithm says '%s'", ran ? ran : "(null)");
            fail(c, msg), ok = 0;
        }
        for (long j = 0; ok && is_root && j < mine; j++) {
            union { int i; double d; mat m; } want;
            reference(c->op, c->first + j, &want);
            if (memcmp(&want, recv + (size_t)j * es, es) != 0) {
                snprintf(msg, sizeof msg, "wrong result at element %ld of %ld", c->first + j,
                         c->total);
                fail(c, msg), ok = 0;
            }
        }
        if (ok && is_root && memcmp(recv + (size_t)mine * es, canary, es) != 0 &&
            !(c->in_place && c->total > mine))
            fail(c, "wrote past the end of its output"), ok = 0;
    }
    free(send), free(recv), free(canary), free(before);
    return ok;
}

static void record(int ok)
{
    int all_ok;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    check_count(all_ok);
}

static void run_alg(const struct alg *a)
{
    int pow2 = (size & (size - 1)) == 0;
    const long counts[] = {0, 1, 7, 2L * size + 3, 300};
    int refusal_checked = 0;
    for (int op = 0; op < NOPS; op++) {
        int refused = (a->commutative_only && op == OP_MATMUL) || (a->pow2_only && !pow2) ||
                      (a->node_order && op == OP_MATMUL && !nodes_blocked);
        for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
            struct call c = {a, (enum opkind)op, counts[ci], 0, 0, NULL, 0, 0};
            if (refused) { /* once per algorithm is enough */
                if (refusal_checked++)
                    continue;
                c.count = 7;
            }
            MPI_Count *rc_counts = malloc((size_t)size * sizeof *rc_counts);
            c.counts = rc_counts;
            c.total = c.count;
            if (a->coll == COLIBRI_REDUCE_SCATTER_BLOCK || a->coll == COLIBRI_REDUCE_SCATTER) {
                c.total = 0;
                for (int r = 0; r < size; r++) {
                    rc_counts[r] = a->coll == COLIBRI_REDUCE_SCATTER_BLOCK
                                       ? c.count
                                       : c.count * (r % 3) / 2 + (c.count > 0 && r == size - 1);
                    c.total += (long)rc_counts[r];
                }
            }
            int roots[2] = {0, size - 1};
            int nroots = a->coll == COLIBRI_REDUCE && size > 1 ? 2 : 1;
            for (int ri = 0; ri < nroots; ri++)
                for (int in_place = 0; in_place < 2; in_place++) {
                    c.root = roots[ri];
                    c.in_place = in_place;
                    record(run_case(&c, refused));
                    if (refused)
                        break;
                }
            free(rc_counts);
        }
    }
}

static int wanted(int argc, char **argv, const char *name)
{
    if (argc < 2)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    return_errors(MPI_COMM_WORLD);
    PMPI_Type_contiguous(4, MPI_UNSIGNED, &mat_type);
    PMPI_Type_commit(&mat_type);
    PMPI_Op_create(matmul_fn, 0, &matmul_op);

    MPI_Comm node;
    int node_rank, first, *firsts = malloc((size_t)size * sizeof *firsts);
    PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    PMPI_Comm_rank(node, &node_rank);
    PMPI_Allreduce(&rank, &first, 1, MPI_INT, MPI_MIN, node);
    PMPI_Allgather(&first, 1, MPI_INT, firsts, 1, MPI_INT, MPI_COMM_WORLD);
    /* blocked: each rank's host starts at a rank whose ranks up to this one all share it */
    for (int r = 1; r < size; r++)
        if (firsts[r] != firsts[r - 1] && firsts[r] != r)
            nodes_blocked = 0;
    free(firsts);
    PMPI_Comm_free(&node);
    if (rank == 0)
        printf("hosts hold %s ranks\n", nodes_blocked ? "consecutive" : "interleaved");

    int tested = 0;
    for (int coll = 0; coll <= COLIBRI_REDUCE_SCATTER_BLOCK; coll++) { /* the reductions */
        struct alg a = {(colibri_coll)coll, "auto", 0, 0, 0};
        if (wanted(argc, argv, "auto"))
            run_alg(&a);
    }
    for (int i = 0; i < colibri_catalog_size(); i++) {
        colibri_algorithm_info info;
        colibri_catalog_get(i, &info);
        if (!wanted(argc, argv, info.name) || info.coll > COLIBRI_REDUCE_SCATTER_BLOCK ||
            strstr(info.restrictions, "neutral-element")) /* sparse: test_sparse */
            continue;
        struct alg a = {info.coll, info.name, strstr(info.restrictions, "commutative") != NULL,
                        strstr(info.restrictions, "power-of-two") != NULL,
                        strstr(info.restrictions, "node-order") != NULL};
        long long before = check_failed;
        run_alg(&a);
        tested++;
        if (rank == 0)
            printf("%-22s %-24s %s\n", info.collective, info.name,
                   check_failed == before ? "ok" : "FAILED");
    }
    if (rank == 0) {
        printf("p=%d: %d algorithms\n", size, tested);
        check_print_totals(check_passed, check_failed);
    }
    PMPI_Op_free(&matmul_op);
    PMPI_Type_free(&mat_type);
    MPI_Finalize();
    /* Every rank knows the global outcome; one exit status is enough. */
    return rank == 0 && (check_failed || (argc < 2 && tested == 0)) ? 1 : 0;
}
