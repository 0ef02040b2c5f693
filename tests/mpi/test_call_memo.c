// ranks: 1 2 3 4
// mpich-ranks: 2
// asan-ranks: 3
/*
 * The call memos (api/reductions.c, api/alltoall.c): a repeated allreduce,
 * reduce or alltoall runs
 * the call its first instance prepared, with its own buffers, and without
 * validating, selecting or looking anything up again but the arguments.
 * Each test repeats a call (so that the memo holds it) and then changes one
 * thing it depends on between two calls; the result must be the new call's
 * and colibri_last_algorithm must say what the new call runs:
 *  - the buffers and data (every call), MPI_IN_PLACE or not;
 *  - the count, the datatype, the operation, the root;
 *  - a user operation freed and created again (MPI may give the new one
 *    the old handle), and a derived datatype likewise;
 *  - the configuration (another algorithm named, a tuning file sending the
 *    call below) after colibri_config_reload;
 *  - the communicator: freed, and another of another size created (it may
 *    get the old handle);
 *  - arguments a repeated call must still refuse (sendbuf == recvbuf, a
 *    NULL buffer) through the communicator's error handler;
 *  - nonblocking calls of one shape in flight together, which share the
 *    remembered schedule.
 */
#include "harness.h"

static int rank, size;
static char path[256];

static void expect(MPI_Comm comm, colibri_coll coll, const char *want, const char *what)
{
    const char *got = colibri_last_algorithm(comm, coll);
    check(got && strcmp(got, want) == 0, "rank %d, %s: ran %s, want %s", rank, what,
          got ? got : "(none)", want);
}

/* n doubles (n <= 64), input seed + rank + i, summed over comm (in place
 * or not), checked; the guard past n must stay untouched. */
static void sum_doubles(MPI_Comm comm, int n, int seed, bool in_place, const char *what)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    double in[65], out[65];
    for (int i = 0; i < n; i++)
        in[i] = seed + r + i;
    for (int i = 0; i < 65; i++)
        out[i] = in_place && i < n ? in[i] : -1;
    int rc = MPI_Allreduce(in_place ? MPI_IN_PLACE : in, out, n, MPI_DOUBLE, MPI_SUM, comm);
    int bad = 0;
    for (int i = 0; i < n; i++) /* sum over ranks q of seed + q + i */
        bad += out[i] != (double)p * (seed + i) + p * (p - 1) / 2.0;
    check(rc == MPI_SUCCESS && !bad && out[n] == -1, "rank %d, %s: rc %d, %d wrong, guard %g",
          rank, what, rc, bad, out[n]);
}

/* User operations: a commutative sum, and "left" (the left operand, the
 * lower rank's: non-commutative, every rank gets rank 0's values); and a
 * max of doubles on a contiguous type of any number of doubles. */
static void op_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((double *)inout)[i] += ((double *)in)[i];
}
static void op_left(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    memcpy(inout, in, (size_t)*len * sizeof(double));
}
static void op_max(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int bytes = 0;
    MPI_Type_size(*dt, &bytes);
    const int n = *len * bytes / (int)sizeof(double);
    for (int i = 0; i < n; i++)
        if (((double *)in)[i] > ((double *)inout)[i])
            ((double *)inout)[i] = ((double *)in)[i];
}

/* Handles freed and created again (MPI may give the new object the old
 * handle) between calls that are otherwise identical. */
static void user_handles(void)
{
    for (int round = 0; round < 4; round++) {
        const bool left = round % 2;
        MPI_Op op;
        MPI_Op_create(left ? op_left : op_sum, !left, &op);
        for (int rep = 0; rep < 3; rep++) {
            double in[4], out[4];
            for (int i = 0; i < 4; i++)
                in[i] = rank * 10 + i + rep;
            MPI_Allreduce(in, out, 4, MPI_DOUBLE, op, MPI_COMM_WORLD);
            int bad = 0;
            for (int i = 0; i < 4; i++)
                bad += out[i] != (left ? i + rep : 10.0 * size * (size - 1) / 2 + size * (i + rep));
            check(!bad, "rank %d: user op %s, round %d: %d wrong", rank, left ? "left" : "sum",
                  round, bad);
        }
        MPI_Op_free(&op);
    }
    /* derived datatypes of two doubles, then one, the same count */
    MPI_Op max;
    MPI_Op_create(op_max, 1, &max);
    for (int round = 0; round < 4; round++) {
        const int per = round % 2 ? 1 : 2;
        MPI_Datatype t;
        MPI_Type_contiguous(per, MPI_DOUBLE, &t);
        MPI_Type_commit(&t);
        for (int rep = 0; rep < 3; rep++) {
            double in[5], out[5];
            for (int i = 0; i < 5; i++)
                in[i] = rank + i + rep, out[i] = -1;
            MPI_Allreduce(in, out, 2, t, max, MPI_COMM_WORLD);
            int bad = 0;
            for (int i = 0; i < 2 * per; i++)
                bad += out[i] != size - 1 + i + rep;
            check(!bad && out[2 * per] == -1, "rank %d: a type of %d doubles, round %d: %d "
                  "wrong, guard %g", rank, per, round, bad, out[2 * per]);
        }
        MPI_Type_free(&t);
    }
    MPI_Op_free(&max);
}

/* Every rank reads the same file: rank 0 writes it, all reload. */
static void use_rules(const char *rules) { h_use_rules(path, rules); }

static void configuration(void)
{
    for (int i = 0; i < 3; i++)
        sum_doubles(MPI_COMM_WORLD, 8, i, false, "before a reload");
    const char *before = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLREDUCE);
    char saved[64];
    snprintf(saved, sizeof saved, "%s", before ? before : "");
    const char *other = strcmp(saved, "ring") == 0 ? "recursive_doubling" : "ring";
    setenv("COLIBRI_ALLREDUCE_ALGORITHM", other, 1);
    colibri_config_reload();
    for (int i = 0; i < 3; i++) {
        sum_doubles(MPI_COMM_WORLD, 8, i, false, "another algorithm named");
        expect(MPI_COMM_WORLD, COLIBRI_ALLREDUCE, other, "another algorithm named");
    }
    unsetenv("COLIBRI_ALLREDUCE_ALGORITHM");
    colibri_config_reload();
    sum_doubles(MPI_COMM_WORLD, 8, 5, false, "automatic again");
    expect(MPI_COMM_WORLD, COLIBRI_ALLREDUCE, saved, "automatic again");
    /* a tuning file that sends the call below, then one that names an
     * algorithm */
    use_rules("allreduce 0 64 1 1000 native\n");
    for (int i = 0; i < 3; i++) {
        sum_doubles(MPI_COMM_WORLD, 8, i, false, "a native rule");
        expect(MPI_COMM_WORLD, COLIBRI_ALLREDUCE, "native", "a native rule");
    }
    use_rules("allreduce 0 64 1 1000 ring\n");
    for (int i = 0; i < 3; i++) {
        sum_doubles(MPI_COMM_WORLD, 8, i, false, "a rule naming ring");
        expect(MPI_COMM_WORLD, COLIBRI_ALLREDUCE, "ring", "a rule naming ring");
    }
    unsetenv("COLIBRI_TUNING");
    colibri_config_reload();
    sum_doubles(MPI_COMM_WORLD, 8, 7, false, "no rules again");
    expect(MPI_COMM_WORLD, COLIBRI_ALLREDUCE, saved, "no rules again");
}

static void communicators(void)
{
    for (int i = 0; i < 6; i++) {
        MPI_Comm c;
        const int two = i % 2 == 0 && size >= 2;
        MPI_Comm_split(MPI_COMM_WORLD, two ? rank / 2 : rank, rank, &c);
        for (int rep = 0; rep < 3; rep++)
            sum_doubles(c, 8, rep + i, false, two ? "pairs, freed and split again" : "one rank");
        MPI_Comm_free(&c); /* the next split may get this handle back */
    }
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    for (int rep = 0; rep < 3; rep++) { /* two communicators in turn */
        sum_doubles(d, 8, rep, false, "a duplicate");
        sum_doubles(MPI_COMM_WORLD, 8, rep + 1, false, "the world, between");
    }
    MPI_Comm_free(&d);
}

/* Arguments the full path refuses, refused by a repeated call too. */
static void refusals(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    double b[8] = {0}, o[8];
    for (int rep = 0; rep < 3; rep++)
        check(MPI_Allreduce(b, o, 8, MPI_DOUBLE, MPI_SUM, c) == MPI_SUCCESS, "rank %d: plain",
              rank);
    int cls = MPI_SUCCESS, rc = MPI_Allreduce(b, b, 8, MPI_DOUBLE, MPI_SUM, c);
    MPI_Error_class(rc, &cls);
    check(cls == MPI_ERR_BUFFER, "rank %d: sendbuf == recvbuf after repeats: class %d", rank, cls);
    rc = MPI_Allreduce(NULL, o, 8, MPI_DOUBLE, MPI_SUM, c);
    MPI_Error_class(rc, &cls);
    check(cls == MPI_ERR_BUFFER, "rank %d: NULL sendbuf after repeats: class %d", rank, cls);
    for (int rep = 0; rep < 3; rep++) {
        double x = rank + 1, y = 0;
        check(MPI_Reduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, 0, c) == MPI_SUCCESS, "reduce");
        check(rank != 0 || y == size * (size + 1) / 2.0, "rank %d: reduce %g", rank, y);
    }
    rc = MPI_Reduce(b, rank == 0 ? b : o, 8, MPI_DOUBLE, MPI_SUM, 0, c);
    MPI_Error_class(rc, &cls);
    check(rank != 0 || cls == MPI_ERR_BUFFER, "rank 0: reduce with sendbuf == recvbuf: %d", cls);
    MPI_Comm_free(&c);
}

static void shapes(void)
{
    for (int rep = 0; rep < 3; rep++) {
        sum_doubles(MPI_COMM_WORLD, 8, rep, false, "8 doubles");
        sum_doubles(MPI_COMM_WORLD, 8, rep, true, "8 doubles in place");
        sum_doubles(MPI_COMM_WORLD, 9, rep, false, "9 doubles");
        sum_doubles(MPI_COMM_WORLD, 64, rep, rep % 2, "64 doubles");
    }
    /* the same count, sum, another datatype at each call; then the same
     * datatype, another operation at each call */
    for (int rep = 0; rep < 3; rep++) {
        float f[8], fo[8];
        int k[8], ko[8];
        double d[8], dsum[8], dmin[8], dmax[8];
        for (int i = 0; i < 8; i++)
            f[i] = (float)(rank + i), k[i] = rank * 3 + i + rep, d[i] = rank + i + rep;
        MPI_Allreduce(d, dsum, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(f, fo, 8, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(k, ko, 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(d, dmin, 8, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(d, dmax, 8, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        int bad = 0;
        for (int i = 0; i < 8; i++)
            bad += (fo[i] != (float)(size * i + size * (size - 1) / 2)) +
                   (ko[i] != size * (i + rep) + 3 * size * (size - 1) / 2) +
                   (dsum[i] != size * (i + rep) + size * (size - 1) / 2.0) +
                   (dmin[i] != i + rep) + (dmax[i] != size - 1 + i + rep);
        check(!bad, "rank %d: double, float, int sums, double min, max: %d wrong", rank, bad);
    }
    /* reduce: every root in turn, each repeated */
    for (int root = 0; root < size; root++)
        for (int rep = 0; rep < 3; rep++) {
            double x[3] = {rank + 1, rep, 1}, y[3] = {0, 0, 0};
            MPI_Reduce(x, y, 3, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
            check(rank != root || (y[0] == size * (size + 1) / 2.0 && y[1] == size * rep &&
                                   y[2] == size),
                  "rank %d: reduce to %d: %g %g %g", rank, root, y[0], y[1], y[2]);
        }
}

/* Nonblocking calls of one shape, several in flight, repeated. */
static void nonblocking(void)
{
    enum { K = 4, N = 8 };
    for (int rep = 0; rep < 3; rep++) {
        double in[K][N], out[K][N];
        MPI_Request r[K];
        for (int k = 0; k < K; k++) {
            for (int i = 0; i < N; i++)
                in[k][i] = rank + i + k + rep, out[k][i] = -1;
            MPI_Iallreduce(in[k], out[k], N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[k]);
        }
        MPI_Waitall(K, r, MPI_STATUSES_IGNORE);
        int bad = 0;
        for (int k = 0; k < K; k++)
            for (int i = 0; i < N; i++)
                bad += out[k][i] != size * (double)(i + k + rep) + size * (size - 1) / 2.0;
        check(!bad, "rank %d: %d nonblocking in flight, repeat %d: %d wrong", rank, K, rep, bad);
    }
}

/* MPI_Alltoall of n ints per block (n <= 16) on comm, in place or not,
 * input seed + 100 rank + block, checked; the guard past p blocks must stay
 * untouched. */
static void exchange_ints(MPI_Comm comm, int n, int seed, bool in_place, const char *what)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int *in = malloc((size_t)(p * n + 1) * sizeof *in), *out = malloc((size_t)(p * n + 1) * sizeof *out);
    for (int j = 0; j < p * n; j++) {
        in[j] = seed + 100 * r + 10000 * (j / n) + j % n;
        out[j] = in_place ? in[j] : -1;
    }
    out[p * n] = -7;
    check(MPI_Alltoall(in_place ? MPI_IN_PLACE : in, n, MPI_INT, out, n, MPI_INT, comm) ==
              MPI_SUCCESS,
          "rank %d, %s: alltoall failed", r, what);
    for (int j = 0; j < p * n; j++)
        check(out[j] == seed + 100 * (j / n) + 10000 * r + j % n, "rank %d, %s: block %d element %d",
              r, what, j / n, j % n);
    check(out[p * n] == -7, "rank %d, %s: guard", r, what);
    free(in);
    free(out);
}

/* The alltoall call memo (api/alltoall.c): repeated calls of one shape,
 * then each thing it depends on changed between two calls. */
static void exchanges(void)
{
    setenv("COLIBRI_ALLTOALL_ALGORITHM", "pairwise", 1);
    colibri_config_reload();
    for (int i = 0; i < 4; i++) {
        exchange_ints(MPI_COMM_WORLD, 3, i, i % 2, "repeated, buffers and in place alternating");
        expect(MPI_COMM_WORLD, COLIBRI_ALLTOALL, "pairwise", "repeated");
    }
    for (int i = 0; i < 3; i++)
        exchange_ints(MPI_COMM_WORLD, 1 + i, i, false, "another count");
    setenv("COLIBRI_ALLTOALL_ALGORITHM", "bruck", 1);
    colibri_config_reload();
    for (int i = 0; i < 3; i++) {
        exchange_ints(MPI_COMM_WORLD, 3, i, false, "another algorithm named");
        expect(MPI_COMM_WORLD, COLIBRI_ALLTOALL, "bruck", "another algorithm named");
    }
    for (int i = 0; i < 4; i++) { /* a communicator freed, another split (the old handle) */
        MPI_Comm c;
        MPI_Comm_split(MPI_COMM_WORLD, i % 2 == 0 && size >= 2 ? rank / 2 : rank, rank, &c);
        for (int rep = 0; rep < 3; rep++)
            exchange_ints(c, 2, rep + i, rep == 1, "freed and split again");
        MPI_Comm_free(&c);
    }
    /* arguments the full path refuses, refused by a repeated call too */
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int b[64] = {0}, o[64];
    for (int rep = 0; rep < 3; rep++)
        check(MPI_Alltoall(b, 1, MPI_INT, o, 1, MPI_INT, c) == MPI_SUCCESS, "rank %d: plain",
              rank);
    int cls = MPI_SUCCESS, rc = MPI_Alltoall(b, 1, MPI_INT, b, 1, MPI_INT, c);
    MPI_Error_class(rc, &cls);
    check(size == 1 || cls == MPI_ERR_BUFFER,
          "rank %d: alltoall sendbuf == recvbuf after repeats: class %d", rank, cls);
    rc = MPI_Alltoall(b, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, c);
    MPI_Error_class(rc, &cls);
    check(cls != MPI_SUCCESS, "rank %d: alltoall recvbuf MPI_IN_PLACE after repeats", rank);
    MPI_Comm_free(&c);
    unsetenv("COLIBRI_ALLTOALL_ALGORITHM");
    colibri_config_reload();
    for (int i = 0; i < 3; i++)
        exchange_ints(MPI_COMM_WORLD, 3, i, false, "automatic again");
}

/*
 * Calls of 8 KiB and more read the shape's agreed sparse estimate, which
 * serves a window of calls (32, then doubling while the data stays dense)
 * before the next estimate; the memos serve those calls and count them in
 * the window as the full path would.  2048 doubles (16 KiB; estimated from
 * a shape's second call), online selection off (the model's choice alone):
 * 80 dense calls, 100 with one non-zero per rank, 80 dense again.  Every
 * call's sum exact and its algorithm the same on every rank; the sparse
 * phase must end on a sparse algorithm and the dense phases on dense ones,
 * which happens only if the memo-served calls count in the window (a memo
 * that did not count them, or served past the window's end, would never
 * let a new estimate be made).
 */
static void estimates(void)
{
    setenv("COLIBRI_ONLINE", "0", 1);
    colibri_config_reload();
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    enum { N = 2048 };
    double *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    const char *phase[3] = {"dense", "sparse", "dense again"};
    const int calls[3] = {80, 100, 80};
    int bad = 0, differ = 0;
    bool sparse_last[3] = {false, false, false};
    for (int ph = 0; ph < 3; ph++) {
        for (int i = 0; i < N; i++)
            in[i] = ph == 1 ? (i == rank % N ? 1.0 : 0.0) : (double)(rank + i % 5);
        for (int c = 0; c < calls[ph]; c++) {
            MPI_Allreduce(in, out, N, MPI_DOUBLE, MPI_SUM, comm);
            for (int i = 0; i < N; i++) {
                const double want = ph == 1 ? (i < size ? 1.0 : 0.0)
                                            : (double)size * (i % 5) + size * (size - 1) / 2.0;
                bad += out[i] != want;
            }
            const char *alg = colibri_last_algorithm(comm, COLIBRI_ALLREDUCE);
            unsigned h = 5381;
            for (const char *q = alg ? alg : ""; *q; q++)
                h = h * 33 + (unsigned char)*q;
            unsigned lo = h, hi = h;
            PMPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED, MPI_MIN, comm);
            PMPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED, MPI_MAX, comm);
            differ += lo != hi;
            sparse_last[ph] = alg && strstr(alg, "sparse") != NULL;
        }
    }
    check(!bad, "rank %d: estimates: %d wrong sums", rank, bad);
    check(!differ, "rank %d: estimates: %d calls ran different algorithms on different ranks", rank,
          differ);
    if (size > 1)
        for (int ph = 0; ph < 3; ph++)
            check(sparse_last[ph] == (ph == 1), "rank %d: estimates: the %s phase ended on %s",
                  rank, phase[ph], colibri_last_algorithm(comm, COLIBRI_ALLREDUCE));
    free(in), free(out);
    MPI_Comm_free(&comm);
    unsetenv("COLIBRI_ONLINE");
    colibri_config_reload();
}

int main(int argc, char **argv)
{
    h_init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(path, sizeof path, "/tmp/colibri-call-memo-%d.tuning", (int)getppid());
    shapes();
    user_handles();
    configuration();
    communicators();
    refusals();
    nonblocking();
    exchanges();
    estimates();
    colibri_sparse_hint(MPI_COMM_WORLD, 0.5); /* the choice may change */
    for (int rep = 0; rep < 3; rep++)
        sum_doubles(MPI_COMM_WORLD, 8, rep, false, "after a sparse hint");
    if (rank == 0)
        unlink(path);
    return h_finish();
}
