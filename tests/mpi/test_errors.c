// ranks: 1 3
// mpich-ranks: 2
// asan-ranks: 3
/*
 * Bad arguments get the error MPI gives: the right error class, through the
 * communicator's error handler (MPI_ERRORS_RETURN, and a custom handler that
 * must be called once with that class), one line on stderr naming the call,
 * and no user buffer touched.  Every case runs through the C API and through
 * the MPI_* names, which in this program are colibri's interposed ones (the
 * stderr line proves it: the MPI below would not print "colibri:").
 *
 * Every rank passes the same bad argument, as an erroneous program would:
 * an argument only one rank checks (reduce's recvbuf) would leave the others
 * waiting in the collective, which is the program's error, not colibri's.
 */
#include "harness.h"

#define BUF_BYTES 4096
#define COUNT 5

struct bad_call {
    const char *what;
    colibri_coll coll;
    MPI_Count count;      /* reduce_scatter: every rank's block */
    bool negative_block;  /* reduce_scatter: recvcounts[0] = -1 */
    bool null_send, null_recv, aliased;
    MPI_Datatype dt;
    MPI_Op op;
    int root;
    const char *alg;      /* forced algorithm, NULL for colibri's choice */
    int expect;           /* error class */
};

/* The reductions (alltoall(v) errors are tested by test_exchange). */
#define NREDUCTIONS (COLIBRI_REDUCE_SCATTER_BLOCK + 1)
static const char *const fnames[NREDUCTIONS] = {"MPI_Allreduce", "MPI_Reduce",
                                                "MPI_Reduce_scatter", "MPI_Reduce_scatter_block"};

/* ---- the custom error handler ----------------------------------------- */

static int handler_calls, handler_code;

static void record_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

/* ---- stderr capture --------------------------------------------------- */

static int saved_stderr = -1;
static FILE *capture;

static void capture_begin(void)
{
    fflush(stderr);
    capture = tmpfile();
    saved_stderr = dup(2);
    dup2(fileno(capture), 2);
}

/* What was written to stderr since capture_begin, into s. */
static void capture_end(char *s, size_t n)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    rewind(capture);
    size_t got = fread(s, 1, n - 1, capture);
    s[got] = '\0';
    fclose(capture);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* ---- one bad call ----------------------------------------------------- */

static int call(const struct bad_call *b, MPI_Comm comm, bool via_mpi, void *sb, void *rb)
{
    int p;
    MPI_Comm_size(comm, &p);
    MPI_Count counts[64];
    int icounts[64];
    for (int r = 0; r < p && r < 64; r++)
        counts[r] = icounts[r] = (int)b->count;
    if (b->negative_block)
        counts[0] = icounts[0] = -1;
    const int n = (int)b->count;
    switch (b->coll) {
    case COLIBRI_ALLREDUCE:
        return via_mpi ? MPI_Allreduce(sb, rb, n, b->dt, b->op, comm)
                       : colibri_allreduce(sb, rb, b->count, b->dt, b->op, comm, b->alg);
    case COLIBRI_REDUCE:
        return via_mpi ? MPI_Reduce(sb, rb, n, b->dt, b->op, b->root, comm)
                       : colibri_reduce(sb, rb, b->count, b->dt, b->op, b->root, comm, b->alg);
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        return via_mpi ? MPI_Reduce_scatter_block(sb, rb, n, b->dt, b->op, comm)
                       : colibri_reduce_scatter_block(sb, rb, b->count, b->dt, b->op, comm, b->alg);
    default:
        return via_mpi ? MPI_Reduce_scatter(sb, rb, icounts, b->dt, b->op, comm)
                       : colibri_reduce_scatter(sb, rb, counts, b->dt, b->op, comm, b->alg);
    }
}

/* Runs b on comm and records one case; `custom` says comm has the
 * recording handler rather than MPI_ERRORS_RETURN. */
static void check_bad(const struct bad_call *b, MPI_Comm comm, bool via_mpi, bool custom)
{
    static uint8_t sbuf[BUF_BYTES], rbuf[BUF_BYTES];
    h_fill_sentinel(sbuf, sizeof sbuf);
    h_fill_sentinel(rbuf, sizeof rbuf);
    void *sb = b->null_send ? NULL : sbuf;
    void *rb = b->null_recv ? NULL : b->aliased ? sbuf : rbuf;
    char var[64];
    h_algorithm_env(b->coll, var, sizeof var);
    if (via_mpi && b->alg) {
        setenv(var, b->alg, 1);
        colibri_config_reload();
    }
    handler_calls = 0;
    handler_code = MPI_SUCCESS;

    capture_begin();
    int rc = call(b, comm, via_mpi, sb, rb);
    char err[2048];
    capture_end(err, sizeof err);
    if (via_mpi && b->alg) {
        unsetenv(var);
        colibri_config_reload();
    }

    int cls = rc, hcls = handler_code;
    MPI_Error_class(rc, &cls);
    MPI_Error_class(handler_code, &hcls);
    char prefix[64], why[H_MSG] = "";
    snprintf(prefix, sizeof prefix, "colibri: %s: ", fnames[b->coll]);
    if (cls != b->expect)
        snprintf(why, sizeof why, "error class %d, expected %d", cls, b->expect);
    else if (h_first_changed(sbuf, 0, sizeof sbuf) != SIZE_MAX)
        snprintf(why, sizeof why, "sendbuf modified");
    else if (h_first_changed(rbuf, 0, sizeof rbuf) != SIZE_MAX)
        snprintf(why, sizeof why, "recvbuf modified");
    else if (custom && (handler_calls != 1 || hcls != b->expect))
        snprintf(why, sizeof why, "error handler called %d times, last with class %d",
                 handler_calls, hcls);
    else if (!custom && handler_calls != 0)
        snprintf(why, sizeof why, "the recording handler ran on an MPI_ERRORS_RETURN comm");
    else if (count_lines(err) != 1 || strncmp(err, prefix, strlen(prefix)) != 0)
        snprintf(why, sizeof why, "stderr should be one line '%s...', was '%.200s'", prefix, err);
    h_record(MPI_COMM_WORLD, !why[0], "%s %s via %s, %s: %s", fnames[b->coll], b->what,
             via_mpi ? "MPI_*" : "colibri_*", custom ? "custom handler" : "MPI_ERRORS_RETURN", why);
}

/* ---- the cases -------------------------------------------------------- */

/* A catalog algorithm of coll restricted to commutative operations. */
static const char *commutative_only(colibri_coll coll)
{
    colibri_algorithm_info info;
    for (int i = 0; i < colibri_catalog_size(); i++)
        if (colibri_catalog_get(i, &info) == MPI_SUCCESS && info.coll == coll &&
            strstr(info.restrictions, "commutative"))
            return info.name;
    return NULL;
}

static void bad_calls(MPI_Comm comm, bool custom, MPI_Datatype derived)
{
    int p;
    MPI_Comm_size(comm, &p);
    for (int coll = 0; coll < NREDUCTIONS; coll++) {
        /* each case differs from this valid call in one argument */
        const struct bad_call base = {.coll = (colibri_coll)coll, .count = COUNT, .dt = MPI_INT,
                                      .op = MPI_SUM, .root = 0};
        struct bad_call cases[20], b;
        int n = 0;
        b = base, b.what = "count -1", b.expect = MPI_ERR_COUNT;
        if (coll == COLIBRI_REDUCE_SCATTER)
            b.negative_block = true, b.what = "recvcounts[0] -1";
        else
            b.count = -1;
        cases[n++] = b;
        b = base, b.null_send = true, b.what = "NULL sendbuf", b.expect = MPI_ERR_BUFFER;
        cases[n++] = b;
        if (coll != COLIBRI_REDUCE) { /* only reduce's root checks its recvbuf */
            b = base, b.null_recv = true, b.what = "NULL recvbuf", b.expect = MPI_ERR_BUFFER;
            cases[n++] = b;
            b = base, b.aliased = true, b.what = "sendbuf == recvbuf", b.expect = MPI_ERR_BUFFER;
            cases[n++] = b;
        }
        b = base, b.dt = MPI_DATATYPE_NULL, b.what = "MPI_DATATYPE_NULL", b.expect = MPI_ERR_TYPE;
        cases[n++] = b;
        b = base, b.op = MPI_OP_NULL, b.what = "MPI_OP_NULL", b.expect = MPI_ERR_OP;
        cases[n++] = b;
        b = base, b.op = MPI_REPLACE, b.what = "MPI_REPLACE", b.expect = MPI_ERR_OP;
        cases[n++] = b;
        b = base, b.op = MPI_MAXLOC, b.what = "MPI_MAXLOC on MPI_INT", b.expect = MPI_ERR_OP;
        cases[n++] = b;
        b = base, b.op = MPI_BAND, b.dt = MPI_DOUBLE, b.what = "MPI_BAND on MPI_DOUBLE";
        b.expect = MPI_ERR_OP;
        cases[n++] = b;
        b = base, b.dt = derived, b.what = "MPI_SUM on a derived datatype", b.expect = MPI_ERR_OP;
        cases[n++] = b;
        if (coll == COLIBRI_REDUCE) {
            b = base, b.root = -1, b.what = "root -1", b.expect = MPI_ERR_ROOT;
            cases[n++] = b;
            b = base, b.root = p, b.what = "root p", b.expect = MPI_ERR_ROOT;
            cases[n++] = b;
        }
        b = base, b.alg = "no_such_algorithm", b.what = "unknown algorithm", b.expect = MPI_ERR_ARG;
        cases[n++] = b;
        b = base, b.alg = commutative_only(base.coll), b.expect = MPI_ERR_ARG;
        b.dt = h_user_types[1].dt, b.op = h_mpi_op(H_USER_AFFINE);
        b.what = "commutative-only algorithm, non-commutative op";
        if (b.alg)
            cases[n++] = b;
        for (int i = 0; i < n; i++)
            for (int via_mpi = 0; via_mpi < 2; via_mpi++)
                check_bad(&cases[i], comm, via_mpi, custom);
    }
}

/* COLIBRI_FALLBACK=warn: the same request runs what colibri would pick for
 * a non-commutative op, gives the rank-ordered result, and rank 0 (only)
 * prints one warning line. */
static void fallback_warn(void)
{
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const struct h_type *t = &h_user_types[1]; /* non-commutative affine maps */
    int tsize;
    MPI_Type_size(t->dt, &tsize);
    int64_t counts[64];
    for (int r = 0; r < p && r < 64; r++)
        counts[r] = COUNT;
    setenv("COLIBRI_FALLBACK", "warn", 1);
    colibri_config_reload();
    for (int coll = 0; coll < NREDUCTIONS; coll++) {
        const char *alg = commutative_only((colibri_coll)coll);
        if (!alg)
            continue;
        char var[64];
        h_algorithm_env((colibri_coll)coll, var, sizeof var);
        for (int via_mpi = 0; via_mpi < 2; via_mpi++) {
            struct h_case c = {.comm = MPI_COMM_WORLD, .comm_name = "world",
                               .coll = (colibri_coll)coll, .alg = alg, .type = t,
                               .op = H_USER_AFFINE, .count = COUNT, .counts = counts,
                               .seed = (uint64_t)(coll * 2 + via_mpi), .via_mpi = via_mpi,
                               .expect_alg = colibri_select((colibri_coll)coll, p, COUNT, tsize, 0)};
            if (via_mpi) {
                setenv(var, alg, 1);
                colibri_config_reload();
            }
            capture_begin();
            bool ok = h_case(&c);
            char err[2048];
            capture_end(err, sizeof err);
            if (via_mpi) {
                unsetenv(var);
                colibri_config_reload();
            }
            const bool warned = strncmp(err, "colibri: warning: ", 18) == 0 && strstr(err, alg);
            h_record(MPI_COMM_WORLD, !ok || (rank == 0 ? warned && count_lines(err) == 1 : !err[0]),
                     "COLIBRI_FALLBACK=warn %s/%s via %s: stderr was '%.200s'",
                     colibri_coll_name((colibri_coll)coll), alg, via_mpi ? "MPI_*" : "colibri_*",
                     err);
        }
    }
    unsetenv("COLIBRI_FALLBACK");
    colibri_config_reload();
}

int main(int argc, char **argv)
{
    h_init(&argc, &argv);
    MPI_Comm plain, custom;
    MPI_Comm_dup(MPI_COMM_WORLD, &plain);
    MPI_Comm_set_errhandler(plain, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &custom);
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(record_error, &eh);
    MPI_Comm_set_errhandler(custom, eh);
    MPI_Datatype derived;
    MPI_Type_contiguous(3, MPI_INT, &derived);
    MPI_Type_commit(&derived);

    bad_calls(plain, false, derived);
    bad_calls(custom, true, derived);
    fallback_warn();

    MPI_Type_free(&derived);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&custom);
    MPI_Comm_free(&plain);
    return h_finish();
}
