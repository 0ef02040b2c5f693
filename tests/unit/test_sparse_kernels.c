/*
 * Unit test of the sparse block kernels (src/kernels/sparse.c) and of the
 * neutral elements kernels/dense.c gives them.
 *
 * For every predefined op that has a neutral element x every predefined
 * type it applies to, at densities 0, one element, 1%, 10%, 50% and 100%,
 * random and clustered positions, with special values mixed in (-0.0, +0.0,
 * NaN, signalling NaN, infinities, 5 for the logical ops): every encoding
 * decodes to its input bit for bit, and the three mixed combinations
 * (sparse-sparse, sparse into dense, dense with sparse) give exactly the
 * dense kernel's result bit for bit.  Sizes and the encode/dense switch
 * point are checked against sparse_bytes.
 *
 * Run as a singleton or `mpirun -n 1`.
 */
#include <mpi.h>

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/dense.h"
#include "kernels/sparse.h"
#include "select/select.h"

#define CHECK_MAX_LINES -1 /* every failure printed */
#include "../lib/check.h"
#include "../lib/xorshift.h"


enum kind { K_INT, K_F32, K_F64, K_FLD, K_C32, K_C64 };

/* One non-neutral-looking value; often a special one. */
static void draw(enum kind k, size_t es, unsigned char *v)
{
    memset(v, 0, es);
    uint64_t r = next();
    int sp = (int)(r % 16);
    switch (k) {
    case K_INT: {
        uint64_t x = sp < 4 ? (uint64_t)sp + 1 : sp == 4 ? 5 : next();
        memcpy(v, &x, es); /* little-endian low bytes */
        return;
    }
    case K_F32: case K_F64: case K_FLD: case K_C32: case K_C64: {
        const long double specials[] = {-0.0L, 0.0L, NAN, INFINITY, -INFINITY, 1.0L, -1.0L, 0.25L};
        int nparts = k == K_C32 || k == K_C64 ? 2 : 1;
        size_t part = es / (size_t)nparts;
        for (int i = 0; i < nparts; i++) {
            long double x = sp < 8 ? specials[sp] : (long double)((int64_t)(next() % 65) - 32) / 4;
            unsigned char *p = v + (size_t)i * part;
            if (part == 4) {
                float f = (float)x;
                if (sp == 2 && (r >> 8) & 1) { /* signalling NaN */
                    uint32_t b = 0x7fa00000u;
                    memcpy(&f, &b, 4);
                }
                memcpy(p, &f, 4);
            } else if (part == 8) {
                double d = (double)x;
                if (sp == 2 && (r >> 8) & 1) {
                    uint64_t b = 0x7ff4000000000000ull;
                    memcpy(&d, &b, 8);
                }
                memcpy(p, &d, 8);
            } else {
                memcpy(p, &x, sizeof x);
                memset(p + 10, 0, part - 10);
            }
            sp = (int)(next() % 16);
        }
        return;
    }
    }
}

/* A vector with about `density` of its elements drawn, the rest neutral;
 * clustered: the drawn ones in a few runs. */
static void make(const struct sparse_op *o, enum kind k, unsigned char *x, int64_t n,
                 double density, bool clustered, bool one)
{
    for (int64_t i = 0; i < n; i++)
        memcpy(x + i * (int64_t)o->es, o->e, o->es);
    if (one) {
        if (n)
            draw(k, o->es, x + (int64_t)(next() % (uint64_t)n) * (int64_t)o->es);
        return;
    }
    int64_t want = (int64_t)(density * (double)n);
    if (clustered) {
        int64_t start = n ? (int64_t)(next() % (uint64_t)n) : 0;
        for (int64_t j = 0; j < want; j++)
            draw(k, o->es, x + ((start + j) % n) * (int64_t)o->es);
    } else {
        for (int64_t i = 0; i < n; i++)
            if ((double)(next() % 1000000) < density * 1e6)
                draw(k, o->es, x + i * (int64_t)o->es);
    }
}

/* Maximal runs of non-neutral elements, counted on the dense vector. */
static int64_t count_runs_dense(const struct sparse_op *o, const unsigned char *x, int64_t n)
{
    int64_t r = 0;
    bool prev = false;
    for (int64_t i = 0; i < n; i++) {
        const bool here = memcmp(x + i * (int64_t)o->es, o->e, o->es) != 0;
        r += here && !prev;
        prev = here;
    }
    return r;
}

/* Present elements, by the selector's profile, checked against a plain
 * count of the dense vector (runs, first and last too). */
static int64_t count(const struct sparse_op *o, const unsigned char *x, int64_t n)
{
    struct sparse_profile pr;
    sparse_profile(o, x, n, INT64_MAX, &pr);
    int64_t k = 0, first = n, last = -1;
    for (int64_t i = 0; i < n; i++)
        if (memcmp(x + i * (int64_t)o->es, o->e, o->es) != 0)
            first = k++ ? first : i, last = i;
    check(pr.nnz == k && pr.runs == count_runs_dense(o, x, n) && pr.first == first &&
              pr.last == last,
          "profile: %lld present, %lld runs, [%lld, %lld]; counted %lld, %lld, [%lld, %lld]",
          (long long)pr.nnz, (long long)pr.runs, (long long)pr.first, (long long)pr.last,
          (long long)k, (long long)count_runs_dense(o, x, n), (long long)first, (long long)last);
    return k;
}

struct tcase {
    const char *name;
    MPI_Datatype dt;
    enum kind kind;
};

static void run_pair(const char *tname, const char *oname, const struct sparse_op *o,
                     enum kind k, int64_t n, double d, bool clustered, bool one)
{
    const size_t es = o->es;
    const size_t dense = (size_t)n * es + 16;
    unsigned char *a = malloc(dense), *b = malloc(dense), *ref = malloc(dense),
                  *ea = malloc(dense + 64), *eb = malloc(dense + 64), *out = malloc(2 * dense + 64),
                  *scr = malloc(2 * dense + 64), *tmp = malloc(dense);
    make(o, k, a, n, d, clustered, one);
    make(o, k, b, n, d * 0.7, !clustered, false);
    memcpy(ref, b, (size_t)n * es);
    o->kernel(a, ref, (size_t)n);
    char what[160];
    snprintf(what, sizeof what, "%s %s n=%lld d=%g%s%s", tname, oname, (long long)n, d,
             clustered ? " clustered" : "", one ? " one" : "");

    const int64_t maxk = sparse_max_nnz(n, es);
    const int64_t cnt_a = count(o, a, n), cnt_b = count(o, b, n);
    int64_t ba = sparse_encode(o, a, n, ea, maxk, scr);
    int64_t bb = sparse_encode(o, b, n, eb, maxk, scr);
    check((ba >= 0) == (cnt_a <= maxk), "%s: encode(a) chose %s with %lld present, max %lld", what,
          ba >= 0 ? "sparse" : "dense", (long long)cnt_a, (long long)maxk);
    if (ba >= 0) {
        check(ba == sparse_bytes(cnt_a, es) && ba < (int64_t)(n * (int64_t)es) &&
                  sparse_check(ea, ba, es, n),
              "%s: encoded size %lld", what, (long long)ba);
        sparse_decode(o, ea, tmp);
        check(memcmp(tmp, a, (size_t)n * es) == 0, "%s: decode(encode(a)) != a", what);
        /* the wire's bitmap form: same block back, exact size, and a
         * corrupted one (a bit past the values it carries) refused */
        int64_t bm = sparse_to_bitmap(o, ea, out);
        check(bm == sparse_bitmap_bytes(cnt_a, n, es) && sparse_is_bitmap(out) &&
                  sparse_check(out, bm, es, n) && !sparse_check(out, bm, es, n + 1),
              "%s: bitmap form of %lld bytes malformed", what, (long long)bm);
        memset(scr, 0xa5, (size_t)ba);
        check(sparse_unpack(o, out, scr) && !sparse_unpack(o, ea, tmp),
              "%s: unpack does not tell the forms apart", what);
        const int64_t at = SPARSE_HDR + sparse_pad16(4 * cnt_a); /* the values; pad between */
        check(memcmp(scr, ea, SPARSE_HDR + 4 * (size_t)cnt_a) == 0 &&
                  memcmp(scr + at, ea + at, (size_t)cnt_a * es) == 0,
              "%s: bitmap form does not round-trip", what);
        if (cnt_a < n) {
            unsigned char *bits = out + SPARSE_HDR;
            int64_t hole = 0;
            while (bits[hole / 8] >> (hole % 8) & 1)
                hole++;
            bits[hole / 8] |= (unsigned char)(1u << (hole % 8));
            check(!sparse_check(out, bm, es, n), "%s: bitmap with an extra bit accepted", what);
        }
        /* the runs form: same block back, exact size, corruptions refused */
        const int64_t nruns = sparse_count_runs(ea);
        check(nruns == count_runs_dense(o, a, n), "%s: %lld runs counted, %lld in the input",
              what, (long long)nruns, (long long)count_runs_dense(o, a, n));
        int64_t br = sparse_to_runs(o, ea, nruns, out);
        check(br == sparse_runs_bytes(cnt_a, nruns, es) && sparse_is_runs(out) &&
                  !sparse_is_bitmap(out) && sparse_check(out, br, es, n) &&
                  !sparse_check(out, br, es, n + 1) && !sparse_check(out, br - 16, es, n),
              "%s: runs form of %lld bytes malformed", what, (long long)br);
        memset(scr, 0xa5, (size_t)ba);
        check(sparse_unpack(o, out, scr) && memcmp(scr, ea, SPARSE_HDR + 4 * (size_t)cnt_a) == 0 &&
                  memcmp(scr + at, ea + at, (size_t)cnt_a * es) == 0,
              "%s: runs form does not round-trip", what);
        /* decoded and merged into dense straight from its runs */
        memset(tmp, 0xa5, (size_t)n * es);
        sparse_decode(o, out, tmp);
        check(memcmp(tmp, a, (size_t)n * es) == 0, "%s: decode(runs form) != a", what);
        memcpy(tmp, b, (size_t)n * es);
        sparse_merge_sd(o, out, tmp, n, scr);
        check(memcmp(tmp, ref, (size_t)n * es) == 0, "%s: merge_sd of the runs form differs", what);
        if (bb >= 0) {
            const int64_t rb = sparse_to_runs(o, eb, sparse_count_runs(eb), scr);
            sparse_merge_ds(o, a, scr, tmp, n);
            check(memcmp(tmp, ref, (size_t)n * es) == 0, "%s: merge_ds with runs io differs", what);
            check(sparse_check(scr, rb, es, n), "%s: runs form of b malformed", what);
        }
        if (nruns > 0) {
            uint32_t *r = (uint32_t *)(out + SPARSE_HDR);
            const int64_t i = (int64_t)(next() % (uint64_t)nruns);
            r[2 * i + 1]++; /* one element more than the values carried, or past n */
            check(!sparse_check(out, br, es, n), "%s: runs with a longer run accepted", what);
            r[2 * i + 1]--;
            if (i > 0) { /* moved to touch the previous run: not maximal */
                r[2 * i] = r[2 * i - 2] + r[2 * i - 1];
                check(!sparse_check(out, br, es, n), "%s: runs not maximal accepted", what);
            }
        }
        /* pack picks the smallest of the three, and says so */
        const int64_t best = sparse_wire_bytes(cnt_a, nruns, n, es);
        const void *wire = NULL;
        const int64_t bp = sparse_pack(o, ea, out, &wire);
        check(bp == best && best <= ba && best <= bm && best <= br && sparse_check(wire, bp, es, n) &&
                  (wire == ea) == (bp == ba),
              "%s: pack gave %lld bytes, smallest %lld", what, (long long)bp, (long long)best);
        /* ranges: a cut anywhere gives the dense elements of its range, and
         * the two pieces joined give the block back, byte for byte */
        const int64_t cut = n > 1 ? (int64_t)(next() % (uint64_t)(n + 1)) : n;
        unsigned char *lo = malloc(dense + 64), *hi = malloc(dense + 64);
        const int64_t bl = sparse_slice(o, ea, 0, cut, lo), bh = sparse_slice(o, ea, cut, n - cut, hi);
        bool ok = sparse_check(lo, bl, es, cut) && sparse_check(hi, bh, es, n - cut) &&
                  sparse_nnz(lo) == sparse_slice_nnz(ea, 0, cut) &&
                  sparse_nnz(lo) + sparse_nnz(hi) == cnt_a;
        if (ok) {
            sparse_decode(o, lo, tmp);
            sparse_decode(o, hi, tmp + cut * (int64_t)es);
            ok = memcmp(tmp, a, (size_t)n * es) == 0;
        }
        check(ok, "%s: slices at %lld malformed or wrong", what, (long long)cut);
        memset(out, 0x5a, 2 * dense + 64);
        const int64_t bj = sparse_concat(o, lo, cut, hi, n - cut, out);
        check(bj == ba && memcmp(out, ea, SPARSE_HDR + 4 * (size_t)cnt_a) == 0 &&
                  memcmp(out + SPARSE_HDR + sparse_pad16(4 * cnt_a),
                         ea + SPARSE_HDR + sparse_pad16(4 * cnt_a), (size_t)cnt_a * es) == 0,
              "%s: slices at %lld do not join back", what, (long long)cut);
        free(lo), free(hi);
    }
    if (bb >= 0) {
        sparse_decode(o, eb, tmp);
        check(memcmp(tmp, b, (size_t)n * es) == 0, "%s: decode(encode(b)) != b", what);
    }
    if (ba >= 0) { /* sparse in into dense io */
        memcpy(tmp, b, (size_t)n * es);
        sparse_merge_sd(o, ea, tmp, n, scr);
        check(memcmp(tmp, ref, (size_t)n * es) == 0, "%s: merge_sd differs from dense", what);
    }
    if (bb >= 0) { /* dense in with sparse io */
        sparse_merge_ds(o, a, eb, tmp, n);
        check(memcmp(tmp, ref, (size_t)n * es) == 0, "%s: merge_ds differs from dense", what);
    }
    if (ba >= 0 && bb >= 0) {
        int64_t bo = sparse_merge_ss(o, ea, eb, out, maxk, scr);
        if (bo >= 0) {
            check(sparse_check(out, bo, es, n), "%s: merge_ss output malformed", what);
            sparse_decode(o, out, tmp);
            check(memcmp(tmp, ref, (size_t)n * es) == 0, "%s: merge_ss differs from dense", what);
            check(sparse_nnz(out) == count(o, ref, n),
                  "%s: merge_ss kept neutral results", what);
        } else {
            /* refused only when the union of the positions does not fit */
            check(cnt_a + cnt_b > maxk, "%s: merge_ss refused %lld + %lld present of max %lld",
                  what, (long long)cnt_a, (long long)cnt_b, (long long)maxk);
        }
    }
    free(a), free(b), free(ref), free(ea), free(eb), free(out), free(scr), free(tmp);
}

/* The selector's union estimate: sketches of p = 64 ranks' positions
 * merged by max count the union within 20% (the sketch's error is about
 * 9%) at densities it sketches (below 1/32), scattered positions give a support whose unions are those of
 * independent positions, clustered
 * ones (the benchmark's: one run each in a shared window of 4 d n) a
 * support near the window; the profile stops past its limit. */
static void test_union_model(void)
{
    struct sparse_op o;
    kernel_sparse_op(MPI_SUM, MPI_DOUBLE, &o);
    const int64_t n = 1 << 17;
    const int p = 64;
    double *x = malloc((size_t)n * sizeof *x);
    unsigned char *in_union = calloc((size_t)n, 1);
    for (int cl = 0; cl < 2; cl++)
        for (double d = 0.0001; d < 0.02; d *= 10) {
            double reg[SPARSE_SKETCH] = {0};
            int64_t truth = 0, k = (int64_t)(d * (double)n), window = 4 * k;
            memset(in_union, 0, (size_t)n);
            for (int r = 0; r < p; r++) {
                memset(x, 0, (size_t)n * sizeof *x);
                const int64_t start = (int64_t)(next() % (uint64_t)(window - k + 1));
                for (int64_t i = 0; i < n; i++)
                    if (cl ? i >= start && i < start + k : (double)(next() % 1000000) < d * 1e6)
                        x[i] = 1.5;
                for (int64_t i = 0; i < n; i++)
                    if (x[i] != 0 && !in_union[i])
                        in_union[i] = 1, truth++;
                struct sparse_profile pr;
                sparse_profile(&o, x, n, n, &pr);
                for (int j = 0; j < SPARSE_SKETCH; j++)
                    reg[j] = reg[j] > pr.reg[j] ? reg[j] : pr.reg[j];
            }
            const double est = sparse_sketch_count(reg), u = est / (double)n;
            check(fabs(est - (double)truth) <= 0.2 * (double)truth,
                  "sketch: union of %d ranks at d=%g%s counted %.0f, truly %lld", p, d,
                  cl ? " clustered" : "", est, (long long)truth);
            const double sup = sparse_support(d, u, p);
            if (cl)
                check(sup <= 1.5 * 4 * d, "clustered d=%g: support %g, window %g", d, sup, 4 * d);
            else /* at low density the union hardly depends on the support: compare unions */
                for (int m = 2; m <= p; m *= 2)
                    check(sparse_union(d, sup, m) >= 0.75 * sparse_union(d, 1, m),
                          "scattered d=%g: support %g makes %d ranks' union %g, not about %g", d,
                          sup, m, sparse_union(d, sup, m), sparse_union(d, 1, m));
            check(fabs(sparse_union(d, sup, p) - fmin(fmax(u, d), sparse_union(d, 1, p))) < 1e-6,
                  "support %g does not give back the union %g", sup, u);
        }
    check(fabs(sparse_union(0.01, 1, 2) - (1 - 0.99 * 0.99)) < 1e-12 &&
              fabs(sparse_union(0.01, 0.01, 64) - 0.01) < 1e-12,
          "union model at its ends");
    /* denser than the sketch covers: the support is taken as the whole
     * vector, even for one run */
    memset(x, 0, (size_t)n * sizeof *x);
    for (int64_t i = 0; i < n / 10; i++)
        x[i] = 2.0;
    struct sparse_profile pr;
    double v[SPARSE_AGREE];
    struct sparse_shape sh;
    sparse_profile(&o, x, n, n / 4, &pr);
    sparse_agree_values(&pr, n, n / 4, v);
    sparse_shape_of(v, n, p, &sh);
    check(pr.nnz == n / 10 && pr.runs == 1 && sh.support == 1 && sh.density == (double)(n / 10) / (double)n &&
              sh.run_length == (double)(n / 10),
          "profile past the sketch: nnz %lld, support %g, density %g, run %g", (long long)pr.nnz,
          sh.support, sh.density, sh.run_length);
    memset(x, 0xff, (size_t)n * sizeof *x);
    sparse_profile(&o, x, n, 100, &pr);
    check(pr.nnz == 101, "profile went past its limit: %lld", (long long)pr.nnz);
    free(x), free(in_union);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const struct tcase types[] = {
        {"int8", MPI_INT8_T, K_INT},       {"uint8", MPI_UINT8_T, K_INT},
        {"int16", MPI_INT16_T, K_INT},     {"uint16", MPI_UINT16_T, K_INT},
        {"int32", MPI_INT32_T, K_INT},     {"uint32", MPI_UINT32_T, K_INT},
        {"int64", MPI_INT64_T, K_INT},     {"uint64", MPI_UINT64_T, K_INT},
        {"float", MPI_FLOAT, K_F32},       {"double", MPI_DOUBLE, K_F64},
        {"long double", MPI_LONG_DOUBLE, K_FLD},
        {"float complex", MPI_C_FLOAT_COMPLEX, K_C32},
        {"double complex", MPI_C_DOUBLE_COMPLEX, K_C64},
        {"bool", MPI_C_BOOL, K_INT},       {"byte", MPI_BYTE, K_INT},
    };
    const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR,
                          MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
    const char *onames[] = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR",
                            "LXOR", "BAND", "BOR", "BXOR", "MAXLOC", "MINLOC"};
    const double dens[] = {0, 0.001, 0.01, 0.1, 0.5, 1};
    const int64_t sizes[] = {1, 7, 100, 5000};
    int pairs = 0;
    for (unsigned t = 0; t < sizeof types / sizeof *types; t++) {
        for (unsigned oi = 0; oi < sizeof ops / sizeof *ops; oi++) {
            struct sparse_op o;
            bool has = kernel_sparse_op(ops[oi], types[t].dt, &o);
            bool expect = kernel_lookup(ops[oi], types[t].dt) && oi < 10;
            if (!check(has == expect, "%s %s: neutral element %s", types[t].name, onames[oi],
                       has ? "given but not expected" : "missing"))
                continue;
            if (!has)
                continue;
            pairs++;
            for (unsigned si = 0; si < sizeof sizes / sizeof *sizes; si++)
                for (unsigned di = 0; di < sizeof dens / sizeof *dens; di++)
                    for (int cl = 0; cl < 2; cl++)
                        run_pair(types[t].name, onames[oi], &o, types[t].kind, sizes[si],
                                 dens[di], cl, false);
            run_pair(types[t].name, onames[oi], &o, types[t].kind, 5000, 0, false, true);
        }
    }
    check(pairs >= 60, "only %d (op, type) pairs have a neutral element", pairs);

    test_union_model();

    /* the switch point: the sparse form only when strictly smaller */
    for (size_t es = 1; es <= 16; es *= 2)
        for (int64_t n = 1; n < 300; n++) {
            int64_t k = sparse_max_nnz(n, es);
            check(k < 0 || (sparse_bytes(k, es) < n * (int64_t)es &&
                            sparse_bytes(k + 1, es) >= n * (int64_t)es),
                  "sparse_max_nnz(%lld, %zu) = %lld", (long long)n, es, (long long)k);
        }
    const int rc = check_summary();
    MPI_Finalize();
    return rc;
}
