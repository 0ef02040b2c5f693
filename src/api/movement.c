/*
 * The C API's allgather, allgatherv, bcast and barrier, which the interposed MPI_*
 * entry points also call: check, select, present the user's buffers as
 * bytes (bytes.h), build the schedule, run it blocking, nonblocking or
 * persistent.
 *
 * As for alltoall, the schedules count bytes of packed data: allgather's
 * output is p blocks of recvcount elements, its input one block (sendcount
 * elements of sendtype, with the same type signature) or, in place, block
 * `rank` of the output (allgatherv: blocks of their own counts at their own
 * displacements, recvcounts[rank] elements sent); bcast's buffer is RECV (and SEND) on every rank,
 * packed at the root and unpacked at the others when its type is not
 * contiguous; barrier moves no byte.
 *
 * Selection reads only what every rank agrees on: p, the block's (or
 * buffer's) bytes and the root; for allgatherv all blocks' bytes and the
 * largest block's (every rank has the same recvcounts).
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

static int validate(const struct movement_args *a, const struct side *snd,
                    const struct side *rcv, bool in_place, int rank, int size, char *msg,
                    size_t len)
{
    if (a->coll == COLIBRI_BARRIER)
        return MPI_SUCCESS;
    if (a->coll == COLIBRI_BCAST) {
        if (a->root < 0 || a->root >= size) {
            snprintf(msg, len, "root %d is not a rank of the communicator (size %d)", a->root,
                     size);
            return MPI_ERR_ROOT;
        }
        return check_side(rcv, 1, "", msg, len);
    }
    if (rcv->buf == MPI_IN_PLACE) {
        snprintf(msg, len, "recvbuf is MPI_IN_PLACE");
        return MPI_ERR_BUFFER;
    }
    if (a->coll == COLIBRI_ALLGATHERV && (!a->recvcounts || !a->rdispls)) {
        snprintf(msg, len, "recvcounts or displs is NULL");
        return MPI_ERR_ARG;
    }
    int rc = in_place ? MPI_SUCCESS : check_side(snd, 1, "send", msg, len);
    if (rc == MPI_SUCCESS)
        rc = check_side(rcv, size, "recv", msg, len);
    if (rc != MPI_SUCCESS || in_place)
        return rc;
    const int64_t sb = snd->count * snd->dti.size, rb = side_count(rcv, rank) * rcv->dti.size;
    if (sb != rb) {
        snprintf(msg, len, "the send block is %lld bytes but receive blocks %lld bytes",
                 (long long)sb, (long long)rb);
        return MPI_ERR_TRUNCATE;
    }
    if (snd->buf == rcv->buf && snd->buf != NULL && sb) {
        snprintf(msg, len, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
        return MPI_ERR_BUFFER;
    }
    return MPI_SUCCESS;
}

/* A call in flight: the operation and the views of the user's buffers. */
struct movement_op {
    struct coll_op op;
    struct side snd, rcv;
    struct view sv, rv;
    bool in_place, root;
    int size;
    /* allgatherv: the caller's counts and displacements (kept: the int entry
     * points' are temporaries), then the same in bytes, for the schedule */
    int64_t *arrays;
};

/* Before each run: the user's buffers as bytes, inputs packed. */
static int movement_before(struct coll_op *op)
{
    struct movement_op *e = (struct movement_op *)op;
    MPI_Comm comm = op->c.cs->comm;
    int rc = MPI_SUCCESS;
    if (op->c.coll == COLIBRI_ALLGATHER || op->c.coll == COLIBRI_ALLGATHERV) {
        rc = view_open(&e->rcv, e->size, e->in_place, &e->rv, comm);
        if (rc == MPI_SUCCESS && !e->in_place)
            rc = view_open(&e->snd, 1, true, &e->sv, comm);
        op->c.sendbuf = e->in_place ? e->rv.base : e->sv.base;
    } else if (op->c.coll == COLIBRI_BCAST) {
        rc = view_open(&e->rcv, 1, e->root, &e->rv, comm);
        op->c.sendbuf = e->rv.base;
    }
    op->c.recvbuf = e->rv.base;
    return rc;
}

/* After it: the outputs of a non-contiguous type unpacked. */
static int movement_after(struct coll_op *op, int rc)
{
    struct movement_op *e = (struct movement_op *)op;
    MPI_Comm comm = op->c.cs->comm;
    const bool gather = op->c.coll == COLIBRI_ALLGATHER || op->c.coll == COLIBRI_ALLGATHERV;
    const bool drain = rc == MPI_SUCCESS && (gather || !e->root);
    int rc2 = op->c.coll == COLIBRI_BARRIER
                  ? MPI_SUCCESS
                  : view_close(&e->rcv, gather ? e->size : 1, &e->rv, drain, comm);
    if (gather)
        view_close(&e->snd, 1, &e->sv, false, comm);
    return rc != MPI_SUCCESS ? rc : rc2;
}

static void movement_destroy(struct coll_op *op)
{
    free(((struct movement_op *)op)->arrays);
    if (op->kind != CALL_BLOCKING)
        free(op);
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
    const bool gather = a->coll == COLIBRI_ALLGATHER || a->coll == COLIBRI_ALLGATHERV;
    const bool in_place = gather && a->sendbuf == MPI_IN_PLACE;
    struct side rcv = {a->recvbuf, a->recvcounts, a->rdispls, a->recvcount, a->recvtype, {0}};
    struct side snd = {a->sendbuf, NULL, NULL, a->sendcount, a->sendtype, {0}};
    char msg[640];
    int rc = MPI_SUCCESS;
    if (a->coll != COLIBRI_BARRIER && rcv.dt != MPI_DATATYPE_NULL)
        rc = dtinfo_init(rcv.dt, &rcv.dti);
    if (rc == MPI_SUCCESS && gather && !in_place && snd.dt != MPI_DATATYPE_NULL)
        rc = dtinfo_init(snd.dt, &snd.dti);
    if (rc == MPI_SUCCESS)
        rc = validate(a, &snd, &rcv, in_place, rank, size, msg, sizeof msg);
    else
        snprintf(msg, sizeof msg, "invalid datatype");
    if (rc != MPI_SUCCESS)
        return raise_error(a->comm, fn, rc, msg);
    /* valid, automatic, nonblocking, and nothing to move: an allgather's
     * blocks and a bcast's message have the same size on every rank */
    if (kind == CALL_NONBLOCKING &&
        (a->coll == COLIBRI_ALLGATHER || a->coll == COLIBRI_BCAST) &&
        rcv.count * rcv.dti.size == 0 && wants_auto(a->coll, requested))
        return nothing_started(a->comm, a->coll, !requested && predefined(a->recvtype),
                               a->recvcount, a->recvtype, MPI_OP_NULL,
                               a->coll == COLIBRI_BCAST ? a->root : 0, req);

    /* The blocking call lives on the stack. */
    struct movement_op local, *e = kind == CALL_BLOCKING ? &local : malloc(sizeof *e);
    if (!e)
        return raise_error(a->comm, fn, MPI_ERR_NO_MEM, "out of memory");
    op_clear(&e->op);
    struct coll_op *op = &e->op;
    op->kind = kind;
    op->fname = fn;
    op->comm = a->comm;
    op->before = movement_before;
    op->after = movement_after;
    op->destroy = movement_destroy;
    e->snd = snd, e->rcv = rcv, e->in_place = in_place, e->size = size;
    e->root = a->coll == COLIBRI_BCAST && rank == a->root;
    e->sv = e->rv = (struct view){0};
    e->arrays = NULL;
    if (a->coll != COLIBRI_BARRIER)
        op->held_types[0] = rcv.dt;
    if (gather && !in_place)
        op->held_types[1] = snd.dt;

    struct coll_call *c = &op->c;
    c->coll = a->coll;
    c->sp.rank = rank;
    c->sp.size = size;
    c->sp.root = a->coll == COLIBRI_BCAST ? a->root : 0;
    c->sp.elem_size = 1;
    c->sp.in_place = in_place;
    c->sp.nonblocking = kind != CALL_BLOCKING;
    c->sp.radix = (int)config_get()->radix;
    /* the pipelined bcasts' segment, in bytes (elem_size 1) */
    c->sp.segment = config_get()->segment_bytes;
    c->sp.count = a->coll == COLIBRI_BARRIER ? 0 : rcv.count * rcv.dti.size;
    if (a->coll == COLIBRI_ALLGATHERV) {
        int64_t *v = e->arrays = malloc((size_t)(size ? size : 1) * 4 * sizeof *v);
        if (!v) {
            movement_destroy(op);
            return raise_error(a->comm, fn, MPI_ERR_NO_MEM, "out of memory");
        }
        memcpy(v, a->recvcounts, (size_t)size * sizeof *v);
        memcpy(v + size, a->rdispls, (size_t)size * sizeof *v);
        e->rcv.counts = v, e->rcv.displs = v + size;
        c->sp.count = c->sp.volume_max = 0;
        for (int j = 0; j < size; j++) {
            v[2 * size + j] = v[j] * rcv.dti.size;
            v[3 * size + j] = v[size + j] * rcv.dti.size;
            c->sp.count += v[2 * size + j];
            if (v[2 * size + j] > c->sp.volume_max)
                c->sp.volume_max = v[2 * size + j];
        }
        c->sp.rcounts = v + 2 * size, c->sp.rdispls = v + 3 * size;
    }

    rc = comm_state_get(a->comm, &c->cs);
    if (rc != MPI_SUCCESS) {
        movement_destroy(op);
        return raise_error(a->comm, fn, rc, "could not set up the communicator");
    }
    /* Node-aware algorithms need the node layout and the chunk of the
     * node's reduction segment; so does a tuning file whose rules or model
     * depend on the node shape (bytes.h). */
    rc = movement_node_params(c->cs, a->coll, requested, &c->sp);
    if (rc != MPI_SUCCESS) {
        movement_destroy(op);
        return raise_error(a->comm, fn, rc, "could not determine the node layout");
    }
    const struct sched_params before = c->sp;
    rc = select_algorithm(a->coll, &c->sp, requested, &op->alg, msg, sizeof msg);
    /* Online selection (runtime/online_turn.h), as for the reductions and
     * alltoall: the model's choice against the MPI's own on the
     * application's calls; from here on every return goes through
     * online_turn_end.  allgatherv's shape keys on all blocks' bytes and
     * the largest block's, which every rank knows alike (it was left to
     * the model alone, and on 2 ranks its choice ran 1.4-4.5x the MPI's own
     * time from 8 B to 32 KiB on all five MPIs). */
    struct online_turn turn = {NULL};
    turn.entry = entry;
    if (rc == MPI_SUCCESS)
        online_turn_begin(c->cs, a->coll, kind, requested, true, &before, &c->sp, &op->alg,
                          &turn);
    struct comm_state *const tcs = c->cs; /* c lives in op, which a run may free */
    if (rc != MPI_SUCCESS || !op->alg) {
        struct comm_state *cs = tcs;
        int root = c->sp.root; /* (c lives in op, which a nonblocking call frees here) */
        const int p = c->sp.size;
        movement_destroy(op);
        if (rc != MPI_SUCCESS)
            return raise_error(a->comm, fn, rc, msg);
        /* an interposed call of a predefined type: the next identical call
         * goes straight below (native.h) */
        const MPI_Datatype key = a->coll == COLIBRI_BARRIER ? MPI_BYTE : a->recvtype;
        int64_t count = a->coll == COLIBRI_BARRIER ? 0 : a->recvcount;
        bool keyed = true;
        if (a->coll == COLIBRI_ALLGATHERV) /* (allgatherv_memo_key, native.h) */
            keyed = allgatherv_memo_key(a->recvcounts, p, &count, &root);
        if (!requested && keyed && predefined(key) && online_turn_native_memo(&turn))
            native_memo_note(a->coll, kind, a->comm, count, key, MPI_OP_NULL, root, cs, turn.s,
                             NULL);
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
            movement_destroy(op);
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

#define ALLGATHER_ARGS                                                                       \
    {                                                                                        \
        COLIBRI_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL, NULL,     \
            recvtype, 0, comm, NULL, NULL                                                  \
    }
#define BCAST_ARGS                                                                          \
    {COLIBRI_BCAST, NULL, 0, MPI_DATATYPE_NULL, buffer, count, NULL, NULL, datatype, root, comm, \
     NULL, NULL}
#define BARRIER_ARGS                                                                       \
    {COLIBRI_BARRIER, NULL, 0, MPI_DATATYPE_NULL, NULL, 0, NULL, NULL, MPI_DATATYPE_NULL, 0,    \
     comm, NULL, NULL}
_Static_assert(sizeof(MPI_Count) == sizeof(int64_t) && sizeof(MPI_Aint) == sizeof(int64_t),
               "64-bit MPI_Count and MPI_Aint");
#define ALLGATHERV_ARGS                                                                     \
    {COLIBRI_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf, 0,                          \
     (const int64_t *)recvcounts, (const int64_t *)displs, recvtype, 0, comm, NULL, NULL}

int colibri_allgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const char *algorithm)
{
    const struct movement_args a = ALLGATHER_ARGS;
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_iallgather(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const char *algorithm, MPI_Request *request)
{
    const struct movement_args a = ALLGATHER_ARGS;
    return with_request(&a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_allgather_init(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    const struct movement_args a = ALLGATHER_ARGS;
    return with_request(&a, algorithm, CALL_PERSISTENT, request);
}

int colibri_bcast(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  const char *algorithm)
{
    const struct movement_args a = BCAST_ARGS;
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_ibcast(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   const char *algorithm, MPI_Request *request)
{
    const struct movement_args a = BCAST_ARGS;
    return with_request(&a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_bcast_init(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                       MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    const struct movement_args a = BCAST_ARGS;
    return with_request(&a, algorithm, CALL_PERSISTENT, request);
}

int colibri_barrier(MPI_Comm comm, const char *algorithm)
{
    const struct movement_args a = BARRIER_ARGS;
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_ibarrier(MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    const struct movement_args a = BARRIER_ARGS;
    return with_request(&a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_barrier_init(MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    const struct movement_args a = BARRIER_ARGS;
    return with_request(&a, algorithm, CALL_PERSISTENT, request);
}

int colibri_allgatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm)
{
    const struct movement_args a = ALLGATHERV_ARGS;
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_iallgatherv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm,
                        MPI_Request *request)
{
    const struct movement_args a = ALLGATHERV_ARGS;
    return with_request(&a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_allgatherv_init(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                            MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm,
                            MPI_Request *request)
{
    const struct movement_args a = ALLGATHERV_ARGS;
    return with_request(&a, algorithm, CALL_PERSISTENT, request);
}
