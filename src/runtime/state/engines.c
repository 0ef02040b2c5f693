/*
 * Both progress engines turn wherever anyone waits (issue #25).
 *
 * colibri's nonblocking and persistent collectives are schedules that
 * advance only when colibri's engine runs (operation.c, nbc_progress); the
 * MPI's own nonblocking operations advance only when the MPI's engine runs,
 * inside an MPI call.  A rank that waits in one engine alone starves the
 * other, and two ranks each waiting in the engine the other neglects hang:
 * rank 0 in MPI_Waitall on a native MPI_Ibcast that needs rank 1's MPI to
 * move a message, rank 1 in a node-aware schedule's shared-memory flag
 * wait that only rank 0's schedule will set.  Hence:
 *
 *  - every colibri wait turns both (engines_turn): the flag waits of the
 *    executor after their short spin, blocking schedule runs while other
 *    operations run (MPI_Testall on the round's requests, then a pass of
 *    colibri's engine, instead of MPI_Waitall), the interposed MPI_Wait
 *    family, MPICH's generalized-request wait function, setup's waits;
 *  - the MPI's engine is driven by MPI_Test on a receive that nothing
 *    matches (engines_poke_mpi): a full pass of the MPI's progress in every
 *    MPI, about 0.1 us, made only on the slow path of a wait (after the
 *    flag wait's spin), never per call.  MPI_Iprobe is not enough: MPICH
 *    4.0's polls the transport but not its nonblocking collectives;
 *  - where the MPI lets a library hook into its progress loop, colibri's
 *    engine is registered there, so that any blocking call of the
 *    application (a native MPI_Barrier, MPI_Recv, MPI_Win_fence,
 *    MPI_Comm_split, file I/O) progresses colibri's operations, as libNBC
 *    inside Open MPI does with opal_progress_register:
 *      Open MPI (4.x, 5.x): opal_progress_register, found at run time in
 *        the process (the same callback libNBC registers; its symbol has
 *        been exported by libopen-pal since 1.x);
 *    (MPICH >= 4.2's MPIX_Async_start cannot serve: see below.)
 *    The hook returns at once when nothing runs (one atomic load) and does
 *    not re-enter colibri from MPI calls colibri itself makes while it
 *    changes an operation (engines_enter/leave).
 *  - where there is no such hook (MPICH, Intel MPI 2021, the standard-ABI
 *    build), the interposed blocking point-to-point calls
 *    (interpose/blocking.c) poll both engines while colibri operations
 *    run; docs/nonblocking.md lists what remains and why.
 */
#include "engines.h"

#include "../../config/config.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>

static int (*colibri_progress_fn)(void);
static bool (*colibri_busy_fn)(void);
/* initial-exec: a plain %fs-relative access, not a __tls_get_addr call per
 * lock (the library is loaded with the program or preloaded).  Not under
 * SimGrid SMPI, whose privatization dlopens a copy of the program per
 * rank, which static TLS has no room for. */
#ifdef SMPI_H
static _Thread_local int depth;
#else
static _Thread_local int depth __attribute__((tls_model("initial-exec")));
#endif
/* colibri_progress_stats: counted without a lock (figures, not state) */
static long long n_pokes, n_hook_calls, n_hook_turns, n_colibri_turns;

void engines_stats(long long out[4])
{
    out[0] = n_pokes, out[1] = n_hook_calls, out[2] = n_hook_turns, out[3] = n_colibri_turns;
}

void engines_enter(void) { depth++; }
void engines_leave(void) { depth--; }

bool engines_colibri_busy(void)
{
    return colibri_busy_fn && colibri_busy_fn();
}

int engines_colibri_turn(void)
{
    if (!engines_colibri_busy())
        return 0;
    n_colibri_turns++;
    return colibri_progress_fn();
}

#ifdef SMPI_H
void engines_poke_mpi(void) {}
static void poke_end(void) {}
#else
/* A receive that nothing will match, on a private duplicate of
 * MPI_COMM_SELF: testing it is a full pass of the MPI's progress engine
 * in every MPI (MPICH's MPI_Iprobe only polls the transport, not its
 * nonblocking collectives' schedules).  Posted on first use, cancelled at
 * MPI_Finalize (engines_unhook). */
static MPI_Comm poke_comm = MPI_COMM_NULL;
static MPI_Request poke_req = MPI_REQUEST_NULL;
static char poke_byte;

void engines_poke_mpi(void)
{
    int flag = 0;
    if (poke_req == MPI_REQUEST_NULL) {
        if (poke_comm == MPI_COMM_NULL && PMPI_Comm_dup(MPI_COMM_SELF, &poke_comm) != MPI_SUCCESS)
            return;
        if (PMPI_Irecv(&poke_byte, 1, MPI_CHAR, 0, 0, poke_comm, &poke_req) != MPI_SUCCESS)
            return;
    }
    PMPI_Test(&poke_req, &flag, MPI_STATUS_IGNORE);
    n_pokes++;
}

static void poke_end(void)
{
    if (poke_req != MPI_REQUEST_NULL) {
        PMPI_Cancel(&poke_req);
        PMPI_Wait(&poke_req, MPI_STATUS_IGNORE);
    }
    if (poke_comm != MPI_COMM_NULL)
        PMPI_Comm_free(&poke_comm);
}
#endif

void engines_turn(void)
{
    engines_colibri_turn();
    engines_poke_mpi();
}

int engines_wait(MPI_Request *req, MPI_Status *status)
{
    if (!engines_colibri_busy())
        return PMPI_Wait(req, status);
    for (;;) {
        int flag = 0;
        int rc = PMPI_Test(req, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        engines_colibri_turn();
    }
}

/* ---- the MPI's progress hook ------------------------------------------ */

static atomic_bool hooked;

bool engines_hooked(void)
{
    return atomic_load_explicit(&hooked, memory_order_relaxed);
}

/* Called by the MPI from its progress loop. */
__attribute__((unused)) static int hook_turn(void)
{
    n_hook_calls++;
    if (depth > 0 || !engines_colibri_busy())
        return 0;
    n_hook_turns++;
    return colibri_progress_fn();
}

#if defined(OPEN_MPI) && !defined(SMPI_H)
/* opal_progress_register(int (*)(void)): Open MPI's own progress callbacks
 * (libNBC's, the BTLs') are registered through it.  Looked up in the
 * global scope, else through libmpi's own dependencies (mpi4py loads
 * libmpi without RTLD_GLOBAL). */
static void *opal_symbol(const char *name)
{
    void *f = dlsym(RTLD_DEFAULT, name);
    Dl_info info;
    if (!f && dladdr((void *)&PMPI_Init, &info) && info.dli_fname) {
        void *h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            f = dlsym(h, name);
            dlclose(h);
        }
    }
    return f;
}

static void hook_install(void)
{
    int (*reg)(int (*)(void)) = (int (*)(int (*)(void)))opal_symbol("opal_progress_register");
    if (reg && reg(hook_turn) == 0)
        atomic_store(&hooked, true);
}

static void hook_remove(void)
{
    int (*unreg)(int (*)(void)) =
        (int (*)(int (*)(void)))opal_symbol("opal_progress_unregister");
    if (atomic_exchange(&hooked, false) && unreg)
        unreg(hook_turn);
}
/* Not MPICH >= 4.2's MPIX_Async_start: its progress engine polls an async
 * thing with its async mutex held, and colibri's pass calls MPI_Testall,
 * whose progress polls the async things again: MPICH 5.0.2 aborts
 * ("pthread_mutex_lock: Resource deadlock avoided", mpir_async_things.c).
 * A hook there would need a pass that makes no MPI call. */
#else
static void hook_install(void) {}
static void hook_remove(void) {}
#endif

void engines_unhook(void)
{
    hook_remove();
    poke_end();
}

void engines_set_colibri(int (*progress)(void), bool (*busy)(void))
{
    if (!colibri_progress_fn) {
        colibri_progress_fn = progress;
        colibri_busy_fn = busy;
        /* COLIBRI_PROGRESS_HOOK=0: as on an MPI without a hook (tests) */
        if (config_get()->progress_hook)
            hook_install();
    }
}

