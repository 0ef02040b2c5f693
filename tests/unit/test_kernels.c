/*
 * Unit test of the local reduction kernels (src/kernels/dense.c).
 *
 * Every (predefined op, predefined type) pair is checked: where MPI-3.1
 * §5.9.2 defines the op on the type, the kernel must match a serial
 * reference computed here on random data; elsewhere kernel_lookup must say
 * NULL.  The reference is plain C written independently of the kernels
 * (64-bit integer arithmetic truncated to the width, values compared as long
 * double) and never MPI_Reduce_local, whose Open MPI 4.1 version saturates
 * 8-bit sums.  Directed cases pin the corners random data may miss.
 *
 * Run as a singleton or `mpirun -n 1`.  Prints one line per failed check,
 * then "N passed, N failed"; exits nonzero on any failure.
 */
#include <mpi.h>

#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/dense.h"

#define CHECK_MAX_LINES -1 /* every failure printed */
#include "../lib/check.h"


/* ---- ops --------------------------------------------------------------- */

enum { MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MAXLOC, MINLOC, NOPS };
static const char *const op_names[NOPS] = {
    "MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_BAND",
    "MPI_LOR", "MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC"};

/* Handles are not constant expressions in every MPI, hence a function. */
static MPI_Op op_handle(int op)
{
    const MPI_Op h[NOPS] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND,
                            MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
    return h[op];
}

/* MPI-3.1 §5.9.2: which groups of types each op is defined on. */
enum group { G_CINT, G_FINT /* and multi-language */, G_FLOAT, G_LOGICAL, G_COMPLEX, G_BYTE,
             G_PAIR, G_NONE };

static bool allowed(enum group g, int op)
{
    switch (op) {
    case MAX: case MIN: return g == G_CINT || g == G_FINT || g == G_FLOAT;
    case SUM: case PROD: return g == G_CINT || g == G_FINT || g == G_FLOAT || g == G_COMPLEX;
    case LAND: case LOR: case LXOR: return g == G_CINT || g == G_LOGICAL;
    case BAND: case BOR: case BXOR: return g == G_CINT || g == G_FINT || g == G_BYTE;
    default: return g == G_PAIR;
    }
}

/* ---- element representations ------------------------------------------ */

/* How one element is stored.  Reals are named by C type ('f', 'd', 'L'),
 * since long double and a 16-byte Fortran REAL share a size but not a
 * format; 0 means no C type matches (the kernel must then be NULL). */
enum kind { K_SINT, K_UINT, K_BOOL01, K_LOGICAL, K_REAL, K_CPLX, K_PAIR, K_NONE };

struct ttype {
    MPI_Datatype h;
    const char *name;
    enum group group;
    enum kind kind;
    char fmt;          /* K_REAL, K_CPLX: real format; K_PAIR: value format, 0 if integer */
    size_t size;       /* bytes of one value (K_PAIR: of the value field) */
    enum kind kkind;   /* K_PAIR: index kind (K_SINT or K_REAL) */
    size_t koff, ksize;
    MPI_Aint extent;   /* element stride */
    bool supported;
};

#define MAXTYPES 96
static struct ttype types[MAXTYPES];
static int ntypes;

static char real_fmt(size_t size)
{
    if (size == sizeof(float)) return 'f';
    if (size == sizeof(double)) return 'd';
    if (size == sizeof(long double) && LDBL_MANT_DIG == 113) return 'L';
    return 0;
}

static bool int_size_ok(size_t s) { return s == 1 || s == 2 || s == 4 || s == 8; }

/* Registers a type; size 0 means "ask MPI" (Fortran types).  The first
 * registration of a handle wins, so where an MPI aliases names (SMPI makes
 * MPI_LOGICAL MPI_INT) the C meaning is the one tested. */
static struct ttype *add(MPI_Datatype h, const char *name, enum group g, enum kind k, char fmt,
                         size_t size)
{
    if (h == MPI_DATATYPE_NULL || ntypes == MAXTYPES)
        return NULL;
    for (int i = 0; i < ntypes; i++)
        if (types[i].h == h)
            return NULL;
    struct ttype *t = &types[ntypes++];
    MPI_Aint lb, extent;
    int sz = 0;
    MPI_Type_size(h, &sz);
    MPI_Type_get_extent(h, &lb, &extent);
    *t = (struct ttype){h, name, g, k, fmt, size ? size : (size_t)sz, K_NONE, 0, 0, extent, false};
    switch (k) {
    case K_SINT: case K_UINT: case K_BOOL01: case K_LOGICAL:
        t->supported = int_size_ok(t->size);
        break;
    case K_REAL:
        t->fmt = fmt ? fmt : real_fmt(t->size);
        t->supported = t->fmt != 0;
        break;
    case K_CPLX:
        t->fmt = fmt ? fmt : real_fmt(t->size / 2);
        t->supported = t->fmt != 0;
        break;
    default:
        break;
    }
    if (size)
        check((size_t)sz == size && t->extent == (MPI_Aint)size,
              "%s: MPI size %d extent %ld, C size %zu", name, sz, (long)t->extent, size);
    return t;
}

/* A pair type {V v; K k}: value format (0 = signed integer) and sizes. */
static void add_pair(MPI_Datatype h, const char *name, char vfmt, size_t vsize, enum kind kk,
                     size_t ksize, size_t koff, size_t csize)
{
    struct ttype *t = add(h, name, G_PAIR, K_PAIR, vfmt, 0);
    if (!t)
        return;
    t->size = vsize;
    t->kkind = kk;
    t->ksize = ksize;
    t->koff = koff;
    t->supported = vsize != 0;
    if (csize)
        check(t->extent == (MPI_Aint)csize, "%s: MPI extent %ld, C struct size %zu", name,
              (long)t->extent, csize);
}

/* Fortran pair {X; X}: X is what half the MPI size says. */
static void add_fpair(MPI_Datatype h, const char *name, bool real)
{
    int sz = 0;
    if (h == MPI_DATATYPE_NULL)
        return;
    MPI_Type_size(h, &sz);
    const size_t half = (size_t)sz / 2;
    const char fmt = real ? real_fmt(half) : 0;
    const bool ok = real ? fmt != 0 : (half == 4 || half == 8);
    add_pair(h, name, fmt, ok ? half : 0, real ? K_REAL : K_SINT, half, half, 0);
}

#define C_PAIR(h, V, fmt)                                                                     \
    do {                                                                                      \
        struct s_ { V v; int k; };                                                            \
        add_pair(h, #h, fmt, sizeof(V), K_SINT, sizeof(int), offsetof(struct s_, k),          \
                 sizeof(struct s_));                                                          \
    } while (0)
#define ADD(h, g, k, fmt, size) add(h, #h, g, k, fmt, size)

static void register_types(void)
{
    ADD(MPI_INT, G_CINT, K_SINT, 0, sizeof(int));
    ADD(MPI_LONG, G_CINT, K_SINT, 0, sizeof(long));
    ADD(MPI_SHORT, G_CINT, K_SINT, 0, sizeof(short));
    ADD(MPI_UNSIGNED_SHORT, G_CINT, K_UINT, 0, sizeof(unsigned short));
    ADD(MPI_UNSIGNED, G_CINT, K_UINT, 0, sizeof(unsigned));
    ADD(MPI_UNSIGNED_LONG, G_CINT, K_UINT, 0, sizeof(unsigned long));
    ADD(MPI_LONG_LONG_INT, G_CINT, K_SINT, 0, sizeof(long long));
    ADD(MPI_LONG_LONG, G_CINT, K_SINT, 0, sizeof(long long));
    ADD(MPI_UNSIGNED_LONG_LONG, G_CINT, K_UINT, 0, sizeof(unsigned long long));
    ADD(MPI_SIGNED_CHAR, G_CINT, K_SINT, 0, 1);
    ADD(MPI_UNSIGNED_CHAR, G_CINT, K_UINT, 0, 1);
    ADD(MPI_INT8_T, G_CINT, K_SINT, 0, 1);
    ADD(MPI_INT16_T, G_CINT, K_SINT, 0, 2);
    ADD(MPI_INT32_T, G_CINT, K_SINT, 0, 4);
    ADD(MPI_INT64_T, G_CINT, K_SINT, 0, 8);
    ADD(MPI_UINT8_T, G_CINT, K_UINT, 0, 1);
    ADD(MPI_UINT16_T, G_CINT, K_UINT, 0, 2);
    ADD(MPI_UINT32_T, G_CINT, K_UINT, 0, 4);
    ADD(MPI_UINT64_T, G_CINT, K_UINT, 0, 8);
    ADD(MPI_AINT, G_FINT, K_SINT, 0, sizeof(MPI_Aint));
    ADD(MPI_OFFSET, G_FINT, K_SINT, 0, sizeof(MPI_Offset));
    ADD(MPI_COUNT, G_FINT, K_SINT, 0, sizeof(MPI_Count));
    ADD(MPI_FLOAT, G_FLOAT, K_REAL, 'f', sizeof(float));
    ADD(MPI_DOUBLE, G_FLOAT, K_REAL, 'd', sizeof(double));
    ADD(MPI_LONG_DOUBLE, G_FLOAT, K_REAL, 'L', sizeof(long double));
    ADD(MPI_C_BOOL, G_LOGICAL, K_BOOL01, 0, sizeof(_Bool));
    ADD(MPI_C_FLOAT_COMPLEX, G_COMPLEX, K_CPLX, 'f', sizeof(float _Complex));
    ADD(MPI_C_COMPLEX, G_COMPLEX, K_CPLX, 'f', sizeof(float _Complex));
    ADD(MPI_C_DOUBLE_COMPLEX, G_COMPLEX, K_CPLX, 'd', sizeof(double _Complex));
    ADD(MPI_C_LONG_DOUBLE_COMPLEX, G_COMPLEX, K_CPLX, 'L', sizeof(long double _Complex));
    ADD(MPI_BYTE, G_BYTE, K_UINT, 0, 1);
    C_PAIR(MPI_FLOAT_INT, float, 'f');
    C_PAIR(MPI_DOUBLE_INT, double, 'd');
    C_PAIR(MPI_LONG_INT, long, 0);
    C_PAIR(MPI_2INT, int, 0);
    C_PAIR(MPI_SHORT_INT, short, 0);
    C_PAIR(MPI_LONG_DOUBLE_INT, long double, 'L');
    /* Fortran: sizes from MPI */
    ADD(MPI_INTEGER, G_FINT, K_SINT, 0, 0);
    ADD(MPI_REAL, G_FLOAT, K_REAL, 0, 0);
    ADD(MPI_DOUBLE_PRECISION, G_FLOAT, K_REAL, 0, 0);
    ADD(MPI_LOGICAL, G_LOGICAL, K_LOGICAL, 0, 0);
    ADD(MPI_COMPLEX, G_COMPLEX, K_CPLX, 0, 0);
    ADD(MPI_DOUBLE_COMPLEX, G_COMPLEX, K_CPLX, 0, 0);
    add_fpair(MPI_2REAL, "MPI_2REAL", true);
    add_fpair(MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", true);
    add_fpair(MPI_2INTEGER, "MPI_2INTEGER", false);
#ifdef MPI_INTEGER1
    ADD(MPI_INTEGER1, G_FINT, K_SINT, 0, 0);
#endif
#ifdef MPI_INTEGER2
    ADD(MPI_INTEGER2, G_FINT, K_SINT, 0, 0);
#endif
#ifdef MPI_INTEGER4
    ADD(MPI_INTEGER4, G_FINT, K_SINT, 0, 0);
#endif
#ifdef MPI_INTEGER8
    ADD(MPI_INTEGER8, G_FINT, K_SINT, 0, 0);
#endif
#ifdef MPI_REAL4
    ADD(MPI_REAL4, G_FLOAT, K_REAL, 0, 0);
#endif
#ifdef MPI_REAL8
    ADD(MPI_REAL8, G_FLOAT, K_REAL, 0, 0);
#endif
#ifdef MPI_REAL16
    ADD(MPI_REAL16, G_FLOAT, K_REAL, 0, 0);
#endif
#ifdef MPI_COMPLEX8
    ADD(MPI_COMPLEX8, G_COMPLEX, K_CPLX, 0, 0);
#endif
#ifdef MPI_COMPLEX16
    ADD(MPI_COMPLEX16, G_COMPLEX, K_CPLX, 0, 0);
#endif
#ifdef MPI_COMPLEX32
    ADD(MPI_COMPLEX32, G_COMPLEX, K_CPLX, 0, 0);
#endif
#ifdef MPI_INTEGER16
    ADD(MPI_INTEGER16, G_FINT, K_SINT, 0, 0);
#endif
#ifdef MPI_REAL2
    ADD(MPI_REAL2, G_FLOAT, K_REAL, 0, 0);
#endif
#ifdef MPI_LOGICAL1
    ADD(MPI_LOGICAL1, G_LOGICAL, K_LOGICAL, 0, 0);
#endif
#ifdef MPI_LOGICAL2
    ADD(MPI_LOGICAL2, G_LOGICAL, K_LOGICAL, 0, 0);
#endif
#ifdef MPI_LOGICAL4
    ADD(MPI_LOGICAL4, G_LOGICAL, K_LOGICAL, 0, 0);
#endif
#ifdef MPI_LOGICAL8
    ADD(MPI_LOGICAL8, G_LOGICAL, K_LOGICAL, 0, 0);
#endif
#ifdef MPI_CXX_BOOL
    ADD(MPI_CXX_BOOL, G_LOGICAL, K_BOOL01, 0, 1);
#endif
#ifdef MPI_CXX_DOUBLE_COMPLEX
    ADD(MPI_CXX_DOUBLE_COMPLEX, G_COMPLEX, K_CPLX, 'd', sizeof(double _Complex));
#endif
    /* predefined, but not reduction types */
    ADD(MPI_CHAR, G_NONE, K_NONE, 0, 1);
    ADD(MPI_WCHAR, G_NONE, K_NONE, 0, 0);
    ADD(MPI_PACKED, G_NONE, K_NONE, 0, 1);
}

/* ---- scalar access ----------------------------------------------------- */

static uint64_t load_u(const unsigned char *p, size_t s)
{
    uint8_t a; uint16_t b; uint32_t c; uint64_t d;
    switch (s) {
    case 1: memcpy(&a, p, 1); return a;
    case 2: memcpy(&b, p, 2); return b;
    case 4: memcpy(&c, p, 4); return c;
    default: memcpy(&d, p, 8); return d;
    }
}

static int64_t load_s(const unsigned char *p, size_t s)
{
    const uint64_t u = load_u(p, s), sign = (uint64_t)1 << (8 * s - 1);
    return s == 8 ? (int64_t)u : (int64_t)(u ^ sign) - (int64_t)sign;
}

/* Keeps the low s bytes: this truncation is what makes the reference wrap. */
static void store_u(unsigned char *p, size_t s, uint64_t v)
{
    const uint8_t a = (uint8_t)v; const uint16_t b = (uint16_t)v; const uint32_t c = (uint32_t)v;
    switch (s) {
    case 1: memcpy(p, &a, 1); break;
    case 2: memcpy(p, &b, 2); break;
    case 4: memcpy(p, &c, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

static long double load_real(const unsigned char *p, char fmt)
{
    float f; double d; long double l;
    switch (fmt) {
    case 'f': memcpy(&f, p, sizeof f); return f;
    case 'd': memcpy(&d, p, sizeof d); return d;
    default: memcpy(&l, p, sizeof l); return l;
    }
}

static void store_real(unsigned char *p, char fmt, long double v)
{
    const float f = (float)v; const double d = (double)v;
    switch (fmt) {
    case 'f': memcpy(p, &f, sizeof f); break;
    case 'd': memcpy(p, &d, sizeof d); break;
    default: memcpy(p, &v, sizeof v); break;
    }
}

/* ---- random data ------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

/* Pair values and indices come from small ranges so ties are common. */
static void gen_pair(const struct ttype *t, unsigned char *p)
{
    const long v = (long)(rnd() % 8) - 4, k = (long)(rnd() % 16);
    if (t->fmt) store_real(p, t->fmt, v); else store_u(p, t->size, (uint64_t)v);
    if (t->kkind == K_REAL) store_real(p + t->koff, t->fmt, k);
    else store_u(p + t->koff, t->ksize, (uint64_t)k);
}

/* One element at p; `other` (the same element of the other operand, or
 * NULL) is copied now and then to make ties. */
static void gen_elem(const struct ttype *t, unsigned char *p, const unsigned char *other)
{
    const unsigned r = (unsigned)(rnd() % 16);
    if (other && r < 2 && t->kind != K_PAIR) {
        memcpy(p, other, (size_t)t->extent);
        return;
    }
    switch (t->kind) {
    case K_SINT: case K_UINT:
        store_u(p, t->size, r < 4 ? 0 : rnd());
        break;
    case K_BOOL01:
        store_u(p, t->size, r & 1);
        break;
    case K_LOGICAL: /* Fortran: any nonzero is true */
        store_u(p, t->size, r < 6 ? 0 : r < 11 ? 1 : rnd() | 2);
        break;
    case K_REAL: {
        const long double specials[] = {NAN, 0.0, -0.0, INFINITY, -INFINITY};
        const long double v = r < 5 ? specials[r] : (long double)(rnd() % 20001) / 100 - 100;
        store_real(p, t->fmt, v);
        break;
    }
    case K_CPLX:
        store_real(p, t->fmt, (long double)(rnd() % 2001) / 100 - 10);
        store_real(p + t->size / 2, t->fmt, (long double)(rnd() % 2001) / 100 - 10);
        break;
    case K_PAIR:
        gen_pair(t, p);
        break;
    default:
        break;
    }
}

/* ---- reference ----------------------------------------------------------- */

#define REAL_REF(T)                                                           \
    do {                                                                      \
        T x, y, r = 0;                                                        \
        memcpy(&x, a, sizeof x);                                              \
        memcpy(&y, b, sizeof y);                                              \
        r = op == MAX ? (x > y ? x : y) : op == MIN ? (x < y ? x : y)         \
          : op == SUM ? x + y : x * y;                                        \
        memcpy(out, &r, sizeof r);                                            \
    } while (0)

#define CPLX_REF(T)                                                           \
    do {                                                                      \
        T _Complex x, y, r;                                                   \
        memcpy(&x, a, sizeof x);                                              \
        memcpy(&y, b, sizeof y);                                              \
        r = op == SUM ? x + y : x * y;                                        \
        memcpy(out, &r, sizeof r);                                            \
    } while (0)

static void ref_int(const struct ttype *t, int op, const unsigned char *a,
                    const unsigned char *b, unsigned char *out)
{
    const size_t s = t->size;
    const uint64_t x = load_u(a, s), y = load_u(b, s);
    const bool gt = t->kind == K_SINT ? load_s(a, s) > load_s(b, s) : x > y;
    const bool lt = t->kind == K_SINT ? load_s(a, s) < load_s(b, s) : x < y;
    uint64_t r = 0;
    switch (op) {
    case MAX: r = gt ? x : y; break;
    case MIN: r = lt ? x : y; break;
    case SUM: r = x + y; break;
    case PROD: r = x * y; break;
    case BAND: r = x & y; break;
    case BOR: r = x | y; break;
    case BXOR: r = x ^ y; break;
    case LAND: r = x && y; break;
    case LOR: r = x || y; break;
    case LXOR: r = !x != !y; break;
    }
    store_u(out, s, r);
}

static void ref_pair(const struct ttype *t, int op, const unsigned char *a,
                     const unsigned char *b, unsigned char *out)
{
    const long double va = t->fmt ? load_real(a, t->fmt) : (long double)load_s(a, t->size);
    const long double vb = t->fmt ? load_real(b, t->fmt) : (long double)load_s(b, t->size);
    const long double ka = t->kkind == K_REAL ? load_real(a + t->koff, t->fmt)
                                              : (long double)load_s(a + t->koff, t->ksize);
    const long double kb = t->kkind == K_REAL ? load_real(b + t->koff, t->fmt)
                                              : (long double)load_s(b + t->koff, t->ksize);
    const bool better = op == MAXLOC ? va > vb : va < vb;
    memcpy(out, better || (va == vb && ka < kb) ? a : b, (size_t)t->extent);
}

static void reference(const struct ttype *t, int op, const unsigned char *a,
                      const unsigned char *b, unsigned char *out)
{
    if (t->kind == K_PAIR)
        ref_pair(t, op, a, b, out);
    else if (t->kind == K_REAL && t->fmt == 'f')
        REAL_REF(float);
    else if (t->kind == K_REAL && t->fmt == 'd')
        REAL_REF(double);
    else if (t->kind == K_REAL)
        REAL_REF(long double);
    else if (t->kind == K_CPLX && t->fmt == 'f')
        CPLX_REF(float);
    else if (t->kind == K_CPLX && t->fmt == 'd')
        CPLX_REF(double);
    else if (t->kind == K_CPLX)
        CPLX_REF(long double);
    else
        ref_int(t, op, a, b, out);
}

/* Reals compare by value (long double padding is not data), NaN equal to
 * NaN, and the sign of zero counts. */
static bool same_real(long double x, long double y, long double tol)
{
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y);
    if (tol == 0)
        return x == y && signbit(x) == signbit(y);
    return fabsl(x - y) <= tol;
}

static long double eps(char fmt)
{
    return fmt == 'f' ? FLT_EPSILON : fmt == 'd' ? DBL_EPSILON : LDBL_EPSILON;
}

/* Complex products may be contracted to FMAs depending on the flags the
 * kernels are built with, so allow a few ulps of the terms' magnitude. */
static bool same_elem(const struct ttype *t, int op, const unsigned char *a,
                      const unsigned char *b, const unsigned char *got, const unsigned char *want)
{
    const size_t h = t->size / 2;
    switch (t->kind) {
    case K_REAL:
        return same_real(load_real(got, t->fmt), load_real(want, t->fmt), 0);
    case K_CPLX: {
        long double tol = 0;
        if (op == PROD) {
            const long double ar = fabsl(load_real(a, t->fmt)), ai = fabsl(load_real(a + h, t->fmt));
            const long double br = fabsl(load_real(b, t->fmt)), bi = fabsl(load_real(b + h, t->fmt));
            tol = 4 * eps(t->fmt) * (ar + ai) * (br + bi);
        }
        return same_real(load_real(got, t->fmt), load_real(want, t->fmt), tol) &&
               same_real(load_real(got + h, t->fmt), load_real(want + h, t->fmt), tol);
    }
    case K_PAIR: {
        const bool v = t->fmt ? same_real(load_real(got, t->fmt), load_real(want, t->fmt), 0)
                              : memcmp(got, want, t->size) == 0;
        return v && memcmp(got + t->koff, want + t->koff, t->ksize) == 0;
    }
    default:
        return memcmp(got, want, t->size) == 0;
    }
}

static void hex(char *buf, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n && i < 32; i++)
        sprintf(buf + 2 * i, "%02x", p[i]);
}

/* ---- the checks ---------------------------------------------------------- */

#define MAXN 4099
static unsigned char *A, *B, *OUT, *REF;

/* Runs kernel k on n elements and compares with the reference. */
static void run_random(const struct ttype *t, int op, colibri_kernel k, size_t n)
{
    const size_t ext = (size_t)t->extent;
    for (size_t i = 0; i < n; i++) {
        gen_elem(t, A + i * ext, NULL);
        gen_elem(t, B + i * ext, A + i * ext);
    }
    memcpy(OUT, B, n * ext);
    for (size_t i = 0; i < n; i++)
        reference(t, op, A + i * ext, B + i * ext, REF + i * ext);
    k(A, OUT, n);
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (!same_elem(t, op, A + i * ext, B + i * ext, OUT + i * ext, REF + i * ext))
            bad = i;
    char s[4][65] = {"", "", "", ""};
    if (bad < n) {
        hex(s[0], A + bad * ext, ext); hex(s[1], B + bad * ext, ext);
        hex(s[2], OUT + bad * ext, ext); hex(s[3], REF + bad * ext, ext);
    }
    check(bad == n, "%s on %s n=%zu: element %zu: in %s inout %s -> got %s want %s", op_names[op],
          t->name, n, bad, s[0], s[1], s[2], s[3]);
}

static void test_all_pairs(void)
{
    static const size_t sizes[] = {0, 1, 7, 33, 1000, MAXN};
    for (int i = 0; i < ntypes; i++) {
        const struct ttype *t = &types[i];
        for (int op = 0; op < NOPS; op++) {
            const colibri_kernel k = kernel_lookup(op_handle(op), t->h);
            const bool want = allowed(t->group, op) && t->supported;
            if (!check(!k == !want, "%s on %s: kernel %s, expected %s", op_names[op], t->name,
                       k ? "found" : "NULL", want ? "one" : "NULL") || !k)
                continue;
            for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++)
                run_random(t, op, k, sizes[j]);
        }
    }
}

/* One element, directed: inout = in (op) inout must give `want`. */
static void directed(const char *what, MPI_Op op, MPI_Datatype dt, const void *in,
                     const void *inout, const void *want, size_t bytes)
{
    unsigned char buf[64];
    const colibri_kernel k = kernel_lookup(op, dt);
    if (!check(k != NULL, "%s: no kernel", what))
        return;
    memcpy(buf, inout, bytes);
    k(in, buf, 1);
    check(memcmp(buf, want, bytes) == 0, "%s: wrong result", what);
}

#define DIRECTED(op, dt, T, x, y, z)                                            \
    do {                                                                        \
        const T in_ = x, io_ = y, want_ = z;                                    \
        directed(#op " on " #dt ": " #x ", " #y " -> " #z, op, dt, &in_, &io_,  \
                 &want_, sizeof(T));                                            \
    } while (0)

/* MAXLOC/MINLOC on one pair; padding is zeroed so whole structs compare. */
#define PAIR_CASE(op, dt, V, va, ka, vb, kb, vw, kw)                            \
    do {                                                                        \
        struct { V v; int k; } p_[3];                                           \
        memset(p_, 0, sizeof p_);                                               \
        p_[0].v = va; p_[0].k = ka; p_[1].v = vb; p_[1].k = kb;                 \
        p_[2].v = vw; p_[2].k = kw;                                             \
        directed(#op " on " #dt ": {" #va "," #ka "} {" #vb "," #kb "}", op, dt, \
                 &p_[0], &p_[1], &p_[2], sizeof p_[0]);                         \
    } while (0)

static void test_directed(void)
{
    /* integer SUM/PROD wrap modulo 2^n; Open MPI 4.1's AVX op saturates */
    DIRECTED(MPI_SUM, MPI_INT8_T, int8_t, 127, 1, -128);
    DIRECTED(MPI_SUM, MPI_SIGNED_CHAR, signed char, -128, -1, 127);
    DIRECTED(MPI_SUM, MPI_UINT8_T, uint8_t, 255, 1, 0);
    DIRECTED(MPI_SUM, MPI_UNSIGNED_CHAR, unsigned char, 200, 100, 44);
    DIRECTED(MPI_PROD, MPI_INT8_T, int8_t, 16, 16, 0);
    DIRECTED(MPI_PROD, MPI_INT8_T, int8_t, -128, -1, -128);
    DIRECTED(MPI_PROD, MPI_UINT16_T, uint16_t, 0xffff, 0xffff, 1);
    DIRECTED(MPI_SUM, MPI_INT16_T, int16_t, INT16_MAX, 1, INT16_MIN);
    DIRECTED(MPI_SUM, MPI_INT32_T, int32_t, INT32_MAX, 1, INT32_MIN);
    DIRECTED(MPI_SUM, MPI_INT64_T, int64_t, INT64_MAX, 1, INT64_MIN);
    DIRECTED(MPI_PROD, MPI_INT64_T, int64_t, INT64_MIN, -1, INT64_MIN);
    /* unsigned types compare unsigned */
    DIRECTED(MPI_MAX, MPI_UNSIGNED_CHAR, unsigned char, 200, 100, 200);
    DIRECTED(MPI_MIN, MPI_UNSIGNED_CHAR, unsigned char, 200, 100, 100);
    DIRECTED(MPI_MAX, MPI_UINT8_T, uint8_t, 1, 255, 255);
    DIRECTED(MPI_MAX, MPI_SIGNED_CHAR, signed char, -56, 100, 100);
    DIRECTED(MPI_MIN, MPI_UNSIGNED_SHORT, unsigned short, 65535, 1, 1);
    DIRECTED(MPI_MAX, MPI_UNSIGNED, unsigned, UINT_MAX, 0, UINT_MAX);
    DIRECTED(MPI_MAX, MPI_UINT64_T, uint64_t, UINT64_MAX, 1, UINT64_MAX);
    DIRECTED(MPI_MIN, MPI_INT64_T, int64_t, INT64_MIN, 1, INT64_MIN);
    /* floating MAX/MIN are `in > inout ? in : inout`: a NaN yields inout */
    DIRECTED(MPI_MAX, MPI_DOUBLE, double, NAN, 1.0, 1.0);
    DIRECTED(MPI_MIN, MPI_FLOAT, float, 2.0f, -3.5f, -3.5f);
    /* complex product and sum */
    DIRECTED(MPI_PROD, MPI_C_FLOAT_COMPLEX, float _Complex, CMPLXF(1, 2), CMPLXF(3, 4),
             CMPLXF(-5, 10));
    DIRECTED(MPI_PROD, MPI_C_DOUBLE_COMPLEX, double _Complex, CMPLX(1.5, 2), CMPLX(-2, 0.5),
             CMPLX(-4, -3.25));
    DIRECTED(MPI_SUM, MPI_C_DOUBLE_COMPLEX, double _Complex, CMPLX(1.5, 2), CMPLX(-2, 0.5),
             CMPLX(-0.5, 2.5));
    {
        /* long double carries padding bytes, so compare values */
        long double _Complex x = CMPLXL(1, 2), y = CMPLXL(3, 4);
        const colibri_kernel k = kernel_lookup(MPI_PROD, MPI_C_LONG_DOUBLE_COMPLEX);
        if (check(k != NULL, "MPI_PROD on MPI_C_LONG_DOUBLE_COMPLEX: no kernel"))
            k(&x, &y, 1);
        check(creall(y) == -5 && cimagl(y) == 10, "MPI_PROD on MPI_C_LONG_DOUBLE_COMPLEX: "
              "(1+2i)(3+4i) gave %Lg%+Lgi", creall(y), cimagl(y));
    }
    /* C_BOOL */
    DIRECTED(MPI_LAND, MPI_C_BOOL, _Bool, 1, 0, 0);
    DIRECTED(MPI_LAND, MPI_C_BOOL, _Bool, 1, 1, 1);
    DIRECTED(MPI_LOR, MPI_C_BOOL, _Bool, 0, 1, 1);
    DIRECTED(MPI_LOR, MPI_C_BOOL, _Bool, 0, 0, 0);
    DIRECTED(MPI_LXOR, MPI_C_BOOL, _Bool, 1, 1, 0);
    DIRECTED(MPI_LXOR, MPI_C_BOOL, _Bool, 0, 1, 1);
    /* logical ops on integers and Fortran LOGICAL: nonzero is true, result 1/0 */
    DIRECTED(MPI_LAND, MPI_INT, int, 2, -1, 1);
    DIRECTED(MPI_LXOR, MPI_UNSIGNED_CHAR, unsigned char, 2, 128, 0);
    int lsz = 0;
    MPI_Type_size(MPI_LOGICAL, &lsz);
    if (lsz == sizeof(int32_t)) {
        DIRECTED(MPI_LAND, MPI_LOGICAL, int32_t, 2, -1, 1);
        DIRECTED(MPI_LOR, MPI_LOGICAL, int32_t, 0, 4, 1);
        DIRECTED(MPI_LXOR, MPI_LOGICAL, int32_t, 2, 1, 0);
    }
    /* MAXLOC/MINLOC: ties keep the smaller index from either side */
    PAIR_CASE(MPI_MAXLOC, MPI_DOUBLE_INT, double, 5.0, 3, 5.0, 1, 5.0, 1);
    PAIR_CASE(MPI_MAXLOC, MPI_DOUBLE_INT, double, 5.0, 1, 5.0, 3, 5.0, 1);
    PAIR_CASE(MPI_MINLOC, MPI_DOUBLE_INT, double, 5.0, 3, 5.0, 1, 5.0, 1);
    PAIR_CASE(MPI_MINLOC, MPI_DOUBLE_INT, double, 5.0, 1, 5.0, 3, 5.0, 1);
    PAIR_CASE(MPI_MAXLOC, MPI_DOUBLE_INT, double, 7.0, 9, 5.0, 1, 7.0, 9);
    PAIR_CASE(MPI_MINLOC, MPI_DOUBLE_INT, double, 7.0, 9, 5.0, 1, 5.0, 1);
    PAIR_CASE(MPI_MAXLOC, MPI_2INT, int, -4, 2, -4, 0, -4, 0);
    PAIR_CASE(MPI_MINLOC, MPI_2INT, int, -4, 0, -4, 2, -4, 0);
    PAIR_CASE(MPI_MINLOC, MPI_SHORT_INT, short, -4, 0, 3, 2, -4, 0);
    PAIR_CASE(MPI_MAXLOC, MPI_LONG_INT, long, -4, 0, 3, 2, 3, 2);
    PAIR_CASE(MPI_MAXLOC, MPI_FLOAT_INT, float, 1.5f, 6, 1.5f, 5, 1.5f, 5);
}

static void expect_null(const char *what, MPI_Op op, MPI_Datatype dt)
{
    check(kernel_lookup(op, dt) == NULL, "%s: expected no kernel", what);
}
#define EXPECT_NULL(op, dt) expect_null(#op " on " #dt, op, dt)

static void user_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)in; (void)inout; (void)len; (void)dt;
}

static void test_invalid_and_names(void)
{
    EXPECT_NULL(MPI_MAXLOC, MPI_INT);
    EXPECT_NULL(MPI_MAXLOC, MPI_DOUBLE);
    EXPECT_NULL(MPI_SUM, MPI_DOUBLE_INT);
    EXPECT_NULL(MPI_BAND, MPI_DOUBLE);
    EXPECT_NULL(MPI_LAND, MPI_DOUBLE);
    EXPECT_NULL(MPI_BOR, MPI_FLOAT);
    EXPECT_NULL(MPI_SUM, MPI_C_BOOL);
    EXPECT_NULL(MPI_MAX, MPI_C_BOOL);
    EXPECT_NULL(MPI_BAND, MPI_C_BOOL);
    EXPECT_NULL(MPI_MAX, MPI_C_DOUBLE_COMPLEX);
    EXPECT_NULL(MPI_MIN, MPI_C_FLOAT_COMPLEX);
    EXPECT_NULL(MPI_SUM, MPI_BYTE);
    EXPECT_NULL(MPI_LOR, MPI_BYTE);
    EXPECT_NULL(MPI_MAX, MPI_BYTE);
    EXPECT_NULL(MPI_SUM, MPI_DATATYPE_NULL);
    EXPECT_NULL(MPI_OP_NULL, MPI_INT);
    EXPECT_NULL(MPI_REPLACE, MPI_INT);
    EXPECT_NULL(MPI_NO_OP, MPI_INT);
    for (int op = 0; op < NOPS; op++) {
        expect_null(op_names[op], op_handle(op), MPI_CHAR);
        check(kernel_op_is_predefined(op_handle(op)), "%s not predefined", op_names[op]);
        const char *n = kernel_op_name(op_handle(op));
        check(n && strcmp(n, op_names[op]) == 0, "name of %s is %s", op_names[op],
              n ? n : "NULL");
    }
    check(!kernel_op_is_predefined(MPI_REPLACE) && !kernel_op_is_predefined(MPI_NO_OP) &&
              !kernel_op_is_predefined(MPI_OP_NULL),
          "MPI_REPLACE, MPI_NO_OP or MPI_OP_NULL taken for a reduction op");
    check(kernel_op_name(MPI_OP_NULL) == NULL, "MPI_OP_NULL has a name");

    MPI_Op user;
    MPI_Op_create(user_fn, 1, &user);
    check(!kernel_op_is_predefined(user) && !kernel_op_name(user) && !kernel_lookup(user, MPI_INT),
          "user-defined op taken for a predefined one");
    MPI_Op_free(&user);
    MPI_Datatype two_ints;
    MPI_Type_contiguous(2, MPI_INT, &two_ints);
    MPI_Type_commit(&two_ints);
    check(!kernel_lookup(MPI_SUM, two_ints) && !kernel_type_name(two_ints),
          "derived datatype taken for a predefined one");
    MPI_Type_free(&two_ints);

    const struct { MPI_Datatype h; const char *name; } names[] = {
        {MPI_DOUBLE, "MPI_DOUBLE"}, {MPI_INT, "MPI_INT"}, {MPI_CHAR, "MPI_CHAR"},
        {MPI_DOUBLE_INT, "MPI_DOUBLE_INT"}, {MPI_BYTE, "MPI_BYTE"}, {MPI_C_BOOL, "MPI_C_BOOL"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const char *n = kernel_type_name(names[i].h);
        check(n && strcmp(n, names[i].name) == 0, "type name of %s is %s", names[i].name,
              n ? n : "NULL");
    }
    check(kernel_type_name(MPI_DATATYPE_NULL) == NULL, "MPI_DATATYPE_NULL has a name");
    for (int i = 0; i < ntypes; i++) {
        const char *n = kernel_type_name(types[i].h);
        check(n && strncmp(n, "MPI_", 4) == 0, "%s has no name", types[i].name);
    }
}

/* NaN (op) NaN with two payloads: inout's, quieted, wherever the element
 * falls in a call (vector body or scalar remainder) and however the call is
 * cut, so algorithms that cut vectors differently agree bit for bit. */
static void test_nan_payloads(void)
{
    const MPI_Op ops[] = {MPI_SUM, MPI_PROD};
    for (int o = 0; o < 2; o++) {
        const colibri_kernel kf = kernel_lookup(ops[o], MPI_FLOAT),
                             kd = kernel_lookup(ops[o], MPI_DOUBLE);
        float fin[67], fio[67];
        double din[67], dio[67];
        bool ok = true;
        for (int n = 1; n <= 64 && ok; n++)
            for (int off = 0; off < 3 && ok; off++) {
                for (int i = 0; i < n; i++) {
                    uint32_t a = 0x7fa00000u + (uint32_t)i, b = 0xffb00000u + (uint32_t)i; /* sNaNs */
                    memcpy(&fin[off + i], &a, 4), memcpy(&fio[off + i], &b, 4);
                    uint64_t c = 0x7ff4000000000000ull + (uint64_t)i,
                             d = 0xfff2000000000000ull + (uint64_t)i;
                    memcpy(&din[off + i], &c, 8), memcpy(&dio[off + i], &d, 8);
                }
                kf(fin + off, fio + off, (size_t)n);
                kd(din + off, dio + off, (size_t)n);
                for (int i = 0; i < n; i++) {
                    uint32_t got;
                    uint64_t gd;
                    memcpy(&got, &fio[off + i], 4);
                    memcpy(&gd, &dio[off + i], 8);
                    ok = ok && got == ((0xffb00000u + (uint32_t)i) | 0x00400000u) &&
                         gd == ((0xfff2000000000000ull + (uint64_t)i) | 0x0008000000000000ull);
                }
            }
        check(ok, "%s: NaN (op) NaN is not inout's NaN everywhere", o ? "PROD" : "SUM");
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    A = calloc(MAXN, 64); B = calloc(MAXN, 64); OUT = calloc(MAXN, 64); REF = calloc(MAXN, 64);
    register_types();
    test_all_pairs();
    test_directed();
    test_nan_payloads();
    test_invalid_and_names();
    const int rc = check_summary();
    free(A); free(B); free(OUT); free(REF);
    MPI_Finalize();
    return rc;
}
