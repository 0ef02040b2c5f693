// ranks: 1 2 3 4 5 6 7 8
// mpich-ranks: 2
// ompi5-ranks: 1 2 3 4
// mpich5-ranks: 1 2
// impi-ranks: 1 2
// abi-ranks: 1 2
// asan-ranks: 1 3
// env-ranks: COLIBRI_ONLINE_FAKE=random:7,calls=2,window=1 2 3
/*
 * MPI_Scan and MPI_Exscan: every algorithm of the catalog found at run
 * time and forced by name through the C API, then "auto" and "native", on
 * MPI_COMM_WORLD and on a split communicator in reversed rank order,
 * against a serial expectation computed here in rank order:
 *  - counts 0, 1, 2, 7, 131, 1000, in place or not;
 *  - MPI_INT sums, MPI_SIGNED_CHAR sums (wrapping), MPI_UNSIGNED_CHAR
 *    maxima, MPI_FLOAT and MPI_DOUBLE sums of quarters (exact in any
 *    bracketing: compared bitwise), MPI_DOUBLE sums of 1/(k+3) (compared
 *    to 1e-12 relative, and bitwise against a second identical call: an
 *    algorithm's bracketing is a function of p and rank only);
 *  - a user-defined non-commutative operation, 2x2 matrix products over
 *    32-bit unsigned integers (exact, associative), on a contiguous
 *    derived type of 4 MPI_UINT32_T: any combination out of rank order
 *    gives another product;
 *  - a resized MPI_INT of extent two ints under a user-defined sum: the
 *    gaps stay untouched;
 *  - the send buffer is never written; exscan's rank 0 receive buffer is
 *    left as it was (undefined by MPI: checked for colibri's algorithms
 *    only, not where the MPI below ran it);
 *  - colibri_last_algorithm names the forced algorithm; where the MPI
 *    below ran the call (native), its own MPI_Scan is the reference;
 *  - nonblocking (colibri_iscan/iexscan, MPI_Wait) and persistent
 *    (colibri_scan_init/exscan_init, two starts with new data, then
 *    MPI_Request_free) forms, every algorithm;
 *  - the interposed MPI_Scan, MPI_Exscan, MPI_Iscan and MPI_Iexscan with
 *    COLIBRI_<COLL>_ALGORITHM set (colibri_config_reload);
 *  - intercommunicators: every form gives MPI_ERR_COMM through the
 *    communicator's handler, the class Open MPI's and MPICH's own MPI_Scan
 *    give (scan is invalid there; Open MPI 4.1's own MPI_Exscan crashes);
 *  - errors: a negative count (MPI_ERR_COUNT), MPI_OP_NULL (MPI_ERR_OP),
 *    an unknown algorithm (MPI_ERR_ARG), with no buffer touched.
 */
#include <math.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"

#define CHECK_MAX_LINES 20
#include "../lib/check.h"
#include "../lib/algorithms.h"

static int wrank, wsize;

#define CHECK(cond, ...) CHECK_RANKED(wrank, cond, __VA_ARGS__)

#define GUARD 0x5a

static int algorithms(colibri_coll coll, const char **names, int max)
{
    return test_algorithms(coll, false, names, max);
}

/* ---- element kinds: how an element is made, combined and compared ---- */

enum kind { K_INT, K_SCHAR, K_UCHAR_MAX, K_FLOAT_Q, K_DOUBLE_Q, K_DOUBLE_INV, K_MAT, K_RESIZED,
            K_N };
static const char *const kind_names[K_N] = {"int sum",         "signed char sum",
                                            "unsigned char max", "float sum (quarters)",
                                            "double sum (quarters)", "double sum (1/k)",
                                            "2x2 matrix product", "resized int sum"};

static MPI_Op matmul_op, isum_op;
static MPI_Datatype mat_type, resized_int;

/* bytes of one element in a buffer (its extent), and of its data */
static size_t extent_of(enum kind k)
{
    switch (k) {
    case K_INT: return sizeof(int);
    case K_SCHAR:
    case K_UCHAR_MAX: return 1;
    case K_FLOAT_Q: return sizeof(float);
    case K_DOUBLE_Q:
    case K_DOUBLE_INV: return sizeof(double);
    case K_MAT: return 4 * sizeof(uint32_t);
    case K_RESIZED: return 2 * sizeof(int);
    default: return 0;
    }
}

static MPI_Datatype type_of(enum kind k)
{
    switch (k) {
    case K_INT: return MPI_INT;
    case K_SCHAR: return MPI_SIGNED_CHAR;
    case K_UCHAR_MAX: return MPI_UNSIGNED_CHAR;
    case K_FLOAT_Q: return MPI_FLOAT;
    case K_DOUBLE_Q:
    case K_DOUBLE_INV: return MPI_DOUBLE;
    case K_MAT: return mat_type;
    default: return resized_int;
    }
}

static MPI_Op op_of(enum kind k)
{
    return k == K_UCHAR_MAX ? MPI_MAX : k == K_MAT ? matmul_op : k == K_RESIZED ? isum_op : MPI_SUM;
}

static void matmul(const uint32_t *a, uint32_t *b) /* b = a b */
{
    const uint32_t r0 = a[0] * b[0] + a[1] * b[2], r1 = a[0] * b[1] + a[1] * b[3];
    const uint32_t r2 = a[2] * b[0] + a[3] * b[2], r3 = a[2] * b[1] + a[3] * b[3];
    b[0] = r0, b[1] = r1, b[2] = r2, b[3] = r3;
}

static void matmul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        matmul((const uint32_t *)in + 4 * i, (uint32_t *)inout + 4 * i);
}

/* Sums of resized ints (a user operation: Open MPI 4.1 refuses MPI_SUM on
 * a derived type), commutative. */
static void isum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[2 * i] = (int)((unsigned)((int *)inout)[2 * i] + (unsigned)((int *)in)[2 * i]);
}

/* Rank r's element i (seed t: a new input for every call) at p. */
static void put(enum kind k, char *p, int r, int64_t i, int t)
{
    const int v = (int)((r * 131 + i * 7 + t * 17) % 1009) - 300;
    switch (k) {
    case K_INT: *(int *)p = v * 1000 + r; break;
    case K_SCHAR: *(signed char *)p = (signed char)(v * 3 + r); break;
    case K_UCHAR_MAX: *(unsigned char *)p = (unsigned char)(v + 7 * r); break;
    case K_FLOAT_Q: *(float *)p = (float)(v % 64) * 0.25f; break;
    case K_DOUBLE_Q: *(double *)p = v * 0.25; break;
    case K_DOUBLE_INV: *(double *)p = 1.0 / (double)(v + 400 + r); break;
    case K_MAT: {
        uint32_t *m = (uint32_t *)p;
        m[0] = (uint32_t)(v + 3 * r), m[1] = (uint32_t)(r + 1), m[2] = (uint32_t)(v * r + 2);
        m[3] = (uint32_t)(i + 5);
        break;
    }
    case K_RESIZED: *(int *)p = v + r; break; /* the gap after it is left alone */
    default: break;
    }
}

/* acc = x (op) acc's right operand... here: acc = acc (op) x, acc the left */
static void combine_right(enum kind k, char *acc, const char *x)
{
    switch (k) {
    case K_INT:
    case K_RESIZED: *(int *)acc = (int)((unsigned)*(int *)acc + (unsigned)*(const int *)x); break;
    case K_SCHAR:
        *(signed char *)acc = (signed char)(*(signed char *)acc + *(const signed char *)x);
        break;
    case K_UCHAR_MAX:
        if (*(const unsigned char *)x > *(unsigned char *)acc)
            *(unsigned char *)acc = *(const unsigned char *)x;
        break;
    case K_FLOAT_Q: *(float *)acc += *(const float *)x; break;
    case K_DOUBLE_Q:
    case K_DOUBLE_INV: *(double *)acc += *(const double *)x; break;
    case K_MAT: {
        uint32_t t[4];
        memcpy(t, x, sizeof t);
        matmul((const uint32_t *)acc, t); /* t = acc x */
        memcpy(acc, t, sizeof t);
        break;
    }
    default: break;
    }
}

static bool same(enum kind k, const char *got, const char *want)
{
    if (k == K_DOUBLE_INV) {
        const double g = *(const double *)got, w = *(const double *)want;
        return fabs(g - w) <= 1e-12 * fabs(w);
    }
    return memcmp(got, want, k == K_RESIZED ? sizeof(int) : extent_of(k)) == 0;
}

/* ---- one call ---- */

enum form { F_BLOCKING, F_NONBLOCKING, F_PERSISTENT };

static int call(colibri_coll coll, enum form f, const void *s, void *r, int n, enum kind k,
                MPI_Comm comm, const char *alg, MPI_Request *req)
{
    const MPI_Datatype dt = type_of(k);
    const MPI_Op op = op_of(k);
    const bool sc = coll == COLIBRI_SCAN;
    if (f == F_BLOCKING)
        return sc ? colibri_scan(s, r, n, dt, op, comm, alg)
                  : colibri_exscan(s, r, n, dt, op, comm, alg);
    if (f == F_NONBLOCKING)
        return sc ? colibri_iscan(s, r, n, dt, op, comm, alg, req)
                  : colibri_iexscan(s, r, n, dt, op, comm, alg, req);
    return sc ? colibri_scan_init(s, r, n, dt, op, comm, alg, req)
              : colibri_exscan_init(s, r, n, dt, op, comm, alg, req);
}

/* Fills this rank's buffers for seed t: input (sbuf, or rbuf in place), the
 * output with GUARD, the expected prefix into want.  Returns whether this
 * rank has a result (exscan's rank 0 has none). */
static bool prepare(colibri_coll coll, enum kind k, int n, int t, bool in_place, int rank,
                    char *sbuf, char *rbuf, char *want)
{
    const size_t ext = extent_of(k), bytes = (size_t)n * ext;
    memset(sbuf, GUARD, bytes + 1);
    memset(rbuf, GUARD, bytes + 1);
    for (int64_t i = 0; i < n; i++)
        put(k, (in_place ? rbuf : sbuf) + i * ext, rank, i, t);
    const int last = coll == COLIBRI_SCAN ? rank : rank - 1;
    char x[16];
    for (int64_t i = 0; i < n && last >= 0; i++) {
        put(k, want + i * ext, 0, i, t);
        for (int q = 1; q <= last; q++) {
            put(k, x, q, i, t);
            combine_right(k, want + i * ext, x);
        }
    }
    return last >= 0;
}

/* Checks this rank's output after a call with seed t; `before` is what
 * rbuf held before the call (rank 0 of an exscan keeps it). */
static void verify(enum kind k, int n, bool has, bool colibri_ran, const char *rbuf,
                   const char *before, const char *want, const char *what)
{
    const size_t ext = extent_of(k), bytes = (size_t)n * ext;
    if (!has) {
        if (colibri_ran)
            CHECK(memcmp(rbuf, before, bytes + 1) == 0, "%s: exscan rank 0's buffer changed",
                  what);
        return;
    }
    int64_t bad = -1;
    for (int64_t i = 0; i < n && bad < 0; i++) {
        if (!same(k, rbuf + i * ext, want + i * ext))
            bad = i;
        if (k == K_RESIZED) /* the gap after the int */
            for (size_t b = sizeof(int); b < ext; b++)
                if ((unsigned char)rbuf[i * ext + b] != GUARD)
                    bad = i;
    }
    CHECK(bad < 0, "%s: element %lld wrong", what, (long long)bad);
    CHECK((unsigned char)rbuf[bytes] == GUARD, "%s: wrote past the buffer", what);
}

static char *sbuf, *rbuf, *want, *before, *first;

static void one_case(MPI_Comm comm, const char *cname, colibri_coll coll, const char *alg,
                     enum kind k, int n, bool in_place, enum form f, int t)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    char what[256];
    snprintf(what, sizeof what, "%s %s %s %s n=%d%s %s", cname, colibri_coll_name(coll),
             alg ? alg : "auto", kind_names[k], n, in_place ? " in-place" : "",
             f == F_BLOCKING ? "blocking" : f == F_NONBLOCKING ? "nonblocking" : "persistent");
    const size_t bytes = (size_t)n * extent_of(k);
    MPI_Request req = MPI_REQUEST_NULL;
    const int starts = f == F_PERSISTENT ? 2 : 1;
    for (int st = 0; st < starts; st++) {
        bool has = prepare(coll, k, n, t + st, in_place, rank, sbuf, rbuf, want);
        memcpy(before, rbuf, bytes + 1);
        char *sent = malloc(bytes + 1);
        memcpy(sent, sbuf, bytes + 1);
        int rc;
        if (f == F_PERSISTENT) {
            rc = st == 0 ? call(coll, f, in_place ? MPI_IN_PLACE : sbuf, rbuf, n, k, comm, alg,
                                &req)
                         : MPI_SUCCESS;
            if (rc == MPI_SUCCESS)
                rc = MPI_Start(&req);
            if (rc == MPI_SUCCESS)
                rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            rc = call(coll, f, in_place ? MPI_IN_PLACE : sbuf, rbuf, n, k, comm, alg, &req);
            if (rc == MPI_SUCCESS && f == F_NONBLOCKING)
                rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
        const char *ran = colibri_last_algorithm(comm, coll);
        if (alg && n > 0)
            CHECK(ran && strcmp(ran, alg) == 0, "%s: last algorithm %s", what,
                  ran ? ran : "(none)");
        const bool colibri_ran = ran && strcmp(ran, "native") != 0;
        if (!colibri_ran) /* the MPI below ran it: its own result is the reference (MPICH
                           * 4.0's unsigned char MAX is wrong) */
            (coll == COLIBRI_SCAN ? PMPI_Scan : PMPI_Exscan)(in_place ? before : sbuf, want, n,
                                                            type_of(k), op_of(k), comm);
        verify(k, n, has, colibri_ran, rbuf, before, want, what);
        if (!in_place)
            CHECK(memcmp(sbuf, sent, bytes + 1) == 0, "%s: the send buffer changed", what);
        /* the same call again gives the same bits (1/k sums: not exact) */
        if (k == K_DOUBLE_INV && f == F_BLOCKING && has) {
            memcpy(first, rbuf, bytes);
            prepare(coll, k, n, t, in_place, rank, sbuf, rbuf, want);
            rc = call(coll, f, in_place ? MPI_IN_PLACE : sbuf, rbuf, n, k, comm, alg, &req);
            /* automatic selection may explore another algorithm the second time */
            const char *again = colibri_last_algorithm(comm, coll);
            CHECK(rc == MPI_SUCCESS && (memcmp(first, rbuf, bytes) == 0 ||
                                        (!alg && (!ran || !again || strcmp(ran, again) != 0))),
                  "%s: a second identical call gives other bits", what);
        } else if (k == K_DOUBLE_INV && f == F_BLOCKING) {
            /* exscan's rank 0 still takes part in the second call */
            prepare(coll, k, n, t, in_place, rank, sbuf, rbuf, want);
            call(coll, f, in_place ? MPI_IN_PLACE : sbuf, rbuf, n, k, comm, alg, &req);
        }
        free(sent);
    }
    if (f == F_PERSISTENT && req != MPI_REQUEST_NULL)
        MPI_Request_free(&req);
}

static void test_comm(MPI_Comm comm, const char *cname)
{
    static const int counts[] = {0, 1, 2, 7, 131, 1000};
    const colibri_coll colls[] = {COLIBRI_SCAN, COLIBRI_EXSCAN};
    int t = 0;
    for (int c = 0; c < 2; c++) {
        const char *names[16];
        const int nalg = algorithms(colls[c], names, 16);
        for (int a = 0; a < nalg; a++)
            for (int k = 0; k < K_N; k++)
                for (unsigned ci = 0; ci < sizeof counts / sizeof *counts; ci++)
                    for (int ip = 0; ip < 2; ip++)
                        one_case(comm, cname, colls[c], names[a], (enum kind)k, counts[ci], ip,
                                 F_BLOCKING, t++);
        /* nonblocking and persistent: every algorithm, fewer shapes */
        for (int a = 0; a < nalg; a++)
            for (int f = F_NONBLOCKING; f <= F_PERSISTENT; f++) {
#if MPI_VERSION < 4
                if (f == F_PERSISTENT && names[a] && strcmp(names[a], "native") == 0)
                    continue; /* no persistent collectives below to hand it to */
#endif
                one_case(comm, cname, colls[c], names[a], K_MAT, 131, false, (enum form)f, t++);
                one_case(comm, cname, colls[c], names[a], K_INT, 7, true, (enum form)f, t++);
                one_case(comm, cname, colls[c], names[a], K_RESIZED, 1000, false, (enum form)f,
                         t++);
            }
    }
}

/* ---- the interposed entry points ---- */

static void test_interposed(void)
{
    const char *vars[] = {"COLIBRI_SCAN_ALGORITHM", "COLIBRI_EXSCAN_ALGORITHM"};
    const colibri_coll colls[] = {COLIBRI_SCAN, COLIBRI_EXSCAN};
    int t = 5000;
    for (int c = 0; c < 2; c++) {
        const char *names[16];
        const int nalg = algorithms(colls[c], names, 16);
        for (int a = 0; a < nalg - 2; a++) {
            setenv(vars[c], names[a], 1);
            colibri_config_reload();
            for (int nb = 0; nb < 2; nb++) {
                const int n = 9;
                const bool has = prepare(colls[c], K_MAT, n, t, false, wrank, sbuf, rbuf, want);
                memcpy(before, rbuf, (size_t)n * extent_of(K_MAT) + 1);
                MPI_Request req;
                int rc;
                if (colls[c] == COLIBRI_SCAN)
                    rc = nb ? MPI_Iscan(sbuf, rbuf, n, mat_type, matmul_op, MPI_COMM_WORLD, &req)
                            : MPI_Scan(sbuf, rbuf, n, mat_type, matmul_op, MPI_COMM_WORLD);
                else
                    rc = nb ? MPI_Iexscan(sbuf, rbuf, n, mat_type, matmul_op, MPI_COMM_WORLD, &req)
                            : MPI_Exscan(sbuf, rbuf, n, mat_type, matmul_op, MPI_COMM_WORLD);
                if (nb && rc == MPI_SUCCESS)
                    rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
                char what[128];
                snprintf(what, sizeof what, "interposed %s%s, %s=%s", nb ? "I" : "",
                         colibri_coll_name(colls[c]), vars[c], names[a]);
                CHECK(rc == MPI_SUCCESS, "%s: rc %d", what, rc);
                verify(K_MAT, n, has, true, rbuf, before, want, what);
                const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, colls[c]);
                CHECK(ran && strcmp(ran, names[a]) == 0, "%s: ran %s", what,
                      ran ? ran : "(none)");
                t++;
            }
            unsetenv(vars[c]);
        }
    }
    colibri_config_reload();
}

/* ---- intercommunicators: MPI_ERR_COMM ---- */

static void test_intercomm(void)
{
    if (wsize < 2)
        return;
    MPI_Comm local, inter;
    const int color = wrank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 77, &inter);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    /* MPI_ERR_COMM: what Open MPI 4.1 and 5 and MPICH 4 give for their own
     * MPI_Scan there (not asked here: Intel's libmpi_abi.so aborts on any
     * error of its own, and Open MPI 4.1's MPI_Exscan crashes) */
    int in[4] = {1, 2, 3, 4}, out[4] = {GUARD, GUARD, GUARD, GUARD}, cls[6];
    MPI_Request req = MPI_REQUEST_NULL;
    const int rc[6] = {MPI_Scan(in, out, 4, MPI_INT, MPI_SUM, inter),
                       MPI_Exscan(in, out, 4, MPI_INT, MPI_SUM, inter),
                       MPI_Iscan(in, out, 4, MPI_INT, MPI_SUM, inter, &req),
                       MPI_Iexscan(in, out, 4, MPI_INT, MPI_SUM, inter, &req),
                       colibri_scan(in, out, 4, MPI_INT, MPI_SUM, inter, "recursive_doubling"),
                       colibri_exscan_init(in, out, 4, MPI_INT, MPI_SUM, inter, NULL, &req)};
    for (int i = 0; i < 6; i++) {
        PMPI_Error_class(rc[i], &cls[i]);
        CHECK(cls[i] == MPI_ERR_COMM, "scan call %d on an intercommunicator: class %d", i,
              cls[i]);
    }
    CHECK(req == MPI_REQUEST_NULL && out[0] == GUARD && out[3] == GUARD,
          "a refused intercommunicator call touched its request or buffer");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

/* ---- errors, nothing touched ---- */

static void test_errors(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int in[4] = {1, 2, 3, 4}, buf[4] = {GUARD, GUARD, GUARD, GUARD}, cls = 0;
    int rc = colibri_scan(in, buf, -1, MPI_INT, MPI_SUM, c, NULL);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "scan count -1: class %d", cls);
    rc = colibri_exscan(in, buf, 4, MPI_INT, MPI_OP_NULL, c, "linear");
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OP, "exscan MPI_OP_NULL: class %d", cls);
    rc = colibri_scan(in, buf, 4, MPI_INT, MPI_SUM, c, "bogus");
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "scan 'bogus': class %d", cls);
    MPI_Request req = MPI_REQUEST_NULL;
    rc = colibri_iexscan(in, buf, 4, MPI_INT, MPI_SUM, c, "bogus", &req);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG && req == MPI_REQUEST_NULL, "iexscan 'bogus': class %d", cls);
    bool untouched = true;
    for (int i = 0; i < 4; i++)
        untouched = untouched && buf[i] == GUARD;
    CHECK(untouched, "a refused call wrote its buffer");
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Op_create(matmul_fn, 0, &matmul_op);
    MPI_Op_create(isum_fn, 1, &isum_op);
    MPI_Type_contiguous(4, MPI_UINT32_T, &mat_type);
    MPI_Type_commit(&mat_type);
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &resized_int);
    MPI_Type_commit(&resized_int);
    const size_t most = 1000 * 16 + 1;
    sbuf = malloc(most), rbuf = malloc(most), want = malloc(most), before = malloc(most);
    first = malloc(most);

    MPI_Comm reversed;
    MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - wrank, &reversed);
    test_comm(MPI_COMM_WORLD, "world");
    test_comm(reversed, "reversed");
    test_interposed();
    test_intercomm();
    test_errors();
    MPI_Comm_free(&reversed);

    free(sbuf), free(rbuf), free(want), free(before), free(first);
    MPI_Type_free(&mat_type);
    MPI_Type_free(&resized_int);
    MPI_Op_free(&matmul_op);
    MPI_Op_free(&isum_op);
    long long v[2] = {check_passed, check_failed}, tot[2];
    PMPI_Allreduce(v, tot, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0)
        check_print_totals(tot[0], tot[1]);
    MPI_Finalize();
    return tot[1] ? 1 : 0;
}
