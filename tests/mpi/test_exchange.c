// ranks: 1 2 3 4 5 6 7 8
// mpich-ranks: 2
// ompi5-ranks: 1 2 3 4
// mpich5-ranks: 1 2
// impi-ranks: 1 2
// abi-ranks: 1 2
// asan-ranks: 1 3
// env-ranks: COLIBRI_ONLINE_FAKE=native:1,calls=2,window=64 2 3
// env-ranks: COLIBRI_ONLINE_FAKE=random:9,calls=2,window=4 2
/*
 * Correctness of alltoall and alltoallv: every catalog algorithm of the two
 * collectives (found at run time and forced by name) and "auto", against a
 * serial expectation computed here, never against the MPI below:
 *  - send and receive types with the same signature but different layouts
 *    (int x 2k against a contiguous pair x k, a strided vector with gaps
 *    against a pair, MPI_DOUBLE_INT with its padding);
 *  - alltoallv count patterns: uniform, random with zeros, skewed (rank 0
 *    sends 100x more), an empty rank, all zero; displacements in order or
 *    reversed with gaps;
 *  - in place (MPI_IN_PLACE) and not; MPI_COMM_WORLD and split
 *    sub-communicators (even/odd, reversed order);
 *  - the interposed MPI_Alltoall/MPI_Alltoallv with COLIBRI_*_ALGORITHM set;
 *  - bad arguments: the MPI error class, and no buffer touched.
 * Every byte of both buffers is compared: gaps, padding and the input must
 * stay as they were; colibri_last_algorithm must name the forced algorithm.
 */
#include "harness.h"

/* A datatype as the test sees it: `units` values per element, each an int
 * (4 bytes) or, for MPI_DOUBLE_INT, a (double, int) pair, at unit_off[]. */
struct xtype {
    const char *name;
    MPI_Datatype dt;
    MPI_Aint extent;
    int units;
    MPI_Aint unit_off[2];
    bool double_int;
};

static struct xtype t_int, t_pair, t_vec, t_dint;

static void types_init(void)
{
    MPI_Datatype pair, vec;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec); /* ints 0 and 2 of 3: a gap inside */
    MPI_Type_commit(&vec);
    t_int = (struct xtype){"int", MPI_INT, 4, 1, {0, 0}, false};
    t_pair = (struct xtype){"pair", pair, 8, 2, {0, 4}, false};
    t_vec = (struct xtype){"vector", vec, 12, 2, {0, 8}, false};
    t_dint = (struct xtype){"double_int", MPI_DOUBLE_INT, 0, 1, {0, 0}, true};
    MPI_Aint lb;
    MPI_Type_get_extent(MPI_DOUBLE_INT, &lb, &t_dint.extent);
}

struct pairing {
    const struct xtype *send, *recv;
};

static const struct pairing *pairings(int *n)
{
    static struct pairing p[5];
    p[0] = (struct pairing){&t_int, &t_int};
    p[1] = (struct pairing){&t_int, &t_pair};
    p[2] = (struct pairing){&t_vec, &t_pair};
    p[3] = (struct pairing){&t_pair, &t_vec};
    p[4] = (struct pairing){&t_dint, &t_dint};
    *n = 5;
    return p;
}

enum pattern { P_UNIFORM, P_RANDOM, P_SKEWED, P_EMPTY_RANK, P_ZERO, NPATTERNS };
static const char *const pattern_names[NPATTERNS] = {"uniform", "random", "skewed", "empty-rank",
                                                      "zero"};

/* Units (values) rank i sends to j: always even, so any pairing divides it. */
static int64_t units(enum pattern pt, int i, int j, int p, bool in_place)
{
    if (in_place && i > j) { /* MPI_IN_PLACE: what i sends to j, j sends to i */
        int t = i;
        i = j, j = t;
    }
    switch (pt) {
    case P_UNIFORM: return 6;
    case P_RANDOM: return 2 * (int64_t)(h_mix((uint64_t)(i * 7919 + j * 104729)) % 4);
    case P_SKEWED: return i == 0 ? 200 : 2;
    case P_EMPTY_RANK: return i == p - 1 || j == p - 1 ? 0 : 4;
    default: return 0;
    }
}

static void put_unit(const struct xtype *t, char *elem, int u, int64_t v)
{
    if (t->double_int) {
        double d = (double)v;
        int k = (int)-v;
        memcpy(elem, &d, sizeof d);
        memcpy(elem + sizeof d, &k, sizeof k);
    } else {
        int k = (int)v;
        memcpy(elem + t->unit_off[u], &k, sizeof k);
    }
}

static int64_t value(int src, int dst, int64_t n) { return src * 1000003LL + dst * 1009LL + n; }

/* One side of a call: counts and displacements in elements, and the bytes. */
struct side {
    const struct xtype *t;
    MPI_Count *counts;
    MPI_Aint *displs;
    size_t bytes;
    char *buf;
};

/* Lays out the blocks of rank `me` (sending when `send`), fills the
 * buffer with sentinels and, when `data`, the values it holds or expects. */
static void side_init(struct side *s, const struct xtype *t, enum pattern pt, bool reversed,
                      bool alltoall, bool send, bool in_place, bool data, int me, int p)
{
    s->t = t;
    s->counts = malloc((size_t)p * sizeof *s->counts);
    s->displs = malloc((size_t)p * sizeof *s->displs);
    MPI_Aint at = 0;
    for (int k = 0; k < p; k++) {
        int j = reversed && !alltoall ? p - 1 - k : k;
        int64_t u = alltoall ? units(P_UNIFORM, 0, 0, p, false) : send ? units(pt, me, j, p, in_place)
                                                                  : units(pt, j, me, p, in_place);
        s->counts[j] = u / t->units;
        s->displs[j] = at;
        at += s->counts[j] + (reversed && !alltoall ? 1 : 0);
    }
    s->bytes = (size_t)(at * t->extent) + 16;
    s->buf = malloc(s->bytes);
    h_fill_sentinel((uint8_t *)s->buf, s->bytes);
    for (int j = 0; data && j < p; j++) {
        int src = send ? me : j, dst = send ? j : me;
        for (int64_t n = 0; n < s->counts[j] * t->units; n++)
            put_unit(t, s->buf + (s->displs[j] + n / t->units) * t->extent, (int)(n % t->units),
                     value(src, dst, n));
    }
}

static void side_free(struct side *s)
{
    free(s->counts);
    free(s->displs);
    free(s->buf);
}

struct xcase {
    MPI_Comm comm;
    const char *comm_name;
    colibri_coll coll;
    const char *alg; /* NULL: through the interposed MPI_* entry point */
    const struct pairing *types;
    enum pattern pattern;
    bool reversed, in_place;
};

static void run_case(const struct xcase *c)
{
    int me, p;
    MPI_Comm_rank(c->comm, &me);
    MPI_Comm_size(c->comm, &p);
    bool a2a = c->coll == COLIBRI_ALLTOALL;
    struct side snd = {0}, rcv, want;
    if (!c->in_place)
        side_init(&snd, c->types->send, c->pattern, c->reversed, a2a, true, false, true, me, p);
    side_init(&rcv, c->types->recv, c->pattern, c->reversed, a2a, false, c->in_place, c->in_place,
              me, p);
    if (c->in_place) { /* the input: what this rank sends, in the receive layout */
        for (int j = 0; j < p; j++)
            for (int64_t n = 0; n < rcv.counts[j] * rcv.t->units; n++)
                put_unit(rcv.t, rcv.buf + (rcv.displs[j] + n / rcv.t->units) * rcv.t->extent,
                         (int)(n % rcv.t->units), value(me, j, n));
    }
    side_init(&want, c->types->recv, c->pattern, c->reversed, a2a, false, c->in_place, true, me, p);
    char *send_copy = c->in_place ? NULL : malloc(snd.bytes);
    if (send_copy)
        memcpy(send_copy, snd.buf, snd.bytes);

    const void *sb = c->in_place ? MPI_IN_PLACE : snd.buf;
    MPI_Datatype st = c->in_place ? MPI_DATATYPE_NULL : snd.t->dt;
    int rc;
    if (a2a) {
        MPI_Count sc = c->in_place ? 0 : snd.counts[0];
        rc = c->alg ? colibri_alltoall(sb, sc, st, rcv.buf, rcv.counts[0], rcv.t->dt, c->comm, c->alg)
                    : MPI_Alltoall(sb, (int)sc, st, rcv.buf, (int)rcv.counts[0], rcv.t->dt, c->comm);
    } else if (c->alg) {
        rc = colibri_alltoallv(sb, c->in_place ? NULL : snd.counts, c->in_place ? NULL : snd.displs,
                               st, rcv.buf, rcv.counts, rcv.displs, rcv.t->dt, c->comm, c->alg);
    } else {
        int *v = malloc((size_t)p * 4 * sizeof *v);
        for (int j = 0; j < p; j++) {
            v[j] = c->in_place ? 0 : (int)snd.counts[j];
            v[p + j] = c->in_place ? 0 : (int)snd.displs[j];
            v[2 * p + j] = (int)rcv.counts[j];
            v[3 * p + j] = (int)rcv.displs[j];
        }
        rc = MPI_Alltoallv(sb, v, v + p, st, rcv.buf, v + 2 * p, v + 3 * p, rcv.t->dt, c->comm);
        free(v);
    }

    char why[200] = "";
    if (rc != MPI_SUCCESS) {
        snprintf(why, sizeof why, "returned error %d", rc);
    } else if (memcmp(rcv.buf, want.buf, rcv.bytes) != 0) {
        size_t b = 0;
        while (rcv.buf[b] == want.buf[b])
            b++;
        snprintf(why, sizeof why, "receive buffer byte %zu differs", b);
    } else if (send_copy && memcmp(send_copy, snd.buf, snd.bytes) != 0) {
        snprintf(why, sizeof why, "send buffer changed");
    } else if (c->alg && strcmp(c->alg, "auto") != 0) {
        const char *last = colibri_last_algorithm(c->comm, c->coll);
        if (!last || strcmp(last, c->alg) != 0)
            snprintf(why, sizeof why, "ran '%s'", last ? last : "(none)");
    }
    h_record(c->comm, why[0] == '\0', "%s %s %s->%s %s %s%s on %s: %s", colibri_coll_name(c->coll),
             c->alg ? c->alg : "MPI_*", c->types->send->name, c->types->recv->name,
             pattern_names[c->pattern], c->reversed ? "reversed " : "",
             c->in_place ? "in-place" : "", c->comm_name, why);
    free(send_copy);
    if (!c->in_place)
        side_free(&snd);
    side_free(&rcv);
    side_free(&want);
}

static void sweep(MPI_Comm comm, const char *comm_name, const char *alg, colibri_coll coll)
{
    int np;
    const struct pairing *tp = pairings(&np);
    for (int t = 0; t < np; t++)
        for (int in_place = 0; in_place < 2; in_place++) {
            /* In place there is one type: the receive side's. */
            if (in_place && tp[t].send != tp[t].recv)
                continue;
            for (int pt = 0; pt < (coll == COLIBRI_ALLTOALL ? 1 : NPATTERNS); pt++)
                for (int rev = 0; rev < (coll == COLIBRI_ALLTOALL ? 1 : 2); rev++) {
                    struct xcase c = {comm, comm_name, coll, alg, &tp[t], (enum pattern)pt,
                                      rev != 0, in_place != 0};
                    run_case(&c);
                }
        }
}

/* Block sizes 0, 1 and 17 elements for alltoall (the sweep uses 6 units). */
static void alltoall_sizes(const char *alg)
{
    int me, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const int sizes[] = {0, 1, 17, 1000};
    for (int k = 0; k < 4; k++) {
        int n = sizes[k];
        int *s = malloc((size_t)(p * n + 1) * sizeof *s), *r = malloc((size_t)(p * n + 1) * sizeof *r);
        for (int j = 0; j < p; j++)
            for (int e = 0; e < n; e++)
                s[j * n + e] = (int)value(me, j, e);
        r[p * n] = 12345;
        int rc = colibri_alltoall(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD, alg);
        bool ok = rc == MPI_SUCCESS && r[p * n] == 12345;
        for (int j = 0; ok && j < p; j++)
            for (int e = 0; e < n; e++)
                ok = ok && r[j * n + e] == (int)value(j, me, e);
        h_record(MPI_COMM_WORLD, ok, "alltoall %s %d ints per block", alg, n);
        free(s);
        free(r);
    }
}

static void bad_arguments(void)
{
    int p, s[64], r[64];
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int i = 0; i < 64; i++)
        s[i] = r[i] = i;
    MPI_Count cnt[8] = {0};
    MPI_Aint dsp[8] = {0};
    struct {
        const char *what;
        int want;
        int rc;
    } t[] = {
        {"negative count", MPI_ERR_COUNT,
         colibri_alltoall(s, -1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD, NULL)},
        {"recvbuf MPI_IN_PLACE", MPI_ERR_BUFFER,
         colibri_alltoall(s, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD, NULL)},
        {"MPI_DATATYPE_NULL", MPI_ERR_TYPE,
         colibri_alltoall(s, 1, MPI_DATATYPE_NULL, r, 1, MPI_INT, MPI_COMM_WORLD, NULL)},
        {"unequal block bytes", MPI_ERR_TRUNCATE,
         colibri_alltoall(s, 2, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD, NULL)},
        {"unknown algorithm", MPI_ERR_ARG,
         colibri_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD, "no-such")},
        {"NULL recvcounts", MPI_ERR_ARG,
         colibri_alltoallv(s, cnt, dsp, MPI_INT, r, NULL, dsp, MPI_INT, MPI_COMM_WORLD, NULL)},
        {"same buffer twice", MPI_ERR_BUFFER,
         colibri_alltoall(s, 1, MPI_INT, s, 1, MPI_INT, MPI_COMM_WORLD, NULL)},
    };
    for (unsigned i = 0; i < sizeof t / sizeof *t; i++) {
        int cls = -1;
        MPI_Error_class(t[i].rc, &cls);
        bool untouched = true;
        for (int k = 0; k < 64; k++)
            untouched = untouched && s[k] == k && r[k] == k;
        h_record(MPI_COMM_WORLD, cls == t[i].want && untouched, "%s: class %d, want %d%s",
                 t[i].what, cls, t[i].want, untouched ? "" : ", buffer touched");
    }
    /* A negative entry of recvcounts. */
    MPI_Count neg[64];
    MPI_Aint zd[64] = {0};
    for (int i = 0; i < p; i++)
        neg[i] = i == p - 1 ? -2 : 0;
    int rc = colibri_alltoallv(s, neg, zd, MPI_INT, r, neg, zd, MPI_INT, MPI_COMM_WORLD, NULL), cls;
    MPI_Error_class(rc, &cls);
    h_record(MPI_COMM_WORLD, cls == MPI_ERR_COUNT, "negative recvcounts entry: class %d", cls);
}

/* An erroneous alltoallv: rank 0 sends rank 1 two ints where rank 1
 * expects one.  MPI reports MPI_ERR_TRUNCATE; whichever rank of colibri's
 * algorithm receives the long message must report it (for sloavx on
 * several nodes the rail that receives the node's block, not rank 1), and
 * every rank must return: a rank that stopped at the error used to leave
 * its later partners waiting (pairwise) or its node waiting for a flag
 * (sloavx).  Nothing else is promised about the buffers. */
static void truncation(const char *alg)
{
    int p, me;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &me);
    MPI_Count *sc = malloc(4 * (size_t)p * sizeof *sc), *rc = sc + p;
    MPI_Aint *sd = malloc(2 * (size_t)p * sizeof *sd), *rd = sd + p;
    int *s = malloc(2 * (size_t)p * sizeof *s), *r = malloc(2 * (size_t)p * sizeof *r);
    for (int j = 0; j < p; j++) {
        sc[j] = me == 0 && j == 1 ? 2 : 1, rc[j] = 1;
        sd[j] = 2 * j, rd[j] = 2 * j;
        s[2 * j] = s[2 * j + 1] = me;
    }
    int err = colibri_alltoallv(s, sc, sd, MPI_INT, r, rc, rd, MPI_INT, comm, alg), cls = 0;
    MPI_Error_class(err, &cls);
    int truncated = cls == MPI_ERR_TRUNCATE, other = err != MPI_SUCCESS && !truncated, any[2];
    int mine[2] = {truncated, other};
    PMPI_Allreduce(mine, any, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    h_record(MPI_COMM_WORLD, any[0] && !any[1],
             "alltoallv %s, rank 0 sends rank 1 more than it expects: %s", alg,
             any[1] ? "an error other than MPI_ERR_TRUNCATE" : "no rank reports MPI_ERR_TRUNCATE");
    free(sc), free(sd), free(s), free(r);
    MPI_Comm_free(&comm);
}

static void section_done(const char *name)
{
    h_flush();
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("%-40s done\n", name);
}

int main(int argc, char **argv)
{
    h_init(&argc, &argv);
    types_init();
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm halves, reversed;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &halves);
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - rank, &reversed);
    MPI_Comm_set_errhandler(halves, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(reversed, MPI_ERRORS_RETURN);

    int nalgs = 0;
    for (int i = 0; i < colibri_catalog_size(); i++) {
        colibri_algorithm_info info;
        colibri_catalog_get(i, &info);
        if (info.coll != COLIBRI_ALLTOALL && info.coll != COLIBRI_ALLTOALLV)
            continue;
        nalgs++;
        sweep(MPI_COMM_WORLD, "world", info.name, info.coll);
        sweep(halves, "even/odd split", info.name, info.coll);
        sweep(reversed, "reversed split", info.name, info.coll);
        if (info.coll == COLIBRI_ALLTOALL)
            alltoall_sizes(info.name);
        else if (p > 1)
            truncation(info.name);
        section_done(info.name);
    }
    for (int coll = COLIBRI_ALLTOALL; coll <= COLIBRI_ALLTOALLV; coll++) {
        sweep(MPI_COMM_WORLD, "world", "auto", (colibri_coll)coll);
        sweep(halves, "even/odd split", "auto", (colibri_coll)coll);
        sweep(MPI_COMM_WORLD, "world", NULL, (colibri_coll)coll); /* interposed MPI_* */
    }
    if (p > 1)
        truncation("auto");
    section_done("auto and MPI_*");
    bad_arguments();
    section_done("bad arguments");
    h_record(MPI_COMM_WORLD, nalgs >= 2, "catalog lists %d alltoall(v) algorithms", nalgs);
    if (rank == 0)
        printf("p=%d: %d alltoall(v) algorithms\n", p, nalgs);
    MPI_Comm_free(&halves);
    MPI_Comm_free(&reversed);
    return h_finish();
}
