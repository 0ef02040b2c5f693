/* Sparse block encoding and combination (sparse.h). */
#include "sparse.h"

#include <math.h>
#include <string.h>

static bool e_is_neutral(struct sparse_op *o, const void *e)
{
    memcpy(o->e, e, o->es);
    unsigned char x[SPARSE_MAX_ELEM];
    memcpy(x, e, o->es);
    sparse_apply(o, e, x, 1);
    return memcmp(x, e, o->es) == 0;
}

bool sparse_op_init(struct sparse_op *o, size_t es, sparse_kernel k, const void *e,
                    bool r_identity)
{
    memset(o, 0, sizeof *o);
    if (!k || es == 0 || es > SPARSE_MAX_ELEM)
        return false;
    o->es = es;
    o->kernel = k;
    o->r_identity = r_identity;
    return e_is_neutral(o, e);
}

bool sparse_op_init_ctx(struct sparse_op *o, size_t es, sparse_kernel_ctx k, const void *ctx,
                        const void *e)
{
    memset(o, 0, sizeof *o);
    if (!k || es == 0 || es > SPARSE_MAX_ELEM)
        return false;
    o->es = es;
    o->kernel_ctx = k;
    o->ctx = ctx;
    return e_is_neutral(o, e);
}

int64_t sparse_max_nnz(int64_t n, size_t es)
{
    if (n <= 0 || n > (int64_t)UINT32_MAX)
        return -1;
    /* largest k with sparse_bytes(k) < n*es; sparse_bytes grows by at
     * least es + 4 per element, so start from the estimate and step down */
    int64_t dense = n * (int64_t)es, k = (dense - SPARSE_HDR) / ((int64_t)es + 4);
    while (k >= 0 && sparse_bytes(k, es) >= dense)
        k--;
    return k;
}

/* The scan runs per element width so that the test is one integer compare
 * against the neutral element's bits; it is the only pass over the whole
 * input, and at low density its branch is always predicted. */
#define SCAN_WIDTHS(X) X(1, uint8_t) X(2, uint16_t) X(4, uint32_t) X(8, uint64_t)

/* splitmix64's finaliser: positions are consecutive integers, and the
 * sketch needs their hashes' bits independent */
static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void profile_add(struct sparse_profile *pr, int64_t i)
{
    pr->runs += i != pr->last + 1 || pr->nnz == 0;
    pr->first = pr->nnz++ ? pr->first : i;
    pr->last = i;
    if (pr->nnz > pr->sketch_limit)
        return;
    const uint64_t h = mix64((uint64_t)i);
    const int j = (int)(h & (SPARSE_SKETCH - 1));
    const uint64_t w = h >> 7; /* 57 bits: position of the first set one, 1-based */
    const double rank = w ? __builtin_ctzll(w) + 1 : 58;
    if (rank > pr->reg[j])
        pr->reg[j] = rank;
}

void sparse_profile(const struct sparse_op *o, const void *x, int64_t n, int64_t limit,
                    struct sparse_profile *pr)
{
    memset(pr, 0, sizeof *pr);
    pr->first = n;
    pr->last = -1;
    pr->sketch_limit = n / SPARSE_SKETCH_DENSITY;
    switch (o->es) {
#define X(w, T)                                                            \
    case w: {                                                              \
        const T *v = x;                                                    \
        T e;                                                               \
        memcpy(&e, o->e, w);                                               \
        for (int64_t i = 0; i < n && pr->nnz <= limit; i++)                \
            if (v[i] != e)                                                 \
                profile_add(pr, i);                                        \
        return;                                                            \
    }
        SCAN_WIDTHS(X)
#undef X
    default:
        for (int64_t i = 0; i < n && pr->nnz <= limit; i++)
            if (memcmp((const char *)x + i * (int64_t)o->es, o->e, o->es) != 0)
                profile_add(pr, i);
    }
}

double sparse_sketch_count(const double reg[SPARSE_SKETCH])
{
    const double m = SPARSE_SKETCH, alpha = 0.7213 / (1 + 1.079 / m);
    double sum = 0;
    int zeros = 0;
    for (int j = 0; j < SPARSE_SKETCH; j++) {
        sum += ldexp(1, -(int)reg[j]);
        zeros += reg[j] == 0;
    }
    const double e = alpha * m * m / sum;
    /* small unions: linear counting over the empty buckets is the better
     * estimate (the original paper's correction) */
    return e <= 2.5 * m && zeros ? m * log(m / zeros) : e;
}

enum { AG_DENSITY, AG_RUNS_PER_ELEM, AG_NEG_FIRST, AG_LAST, AG_UNSKETCHED, AG_SKETCH };

void sparse_agree_values(const struct sparse_profile *pr, int64_t n, int64_t cut,
                         double v[SPARSE_AGREE])
{
    const bool dense = pr->nnz > cut;
    v[AG_DENSITY] = dense ? 1 : (double)pr->nnz / (double)n;
    /* runs per element: the max is the shortest runs */
    v[AG_RUNS_PER_ELEM] = dense || !pr->nnz ? 0 : (double)pr->runs / (double)pr->nnz;
    v[AG_NEG_FIRST] = -(double)pr->first / (double)n; /* the max is the least first */
    v[AG_LAST] = (double)(pr->last + 1) / (double)n;
    v[AG_UNSKETCHED] = pr->nnz > pr->sketch_limit;
    memcpy(v + AG_SKETCH, pr->reg, sizeof pr->reg);
}

void sparse_shape_of(const double v[SPARSE_AGREE], int64_t n, int p, struct sparse_shape *sh)
{
    const double d = v[AG_DENSITY] > 0 ? v[AG_DENSITY] : 1e-9;
    *sh = (struct sparse_shape){.density = d};
    if (d >= 1)
        return;
    const double u = fmin(sparse_sketch_count(v + AG_SKETCH) / (double)n, 1);
    sh->support = v[AG_UNSKETCHED] > 0 ? 1 : sparse_support(d, u, p);
    sh->span = fmax(v[AG_LAST] + v[AG_NEG_FIRST], d);
    sh->run_length = v[AG_RUNS_PER_ELEM] > 0 ? 1 / v[AG_RUNS_PER_ELEM] : 1;
}

double sparse_union(double d, double support, double m)
{
    const double s = fmin(fmax(support, d), 1);
    return s > 0 ? s * -expm1(m * log1p(-fmin(d / s, 1))) : 0;
}

double sparse_support(double d, double u, double p)
{
    if (u <= d)
        return d;
    if (u >= sparse_union(d, 1, p))
        return 1;
    double lo = d, hi = 1; /* sparse_union grows with the support */
    for (int i = 0; i < 60; i++) {
        const double mid = (lo + hi) / 2;
        if (sparse_union(d, mid, p) < u)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* One element copy.  memcpy of a run-time size is a library call per
 * element; the switch turns the usual sizes into single moves (measured:
 * merges of 10^5 doubles several times faster), and its branch never
 * mispredicts within a call. */
static inline void cpy(void *d, const void *s, size_t es)
{
    switch (es) {
    case 1: memcpy(d, s, 1); break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    case 16: memcpy(d, s, 16); break;
    default: memcpy(d, s, es); break;
    }
}

static inline bool is_e(const struct sparse_op *o, const void *v)
{
    switch (o->es) {
    case 1: return memcmp(v, o->e, 1) == 0;
    case 2: return memcmp(v, o->e, 2) == 0;
    case 4: return memcmp(v, o->e, 4) == 0;
    case 8: return memcmp(v, o->e, 8) == 0;
    case 16: return memcmp(v, o->e, 16) == 0;
    default: return memcmp(v, o->e, o->es) == 0;
    }
}

static uint32_t *idx_of(void *enc) { return (uint32_t *)((char *)enc + SPARSE_HDR); }
static const uint32_t *cidx_of(const void *enc)
{
    return (const uint32_t *)((const char *)enc + SPARSE_HDR);
}
static char *vals_of(void *enc, int64_t nnz) { return (char *)enc + SPARSE_HDR + sparse_pad16(4 * nnz); }
static const char *cvals_of(const void *enc)
{
    return (const char *)enc + SPARSE_HDR + sparse_pad16(4 * sparse_nnz(enc));
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/*
 * The encode of 4- and 8-byte elements (int32/64, float, double: most
 * reductions) with AVX2 where the CPU has it: 16 elements compared with
 * the neutral element's bits at a time into a mask, then one pass that
 * counts (popcount) and gives up once past max_nnz, writing nothing, and
 * one that writes the present elements found by the masks' set bits.  The
 * scalar scan takes a mispredicted branch per scattered present element
 * and writes as it goes: on 2^17 doubles (this VM, fastest of 50) 130-205
 * us at 0.1-10% random and 62 us to give up on dense data, against 21-33
 * and about 15 us here.
 */
#define AVX2 __attribute__((target("avx2,popcnt")))

AVX2 static inline unsigned present16(const char *p, size_t es, __m256i ev)
{
    const __m256i *q = (const __m256i *)p;
    unsigned eq;
    if (es == 8)
        eq = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_loadu_si256(q), ev))) |
             (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_loadu_si256(q + 1), ev))) << 4 |
             (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_loadu_si256(q + 2), ev))) << 8 |
             (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_loadu_si256(q + 3), ev))) << 12;
    else
        eq = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_loadu_si256(q), ev))) |
             (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_loadu_si256(q + 1), ev))) << 8;
    return ~eq & 0xffffu;
}

/* Present elements of x[0..n) into idx/vals; -1 past max_nnz. */
AVX2 static int64_t encode_avx2(const struct sparse_op *o, const char *x, int64_t n,
                                uint32_t *idx, char *vals, int64_t max_nnz)
{
    const size_t es = o->es;
    uint64_t e8;
    uint32_t e4;
    memcpy(&e8, o->e, 8);
    memcpy(&e4, o->e, 4);
    const __m256i ev = es == 8 ? _mm256_set1_epi64x((long long)e8) : _mm256_set1_epi32((int)e4);
    const int64_t body = n & ~(int64_t)15;
    int64_t total = 0;
    for (int64_t c = 0; c < body; c += 16) {
        total += __builtin_popcount(present16(x + c * (int64_t)es, es, ev));
        if (total > max_nnz)
            return -1;
    }
    for (int64_t i = body; i < n; i++)
        total += memcmp(x + i * (int64_t)es, o->e, es) != 0;
    if (total > max_nnz)
        return -1;
    int64_t k = 0;
    for (int64_t c = 0; c < n; c += 16) {
        unsigned m = 0;
        if (c < body) {
            m = present16(x + c * (int64_t)es, es, ev);
        } else {
            for (int64_t i = c; i < n; i++)
                m |= (unsigned)(memcmp(x + i * (int64_t)es, o->e, es) != 0) << (i - c);
        }
        for (; m; m &= m - 1) {
            const int64_t i = c + __builtin_ctz(m);
            idx[k] = (uint32_t)i;
            if (es == 8)
                memcpy(vals + k * 8, x + i * 8, 8);
            else
                memcpy(vals + k * 4, x + i * 4, 4);
            k++;
        }
    }
    return k;
}

static bool have_avx2(void)
{
    /* two bit tests of what libgcc read from cpuid at load time */
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
}
#endif

int64_t sparse_encode(const struct sparse_op *o, const void *x, int64_t n, void *out,
                      int64_t max_nnz, void *vals_scratch)
{
    if (max_nnz < 0)
        return -1;
    uint32_t *idx = idx_of(out);
    char *vs = vals_scratch;
    const size_t es = o->es;
    int64_t k = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if ((es == 4 || es == 8) && have_avx2()) {
        k = encode_avx2(o, x, n, idx, vs, max_nnz);
        if (k < 0)
            return -1;
        goto done;
    }
#endif
    switch (es) {
#define X(w, T)                                                            \
    case w: {                                                              \
        const T *v = x;                                                    \
        T e, *d = (T *)vs;                                                 \
        memcpy(&e, o->e, w);                                               \
        for (int64_t i = 0; i < n; i++) {                                  \
            if (v[i] != e) {                                               \
                if (k == max_nnz)                                          \
                    return -1;                                             \
                idx[k] = (uint32_t)i;                                      \
                d[k++] = v[i];                                             \
            }                                                              \
        }                                                                  \
        break;                                                             \
    }
        SCAN_WIDTHS(X)
#undef X
    default:
        for (int64_t i = 0; i < n; i++) {
            const char *v = (const char *)x + i * (int64_t)es;
            if (memcmp(v, o->e, es) != 0) {
                if (k == max_nnz)
                    return -1;
                idx[k] = (uint32_t)i;
                memcpy(vs + k * (int64_t)es, v, es);
                k++;
            }
        }
    }
#if defined(__x86_64__) && defined(__GNUC__)
done:;
#endif
    int64_t *h = out;
    h[0] = k;
    h[1] = n;
    memcpy(vals_of(out, k), vs, (size_t)k * es);
    return sparse_bytes(k, es);
}

static const unsigned char *cbits_of(const void *enc)
{
    return (const unsigned char *)enc + SPARSE_HDR;
}

static bool check_bitmap(const void *enc, int64_t bytes, size_t es, int64_t n)
{
    const int64_t *h = enc;
    if (h[1] != (n | SPARSE_BITMAP) || h[0] < 0 || h[0] > n ||
        sparse_bitmap_bytes(h[0], n, es) != bytes)
        return false;
    const unsigned char *bits = cbits_of(enc);
    /* a word at a time: without -mpopcnt each popcount is a libgcc call */
    int64_t set = 0, nbytes = (n + 7) / 8, i = 0;
    for (; i + 8 <= nbytes; i += 8) {
        uint64_t w;
        memcpy(&w, bits + i, 8);
        set += __builtin_popcountll(w);
    }
    for (; i < nbytes; i++)
        set += __builtin_popcount(bits[i]);
    /* no bit past n */
    return set == h[0] && (n % 8 == 0 || (bits[nbytes - 1] >> (n % 8)) == 0);
}

static bool check_runs(const void *enc, int64_t bytes, size_t es, int64_t n)
{
    const int64_t *h = enc, nnz = h[0], nruns = h[1] >> 32 & SPARSE_MAX_RUNS;
    if ((h[1] & ~(SPARSE_MAX_RUNS << 32)) != (n | SPARSE_RUNS) || nnz < 0 || nnz > n ||
        sparse_runs_bytes(nnz, nruns, es) != bytes)
        return false;
    const uint32_t *r = cidx_of(enc);
    int64_t end = -1, sum = 0; /* end: one past the previous run */
    for (int64_t i = 0; i < nruns; i++) {
        const int64_t start = r[2 * i], len = r[2 * i + 1];
        /* maximal runs: a gap of one absent element at least before each */
        if (len < 1 || start <= end || start + len > n)
            return false;
        end = start + len;
        sum += len;
    }
    return sum == nnz;
}

bool sparse_check(const void *enc, int64_t bytes, size_t es, int64_t n)
{
    if (bytes < SPARSE_HDR)
        return false;
    const int64_t *h = enc;
    if (h[1] & SPARSE_BITMAP)
        return check_bitmap(enc, bytes, es, n);
    if (h[1] & SPARSE_RUNS)
        return check_runs(enc, bytes, es, n);
    if (h[1] != n || h[0] < 0 || h[0] > n || sparse_bytes(h[0], es) != bytes)
        return false;
    const uint32_t *idx = cidx_of(enc);
    for (int64_t i = 0; i < h[0]; i++)
        if (idx[i] >= n || (i && idx[i] <= idx[i - 1]))
            return false;
    return true;
}

int64_t sparse_to_bitmap(const struct sparse_op *o, const void *pairs, void *out)
{
    const int64_t *h = pairs, nnz = h[0], n = h[1];
    const uint32_t *idx = cidx_of(pairs);
    unsigned char *bits = (unsigned char *)out + SPARSE_HDR;
    const int64_t bm = sparse_pad16((n + 7) / 8);
    memset(bits, 0, (size_t)bm);
    for (int64_t i = 0; i < nnz; i++)
        bits[idx[i] >> 3] |= (unsigned char)(1u << (idx[i] & 7));
    int64_t *oh = out;
    oh[0] = nnz;
    oh[1] = n | SPARSE_BITMAP;
    memcpy(bits + bm, cvals_of(pairs), (size_t)nnz * o->es);
    return sparse_bitmap_bytes(nnz, n, o->es);
}

static void from_bitmap(const struct sparse_op *o, const void *bm, void *out)
{
    const int64_t *h = bm, nnz = h[0], n = h[1] & ~SPARSE_BITMAP;
    const unsigned char *bits = cbits_of(bm);
    uint32_t *idx = idx_of(out);
    int64_t k = 0;
    /* a word at a time: at the densities where this form is chosen most
     * words have bits, and each costs one ctz per present element */
    for (int64_t w = 0; w * 64 < n; w++) {
        uint64_t word = 0;
        int64_t take = (n - w * 64 + 7) / 8;
        for (int64_t b = 0; b < (take < 8 ? take : 8); b++) /* any byte order */
            word |= (uint64_t)bits[w * 8 + b] << (8 * b);
        while (word) {
            idx[k++] = (uint32_t)(w * 64 + __builtin_ctzll(word));
            word &= word - 1;
        }
    }
    int64_t *oh = out;
    oh[0] = nnz;
    oh[1] = n;
    memcpy(vals_of(out, nnz), bits + sparse_pad16((n + 7) / 8), (size_t)nnz * o->es);
}

int64_t sparse_count_runs(const void *pairs)
{
    const int64_t k = sparse_nnz(pairs);
    const uint32_t *idx = cidx_of(pairs);
    int64_t r = k > 0;
    for (int64_t i = 1; i < k; i++)
        r += idx[i] != idx[i - 1] + 1;
    return r;
}

int64_t sparse_to_runs(const struct sparse_op *o, const void *pairs, int64_t nruns, void *out)
{
    const int64_t *h = pairs, nnz = h[0], n = h[1];
    const uint32_t *idx = cidx_of(pairs);
    uint32_t *r = idx_of(out);
    for (int64_t i = 0, j = -1; i < nnz; i++) {
        if (i == 0 || idx[i] != idx[i - 1] + 1)
            r[2 * ++j] = idx[i], r[2 * j + 1] = 0;
        r[2 * j + 1]++;
    }
    int64_t *oh = out;
    oh[0] = nnz;
    oh[1] = n | SPARSE_RUNS | nruns << 32;
    memcpy((char *)out + SPARSE_HDR + sparse_pad16(8 * nruns), cvals_of(pairs),
           (size_t)nnz * o->es);
    return sparse_runs_bytes(nnz, nruns, o->es);
}

/* The runs form's run count, elements and values. */
static int64_t runs_count(const void *enc) { return ((const int64_t *)enc)[1] >> 32 & SPARSE_MAX_RUNS; }
static int64_t runs_n(const void *enc) { return ((const int64_t *)enc)[1] & 0xffffffff; }
static const char *runs_vals(const void *enc)
{
    return (const char *)enc + SPARSE_HDR + sparse_pad16(8 * runs_count(enc));
}

static void from_runs(const struct sparse_op *o, const void *enc, void *out)
{
    const int64_t nnz = sparse_nnz(enc), nruns = runs_count(enc);
    const uint32_t *r = cidx_of(enc);
    uint32_t *idx = idx_of(out);
    for (int64_t i = 0, k = 0; i < nruns; i++)
        for (uint32_t j = 0; j < r[2 * i + 1]; j++)
            idx[k++] = r[2 * i] + j;
    int64_t *oh = out;
    oh[0] = nnz;
    oh[1] = runs_n(enc);
    memcpy(vals_of(out, nnz), runs_vals(enc), (size_t)nnz * o->es);
}

int64_t sparse_pack(const struct sparse_op *o, const void *pairs, void *out, const void **wire)
{
    const int64_t nnz = sparse_nnz(pairs), n = ((const int64_t *)pairs)[1];
    const int64_t index = sparse_bytes(nnz, o->es), bitmap = sparse_bitmap_bytes(nnz, n, o->es);
    const int64_t nruns = sparse_count_runs(pairs), runs = sparse_runs_bytes(nnz, nruns, o->es);
    *wire = out;
    if (runs < index && runs < bitmap)
        return sparse_to_runs(o, pairs, nruns, out);
    if (bitmap < index)
        return sparse_to_bitmap(o, pairs, out);
    *wire = pairs;
    return index;
}

bool sparse_unpack(const struct sparse_op *o, const void *enc, void *out)
{
    if (sparse_is_bitmap(enc))
        from_bitmap(o, enc, out);
    else if (sparse_is_runs(enc))
        from_runs(o, enc, out);
    else
        return false;
    return true;
}

static void fill_e(const struct sparse_op *o, void *dst, int64_t n)
{
    const size_t es = o->es;
    if (n <= 0)
        return;
    memcpy(dst, o->e, es);
    /* doubling copies: the fill runs at memcpy speed */
    for (int64_t have = 1; have < n;) {
        int64_t c = have < n - have ? have : n - have;
        memcpy((char *)dst + have * (int64_t)es, dst, (size_t)c * es);
        have += c;
    }
}

static void scatter(const struct sparse_op *o, const uint32_t *idx, const char *vals, int64_t k,
                    void *dense)
{
    const size_t es = o->es;
    for (int64_t i = 0; i < k; i++)
        cpy((char *)dense + (int64_t)idx[i] * (int64_t)es, vals + i * (int64_t)es, es);
}

void sparse_decode(const struct sparse_op *o, const void *enc, void *dense)
{
    const int64_t *h = enc;
    if (!sparse_is_runs(enc)) {
        fill_e(o, dense, h[1]);
        scatter(o, cidx_of(enc), cvals_of(enc), h[0], dense);
        return;
    }
    const size_t es = o->es;
    const uint32_t *r = cidx_of(enc);
    const char *v = runs_vals(enc);
    fill_e(o, dense, runs_n(enc));
    for (int64_t i = 0; i < runs_count(enc); v += (size_t)r[2 * i + 1] * es, i++)
        memcpy((char *)dense + (int64_t)r[2 * i] * (int64_t)es, v, (size_t)r[2 * i + 1] * es);
}

/* io[lo..hi) = kernel(e, io[lo..hi)): the absent positions of a sparse `in`
 * where the kernel is not the identity.  e is applied from a small filled
 * block so that the dense kernel does the work at its own speed. */
static void apply_e(const struct sparse_op *o, char *io, int64_t lo, int64_t hi)
{
    enum { CHUNK = 256 };
    unsigned char block[CHUNK * SPARSE_MAX_ELEM];
    int64_t filled = 0;
    for (int64_t i = lo; i < hi; i += CHUNK) {
        int64_t c = hi - i < CHUNK ? hi - i : CHUNK;
        if (c > filled) {
            fill_e(o, block, c);
            filled = c;
        }
        sparse_apply(o, block, io + i * (int64_t)o->es, (size_t)c);
    }
}

void sparse_merge_sd(const struct sparse_op *o, const void *in, void *io, int64_t n,
                     void *scratch)
{
    const size_t es = o->es;
    char *d = io;
    if (sparse_is_runs(in)) {
        /* each run is a contiguous stretch: the dense kernel works on io in
         * place, no gather or scatter */
        const uint32_t *r = cidx_of(in);
        const char *v = runs_vals(in);
        int64_t lo = 0;
        for (int64_t i = 0; i < runs_count(in); i++) {
            const int64_t start = r[2 * i], len = r[2 * i + 1];
            if (!o->r_identity)
                apply_e(o, d, lo, start);
            sparse_apply(o, v, d + start * (int64_t)es, (size_t)len);
            v += len * (int64_t)es;
            lo = start + len;
        }
        if (!o->r_identity)
            apply_e(o, d, lo, n);
        return;
    }
    const int64_t k = sparse_nnz(in);
    const uint32_t *idx = cidx_of(in);
    char *g = scratch;
    /* gather io at in's positions, combine there, put back */
    for (int64_t i = 0; i < k; i++)
        cpy(g + i * (int64_t)es, d + (int64_t)idx[i] * (int64_t)es, es);
    sparse_apply(o, cvals_of(in), g, (size_t)k);
    if (!o->r_identity) {
        int64_t lo = 0;
        for (int64_t i = 0; i < k; i++) {
            apply_e(o, d, lo, idx[i]);
            lo = (int64_t)idx[i] + 1;
        }
        apply_e(o, d, lo, n);
    }
    scatter(o, idx, g, k, io);
}

void sparse_merge_ds(const struct sparse_op *o, const void *in, const void *io, void *out,
                     int64_t n)
{
    sparse_decode(o, io, out);
    sparse_apply(o, in, out, (size_t)n);
}

/* Size of the union of two ascending index lists. */
static int64_t union_size(const uint32_t *ia, int64_t na, const uint32_t *ib, int64_t nb)
{
    int64_t a = 0, b = 0, m = 0;
    while (a < na && b < nb) {
        const uint32_t x = ia[a], y = ib[b];
        a += x <= y;
        b += y <= x;
        m++;
    }
    return m + (na - a) + (nb - b);
}

/* The merge walks both index lists without a data-dependent branch (the
 * next index is the smaller one, each side advances when it supplied it):
 * scattered positions interleave at random, and a branch per element was
 * mispredicted half the time (17% of a 2-rank sparse allreduce at 10%).
 * Its values are written at the place that n_a + n_b elements would
 * need, when that still fits max_nnz, so that the union need not be
 * counted first, and slid down once the result's size is known. */
int64_t sparse_merge_ss(const struct sparse_op *o, const void *in, const void *io, void *out,
                        int64_t max_nnz, void *scratch)
{
    const size_t es = o->es;
    const int64_t na = sparse_nnz(in), nb = sparse_nnz(io);
    const uint32_t *ia = cidx_of(in), *ib = cidx_of(io);
    const char *va = cvals_of(in), *vb = cvals_of(io);
    int64_t bound = na + nb;
    if (bound > max_nnz && (bound = union_size(ia, na, ib, nb)) > max_nnz)
        return -1;
    uint32_t *io_idx = idx_of(out);
    char *ov = vals_of(out, bound), *sa = scratch;
    int64_t a = 0, b = 0, m = 0;
    switch (es) { /* per width, so that each value moves as one integer */
#define X(w, T)                                                              \
    case w: {                                                                \
        T e, u, v;                                                           \
        memcpy(&e, o->e, w);                                                 \
        for (; a < na && b < nb; m++) {                                      \
            const uint32_t x = ia[a], y = ib[b];                             \
            const bool ta = x <= y, tb = y <= x;                             \
            io_idx[m] = ta ? x : y;                                          \
            memcpy(&u, va + a * w, w);                                       \
            memcpy(&v, vb + b * w, w);                                       \
            u = ta ? u : e;                                                  \
            v = tb ? v : e;                                                  \
            memcpy(sa + m * w, &u, w);                                       \
            memcpy(ov + m * w, &v, w);                                       \
            a += ta;                                                         \
            b += tb;                                                         \
        }                                                                    \
        break;                                                               \
    }
        SCAN_WIDTHS(X)
#undef X
    default:
        for (; a < na && b < nb; m++) {
            const uint32_t x = ia[a], y = ib[b];
            const bool ta = x <= y, tb = y <= x;
            io_idx[m] = ta ? x : y;
            cpy(sa + m * (int64_t)es, ta ? va + a * (int64_t)es : (const char *)o->e, es);
            cpy(ov + m * (int64_t)es, tb ? vb + b * (int64_t)es : (const char *)o->e, es);
            a += ta;
            b += tb;
        }
    }
    for (; a < na; a++, m++) {
        io_idx[m] = ia[a];
        cpy(sa + m * (int64_t)es, va + a * (int64_t)es, es);
        cpy(ov + m * (int64_t)es, o->e, es);
    }
    for (; b < nb; b++, m++) {
        io_idx[m] = ib[b];
        cpy(sa + m * (int64_t)es, o->e, es);
        cpy(ov + m * (int64_t)es, vb + b * (int64_t)es, es);
    }
    sparse_apply(o, sa, ov, (size_t)m);
    /* results equal to e become absent (x + -x = 0): compact in place, then
     * slide the values down to where the shorter index array ends */
    int64_t k = 0;
    for (int64_t j = 0; j < m; j++) {
        const char *v = ov + j * (int64_t)es;
        if (is_e(o, v))
            continue;
        io_idx[k] = io_idx[j];
        if (k != j)
            cpy(ov + k * (int64_t)es, v, es);
        k++;
    }
    memmove(vals_of(out, k), ov, (size_t)k * es);
    int64_t *h = out;
    h[0] = k;
    h[1] = ((const int64_t *)in)[1];
    return sparse_bytes(k, es);
}

/* First index of the ascending idx[0..k) that is >= x. */
static int64_t lower_bound(const uint32_t *idx, int64_t k, int64_t x)
{
    int64_t a = 0, b = k;
    while (a < b) {
        int64_t m = a + (b - a) / 2;
        if ((int64_t)idx[m] < x)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

int64_t sparse_slice_nnz(const void *enc, int64_t lo, int64_t len)
{
    const int64_t k = sparse_nnz(enc);
    const uint32_t *idx = cidx_of(enc);
    return lower_bound(idx, k, lo + len) - lower_bound(idx, k, lo);
}

int64_t sparse_slice(const struct sparse_op *o, const void *enc, int64_t lo, int64_t len,
                     void *out)
{
    const int64_t k = sparse_nnz(enc);
    const uint32_t *idx = cidx_of(enc);
    const int64_t a = lower_bound(idx, k, lo), nnz = lower_bound(idx, k, lo + len) - a;
    int64_t *h = out;
    h[0] = nnz;
    h[1] = len;
    uint32_t *oi = idx_of(out);
    for (int64_t i = 0; i < nnz; i++)
        oi[i] = (uint32_t)(idx[a + i] - lo);
    memcpy(vals_of(out, nnz), cvals_of(enc) + a * (int64_t)o->es, (size_t)(nnz * (int64_t)o->es));
    return sparse_bytes(nnz, o->es);
}

int64_t sparse_concat(const struct sparse_op *o, const void *a, int64_t na, const void *b,
                      int64_t nb, void *out)
{
    const int64_t ka = sparse_nnz(a), kb = sparse_nnz(b), nnz = ka + kb;
    int64_t *h = out;
    h[0] = nnz;
    h[1] = na + nb;
    uint32_t *oi = idx_of(out);
    memcpy(oi, cidx_of(a), (size_t)ka * 4);
    const uint32_t *bi = cidx_of(b);
    for (int64_t i = 0; i < kb; i++)
        oi[ka + i] = (uint32_t)(bi[i] + na);
    char *ov = vals_of(out, nnz);
    const size_t es = o->es;
    memcpy(ov, cvals_of(a), (size_t)ka * es);
    memcpy(ov + ka * (int64_t)es, cvals_of(b), (size_t)kb * es);
    return sparse_bytes(nnz, es);
}
