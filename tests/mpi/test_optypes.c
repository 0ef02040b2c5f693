// ranks: 1 2 3 4
// mpich-ranks: 2
// ompi5-ranks: 1 2 3 4
// mpich5-ranks: 1 2
// impi-ranks: 1 2
// abi-ranks: 1 2
/*
 * colibri accepts at least every (operation, datatype) pair the MPI below
 * accepts, and refuses the others as the MPI does.
 *
 * For every predefined reduction operation (MPI_MAX ... MPI_MINLOC) on
 * every predefined datatype this MPI has, the MPI below is asked whether it
 * takes the pair: PMPI_Reduce_local on one element with errors returned.
 *
 * An accepted pair must run through colibri's MPI_Allreduce, MPI_Reduce,
 * MPI_Reduce_scatter_block, MPI_Iallreduce (and MPI_Allreduce_init on an
 * MPI-4 library), and colibri_allreduce with a named algorithm, with no
 * error.  (On an MPI-3 library colibri_allreduce_init must run the pairs
 * colibri has a kernel for and refuse the others with
 * MPI_ERR_UNSUPPORTED_OPERATION: there is no persistent call below.)  Where colibri handed the call to the MPI below
 * (colibri_last_algorithm says "native": colibri has no kernel for the
 * pair) the results must equal a serial reference computed with
 * PMPI_Reduce_local in rank order: the MPI's semantics are the truth for
 * the pairs only it defines.  Where colibri ran its own kernel, test_matrix
 * already checks the values against an independent reference, and the MPI
 * below is known to be wrong for some (DEVELOPERS.md), so here the results
 * must only agree across ranks and between the calls.
 *
 * A refused pair must get from each colibri call the error class the MPI
 * below gives for the same call (PMPI_*, MPI_ERRORS_RETURN), with no user
 * buffer touched.  The one exception allowed is a pair colibri has a
 * kernel for and the MPI refuses: colibri keeps its kernel (counted and
 * listed, not failed).
 *
 * Rank 0 prints, per datatype, the operations the MPI accepts, each marked
 * k (colibri's kernel) or n (handed to the MPI below), those colibri
 * serves though the MPI refuses them (marked !), and those the MPI's check
 * accepts but its MPI_Reduce_local dies on (marked X: MPICH 4.0's logical
 * operations on reals; colibri has no kernel for them and hands them to
 * the MPI, which dies as it would without colibri, so they are not run)
 * and those whose MPI_Reduce_local and MPI_Allreduce disagree (marked ?:
 * MPICH 4.0's logical operations on Fortran reals; colibri's calls must
 * succeed, and their values are not checked).
 */
#include "harness.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <stddef.h>

/* ---- the operations --------------------------------------------------- */

static const struct {
    const char *name;
    MPI_Op op;
} ops[] = {
#define OP(o) {#o, o}
    OP(MPI_MAX),  OP(MPI_MIN),  OP(MPI_SUM),  OP(MPI_PROD), OP(MPI_LAND),   OP(MPI_BAND),
    OP(MPI_LOR),  OP(MPI_BOR),  OP(MPI_LXOR), OP(MPI_BXOR), OP(MPI_MAXLOC), OP(MPI_MINLOC),
#undef OP
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

/* ---- the datatypes: how an element is laid out ------------------------ */

/* A field of an element: an integer ('i', any size), a real ('f' float,
 * 'd' double, 'L' long double: 10 bytes that mean something, 'q' a
 * 16-byte binary128, 'r' by the type's size), at byte offset off. */
struct field {
    char kind;
    unsigned off, size;
};

struct ty {
    const char *name;
    MPI_Datatype dt;
    int nfields;
    struct field f[2];
    bool logical;   /* values 0 and 1 only */
    bool half;      /* complex and the Fortran pairs: two fields of half the size */
    bool pair;      /* MAXLOC/MINLOC pair: field 1 is the index */
    MPI_Aint extent;
};

#define MAX_TYPES 96
static struct ty types[MAX_TYPES];
static int ntypes;

static void put_field(const struct field *f, void *p, long v);

/* A 16-byte Fortran real is binary128 in gfortran, but the MPI may compute
 * it as the C long double (x87's 80 bits in 16 bytes): 1 + 2 tells. */
static bool quad_is_binary128(const struct ty *t)
{
    char a[64] = {0}, b[64] = {0}, three[64] = {0};
    for (int k = 0; k < t->nfields; k++) {
        put_field(&t->f[k], a + t->f[k].off, 1);
        put_field(&t->f[k], b + t->f[k].off, 2);
        put_field(&t->f[k], three + t->f[k].off, 3);
    }
    return PMPI_Reduce_local(a, b, 1, t->dt, MPI_SUM) == MPI_SUCCESS &&
           memcmp(b, three, t->f[0].size) == 0;
}

static void add(const char *name, MPI_Datatype dt, int nfields, struct field f0, struct field f1,
                bool logical, bool half, bool pair)
{
    int size = 0;
    MPI_Aint lb = 0, extent = 0;
    /* absent types: MPI_DATATYPE_NULL, or a handle of size 0 (Fortran types
     * of a build without that Fortran kind) */
    if (dt == MPI_DATATYPE_NULL || PMPI_Type_size(dt, &size) != MPI_SUCCESS || size <= 0 ||
        PMPI_Type_get_extent(dt, &lb, &extent) != MPI_SUCCESS)
        return;
    for (int i = 0; i < ntypes; i++)
        if (types[i].dt == dt) /* an alias of a type already listed */
            return;
    struct ty t = {name, dt, nfields, {f0, f1}, logical, half, pair, extent};
    if (half) { /* the field sizes come from the MPI's size */
        t.f[0].size = t.f[1].size = (unsigned)size / 2;
        t.f[1].off = (unsigned)size / 2;
    } else if (nfields == 1 && f0.size == 0) {
        t.f[0].size = (unsigned)size;
    }
    for (int i = 0; i < t.nfields; i++)
        if (t.f[i].kind == 'r') {
            const unsigned s = t.f[i].size;
            t.f[i].kind = s == 4 ? 'f' : s == 8 ? 'd' : s == 16 ? 'q' : '?';
            if (t.f[i].kind == '?')
                return; /* REAL2 and the like: not generated here */
        }
    if (t.f[0].kind == 'q' && !quad_is_binary128(&t))
        t.f[0].kind = t.f[1].kind = 'L';
    if (ntypes < MAX_TYPES)
        types[ntypes++] = t;
}

#define FLD(k, o, s) ((struct field){k, (unsigned)(o), (unsigned)(s)})
#define NOF FLD(0, 0, 0)
#define INT_T(dt) add(#dt, dt, 1, FLD('i', 0, 0), NOF, false, false, false)
#define BOOL_T(dt) add(#dt, dt, 1, FLD('i', 0, 0), NOF, true, false, false)
#define REAL_T(dt, k, T) add(#dt, dt, 1, FLD(k, 0, sizeof(T)), NOF, false, false, false)
#define FREAL_T(dt) add(#dt, dt, 1, FLD('r', 0, 0), NOF, false, false, false)
#define CPLX_T(dt, k, T) \
    add(#dt, dt, 2, FLD(k, 0, sizeof(T)), FLD(k, sizeof(T), sizeof(T)), false, false, false)
#define FCPLX_T(dt) add(#dt, dt, 2, FLD('r', 0, 0), FLD('r', 0, 0), false, true, false)
#define PAIR_T(dt, k, V)                                                                      \
    do {                                                                                      \
        struct p_ { V v; int i; };                                                           \
        add(#dt, dt, 2, FLD(k, 0, sizeof(V)), FLD('i', offsetof(struct p_, i), sizeof(int)),  \
            false, false, true);                                                              \
    } while (0)
#define FPAIR_T(dt, k) add(#dt, dt, 2, FLD(k, 0, 0), FLD(k, 0, 0), false, true, true)

static void types_init(void)
{
    /* C integers, characters and bytes */
    INT_T(MPI_CHAR);
    INT_T(MPI_SIGNED_CHAR);
    INT_T(MPI_UNSIGNED_CHAR);
    INT_T(MPI_BYTE);
    INT_T(MPI_WCHAR);
    INT_T(MPI_SHORT);
    INT_T(MPI_UNSIGNED_SHORT);
    INT_T(MPI_INT);
    INT_T(MPI_UNSIGNED);
    INT_T(MPI_LONG);
    INT_T(MPI_UNSIGNED_LONG);
    INT_T(MPI_LONG_LONG_INT);
    INT_T(MPI_LONG_LONG);
    INT_T(MPI_UNSIGNED_LONG_LONG);
    INT_T(MPI_INT8_T);
    INT_T(MPI_INT16_T);
    INT_T(MPI_INT32_T);
    INT_T(MPI_INT64_T);
    INT_T(MPI_UINT8_T);
    INT_T(MPI_UINT16_T);
    INT_T(MPI_UINT32_T);
    INT_T(MPI_UINT64_T);
    INT_T(MPI_AINT);
    INT_T(MPI_OFFSET);
    INT_T(MPI_COUNT);
    INT_T(MPI_PACKED);
    /* reals, booleans, complex */
    REAL_T(MPI_FLOAT, 'f', float);
    REAL_T(MPI_DOUBLE, 'd', double);
    REAL_T(MPI_LONG_DOUBLE, 'L', long double);
    BOOL_T(MPI_C_BOOL);
    CPLX_T(MPI_C_COMPLEX, 'f', float);
    CPLX_T(MPI_C_FLOAT_COMPLEX, 'f', float);
    CPLX_T(MPI_C_DOUBLE_COMPLEX, 'd', double);
    CPLX_T(MPI_C_LONG_DOUBLE_COMPLEX, 'L', long double);
#ifdef MPI_CXX_BOOL
    BOOL_T(MPI_CXX_BOOL);
#endif
#ifdef MPI_CXX_FLOAT_COMPLEX
    CPLX_T(MPI_CXX_FLOAT_COMPLEX, 'f', float);
#endif
#ifdef MPI_CXX_DOUBLE_COMPLEX
    CPLX_T(MPI_CXX_DOUBLE_COMPLEX, 'd', double);
#endif
#ifdef MPI_CXX_LONG_DOUBLE_COMPLEX
    CPLX_T(MPI_CXX_LONG_DOUBLE_COMPLEX, 'L', long double);
#endif
    /* MAXLOC/MINLOC pairs */
    PAIR_T(MPI_FLOAT_INT, 'f', float);
    PAIR_T(MPI_DOUBLE_INT, 'd', double);
    PAIR_T(MPI_LONG_INT, 'i', long);
    PAIR_T(MPI_2INT, 'i', int);
    PAIR_T(MPI_SHORT_INT, 'i', short);
    PAIR_T(MPI_LONG_DOUBLE_INT, 'L', long double);
    /* Fortran */
#ifdef MPI_CHARACTER
    INT_T(MPI_CHARACTER);
#endif
    INT_T(MPI_INTEGER);
    FREAL_T(MPI_REAL);
    FREAL_T(MPI_DOUBLE_PRECISION);
    BOOL_T(MPI_LOGICAL);
    FCPLX_T(MPI_COMPLEX);
    FCPLX_T(MPI_DOUBLE_COMPLEX);
    FPAIR_T(MPI_2REAL, 'r');
    FPAIR_T(MPI_2DOUBLE_PRECISION, 'r');
    FPAIR_T(MPI_2INTEGER, 'i');
#ifdef MPI_INTEGER1
    INT_T(MPI_INTEGER1);
#endif
#ifdef MPI_INTEGER2
    INT_T(MPI_INTEGER2);
#endif
#ifdef MPI_INTEGER4
    INT_T(MPI_INTEGER4);
#endif
#ifdef MPI_INTEGER8
    INT_T(MPI_INTEGER8);
#endif
#ifdef MPI_INTEGER16
    INT_T(MPI_INTEGER16);
#endif
#ifdef MPI_REAL2
    FREAL_T(MPI_REAL2);
#endif
#ifdef MPI_REAL4
    FREAL_T(MPI_REAL4);
#endif
#ifdef MPI_REAL8
    FREAL_T(MPI_REAL8);
#endif
#ifdef MPI_REAL16
    FREAL_T(MPI_REAL16);
#endif
#ifdef MPI_COMPLEX8
    FCPLX_T(MPI_COMPLEX8);
#endif
#ifdef MPI_COMPLEX16
    FCPLX_T(MPI_COMPLEX16);
#endif
#ifdef MPI_COMPLEX32
    FCPLX_T(MPI_COMPLEX32);
#endif
#ifdef MPI_LOGICAL1
    BOOL_T(MPI_LOGICAL1);
#endif
#ifdef MPI_LOGICAL2
    BOOL_T(MPI_LOGICAL2);
#endif
#ifdef MPI_LOGICAL4
    BOOL_T(MPI_LOGICAL4);
#endif
#ifdef MPI_LOGICAL8
    BOOL_T(MPI_LOGICAL8);
#endif
}

/* ---- values ----------------------------------------------------------- */

/* Small non-negative values, so that every sum and product over 4 ranks is
 * exact and in range in every type (MPI_CHAR's signedness and the 8-bit
 * wraparound are test_matrix's business, not this test's). */
static long value_at(const struct ty *t, int field, int rank, int64_t elem)
{
    if (t->pair && field == 1)
        return (rank + elem) % 3; /* an index, with ties in the value */
    const long v = (long)((rank * 5 + elem * 3 + field * 2 + 1) % 4);
    return t->logical ? v % 2 : v;
}

static void put_field(const struct field *f, void *p, long v)
{
    switch (f->kind) {
    case 'i': { /* little-endian small integer of any width */
        memset(p, 0, f->size);
        uint64_t u = (uint64_t)v;
        memcpy(p, &u, f->size < 8 ? f->size : 8);
        break;
    }
    case 'f': { float x = (float)v; memcpy(p, &x, sizeof x); break; }
    case 'd': { double x = (double)v; memcpy(p, &x, sizeof x); break; }
    case 'L': { long double x = (long double)v; memset(p, 0, sizeof x); memcpy(p, &x, 10); break; }
    case 'q': {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
        __float128 x = (__float128)v;
        memcpy(p, &x, sizeof x);
#else
        long double x = (long double)v;
        memset(p, 0, 16);
        memcpy(p, &x, sizeof x < 16 ? sizeof x : 16);
#endif
        break;
    }
    }
}

/* A field's value as bytes that compare equal exactly when the values do:
 * an integer's bytes; a real's value plus 0, which makes -0.0 +0.0 (the
 * sign of a zero in a complex product depends on the bracketing) and
 * drops long double's padding.  Returns the number of bytes. */
static unsigned canonical(const struct field *f, const char *p, unsigned char *out)
{
    switch (f->kind) {
    case 'f': {
        float x;
        memcpy(&x, p, sizeof x);
        x += 0.0f;
        memcpy(out, &x, sizeof x);
        return sizeof x;
    }
    case 'd': {
        double x;
        memcpy(&x, p, sizeof x);
        x += 0.0;
        memcpy(out, &x, sizeof x);
        return sizeof x;
    }
    case 'L': {
        long double x;
        memcpy(&x, p, sizeof x);
        x += 0.0L;
        memcpy(out, &x, 10);
        return 10;
    }
    default: memcpy(out, p, f->size); return f->size;
    }
}

static void fill(const struct ty *t, int rank, int64_t n, char *buf)
{
    memset(buf, 0, (size_t)(n * t->extent));
    for (int64_t e = 0; e < n; e++)
        for (int k = 0; k < t->nfields; k++)
            put_field(&t->f[k], buf + e * t->extent + t->f[k].off, value_at(t, k, rank, e));
}

/* Whether elements [0, n) of a and b carry the same values (first differing
 * element in *at). */
static bool same(const struct ty *t, const char *a, const char *b, int64_t n, int64_t *at)
{
    unsigned char ca[64], cb[64];
    for (int64_t e = 0; e < n; e++)
        for (int k = 0; k < t->nfields; k++) {
            const size_t o = (size_t)(e * t->extent) + t->f[k].off;
            const unsigned len = canonical(&t->f[k], a + o, ca);
            canonical(&t->f[k], b + o, cb);
            if (memcmp(ca, cb, len) != 0) {
                *at = e;
                return false;
            }
        }
    return true;
}

static uint64_t digest(const struct ty *t, const char *a, int64_t n)
{
    uint64_t h = 1469598103934665603ull;
    unsigned char c[64];
    for (int64_t e = 0; e < n; e++)
        for (int k = 0; k < t->nfields; k++) {
            const unsigned len = canonical(&t->f[k], a + e * t->extent + t->f[k].off, c);
            for (unsigned i = 0; i < len; i++)
                h = (h ^ c[i]) * 1099511628211ull;
        }
    return h;
}

/* ---- the checks ------------------------------------------------------- */

#define BLOCK 2            /* reduce_scatter_block's count per rank */
#define MAX_P 8
#define MAX_ELEMS (BLOCK * MAX_P)
#define ELEM_BYTES 64      /* every predefined type's extent is at most this */
#define BUF_BYTES (MAX_ELEMS * ELEM_BYTES)

static MPI_Comm comm;
static int rank, size;
static int64_t m; /* elements per call: BLOCK * size */

/* stderr off (on: true) while calls print the error line expected of them,
 * and back (false) */
static int saved_stderr = -1;
static void quiet(bool on)
{
    fflush(stderr);
    if (on == (saved_stderr >= 0))
        return;
    if (on) {
        saved_stderr = dup(2);
        int nul = open("/dev/null", O_WRONLY);
        dup2(nul, 2);
        close(nul);
    } else {
        dup2(saved_stderr, 2);
        close(saved_stderr);
        saved_stderr = -1;
    }
}

static int cls_of(int rc)
{
    int c = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    return c;
}

/* Does the MPI below take op on t?  PROBE_CRASH: the MPI accepts it but
 * dies computing it (MPICH 4.0 asserts in MPI_Reduce_local on some pairs
 * its own check lets through), so the probe runs in a child process, cut
 * off from the process manager so that its death kills nothing else. */
enum { PROBE_REFUSED, PROBE_ACCEPTED, PROBE_CRASH };
static int probe(const struct ty *t, MPI_Op op)
{
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid == 0) {
        const char *pmi = getenv("PMI_FD"); /* MPICH's hydra: an abort would end the job */
        if (pmi)
            close(atoi(pmi));
        int nul = open("/dev/null", O_WRONLY);
        dup2(nul, 1);
        dup2(nul, 2);
        static char in[ELEM_BYTES], io[ELEM_BYTES];
        fill(t, 0, 1, in);
        fill(t, 1, 1, io);
        _exit(PMPI_Reduce_local(in, io, 1, t->dt, op) == MPI_SUCCESS ? 42 : 43);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return PROBE_CRASH;
    return WIFEXITED(st) && WEXITSTATUS(st) == 42   ? PROBE_ACCEPTED
           : WIFEXITED(st) && WEXITSTATUS(st) == 43 ? PROBE_REFUSED
                                                     : PROBE_CRASH;
}

static int n_accepted, n_kernel, n_native, n_refused, n_colibri_only, n_crash, n_inconsistent;

static void check_accepted(const struct ty *t, int o, char *mark)
{
    const MPI_Op op = ops[o].op;
    static char sb[BUF_BYTES], rb[BUF_BYTES], ref[BUF_BYTES], tmp[BUF_BYTES];
    fill(t, rank, m, sb);
    memset(rb, 0, sizeof rb);

    /* MPI_Allreduce: its route decides what the results are checked against */
    int rc = MPI_Allreduce(sb, rb, (int)m, t->dt, op, comm);
    const char *alg = colibri_last_algorithm(comm, COLIBRI_ALLREDUCE);
    const bool native = alg && strcmp(alg, "native") == 0;
    int nat_all[2] = {native, !native}, nat_max[2];
    PMPI_Allreduce(nat_all, nat_max, 2, MPI_INT, MPI_MAX, comm);
    h_record(comm, rc == MPI_SUCCESS && !(nat_max[0] && nat_max[1]),
             "MPI_Allreduce %s on %s: error class %d, ran '%s' (native on some ranks only: %d)",
             ops[o].name, t->name, cls_of(rc), alg ? alg : "(none)", nat_max[0] && nat_max[1]);
    *mark = native ? 'n' : 'k';
    n_accepted++;
    native ? n_native++ : n_kernel++;

    bool values = true; /* whether the values are checked */
    if (native) { /* the serial reference, in rank order: x0 op (x1 op (...)) */
        fill(t, size - 1, m, ref);
        for (int r = size - 2; r >= 0; r--) {
            fill(t, r, m, tmp);
            PMPI_Reduce_local(tmp, ref, (int)m, t->dt, op);
        }
        /* ... which the MPI's own allreduce must give too, or the MPI
         * disagrees with itself (MPICH 4.0's logical operations on Fortran
         * reals) and there is no truth to check colibri's values against:
         * the calls must then only succeed, as they do without colibri */
        int64_t at = 0;
        memset(tmp, 0, sizeof tmp);
        int mine = PMPI_Allreduce(sb, tmp, (int)m, t->dt, op, comm) == MPI_SUCCESS &&
                   same(t, tmp, ref, m, &at), all;
        PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
        if (!all) {
            values = false;
            *mark = '?';
            n_inconsistent++;
        }
        h_record(comm, rc != MPI_SUCCESS || !values || same(t, rb, ref, m, &at),
                 "MPI_Allreduce %s on %s (native): element %lld differs from the serial reference",
                 ops[o].name, t->name, (long long)at);
    } else { /* colibri's kernel: the ranks agree, and that is the truth below */
        uint64_t d[2] = {digest(t, rb, m), ~digest(t, rb, m)}, dm[2];
        PMPI_Allreduce(d, dm, 2, MPI_UINT64_T, MPI_MAX, comm);
        h_record(comm, dm[0] == ~dm[1], "MPI_Allreduce %s on %s: the ranks' results differ",
                 ops[o].name, t->name);
        memcpy(ref, rb, (size_t)(m * t->extent));
    }

    int64_t at = 0;
    /* MPI_Reduce to the last rank */
    memset(rb, 0, sizeof rb);
    rc = MPI_Reduce(sb, rb, (int)m, t->dt, op, size - 1, comm);
    h_record(comm, rc == MPI_SUCCESS && (rank != size - 1 || !values || same(t, rb, ref, m, &at)),
             "MPI_Reduce %s on %s: error class %d, or element %lld differs", ops[o].name,
             t->name, cls_of(rc), (long long)at);

    /* MPI_Reduce_scatter_block: each rank's block of the result */
    memset(rb, 0, sizeof rb);
    rc = MPI_Reduce_scatter_block(sb, rb, BLOCK, t->dt, op, comm);
    h_record(comm,
             rc == MPI_SUCCESS &&
                 (!values || same(t, rb, ref + rank * BLOCK * t->extent, BLOCK, &at)),
             "MPI_Reduce_scatter_block %s on %s: error class %d, or element %lld differs",
             ops[o].name, t->name, cls_of(rc), (long long)at);

    /* MPI_Iallreduce */
    memset(rb, 0, sizeof rb);
    MPI_Request req = MPI_REQUEST_NULL;
    rc = MPI_Iallreduce(sb, rb, (int)m, t->dt, op, comm, &req);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    h_record(comm, rc == MPI_SUCCESS && (!values || same(t, rb, ref, m, &at)),
             "MPI_Iallreduce %s on %s: error class %d, or element %lld differs", ops[o].name,
             t->name, cls_of(rc), (long long)at);

#if MPI_VERSION >= 4
    /* MPI_Allreduce_init, started twice */
    memset(rb, 0, sizeof rb);
    req = MPI_REQUEST_NULL;
    rc = MPI_Allreduce_init(sb, rb, (int)m, t->dt, op, comm, MPI_INFO_NULL, &req);
    for (int i = 0; i < 2 && rc == MPI_SUCCESS; i++)
        if ((rc = MPI_Start(&req)) == MPI_SUCCESS)
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (req != MPI_REQUEST_NULL)
        MPI_Request_free(&req);
    h_record(comm, rc == MPI_SUCCESS && (!values || same(t, rb, ref, m, &at)),
             "MPI_Allreduce_init %s on %s: error class %d, or element %lld differs",
             ops[o].name, t->name, cls_of(rc), (long long)at);
#else
    /* colibri's own persistent call: no MPI-3 library has one to hand a
     * pair without a kernel to (README, "What goes to the MPI below") */
    memset(rb, 0, sizeof rb);
    req = MPI_REQUEST_NULL;
    quiet(native);
    rc = colibri_allreduce_init(sb, rb, m, t->dt, op, comm, NULL, &req);
    quiet(false);
    if (!native)
        for (int i = 0; i < 2 && rc == MPI_SUCCESS; i++)
            if ((rc = MPI_Start(&req)) == MPI_SUCCESS)
                rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (req != MPI_REQUEST_NULL)
        MPI_Request_free(&req);
    h_record(comm,
             native ? cls_of(rc) == MPI_ERR_UNSUPPORTED_OPERATION && req == MPI_REQUEST_NULL
                    : rc == MPI_SUCCESS && same(t, rb, ref, m, &at),
             "colibri_allreduce_init %s on %s: error class %d, or element %lld differs",
             ops[o].name, t->name, cls_of(rc), (long long)at);
#endif

    /* the C API with a named algorithm: a pair without a kernel still goes
     * to the MPI below (README, "What goes to the MPI below") */
    memset(rb, 0, sizeof rb);
    rc = colibri_allreduce(sb, rb, m, t->dt, op, comm, "recursive_doubling");
    alg = colibri_last_algorithm(comm, COLIBRI_ALLREDUCE);
    h_record(comm,
             rc == MPI_SUCCESS && (!values || same(t, rb, ref, m, &at)) && alg &&
                 strcmp(alg, native ? "native" : "recursive_doubling") == 0,
             "colibri_allreduce(\"recursive_doubling\") %s on %s: error class %d, ran '%s', "
             "or element %lld differs",
             ops[o].name, t->name, cls_of(rc), alg ? alg : "(none)", (long long)at);
}

/* A refused pair: each call's class is the MPI's, and nothing is touched. */
static void check_refused(const struct ty *t, int o, char *mark)
{
    const MPI_Op op = ops[o].op;
    static char sb[BUF_BYTES], rb[BUF_BYTES], sb0[BUF_BYTES];
    n_refused++;
    fill(t, rank, m, sb);
    memcpy(sb0, sb, sizeof sb);
    static const char *const names[] = {"MPI_Allreduce", "MPI_Reduce", "MPI_Reduce_scatter_block",
                                        "MPI_Iallreduce"};
    quiet(true);
    for (int c = 0; c < 4; c++) {
        int rc[2];
        for (int via_colibri = 0; via_colibri < 2; via_colibri++) {
            h_fill_sentinel((uint8_t *)rb, sizeof rb);
            MPI_Request req = MPI_REQUEST_NULL;
            switch (c) {
            case 0:
                rc[via_colibri] = via_colibri ? MPI_Allreduce(sb, rb, (int)m, t->dt, op, comm)
                                              : PMPI_Allreduce(sb, rb, (int)m, t->dt, op, comm);
                break;
            case 1:
                rc[via_colibri] = via_colibri ? MPI_Reduce(sb, rb, (int)m, t->dt, op, 0, comm)
                                              : PMPI_Reduce(sb, rb, (int)m, t->dt, op, 0, comm);
                break;
            case 2:
                rc[via_colibri] = via_colibri
                                      ? MPI_Reduce_scatter_block(sb, rb, BLOCK, t->dt, op, comm)
                                      : PMPI_Reduce_scatter_block(sb, rb, BLOCK, t->dt, op, comm);
                break;
            default:
                rc[via_colibri] = via_colibri
                                      ? MPI_Iallreduce(sb, rb, (int)m, t->dt, op, comm, &req)
                                      : PMPI_Iallreduce(sb, rb, (int)m, t->dt, op, comm, &req);
                if (rc[via_colibri] == MPI_SUCCESS)
                    rc[via_colibri] = MPI_Wait(&req, MPI_STATUS_IGNORE);
                break;
            }
        }
        const char *alg = colibri_last_algorithm(comm, c == 1 ? COLIBRI_REDUCE
                                                       : c == 2 ? COLIBRI_REDUCE_SCATTER_BLOCK
                                                                : COLIBRI_ALLREDUCE);
        const bool colibri_serves = rc[1] == MPI_SUCCESS && alg && strcmp(alg, "native") != 0;
        if (colibri_serves) { /* colibri's kernel where the MPI has none: kept */
            if (c == 0) {
                *mark = '!';
                n_colibri_only++;
            }
            h_record(comm, true, "");
            continue;
        }
        const bool untouched = h_first_changed((uint8_t *)rb, 0, sizeof rb) == SIZE_MAX &&
                               memcmp(sb, sb0, sizeof sb) == 0;
        h_record(comm, cls_of(rc[1]) == cls_of(rc[0]) && rc[1] != MPI_SUCCESS && untouched,
                 "%s %s on %s, refused by the MPI below with class %d: colibri gave class %d%s",
                 names[c], ops[o].name, t->name, cls_of(rc[0]), cls_of(rc[1]),
                 untouched ? "" : ", and touched a buffer");
    }
    quiet(false);
}

int main(int argc, char **argv)
{
    h_init(&argc, &argv);
    /* "native" here means a pair colibri has no kernel for: online
     * selection, which may run a call below while it explores, is off
     * (tests/mpi/test_online.c covers it) */
    setenv("COLIBRI_ONLINE", "0", 1);
    colibri_config_reload();
    /* MPI_Reduce_local reports on MPI_COMM_WORLD (MPI-3) or MPI_COMM_SELF
     * (MPI-4): the probes need both to return */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size > MAX_P) {
        if (rank == 0)
            printf("at most %d ranks\n", MAX_P);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    m = (int64_t)BLOCK * size;
    types_init();

    for (int i = 0; i < ntypes; i++) {
        char marks[NOPS];
        for (int o = 0; o < NOPS; o++) {
            marks[o] = '-';
            int mine = probe(&types[i], ops[o].op), pr;
            PMPI_Allreduce(&mine, &pr, 1, MPI_INT, MPI_MAX, comm);
            if (pr == PROBE_ACCEPTED) {
                check_accepted(&types[i], o, &marks[o]);
            } else if (pr == PROBE_REFUSED) {
                check_refused(&types[i], o, &marks[o]);
            } else { /* the MPI's own bug: colibri hands the pair to it as it is */
                marks[o] = 'X';
                n_crash++;
            }
        }
        if (rank == 0) {
            char line[512];
            int u = snprintf(line, sizeof line, "%-28s", types[i].name);
            for (int o = 0; o < NOPS; o++)
                if (marks[o] != '-')
                    u += snprintf(line + u, sizeof line - (size_t)u, " %s:%c", ops[o].name,
                                  marks[o]);
            printf("%s\n", line);
        }
    }
    if (rank == 0)
        printf("%d datatypes; the MPI below accepts %d pairs: colibri's kernel %d, handed to the "
               "MPI below %d (of which %d where the MPI's own allreduce disagrees with its "
               "MPI_Reduce_local: ?); it refuses %d, of which colibri serves %d with its own "
               "kernel (!); it crashes computing %d (X, not run)\n",
               ntypes, n_accepted, n_kernel, n_native, n_inconsistent, n_refused, n_colibri_only,
               n_crash);
    fflush(stdout);
    h_flush(); /* the records were made on comm */
    MPI_Comm_free(&comm);
    return h_finish();
}
