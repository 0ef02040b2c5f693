/*
 * Shared machinery of the MPI tests: typed inputs generated from
 * (rank, element, seed) alone, so that every rank computes the exact
 * expected result of any reduction serially without communicating; buffers
 * with sentinel guards; one call of any colibri collective checked against
 * that serial reference; and pass/fail accounting agreed across ranks.
 *
 * Why a serial reference: the MPI libraries underneath get some of these
 * cases wrong themselves (DEVELOPERS.md, "Machine facts", lists the known
 * ones: Open MPI 4.1's AVX op component saturates 8-bit sums, SMPI's
 * smp_rsag* allreduce is wrong for short vectors), so they are never the
 * oracle.  The only collectives the harness calls itself are PMPI_Allreduce
 * on integer bookkeeping (which failed where, totals), bypassing colibri's
 * interposed MPI_Allreduce.
 *
 * Inputs are chosen so that exact comparison is right: integers wrap
 * (references are computed in the unsigned type of the same width), real
 * and complex values are small dyadic numbers whose sums and products over
 * up to 40 ranks are exact in any order.  Only the "bounded" mode (large
 * random real vectors) compares within p * eps * sum|x|.
 */
#ifndef COLIBRI_TEST_HARNESS_H
#define COLIBRI_TEST_HARNESS_H

#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "colibri.h"

#include "../lib/check.h"

/* ---- operations ------------------------------------------------------- */

enum h_op {
    H_SUM, H_PROD, H_MAX, H_MIN, H_LAND, H_LOR, H_LXOR, H_BAND, H_BOR, H_BXOR,
    H_MAXLOC, H_MINLOC,
    H_NPREDEF,
    /* user-defined: 2x2 matrix product and affine-map composition are
     * associative but not commutative; the wrapping sum is commutative */
    H_USER_MATMUL = H_NPREDEF, H_USER_AFFINE, H_USER_SUM,
    H_NOPS
};

#define H_BIT(o) (1u << (o))
#define H_INT_OPS (H_BIT(H_SUM) | H_BIT(H_PROD) | H_BIT(H_MAX) | H_BIT(H_MIN) | H_BIT(H_LAND) | \
                   H_BIT(H_LOR) | H_BIT(H_LXOR) | H_BIT(H_BAND) | H_BIT(H_BOR) | H_BIT(H_BXOR))
/* MPI_AINT, MPI_OFFSET, MPI_COUNT are "Fortran integer" for reductions: no logical ops */
#define H_FINT_OPS (H_INT_OPS & ~(H_BIT(H_LAND) | H_BIT(H_LOR) | H_BIT(H_LXOR)))
#define H_REAL_OPS (H_BIT(H_SUM) | H_BIT(H_PROD) | H_BIT(H_MAX) | H_BIT(H_MIN))
#define H_LOGICAL_OPS (H_BIT(H_LAND) | H_BIT(H_LOR) | H_BIT(H_LXOR))
#define H_COMPLEX_OPS (H_BIT(H_SUM) | H_BIT(H_PROD))
#define H_BYTE_OPS (H_BIT(H_BAND) | H_BIT(H_BOR) | H_BIT(H_BXOR))
#define H_PAIR_OPS (H_BIT(H_MAXLOC) | H_BIT(H_MINLOC))

static const char *const h_op_names[H_NOPS] = {
    "MPI_SUM", "MPI_PROD", "MPI_MAX", "MPI_MIN", "MPI_LAND", "MPI_LOR", "MPI_LXOR", "MPI_BAND",
    "MPI_BOR", "MPI_BXOR", "MPI_MAXLOC", "MPI_MINLOC", "user-matmul", "user-affine", "user-sum"};

static inline bool h_op_commutative(int op) { return op != H_USER_MATMUL && op != H_USER_AFFINE; }
static inline bool h_op_logical(int op) { return op == H_LAND || op == H_LOR || op == H_LXOR; }

/* ---- hashing: the inputs' only source of randomness ------------------- */

static inline uint64_t h_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A value generator gets h (differs per rank, element and field) and e (the
 * same on every rank for one element), so that per-element properties such
 * as "how often is this operand zero" are shared by all operands of that
 * element; otherwise LAND over 8 ranks would almost never be true. */
struct h_draw {
    uint64_t h, e;
    int op;
    bool bounded; /* random reals in (-1, 1): compared within a bound */
};

/* Logical operands are zero with probability 1/2, 1/8 or 7/8 by element. */
static inline bool h_draw_zero(const struct h_draw *d)
{
    static const unsigned rate_of_8[3] = {4, 1, 7};
    return (d->h >> 40) % 8 < rate_of_8[d->e % 3];
}

/* ---- scalars: how one value is drawn, combined, compared, printed ----- */

struct h_scalar {
    const char *name;
    void (*draw)(void *v, const struct h_draw *d);
    void (*combine)(const void *in, void *inout, int op); /* inout = in (op) inout */
    bool (*equal)(const void *a, const void *b);
    void (*show)(const void *v, char *s, size_t n);
    long double (*real)(const void *v); /* real types only: the bounded comparison */
    long double eps;
};

#define H_INT_SCALAR(s, T, UT, FMT, CAST)                                                 \
    static void h_draw_##s(void *v, const struct h_draw *d)                               \
    {                                                                                     \
        const UT all = (UT)~(UT)0, half = (UT)(all >> 1);                                 \
        const UT ends[4] = {0, all, half, (UT)~half}; /* both types' extremes */          \
        UT x = (UT)h_mix(d->h);                                                           \
        switch (d->h & 7) {                                                               \
        case 0: x = (UT)((int)((d->h >> 3) % 7) - 3); break; /* 0 and +-1..3 */           \
        case 1: x = ends[(d->h >> 3) % 4]; break;                                         \
        default: break;                                                                   \
        }                                                                                 \
        if (h_op_logical(d->op))                                                          \
            x = h_draw_zero(d) ? 0 : (x ? x : 1);                                         \
        memcpy(v, &x, sizeof x);                                                          \
    }                                                                                     \
    static void h_combine_##s(const void *in, void *inout, int op)                        \
    {                                                                                     \
        T a, b;                                                                           \
        memcpy(&a, in, sizeof a);                                                         \
        memcpy(&b, inout, sizeof b);                                                      \
        const UT ua = (UT)a, ub = (UT)b;                                                  \
        UT r = 0;                                                                         \
        switch (op) {                                                                     \
        case H_SUM: case H_USER_SUM: r = (UT)(ua + ub); break;                            \
        case H_PROD: r = (UT)((uintmax_t)ua * ub); break;                                 \
        case H_MAX: r = (UT)(a > b ? a : b); break;                                       \
        case H_MIN: r = (UT)(a < b ? a : b); break;                                       \
        case H_LAND: r = (a != 0) && (b != 0); break;                                     \
        case H_LOR: r = (a != 0) || (b != 0); break;                                      \
        case H_LXOR: r = (a != 0) != (b != 0); break;                                     \
        case H_BAND: r = ua & ub; break;                                                  \
        case H_BOR: r = ua | ub; break;                                                   \
        case H_BXOR: r = ua ^ ub; break;                                                  \
        default: abort();                                                                 \
        }                                                                                 \
        memcpy(inout, &r, sizeof r);                                                      \
    }                                                                                     \
    static bool h_equal_##s(const void *a, const void *b) { return memcmp(a, b, sizeof(T)) == 0; } \
    static void h_show_##s(const void *v, char *str, size_t n)                            \
    {                                                                                     \
        T x;                                                                              \
        memcpy(&x, v, sizeof x);                                                          \
        snprintf(str, n, FMT, (CAST)x);                                                   \
    }                                                                                     \
    static const struct h_scalar h_scalar_##s = {#s, h_draw_##s, h_combine_##s, h_equal_##s, \
                                                 h_show_##s, NULL, 0};

H_INT_SCALAR(i8, int8_t, uint8_t, "%lld", long long)
H_INT_SCALAR(i16, int16_t, uint16_t, "%lld", long long)
H_INT_SCALAR(i32, int32_t, uint32_t, "%lld", long long)
H_INT_SCALAR(i64, int64_t, uint64_t, "%lld", long long)
H_INT_SCALAR(u8, uint8_t, uint8_t, "%llu", unsigned long long)
H_INT_SCALAR(u16, uint16_t, uint16_t, "%llu", unsigned long long)
H_INT_SCALAR(u32, uint32_t, uint32_t, "%llu", unsigned long long)
H_INT_SCALAR(u64, uint64_t, uint64_t, "%llu", unsigned long long)

/* The integer scalar of a C integer type's width and signedness. */
static inline const struct h_scalar *h_int_scalar(size_t size, bool is_signed)
{
    switch (size) {
    case 1: return is_signed ? &h_scalar_i8 : &h_scalar_u8;
    case 2: return is_signed ? &h_scalar_i16 : &h_scalar_u16;
    case 4: return is_signed ? &h_scalar_i32 : &h_scalar_u32;
    case 8: return is_signed ? &h_scalar_i64 : &h_scalar_u64;
    default: return NULL;
    }
}

/* Reals: quarters in [-4, 4] for sums and comparisons, {0, +-1/2, +-1, +-2}
 * for products; both exact in every order. */
static inline long double h_draw_real(const struct h_draw *d)
{
    static const long double factors[8] = {0.5L, 1, 2, -0.5L, -1, -2, 1, 0};
    if (d->bounded)
        return (long double)(d->h >> 11) * 0x1p-52L - 1;
    if (d->op == H_PROD)
        return factors[(d->h >> 3) % 8];
    return (long double)((int)((d->h >> 3) % 33) - 16) / 4;
}

#define H_REAL_SCALAR(s, T, EPS)                                                           \
    static void h_draw_##s(void *v, const struct h_draw *d) { *(T *)v = (T)h_draw_real(d); } \
    static void h_combine_##s(const void *in, void *inout, int op)                         \
    {                                                                                      \
        const T a = *(const T *)in, b = *(T *)inout;                                       \
        T *r = inout;                                                                      \
        switch (op) {                                                                      \
        case H_SUM: case H_USER_SUM: *r = a + b; break;                                    \
        case H_PROD: *r = a * b; break;                                                    \
        case H_MAX: *r = a > b ? a : b; break;                                             \
        case H_MIN: *r = a < b ? a : b; break;                                             \
        default: abort();                                                                  \
        }                                                                                  \
    }                                                                                      \
    static bool h_equal_##s(const void *a, const void *b) { return *(const T *)a == *(const T *)b; } \
    static void h_show_##s(const void *v, char *str, size_t n)                             \
    {                                                                                      \
        snprintf(str, n, "%.21Lg", (long double)*(const T *)v);                           \
    }                                                                                      \
    static long double h_real_##s(const void *v) { return *(const T *)v; }                \
    static const struct h_scalar h_scalar_##s = {#s, h_draw_##s, h_combine_##s, h_equal_##s, \
                                                 h_show_##s, h_real_##s, EPS};

H_REAL_SCALAR(f32, float, FLT_EPSILON)
H_REAL_SCALAR(f64, double, DBL_EPSILON)
H_REAL_SCALAR(fld, long double, LDBL_EPSILON)

/* Complex values as {re, im} structs (the layout C11 guarantees).  Factors
 * of products have parts in {-1, 0, 1}: a product of p of them stays below
 * 2^(p/2) in magnitude, exact in float up to p = 40. */
#define H_COMPLEX_SCALAR(s, T)                                                             \
    typedef struct { T re, im; } h_cplx_##s;                                               \
    static void h_draw_##s(void *v, const struct h_draw *d)                                \
    {                                                                                      \
        h_cplx_##s *c = v;                                                                 \
        if (d->op == H_PROD) {                                                             \
            c->re = (T)((int)((d->h >> 3) % 3) - 1);                                       \
            c->im = (T)((int)((d->h >> 13) % 3) - 1);                                      \
        } else {                                                                           \
            c->re = (T)((int)((d->h >> 3) % 33) - 16) / 4;                                 \
            c->im = (T)((int)((d->h >> 13) % 33) - 16) / 4;                                \
        }                                                                                  \
    }                                                                                      \
    static void h_combine_##s(const void *in, void *inout, int op)                         \
    {                                                                                      \
        const h_cplx_##s a = *(const h_cplx_##s *)in, b = *(h_cplx_##s *)inout;            \
        h_cplx_##s *r = inout;                                                             \
        if (op == H_SUM) {                                                                 \
            r->re = a.re + b.re;                                                           \
            r->im = a.im + b.im;                                                           \
        } else if (op == H_PROD) {                                                         \
            r->re = a.re * b.re - a.im * b.im;                                             \
            r->im = a.re * b.im + a.im * b.re;                                             \
        } else {                                                                           \
            abort();                                                                       \
        }                                                                                  \
    }                                                                                      \
    static bool h_equal_##s(const void *a, const void *b)                                  \
    {                                                                                      \
        const h_cplx_##s *x = a, *y = b;                                                   \
        return x->re == y->re && x->im == y->im;                                           \
    }                                                                                      \
    static void h_show_##s(const void *v, char *str, size_t n)                             \
    {                                                                                      \
        const h_cplx_##s *c = v;                                                           \
        snprintf(str, n, "(%Lg,%Lg)", (long double)c->re, (long double)c->im);             \
    }                                                                                      \
    static const struct h_scalar h_scalar_##s = {#s, h_draw_##s, h_combine_##s, h_equal_##s, \
                                                 h_show_##s, NULL, 0};

H_COMPLEX_SCALAR(c32, float)
H_COMPLEX_SCALAR(c64, double)
H_COMPLEX_SCALAR(cld, long double)

static void h_draw_bool(void *v, const struct h_draw *d) { *(_Bool *)v = !h_draw_zero(d); }
static void h_combine_bool(const void *in, void *inout, int op)
{
    const _Bool a = *(const _Bool *)in, b = *(_Bool *)inout;
    _Bool *r = inout;
    switch (op) {
    case H_LAND: *r = a && b; break;
    case H_LOR: *r = a || b; break;
    case H_LXOR: *r = a != b; break;
    default: abort();
    }
}
static bool h_equal_bool(const void *a, const void *b) { return *(const _Bool *)a == *(const _Bool *)b; }
static void h_show_bool(const void *v, char *s, size_t n) { snprintf(s, n, "%d", *(const _Bool *)v); }
static const struct h_scalar h_scalar_bool = {"bool", h_draw_bool, h_combine_bool, h_equal_bool,
                                              h_show_bool, NULL, 0};

/* MAXLOC/MINLOC pairs as MPI lays them out.  Values and indices come from
 * small ranges so that ties (which must keep the smaller index) are common. */
#define H_PAIR_SCALAR(s, V)                                                                \
    typedef struct { V v; int k; } h_pair_##s;                                             \
    static void h_draw_##s(void *v, const struct h_draw *d)                                \
    {                                                                                      \
        h_pair_##s *x = v; /* member stores leave the padding alone */                     \
        x->v = (V)((int)((d->h >> 3) % 5) - 2);                                            \
        x->k = (int)((d->h >> 13) % 7) - 1;                                                \
    }                                                                                      \
    static void h_combine_##s(const void *in, void *inout, int op)                         \
    {                                                                                      \
        const h_pair_##s a = *(const h_pair_##s *)in, b = *(h_pair_##s *)inout;            \
        h_pair_##s *r = inout;                                                             \
        const bool a_wins = op == H_MAXLOC ? a.v > b.v : a.v < b.v;                        \
        if (op != H_MAXLOC && op != H_MINLOC)                                              \
            abort();                                                                       \
        r->v = a_wins || a.v == b.v ? a.v : b.v;                                           \
        r->k = a_wins ? a.k : a.v == b.v ? (a.k < b.k ? a.k : b.k) : b.k;                  \
    }                                                                                      \
    static bool h_equal_##s(const void *a, const void *b)                                  \
    {                                                                                      \
        const h_pair_##s *x = a, *y = b;                                                   \
        return x->v == y->v && x->k == y->k;                                               \
    }                                                                                      \
    static void h_show_##s(const void *v, char *str, size_t n)                             \
    {                                                                                      \
        const h_pair_##s *x = v;                                                           \
        snprintf(str, n, "(%Lg,%d)", (long double)x->v, x->k);                             \
    }                                                                                      \
    static const struct h_scalar h_scalar_##s = {#s, h_draw_##s, h_combine_##s, h_equal_##s, \
                                                 h_show_##s, NULL, 0};

H_PAIR_SCALAR(float_int, float)
H_PAIR_SCALAR(double_int, double)
H_PAIR_SCALAR(long_int, long)
H_PAIR_SCALAR(2int, int)
H_PAIR_SCALAR(short_int, short)
H_PAIR_SCALAR(ldouble_int, long double)

/* 2x2 matrices of doubles drawn from generators of SL(2, Z): products of a
 * few dozen stay exact integers, never collapse to zero, and almost never
 * commute, so any change of operand order shows. */
typedef struct { double m[4]; } h_mat;
static inline void h_matmul(const h_mat *a, h_mat *b) /* b = a b */
{
    const h_mat r = {{a->m[0] * b->m[0] + a->m[1] * b->m[2], a->m[0] * b->m[1] + a->m[1] * b->m[3],
                      a->m[2] * b->m[0] + a->m[3] * b->m[2], a->m[2] * b->m[1] + a->m[3] * b->m[3]}};
    *b = r;
}
static void h_draw_mat(void *v, const struct h_draw *d)
{
    const double a = (double)((int)((d->h >> 3) % 4) - 2 + ((d->h >> 3) % 4 >= 2)); /* +-1, +-2 */
    const h_mat gen[3] = {{{1, a, 0, 1}}, {{1, 0, a, 1}}, {{0, -1, 1, 0}}};
    memcpy(v, &gen[(d->h >> 8) % 3], sizeof(h_mat));
}
static void h_combine_mat(const void *in, void *inout, int op)
{
    if (op != H_USER_MATMUL)
        abort();
    h_mat a, b;
    memcpy(&a, in, sizeof a);
    memcpy(&b, inout, sizeof b);
    h_matmul(&a, &b);
    memcpy(inout, &b, sizeof b);
}
static bool h_equal_mat(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3];
}
static void h_show_mat(const void *v, char *s, size_t n)
{
    const double *x = v;
    snprintf(s, n, "[%g %g; %g %g]", x[0], x[1], x[2], x[3]);
}
static const struct h_scalar h_scalar_mat = {"mat2x2", h_draw_mat, h_combine_mat, h_equal_mat,
                                             h_show_mat, NULL, 0};

/* x -> a x + b over uint32 (wrapping, so exact); in (left) composed after
 * inout: (a1, b1) o (a2, b2) = (a1 a2, a1 b2 + b1). */
typedef struct { uint32_t a, b; } h_affine;
static void h_draw_affine(void *v, const struct h_draw *d)
{
    const uint64_t x = h_mix(d->h);
    const h_affine f = {(uint32_t)x | 1u, (uint32_t)(x >> 32)};
    memcpy(v, &f, sizeof f);
}
static void h_combine_affine(const void *in, void *inout, int op)
{
    if (op != H_USER_AFFINE)
        abort();
    h_affine l, r;
    memcpy(&l, in, sizeof l);
    memcpy(&r, inout, sizeof r);
    const h_affine c = {l.a * r.a, l.a * r.b + l.b};
    memcpy(inout, &c, sizeof c);
}
static bool h_equal_affine(const void *a, const void *b) { return memcmp(a, b, sizeof(h_affine)) == 0; }
static void h_show_affine(const void *v, char *s, size_t n)
{
    const h_affine *f = v;
    snprintf(s, n, "(%u,%u)", f->a, f->b);
}
static const struct h_scalar h_scalar_affine = {"affine", h_draw_affine, h_combine_affine,
                                                h_equal_affine, h_show_affine, NULL, 0};

/* ---- user-defined MPI operations -------------------------------------- */

static inline MPI_Aint h_extent_of(MPI_Datatype dt)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(dt, &lb, &extent);
    return extent;
}

static inline void h_apply_user(const void *in, void *inout, int len, MPI_Datatype dt, int op);

/* MPI hands a user function elements of the call's datatype; the harness
 * knows their layout from the registered test type of that handle. */
static void h_matmul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    h_apply_user(in, inout, *len, *dt, H_USER_MATMUL);
}
static void h_affine_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    h_apply_user(in, inout, *len, *dt, H_USER_AFFINE);
}
static void h_usersum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    h_apply_user(in, inout, *len, *dt, H_USER_SUM);
}

static MPI_Op h_user_ops[H_NOPS - H_NPREDEF];

static inline MPI_Op h_mpi_op(int op)
{
    switch (op) {
    case H_SUM: return MPI_SUM;
    case H_PROD: return MPI_PROD;
    case H_MAX: return MPI_MAX;
    case H_MIN: return MPI_MIN;
    case H_LAND: return MPI_LAND;
    case H_LOR: return MPI_LOR;
    case H_LXOR: return MPI_LXOR;
    case H_BAND: return MPI_BAND;
    case H_BOR: return MPI_BOR;
    case H_BXOR: return MPI_BXOR;
    case H_MAXLOC: return MPI_MAXLOC;
    case H_MINLOC: return MPI_MINLOC;
    default: return h_user_ops[op - H_NPREDEF];
    }
}

/* ---- test types ------------------------------------------------------- */

/* A datatype as the harness sees it: elements `extent` bytes apart, each
 * holding `nfields` values of one scalar at byte offsets `field`.  Bytes of
 * an element outside its fields are gaps that colibri must never write. */
#define H_MAX_FIELDS 4
struct h_type {
    const char *name;
    MPI_Datatype dt;
    const struct h_scalar *sc;
    size_t scalar_size;
    unsigned ops;  /* bit per enum h_op that MPI (or the test) defines on it */
    int nfields;
    MPI_Aint field[H_MAX_FIELDS];
    MPI_Aint extent;
    bool has_gaps; /* false for predefined types: their padding is MPI's business */
};

/* An element of one field at offset 0; the extent is taken from MPI. */
static inline struct h_type h_plain_type(const char *name, MPI_Datatype dt,
                                         const struct h_scalar *sc, size_t scalar_size,
                                         unsigned ops)
{
    struct h_type t = {name, dt, sc, scalar_size, ops, 1, {0}, h_extent_of(dt), false};
    return t;
}

/* Test types that user-defined operations may be called on. */
static const struct h_type *h_registry[32];
static int h_nregistered;

static inline void h_register(const struct h_type *t) { h_registry[h_nregistered++] = t; }

static inline void h_apply_user(const void *in, void *inout, int len, MPI_Datatype dt, int op)
{
    const struct h_type *t = NULL;
    for (int i = 0; i < h_nregistered && !t; i++)
        if (h_registry[i]->dt == dt)
            t = h_registry[i];
    if (!t)
        abort(); /* colibri passed a datatype other than the call's */
    for (int i = 0; i < len; i++)
        for (int f = 0; f < t->nfields; f++)
            t->sc->combine((const char *)in + i * t->extent + t->field[f],
                           (char *)inout + i * t->extent + t->field[f], op);
}

/* Every predefined C datatype with the reductions MPI defines on it
 * (MPI-3.1 5.9.2), plus the user-defined operations on their own types. */
static struct h_type h_predefined[64];
static int h_npredefined;
static struct h_type h_user_types[3];

/* Names that an MPI makes one handle (MPI_LONG_LONG_INT, MPI_LONG_LONG)
 * are tested once. */
static inline void h_add_predefined(const char *name, MPI_Datatype dt, const struct h_scalar *sc,
                                    size_t size, unsigned ops)
{
    for (int i = 0; i < h_npredefined; i++)
        if (h_predefined[i].dt == dt)
            return;
    h_predefined[h_npredefined++] = h_plain_type(name, dt, sc, size, ops);
}

#define H_CINT(h, T, is_signed, ops) \
    h_add_predefined(#h, h, h_int_scalar(sizeof(T), is_signed), sizeof(T), ops)
#define H_TYPE(h, s, T, ops) h_add_predefined(#h, h, &h_scalar_##s, sizeof(T), ops)

/* Call once after MPI_Init. */
static inline void h_types_init(void)
{
    H_CINT(MPI_SIGNED_CHAR, signed char, true, H_INT_OPS);
    H_CINT(MPI_UNSIGNED_CHAR, unsigned char, false, H_INT_OPS);
    H_CINT(MPI_SHORT, short, true, H_INT_OPS);
    H_CINT(MPI_UNSIGNED_SHORT, unsigned short, false, H_INT_OPS);
    H_CINT(MPI_INT, int, true, H_INT_OPS);
    H_CINT(MPI_UNSIGNED, unsigned, false, H_INT_OPS);
    H_CINT(MPI_LONG, long, true, H_INT_OPS);
    H_CINT(MPI_UNSIGNED_LONG, unsigned long, false, H_INT_OPS);
    H_CINT(MPI_LONG_LONG_INT, long long, true, H_INT_OPS);
    H_CINT(MPI_LONG_LONG, long long, true, H_INT_OPS);
    H_CINT(MPI_UNSIGNED_LONG_LONG, unsigned long long, false, H_INT_OPS);
    H_CINT(MPI_INT8_T, int8_t, true, H_INT_OPS);
    H_CINT(MPI_INT16_T, int16_t, true, H_INT_OPS);
    H_CINT(MPI_INT32_T, int32_t, true, H_INT_OPS);
    H_CINT(MPI_INT64_T, int64_t, true, H_INT_OPS);
    H_CINT(MPI_UINT8_T, uint8_t, false, H_INT_OPS);
    H_CINT(MPI_UINT16_T, uint16_t, false, H_INT_OPS);
    H_CINT(MPI_UINT32_T, uint32_t, false, H_INT_OPS);
    H_CINT(MPI_UINT64_T, uint64_t, false, H_INT_OPS);
    H_CINT(MPI_AINT, MPI_Aint, true, H_FINT_OPS);
    H_CINT(MPI_OFFSET, MPI_Offset, true, H_FINT_OPS);
    H_CINT(MPI_COUNT, MPI_Count, true, H_FINT_OPS);
    H_TYPE(MPI_FLOAT, f32, float, H_REAL_OPS);
    H_TYPE(MPI_DOUBLE, f64, double, H_REAL_OPS);
    H_TYPE(MPI_LONG_DOUBLE, fld, long double, H_REAL_OPS);
    H_TYPE(MPI_C_BOOL, bool, _Bool, H_LOGICAL_OPS);
    H_TYPE(MPI_C_COMPLEX, c32, h_cplx_c32, H_COMPLEX_OPS);
    H_TYPE(MPI_C_FLOAT_COMPLEX, c32, h_cplx_c32, H_COMPLEX_OPS);
    H_TYPE(MPI_C_DOUBLE_COMPLEX, c64, h_cplx_c64, H_COMPLEX_OPS);
    H_TYPE(MPI_C_LONG_DOUBLE_COMPLEX, cld, h_cplx_cld, H_COMPLEX_OPS);
    H_TYPE(MPI_BYTE, u8, uint8_t, H_BYTE_OPS);
    H_TYPE(MPI_2INT, 2int, h_pair_2int, H_PAIR_OPS);
    H_TYPE(MPI_FLOAT_INT, float_int, h_pair_float_int, H_PAIR_OPS);
    H_TYPE(MPI_DOUBLE_INT, double_int, h_pair_double_int, H_PAIR_OPS);
    H_TYPE(MPI_LONG_INT, long_int, h_pair_long_int, H_PAIR_OPS);
    H_TYPE(MPI_SHORT_INT, short_int, h_pair_short_int, H_PAIR_OPS);
    H_TYPE(MPI_LONG_DOUBLE_INT, ldouble_int, h_pair_ldouble_int, H_PAIR_OPS);

    MPI_Datatype mat, affine;
    MPI_Type_contiguous(4, MPI_DOUBLE, &mat);
    MPI_Type_commit(&mat);
    MPI_Type_contiguous(2, MPI_UINT32_T, &affine);
    MPI_Type_commit(&affine);
    MPI_Op_create(h_matmul_fn, 0, &h_user_ops[H_USER_MATMUL - H_NPREDEF]);
    MPI_Op_create(h_affine_fn, 0, &h_user_ops[H_USER_AFFINE - H_NPREDEF]);
    MPI_Op_create(h_usersum_fn, 1, &h_user_ops[H_USER_SUM - H_NPREDEF]);
    h_user_types[0] = h_plain_type("mat2x2(contiguous 4 double)", mat, &h_scalar_mat,
                                   sizeof(h_mat), H_BIT(H_USER_MATMUL));
    h_user_types[1] = h_plain_type("affine(contiguous 2 uint32)", affine, &h_scalar_affine,
                                   sizeof(h_affine), H_BIT(H_USER_AFFINE));
    h_user_types[2] = h_plain_type("MPI_LONG_LONG", MPI_LONG_LONG, &h_scalar_i64, 8,
                                   H_BIT(H_USER_SUM));
    for (int i = 0; i < 3; i++)
        h_register(&h_user_types[i]);
}
#undef H_CINT
#undef H_TYPE

/* A predefined test type by MPI name ("MPI_DOUBLE"), NULL if absent. */
static inline const struct h_type *h_type_named(const char *name)
{
    for (int i = 0; i < h_npredefined; i++)
        if (strcmp(h_predefined[i].name, name) == 0)
            return &h_predefined[i];
    return NULL;
}

/* COLIBRI_<COLL>_ALGORITHM, the variable that forces coll's algorithm. */
static inline void h_algorithm_env(colibri_coll coll, char *var, size_t n)
{
    size_t u = (size_t)snprintf(var, n, "COLIBRI_");
    for (const char *q = colibri_coll_name(coll); *q && u + 12 < n; q++)
        var[u++] = (char)toupper((unsigned char)*q);
    snprintf(var + u, n - u, "_ALGORITHM");
}

/* ---- one collective call, checked ------------------------------------- */

struct h_case {
    MPI_Comm comm;
    const char *comm_name;
    colibri_coll coll;
    const char *alg;          /* forced algorithm name */
    const struct h_type *type;
    int op;                   /* enum h_op */
    int64_t count;            /* allreduce, reduce, reduce_scatter_block */
    const int64_t *counts;    /* reduce_scatter: every rank's block */
    bool in_place;            /* reduce: at the root */
    int root;
    uint64_t seed;
    bool via_mpi;             /* call MPI_* (the algorithm comes from the environment) */
    bool bounded;             /* random reals, compared within p eps sum|x| */
    bool null_unused;         /* pass NULL for every buffer MPI says is not used here */
    int expect_class;         /* MPI_SUCCESS (0), or the error class the call must return */
    const char *expect_alg;   /* what colibri_last_algorithm must then say; NULL: alg */
};

#define H_GUARD 3 /* sentinel elements before and after every buffer */

/* Sentinel bytes depend on the position so that a shifted copy shows. */
static inline uint8_t h_sentinel(size_t i) { return (uint8_t)(0xa5u ^ (i * 0x3bu)); }

static inline void h_fill_sentinel(uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        b[i] = h_sentinel(i);
}

static inline size_t h_first_changed(const uint8_t *b, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (b[i] != h_sentinel(i))
            return i;
    return SIZE_MAX;
}

/* The hash shared by every rank's value of one element field. */
static inline uint64_t h_elem_hash(const struct h_case *c, int64_t elem, int field)
{
    return h_mix(c->seed ^ h_mix((uint64_t)elem * H_MAX_FIELDS + (uint64_t)field));
}

static inline struct h_draw h_draw_at(const struct h_case *c, uint64_t e, int rank)
{
    struct h_draw d = {h_mix(e + (uint64_t)rank * 0x632be59bd9b4e019ull), e, c->op, c->bounded};
    return d;
}

/* Rank `rank`'s n input elements into buf. */
static inline void h_fill_input(const struct h_case *c, int rank, int64_t n, char *buf)
{
    const struct h_type *t = c->type;
    for (int64_t i = 0; i < n; i++)
        for (int f = 0; f < t->nfields; f++) {
            struct h_draw d = h_draw_at(c, h_elem_hash(c, i, f), rank);
            t->sc->draw(buf + i * t->extent + t->field[f], &d);
        }
}

static inline int64_t h_in_count(const struct h_case *c, int size)
{
    if (c->coll == COLIBRI_REDUCE_SCATTER_BLOCK)
        return c->count * size;
    if (c->coll == COLIBRI_REDUCE_SCATTER) {
        int64_t n = 0;
        for (int r = 0; r < size; r++)
            n += c->counts[r];
        return n;
    }
    return c->count;
}

/* The elements of the reduced vector this rank receives: [*first, +*n). */
static inline void h_out_range(const struct h_case *c, int rank, int64_t *first, int64_t *n)
{
    *first = 0;
    *n = c->count;
    if (c->coll == COLIBRI_REDUCE_SCATTER_BLOCK) {
        *first = c->count * rank;
    } else if (c->coll == COLIBRI_REDUCE_SCATTER) {
        for (int r = 0; r < rank; r++)
            *first += c->counts[r];
        *n = c->counts[rank];
    } else if (c->coll == COLIBRI_REDUCE && rank != c->root) {
        *n = 0;
    }
}

static inline void h_describe(const struct h_case *c, int size, char *s, size_t n)
{
    size_t u = (size_t)snprintf(s, n, "%s%s/%s %s %s", c->via_mpi ? "MPI_* " : "",
                                colibri_coll_name(c->coll), c->alg, c->type->name,
                                h_op_names[c->op]);
    if (c->coll == COLIBRI_REDUCE_SCATTER) {
        u += (size_t)snprintf(s + u, u < n ? n - u : 0, " counts=");
        for (int r = 0; r < size && r < 12; r++)
            u += (size_t)snprintf(s + u, u < n ? n - u : 0, "%s%lld", r ? "," : "",
                                  (long long)c->counts[r]);
        if (size > 12)
            u += (size_t)snprintf(s + u, u < n ? n - u : 0, ",...");
    } else {
        u += (size_t)snprintf(s + u, u < n ? n - u : 0, " n=%lld", (long long)c->count);
    }
    if (c->coll == COLIBRI_REDUCE)
        u += (size_t)snprintf(s + u, u < n ? n - u : 0, " root=%d", c->root);
    snprintf(s + u, u < n ? n - u : 0, "%s%s%s on %s(p=%d)", c->in_place ? " in-place" : "",
             c->bounded ? " random-reals" : "", c->null_unused ? " NULL-unused-buffers" : "",
             c->comm_name, size);
}

/* The case in flight, for the watchdog. */
static const struct h_case *h_current;
static int h_current_size;

static void h_watchdog(int sig)
{
    (void)sig;
    static char s[512];
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int u = snprintf(s, sizeof s, "[rank %d] TIMEOUT (deadlock?) in ", rank);
    if (h_current)
        h_describe(h_current, h_current_size, s + u, sizeof s - (size_t)u);
    u = (int)strlen(s);
    s[u++] = '\n';
    if (write(2, s, (size_t)u) < 0)
        _exit(125);
    _exit(124);
}

/* Seconds one case may take before the test gives up on it as hung. */
#define H_CASE_TIMEOUT 120

static inline int h_call(const struct h_case *c, const void *sb, void *rb, int size)
{
    const MPI_Datatype dt = c->type->dt;
    const MPI_Op op = h_mpi_op(c->op);
    switch (c->coll) {
    case COLIBRI_ALLREDUCE:
        return c->via_mpi ? MPI_Allreduce(sb, rb, (int)c->count, dt, op, c->comm)
                          : colibri_allreduce(sb, rb, c->count, dt, op, c->comm, c->alg);
    case COLIBRI_REDUCE:
        return c->via_mpi ? MPI_Reduce(sb, rb, (int)c->count, dt, op, c->root, c->comm)
                          : colibri_reduce(sb, rb, c->count, dt, op, c->root, c->comm, c->alg);
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        return c->via_mpi ? MPI_Reduce_scatter_block(sb, rb, (int)c->count, dt, op, c->comm)
                          : colibri_reduce_scatter_block(sb, rb, c->count, dt, op, c->comm, c->alg);
    case COLIBRI_REDUCE_SCATTER: {
        int rc;
        if (c->via_mpi) {
            int *ic = malloc((size_t)size * sizeof *ic);
            for (int r = 0; r < size; r++)
                ic[r] = (int)c->counts[r];
            rc = MPI_Reduce_scatter(sb, rb, ic, dt, op, c->comm);
            free(ic);
        } else {
            MPI_Count *mc = malloc((size_t)size * sizeof *mc);
            for (int r = 0; r < size; r++)
                mc[r] = c->counts[r];
            rc = colibri_reduce_scatter(sb, rb, mc, dt, op, c->comm, c->alg);
            free(mc);
        }
        return rc;
    }
    default:
        return MPI_ERR_ARG;
    }
}

/* Compares this rank's result with the serial reference; the first
 * mismatch goes to why.  Returns the number of wrong elements. */
static inline int64_t h_check_result(const struct h_case *c, int size, int64_t first, int64_t n,
                                     const char *res, char *why, size_t len)
{
    const struct h_type *t = c->type;
    const struct h_scalar *sc = t->sc;
    int64_t wrong = 0;
    _Alignas(32) char acc[64];
    _Alignas(32) char x[64];
    for (int64_t i = 0; i < n; i++) {
        for (int f = 0; f < t->nfields; f++) {
            const char *got = res + i * t->extent + t->field[f];
            const uint64_t e = h_elem_hash(c, first + i, f);
            bool ok;
            if (c->bounded) {
                /* sum in long double, bound |error| by p eps sum|x| */
                long double sum = 0, mag = 0;
                for (int r = 0; r < size; r++) {
                    struct h_draw d = h_draw_at(c, e, r);
                    sc->draw(x, &d);
                    sum += sc->real(x);
                    mag += fabsl(sc->real(x));
                }
                ok = fabsl(sc->real(got) - sum) <= size * sc->eps * mag;
                if (!ok && !wrong)
                    snprintf(why, len, "element %lld: got %.17Lg, want %.17Lg +- %.3Lg",
                             (long long)i, sc->real(got), sum, size * sc->eps * mag);
            } else {
                /* fold right to left, so rank r's value is always the left operand */
                struct h_draw d = h_draw_at(c, e, size - 1);
                sc->draw(acc, &d);
                for (int r = size - 2; r >= 0; r--) {
                    d = h_draw_at(c, e, r);
                    sc->draw(x, &d);
                    sc->combine(x, acc, c->op);
                }
                ok = sc->equal(got, acc);
                if (!ok && !wrong) {
                    char gs[96], ws[96];
                    sc->show(got, gs, sizeof gs);
                    sc->show(acc, ws, sizeof ws);
                    snprintf(why, len, "element %lld%s: got %s, want %s", (long long)i,
                             t->nfields > 1 ? (f ? " (later field)" : " (field 0)") : "", gs, ws);
                }
            }
            wrong += !ok;
        }
    }
    return wrong;
}

/* The first byte of elements [from, to) of buf that is a gap and was
 * written, as an offset from buf (where the sentinel pattern starts). */
static inline size_t h_first_gap_written(const struct h_type *t, const uint8_t *buf, int64_t from,
                                         int64_t to)
{
    if (!t->has_gaps)
        return SIZE_MAX;
    for (int64_t i = from; i < to; i++) {
        for (MPI_Aint b = 0; b < t->extent; b++) {
            bool in_field = false;
            for (int f = 0; f < t->nfields && !in_field; f++)
                in_field = b >= t->field[f] && b < t->field[f] + (MPI_Aint)t->scalar_size;
            size_t at = (size_t)(i * t->extent + b);
            if (!in_field && buf[at] != h_sentinel(at))
                return at;
        }
    }
    return SIZE_MAX;
}

/* Runs one case on this rank.  Returns true if it passed here; otherwise
 * why says what went wrong. */
static inline bool h_run_case(const struct h_case *c, char *why, size_t len)
{
    int rank, size;
    MPI_Comm_rank(c->comm, &rank);
    MPI_Comm_size(c->comm, &size);
    const struct h_type *t = c->type;
    const MPI_Aint ext = t->extent;
    const bool root = c->coll != COLIBRI_REDUCE || rank == c->root;
    const bool in_place = c->in_place && root;
    int64_t first, nout;
    h_out_range(c, rank, &first, &nout);
    const int64_t nin = h_in_count(c, size);
    const int64_t nrecv = in_place ? nin : c->coll == COLIBRI_REDUCE ? c->count : nout;

    const size_t sbytes = (size_t)(nin + 2 * H_GUARD) * (size_t)ext;
    const size_t rbytes = (size_t)(nrecv + 2 * H_GUARD) * (size_t)ext;
    uint8_t *sbuf = malloc(sbytes), *rbuf = malloc(rbytes), *sref = malloc(sbytes);
    if (!sbuf || !rbuf || !sref) {
        snprintf(why, len, "test out of memory");
        free(sbuf), free(rbuf), free(sref);
        return false;
    }
    h_fill_sentinel(sbuf, sbytes);
    h_fill_sentinel(rbuf, rbytes);
    const size_t g = (size_t)H_GUARD * (size_t)ext;
    h_fill_input(c, rank, nin, (char *)(in_place ? rbuf : sbuf) + g);
    memcpy(sref, in_place ? rbuf : sbuf, in_place ? rbytes : sbytes);

    h_current = c;
    h_current_size = size;
    alarm(H_CASE_TIMEOUT);
    /* not used: a non-root's recvbuf in reduce, an empty block's recvbuf,
     * an empty input */
    const bool no_send = c->null_unused && nin == 0 && !in_place;
    const bool no_recv = c->null_unused && !in_place && (!root || nout == 0);
    int rc = h_call(c, in_place ? MPI_IN_PLACE : no_send ? NULL : (void *)(sbuf + g),
                    no_recv ? NULL : rbuf + g, size);
    alarm(0);
    h_current = NULL;

    bool ok = false;
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    size_t at;
    if (cls != c->expect_class) {
        char es[MPI_MAX_ERROR_STRING] = "";
        int el = 0;
        if (rc != MPI_SUCCESS)
            MPI_Error_string(rc, es, &el);
        snprintf(why, len, "returned error class %d (%s), expected %d", cls, es, c->expect_class);
    } else if (!in_place && memcmp(sbuf, sref, sbytes) != 0) {
        for (at = 0; sbuf[at] == sref[at]; at++)
            ;
        snprintf(why, len, "sendbuf modified at byte %zu (element %lld)", at,
                 (long long)((MPI_Aint)at / ext) - H_GUARD);
    } else if (c->expect_class != MPI_SUCCESS) {
        /* an error leaves every buffer as it was */
        bool touched = in_place ? memcmp(rbuf, sref, rbytes) != 0
                                : h_first_changed(rbuf, 0, rbytes) != SIZE_MAX;
        if (touched)
            snprintf(why, len, "failing call modified recvbuf");
        ok = !touched;
    } else if ((at = h_first_changed(rbuf, 0, g)) != SIZE_MAX) {
        snprintf(why, len, "recvbuf written before its start (byte %zu of the guard)", at);
    } else if ((at = h_first_changed(rbuf, g + (size_t)(nrecv * ext), rbytes)) != SIZE_MAX) {
        snprintf(why, len, "recvbuf written past its end (element %lld)",
                 (long long)((MPI_Aint)at / ext) - H_GUARD);
    } else if (!root && (at = h_first_changed(rbuf, 0, rbytes)) != SIZE_MAX) {
        snprintf(why, len, "recvbuf of a non-root written (element %lld)",
                 (long long)((MPI_Aint)at / ext) - H_GUARD);
    } else if ((at = h_first_gap_written(t, rbuf, H_GUARD, H_GUARD + (in_place ? nout : nrecv))) !=
               SIZE_MAX) {
        snprintf(why, len, "gap byte %zu of result element %lld written", (size_t)(at % (size_t)ext),
                 (long long)((MPI_Aint)at / ext) - H_GUARD);
    } else {
        const char *expected = c->expect_alg ? c->expect_alg : c->alg;
        const char *last = colibri_last_algorithm(c->comm, c->coll);
        int64_t wrong = h_check_result(c, size, first, nout, (const char *)rbuf + g, why, len);
        if (wrong) {
            size_t u = strlen(why);
            snprintf(why + u, len - u, " (%lld of %lld values wrong)", (long long)wrong,
                     (long long)(nout * t->nfields));
        } else if (strcmp(c->alg, "auto") != 0 && (!last || strcmp(last, expected) != 0)) {
            /* (automatic: whatever it chose; online selection explores) */
            snprintf(why, len, "colibri_last_algorithm says '%s'", last ? last : "(null)");
        } else {
            ok = true;
        }
    }
    free(sbuf), free(rbuf), free(sref);
    return ok;
}

/* ---- accounting ------------------------------------------------------- */

/* Cases are counted per communicator (a case is one call on all its ranks)
 * and agreed in batches: one PMPI_Allreduce per batch tells every rank which
 * cases failed anywhere, and the lowest failing rank prints the line. */
#define H_BATCH 1024
#ifndef H_MAX_LINES
#define H_MAX_LINES 40 /* failure lines printed (-DH_MAX_LINES=n for more) */
#endif
#define H_MSG 400

static struct {
    MPI_Comm comm;
    int n;
    int fail_rank[H_BATCH];
    char *msg[H_BATCH];
    int lines;
} h_tally = {MPI_COMM_NULL, 0, {0}, {0}, 0};
/* check_passed, check_failed (../lib/check.h): counted by rank 0 of each
 * batch's comm. */

static inline void h_flush(void)
{
    if (h_tally.n == 0)
        return;
    int rank, all[H_BATCH];
    MPI_Comm_rank(h_tally.comm, &rank);
    PMPI_Allreduce(h_tally.fail_rank, all, h_tally.n, MPI_INT, MPI_MIN, h_tally.comm);
    for (int i = 0; i < h_tally.n; i++) {
        if (rank == 0)
            check_count(all[i] == INT_MAX);
        if (all[i] != INT_MAX) {
            if (all[i] == rank && h_tally.lines < H_MAX_LINES)
                printf("FAIL %s\n", h_tally.msg[i]);
            h_tally.lines++;
        }
        free(h_tally.msg[i]);
        h_tally.msg[i] = NULL;
    }
    fflush(stdout);
    h_tally.n = 0;
}

/* Records one case's outcome on this rank; `comm` is the communicator every
 * rank taking part in the case records it on. */
static inline void h_record(MPI_Comm comm, bool ok, const char *fmt, ...)
{
    if (comm != h_tally.comm) {
        h_flush();
        h_tally.comm = comm;
    }
    int rank;
    MPI_Comm_rank(comm, &rank);
    h_tally.fail_rank[h_tally.n] = ok ? INT_MAX : rank;
    if (!ok) {
        h_tally.msg[h_tally.n] = malloc(H_MSG);
        int u = snprintf(h_tally.msg[h_tally.n], H_MSG, "[rank %d] ", rank);
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(h_tally.msg[h_tally.n] + u, H_MSG - (size_t)u, fmt, ap);
        va_end(ap);
    }
    if (++h_tally.n == H_BATCH)
        h_flush();
}

/* Runs and records one case. */
static inline bool h_case(const struct h_case *c)
{
    char why[H_MSG] = "", desc[H_MSG];
    bool ok = h_run_case(c, why, sizeof why);
    if (!ok) {
        int size;
        MPI_Comm_size(c->comm, &size);
        h_describe(c, size, desc, sizeof desc);
    }
    h_record(c->comm, ok, "%s: %s", ok ? "" : desc, why);
    return ok;
}

/* Sets up MPI, the types and the watchdog. */
static inline void h_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    signal(SIGALRM, h_watchdog);
    h_types_init();
}

/* Prints "N passed, N failed" on rank 0, finalizes, returns the exit code. */
static inline int h_finish(void)
{
    h_flush();
    long long mine[2] = {check_passed, check_failed}, total[2];
    PMPI_Allreduce(mine, total, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        if (h_tally.lines > H_MAX_LINES)
            printf("(%d more failure lines not shown)\n", h_tally.lines - H_MAX_LINES);
        check_print_totals(total[0], total[1]);
    }
    for (int i = 0; i < 2; i++)
        MPI_Type_free(&h_user_types[i].dt);
    for (int i = 0; i < H_NOPS - H_NPREDEF; i++)
        MPI_Op_free(&h_user_ops[i]);
    MPI_Finalize();
    return total[1] != 0;
}

/* Tuning rules in force on every rank: rank 0 writes them to `path`, all
 * point COLIBRI_TUNING at it and reload. */
static inline void h_use_rules(const char *path, const char *rules)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        FILE *f = fopen(path, "w");
        fputs(rules, f);
        fclose(f);
    }
    PMPI_Barrier(MPI_COMM_WORLD);
    setenv("COLIBRI_TUNING", path, 1);
    colibri_config_reload();
}

#endif
