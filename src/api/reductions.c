/*
 * The C API's collectives (colibri.h), which the interposed MPI_* entry
 * points also call: check, select, build the schedule, run it.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../select/select.h"
#include "../config/config.h"
#include "../kernels/sparse.h"
#include "../patterns/node_reduce.h"
#include "../runtime/native.h"
#include "../runtime/online_turn.h"
#include "../runtime/operation.h"
#include "../runtime/agree.h"
#include "bytes.h"
#include "../runtime/executor.h"
#include "../runtime/stats.h"
#include "../runtime/state/node.h"
#include "../runtime/validate.h"

/*
 * The agreed sparsity estimate that lets the selector weigh the sparse
 * algorithms (sched_params.density, .support, .span, .run_length).  Every
 * rank must pick the same algorithm, and only the rank's own input is
 * local, so the estimate is agreed: each rank profiles its input in one
 * scan (sparse_profile: present elements, cut off past a quarter, which
 * then counts as fully dense; runs; first and last position; a 128-bucket
 * sketch of the positions) and one elementwise MPI_MAX of 133 doubles
 * gives everyone the densest rank's fraction, the shortest runs, the span
 * of all present positions and the sketch of their union, all in one
 * message per round (1 KiB: the same lg p latencies as one double).  The
 * union is what tells clustered data (every rank's elements in one shared
 * region: the union stays small, whole partials stay cheap) from scattered
 * data (the union fills in, and only the halving algorithms keep each
 * element's bytes down).
 *
 * That costs a scan and lg p latencies, so an estimate serves the next
 * calls of the same (count, type, op) on the communicator (the last
 * SPARSE_SHAPES shapes of each collective are kept, so alternating shapes
 * do not estimate at every call): SPARSE_REUSE calls after one that chose
 * a sparse algorithm, and after one that found nothing to gain twice as
 * many as before, up to SPARSE_REUSE_MAX, so dense data stops paying for
 * it.  Measured on this VM at 1 MiB of doubles, the scan takes about one
 * dense SUM kernel pass over the vector at 0-1% density, 2.5 passes at 10%
 * scattered (a mispredicted branch per present element) and 0.7 on dense
 * data (it stops after a quarter): amortised over 32 calls, 3-8% of one
 * kernel pass, about 1-2% of a dense 64-rank reduction.  The agreement is
 * the larger part for short vectors: a 1 KiB allreduce against an 8 KiB
 * one.  So vectors of SPARSE_EAGER_BYTES and more are estimated at their
 * first call, those from SPARSE_AUTO_BYTES at the second call of their
 * shape (a shape used once never pays), and shorter ones never: below
 * 8 KiB the sparse algorithms gain little even on 64 ranks at 2.5 Gb/s
 * (docs/sparse.md).  A caller's hint (colibri_sparse_hint) replaces the
 * estimate (and says nothing of the shape: positions are then taken as
 * independent).
 */
#define SPARSE_AUTO_BYTES (8 * 1024)
#define SPARSE_EAGER_BYTES (64 * 1024)
#define SPARSE_REUSE 32
#define SPARSE_REUSE_MAX 1024

/* The estimate slot of this call's shape: its own, else the least recently
 * used one, emptied.  A shape's count is its size class (select/online.h,
 * as online selection's shapes): counts that drift from call to call
 * share one estimate (and its memos) where each count had its own, which
 * drifting counts never met again: below SPARSE_EAGER_BYTES no estimate
 * was ever made and no memo served them, from it every call agreed on a
 * new one. */
static struct sparse_estimate *estimate_slot(struct comm_state *cs, const struct native_args *a,
                                             int64_t n)
{
    struct sparse_estimate *slots = cs->estimate[a->coll], *lru = &slots[0];
    for (int i = 0; i < SPARSE_SHAPES; i++) {
        struct sparse_estimate *e = &slots[i];
        if (e->count && online_size_class(e->count) == online_size_class(n) && e->dt == a->dt &&
            e->op == a->op)
            return e;
        if (e->last < lru->last)
            lru = e;
    }
    *lru = (struct sparse_estimate){.count = n, .dt = a->dt, .op = a->op};
    return lru;
}

/* Sets sp's sparsity from the hint or the shape's estimate, agreeing on a
 * new one when it is due.  Returns the estimate made by this call (its
 * `uses` are set by estimate_served once the choice is known), else NULL;
 * *slot: the shape's estimate, made now or before (NULL under a hint), for
 * the memos (estimate_memo_ok). */
static struct sparse_estimate *agreed_shape(struct comm_state *cs, const struct native_args *a,
                                            const struct sparse_op *o, const void *input,
                                            int64_t n, int64_t bytes, struct sched_params *sp,
                                            struct sparse_estimate **slot)
{
    *slot = NULL;
    if (cs->density_hint > 0) {
        sp->density = cs->density_hint;
        return NULL;
    }
    struct sparse_estimate *e = estimate_slot(cs, a, n), *fresh = NULL;
    *slot = e;
    e->last = ++cs->estimate_clock;
    if (e->interval == 0 && bytes < SPARSE_EAGER_BYTES) {
        e->interval = -1; /* seen once: estimate at the next call */
        return NULL;
    }
    if (e->interval <= 0 || e->uses <= 0) {
        const int64_t cut = n / 4;
        struct sparse_profile pr;
        double v[SPARSE_AGREE];
        sparse_profile(o, input, n, cut, &pr);
        sparse_agree_values(&pr, n, cut, v);
        if (agree_max_n(cs, MPI_DOUBLE, v, SPARSE_AGREE) != MPI_SUCCESS)
            return NULL;
        struct sparse_shape sh;
        sparse_shape_of(v, n, cs->size, &sh);
        e->density = sh.density;
        e->support = sh.support;
        e->span = sh.span;
        e->run_length = sh.run_length;
        e->made = e->last;
        fresh = e;
    } else {
        e->uses--;
    }
    sp->density = e->density;
    sp->support = e->support;
    sp->span = e->span;
    sp->run_length = e->run_length;
    return fresh;
}

/* How many calls a new estimate serves, once it is known whether it made
 * the selector choose a sparse algorithm. */
static void estimate_served(struct sparse_estimate *e, bool chose_sparse)
{
    if (chose_sparse || e->interval <= 0)
        e->interval = SPARSE_REUSE;
    else if (e->interval < SPARSE_REUSE_MAX)
        e->interval *= 2;
    e->uses = e->interval;
}

/* Whether the call may run a node-aware algorithm: automatic selection,
 * or one named. */
static bool may_be_node_aware(colibri_coll coll, const char *requested)
{
    const char *name = requested ? requested : config_get()->algorithm[coll];
    if (!name || !*name || strcmp(name, "auto") == 0)
        return coll < COLIBRI_ALLTOALL || coll == COLIBRI_SCAN || coll == COLIBRI_EXSCAN;
    const struct algorithm *a = catalog_find(coll, name);
    return a && (a->restrictions & R_NODE_AWARE);
}

/* A reduction in flight: the operation and what it owns. */
struct reduction_op {
    struct coll_op op;
    struct sparse_op sparse;
    int64_t *counts; /* reduce_scatter(_block): every rank's output count */
};

/* The last nonblocking or persistent reduction freed, kept for the next
 * one: a malloc and a free of its three kilobytes were a sixth of a short
 * nonblocking call's instructions.  Exchanged atomically (an operation may
 * end on the progress thread); one, so at most that is kept. */
static struct reduction_op *spare;

static void reduction_destroy(struct coll_op *op)
{
    struct reduction_op *r = (struct reduction_op *)op;
    free(r->counts);
    if (op->kind != CALL_BLOCKING)
        free(__atomic_exchange_n(&spare, r, __ATOMIC_ACQ_REL));
}

/* A new reduction of the form `kind` with the caller's handles: the
 * blocking one in *local, the others the spare or from malloc (NULL: out
 * of memory). */
static struct reduction_op *reduction_new(const struct native_args *a, enum call_kind kind,
                                          const char *fname, struct reduction_op *local)
{
    struct reduction_op *r =
        kind == CALL_BLOCKING ? local : __atomic_exchange_n(&spare, NULL, __ATOMIC_ACQ_REL);
    if (!r)
        r = malloc(sizeof *r);
    if (!r)
        return NULL;
    op_clear(&r->op);
    r->counts = NULL;
    struct coll_op *op = &r->op;
    op->kind = kind;
    op->fname = fname;
    op->comm = a->comm;
    op->held_op = a->op;
    op->held_types[0] = a->dt;
    op->destroy = reduction_destroy;
    return r;
}

/* A predefined pair's operation holds no handle: predefined handles are
 * never freed, and asking MPI whether a datatype is derived (to pin it)
 * cost 80 instructions per nonblocking call. */
static void hold_nothing(struct coll_op *op)
{
    op->held_op = MPI_OP_NULL;
    op->held_types[0] = MPI_DATATYPE_NULL;
}

/* The call's buffers into its prepared call: MPI_IN_PLACE's input is the
 * output buffer. */
static void set_buffers(struct coll_call *c, const struct native_args *a)
{
    c->sendbuf = c->sp.in_place ? a->recvbuf : a->sendbuf;
    c->recvbuf = a->recvbuf;
}

/*
 * The call memo.  A repeated short allreduce whose automatic choice is a
 * colibri schedule cost about 2300 instructions, Open MPI's own 240
 * (docs/tuning.md): validation, the communicator's state (an MPI
 * attribute), the pair's facts, the node layout, selection (its own memo),
 * the schedule cache's hash lookup under a lock, and clearing a kilobyte
 * of operation.  All of that gives the same prepared call (struct
 * coll_call and algorithm) for the same (collective, form, communicator,
 * count, datatype, operation, root, MPI_IN_PLACE) as long as nothing it
 * read has changed.  So the last such calls are remembered per thread (no
 * lock), and an identical one validates its arguments (buffers included:
 * validate_call, as the full path does) and runs the remembered call
 * with its own buffers, finding the cached schedule through the hint
 * (comm_schedule_again: a stamp comparison, no hash).
 *
 * What the prepared call depends on, and why a memo cannot go stale:
 *  - the configuration and the tuning file: read again only at a reload,
 *    which changes config generation, part of the key;
 *  - the communicator handle, its state and node layout: valid until a
 *    communicator with colibri state is freed (the handle may then name
 *    another) or a sparse hint is given (the choice may change), both
 *    counted by comm_state_epoch, part of the key;
 *  - the datatype and operation: only predefined pairs with a colibri
 *    kernel are remembered, and predefined handles are never freed, so a
 *    freed and recreated user operation or derived datatype that gets an
 *    old handle back always takes the full path;
 *  - the node-aware reductions' segment (c.shm): the communicator's own,
 *    of a fixed size, mapped at its first use and unmapped with its state;
 *  - the sparse estimate (blocking automatic calls of 8 KiB and more,
 *    below): the memo serves a call while the estimate its choice read
 *    stands and has calls left, and counts the call in it as the full path
 *    would (estimate_memo_ok, estimate_memo_take); per-rank count vectors
 *    (reduce_scatter(_block)) are not remembered,
 *    persistent calls (their own schedule) and calls naming an algorithm;
 *  - the schedule: the hint is checked against the cache's drop count,
 *    and a dynamic or uncached schedule is looked up or built every time.
 */
struct call_memo {
    colibri_coll coll; /* allreduce or reduce */
    enum call_kind kind;
    MPI_Comm comm;
    int64_t count;
    MPI_Datatype dt;
    MPI_Op op;
    int root;
    bool in_place;
    unsigned generation, epoch;
    const struct algorithm *alg; /* NULL: an empty slot */
    bool running;                /* a blocking run on `c` is under way */
    struct coll_call c;          /* c.sp.sparse points at `sparse` */
    struct sparse_op sparse;
    struct sched_hint hint;
    /* the online shape (select/online.h) whose settled winner, or
     * exploring candidate, the call ran, and its stamp then (NULL: online
     * selection did not serve it) */
    struct online_shape *shape;
    unsigned stamp;
    /* a nonblocking call's: its communicator's online table's version
     * then (select/online.h, online_reuse; NULL: a blocking call's) */
    const unsigned *version;
    unsigned version_at;
    /* the sparse estimate whose density the choice read, and when it was
     * made (NULL: none; estimate_memo_ok) */
    struct sparse_estimate *est;
    unsigned est_made;
};
#define CALL_MEMO_SLOTS 4 /* memo_slot's 2 bits */
static _Thread_local struct call_memo call_memo[CALL_MEMO_SLOTS];

static struct call_memo *memo_slot(const struct native_args *a, enum call_kind kind)
{
    /* (the index was once the key's low bits xored, where the collective
     * and form gave none: an allreduce and a reduce of one count on one
     * communicator, in turn, each missed) */
    return &call_memo[memo_index((uint64_t)a->count, a->comm,
                                 (int)a->coll * CALL_KINDS + (int)kind + 1, 2)];
}

/* *timed: the call explores its online shape (online_turn_memo_pass):
 * end it with online_turn_memo_end. */
static struct call_memo *memo_find(const struct native_args *a, enum call_kind kind, bool *timed)
{
    struct call_memo *m = memo_slot(a, kind);
    if (!m->alg || m->running || m->comm != a->comm || m->count != a->count ||
        m->coll != a->coll || m->kind != kind || m->dt != a->dt || m->op != a->op ||
        m->root != a->root || m->in_place != (a->sendbuf == MPI_IN_PLACE) ||
        m->epoch != __atomic_load_n(&comm_state_epoch, __ATOMIC_RELAXED) ||
        m->generation != config_get()->generation ||
        (m->version && *m->version != m->version_at) || !estimate_memo_ok(m->est, m->est_made))
        return NULL;
    const int pass = online_turn_memo_pass(m->c.cs, m->shape, m->stamp, m->alg); /* last: they count */
    *timed = pass == 2;
    if (!pass)
        return NULL;
    estimate_memo_take(m->c.cs, m->est);
    return m;
}

/* Remembers the call that r prepares (its conditions: above) and gives
 * it the memo's schedule hint; `shape`: the online shape that ran it
 * (settled on it, or exploring it: online_turn_memo_ok). */
static void memo_note(const struct native_args *a, struct reduction_op *r,
                      struct online_shape *shape, struct sparse_estimate *est)
{
    struct coll_op *op = &r->op;
    struct call_memo *m = memo_slot(a, op->kind);
    if (m->running) /* a call made while one runs (an error handler's) */
        return;
    *m = (struct call_memo){a->coll, op->kind, a->comm, a->count, a->dt, a->op, a->root,
                            op->c.sp.in_place, config_get()->generation,
                            __atomic_load_n(&comm_state_epoch, __ATOMIC_RELAXED), op->alg, false,
                            op->c, r->sparse, {NULL, 0}, shape, shape ? shape->stamp : 0,
                            op->kind != CALL_BLOCKING ? &op->c.cs->online.version : NULL,
                            op->c.cs->online.version, est, est ? est->made : 0};
    m->c.sp.sparse = op->c.sp.sparse ? &m->sparse : NULL;
    op->hint = &m->hint;
}

/* An identical call again (memo_find), in its form; returns -1, nothing
 * done, when its arguments are not valid: the full path then reports
 * them. */
static int memo_run(struct call_memo *m, const struct native_args *a, const char *fname,
                    MPI_Request *req)
{
    struct call_args v = {a->coll, a->sendbuf, a->recvbuf, a->count, NULL, a->dt, a->op,
                          a->root, m->c.sp.rank, m->c.sp.size};
    char msg[160];
    if (validate_call(&v, msg, sizeof msg) != MPI_SUCCESS)
        return -1;
    m->c.cs->last[a->coll] = m->alg->name;
    if (m->kind == CALL_BLOCKING) {
        /* run on the memo itself (no copy of half a kilobyte), which no
         * call made meanwhile may take over */
        set_buffers(&m->c, a);
        m->running = true;
        const int rc = op_rerun_blocking(&m->c, m->alg, &m->hint, a->comm, fname);
        m->running = false;
        return rc;
    }
    struct reduction_op *r = reduction_new(a, m->kind, fname, NULL);
    if (!r)
        return raise_error(a->comm, fname, MPI_ERR_NO_MEM, "out of memory");
    hold_nothing(&r->op);
    r->op.c = m->c;
    r->op.alg = m->alg;
    r->sparse = m->sparse;
    r->op.c.sp.sparse = m->c.sp.sparse ? &r->sparse : NULL;
    r->op.hint = &m->hint;
    set_buffers(&r->op.c, a);
    return op_launch(&r->op, req);
}

/*
 * What a call needs of its (operation, datatype) pair: commutativity, type
 * size and extents, the local kernel, the sparse form of the operation.
 * Looking these up (five MPI queries, the kernel tables, the neutral
 * element) was a tenth of a short allreduce's time.  A predefined pair's
 * facts never change, so the last such pair is remembered per thread; a
 * derived type or user operation is looked up every time (its handle may
 * be freed and reused for another).
 */
struct pair_facts {
    MPI_Op op;
    MPI_Datatype dt;
    int commutative, tsize, dti_rc;
    struct dtinfo dti;
    colibri_kernel kernel;
    bool sparse_ok;
    struct sparse_op sparse;
    bool native_ok; /* the MPI below reduces the pair as colibri does (native.h) */
};
static _Thread_local struct pair_facts last_pair;

static const struct pair_facts *pair_facts(MPI_Op op, MPI_Datatype dt, struct pair_facts *f)
{
    if (last_pair.kernel && last_pair.op == op && last_pair.dt == dt)
        return &last_pair;
    f->op = op;
    f->dt = dt;
    f->commutative = 1;
    PMPI_Op_commutative(op, &f->commutative);
    PMPI_Type_size(dt, &f->tsize);
    f->dti_rc = dtinfo_init(dt, &f->dti);
    f->kernel = kernel_lookup(op, dt);
    f->sparse_ok = kernel_sparse_op(op, dt, &f->sparse);
    f->native_ok = f->dti_rc != MPI_SUCCESS ||
                   native_pair_agrees(op, dt, f->kernel, (int)f->dti.extent);
    if (f->kernel)
        last_pair = *f;
    return f;
}

/*
 * A predefined operation colibri has no kernel for on this datatype
 * (validate.h: pair_goes_native) is the MPI below's whole call, in the
 * form asked for, whichever algorithm is named: like an intercommunicator,
 * it is not something any of colibri's algorithms could run, and the MPI
 * either serves it or reports its own error exactly as without colibri.
 * A named algorithm still has to exist (a typo is an error on every pair),
 * colibri_last_algorithm says "native" and COLIBRI_STATS counts it as
 * native.  An MPI-3 library has no persistent collectives to hand
 * colibri_*_init to: that is an error, said so.
 */
static int pair_to_native(struct native_args *a, const char *requested, enum call_kind kind,
                          MPI_Request *req, const char *fname)
{
    char msg[640], pair[160];
    pair_describe(a->op, a->dt, pair, sizeof pair);
    const char *name = requested ? requested : config_get()->algorithm[a->coll];
    if (name && *name && strcmp(name, "auto") != 0 && strcmp(name, "native") != 0 &&
        !catalog_find(a->coll, name)) {
        char names[512];
        snprintf(msg, sizeof msg, "unknown %s algorithm '%s' (valid: %s, auto, native)",
                 colibri_coll_name(a->coll), name, catalog_names(a->coll, names, sizeof names));
        return raise_error(a->comm, fname, MPI_ERR_ARG, msg);
    }
#if MPI_VERSION < 4
    if (kind == CALL_PERSISTENT) {
        snprintf(msg, sizeof msg,
                 "colibri has no kernel for %s, and this MPI (MPI-%d) has no persistent "
                 "collective to hand it to", pair, MPI_VERSION);
        return raise_error(a->comm, fname, MPI_ERR_UNSUPPORTED_OPERATION, msg);
    }
#endif
    struct comm_state *cs;
    if (comm_state_get(a->comm, &cs) == MPI_SUCCESS)
        cs->last[a->coll] = "native";
    stats_count(NULL, a->coll, kind);
    const int rc = native_call(a, kind, req);
    if (rc != MPI_SUCCESS) {
        /* the MPI has reported it through the handler, which returned: one
         * line saying who refused what, as colibri's own errors have */
        int cls = rc, n = 0;
        char what[MPI_MAX_ERROR_STRING] = "";
        PMPI_Error_class(rc, &cls);
        PMPI_Error_string(cls, what, &n);
        fprintf(stderr, "colibri: %s: %s went to the MPI below (colibri has no kernel for it), "
                        "which refused it: %s\n", fname, pair, what);
    }
    return rc;
}

/* A call with no element anywhere (every rank's counts are the same). */
static bool nothing_to_reduce(const struct native_args *a, int size)
{
    if (a->coll != COLIBRI_REDUCE_SCATTER)
        return a->count == 0;
    for (int i = 0; i < size; i++)
        if (a->counts[i])
            return false;
    return true;
}

/* MPI_Scan and MPI_Exscan are not defined on an intercommunicator (MPI-4
 * 6.11): colibri says so itself, as MPI_ERR_COMM (Open MPI 4.1's and
 * MPICH's class for MPI_Scan there), rather than hand it below: Open MPI
 * 4.1's MPI_Exscan crashes on one (a NULL function pointer). */
static bool prefix_on_intercomm(colibri_coll coll, MPI_Comm comm)
{
    int inter = 0;
    return (coll == COLIBRI_SCAN || coll == COLIBRI_EXSCAN) && comm != MPI_COMM_NULL &&
           PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter;
}

static int run(struct native_args *a, const char *requested, enum call_kind kind,
               MPI_Request *req)
{
    const char *fname = coll_fname(a->coll, kind);
    if (req)
        *req = MPI_REQUEST_NULL;
    bool timed = false;
    struct call_memo *m = requested ? NULL : memo_find(a, kind, &timed);
    if (m) {
        const int rc = memo_run(m, a, fname, req);
        if (timed) /* counted in its shape: invalid arguments end it untimed */
            online_turn_memo_end(rc >= 0 ? rc : MPI_ERR_ARG);
        if (rc >= 0)
            return rc;
    }
    /* the full path: a colibri candidate of online selection is charged
     * from here (a memo's call is charged from the memo's entry) */
    const double entry = online_turn_entry(kind);
    if (prefix_on_intercomm(a->coll, a->comm))
        return raise_error(a->comm, fname, MPI_ERR_COMM,
                           "scan and exscan are not defined on an intercommunicator");
    if (comm_passes_through(a->comm)) /* the MPI below reports or handles it */
        return native_call(a, kind, req);

    struct call_args v = {a->coll, a->sendbuf, a->recvbuf, a->count, a->counts, a->dt, a->op,
                          a->root, 0, 0};
    PMPI_Comm_rank(a->comm, &v.rank);
    PMPI_Comm_size(a->comm, &v.size);
    char msg[640];
    int rc = validate_call(&v, msg, sizeof msg);
    if (rc != MPI_SUCCESS)
        return raise_error(a->comm, fname, rc, msg);
    /* valid, automatic, no element anywhere: nothing runs (a nonblocking
     * call gets a request already complete); remembered where the entry
     * point looks an identical call up */
    if (kind != CALL_PERSISTENT && nothing_to_reduce(a, v.size) &&
        select_names_auto(a->coll, requested)) {
        const int root = a->coll == COLIBRI_REDUCE ? a->root : 0;
        return kind == CALL_BLOCKING
                   ? nothing_ran(a->comm, a->coll,
                                 !requested && a->coll != COLIBRI_REDUCE_SCATTER &&
                                     predefined(a->dt),
                                 a->count, a->dt, a->op, root)
                   : nothing_started(a->comm, a->coll,
                                     !requested && predefined(a->dt) &&
                                         (a->coll == COLIBRI_ALLREDUCE ||
                                          a->coll == COLIBRI_REDUCE ||
                                          a->coll == COLIBRI_REDUCE_SCATTER_BLOCK),
                                     a->count, a->dt, a->op, root, req);
    }
    if (pair_goes_native(a->op, a->dt))
        return pair_to_native(a, requested, kind, req, fname);

    struct pair_facts looked_up;
    const struct pair_facts *pf = pair_facts(a->op, a->dt, &looked_up);
    const int tsize = pf->tsize;

    /* The blocking call lives on the stack. */
    struct reduction_op local, *r = reduction_new(a, kind, fname, &local);
    if (!r)
        return raise_error(a->comm, fname, MPI_ERR_NO_MEM, "out of memory");
    struct coll_op *op = &r->op;
    if (pf->kernel) /* a kernel exists for predefined pairs only */
        hold_nothing(op);
    struct coll_call *c = &op->c;
    c->coll = a->coll;
    c->dt = a->dt;
    c->sp.rank = v.rank;
    c->sp.size = v.size;
    c->sp.root = a->coll == COLIBRI_REDUCE ? a->root : 0;
    c->sp.count = a->count;
    c->sp.elem_size = (size_t)tsize;
    c->sp.in_place = a->sendbuf == MPI_IN_PLACE;
    c->sp.commutative = pf->commutative != 0;
    c->sp.nonblocking = kind != CALL_BLOCKING;
    /* the state's first creation is collective: every path takes it here */
    const int state_rc = comm_state_get(a->comm, &c->cs);
    /* Tuning knobs; every rank must see the same values, as with any MPI
     * tuning variable. */
    const struct config *cfg = config_get();
    c->sp.radix = (int)cfg->radix;
    c->sp.segment = tsize > 0 ? cfg->segment_bytes / tsize : 0;

    /* Sparse reductions need the op's neutral element; an automatic choice
     * also needs the agreed density, for long enough vectors only.  A
     * nonblocking or persistent call never agrees on it (that would block
     * on the other ranks at the call, and a persistent one's data changes
     * between starts): it uses the caller's hint, if any. */
    const bool sparse_ok = a->coll < COLIBRI_ALLTOALL && pf->sparse_ok;
    struct sparse_estimate *fresh = NULL;
    struct sparse_estimate *est = NULL; /* the shape's sparse estimate that served this call */
    if (sparse_ok) {
        r->sparse = pf->sparse;
        c->sp.sparse = &r->sparse;
        const char *name = requested ? requested : cfg->algorithm[a->coll];
        const void *input = c->sp.in_place ? a->recvbuf : a->sendbuf;
        int64_t n = a->coll == COLIBRI_REDUCE_SCATTER_BLOCK ? a->count * v.size : a->count;
        if (a->coll == COLIBRI_REDUCE_SCATTER)
            for (int i = 0; i < v.size; i++)
                n += a->counts[i];
        const int64_t bytes = n * (int64_t)tsize;
        if (state_rc != MPI_SUCCESS) {
            c->sp.density = 0;
        } else if (kind != CALL_BLOCKING) {
            c->sp.density = c->cs->density_hint;
        } else if ((!name || !*name || strcmp(name, "auto") == 0) &&
                   bytes >= SPARSE_AUTO_BYTES) {
            fresh = agreed_shape(c->cs, a, &r->sparse, input, n, bytes, &c->sp, &est);
        }
    }

    if (a->coll == COLIBRI_REDUCE_SCATTER_BLOCK || a->coll == COLIBRI_REDUCE_SCATTER) {
        /* reduce_scatter's own vector may be the caller's temporary (the
         * int entry point's widened copy): an operation that outlives the
         * call keeps a copy. */
        r->counts = malloc((size_t)v.size * sizeof *r->counts);
        if (!r->counts) {
            reduction_destroy(op);
            return raise_error(a->comm, fname, MPI_ERR_NO_MEM, "out of memory");
        }
        for (int i = 0; i < v.size; i++)
            r->counts[i] = a->coll == COLIBRI_REDUCE_SCATTER ? a->counts[i] : a->count;
        c->sp.counts = r->counts;
    }

    /* Node-aware algorithms need the node layout (once per group; lazily
     * predicted, no message) and the chunk of the node's reduction segment
     * that this type allows; tuning rules for a node shape match only a
     * known layout (select.h). */
    const bool node_aware = may_be_node_aware(a->coll, requested);
    if (state_rc == MPI_SUCCESS && pf->dti_rc == MPI_SUCCESS &&
        (node_aware || select_wants_layout(a->coll))) {
        const struct node_layout *l;
        rc = node_layout_get(c->cs, &l);
        if (rc != MPI_SUCCESS) {
            reduction_destroy(op);
            return raise_error(a->comm, fname, rc, "could not determine the node layout");
        }
        const MPI_Aint over = pf->dti.true_extent - pf->dti.extent;
        c->sp.layout = l;
        if (node_aware)
            c->sp.node_chunk = node_call_chunk(cfg->node_shm_bytes, NODE_SLOTS,
                                               c->cs->grp->layout_max_ranks,
                                               c->cs->grp->chunk_bytes, pf->dti.extent, over);
    }

    const struct sched_params before = c->sp;
    rc = select_algorithm(a->coll, &c->sp, requested, &op->alg, msg, sizeof msg);
    if (fresh)
        estimate_served(fresh, rc == MPI_SUCCESS && op->alg &&
                                   (op->alg->restrictions & R_NEUTRAL));
    if (rc != MPI_SUCCESS) {
        reduction_destroy(op);
        return raise_error(a->comm, fname, rc, msg);
    }
    /* Online selection (runtime/online_turn.h): from here on every return
     * goes through online_turn_end, so that every rank reaches its shape's
     * agreement at the same call. */
    struct online_turn turn = {NULL};
    turn.entry = entry;
    if (state_rc == MPI_SUCCESS)
        online_turn_begin(c->cs, a->coll, kind, requested, pf->native_ok, &before, &c->sp,
                          &op->alg, &turn);
    struct comm_state *const tcs = c->cs; /* c lives in op, which a run may free */
    if (!op->alg) {
        struct comm_state *cs = c->cs; /* c lives in op, which a nonblocking call frees */
        reduction_destroy(op);
        /* an interposed call (requested NULL) with a predefined pair
         * (kernel): the next identical one goes straight below (native.h),
         * while the sparse estimate its choice read stands */
        if (state_rc == MPI_SUCCESS && !requested && pf->kernel &&
            online_turn_native_memo(&turn)) {
            int64_t key = a->count;
            int root = a->coll == COLIBRI_REDUCE ? a->root : 0;
            if (a->coll == COLIBRI_REDUCE_SCATTER)
                REDUCE_SCATTER_MEMO_KEY(a->counts, v.size, key, root);
            native_memo_note(a->coll, kind, a->comm, key, a->dt, a->op, root, cs, turn.s, est);
        }
        if (state_rc == MPI_SUCCESS)
            cs->last[a->coll] = "native";
        stats_count(NULL, a->coll, kind);
        online_turn_clock(&turn);
        return online_turn_end(tcs, &turn, native_call(a, kind, req));
    }

    rc = state_rc != MPI_SUCCESS ? state_rc : pf->dti_rc;
    c->dti = pf->dti;
    if (rc != MPI_SUCCESS) {
        reduction_destroy(op);
        return online_turn_end(tcs, &turn, raise_error(a->comm, fname, rc,
                                                       "could not set up the communicator"));
    }
    if (op->alg->restrictions & R_NODE_AWARE) {
        rc = node_reduction_attach(c->cs, &c->shm);
        if (rc != MPI_SUCCESS) {
            reduction_destroy(op);
            return online_turn_end(tcs, &turn,
                                   raise_error(a->comm, fname, rc,
                                               "could not attach the node's reduction segment"));
        }
        /* element 0 of the data area holds the type's first byte */
        c->shm.base = (char *)c->shm.base - c->dti.true_lb;
    }
    if (sparse_ok)
        r->sparse.bytes_saved = &c->cs->sparse_saved;
    set_buffers(c, a);
    c->red.op = a->op;
    c->red.dt = a->dt;
    c->red.commutative = c->sp.commutative;
    c->red.kernel = pf->kernel;
    c->cs->last[a->coll] = op->alg->name;
    /* the memo's conditions (above call_memo) */
    if (!requested && kind != CALL_PERSISTENT && a->coll <= COLIBRI_REDUCE && pf->kernel &&
        online_turn_memo_ok(&turn, op->alg))
        memo_note(a, r, turn.s, est);
    if (kind == CALL_BLOCKING) {
        online_turn_clock(&turn);
        return online_turn_end(tcs, &turn, op_run_blocking(op));
    }
    return kind == CALL_NONBLOCKING ? op_launch(op, req) : op_persist(op, req);
}

/* Each collective in its three forms: blocking, nonblocking (request in
 * *request) and persistent (an inactive request for MPI_Start). */
static int with_request(struct native_args a, const char *algorithm, enum call_kind kind,
                        MPI_Request *request)
{
    if (!request)
        return raise_error(a.comm, coll_fname(a.coll, kind), MPI_ERR_REQUEST, "request is NULL");
    return run(&a, algorithm, kind, request);
}

int colibri_allreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, const char *algorithm)
{
    struct native_args a = {COLIBRI_ALLREDUCE, sendbuf, recvbuf, count, NULL, datatype, op, 0, comm};
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_iallreduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    struct native_args a = {COLIBRI_ALLREDUCE, sendbuf, recvbuf, count, NULL, datatype, op, 0, comm};
    return with_request(a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_allreduce_init(const void *sendbuf, void *recvbuf, MPI_Count count,
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *algorithm,
                           MPI_Request *request)
{
    struct native_args a = {COLIBRI_ALLREDUCE, sendbuf, recvbuf, count, NULL, datatype, op, 0, comm};
    return with_request(a, algorithm, CALL_PERSISTENT, request);
}

int colibri_reduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, const char *algorithm)
{
    struct native_args a = {COLIBRI_REDUCE, sendbuf, recvbuf, count, NULL, datatype, op, root, comm};
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_ireduce(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm, const char *algorithm,
                    MPI_Request *request)
{
    struct native_args a = {COLIBRI_REDUCE, sendbuf, recvbuf, count, NULL, datatype, op, root, comm};
    return with_request(a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_reduce_init(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                        MPI_Op op, int root, MPI_Comm comm, const char *algorithm,
                        MPI_Request *request)
{
    struct native_args a = {COLIBRI_REDUCE, sendbuf, recvbuf, count, NULL, datatype, op, root, comm};
    return with_request(a, algorithm, CALL_PERSISTENT, request);
}

int colibri_reduce_scatter_block(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 const char *algorithm)
{
    struct native_args a = {COLIBRI_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                            datatype, op, 0, comm};
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_ireduce_scatter_block(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  const char *algorithm, MPI_Request *request)
{
    struct native_args a = {COLIBRI_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                            datatype, op, 0, comm};
    return with_request(a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      const char *algorithm, MPI_Request *request)
{
    struct native_args a = {COLIBRI_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL,
                            datatype, op, 0, comm};
    return with_request(a, algorithm, CALL_PERSISTENT, request);
}

/* MPI_Count is a 64-bit integer on every MPI colibri supports. */
_Static_assert(sizeof(MPI_Count) == sizeof(int64_t), "MPI_Count is not 64-bit");

int colibri_reduce_scatter(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *algorithm)
{
    struct native_args a = {COLIBRI_REDUCE_SCATTER, sendbuf, recvbuf, 0,
                            (const int64_t *)recvcounts, datatype, op, 0, comm};
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_ireduce_scatter(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                            const char *algorithm, MPI_Request *request)
{
    struct native_args a = {COLIBRI_REDUCE_SCATTER, sendbuf, recvbuf, 0,
                            (const int64_t *)recvcounts, datatype, op, 0, comm};
    return with_request(a, algorithm, CALL_NONBLOCKING, request);
}

int colibri_reduce_scatter_init(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                const char *algorithm, MPI_Request *request)
{
    struct native_args a = {COLIBRI_REDUCE_SCATTER, sendbuf, recvbuf, 0,
                            (const int64_t *)recvcounts, datatype, op, 0, comm};
    return with_request(a, algorithm, CALL_PERSISTENT, request);
}

int colibri_op_neutral(MPI_Op op, MPI_Datatype datatype, const void *neutral)
{
    const char *why = NULL;
    int rc = kernel_set_neutral(op, datatype, neutral, &why);
    return rc == MPI_SUCCESS ? rc : raise_error(MPI_COMM_SELF, "colibri_op_neutral", rc, why);
}

int colibri_sparse_hint(MPI_Comm comm, double density)
{
    struct comm_state *cs;
    int rc = comm_state_get(comm, &cs);
    if (rc != MPI_SUCCESS)
        return rc;
    cs->density_hint = density > 0 ? (density < 1 ? density : 1) : 0;
    __atomic_add_fetch(&comm_state_epoch, 1, __ATOMIC_RELAXED); /* choices may change */
    /* the caller says the data changed: estimate afresh on the next call */
    memset(cs->estimate, 0, sizeof cs->estimate);
    return MPI_SUCCESS;
}

long long colibri_sparse_bytes_saved(MPI_Comm comm)
{
    struct comm_state *cs = comm_state_find(comm);
    return cs ? cs->sparse_saved : 0;
}

/* The prefix reductions (MPI_Scan, MPI_Exscan): the reductions' path, with
 * every rank's output of `count` elements.  An exscan leaves rank 0's
 * receive buffer untouched (MPI leaves it undefined). */
#define SCAN_ARGS(coll) {coll, sendbuf, recvbuf, count, NULL, datatype, op, 0, comm}

int colibri_scan(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, const char *algorithm)
{
    struct native_args a = SCAN_ARGS(COLIBRI_SCAN);
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_iscan(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    return with_request((struct native_args)SCAN_ARGS(COLIBRI_SCAN), algorithm, CALL_NONBLOCKING,
                        request);
}

int colibri_scan_init(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    return with_request((struct native_args)SCAN_ARGS(COLIBRI_SCAN), algorithm, CALL_PERSISTENT,
                        request);
}

int colibri_exscan(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, const char *algorithm)
{
    struct native_args a = SCAN_ARGS(COLIBRI_EXSCAN);
    return run(&a, algorithm, CALL_BLOCKING, NULL);
}

int colibri_iexscan(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, const char *algorithm, MPI_Request *request)
{
    return with_request((struct native_args)SCAN_ARGS(COLIBRI_EXSCAN), algorithm,
                        CALL_NONBLOCKING, request);
}

int colibri_exscan_init(const void *sendbuf, void *recvbuf, MPI_Count count,
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const char *algorithm,
                        MPI_Request *request)
{
    return with_request((struct native_args)SCAN_ARGS(COLIBRI_EXSCAN), algorithm,
                        CALL_PERSISTENT, request);
}
