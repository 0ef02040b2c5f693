/*
 * The C API's data-movement collectives (alltoall, alltoallv), which the
 * interposed MPI_* entry points also call: check, select, present the user's
 * buffers as bytes, build the schedule, run it.
 *
 * Schedules of these collectives work in bytes of packed data (schedule.h).
 * A contiguous user datatype is used in place; a non-contiguous one is packed
 * into a staging area first (send side, or the in-place input) and the
 * receive side is unpacked from one at the end, block by block, so only the
 * type map's bytes are ever read or written.
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../patterns/node_segment.h"
#include "../select/select.h"
#include "../config/config.h"
#include "../runtime/native.h"
#include "../runtime/online_turn.h"
#include "../runtime/operation.h"
#include "../runtime/state/node.h"
#include "../runtime/agree.h"
#include "../runtime/executor.h"
#include "../runtime/stats.h"
#include "../runtime/validate.h"
#include "bytes.h"

static int validate(colibri_coll coll, const struct side *snd, const struct side *rcv,
                    bool in_place, int size, char *msg, size_t len)
{
    if (rcv->buf == MPI_IN_PLACE) {
        snprintf(msg, len, "recvbuf is MPI_IN_PLACE");
        return MPI_ERR_BUFFER;
    }
    if (coll == COLIBRI_ALLTOALLV && ((!in_place && (!snd->counts || !snd->displs)) ||
                                      !rcv->counts || !rcv->displs)) {
        snprintf(msg, len, "a count or displacement array is NULL");
        return MPI_ERR_ARG;
    }
    int rc = in_place ? MPI_SUCCESS : check_side(snd, size, "send", msg, len);
    if (rc == MPI_SUCCESS)
        rc = check_side(rcv, size, "recv", msg, len);
    if (rc != MPI_SUCCESS)
        return rc;
    if (coll == COLIBRI_ALLTOALL && !in_place) {
        int64_t sb = snd->count * snd->dti.size, rb = rcv->count * rcv->dti.size;
        if (sb != rb) {
            /* Every pair exchanges one block: unequal signatures are
             * erroneous, and colibri's block arithmetic relies on them. */
            snprintf(msg, len, "send blocks are %lld bytes but receive blocks %lld bytes",
                     (long long)sb, (long long)rb);
            return MPI_ERR_TRUNCATE;
        }
    }
    if (!in_place && snd->buf == rcv->buf && snd->buf != NULL) {
        int64_t any = 0;
        for (int j = 0; j < size && !any; j++)
            any = side_count(snd, j) | side_count(rcv, j);
        if (any) {
            snprintf(msg, len, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
            return MPI_ERR_BUFFER;
        }
    }
    return MPI_SUCCESS;
}


/* alltoallv's automatic choice must be the same on every rank, and one rank
 * sending megabytes makes the call large for all: the ranks agree, in one
 * small allreduce (only when selecting automatically), on the largest block
 * and on the most and fewest bytes a rank exchanges with the others
 * (sched_params' volume_max and volume_min; the fewest agreed as the
 * maximum of its negation).  `v`: the AGREED_SIZES values to agree on. */
#define AGREED_SIZES NSEG_SIZES
_Static_assert(AGREED_SIZES <= OP_AGREED, "a prelude agrees on the sizes");
static void local_sizes(const struct sched_params *p, int64_t v[AGREED_SIZES])
{
    node_seg_rank_sizes(p->scounts, p->rcounts, p->size, p->rank, v);
}

static void set_agreed(struct sched_params *p, const int64_t v[AGREED_SIZES])
{
    p->count = v[0];
    p->volume_max = v[1];
    p->volume_min = -v[2];
}


/* An all-to-all in flight: the operation and what it owns. */
struct exchange_op {
    struct coll_op op;
    struct side snd, rcv;
    struct view sv, rv;
    bool in_place;
    int size;
    int64_t *bytes; /* alltoallv: byte counts and offsets as the schedule sees them */
    int64_t *elems; /* alltoallv, nonblocking or persistent: the caller's arrays, kept */
};

/* Before each run: present the user's buffers as bytes (packing the inputs
 * of non-contiguous types, which may have changed since the last start). */
static int exchange_before(struct coll_op *op)
{
    struct exchange_op *e = (struct exchange_op *)op;
    int rc = view_open(&e->rcv, e->size, e->in_place, &e->rv, op->c.cs->comm);
    if (rc == MPI_SUCCESS && !e->in_place)
        rc = view_open(&e->snd, e->size, true, &e->sv, op->c.cs->comm);
    op->c.sendbuf = e->in_place ? e->rv.base : e->sv.base;
    op->c.recvbuf = e->rv.base;
    return rc;
}

/* After it: unpack the outputs of a non-contiguous type. */
static int exchange_after(struct coll_op *op, int rc)
{
    struct exchange_op *e = (struct exchange_op *)op;
    int rc2 = view_close(&e->rcv, e->size, &e->rv, rc == MPI_SUCCESS, op->c.cs->comm);
    view_close(&e->snd, e->size, &e->sv, false, op->c.cs->comm);
    return rc != MPI_SUCCESS ? rc : rc2;
}

static void exchange_destroy(struct coll_op *op)
{
    struct exchange_op *e = (struct exchange_op *)op;
    free(e->bytes);
    free(e->elems);
    if (op->kind != CALL_BLOCKING)
        free(e);
}

/* Keeps the caller's alltoallv arrays for an operation that outlives the
 * call (they may be the int entry point's widened temporaries). */
static int keep_arrays(struct exchange_op *e)
{
    const int n = e->size;
    if (!(e->elems = malloc((size_t)(n ? n : 1) * 4 * sizeof *e->elems)))
        return MPI_ERR_NO_MEM;
    struct side *sides[2] = {&e->snd, &e->rcv};
    for (int k = 0; k < 2; k++) {
        int64_t *c = e->elems + 2 * k * n, *d = c + n;
        if (k == 0 && e->in_place)
            continue;
        memcpy(c, sides[k]->counts, (size_t)n * sizeof *c);
        memcpy(d, sides[k]->displs, (size_t)n * sizeof *d);
        sides[k]->counts = c;
        sides[k]->displs = d;
    }
    if (e->in_place)
        e->snd = e->rcv;
    return MPI_SUCCESS;
}

/* The prelude of a nonblocking automatic alltoallv has agreed on the
 * largest block: choose and build (select_never_native held at the call). */
static int exchange_choose(struct coll_op *op)
{
    struct coll_call *c = &op->c;
    char msg[640];
    set_agreed(&c->sp, op->agreed);
    int rc = select_algorithm(c->coll, &c->sp, "auto", &op->alg, msg, sizeof msg);
    if (rc != MPI_SUCCESS || !op->alg)
        return rc != MPI_SUCCESS ? rc : MPI_ERR_INTERN;
    c->cs->last[c->coll] = op->alg->name;
    return op_build(op);
}

/* The end of a call online selection may serve (online_turn_end); after
 * a blocking automatic alltoallv's (`auto_v`), whether the next calls skip
 * the size agreement (online_skip_note). */
static int turn_end(struct comm_state *cs, struct online_turn *t, bool auto_v,
                    const int64_t *rule_sizes, int rc)
{
    rc = online_turn_end(cs, t, rc);
    if (auto_v)
        online_skip_note(cs, t, rule_sizes);
    return rc;
}

/*
 * The call memo of a blocking automatic MPI_Alltoall settled on a colibri
 * algorithm (as api/reductions.c's for allreduce and reduce): an identical
 * call again (communicator, count, predefined type on both sides or in
 * place) skips validation of its types, the node layout, selection and
 * the online shape's lookup, and reruns the remembered call's prepared
 * state on its own buffers.  Colibri's driver cost about 0.8 us a call on
 * Intel MPI's 2 ranks, more than colibri's own short alltoall takes to
 * run.  What stays valid and why: the communicator's state and layout
 * until a communicator with state is freed (comm_state_epoch), the
 * selection until the configuration is reloaded (generation), the online
 * decision while its shape's stamp stands and its window lasts, or while
 * it explores and the memo's algorithm is the candidate of the call
 * (online_turn_memo_pass, which counts the call, last; such a call is
 * timed from the memo's entry, as a settled one costs), the schedule through
 * its hint; predefined types are never freed.  Buffers are checked as the
 * full path checks them; anything else takes the full path.
 */
struct exchange_memo {
    MPI_Comm comm;
    int64_t count;
    MPI_Datatype dt;
    bool in_place;
    unsigned generation, epoch;
    const struct algorithm *alg; /* NULL: an empty slot */
    bool running;                /* a run on `c` is under way */
    struct coll_call c;
    struct sched_hint hint;
    struct online_shape *shape;
    unsigned stamp;
};
#define EXCHANGE_MEMO_SLOTS 4 /* memo_slot's 2 bits */
static _Thread_local struct exchange_memo exchange_memo[EXCHANGE_MEMO_SLOTS];

static struct exchange_memo *memo_slot(MPI_Comm comm, int64_t count)
{
    return &exchange_memo[memo_index((uint64_t)count, comm, 0, 2)];
}

/* Whether an interposed or C-API automatic blocking alltoall may be
 * remembered: predefined types, the same on both sides (or in place). */
static bool memo_shape(const struct exchange_args *a)
{
    const bool in_place = a->sendbuf == MPI_IN_PLACE;
    return a->coll == COLIBRI_ALLTOALL && predefined(a->recvtype) &&
           (in_place || (a->sendtype == a->recvtype && a->sendcount == a->recvcount));
}

/* *timed: the call explores its online shape (online_turn_memo_pass):
 * end it with online_turn_memo_end. */
static struct exchange_memo *memo_find(const struct exchange_args *a, bool *timed)
{
    if (!memo_shape(a))
        return NULL;
    struct exchange_memo *m = memo_slot(a->comm, a->recvcount);
    const bool in_place = a->sendbuf == MPI_IN_PLACE;
    if (!m->alg || m->running || m->comm != a->comm || m->count != a->recvcount ||
        m->dt != a->recvtype || m->in_place != in_place ||
        m->epoch != __atomic_load_n(&comm_state_epoch, __ATOMIC_RELAXED) ||
        m->generation != config_get()->generation)
        return NULL;
    /* the buffers, as validate() finds them fine (else the full path
     * reports them) */
    if (a->recvbuf == MPI_IN_PLACE ||
        (a->recvcount && (!a->recvbuf || (!in_place && (!a->sendbuf || a->sendbuf == a->recvbuf)))))
        return NULL;
    const int pass = online_turn_memo_pass(m->c.cs, m->shape, m->stamp, m->alg); /* last: it counts */
    *timed = pass == 2;
    return pass ? m : NULL;
}

static void memo_note(const struct exchange_args *a, struct coll_op *op, struct online_shape *shape)
{
    struct exchange_memo *m = memo_slot(a->comm, a->recvcount);
    if (m->running)
        return;
    *m = (struct exchange_memo){a->comm, a->recvcount, a->recvtype, a->sendbuf == MPI_IN_PLACE,
                                config_get()->generation,
                                __atomic_load_n(&comm_state_epoch, __ATOMIC_RELAXED), op->alg,
                                false, op->c, {NULL, 0}, shape, shape ? shape->stamp : 0};
    op->hint = &m->hint;
}

static int memo_run(struct exchange_memo *m, const struct exchange_args *a, const char *fn)
{
    m->c.recvbuf = a->recvbuf;
    m->c.sendbuf = m->in_place ? a->recvbuf : a->sendbuf;
    m->c.cs->last[COLIBRI_ALLTOALL] = m->alg->name;
    m->running = true;
    const int rc = op_rerun_blocking(&m->c, m->alg, &m->hint, a->comm, fn);
    m->running = false;
    return rc;
}

static int run(struct exchange_args *a, const char *requested, enum call_kind kind,
               MPI_Request *req)
{
    const char *fn = coll_fname(a->coll, kind);
    if (req)
        *req = MPI_REQUEST_NULL;
    if (kind == CALL_BLOCKING && !requested) {
        bool timed = false;
        struct exchange_memo *m = memo_find(a, &timed);
        if (m)
            return timed ? online_turn_memo_end(memo_run(m, a, fn)) : memo_run(m, a, fn);
    }
    /* the full path: a colibri candidate of online selection is charged
     * from here (a memo's call is charged from the memo's entry) */
    const double entry = online_turn_entry(kind);
    if (comm_passes_through(a->comm))
        return native_exchange(a, kind, req);

    int rank, size;
    PMPI_Comm_rank(a->comm, &rank);
    PMPI_Comm_size(a->comm, &size);
    bool in_place = a->sendbuf == MPI_IN_PLACE;
    struct side rcv = {a->recvbuf, a->recvcounts, a->rdispls, a->recvcount, a->recvtype, {0}};
    struct side snd = in_place ? rcv
                               : (struct side){a->sendbuf, a->sendcounts, a->sdispls, a->sendcount,
                                               a->sendtype, {0}};
    char msg[640];
    int rc = MPI_SUCCESS;
    if (rcv.dt != MPI_DATATYPE_NULL)
        rc = dtinfo_init(rcv.dt, &rcv.dti);
    if (rc == MPI_SUCCESS && !in_place && snd.dt != MPI_DATATYPE_NULL)
        rc = dtinfo_init(snd.dt, &snd.dti);
    if (in_place)
        snd = rcv;
    if (rc == MPI_SUCCESS)
        rc = validate(a->coll, &snd, &rcv, in_place, size, msg, sizeof msg);
    else
        snprintf(msg, sizeof msg, "invalid datatype");
    if (rc != MPI_SUCCESS)
        return raise_error(a->comm, fn, rc, msg);
    /* valid, automatic, and every block of every rank is empty (alltoall's
     * blocks are the same size everywhere; alltoallv's may not be): nothing
     * to do (a named algorithm still runs, and colibri_last_algorithm names
     * it) */
    if (kind != CALL_PERSISTENT && a->coll == COLIBRI_ALLTOALL && rcv.count * rcv.dti.size == 0 &&
        wants_auto(a->coll, requested)) {
        const bool memo = !requested && predefined(a->recvtype);
        return kind == CALL_BLOCKING /* a nonblocking call: a request already complete */
                   ? nothing_ran(a->comm, a->coll, memo, a->recvcount, a->recvtype, MPI_OP_NULL, 0)
                   : nothing_started(a->comm, a->coll, memo, a->recvcount, a->recvtype,
                                     MPI_OP_NULL, 0, req);
    }
    /* valid, automatic, and every alltoallv shape agreed on so far settled
     * on native: no size agreement, the MPI below (select/online.h,
     * struct online_skip; MPI_Alltoallv asks before it widens anything) */
    const bool auto_v =
        kind == CALL_BLOCKING && a->coll == COLIBRI_ALLTOALLV && wants_auto(a->coll, requested);
    if (auto_v) {
        struct comm_state *cs = online_skip_state(a->comm);
        if (cs && online_skip_sizes(cs))
            return native_exchange(a, kind, req);
    }
    /* valid, automatic, and a tuning file that sends every alltoallv of
     * this communicator and form below (colibri-tune writes such a rule
     * where native won at every size): no size agreement either, every
     * rank reads the same rules (after the communicator's first call, which
     * sets up its state) */
    if (a->coll == COLIBRI_ALLTOALLV && wants_auto(a->coll, requested) &&
        select_has_rules(a->coll)) {
        struct comm_state *cs = online_skip_state(a->comm);
        if (cs && alltoallv_rules_native(cs, kind)) /* (which counts it) */
            return native_exchange(a, kind, req);
    }

    /* The blocking call lives on the stack. */
    struct exchange_op local, *e = kind == CALL_BLOCKING ? &local : malloc(sizeof *e);
    if (!e)
        return raise_error(a->comm, fn, MPI_ERR_NO_MEM, "out of memory");
    op_clear(&e->op);
    e->bytes = e->elems = NULL;
    struct coll_op *op = &e->op;
    op->kind = kind;
    op->fname = fn;
    op->comm = a->comm;
    op->before = exchange_before;
    op->after = exchange_after;
    op->destroy = exchange_destroy;
    e->snd = snd, e->rcv = rcv, e->in_place = in_place, e->size = size;
    op->held_types[0] = rcv.dt;
    op->held_types[1] = in_place ? MPI_DATATYPE_NULL : snd.dt; /* ignored when in place */
    e->sv = e->rv = (struct view){0};
    if (kind != CALL_BLOCKING && a->coll == COLIBRI_ALLTOALLV && keep_arrays(e) != MPI_SUCCESS) {
        exchange_destroy(op);
        return raise_error(a->comm, fn, MPI_ERR_NO_MEM, "out of memory");
    }

    /* Byte counts and offsets of both sides, as the schedules see them. */
    struct coll_call *c = &op->c;
    c->coll = a->coll;
    c->sp.rank = rank;
    c->sp.size = size;
    c->sp.elem_size = 1;
    c->sp.in_place = in_place;
    c->sp.nonblocking = kind != CALL_BLOCKING;
    c->sp.radix = (int)config_get()->radix;
    c->sp.count = rcv.count * rcv.dti.size;
    if (a->coll == COLIBRI_ALLTOALLV) {
        if (!(e->bytes = malloc((size_t)size * 4 * sizeof *e->bytes))) {
            exchange_destroy(op);
            return raise_error(a->comm, fn, MPI_ERR_NO_MEM, "out of memory");
        }
        int64_t *sc = e->bytes, *sd = sc + size, *rcn = sc + 2 * size, *rd = sc + 3 * size;
        for (int j = 0; j < size; j++) {
            sc[j] = snd.counts[j] * snd.dti.size;
            sd[j] = snd.displs[j] * snd.dti.size;
            rcn[j] = rcv.counts[j] * rcv.dti.size;
            rd[j] = rcv.displs[j] * rcv.dti.size;
        }
        c->sp.scounts = sc, c->sp.sdispls = sd, c->sp.rcounts = rcn, c->sp.rdispls = rd;
        c->sp.count = 0;
    }

    rc = comm_state_get(a->comm, &c->cs);
    if (rc != MPI_SUCCESS) {
        exchange_destroy(op);
        return raise_error(a->comm, fn, rc, "could not set up the communicator");
    }
    /* Automatic alltoallv selection agrees on the largest block first.  A
     * nonblocking call runs that agreement as its prelude and chooses when
     * it has finished (exchange_choose), unless a tuning rule could pick
     * the MPI below; a persistent one agrees once, at its creation. */
    if (a->coll == COLIBRI_ALLTOALLV && wants_auto(a->coll, requested) &&
        kind == CALL_NONBLOCKING && select_never_native(a->coll)) {
        c->dt = MPI_BYTE;
        c->dti = (struct dtinfo){1, 0, 1, 1, true};
        local_sizes(&c->sp, op->agreed);
        rc = agree_max_prepare(c->cs, MPI_INT64_T, op->agreed, AGREED_SIZES, &op->pre, &op->pre_s);
        if (rc != MPI_SUCCESS) {
            exchange_destroy(op);
            return raise_error(a->comm, fn, rc, "could not set up the collective");
        }
        op->choose = exchange_choose;
        return op_launch(op, req);
    }
    /* A blocking one after a SLOAVx call predicts its sizes from that
     * call's, which SLOAVx brought every rank (sloavx.c): the same
     * prediction everywhere, so the same choice, and no agreement.  Sizes
     * that changed since cost at most that one call a worse choice; the
     * SLOAVx it runs brings the new ones. */
    const bool predicting = auto_v;
    if (a->coll == COLIBRI_ALLTOALLV && wants_auto(a->coll, requested)) {
        int64_t v[AGREED_SIZES];
        if (predicting && c->cs->predicted) {
            memcpy(v, c->cs->predicted_sizes, sizeof v);
        } else {
            local_sizes(&c->sp, v);
            rc = agree_max_n(c->cs, MPI_INT64_T, v, AGREED_SIZES);
        }
        set_agreed(&c->sp, v);
        if (rc != MPI_SUCCESS) {
            exchange_destroy(op);
            return raise_error(a->comm, fn, rc, "communication failed inside the collective");
        }
    }

    /* Node-aware algorithms need the node layout (computed once per
     * communicator); automatic selection considers them only for blocking
     * alltoallv, the only calls they can serve. */
    const struct algorithm *named = NULL;
    if (!wants_auto(a->coll, requested)) {
        const char *name = requested ? requested : config_get()->algorithm[a->coll];
        named = catalog_find(a->coll, name);
    }
    if ((named && (named->restrictions & R_NODE_AWARE) && kind == CALL_BLOCKING) ||
        (!named && a->coll == COLIBRI_ALLTOALLV && wants_auto(a->coll, requested) &&
         kind == CALL_BLOCKING) ||
        (wants_auto(a->coll, requested) && select_wants_layout(a->coll))) {
        rc = node_layout_get(c->cs, &c->sp.layout);
        if (rc != MPI_SUCCESS) {
            exchange_destroy(op);
            return raise_error(a->comm, fn, rc, "could not determine the node layout");
        }
    }

    const struct sched_params before = c->sp;
    rc = select_algorithm(a->coll, &c->sp, requested, &op->alg, msg, sizeof msg);
    /* Online selection (runtime/online_turn.h): from here on every return
     * goes through online_turn_end, so that every rank reaches its shape's
     * agreement at the same call. */
    struct online_turn turn = {NULL};
    turn.entry = entry;
    if (rc == MPI_SUCCESS)
        online_turn_begin(c->cs, a->coll, kind, requested, true, &before, &c->sp, &op->alg,
                          &turn);
    struct comm_state *const tcs = c->cs; /* c lives in op, which a run may free */
    /* An alltoallv settled on native pays its size agreement and this
     * driver before the MPI's call where another shape settled on
     * colibri's and the call follows another shape's (no window then:
     * online_skip_after): native is charged as it will run.  (Timed
     * around the MPI's call alone, Open MPI 5's 32 KiB alltoallv, 2 ranks,
     * beside an 8 KiB shape on sloavx, settled on native and then ran
     * 1.1-1.3x the MPI's own time, dropin-bench -P, when such calls agreed
     * at every call.) */
    if (auto_v && turn.s)
        turn.native_from_entry =
            online_other_settled_colibri(&tcs->online, a->coll, turn.s) &&
            !online_skip_follows(&tcs->alltoallv_skip, turn.s);
    if (predicting) {
        c->cs->predicted = rc == MPI_SUCCESS && op->alg && (op->alg->restrictions & R_NODE_AWARE);
        c->sp.sizes_out = c->cs->predicted ? c->cs->predicted_sizes : NULL;
    }
    if (rc != MPI_SUCCESS || !op->alg) {
        struct comm_state *cs = c->cs; /* c lives in op, which a nonblocking call frees */
        exchange_destroy(op);
        if (rc != MPI_SUCCESS)
            return raise_error(a->comm, fn, rc, msg);
        /* an interposed alltoall of predefined types: the next identical
         * call goes straight below (native.h); alltoallv's follows an
         * agreement on the sizes, or skips it while the agreed shapes stay
         * on native (online_skip_note) */
        if (!requested && a->coll == COLIBRI_ALLTOALL && predefined(a->recvtype) &&
            online_turn_native_memo(&turn))
            native_memo_note(a->coll, kind, a->comm, a->recvcount, a->recvtype, MPI_OP_NULL, 0, cs,
                             turn.s, NULL);
        cs->last[a->coll] = "native";
        stats_count(NULL, a->coll, kind);
        online_turn_clock(&turn);
        /* a tuning rule sent it below: its agreed sizes (online_skip_note) */
        const int64_t rule_sizes[3] = {before.count, before.volume_max, before.volume_min};
        const bool ruled = auto_v && select_has_rules(COLIBRI_ALLTOALLV) &&
                           select_rule_decides(COLIBRI_ALLTOALLV, &before);
        return turn_end(tcs, &turn, auto_v, ruled ? rule_sizes : NULL,
                        native_exchange(a, kind, req));
    }

    if (op->alg->restrictions & R_NODE_AWARE) {
        rc = node_segment_attach(c->cs, &c->shm);
        if (rc != MPI_SUCCESS) {
            exchange_destroy(op);
            return turn_end(tcs, &turn, auto_v, NULL,
                            raise_error(a->comm, fn, rc,
                                        "could not attach the node's shared segment"));
        }
    }
    c->dt = MPI_BYTE;
    c->dti = (struct dtinfo){1, 0, 1, 1, true};
    c->cs->last[a->coll] = op->alg->name;
    if (kind == CALL_BLOCKING && !requested && memo_shape(a) && online_turn_memo_ok(&turn, op->alg))
        memo_note(a, op, turn.s);
    if (kind == CALL_BLOCKING) {
        online_turn_clock(&turn);
        return turn_end(tcs, &turn, auto_v, NULL, op_run_blocking(op));
    }
    return kind == CALL_NONBLOCKING ? op_launch(op, req) : op_persist(op, req);
}

static int with_request(struct exchange_args *a, const char *algorithm, enum call_kind kind,
                        MPI_Request *request)
{
    if (!request)
        return raise_error(a->comm, coll_fname(a->coll, kind), MPI_ERR_REQUEST, "request is NULL");
    return run(a, algorithm, kind, request);
}

#define ALLTOALL_ARGS                                                                  \
    {                                                                                  \
        COLIBRI_ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, recvcount, \
            NULL, NULL, recvtype, comm                                                 \
    }

int colibri_alltoall(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     const char *algorithm)
{
    struct exchange_args a = ALLTOALL_ARGS;
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_ialltoall(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const char *algorithm, MPI_Request *request)
{
    struct exchange_args a = ALLTOALL_ARGS;
    return with_request(&a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_alltoall_init(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          const char *algorithm, MPI_Request *request)
{
    struct exchange_args a = ALLTOALL_ARGS;
    return with_request(&a, algorithm, CALL_PERSISTENT, request);
}

_Static_assert(sizeof(MPI_Aint) == sizeof(int64_t), "MPI_Aint is not 64-bit");
#define ALLTOALLV_ARGS                                                                   \
    {                                                                                    \
        COLIBRI_ALLTOALLV, sendbuf, 0, (const int64_t *)sendcounts,                      \
            (const int64_t *)sdispls, sendtype, recvbuf, 0, (const int64_t *)recvcounts, \
            (const int64_t *)rdispls, recvtype, comm                                     \
    }

int colibri_alltoallv(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      const char *algorithm)
{
    struct exchange_args a = ALLTOALLV_ARGS;
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_ialltoallv(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                       const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                       const char *algorithm, MPI_Request *request)
{
    struct exchange_args a = ALLTOALLV_ARGS;
    return with_request(&a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_alltoallv_init(const void *sendbuf, const MPI_Count sendcounts[],
                           const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                           const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                           MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm,
                           MPI_Request *request)
{
    struct exchange_args a = ALLTOALLV_ARGS;
    return with_request(&a, algorithm, CALL_PERSISTENT, request);
}
