/*
 * Local reduction kernels: inout[i] = in[i] (op) inout[i] for every
 * predefined op on every predefined datatype MPI-3.1 §5.9.2 defines it for.
 *
 * Why our own kernels rather than MPI_Reduce_local: they are plain loops the
 * compiler vectorises, they cost no call into the MPI library per block, and
 * their results are the same under every MPI (Open MPI 4.1's AVX op, for
 * one, saturates 8-bit sums where MPI requires wraparound).
 *
 * Handles are not constant expressions everywhere (Open MPI and SMPI use
 * addresses of globals, other MPIs may use variables), so types and ops are
 * recognised by if-chains evaluated per lookup: no table to initialise, hence
 * nothing to race on, and a lookup is a few dozen compares once per call.
 *
 * Kernels take `restrict` pointers: in and inout must not overlap, as MPI
 * requires of MPI_Reduce_local's buffers.
 */
#include "dense.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "sparse.h"

/* ---- operations ------------------------------------------------------- */

/* Most frequent first: the chain is scanned in this order. */
#define OP_LIST(X) X(SUM) X(MAX) X(MIN) X(PROD) X(LAND) X(BAND) X(LOR) X(BOR) \
    X(LXOR) X(BXOR) X(MAXLOC) X(MINLOC)

enum {
#define X(o) OP_##o,
    OP_LIST(X)
#undef X
    OP_N
};

static int op_index(MPI_Op op)
{
#define X(o) if (op == MPI_##o) return OP_##o;
    OP_LIST(X)
#undef X
    return -1;
}

int kernel_op_is_predefined(MPI_Op op) { return op_index(op) >= 0; }

/* MPI_REPLACE and MPI_NO_OP are named too: they are predefined handles that
 * can reach an error message, even though no kernel exists for them. */
const char *kernel_op_name(MPI_Op op)
{
#define X(o) if (op == MPI_##o) return "MPI_" #o;
    OP_LIST(X) X(REPLACE) X(NO_OP)
#undef X
    return NULL;
}

/* ---- kernels ---------------------------------------------------------- */

/* gcc does not unroll at -O3 unless asked, and with one vector op per
 * iteration the loop is bound by its own overhead: unrolling 4x gave
 * 1.2-1.7x on L1-resident buffers (gcc 12, -march=x86-64-v2 and -v3) and
 * nothing lost beyond.  Other compilers keep their default. */
#if defined(__GNUC__)
#define UNROLL _Pragma("GCC unroll 4")
#else
#define UNROLL
#endif

/* One library serves every x86-64 machine: GCC compiles each kernel for
 * AVX2 as well and picks the version at load time (ifunc), which doubles
 * L1/L2-resident throughput over the SSE2 baseline. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CLONES
#endif

/* The NaN select of the float kernels below only vectorises when the
 * compiler may evaluate both arms (it does not change any result: colibri
 * never reads the floating-point exception flags). */
#if defined(__GNUC__) && !defined(__clang__)
#define NO_TRAP __attribute__((optimize("no-trapping-math")))
#else
#define NO_TRAP
#endif

/* The one loop every kernel is: element i of type T at in[i] and io[i]. */
#define LOOP_KERNEL(name, T, ...)                                          \
    CLONES static void name(const void *in_, void *inout_, size_t n)       \
    {                                                                      \
        const T *restrict in = in_;                                        \
        T *restrict io = inout_;                                           \
        UNROLL                                                             \
        for (size_t i = 0; i < n; i++) { __VA_ARGS__ }                     \
    }

/* Element-wise kernel: a = in[i], b = inout[i]. */
#define KERNEL(name, T, expr) LOOP_KERNEL(name, T, const T a = in[i]; const T b = io[i]; io[i] = (expr);)

/* MAX/MIN are plain C selects, a = in[i], b = inout[i].  For floating
 * point that fixes NaN handling: a comparison with a NaN is false, so when
 * either operand is NaN the result is inout[i] (max(NaN, x) = x but
 * max(x, NaN) = NaN), and for -0.0 vs +0.0 it is inout[i] too.  That is
 * exactly what (v)maxps/(v)minps compute, so the loops vectorise without
 * -ffast-math. */
#define ORDER_KERNELS(s, T)                                                \
    KERNEL(max_##s, T, a > b ? a : b)                                      \
    KERNEL(min_##s, T, a < b ? a : b)

/* Integer SUM/PROD are done in the unsigned type of the same width, which
 * wraps modulo 2^n; signed types share these kernels (same bits in two's
 * complement, and accessing a signed object through its unsigned type is
 * allowed aliasing).  `1u *` keeps 8/16-bit products out of signed int,
 * where 0xffff * 0xffff would overflow.  Logical ops treat nonzero as true
 * and write 1 or 0. */
#define UNSIGNED_KERNELS(w)                                                \
    ORDER_KERNELS(u##w, uint##w##_t)                                       \
    ORDER_KERNELS(i##w, int##w##_t)                                        \
    KERNEL(sum_u##w, uint##w##_t, (uint##w##_t)(a + b))                    \
    KERNEL(prod_u##w, uint##w##_t, (uint##w##_t)(1u * a * b))              \
    KERNEL(band_u##w, uint##w##_t, a & b)                                  \
    KERNEL(bor_u##w, uint##w##_t, a | b)                                   \
    KERNEL(bxor_u##w, uint##w##_t, a ^ b)                                  \
    KERNEL(land_u##w, uint##w##_t, (uint##w##_t)((a != 0) & (b != 0)))     \
    KERNEL(lor_u##w, uint##w##_t, (uint##w##_t)((a != 0) | (b != 0)))      \
    KERNEL(lxor_u##w, uint##w##_t, (uint##w##_t)((a != 0) ^ (b != 0)))

UNSIGNED_KERNELS(8)
UNSIGNED_KERNELS(16)
UNSIGNED_KERNELS(32)
UNSIGNED_KERNELS(64)

/* Ordinary IEEE arithmetic, with one choice IEEE leaves open made fixed:
 * NaN (op) NaN gives inout's NaN (quieted), as does NaN (op) x.  The
 * hardware returns its first operand's NaN, and the compiler may order the
 * operands of `a + b` one way in the vector body and the other in the
 * scalar remainder, so the payload would depend on where a call's elements
 * fall; algorithms that cut a vector differently (the sparse ones) would
 * then differ from the dense ones in NaN payloads.  The select costs a
 * compare and a blend per vector.  A complex value is laid out as two reals
 * (C11 6.2.5p13), so complex SUM is the real SUM over 2n values, and PROD
 * reads {re, im} structs (no padding between two like members).  PROD is
 * spelled out rather than using `*`, whose Annex G inf/NaN recovery
 * (__mulsc3) is an opaque call per element that stops vectorisation; the
 * results differ only when an operand is infinite or NaN. */
#define FLOAT_KERNELS(s, R)                                                \
    ORDER_KERNELS(s, R)                                                    \
    NO_TRAP KERNEL(sum_##s, R, b != b ? b + b : a + b)                     \
    NO_TRAP KERNEL(prod_##s, R, b != b ? b * b : a * b)                    \
    typedef struct { R re, im; } cplx_##s;                                 \
    static void sum_c##s(const void *in, void *inout, size_t n)            \
    {                                                                      \
        sum_##s(in, inout, 2 * n);                                         \
    }                                                                      \
    LOOP_KERNEL(prod_c##s, cplx_##s,                                       \
                const cplx_##s a = in[i]; const cplx_##s b = io[i];        \
                io[i].re = a.re * b.re - a.im * b.im;                      \
                io[i].im = a.re * b.im + a.im * b.re;)

FLOAT_KERNELS(f32, float)
FLOAT_KERNELS(f64, double)
FLOAT_KERNELS(fld, long double)

/* MAXLOC/MINLOC on {value; index} structs laid out as MPI lays out the pair
 * types (padding included, so n elements span n*extent bytes).  A larger
 * (smaller) value wins; equal values keep the smaller index, whichever
 * buffer it is in.  With a NaN value neither test holds and inout stays.
 * Both fields are always stored so the loop has no branch. */
#define PAIR_KERNELS(s, V, K)                                              \
    typedef struct { V v; K k; } pair_##s;                                 \
    PAIR_KERNEL(maxloc_##s, pair_##s, >)                                   \
    PAIR_KERNEL(minloc_##s, pair_##s, <)
#define PAIR_KERNEL(name, P, CMP)                                          \
    LOOP_KERNEL(name, P,                                                   \
                const P a = in[i]; const P b = io[i];                      \
                const int take = (a.v CMP b.v) | ((a.v == b.v) & (a.k < b.k)); \
                io[i].v = take ? a.v : b.v;                                \
                io[i].k = take ? a.k : b.k;)

PAIR_KERNELS(float_int, float, int)
PAIR_KERNELS(double_int, double, int)
PAIR_KERNELS(long_int, long, int)
PAIR_KERNELS(2int, int, int)
PAIR_KERNELS(short_int, short, int)
PAIR_KERNELS(ldouble_int, long double, int)
PAIR_KERNELS(2f32, float, float)          /* MPI_2REAL */
PAIR_KERNELS(2f64, double, double)        /* MPI_2DOUBLE_PRECISION */
PAIR_KERNELS(2i64, int64_t, int64_t)      /* MPI_2INTEGER with INTEGER*8 */

/* ---- representations: which kernels a type's memory takes ------------- */

enum rep {
    R_NONE = -1,
    R_U8, R_U16, R_U32, R_U64, R_I8, R_I16, R_I32, R_I64,
    R_F32, R_F64, R_FLD, R_C32, R_C64, R_CLD,
    R_FLOAT_INT, R_DOUBLE_INT, R_LONG_INT, R_2INT, R_SHORT_INT, R_LDOUBLE_INT,
    R_2F32, R_2F64, R_2I64,
    R_N
};

#define INT_ROW(s, w) {                                                    \
    [OP_MAX] = max_##s, [OP_MIN] = min_##s,                                \
    [OP_SUM] = sum_u##w, [OP_PROD] = prod_u##w,                            \
    [OP_LAND] = land_u##w, [OP_LOR] = lor_u##w, [OP_LXOR] = lxor_u##w,     \
    [OP_BAND] = band_u##w, [OP_BOR] = bor_u##w, [OP_BXOR] = bxor_u##w }
#define FLOAT_ROW(s) {                                                     \
    [OP_MAX] = max_##s, [OP_MIN] = min_##s,                                \
    [OP_SUM] = sum_##s, [OP_PROD] = prod_##s }
#define COMPLEX_ROW(s) { [OP_SUM] = sum_c##s, [OP_PROD] = prod_c##s }
#define PAIR_ROW(s) { [OP_MAXLOC] = maxloc_##s, [OP_MINLOC] = minloc_##s }

static const colibri_kernel kernels[R_N][OP_N] = {
    [R_U8] = INT_ROW(u8, 8),     [R_I8] = INT_ROW(i8, 8),
    [R_U16] = INT_ROW(u16, 16),  [R_I16] = INT_ROW(i16, 16),
    [R_U32] = INT_ROW(u32, 32),  [R_I32] = INT_ROW(i32, 32),
    [R_U64] = INT_ROW(u64, 64),  [R_I64] = INT_ROW(i64, 64),
    [R_F32] = FLOAT_ROW(f32),    [R_C32] = COMPLEX_ROW(f32),
    [R_F64] = FLOAT_ROW(f64),    [R_C64] = COMPLEX_ROW(f64),
    [R_FLD] = FLOAT_ROW(fld),    [R_CLD] = COMPLEX_ROW(fld),
    [R_FLOAT_INT] = PAIR_ROW(float_int),   [R_DOUBLE_INT] = PAIR_ROW(double_int),
    [R_LONG_INT] = PAIR_ROW(long_int),     [R_2INT] = PAIR_ROW(2int),
    [R_SHORT_INT] = PAIR_ROW(short_int),   [R_LDOUBLE_INT] = PAIR_ROW(ldouble_int),
    [R_2F32] = PAIR_ROW(2f32),   [R_2F64] = PAIR_ROW(2f64),   [R_2I64] = PAIR_ROW(2i64),
};

static int int_rep(size_t size, int is_signed)
{
    const int base = is_signed ? R_I8 : R_U8;
    switch (size) {
    case 1: return base;
    case 2: return base + 1;
    case 4: return base + 2;
    case 8: return base + 3;
    default: return R_NONE;
    }
}
#define SINT(T) int_rep(sizeof(T), 1)
#define UINT(T) int_rep(sizeof(T), 0)

/* Fortran types have whatever size the Fortran compiler gave them; the
 * size picks the C representation.  16-byte reals are binary128 in
 * gfortran, which long double is only where it has a 113-bit mantissa. */
#define LDBL_IS_QUAD (LDBL_MANT_DIG == 113)
static int f_int(int size) { return int_rep((size_t)size, 1); }
static int f_logical(int size) { return int_rep((size_t)size, 0); }
static int f_real(int size)
{
    return size == 4 ? R_F32 : size == 8 ? R_F64
         : size == (int)sizeof(long double) && LDBL_IS_QUAD ? R_FLD : R_NONE;
}
static int f_complex(int size)
{
    const int r = f_real(size / 2);
    return r == R_NONE ? R_NONE : r - R_F32 + R_C32;
}
static int f_2real(int size)
{
    return size == 8 ? R_2F32 : size == 16 ? R_2F64 : R_NONE;
}
static int f_2integer(int size)
{
    return size == (int)sizeof(pair_2int) ? R_2INT : size == 16 ? R_2I64 : R_NONE;
}

/* ---- datatypes -------------------------------------------------------- */

/* MPI-3.1 §5.9.2 groups, as the ops each allows. */
#define M(o) (1u << OP_##o)
enum {
    G_NONE = 0,
    G_CINT = M(MAX) | M(MIN) | M(SUM) | M(PROD) | M(LAND) | M(LOR) | M(LXOR) |
             M(BAND) | M(BOR) | M(BXOR),
    /* Fortran integer and the multi-language types: no logical ops */
    G_FINT = M(MAX) | M(MIN) | M(SUM) | M(PROD) | M(BAND) | M(BOR) | M(BXOR),
    G_FLOAT = M(MAX) | M(MIN) | M(SUM) | M(PROD),
    G_LOGICAL = M(LAND) | M(LOR) | M(LXOR),
    G_COMPLEX = M(SUM) | M(PROD),
    G_BYTE = M(BAND) | M(BOR) | M(BXOR),
    G_PAIR = M(MAXLOC) | M(MINLOC),
};
#undef M

struct tinfo {
    const char *name;
    unsigned ops;
    int rep;
};

/* Size-mapped types call MPI only when the representation is wanted, so
 * kernel_type_name works without MPI.  Where an MPI aliases two names to
 * one handle (SMPI: MPI_LOGICAL is MPI_INT, MPI_INTEGER is MPI_INT) the
 * first entry wins, so C types come before Fortran ones. */
static int type_find(MPI_Datatype t, struct tinfo *ti, int want_rep)
{
#define C_TYPE(h, g, rep)                                                  \
    if (t == (h)) {                                                        \
        *ti = (struct tinfo){#h, (g), (rep)};                              \
        return 1;                                                          \
    }
#define F_TYPE(h, g, map)                                                  \
    if (t == (h)) {                                                        \
        int sz = 0;                                                        \
        *ti = (struct tinfo){#h, (g), R_NONE};                             \
        if (want_rep && PMPI_Type_size(t, &sz) == MPI_SUCCESS)             \
            ti->rep = map(sz);                                             \
        return 1;                                                          \
    }
    if (t == MPI_DATATYPE_NULL) /* also what some MPIs alias absent types to */
        return 0;
    C_TYPE(MPI_DOUBLE, G_FLOAT, R_F64)
    C_TYPE(MPI_FLOAT, G_FLOAT, R_F32)
    C_TYPE(MPI_INT, G_CINT, SINT(int))
    C_TYPE(MPI_LONG, G_CINT, SINT(long))
    C_TYPE(MPI_UNSIGNED, G_CINT, UINT(unsigned))
    C_TYPE(MPI_UNSIGNED_LONG, G_CINT, UINT(unsigned long))
    C_TYPE(MPI_INT64_T, G_CINT, R_I64)
    C_TYPE(MPI_UINT64_T, G_CINT, R_U64)
    C_TYPE(MPI_INT32_T, G_CINT, R_I32)
    C_TYPE(MPI_UINT32_T, G_CINT, R_U32)
    C_TYPE(MPI_INT16_T, G_CINT, R_I16)
    C_TYPE(MPI_UINT16_T, G_CINT, R_U16)
    C_TYPE(MPI_INT8_T, G_CINT, R_I8)
    C_TYPE(MPI_UINT8_T, G_CINT, R_U8)
    C_TYPE(MPI_SHORT, G_CINT, SINT(short))
    C_TYPE(MPI_UNSIGNED_SHORT, G_CINT, UINT(unsigned short))
    C_TYPE(MPI_LONG_LONG_INT, G_CINT, SINT(long long))
    C_TYPE(MPI_LONG_LONG, G_CINT, SINT(long long))
    C_TYPE(MPI_UNSIGNED_LONG_LONG, G_CINT, UINT(unsigned long long))
    C_TYPE(MPI_SIGNED_CHAR, G_CINT, SINT(signed char))
    C_TYPE(MPI_UNSIGNED_CHAR, G_CINT, UINT(unsigned char))
    C_TYPE(MPI_AINT, G_FINT, SINT(MPI_Aint))
    C_TYPE(MPI_OFFSET, G_FINT, SINT(MPI_Offset))
    C_TYPE(MPI_COUNT, G_FINT, SINT(MPI_Count))
    C_TYPE(MPI_LONG_DOUBLE, G_FLOAT, R_FLD)
    C_TYPE(MPI_C_BOOL, G_LOGICAL, UINT(_Bool))
    C_TYPE(MPI_BYTE, G_BYTE, R_U8)
    C_TYPE(MPI_C_FLOAT_COMPLEX, G_COMPLEX, R_C32)
    C_TYPE(MPI_C_COMPLEX, G_COMPLEX, R_C32)
    C_TYPE(MPI_C_DOUBLE_COMPLEX, G_COMPLEX, R_C64)
    C_TYPE(MPI_C_LONG_DOUBLE_COMPLEX, G_COMPLEX, R_CLD)
    C_TYPE(MPI_DOUBLE_INT, G_PAIR, R_DOUBLE_INT)
    C_TYPE(MPI_FLOAT_INT, G_PAIR, R_FLOAT_INT)
    C_TYPE(MPI_LONG_INT, G_PAIR, R_LONG_INT)
    C_TYPE(MPI_2INT, G_PAIR, R_2INT)
    C_TYPE(MPI_SHORT_INT, G_PAIR, R_SHORT_INT)
    C_TYPE(MPI_LONG_DOUBLE_INT, G_PAIR, R_LDOUBLE_INT)
    /* C++ bool and std::complex<T> share the C layouts on every ABI we meet */
#ifdef MPI_CXX_BOOL
    C_TYPE(MPI_CXX_BOOL, G_LOGICAL, UINT(_Bool))
#endif
#ifdef MPI_CXX_FLOAT_COMPLEX
    C_TYPE(MPI_CXX_FLOAT_COMPLEX, G_COMPLEX, R_C32)
#endif
#ifdef MPI_CXX_DOUBLE_COMPLEX
    C_TYPE(MPI_CXX_DOUBLE_COMPLEX, G_COMPLEX, R_C64)
#endif
#ifdef MPI_CXX_LONG_DOUBLE_COMPLEX
    C_TYPE(MPI_CXX_LONG_DOUBLE_COMPLEX, G_COMPLEX, R_CLD)
#endif
    F_TYPE(MPI_INTEGER, G_FINT, f_int)
    F_TYPE(MPI_REAL, G_FLOAT, f_real)
    F_TYPE(MPI_DOUBLE_PRECISION, G_FLOAT, f_real)
    F_TYPE(MPI_LOGICAL, G_LOGICAL, f_logical)
    F_TYPE(MPI_COMPLEX, G_COMPLEX, f_complex)
    F_TYPE(MPI_DOUBLE_COMPLEX, G_COMPLEX, f_complex)
    F_TYPE(MPI_2REAL, G_PAIR, f_2real)
    F_TYPE(MPI_2DOUBLE_PRECISION, G_PAIR, f_2real)
    F_TYPE(MPI_2INTEGER, G_PAIR, f_2integer)
#ifdef MPI_INTEGER1
    F_TYPE(MPI_INTEGER1, G_FINT, f_int)
#endif
#ifdef MPI_INTEGER2
    F_TYPE(MPI_INTEGER2, G_FINT, f_int)
#endif
#ifdef MPI_INTEGER4
    F_TYPE(MPI_INTEGER4, G_FINT, f_int)
#endif
#ifdef MPI_INTEGER8
    F_TYPE(MPI_INTEGER8, G_FINT, f_int)
#endif
#ifdef MPI_INTEGER16
    F_TYPE(MPI_INTEGER16, G_FINT, f_int)
#endif
#ifdef MPI_REAL2
    F_TYPE(MPI_REAL2, G_FLOAT, f_real)
#endif
#ifdef MPI_REAL4
    F_TYPE(MPI_REAL4, G_FLOAT, f_real)
#endif
#ifdef MPI_REAL8
    F_TYPE(MPI_REAL8, G_FLOAT, f_real)
#endif
#ifdef MPI_REAL16
    F_TYPE(MPI_REAL16, G_FLOAT, f_real)
#endif
#ifdef MPI_COMPLEX8
    F_TYPE(MPI_COMPLEX8, G_COMPLEX, f_complex)
#endif
#ifdef MPI_COMPLEX16
    F_TYPE(MPI_COMPLEX16, G_COMPLEX, f_complex)
#endif
#ifdef MPI_COMPLEX32
    F_TYPE(MPI_COMPLEX32, G_COMPLEX, f_complex)
#endif
#ifdef MPI_LOGICAL1
    F_TYPE(MPI_LOGICAL1, G_LOGICAL, f_logical)
#endif
#ifdef MPI_LOGICAL2
    F_TYPE(MPI_LOGICAL2, G_LOGICAL, f_logical)
#endif
#ifdef MPI_LOGICAL4
    F_TYPE(MPI_LOGICAL4, G_LOGICAL, f_logical)
#endif
#ifdef MPI_LOGICAL8
    F_TYPE(MPI_LOGICAL8, G_LOGICAL, f_logical)
#endif
    /* predefined, but no reduction is defined on them: named for errors */
    C_TYPE(MPI_CHAR, G_NONE, R_NONE)
    C_TYPE(MPI_WCHAR, G_NONE, R_NONE)
    C_TYPE(MPI_PACKED, G_NONE, R_NONE)
#ifdef MPI_CHARACTER
    C_TYPE(MPI_CHARACTER, G_NONE, R_NONE)
#endif
#undef C_TYPE
#undef F_TYPE
    return 0;
}

const char *kernel_type_name(MPI_Datatype type)
{
    struct tinfo ti;
    return type_find(type, &ti, 0) ? ti.name : NULL;
}

colibri_kernel kernel_lookup(MPI_Op op, MPI_Datatype type)
{
    const int o = op_index(op);
    struct tinfo ti;
    if (o < 0 || !type_find(type, &ti, 1) || !(ti.ops & (1u << o)) || ti.rep == R_NONE)
        return NULL;
    return kernels[ti.rep][o];
}

/* ---- neutral elements, for sparse reductions (sparse.h) --------------- */


/* The neutral element of op on representation rep, written into e (which
 * is zeroed first, so long double padding is defined); 0 when there is none. */
static int neutral(int rep, int o, unsigned char *e, size_t *es)
{
    static const size_t int_size[] = {1, 2, 4, 8};
    memset(e, 0, SPARSE_MAX_ELEM);
    if (rep >= R_U8 && rep <= R_I64) {
        const int w = (rep - R_U8) % 4, is_signed = rep >= R_I8;
        const size_t n = int_size[w];
        /* little and big endian alike: build the value in a uint64 and
         * copy the low n bytes through a narrowing store */
        const uint64_t ones = n == 8 ? ~0ull : (1ull << (8 * n)) - 1;
        const uint64_t top = 1ull << (8 * n - 1);
        uint64_t v;
        switch (o) {
        case OP_SUM: case OP_LOR: case OP_LXOR: case OP_BOR: case OP_BXOR: v = 0; break;
        case OP_PROD: case OP_LAND: v = 1; break;
        case OP_BAND: v = ones; break;
        case OP_MAX: v = is_signed ? top : 0; break;
        case OP_MIN: v = is_signed ? ones >> 1 : ones; break;
        default: return 0;
        }
        uint8_t u8 = (uint8_t)v;
        uint16_t u16 = (uint16_t)v;
        uint32_t u32 = (uint32_t)v;
        const void *src[] = {&u8, &u16, &u32, &v};
        memcpy(e, src[w], n);
        *es = n;
        return 1;
    }
#define REAL_NEUTRAL(R, T)                                                 \
    if (rep == R) {                                                        \
        T v;                                                               \
        switch (o) {                                                       \
        case OP_SUM: v = 0; break;                                         \
        case OP_PROD: v = 1; break;                                        \
        case OP_MAX: v = -(T)INFINITY; break;                              \
        case OP_MIN: v = (T)INFINITY; break;                               \
        default: return 0;                                                 \
        }                                                                  \
        *(T *)(void *)e = v;                                               \
        *es = sizeof(T);                                                   \
        return 1;                                                          \
    }                                                                      \
    if (rep == R - R_F32 + R_C32) {                                        \
        if (o != OP_SUM && o != OP_PROD)                                   \
            return 0;                                                      \
        ((T *)(void *)e)[0] = o == OP_PROD;                                \
        ((T *)(void *)e)[1] = 0;                                           \
        *es = 2 * sizeof(T);                                               \
        return 1;                                                          \
    }
    REAL_NEUTRAL(R_F32, float)
    REAL_NEUTRAL(R_F64, double)
    REAL_NEUTRAL(R_FLD, long double)
#undef REAL_NEUTRAL
    return 0;
}

static bool user_sparse_op(MPI_Op op, MPI_Datatype type, struct sparse_op *out);

bool kernel_sparse_op(MPI_Op op, MPI_Datatype type, struct sparse_op *out)
{
    const int o = op_index(op);
    struct tinfo ti;
    if (o < 0)
        return user_sparse_op(op, type, out);
    if (!type_find(type, &ti, 1) || !(ti.ops & (1u << o)) || ti.rep == R_NONE ||
        !kernels[ti.rep][o])
        return false;
    _Alignas(16) unsigned char e[SPARSE_MAX_ELEM];
    size_t es = 0;
    if (!neutral(ti.rep, o, e, &es))
        return false;
    /* kernel(e, x) = x for every x: integer ops other than the logical ones
     * (which turn 5 into 1), and MAX/MIN of reals (the kernel keeps inout
     * unless in wins, and e never wins).  Real SUM/PROD change -0.0 or
     * quiet a signalling NaN. */
    const bool is_int = ti.rep >= R_U8 && ti.rep <= R_I64;
    const bool r_identity = is_int ? o != OP_LAND && o != OP_LOR && o != OP_LXOR
                                   : o == OP_MAX || o == OP_MIN;
    return sparse_op_init(out, es, kernels[ti.rep][o], e, r_identity);
}

/* ---- neutral elements of user-defined operations ----------------------- */

/* Registered by colibri_op_neutral; looked up on every sparse-capable call,
 * so the table stays small and is searched linearly. */
#define MAX_USER_NEUTRALS 32
static struct user_neutral {
    MPI_Op op;
    MPI_Datatype type;
    size_t es;
    unsigned char e[SPARSE_MAX_ELEM];
} user_neutrals[MAX_USER_NEUTRALS];
static int n_user_neutrals;

/* A user function through MPI_Reduce_local, which is the only way to call
 * it: the handle does not give the function back. */
static void user_kernel(const void *in, void *inout, size_t n, const void *ctx)
{
    const struct user_neutral *u = ctx;
    for (size_t done = 0; done < n; done += INT_MAX) {
        const int c = (int)(n - done < INT_MAX ? n - done : INT_MAX);
        PMPI_Reduce_local((const char *)in + done * u->es, (char *)inout + done * u->es, c,
                          u->type, u->op);
    }
}

static struct user_neutral *user_find(MPI_Op op, MPI_Datatype type)
{
    for (int i = 0; i < n_user_neutrals; i++)
        if (user_neutrals[i].op == op && user_neutrals[i].type == type)
            return &user_neutrals[i];
    return NULL;
}

void kernel_forget_handle(MPI_Op op, MPI_Datatype type)
{
    for (int i = n_user_neutrals - 1; i >= 0; i--)
        if ((op != MPI_OP_NULL && user_neutrals[i].op == op) ||
            (type != MPI_DATATYPE_NULL && user_neutrals[i].type == type))
            user_neutrals[i] = user_neutrals[--n_user_neutrals];
}

int kernel_set_neutral(MPI_Op op, MPI_Datatype type, const void *e, const char **why)
{
    struct user_neutral *u = user_find(op, type);
    if (!e) { /* forget it */
        if (u)
            *u = user_neutrals[--n_user_neutrals];
        return MPI_SUCCESS;
    }
    int commutative = 0, size = 0;
    MPI_Aint lb = 0, extent = 0, tlb = 0, textent = 0;
    if (op == MPI_OP_NULL || op_index(op) >= 0 || op == MPI_REPLACE || op == MPI_NO_OP) {
        *why = "not a user-defined operation (predefined ones have their neutral elements)";
        return MPI_ERR_OP;
    }
    if (PMPI_Op_commutative(op, &commutative) != MPI_SUCCESS || !commutative) {
        *why = "the operation is not commutative (sparse reductions combine in any order)";
        return MPI_ERR_OP;
    }
    if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
        PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(type, &tlb, &textent) != MPI_SUCCESS) {
        *why = "invalid datatype";
        return MPI_ERR_TYPE;
    }
    if (size <= 0 || size > SPARSE_MAX_ELEM || size != extent || extent != textent || lb || tlb) {
        *why = "the datatype must be contiguous, of 1 to 32 bytes";
        return MPI_ERR_TYPE;
    }
    struct user_neutral tmp = {op, type, (size_t)size, {0}};
    memcpy(tmp.e, e, (size_t)size);
    struct sparse_op o;
    if (!sparse_op_init_ctx(&o, tmp.es, user_kernel, &tmp, tmp.e)) {
        *why = "op(e, e) != e: not a neutral element";
        return MPI_ERR_ARG;
    }
    if (!u) {
        if (n_user_neutrals == MAX_USER_NEUTRALS) {
            *why = "too many registered neutral elements (32)";
            return MPI_ERR_NO_MEM;
        }
        u = &user_neutrals[n_user_neutrals++];
    }
    *u = tmp;
    return MPI_SUCCESS;
}

static bool user_sparse_op(MPI_Op op, MPI_Datatype type, struct sparse_op *out)
{
    const struct user_neutral *u = user_find(op, type);
    return u && sparse_op_init_ctx(out, u->es, user_kernel, u, u->e);
}
