// ranks: 1 2 3 4 5 6 7 8
// mpich-ranks: 2
// ompi5-ranks: 1 2 3 4
// mpich5-ranks: 1 2
// impi-ranks: 1 2
// abi-ranks: 1 2
// asan-ranks: 1 3 4
// env-ranks: COLIBRI_ONLINE_FAKE=random:7,calls=2,window=1 2 3
/*
 * The correctness matrix: every algorithm of the catalog, found at run time
 * and forced by name, against a serial reference (harness.h):
 *  - every predefined C datatype x every predefined op MPI defines on it,
 *    counts {0, 1, 2, p-1, p, p+1, 17, 131}, in place or not, roots 0 and
 *    p-1, reduce_scatter with uneven and empty blocks; every root for one op
 *    on each kind of layout (1, 4, 16-byte, padded pair, complex, bool);
 *  - user-defined operations: two non-commutative ones (must come out in
 *    exact rank order) on every algorithm the catalog allows them for, and
 *    a commutative one;
 *  - derived datatypes (contiguous, vector and resized types with gaps that
 *    must stay untouched, a type whose data starts past its lower bound);
 *  - sub-communicators from MPI_Comm_split (even/odd, reversed rank order);
 *  - NULL for every buffer MPI does not use (a non-root's recvbuf, the
 *    recvbuf of an empty reduce_scatter block, an empty input);
 *  - COLIBRI_RADIX and COLIBRI_SEGMENT_BYTES at small and odd values;
 *  - vectors of more than 2^20 elements, one (type, op) pair per algorithm;
 *  - a forced algorithm whose catalog restriction does not hold: MPI_ERR_ARG;
 *  - the interposed MPI_* entry points with COLIBRI_<COLL>_ALGORITHM set.
 * After every call colibri_last_algorithm must name the forced algorithm and
 * no byte outside the result (guards, gaps, the input) may have changed.
 */
#include "harness.h"

/* What the catalog's restriction words mean for a test. */
struct alg {
    colibri_algorithm_info info;
    bool commutative_only, pow2_only;
};

static struct alg algs[128];
static int nalgs;
/* The inputs' seed; every rank of a case's communicator must agree on it,
 * so a sweep on split communicators (of different case counts) numbers its
 * cases from a base of its own. */
static uint64_t case_seq;

static bool is_pow2(int p) { return (p & (p - 1)) == 0; }

/* The catalog, as the test understands it; an entry it cannot read or
 * whose restrictions it does not know fails and is left out. */
static void load_catalog(void)
{
    const int n = colibri_catalog_size();
    for (int i = 0; i < n && nalgs < (int)(sizeof algs / sizeof *algs); i++) {
        struct alg a = {0};
        if (colibri_catalog_get(i, &a.info) != MPI_SUCCESS) {
            h_record(MPI_COMM_WORLD, false, "colibri_catalog_get(%d) failed", i);
            continue;
        }
        if (a.info.coll >= COLIBRI_ALLTOALL)
            continue; /* data movement: test_exchange */
        if (strstr(a.info.restrictions, "neutral-element"))
            continue; /* sparse reductions: test_sparse, bitwise against these */
        char words[256];
        const char *unknown = NULL;
        snprintf(words, sizeof words, "%s", a.info.restrictions);
        for (char *w = strtok(words, " "); w; w = strtok(NULL, " ")) {
            if (strcmp(w, "commutative") == 0)
                a.commutative_only = true;
            else if (strcmp(w, "power-of-two") == 0)
                a.pow2_only = true;
            /* Node-aware reductions: every rank here is on one node, whose
             * ranks are consecutive in every communicator, so neither
             * restricts a case (tests/smpi runs them over several nodes). */
            else if (strcmp(w, "node-aware") == 0 || strcmp(w, "node-order") == 0)
                continue;
            else
                unknown = w;
        }
        h_record(MPI_COMM_WORLD, !unknown, "%s/%s: restriction '%s' unknown to the test",
                 a.info.collective, a.info.name, unknown ? unknown : "");
        if (!unknown)
            algs[nalgs++] = a;
    }
    /* automatic selection of each reduction: with online selection it runs
     * what its shape explores or decided (the env-ranks line's fake timings
     * flip the decisions every few calls) */
    for (int c = COLIBRI_ALLREDUCE; c < COLIBRI_ALLTOALL; c++) {
        struct alg a = {0};
        a.info.coll = (colibri_coll)c;
        a.info.collective = colibri_coll_name((colibri_coll)c);
        a.info.name = "auto";
        a.info.restrictions = "";
        algs[nalgs++] = a;
    }
}

/* Whether algorithm a may run (type, op) on p processes. */
static bool allowed(const struct alg *a, int op, int p)
{
    return !(a->pow2_only && !is_pow2(p)) && !(a->commutative_only && !h_op_commutative(op));
}

/* {0, 1, 2, p-1, p, p+1, 17, 131} without repeats. */
static int count_list(int p, int64_t *out)
{
    const int64_t want[] = {0, 1, 2, p - 1, p, p + 1, 17, 131};
    int n = 0;
    for (unsigned i = 0; i < sizeof want / sizeof *want; i++) {
        bool dup = false;
        for (int j = 0; j < n; j++)
            dup |= out[j] == want[i];
        if (!dup && want[i] >= 0)
            out[n++] = want[i];
    }
    return n;
}

/* Reduce_scatter block patterns: even, empty first/last/alternate ranks,
 * everything on one rank, ragged, all empty. */
#define RS_PATTERNS 8
static void rs_counts(int p, int pattern, int64_t *c)
{
    for (int r = 0; r < p; r++) {
        switch (pattern) {
        case 0: c[r] = 1; break;
        case 1: c[r] = 17; break;
        case 2: c[r] = r; break;
        case 3: c[r] = p - 1 - r; break;
        case 4: c[r] = r % 2 ? 0 : 3; break;
        case 5: c[r] = r == p / 2 ? 131 : 0; break;
        case 6: c[r] = (r * 7 + 3) % 5 + (r % 3 == 0 ? 17 : 0); break;
        default: c[r] = 0; break;
        }
    }
}

/* One sweep: algorithms x types x their ops x counts x in place x roots. */
struct sweep {
    MPI_Comm comm;
    const char *comm_name;
    const struct h_type *types;
    int ntypes;
    bool null_unused; /* NULL for the buffers MPI ignores (non-root recvbuf, empty blocks) */
    bool end_roots;   /* reduce: roots 0 and p-1 only, not every rank */
};

static void run_sweep(const struct sweep *s)
{
    int p;
    MPI_Comm_size(s->comm, &p);
    int64_t counts[8], *rc = malloc((size_t)p * sizeof *rc);
    const int ncounts = count_list(p, counts);
    static uint64_t sweeps;
    uint64_t seq = ++sweeps << 32;
    for (int ai = 0; ai < nalgs; ai++) {
        const struct alg *a = &algs[ai];
        for (int ti = 0; ti < s->ntypes; ti++) {
            const struct h_type *t = &s->types[ti];
            for (int op = 0; op < H_NOPS; op++) {
                if (!(t->ops & H_BIT(op)) || !allowed(a, op, p))
                    continue;
                struct h_case c = {.comm = s->comm, .comm_name = s->comm_name,
                                   .coll = a->info.coll, .alg = a->info.name, .type = t, .op = op,
                                   .null_unused = s->null_unused};
                const int nvariants = a->info.coll == COLIBRI_REDUCE_SCATTER ? RS_PATTERNS : ncounts;
                for (int v = 0; v < nvariants; v++) {
                    if (a->info.coll == COLIBRI_REDUCE_SCATTER) {
                        rs_counts(p, v, rc);
                        c.counts = rc;
                    } else {
                        c.count = counts[v];
                    }
                    for (int ip = 0; ip < 2; ip++) {
                        c.in_place = ip;
                        const int roots = a->info.coll != COLIBRI_REDUCE ? 1 : s->end_roots ? 2 : p;
                        for (int r = 0; r < roots && r < p; r++) {
                            c.root = s->end_roots && r ? p - 1 : r;
                            c.seed = ++seq;
                            h_case(&c);
                        }
                    }
                }
            }
        }
    }
    free(rc);
}

/* The C layouts the reference uses must be MPI's. */
static void check_layouts(void)
{
    for (int i = 0; i < h_npredefined; i++) {
        const struct h_type *t = &h_predefined[i];
        h_record(MPI_COMM_WORLD, t->extent == (MPI_Aint)t->scalar_size,
                 "%s: MPI extent %ld but C size %zu; the test cannot model it", t->name,
                 (long)t->extent, t->scalar_size);
    }
}

/* Derived datatypes go with user-defined operations: MPI defines the
 * predefined ones on predefined datatypes only. */
#define NDERIVED 6
static void derived_types(struct h_type *out)
{
    MPI_Datatype contig, vec, resized, shifted0, shifted, matgap, affgap;
    MPI_Type_contiguous(3, MPI_DOUBLE, &contig);
    MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &vec); /* doubles at 0 and 16, gap at 8 */
    MPI_Type_create_resized(MPI_INT, 0, 12, &resized);
    const MPI_Aint disp8 = 8;
    MPI_Type_create_hindexed_block(1, 1, &disp8, MPI_DOUBLE, &shifted0);
    MPI_Type_create_resized(shifted0, 0, 16, &shifted); /* data at 8..15 of 16 */
    MPI_Type_free(&shifted0);
    MPI_Type_create_resized(h_user_types[0].dt, 0, 40, &matgap);
    MPI_Type_create_resized(h_user_types[1].dt, 0, 12, &affgap);
    MPI_Datatype *all[NDERIVED] = {&contig, &vec, &resized, &shifted, &matgap, &affgap};
    for (int i = 0; i < NDERIVED; i++)
        MPI_Type_commit(all[i]);
    const unsigned sum = H_BIT(H_USER_SUM);
    out[0] = (struct h_type){"contiguous(3 double)", contig, &h_scalar_f64, 8, sum,
                             3, {0, 8, 16}, 24, false};
    out[1] = (struct h_type){"vector(2,1,2 double)", vec, &h_scalar_f64, 8, sum,
                             2, {0, 16}, 24, true};
    out[2] = (struct h_type){"resized(int, extent 12)", resized, &h_scalar_i32, 4, sum,
                             1, {0}, 12, true};
    out[3] = (struct h_type){"resized(hindexed double at 8, extent 16)", shifted, &h_scalar_f64, 8,
                             sum, 1, {8}, 16, true};
    out[4] = (struct h_type){"resized(mat2x2, extent 40)", matgap, &h_scalar_mat, sizeof(h_mat),
                             H_BIT(H_USER_MATMUL), 1, {0}, 40, true};
    out[5] = (struct h_type){"resized(affine, extent 12)", affgap, &h_scalar_affine,
                             sizeof(h_affine), H_BIT(H_USER_AFFINE), 1, {0}, 12, true};
    for (int i = 0; i < NDERIVED; i++)
        h_register(&out[i]);
}

static void sub_communicators(const struct h_type *derived)
{
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const struct h_type types[] = {*h_type_named("MPI_INT"), *h_type_named("MPI_DOUBLE_INT"),
                                   h_user_types[0], h_user_types[1], derived[1]};
    MPI_Comm split, reversed;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split);
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - rank, &reversed);
    struct sweep s = {split, rank % 2 ? "odd-ranks" : "even-ranks", types, 5, false, false};
    run_sweep(&s);
    s.comm = reversed;
    s.comm_name = "reversed-world";
    run_sweep(&s);
    h_flush();
    MPI_Comm_free(&split);
    MPI_Comm_free(&reversed);
}

/* The knobs that reshape schedules (k of k-ary algorithms, pipeline
 * segments): small and odd values, with a non-commutative op among the
 * types so that a reordering shows. */
static void knobs(void)
{
    const struct h_type types[] = {*h_type_named("MPI_INT"), *h_type_named("MPI_DOUBLE_INT"),
                                   h_user_types[0]};
    const struct sweep s = {MPI_COMM_WORLD, "world", types, 3, false, true};
    static const char *const settings[][2] = {
        {"COLIBRI_RADIX", "2"}, {"COLIBRI_RADIX", "3"}, {"COLIBRI_RADIX", "5"},
        {"COLIBRI_RADIX", "8"}, {"COLIBRI_SEGMENT_BYTES", "8"},
        {"COLIBRI_SEGMENT_BYTES", "24"}, {"COLIBRI_SEGMENT_BYTES", "1000"}};
    for (unsigned i = 0; i < sizeof settings / sizeof *settings; i++) {
        setenv(settings[i][0], settings[i][1], 1);
        colibri_config_reload();
        run_sweep(&s);
        unsetenv(settings[i][0]);
        colibri_config_reload();
    }
}

/* Vectors over 2^20 elements: one (type, op) pair per algorithm. */
static void big_counts(void)
{
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const int64_t big = 1 << 20;
    int64_t *rc = malloc((size_t)p * sizeof *rc);
    for (int r = 0; r < p; r++)
        rc[r] = r % 3 == 1 ? 0 : (2 * big / p) * (r % 3 + 1) / 3 + r;
    for (int ai = 0; ai < nalgs; ai++) {
        const struct alg *a = &algs[ai];
        if (!allowed(a, H_SUM, p))
            continue;
        struct h_case c = {.comm = MPI_COMM_WORLD, .comm_name = "world", .coll = a->info.coll,
                           .alg = a->info.name, .op = H_SUM};
        switch (a->info.coll) {
        case COLIBRI_ALLREDUCE:
            /* alternate between a bounded real sum and exact 8-bit wraparound */
            if (ai % 2)
                c.type = h_type_named("MPI_DOUBLE"), c.count = big + 5, c.bounded = true;
            else
                c.type = h_type_named("MPI_UINT8_T"), c.count = big + 3, c.in_place = true;
            break;
        case COLIBRI_REDUCE:
            c.type = h_type_named("MPI_FLOAT"), c.count = big + 1, c.bounded = true;
            c.in_place = true, c.root = p - 1;
            break;
        case COLIBRI_REDUCE_SCATTER_BLOCK:
            c.type = h_type_named("MPI_INT"), c.count = big / p + 1;
            break;
        default:
            c.type = h_type_named("MPI_INT64_T"), c.op = H_MAX, c.counts = rc;
            break;
        }
        c.seed = ++case_seq;
        h_case(&c);
    }
    free(rc);
}

/* A call of algorithm a on MPI_COMM_WORLD; reduce_scatter gets the ragged
 * blocks, reduce the last rank as root. */
static struct h_case world_case(const struct alg *a, const int64_t *ragged, const struct h_type *t,
                                int op, int64_t count)
{
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    struct h_case c = {.comm = MPI_COMM_WORLD, .comm_name = "world", .coll = a->info.coll,
                       .alg = a->info.name, .type = t, .op = op, .count = count, .counts = ragged,
                       .root = p - 1, .seed = ++case_seq};
    return c;
}

/* A forced algorithm whose restriction does not hold must be refused with
 * MPI_ERR_ARG and leave the buffers alone. */
static void restriction_violations(const int64_t *ragged)
{
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int ai = 0; ai < nalgs; ai++) {
        const struct alg *a = &algs[ai];
        struct h_case c;
        if (a->commutative_only) {
            c = world_case(a, ragged, &h_user_types[0], H_USER_MATMUL, 3);
            c.expect_class = MPI_ERR_ARG;
            h_case(&c);
        }
        if (a->pow2_only && !is_pow2(p)) {
            c = world_case(a, ragged, h_type_named("MPI_INT"), H_SUM, 3);
            c.expect_class = MPI_ERR_ARG;
            h_case(&c);
        }
    }
}

/* MPI_Allreduce & co. (colibri's interposed definitions, linked into this
 * program) with the algorithm forced through the environment. */
static void interposed(const int64_t *ragged)
{
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int ai = 0; ai < nalgs; ai++) {
        const struct alg *a = &algs[ai];
        if (a->pow2_only && !is_pow2(p))
            continue;
        char var[64];
        h_algorithm_env(a->info.coll, var, sizeof var);
        setenv(var, a->info.name, 1);
        colibri_config_reload();
        struct h_case c = world_case(a, ragged, h_type_named("MPI_INT"), H_SUM, p + 1);
        c.via_mpi = true;
        h_case(&c);
        c.in_place = true, c.seed = ++case_seq;
        h_case(&c);
        if (!a->commutative_only) {
            c = world_case(a, ragged, &h_user_types[1], H_USER_AFFINE, p + 1);
            c.via_mpi = true;
            h_case(&c);
        }
        unsetenv(var);
        colibri_config_reload();
    }
}

/* Prints how many cases a part of the matrix ran, summed over
 * communicators, and how long it took. */
static void section_done(const char *name)
{
    static long long before;
    static double t_before = -1;
    h_flush();
    long long mine = check_passed + check_failed, total;
    PMPI_Allreduce(&mine, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const double now = MPI_Wtime();
    if (rank == 0 && t_before >= 0)
        printf("%-34s %7lld cases %6.1f s\n", name, total - before, now - t_before);
    before = total;
    t_before = now;
}

int main(int argc, char **argv)
{
    h_init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    section_done("start");
    load_catalog();
    check_layouts();
    section_done("catalog and type layouts");

    /* Kernels depend on (type, op), schedules on (count, root, in place)
     * and the executor on the type's layout: every (type, op) pair meets
     * every algorithm and count but only the end roots; every root is then
     * swept for one op on each kind of layout. */
    struct sweep s = {MPI_COMM_WORLD, "world", h_predefined, h_npredefined, false, true};
    run_sweep(&s);
    section_done("predefined types x ops");
    struct h_type layouts[] = {*h_type_named("MPI_INT"), *h_type_named("MPI_UNSIGNED_CHAR"),
                               *h_type_named("MPI_LONG_DOUBLE"), *h_type_named("MPI_DOUBLE_INT"),
                               *h_type_named("MPI_C_DOUBLE_COMPLEX"), *h_type_named("MPI_C_BOOL")};
    const int layout_ops[] = {H_SUM, H_MAX, H_PROD, H_MAXLOC, H_PROD, H_LXOR};
    for (int i = 0; i < 6; i++)
        layouts[i].ops = H_BIT(layout_ops[i]);
    s.types = layouts, s.ntypes = 6, s.end_roots = false;
    run_sweep(&s);
    section_done("every root, one op per layout");
    s.types = h_user_types, s.ntypes = 3;
    run_sweep(&s);
    section_done("user-defined ops");
    struct h_type derived[NDERIVED];
    derived_types(derived);
    s.types = derived, s.ntypes = NDERIVED;
    run_sweep(&s);
    section_done("derived datatypes");
    sub_communicators(derived);
    section_done("split communicators");
    knobs();
    section_done("COLIBRI_RADIX, COLIBRI_SEGMENT_BYTES");
    const struct h_type nulls[] = {*h_type_named("MPI_INT"), h_user_types[0]};
    s = (struct sweep){MPI_COMM_WORLD, "world", nulls, 2, true, false};
    run_sweep(&s);
    section_done("NULL where MPI ignores a buffer");
    big_counts();
    section_done("2^20+ elements");
    int64_t *ragged = malloc((size_t)p * sizeof *ragged);
    rs_counts(p, 6, ragged);
    restriction_violations(ragged);
    section_done("restriction violations");
    interposed(ragged);
    section_done("MPI_* with COLIBRI_*_ALGORITHM");
    free(ragged);

    if (rank == 0)
        printf("p=%d: %d catalog algorithms\n", p, nalgs);
    for (int i = 0; i < NDERIVED; i++)
        MPI_Type_free(&derived[i].dt);
    return h_finish();
}
