/*
 * Sparse blocks for reductions: neutral-element elimination (Träff,
 * "Transparent neutral element elimination in MPI reduction operations").
 *
 * An element equal, bit for bit, to the operation's neutral element e is
 * "absent"; a block travels either dense (n elements) or as the pairs of its
 * present elements, whichever is smaller.  Pure C, no MPI: unit tests call it
 * directly.
 *
 * Exactness.  Every combination computes, for every element, exactly what
 * the dense kernel computes on the two dense operands: present-present pairs
 * and present-absent pairs go through the dense kernel itself (the absent
 * side filled with e), absent-absent pairs give kernel(e, e), which must be e
 * bit for bit (sparse_op_init checks it).  So -0.0 + (+0.0) = +0.0, NaN
 * quieting, MAX(NaN, -inf) taking the kernel's side and logical ops turning
 * 5 into 1 all come out as on the dense path; an element is only skipped
 * where the kernel is the identity for it (r_identity below).
 *
 * Encoded form (all offsets from the block's start, 16-byte aligned):
 *   int64 nnz, int64 n;  uint32 idx[nnz] (ascending, < n);  pad to 16;
 *   values[nnz] (elem_size bytes each).
 * On the wire a block takes whichever of three sparse forms is smallest
 * (Träff's choice of the form per block and round):
 *   index:  as above, 4 bytes per present element (scattered positions);
 *   bitmap: int64 nnz, int64 n | SPARSE_BITMAP;  bit i of byte i/8 set for
 *           each present element, pad to 16;  values[nnz] in index order
 *           (n/8 bytes: pays above about 1/32 density);
 *   runs:   int64 nnz, int64 n | SPARSE_RUNS | nruns << 32;  nruns pairs
 *           uint32 (start, length) of maximal runs of present elements,
 *           ascending and separated by at least one absent one, pad to 16;
 *           values[nnz] in index order (8 bytes per run: pays when the
 *           present elements come in runs longer than two, structured
 *           sparsity such as shared features or a mesh region).
 * A running partial result is kept in the index form, whose merges walk
 * present elements only; the other two forms are made when a block is sent
 * and turned back into the index form when it arrives (both O(nnz) plus
 * the bitmap's n/8 bytes: nothing is densified).
 * A dense block is its n elements, nothing else: a receiver posts for the
 * dense size and tells the forms apart by the size that arrived, since the
 * sparse forms are used only when strictly smaller, then by the header.
 */
#ifndef COLIBRI_SPARSE_H
#define COLIBRI_SPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* dense kernel: inout[i] = in[i] (op) inout[i] (dense.h's colibri_kernel) */
typedef void (*sparse_kernel)(const void *in, void *inout, size_t n);

#define SPARSE_MAX_ELEM 32
#define SPARSE_HDR 16

/* the same with the operation's context (a user-defined MPI_Op) */
typedef void (*sparse_kernel_ctx)(const void *in, void *inout, size_t n, const void *ctx);

struct sparse_op {
    size_t es;                          /* element size in bytes */
    sparse_kernel kernel;               /* NULL: kernel_ctx(..., ctx) */
    sparse_kernel_ctx kernel_ctx;
    const void *ctx;
    unsigned char e[SPARSE_MAX_ELEM];   /* the neutral element's bytes */
    /* kernel(in = e, inout = x) == x for every x: a sparse operand can be
     * merged into a dense one without touching its absent positions.
     * False for float SUM (-0.0, signalling NaN) and logical ops (5 -> 1). */
    bool r_identity;
    int64_t *bytes_saved;               /* accounting (NULL: none) */
};

/* Fills o; false when kernel(e, e) != e (then the op is not sparse-capable).
 * The _ctx form is for kernels that need their operation's context; it
 * assumes nothing of kernel(e, x) (r_identity false). */
bool sparse_op_init(struct sparse_op *o, size_t es, sparse_kernel k, const void *e,
                    bool r_identity);
bool sparse_op_init_ctx(struct sparse_op *o, size_t es, sparse_kernel_ctx k, const void *ctx,
                        const void *e);

static inline void sparse_apply(const struct sparse_op *o, const void *in, void *io, size_t n)
{
    if (o->kernel)
        o->kernel(in, io, n);
    else
        o->kernel_ctx(in, io, n, o->ctx);
}

static inline int64_t sparse_pad16(int64_t b) { return (b + 15) & ~(int64_t)15; }

/* Bytes of the encoded form of a block with nnz present elements. */
static inline int64_t sparse_bytes(int64_t nnz, size_t es)
{
    return SPARSE_HDR + sparse_pad16(4 * nnz) + nnz * (int64_t)es;
}

#define SPARSE_BITMAP ((int64_t)1 << 62)
#define SPARSE_RUNS ((int64_t)1 << 61)
/* the run count lives in bits 32..60 of the runs form's second word (n,
 * below 2^32 whenever a sparse form exists, in bits 0..31) */
#define SPARSE_MAX_RUNS (((int64_t)1 << 29) - 1)

/* Bytes of the bitmap form of a block of n elements, nnz present. */
static inline int64_t sparse_bitmap_bytes(int64_t nnz, int64_t n, size_t es)
{
    return SPARSE_HDR + sparse_pad16((n + 7) / 8) + nnz * (int64_t)es;
}

/* Bytes of the runs form of a block with nnz present elements in nruns
 * maximal runs (INT64_MAX when the header cannot hold that many runs). */
static inline int64_t sparse_runs_bytes(int64_t nnz, int64_t nruns, size_t es)
{
    return nruns > SPARSE_MAX_RUNS ? INT64_MAX
                                   : SPARSE_HDR + sparse_pad16(8 * nruns) + nnz * (int64_t)es;
}

/* Bytes of the smallest sparse form (nruns: the block's maximal runs). */
static inline int64_t sparse_wire_bytes(int64_t nnz, int64_t nruns, int64_t n, size_t es)
{
    int64_t a = sparse_bytes(nnz, es), b = sparse_bitmap_bytes(nnz, n, es),
            c = sparse_runs_bytes(nnz, nruns, es);
    a = a < b ? a : b;
    return a < c ? a : c;
}

static inline bool sparse_is_bitmap(const void *enc)
{
    return (((const int64_t *)enc)[1] & SPARSE_BITMAP) != 0;
}
static inline bool sparse_is_runs(const void *enc)
{
    return (((const int64_t *)enc)[1] & SPARSE_RUNS) != 0;
}

/* The index-form block at `pairs` in bitmap form at out (out != pairs);
 * returns its bytes. */
int64_t sparse_to_bitmap(const struct sparse_op *o, const void *pairs, void *out);
/* The same in runs form (nruns: sparse_count_runs(pairs), at most
 * SPARSE_MAX_RUNS). */
int64_t sparse_to_runs(const struct sparse_op *o, const void *pairs, int64_t nruns, void *out);
/* Maximal runs of consecutive indices in an index-form block. */
int64_t sparse_count_runs(const void *pairs);

/* The index-form block `pairs` in its smallest wire form: returns its
 * bytes and sets *wire to pairs itself (the index form is smallest) or to
 * out, where the bitmap or runs form was written (out != pairs). */
int64_t sparse_pack(const struct sparse_op *o, const void *pairs, void *out, const void **wire);
/* A checked block in bitmap or runs form, in index form at out (out !=
 * enc); false, nothing written, when it already is in index form. */
bool sparse_unpack(const struct sparse_op *o, const void *enc, void *out);

/* The most present elements for which the sparse form is smaller than the
 * dense one (-1: never, e.g. n too small or too large for 32-bit indices). */
int64_t sparse_max_nnz(int64_t n, size_t es);

/*
 * The input's profile, for the selector (api/reductions.c agrees on it
 * with one elementwise MPI_MAX over all ranks, so every field merges by
 * max): present elements, maximal runs, first and last present index,
 * and a HyperLogLog sketch of the present positions (Flajolet et al.
 * 2007): register j holds the largest "first set bit" position among the
 * hashes that fall in bucket j, so the max of two sketches is the sketch
 * of the union, and sparse_sketch_count estimates the union's size within
 * about 1.04/sqrt(SPARSE_SKETCH) = 9%.  One pass; the branch is taken on
 * present elements only, and the scan stops once more than `limit` are
 * present (then only nnz > limit is meaningful).  Only the first
 * n/SPARSE_SKETCH_DENSITY present elements are hashed: the hash is most of
 * the scan's cost on dense data (measured: 4x a plain count over the
 * quarter it reads), and past that density the bitmap form is the smaller
 * one anyway and the model takes positions as scattered.
 */
#define SPARSE_SKETCH 128
#define SPARSE_SKETCH_DENSITY 32
struct sparse_profile {
    int64_t nnz, runs, first, last; /* first = n, last = -1 when none */
    int64_t sketch_limit;           /* present elements hashed at most */
    double reg[SPARSE_SKETCH];
};
void sparse_profile(const struct sparse_op *o, const void *x, int64_t n, int64_t limit,
                    struct sparse_profile *pr);
/* Estimated number of distinct positions in a (merged) sketch. */
double sparse_sketch_count(const double reg[SPARSE_SKETCH]);

/* What the selector knows of every rank's input (sched_params' fields of
 * the same names): the densest rank's fraction of present elements, the
 * support (below), the fraction from the first present position of any
 * rank to the last, and the shortest mean run length among the ranks.
 * The four are made from SPARSE_AGREE values per rank merged by
 * elementwise max (sparse_agree_values: a rank with more than `cut`
 * present elements counts as dense, and then nothing is known of the
 * shape, all three 0; one with more than it sketched makes the support
 * 1). */
struct sparse_shape {
    double density, support, span, run_length;
};
#define SPARSE_AGREE (5 + SPARSE_SKETCH)
void sparse_agree_values(const struct sparse_profile *pr, int64_t n, int64_t cut,
                         double v[SPARSE_AGREE]);
void sparse_shape_of(const double v[SPARSE_AGREE], int64_t n, int p, struct sparse_shape *sh);

/*
 * The union model.  Every rank's present elements are taken to lie at
 * independent positions within a common support, a fraction `support` of
 * the vector, each at density d of the whole vector; then m inputs' union
 * covers sparse_union(d, support, m) of the vector: support = 1 is
 * independent positions anywhere, 1 - (1-d)^m; support = d is every rank
 * on the same positions.  sparse_support finds the support for which p
 * inputs' union covers u (what the sketch measured): from d (u <= d) to 1
 * (u at least the independent union).
 */
double sparse_union(double d, double support, double m);
double sparse_support(double d, double u, double p);

/* Encodes x[0..n) into out if it has at most max_nnz present elements
 * (vals_scratch: max_nnz*es bytes); returns the encoded bytes, or -1 (out
 * partly written) when the dense form is smaller. */
int64_t sparse_encode(const struct sparse_op *o, const void *x, int64_t n, void *out,
                      int64_t max_nnz, void *vals_scratch);

/* False if `bytes` at enc are not a valid encoding, in any of the three
 * sparse forms, of a block of n elements. */
bool sparse_check(const void *enc, int64_t bytes, size_t es, int64_t n);
static inline int64_t sparse_nnz(const void *enc) { return ((const int64_t *)enc)[0]; }

/* dense[0..n) = the block encoded at enc, in index or runs form. */
void sparse_decode(const struct sparse_op *o, const void *enc, void *dense);

/* Range operations of the reduce-scatter/allgather forms, on index-form
 * blocks.  sparse_slice: elements [lo, lo+len) of enc, rebased to 0, at out
 * (out != enc); returns its bytes (its nnz may exceed what pays for len
 * elements: the caller decides the form).  sparse_slice_nnz: how many
 * present elements that slice holds.  sparse_concat: block a of na
 * elements followed by block b, as one index-form block at out (out != a,
 * b); returns its bytes. */
int64_t sparse_slice_nnz(const void *enc, int64_t lo, int64_t len);
int64_t sparse_slice(const struct sparse_op *o, const void *enc, int64_t lo, int64_t len,
                     void *out);
int64_t sparse_concat(const struct sparse_op *o, const void *a, int64_t na, const void *b,
                      int64_t nb, void *out);

/* The four combinations, result = kernel(in, io) elementwise:
 * sparse in into dense io (in place; scratch: nnz(in)*es bytes; in may be
 * in runs form, whose runs the dense kernel combines in place);
 * dense in with sparse io (index or runs form) into dense out (out != in);
 * sparse with sparse into out: returns its encoded bytes, or -1 when it
 * would have more than max_nnz present elements (out untouched then);
 * scratch: (nnz(in) + nnz(io)) * es bytes. */
void sparse_merge_sd(const struct sparse_op *o, const void *in, void *io, int64_t n,
                     void *scratch);
void sparse_merge_ds(const struct sparse_op *o, const void *in, const void *io, void *out,
                     int64_t n);
int64_t sparse_merge_ss(const struct sparse_op *o, const void *in, const void *io, void *out,
                        int64_t max_nnz, void *scratch);

#endif
