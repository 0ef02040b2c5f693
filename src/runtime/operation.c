/*
 * The life of a collective operation (operation.h): blocking run, nonblocking
 * launch with a generalized request, persistent requests, and the progress
 * pass that advances every running operation.
 */
#include "state/engines.h"
#include "handles.h"
#include "operation.h"
#include "progress.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>

#include "../select/catalog.h"
#include "state/setup.h"
#include "stats.h"
#include "validate.h"

/* Running operations, and persistent ones (running or not).  A recursive
 * lock: MPI_Grequest_complete, called with it held, may call free_fn,
 * which takes it too.  It guards them against other threads only, so it is
 * taken only where another thread can be inside colibri at once
 * (setup_threads: MPI_THREAD_MULTIPLE, the progress thread's level): a
 * nonblocking call took it three times, 300 instructions. */
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
/* Inside, the MPI's progress hook does not re-enter colibri's engine
 * (engines.h): the MPI calls made here see operations half changed. */
static void ops_lock(void)
{
    engines_enter();
    if (setup_threads())
        pthread_mutex_lock(&lock);
}
static void ops_unlock(void)
{
    if (setup_threads())
        pthread_mutex_unlock(&lock);
    engines_leave();
}
/* False when another thread holds the lock. */
static bool ops_trylock(void)
{
    if (setup_threads() && pthread_mutex_trylock(&lock) != 0)
        return false;
    engines_enter();
    return true;
}
static struct coll_op *running;
static int n_running;
static struct coll_op **persistent;
static int n_persistent, cap_persistent;
/* Persistent requests are receives on this duplicate of MPI_COMM_SELF,
 * each with its own tag. */
static MPI_Comm self = MPI_COMM_NULL;
static int next_self_tag;

/* SimGrid SMPI 3.32 mishandles generalized requests in MPI_Testall and
 * MPI_Testany (they stay active): there nonblocking calls get a receive on
 * the self communicator too, an MPI_Irecv, and errors go to the
 * communicator's error handler when the run ends instead of to MPI_Wait. */
#ifdef SMPI_H
#define NONBLOCKING_SELF_RECEIVE 1
#else
#define NONBLOCKING_SELF_RECEIVE 0
#endif

/* Creates the self communicator on first use and picks op's tag on it;
 * call with the lock held. */
static int self_channel(struct coll_op *op)
{
    int rc = self == MPI_COMM_NULL ? PMPI_Comm_dup(MPI_COMM_SELF, &self) : MPI_SUCCESS;
    /* tags 0..32766 are valid everywhere (MPI_TAG_UB >= 32767) */
    op->self_tag = next_self_tag;
    next_self_tag = (next_self_tag + 1) % 32767;
    return rc;
}

bool nbc_busy(void)
{
    return __atomic_load_n(&n_running, __ATOMIC_ACQUIRE) > 0;
}

static void link_running(struct coll_op *op)
{
    if (op->c.cs)
        __atomic_add_fetch(&op->c.cs->running, 1, __ATOMIC_RELEASE);
    op->prev = NULL;
    op->next = running;
    if (running)
        running->prev = op;
    running = op;
    __atomic_add_fetch(&n_running, 1, __ATOMIC_RELEASE);
}

static void unlink_running(struct coll_op *op)
{
    if (op->c.cs)
        __atomic_sub_fetch(&op->c.cs->running, 1, __ATOMIC_RELEASE);
    if (op->prev)
        op->prev->next = op->next;
    else
        running = op->next;
    if (op->next)
        op->next->prev = op->prev;
    __atomic_sub_fetch(&n_running, 1, __ATOMIC_RELEASE);
}

/* A nonblocking or persistent operation outlives its call: what it was
 * given stays alive until op_free, whatever the program frees meanwhile. */
static void op_pin(struct coll_op *op)
{
    comm_state_pin(op->c.cs);
    handle_pin_op(op->held_op);
    for (int i = 0; i < 2; i++)
        handle_pin_type(op->held_types[i]);
    op->pinned = true;
}

static void op_free(struct coll_op *op)
{
    exec_release(&op->x);
    sched_free(&op->own);
    sched_free(&op->pre_s);
    const bool pinned = op->pinned;
    struct comm_state *cs = op->c.cs;
    const MPI_Op held_op = op->held_op;
    const MPI_Datatype t0 = op->held_types[0], t1 = op->held_types[1];
    op->destroy(op);
    if (pinned) {
        handle_unpin_type(t1);
        handle_unpin_type(t0);
        handle_unpin_op(held_op);
        comm_state_unpin(cs);
    }
}

/* Where a finished operation reports an error: the caller's communicator,
 * or, once the program has freed it, colibri's duplicate of it (same group
 * and the error handler it had when colibri first used it). */
static MPI_Comm error_comm(const struct coll_op *op)
{
    return op->c.cs && op->c.cs->orphaned ? op->c.cs->comm : op->comm;
}

/* The run's local end: the collective's epilogue, statistics. */
static int op_epilogue(struct coll_op *op, int rc)
{
    if (op->after)
        rc = op->after(op, rc);
    if (rc == MPI_SUCCESS)
        stats_count(op->alg, op->c.coll, op->kind);
    return rc;
}

void op_clear(struct coll_op *op)
{
    memset(op, 0, offsetof(struct coll_op, pre));
    op->held_op = MPI_OP_NULL;
    op->held_types[0] = op->held_types[1] = MPI_DATATYPE_NULL;
    exec_init(&op->x);
}

/* The call's schedule, pinned: through the hint when it still holds,
 * else looked up (or built), the hint then updated. */
static struct schedule *op_schedule(struct coll_call *c, const struct algorithm *alg,
                                    struct sched_hint *h)
{
    struct schedule *s = h && h->s ? comm_schedule_again(h->s, h->stamp) : NULL;
    if (s)
        return s;
    uint64_t stamp = 0;
    s = comm_cached_schedule(c->cs, c->coll, alg, &c->sp, &stamp);
    if (h)
        *h = (struct sched_hint){s != &c->cs->scratch ? s : NULL, stamp};
    return s;
}

/* A blocking run on the call's schedule, to completion. */
static int run_to_end(struct coll_call *c, const struct algorithm *alg, struct sched_hint *h)
{
    struct schedule *s = op_schedule(c, alg, h);
    int rc = s ? exec_run(c, s) : MPI_ERR_NO_MEM;
    comm_release_schedule(c->cs, s);
    return rc;
}

static int blocking_result(MPI_Comm comm, const char *fname, int rc)
{
    if (rc != MPI_SUCCESS)
        return raise_error(comm, fname, rc, "communication failed inside the collective");
    return MPI_SUCCESS;
}

int op_run_blocking(struct coll_op *op)
{
    int rc = op->before ? op->before(op) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS)
        rc = run_to_end(&op->c, op->alg, op->hint);
    rc = op_epilogue(op, rc);
    if (op->destroy)
        op->destroy(op);
    return blocking_result(op->comm, op->fname, rc);
}

int op_rerun_blocking(struct coll_call *c, const struct algorithm *alg, struct sched_hint *hint,
                      MPI_Comm comm, const char *fname)
{
    const int rc = run_to_end(c, alg, hint);
    if (rc == MPI_SUCCESS)
        stats_count(alg, c->coll, CALL_BLOCKING);
    return blocking_result(comm, fname, rc);
}

int op_build(struct coll_op *op)
{
    sched_reset(&op->own);
    if (op->alg->build(&op->c.sp, &op->own) != 0 || op->own.oom)
        return MPI_ERR_NO_MEM;
    return MPI_SUCCESS;
}

/* A nonblocking run's schedule (operation.h): the cached one, or the
 * communicator's scratch taken over as the operation's own. */
static int op_take_schedule(struct coll_op *op)
{
    struct comm_state *cs = op->c.cs;
    struct schedule *s = op_schedule(&op->c, op->alg, op->hint);
    op->hint = NULL; /* the driver's memo: valid during its call only */
    if (!s)
        return MPI_ERR_NO_MEM;
    if (s == &cs->scratch) {
        sched_free(&op->own);
        op->own = cs->scratch;
        sched_init(&cs->scratch);
    } else {
        op->cached = s;
    }
    return MPI_SUCCESS;
}

/* The run finished (or failed): tell the application's request.  Called
 * with the lock held and `op` already off the running list; `op` may be
 * freed on return. */
static void op_finished(struct coll_op *op, int rc)
{
    /* unpinned now: the communicator may be freed before the request */
    comm_release_schedule(op->c.cs, op->cached);
    op->cached = NULL;
    op->rc = op_epilogue(op, rc);
    op->running = false;
    if (op->kind == CALL_PERSISTENT || NONBLOCKING_SELF_RECEIVE) {
        if (op->rc != MPI_SUCCESS)
            raise_error(error_comm(op), op->fname, op->rc,
                        "communication failed inside the collective");
        MPI_Request done;
        if (PMPI_Isend(NULL, 0, MPI_BYTE, 0, op->self_tag, self, &done) == MPI_SUCCESS)
            PMPI_Request_free(&done);
        if (op->user_freed || op->kind == CALL_NONBLOCKING)
            op_free(op);
        return;
    }
    /* free_fn runs once, and whichever of it and this end comes second
     * frees `op`.  MPICH runs it at MPI_Request_free, before the end
     * (`user_freed` set): then nothing calls it again and `op` is freed
     * here (left alone it held its communicator's state forever, whose
     * window the other ranks then freed alone at MPI_Finalize: a hang).
     * Otherwise it runs when the completed request is freed, maybe inside
     * Grequest_complete, and must find `completed`. */
    const bool freed_before = op->user_freed;
    __atomic_store_n(&op->completed, true, __ATOMIC_RELEASE);
    PMPI_Grequest_complete(op->req);
    if (freed_before)
        op_free(op);
}

/* Steps the running operation; a finished prelude hands over to the
 * chosen algorithm's schedule, on the tag reserved for it at the start. */
static int op_advance(struct coll_op *op, bool wait, bool *done)
{
    int rc = exec_step(&op->x, wait, done);
    if (rc == MPI_SUCCESS && *done && op->in_prelude) {
        op->in_prelude = false;
        exec_release(&op->x);
        rc = op->choose(op);
        if (rc == MPI_SUCCESS)
            rc = exec_start(&op->x, &op->c, &op->own, op->main_tag);
        if (rc == MPI_SUCCESS)
            rc = exec_step(&op->x, wait, done);
    }
    return rc;
}

/* A fresh run of `op`: schedule, tag, first round; links it as running.
 * A failure finishes the run with the error, which the request reports. */
static void op_begin(struct coll_op *op)
{
    int rc = op->before ? op->before(op) : MPI_SUCCESS;
    if (rc == MPI_SUCCESS && op->rebuild)
        rc = op->kind == CALL_NONBLOCKING ? op_take_schedule(op) : op_build(op);
    ops_lock();
    op->running = true;
    bool done = true;
    if (rc == MPI_SUCCESS && op->choose) {
        /* both tags now, in call order: the prelude ends at different
         * times on different ranks */
        const int tag = exec_next_tag(op->c.cs);
        op->main_tag = exec_next_tag(op->c.cs);
        op->in_prelude = true;
        rc = exec_start(&op->x, &op->pre, &op->pre_s, tag);
    } else if (rc == MPI_SUCCESS) {
        rc = exec_start(&op->x, &op->c, op->cached ? op->cached : &op->own,
                        exec_next_tag(op->c.cs));
    }
    if (rc == MPI_SUCCESS) {
        link_running(op);
        rc = op_advance(op, false, &done);
        if (rc != MPI_SUCCESS || done)
            unlink_running(op);
    }
    if (rc != MPI_SUCCESS || done)
        op_finished(op, rc);
    ops_unlock();
    progress_thread_wake();
}

static int query_fn(void *extra, MPI_Status *st)
{
    struct coll_op *op = extra;
    PMPI_Status_set_elements(st, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(st, 0);
    st->MPI_SOURCE = MPI_ANY_SOURCE;
    st->MPI_TAG = MPI_ANY_TAG;
    st->MPI_ERROR = op->rc;
    return op->rc;
}

/* MPI calls it once the request is both complete and freed by the
 * application (MPI-4 13.2); Open MPI and MPICH may call it from
 * MPI_Request_free before completion, which then only marks it. */
static int free_fn(void *extra)
{
    struct coll_op *op = extra;
    ops_lock();
    if (op->completed)
        op_free(op);
    else
        op->user_freed = true;
    ops_unlock();
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS; /* a collective cannot be cancelled (MPI-4 3.8.4) */
}

/* MPICH's extended generalized requests call a poll function from every
 * wait and test on them, PMPI_* ones included (its mpi_f08 bindings call
 * PMPI_Wait and PMPI_Testall directly, past colibri's interposed calls):
 * a progress pass there advances the schedules wherever MPICH waits. */
#if defined(MPICH) && !NONBLOCKING_SELF_RECEIVE
static int poll_fn(void *extra, MPI_Status *status)
{
    (void)extra, (void)status;
    nbc_progress();
    return MPI_SUCCESS;
}

/* MPICH requires one; progress passes until each operation is complete. */
static int wait_fn(int count, void **ops, double timeout, MPI_Status *status)
{
    (void)timeout, (void)status;
    for (int i = 0; i < count; i++)
        while (!__atomic_load_n(&((struct coll_op *)ops[i])->completed, __ATOMIC_ACQUIRE))
            engines_turn();
    return MPI_SUCCESS;
}
#define GREQUEST_START(op) \
    PMPIX_Grequest_start(query_fn, free_fn, cancel_fn, poll_fn, wait_fn, (op), &(op)->req)
#else
#define GREQUEST_START(op) PMPI_Grequest_start(query_fn, free_fn, cancel_fn, (op), &(op)->req)
#endif

int op_launch(struct coll_op *op, MPI_Request *req)
{
    engines_set_colibri(nbc_progress, nbc_busy);
    progress_thread_ensure(nbc_busy, nbc_progress);
    op_pin(op);
    int rc;
    if (NONBLOCKING_SELF_RECEIVE) {
        ops_lock();
        rc = self_channel(op);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Irecv(NULL, 0, MPI_BYTE, 0, op->self_tag, self, &op->req);
        ops_unlock();
    } else {
        rc = GREQUEST_START(op);
    }
    if (rc != MPI_SUCCESS) {
        op_free(op);
        return raise_error(op->comm, op->fname, rc, "could not start the collective");
    }
    *req = op->req;
    /* From here the request owns `op`. */
    op->rebuild = !op->choose;
    op_begin(op);
    return MPI_SUCCESS;
}

int op_persist(struct coll_op *op, MPI_Request *req)
{
    engines_set_colibri(nbc_progress, nbc_busy);
    progress_thread_ensure(nbc_busy, nbc_progress);
    op_pin(op);
    int rc = op_build(op);
    op->rebuild = op->own.resume != NULL;
    ops_lock();
    if (rc == MPI_SUCCESS)
        rc = self_channel(op);
    if (rc == MPI_SUCCESS && n_persistent == cap_persistent) {
        int cap = cap_persistent ? 2 * cap_persistent : 16;
        struct coll_op **p = realloc(persistent, (size_t)cap * sizeof *p);
        if (!p)
            rc = MPI_ERR_NO_MEM;
        else
            persistent = p, cap_persistent = cap;
    }
    if (rc == MPI_SUCCESS)
        rc = PMPI_Recv_init(NULL, 0, MPI_BYTE, 0, op->self_tag, self, &op->req);
    if (rc == MPI_SUCCESS)
        persistent[n_persistent++] = op;
    ops_unlock();
    if (rc != MPI_SUCCESS) {
        op_free(op);
        return raise_error(op->comm, op->fname, rc, "could not create the persistent request");
    }
    *req = op->req;
    return MPI_SUCCESS;
}

static int find_persistent(MPI_Request r)
{
    for (int i = 0; i < n_persistent; i++)
        if (persistent[i]->req == r)
            return i;
    return -1;
}

bool nbc_start(MPI_Request *req, int *rc)
{
    if (!__atomic_load_n(&n_persistent, __ATOMIC_ACQUIRE))
        return false;
    ops_lock();
    int i = find_persistent(*req);
    struct coll_op *op = i >= 0 ? persistent[i] : NULL;
    ops_unlock();
    if (!op)
        return false;
    if (op->running) {
        *rc = raise_error(op->comm, "MPI_Start", MPI_ERR_REQUEST,
                          "the persistent collective is still active");
        return true;
    }
    *rc = PMPI_Start(&op->req);
    if (*rc == MPI_SUCCESS)
        op_begin(op);
    return true;
}

bool nbc_free_persistent(MPI_Request *req, int *rc)
{
    if (!__atomic_load_n(&n_persistent, __ATOMIC_ACQUIRE))
        return false;
    ops_lock();
    int i = find_persistent(*req);
    if (i < 0) {
        ops_unlock();
        return false;
    }
    struct coll_op *op = persistent[i];
    persistent[i] = persistent[--n_persistent];
    *rc = PMPI_Request_free(req);
    if (op->running)
        op->user_freed = true; /* freed when the run finishes */
    else
        op_free(op);
    ops_unlock();
    return true;
}

int nbc_progress(void)
{
    if (!nbc_busy() || !ops_trylock())
        return 0;
    int advanced = 0;
    for (struct coll_op *op = running, *next; op; op = next) {
        next = op->next;
        uint32_t round = op->x.round;
        bool done = false;
        int rc = op_advance(op, false, &done);
        if (rc != MPI_SUCCESS || done) {
            unlink_running(op);
            op_finished(op, rc);
            advanced++;
        } else if (op->x.round != round) {
            advanced++;
        }
    }
    ops_unlock();
    return advanced;
}

bool nbc_mpi_hooked(void)
{
    engines_set_colibri(nbc_progress, nbc_busy);
    return engines_hooked();
}

void nbc_drain(void)
{
    while (nbc_busy())
        if (!nbc_progress()) {
            engines_poke_mpi();
            sched_yield();
        }
}

bool nbc_wait_alone(MPI_Request req)
{
    if (__atomic_load_n(&n_running, __ATOMIC_ACQUIRE) != 1)
        return false;
    ops_lock();
    struct coll_op *op = running;
    if (n_running != 1 || op->req != req) {
        ops_unlock();
        return false;
    }
    /* off the list, so that no progress pass (another thread's, the
     * progress thread's) touches it and the lock is free while it waits */
    unlink_running(op);
    ops_unlock();
    bool done = false;
    int rc = MPI_SUCCESS;
    while (rc == MPI_SUCCESS && !done)
        rc = op_advance(op, true, &done);
    ops_lock();
    op_finished(op, rc);
    ops_unlock();
    return true;
}
