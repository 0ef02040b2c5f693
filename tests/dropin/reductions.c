/*
 * A plain MPI program that knows nothing of colibri; the drop-in scripts
 * preload libcolibri.so under it.  It calls MPI_Allreduce, MPI_Reduce (at
 * non-zero roots), MPI_Reduce_scatter_block and MPI_Reduce_scatter over
 * several types and operations, a non-commutative user-defined one included,
 * in place and not, and checks every result against a serial computation.
 *
 *   dropin_reductions              the calls run on MPI_COMM_WORLD
 *   dropin_reductions split        they run on two halves of MPI_COMM_WORLD only
 *   dropin_reductions large-count  the MPI-4 forms (MPI_Allreduce_c, ...) are
 *                                  called instead (exit 2 if the MPI has none)
 *
 * Rank 0 of MPI_COMM_WORLD prints how many calls of each collective every
 * rank made ("calls per rank: allreduce=... reduce=... reduce_scatter=...
 * reduce_scatter_block=..."), for the scripts to check COLIBRI_STATS against.
 * A wrong result is printed and makes the exit status nonzero.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_MAX_LINES 10
#include "../lib/check.h"

enum kind { INT_SUM, DOUBLE_SUM, UCHAR_SUM, LLONG_MAX, DOUBLE_INT_MAXLOC, AFFINE, NKINDS };
static const char *const kind_names[NKINDS] = {"int sum", "double sum", "unsigned char sum",
                                               "long long max", "double_int maxloc",
                                               "affine (user, non-commutative)"};

struct double_int { double v; int i; };
/* x -> m x + c over unsigned (wrapping) arithmetic; composition is
 * associative but not commutative. */
struct affine { unsigned m, c; };

static struct affine compose(struct affine f, struct affine g)
{
    return (struct affine){f.m * g.m, f.m * g.c + f.c};
}

static void affine_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    struct affine *a = in, *b = inout;
    for (int k = 0; k < *len; k++)
        b[k] = compose(a[k], b[k]);
}

static MPI_Datatype types[NKINDS];
static MPI_Op ops[NKINDS];
static const size_t sizes[NKINDS] = {sizeof(int), sizeof(double), 1, sizeof(long long),
                                     sizeof(struct double_int), sizeof(struct affine)};

/* Element i of `rank`'s input. */
static void gen(enum kind k, int rank, long i, void *out)
{
    switch (k) {
    case INT_SUM: *(int *)out = (int)((rank * 131 + i * 17) % 2001) - 1000; break;
    case DOUBLE_SUM: *(double *)out = (double)(((rank + 1) * (i + 5)) % 4097) - 2048; break;
    case UCHAR_SUM: *(unsigned char *)out = (unsigned char)(rank * 53 + i * 11 + 200); break;
    case LLONG_MAX:
        *(long long *)out = ((i * 7919 + rank * 104729) % 1000003) * (i % 2 ? -1000000LL : 1000000LL);
        break;
    case DOUBLE_INT_MAXLOC:
        *(struct double_int *)out = (struct double_int){(double)((rank * 7 + i * 3) % 5), rank};
        break;
    case AFFINE: *(struct affine *)out = (struct affine){2u * (unsigned)(rank + i) + 1, (unsigned)(rank * 1000 + i)}; break;
    default: break;
    }
}

/* acc = acc (op) x, acc holding the lower ranks' combination. */
static void combine(enum kind k, void *acc, const void *x)
{
    switch (k) {
    case INT_SUM: *(int *)acc += *(const int *)x; break;
    case DOUBLE_SUM: *(double *)acc += *(const double *)x; break;
    case UCHAR_SUM: *(unsigned char *)acc = (unsigned char)(*(unsigned char *)acc + *(const unsigned char *)x); break;
    case LLONG_MAX:
        if (*(const long long *)x > *(long long *)acc)
            *(long long *)acc = *(const long long *)x;
        break;
    case DOUBLE_INT_MAXLOC: {
        struct double_int *a = acc;
        const struct double_int *b = x;
        if (b->v > a->v || (b->v == a->v && b->i < a->i))
            *a = *b;
        break;
    }
    case AFFINE: *(struct affine *)acc = compose(*(struct affine *)acc, *(const struct affine *)x); break;
    default: break;
    }
}

static int equal(enum kind k, const void *a, const void *b)
{
    if (k == DOUBLE_INT_MAXLOC) { /* not memcmp: the struct has padding */
        const struct double_int *x = a, *y = b;
        return x->v == y->v && x->i == y->i;
    }
    return memcmp(a, b, sizes[k]) == 0;
}

/* The combination over all `size` ranks of input element i. */
static void expected(enum kind k, int size, long i, void *out)
{
    char x[sizeof(struct double_int)];
    gen(k, 0, i, out);
    for (int r = 1; r < size; r++) {
        gen(k, r, i, x);
        combine(k, out, x);
    }
}

static int calls_allreduce, calls_reduce, calls_rs, calls_rsb;

/* Compares n result elements, the first being input element `first`: one
 * check, the first wrong element printed. */
static void check_result(const char *what, enum kind k, long count, int in_place, int size,
                         const char *buf, long first, long n)
{
    char want[sizeof(struct double_int)];
    for (long j = 0; j < n; j++) {
        expected(k, size, first + j, want);
        if (!equal(k, buf + j * sizes[k], want)) {
            if (check_count(false))
                fprintf(stderr, "%s %s count=%ld%s: element %ld wrong\n", what, kind_names[k],
                        count, in_place ? " in place" : "", j);
            return;
        }
    }
    check_count(true);
}

static void fill(enum kind k, int rank, char *buf, long n)
{
    for (long i = 0; i < n; i++)
        gen(k, rank, i, buf + i * sizes[k]);
}

static int large_count; /* call the MPI-4 _c forms */

static void allreduce(const void *s, void *r, long n, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
#if MPI_VERSION >= 4
    if (large_count) {
        MPI_Allreduce_c(s, r, n, dt, op, comm);
        return;
    }
#endif
    MPI_Allreduce(s, r, (int)n, dt, op, comm);
}

static void reduce(const void *s, void *r, long n, MPI_Datatype dt, MPI_Op op, int root,
                   MPI_Comm comm)
{
#if MPI_VERSION >= 4
    if (large_count) {
        MPI_Reduce_c(s, r, n, dt, op, root, comm);
        return;
    }
#endif
    MPI_Reduce(s, r, (int)n, dt, op, root, comm);
}

static void reduce_scatter_block(const void *s, void *r, long n, MPI_Datatype dt, MPI_Op op,
                                 MPI_Comm comm)
{
#if MPI_VERSION >= 4
    if (large_count) {
        MPI_Reduce_scatter_block_c(s, r, n, dt, op, comm);
        return;
    }
#endif
    MPI_Reduce_scatter_block(s, r, (int)n, dt, op, comm);
}

static void reduce_scatter(const void *s, void *r, const int *counts, MPI_Datatype dt, MPI_Op op,
                           MPI_Comm comm)
{
#if MPI_VERSION >= 4
    if (large_count) {
        int size;
        MPI_Comm_size(comm, &size);
        MPI_Count *c = malloc((size_t)size * sizeof *c);
        for (int i = 0; i < size; i++)
            c[i] = counts[i];
        MPI_Reduce_scatter_c(s, r, c, dt, op, comm);
        free(c);
        return;
    }
#endif
    MPI_Reduce_scatter(s, r, counts, dt, op, comm);
}

static void run(MPI_Comm comm, enum kind k, long count, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t es = sizes[k];
    int *counts = malloc((size_t)size * sizeof *counts);
    long total = 0;
    for (int r = 0; r < size; r++)
        total += counts[r] = r % 3 == 1 ? 0 : (int)count + r;
    long displ = 0;
    for (int r = 0; r < rank; r++)
        displ += counts[r];
    long maxn = total > count * size ? total : count * size;
    char *send = malloc((size_t)(maxn + 1) * es), *recv = malloc((size_t)(maxn + 1) * es);
    const void *sbuf = in_place ? MPI_IN_PLACE : send;
    char *input = in_place ? recv : send;

    fill(k, rank, input, count);
    allreduce(sbuf, recv, count, types[k], ops[k], comm);
    calls_allreduce++;
    check_result("MPI_Allreduce", k, count, in_place, size, recv, 0, count);

    int root = size - 1 - (in_place ? 0 : size / 2);
    fill(k, rank, rank == root ? input : send, count);
    reduce(rank == root ? sbuf : send, recv, count, types[k], ops[k], root, comm);
    calls_reduce++;
    if (rank == root)
        check_result("MPI_Reduce", k, count, in_place, size, recv, 0, count);

    fill(k, rank, input, count * size);
    reduce_scatter_block(sbuf, recv, count, types[k], ops[k], comm);
    calls_rsb++;
    check_result("MPI_Reduce_scatter_block", k, count, in_place, size, recv, rank * count, count);

    fill(k, rank, input, total);
    reduce_scatter(sbuf, recv, counts, types[k], ops[k], comm);
    calls_rs++;
    check_result("MPI_Reduce_scatter", k, count, in_place, size, recv, displ, counts[rank]);

    free(send);
    free(recv);
    free(counts);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm comm = MPI_COMM_WORLD;
    if (argc > 1 && strcmp(argv[1], "split") == 0)
        MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &comm);
    large_count = argc > 1 && strcmp(argv[1], "large-count") == 0;
#if MPI_VERSION < 4
    if (large_count) {
        if (wrank == 0)
            fprintf(stderr, "this MPI (version %d) has no large-count interface\n", MPI_VERSION);
        MPI_Finalize();
        return 2;
    }
#endif

    const MPI_Datatype builtin[] = {MPI_INT, MPI_DOUBLE, MPI_UNSIGNED_CHAR, MPI_LONG_LONG,
                                    MPI_DOUBLE_INT};
    const MPI_Op builtin_op[] = {MPI_SUM, MPI_SUM, MPI_SUM, MPI_MAX, MPI_MAXLOC};
    for (int k = 0; k < AFFINE; k++) {
        types[k] = builtin[k];
        ops[k] = builtin_op[k];
    }
    MPI_Type_contiguous(2, MPI_UNSIGNED, &types[AFFINE]);
    MPI_Type_commit(&types[AFFINE]);
    MPI_Op_create(affine_op, 0, &ops[AFFINE]);

    const long counts[] = {0, 1, 5, 300, 6000};
    for (int k = 0; k < NKINDS; k++)
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int in_place = 0; in_place < 2; in_place++)
                run(comm, (enum kind)k, counts[c], in_place);

    MPI_Op_free(&ops[AFFINE]);
    MPI_Type_free(&types[AFFINE]);
    if (comm != MPI_COMM_WORLD)
        MPI_Comm_free(&comm);
    if (wrank == 0)
        printf("calls per rank: allreduce=%d reduce=%d reduce_scatter=%d reduce_scatter_block=%d\n",
               calls_allreduce, calls_reduce, calls_rs, calls_rsb);
    if (check_failed)
        fprintf(stderr, "rank %d: %lld wrong results\n", wrank, check_failed);
    MPI_Finalize();
    return check_failed != 0;
}
