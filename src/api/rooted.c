/*
 * The C API's gather, gatherv, scatter and scatterv, which the interposed
 * MPI_* entry points also call: check, select, present the user's buffers
 * as bytes (bytes.h), build the schedule, run it blocking, nonblocking or
 * persistent.
 *
 * A rooted call has two sides of different shapes: the root's p blocks
 * (`many`: a gather's receive side, a scatter's send side) and every
 * rank's own block (`one`: a gather's send side, a scatter's receive
 * side).  As MPI says, `many` counts at the root only (its buffer, counts,
 * displacements and type are not read elsewhere), and at the root `one`
 * may be MPI_IN_PLACE (a gather's sendbuf, a scatter's recvbuf): the
 * root's own block then stays where it is in `many`.
 *
 * As for allgather, the schedules count bytes of packed data: `many` is
 * the root's p blocks (gatherv, scatterv: of their own counts at their own
 * displacements) and `one` a rank's block, packed or unpacked at the edges
 * when its type is not contiguous.
 *
 * Selection reads only what every rank agrees on: p, the root and, for
 * gather and scatter, a block's bytes (the root's recvcount, the others'
 * sendcount, of equal signatures).  Gatherv's and scatterv's sizes are the
 * root's alone: their selection reads p and the root (and 0 bytes), and
 * they go neither through online selection nor through the memo of
 * native calls, as allgatherv does not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "../runtime/native.h"
#include "../runtime/online_turn.h"
#include "../runtime/operation.h"
#include "../runtime/state/node.h"
#include "../runtime/stats.h"
#include "../runtime/validate.h"
#include "../select/catalog.h"
#include "../select/select.h"
#include "bytes.h"

static bool is_gather(colibri_coll c) { return c == COLIBRI_GATHER || c == COLIBRI_GATHERV; }
static bool is_v(colibri_coll c) { return c == COLIBRI_GATHERV || c == COLIBRI_SCATTERV; }

static int validate(const struct movement_args *a, const struct side *many,
                    const struct side *one, bool root, bool in_place, int size, char *msg,
                    size_t len)
{
    const bool g = is_gather(a->coll);
    const char *mw = g ? "recv" : "send", *ow = g ? "send" : "recv";
    if (a->root < 0 || a->root >= size) {
        snprintf(msg, len, "root %d is not a rank of the communicator (size %d)", a->root, size);
        return MPI_ERR_ROOT;
    }
    if (one->buf == MPI_IN_PLACE && !root) {
        snprintf(msg, len, "%sbuf is MPI_IN_PLACE at rank other than the root", ow);
        return MPI_ERR_BUFFER;
    }
    if (!root)
        return check_side(one, 1, ow, msg, len);
    if (many->buf == MPI_IN_PLACE) {
        snprintf(msg, len, "%sbuf is MPI_IN_PLACE at the root", mw);
        return MPI_ERR_BUFFER;
    }
    if (is_v(a->coll) && (!many->counts || !many->displs)) {
        snprintf(msg, len, "%scounts or displs is NULL at the root", mw);
        return MPI_ERR_ARG;
    }
    int rc = check_side(many, size, mw, msg, len);
    if (rc != MPI_SUCCESS || in_place)
        return rc;
    rc = check_side(one, 1, ow, msg, len);
    if (rc != MPI_SUCCESS)
        return rc;
    const int64_t ob = one->count * one->dti.size, mb = side_count(many, a->root) * many->dti.size;
    if (ob != mb) {
        snprintf(msg, len, "the root's own block is %lld bytes to %s but %lld bytes to %s",
                 (long long)ob, g ? "send" : "receive", (long long)mb, g ? "receive" : "send");
        return MPI_ERR_TRUNCATE;
    }
    if (one->buf == many->buf && one->buf != NULL && ob) {
        snprintf(msg, len, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
        return MPI_ERR_BUFFER;
    }
    return MPI_SUCCESS;
}

/* A call in flight: the operation and the views of the user's buffers. */
struct rooted_op {
    struct coll_op op;
    struct side many, one;
    struct view mv, ov;
    bool root, in_place;
    int size;
    /* gatherv, scatterv at the root: the caller's counts and displacements
     * (kept: the int entry points' are temporaries), then the same in
     * bytes, for the schedule */
    int64_t *arrays;
};

/* Before each run: the user's buffers as bytes, inputs packed (the root's
 * own block too when a gather is in place: its staging area is unpacked
 * whole at the end). */
static int rooted_before(struct coll_op *op)
{
    struct rooted_op *e = (struct rooted_op *)op;
    MPI_Comm comm = op->c.cs->comm;
    const bool g = is_gather(op->c.coll);
    int rc = MPI_SUCCESS;
    e->mv = e->ov = (struct view){0};
    if (e->root)
        rc = view_open(&e->many, e->size, !g || e->in_place, &e->mv, comm);
    if (rc == MPI_SUCCESS && !e->in_place)
        rc = view_open(&e->one, 1, g, &e->ov, comm);
    const void *one = e->in_place ? e->mv.base : e->ov.base;
    op->c.sendbuf = g ? one : e->mv.base;
    op->c.recvbuf = g ? e->mv.base : (void *)one;
    return rc;
}

/* After it: the outputs of a non-contiguous type unpacked. */
static int rooted_after(struct coll_op *op, int rc)
{
    struct rooted_op *e = (struct rooted_op *)op;
    MPI_Comm comm = op->c.cs->comm;
    const bool g = is_gather(op->c.coll), ok = rc == MPI_SUCCESS;
    int rc2 = MPI_SUCCESS;
    if (e->root)
        rc2 = view_close(&e->many, e->size, &e->mv, ok && g, comm);
    if (!e->in_place) {
        const int rc3 = view_close(&e->one, 1, &e->ov, ok && !g, comm);
        rc2 = rc2 != MPI_SUCCESS ? rc2 : rc3;
    }
    return rc != MPI_SUCCESS ? rc : rc2;
}

static void rooted_destroy(struct coll_op *op)
{
    free(((struct rooted_op *)op)->arrays);
    if (op->kind != CALL_BLOCKING)
        free(op);
}

/* gatherv, scatterv at the root: the counts and displacements kept, in
 * elements and in bytes, into the schedule's parameters. */
static int keep_arrays(struct rooted_op *e, struct sched_params *sp)
{
    const int size = e->size;
    int64_t *v = e->arrays = malloc((size_t)(size ? size : 1) * 4 * sizeof *v);
    if (!v)
        return MPI_ERR_NO_MEM;
    memcpy(v, e->many.counts, (size_t)size * sizeof *v);
    memcpy(v + size, e->many.displs, (size_t)size * sizeof *v);
    e->many.counts = v, e->many.displs = v + size;
    for (int j = 0; j < size; j++) {
        v[2 * size + j] = v[j] * e->many.dti.size;
        v[3 * size + j] = v[size + j] * e->many.dti.size;
    }
    if (is_gather(e->op.c.coll))
        sp->rcounts = v + 2 * size, sp->rdispls = v + 3 * size;
    else
        sp->scounts = v + 2 * size, sp->sdispls = v + 3 * size;
    return MPI_SUCCESS;
}

static int run(const struct movement_args *a, const char *requested, enum call_kind kind,
               MPI_Request *req)
{
    const double entry = online_turn_entry(kind);
    const char *fn = coll_fname(a->coll, kind);
    if (req)
        *req = MPI_REQUEST_NULL;
    if (comm_passes_through(a->comm))
        return native_movement(a, kind, req);

    int rank, size;
    PMPI_Comm_rank(a->comm, &rank);
    PMPI_Comm_size(a->comm, &size);
    const bool g = is_gather(a->coll), v = is_v(a->coll), root = rank == a->root;
    struct side rcv = {a->recvbuf, a->recvcounts, a->rdispls, a->recvcount, a->recvtype, {0}};
    struct side snd = {a->sendbuf, a->sendcounts, a->sdispls, a->sendcount, a->sendtype, {0}};
    struct side many = g ? rcv : snd, one = g ? snd : rcv;
    const bool in_place = root && one.buf == MPI_IN_PLACE;
    char msg[640];
    int rc = MPI_SUCCESS;
    if (root && many.dt != MPI_DATATYPE_NULL)
        rc = dtinfo_init(many.dt, &many.dti);
    if (rc == MPI_SUCCESS && !in_place && one.dt != MPI_DATATYPE_NULL)
        rc = dtinfo_init(one.dt, &one.dti);
    if (rc == MPI_SUCCESS)
        rc = validate(a, &many, &one, root, in_place, size, msg, sizeof msg);
    else
        snprintf(msg, sizeof msg, "invalid datatype");
    if (rc != MPI_SUCCESS)
        return raise_error(a->comm, fn, rc, msg);
    /* valid, automatic, nonblocking, and every block empty: a gather's or
     * scatter's blocks are the same size on every rank (the root's each
     * match another rank's one), so every rank knows it alike */
    if (kind == CALL_NONBLOCKING && !v &&
        (root ? many.count * many.dti.size : one.count * one.dti.size) == 0 &&
        wants_auto(a->coll, requested))
        return nothing_started(a->comm, a->coll, false, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, 0, req);

    /* The blocking call lives on the stack. */
    struct rooted_op local, *e = kind == CALL_BLOCKING ? &local : malloc(sizeof *e);
    if (!e)
        return raise_error(a->comm, fn, MPI_ERR_NO_MEM, "out of memory");
    op_clear(&e->op);
    struct coll_op *op = &e->op;
    op->kind = kind;
    op->fname = fn;
    op->comm = a->comm;
    op->before = rooted_before;
    op->after = rooted_after;
    op->destroy = rooted_destroy;
    e->many = many, e->one = one, e->root = root, e->in_place = in_place, e->size = size;
    e->mv = e->ov = (struct view){0};
    e->arrays = NULL;
    if (root)
        op->held_types[0] = many.dt;
    if (!in_place)
        op->held_types[1] = one.dt;

    struct coll_call *c = &op->c;
    c->coll = a->coll;
    c->sp.rank = rank;
    c->sp.size = size;
    c->sp.root = a->root;
    c->sp.elem_size = 1;
    c->sp.in_place = in_place;
    c->sp.nonblocking = kind != CALL_BLOCKING;
    c->sp.radix = (int)config_get()->radix;
    /* a block's bytes, the same on every rank (v forms: this rank's own
     * block, which only it and the root know, set after selection) */
    const int64_t own = root ? side_count(&many, a->root) * many.dti.size
                             : one.count * one.dti.size;
    c->sp.count = v ? 0 : own;

    rc = comm_state_get(a->comm, &c->cs);
    if (rc != MPI_SUCCESS) {
        rooted_destroy(op);
        return raise_error(a->comm, fn, rc, "could not set up the communicator");
    }
    /* Node-aware algorithms need the node layout and the chunk of the
     * node's reduction segment; so does a tuning file whose rules or model
     * depend on the node shape (bytes.h). */
    rc = movement_node_params(c->cs, a->coll, requested, &c->sp);
    if (rc != MPI_SUCCESS) {
        rooted_destroy(op);
        return raise_error(a->comm, fn, rc, "could not determine the node layout");
    }
    const struct sched_params before = c->sp;
    rc = select_algorithm(a->coll, &c->sp, requested, &op->alg, msg, sizeof msg);
    /* automatic choice sends blocking and nonblocking v forms below where
     * the model ranks linear, the MPI's own algorithm, ahead of binomial
     * (small p: their selection reads p alone); a persistent one then runs
     * linear, its schedule built once at the init (and an MPI before MPI-4
     * has no persistent form; MPICH 4.0's persistent gatherv fails
     * MPI_Testall with every status MPI_SUCCESS) */
    const char *by_name = rc == MPI_SUCCESS && v && !op->alg && kind == CALL_PERSISTENT &&
                                  select_names_auto(a->coll, requested)
                              ? select_by_name_only(a->coll)
                              : NULL;
    if (by_name)
        rc = select_algorithm(a->coll, &c->sp, by_name, &op->alg, msg, sizeof msg);
    /* Online selection (runtime/online_turn.h) for gather and scatter,
     * keyed as bcast is (p, the root, a block's bytes), and for gatherv and
     * scatterv on p and the root (the count selection saw: 0 on every
     * rank); from here on every return goes through online_turn_end. */
    struct online_turn turn = {NULL};
    turn.entry = entry;
    if (rc == MPI_SUCCESS)
        online_turn_begin(c->cs, a->coll, kind, requested, true, &before, &c->sp, &op->alg,
                          &turn);
    struct comm_state *const tcs = c->cs; /* c lives in op, which a run may free */
    if (rc == MPI_SUCCESS && v) {
        c->sp.count = own;
        if (root && op->alg && keep_arrays(e, &c->sp) != MPI_SUCCESS) {
            rooted_destroy(op);
            return raise_error(a->comm, fn, MPI_ERR_NO_MEM, "out of memory");
        }
    }
    if (rc != MPI_SUCCESS || !op->alg) {
        struct comm_state *cs = tcs;
        rooted_destroy(op);
        if (rc != MPI_SUCCESS)
            return raise_error(a->comm, fn, rc, msg);
        /* an interposed call of a predefined type: the next identical call
         * goes straight below (native.h), keyed by the block a rank
         * describes (the root's `many` when its own block is in place) */
        const bool by_recv = g == ((g ? a->sendbuf : a->recvbuf) == MPI_IN_PLACE);
        const int64_t kc = by_recv ? a->recvcount : a->sendcount;
        const MPI_Datatype kt = by_recv ? a->recvtype : a->sendtype;
        if (!requested && !v && predefined(kt) && online_turn_native_memo(&turn))
            native_memo_note(a->coll, kind, a->comm, kc, kt, MPI_OP_NULL, a->root, cs, turn.s, NULL);
        /* the v forms: their choice read no count and no type (the count
         * selection saw is 0 on every rank), so the key is the root */
        if (!requested && v && kind == CALL_BLOCKING && online_turn_native_memo(&turn))
            native_memo_note(a->coll, kind, a->comm, 0, MPI_DATATYPE_NULL, MPI_OP_NULL, a->root, cs,
                             turn.s, NULL);
        cs->last[a->coll] = "native";
        stats_count(NULL, a->coll, kind);
        online_turn_clock(&turn);
        return online_turn_end(tcs, &turn, native_movement(a, kind, req));
    }
    c->dt = MPI_BYTE;
    c->dti = (struct dtinfo){1, 0, 1, 1, true};
    if (op->alg->restrictions & R_NODE_AWARE) {
        rc = node_reduction_attach(c->cs, &c->shm);
        if (rc != MPI_SUCCESS) {
            rooted_destroy(op);
            return online_turn_end(tcs, &turn,
                                   raise_error(a->comm, fn, rc,
                                               "could not attach the node's shared segment"));
        }
    }
    c->cs->last[a->coll] = op->alg->name;
    if (kind == CALL_BLOCKING) {
        online_turn_clock(&turn);
        return online_turn_end(tcs, &turn, op_run_blocking(op));
    }
    return kind == CALL_NONBLOCKING ? op_launch(op, req) : op_persist(op, req);
}

static int with_request(const struct movement_args *a, const char *algorithm,
                        enum call_kind kind, MPI_Request *request)
{
    if (!request)
        return raise_error(a->comm, coll_fname(a->coll, kind), MPI_ERR_REQUEST, "request is NULL");
    return run(a, algorithm, kind, request);
}

_Static_assert(sizeof(MPI_Count) == sizeof(int64_t) && sizeof(MPI_Aint) == sizeof(int64_t),
               "64-bit MPI_Count and MPI_Aint");
#define GATHER_ARGS(coll, rcounts, rdispls)                                                  \
    {coll,     sendbuf, sendcount, sendtype, recvbuf, recvcount, (const int64_t *)rcounts, \
     (const int64_t *)rdispls, recvtype, root, comm, NULL, NULL}
#define SCATTER_ARGS(coll, scounts, sdispls)                                                 \
    {coll,     sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL, recvtype, root, \
     comm,     (const int64_t *)scounts, (const int64_t *)sdispls}

int colibri_gather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, const char *algorithm)
{
    const struct movement_args a = GATHER_ARGS(COLIBRI_GATHER, NULL, NULL);
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_igather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                    MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    const struct movement_args a = GATHER_ARGS(COLIBRI_GATHER, NULL, NULL);
    return with_request(&a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_gather_init(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    const struct movement_args a = GATHER_ARGS(COLIBRI_GATHER, NULL, NULL);
    return with_request(&a, algorithm, CALL_PERSISTENT, request);
}

/* (recvcount is not an argument of the v forms) */
#define V_RECVCOUNT 0

int colibri_gatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                    MPI_Datatype recvtype, int root, MPI_Comm comm, const char *algorithm)
{
    const MPI_Count recvcount = V_RECVCOUNT;
    const struct movement_args a = GATHER_ARGS(COLIBRI_GATHERV, recvcounts, displs);
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_igatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                     MPI_Datatype recvtype, int root, MPI_Comm comm, const char *algorithm,
                     MPI_Request *request)
{
    const MPI_Count recvcount = V_RECVCOUNT;
    const struct movement_args a = GATHER_ARGS(COLIBRI_GATHERV, recvcounts, displs);
    return with_request(&a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_gatherv_init(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                         MPI_Datatype recvtype, int root, MPI_Comm comm, const char *algorithm,
                         MPI_Request *request)
{
    const MPI_Count recvcount = V_RECVCOUNT;
    const struct movement_args a = GATHER_ARGS(COLIBRI_GATHERV, recvcounts, displs);
    return with_request(&a, algorithm, CALL_PERSISTENT, request);
}

int colibri_scatter(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                    MPI_Comm comm, const char *algorithm)
{
    const struct movement_args a = SCATTER_ARGS(COLIBRI_SCATTER, NULL, NULL);
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_iscatter(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                     MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    const struct movement_args a = SCATTER_ARGS(COLIBRI_SCATTER, NULL, NULL);
    return with_request(&a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_scatter_init(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                         MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    const struct movement_args a = SCATTER_ARGS(COLIBRI_SCATTER, NULL, NULL);
    return with_request(&a, algorithm, CALL_PERSISTENT, request);
}

/* (sendcount is not an argument of the v forms) */
#define V_SENDCOUNT 0

int colibri_scatterv(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, const char *algorithm)
{
    const MPI_Count sendcount = V_SENDCOUNT;
    const struct movement_args a = SCATTER_ARGS(COLIBRI_SCATTERV, sendcounts, displs);
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_iscatterv(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, const char *algorithm,
                      MPI_Request *request)
{
    const MPI_Count sendcount = V_SENDCOUNT;
    const struct movement_args a = SCATTER_ARGS(COLIBRI_SCATTERV, sendcounts, displs);
    return with_request(&a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_scatterv_init(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                          MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                          const char *algorithm, MPI_Request *request)
{
    const MPI_Count sendcount = V_SENDCOUNT;
    const struct movement_args a = SCATTER_ARGS(COLIBRI_SCATTERV, sendcounts, displs);
    return with_request(&a, algorithm, CALL_PERSISTENT, request);
}
