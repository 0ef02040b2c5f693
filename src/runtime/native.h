/* The MPI below, called with colibri's MPI_Count arguments. */
#ifndef COLIBRI_NATIVE_H
#define COLIBRI_NATIVE_H

#include <mpi.h>
#include <stdint.h>

#include "../config/config.h"
#include "call.h"
#include "online_turn.h"
#include "stats.h"
#include "state/state.h"
#include "../select/online.h"


struct native_args {
    colibri_coll coll;
    const void *sendbuf;
    void *recvbuf;
    int64_t count;
    const int64_t *counts;
    MPI_Datatype dt;
    MPI_Op op;
    int root;
    MPI_Comm comm;
};

/* The MPI below's call in the form `kind` (nonblocking and persistent give
 * their request in *req). */
int native_call(const struct native_args *a, enum call_kind kind, MPI_Request *req);

/* alltoall / alltoallv, with colibri's 64-bit counts and displacements
 * (alltoall: sendcount/recvcount; alltoallv: the arrays, in elements). */
struct exchange_args {
    colibri_coll coll;
    const void *sendbuf;
    int64_t sendcount;
    const int64_t *sendcounts, *sdispls;
    MPI_Datatype sendtype;
    void *recvbuf;
    int64_t recvcount;
    const int64_t *recvcounts, *rdispls;
    MPI_Datatype recvtype;
    MPI_Comm comm;
};

int native_exchange(const struct exchange_args *a, enum call_kind kind, MPI_Request *req);

/* Whether the MPI below reduces the predefined pair (op, dt) as colibri's
 * kernel `k` does: both applied to probe values (every byte 0x00, 0x01,
 * 0x3f, 0x40, 0x7f, 0x80, 0xc0 or 0xfe: zeros, signs, large and small
 * magnitudes, no NaN) must give the same bytes.  Open MPI 4.1 takes the
 * maximum of MPI_UNSIGNED_LONG as signed and of MPI_OFFSET wrongly, and
 * its AVX component saturates 8-bit sums: online selection does not offer
 * the MPI below such a pair (runtime/online_turn.h).  The same on every
 * rank (one library), local, no communication. */
bool native_pair_agrees(MPI_Op op, MPI_Datatype dt, colibri_kernel k, int tsize);

/* A valid automatic blocking call with nothing to move (no element on any
 * rank): nothing runs, colibri_last_algorithm says "none", COLIBRI_STATS
 * counts it as "none"; MPI_SUCCESS.  `memo`: an interposed call of a
 * predefined type keyed as native_memo_note keys it (count, dt, op,
 * root): an identical call returns at its entry point (NATIVE_MEMO_NOTHING). */
int nothing_ran(MPI_Comm comm, colibri_coll coll, bool memo, int64_t count, MPI_Datatype dt,
                MPI_Op op, int root);
/* The same for a valid automatic nonblocking call with nothing to move
 * (every rank knows it from its own arguments: counts that are the same
 * everywhere): *req becomes a request that is already complete, a receive
 * from MPI_PROC_NULL on comm (nothing_request), which the MPI below
 * completes at once and every completion call and MPI_Request_free
 * accept (a collective request of the MPI's own would not do: Debian's
 * MPICH 4.0 refuses MPI_Request_free on one).  Counted as "none"; `memo`
 * as for nothing_ran: an identical call gets its request at the entry
 * point (NATIVE_MEMO_NOTHING).  An empty schedule's request cost 1-2.6 us
 * where the MPIs' own zero-byte nonblocking collectives take 0.06-0.16
 * (IMB-NBC, Intel MPI, MPICH 4 and 5, 2 ranks). */
int nothing_started(MPI_Comm comm, colibri_coll coll, bool memo, int64_t count, MPI_Datatype dt,
                    MPI_Op op, int root, MPI_Request *req);
static inline int nothing_request(MPI_Comm comm, MPI_Request *req)
{
    return PMPI_Irecv(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, comm, req);
}

/* A nonblocking gatherv or scatterv at its interposed entry point: true
 * (the call counted as native, colibri_last_algorithm saying so) when
 * automatic choice sends it below whatever its arguments
 * (select_always_below): the caller makes the MPI's call with its own
 * arguments, which the MPI checks.  Colibri's full path, validation and
 * state included, cost 0.7-1.5 us a call on top of the MPI's 0.3-1 us
 * (IMB-NBC, Intel MPI and MPICH 4, 2 ranks). */
bool native_always_below(MPI_Comm comm, colibri_coll coll, enum call_kind kind);

/* allgather (both sides), allgatherv (recvcounts and rdispls, in
 * elements), bcast (the buffer as the receive side, its root) and barrier
 * (the communicator only), with colibri's 64-bit counts; gather and
 * scatter (both sides and the root), gatherv (recvcounts and rdispls) and
 * scatterv (sendcounts and sdispls), whose arrays count at the root only. */
struct movement_args {
    colibri_coll coll;
    const void *sendbuf;
    int64_t sendcount;
    MPI_Datatype sendtype;
    void *recvbuf;
    int64_t recvcount;
    const int64_t *recvcounts, *rdispls;
    MPI_Datatype recvtype;
    int root;
    MPI_Comm comm;
    const int64_t *sendcounts, *sdispls;
};

int native_movement(const struct movement_args *a, enum call_kind kind, MPI_Request *req);

/* Intercommunicators and MPI_COMM_NULL go to the MPI below, which handles
 * or reports them. */
int comm_passes_through(MPI_Comm comm);

/*
 * The shortcut for calls that automatic selection hands to the MPI below
 * (a `native` tuning rule).  Such a call costs the MPI's own call and
 * little more only if colibri does not validate, look up its state and
 * select again each time: 1520 instructions for an 8-byte allreduce, 240
 * for Open MPI's own (docs/tuning.md).  So the interposed entry points
 * remember, per thread, the last calls that went native by automatic
 * choice, keyed by what the choice depends on that can change between
 * calls (collective, form, communicator, count, datatype, operation,
 * root), and send an identical call straight below; where online
 * selection settled a shape on native, also a blocking call of another
 * count of the shape's size class (select/online.h; native_memo_same_class).
 *
 * Sound because the choice is the same on every rank and for every
 * identical call: only calls whose full path communicates nothing are
 * remembered (the communicator's state and layout exist; no sparse
 * estimate is due), only predefined datatypes and operations (never
 * freed, so never reused for another), and every remembered call is
 * forgotten when the configuration is reloaded (config generation), a
 * communicator with colibri state is freed (its handle may come back as
 * another communicator) or a sparse hint is given (comm_state_epoch).  A
 * rank that misses where another hits takes the full path to the same
 * answer.  The MPI below validates the arguments itself.
 */
struct native_memo {
    int tag;            /* 1 + coll * CALL_KINDS + kind; 0: empty */
    MPI_Comm comm;
    MPI_Datatype dt;
    MPI_Op op;          /* MPI_OP_NULL for alltoall */
    int64_t count;
    int root;
    unsigned generation, epoch;
    const char **last;  /* the state's last[coll], for colibri_last_algorithm */
    /* the online shape (select/online.h) settled on native that sent it
     * below, and its stamp then (NULL: online selection did not serve it):
     * the memo serves the call only while that decision stands, and
     * counts it in the shape as the full path would */
    struct online_shape *shape;
    unsigned stamp;
    struct comm_state *cs; /* the communicator's state (valid while epoch stands) */
    /* a nonblocking or persistent call's: its communicator's online
     * table's version then (online_reuse; NULL: a blocking call's) */
    const unsigned *version;
    unsigned version_at;
    /* a blocking call with nothing to move (nothing_ran): an identical one
     * has nothing to move either, and was checked then (the same
     * communicator, count, predefined type, operation and root) */
    bool nothing;
    /* a reduction's sparse estimate that its choice read, and when it was
     * made (NULL: none): the memo serves the call while that estimate
     * stands with calls left, and counts it there (state.h,
     * estimate_memo_ok) */
    struct sparse_estimate *est;
    unsigned est_made;
};
/* 8 sets of 2 ways, the set from a multiplicative hash of the key (the
 * count's size class, the communicator, the tag): an application that
 * alternates collectives on one communicator (a benchmark's barrier
 * between its calls, an allreduce beside a bcast) keeps each call's memo.
 * (The set was once the key's low bits xored, of which the tag gave one:
 * every blocking collective of a communicator and class shared one slot,
 * and Intel MPI Benchmarks' zero-byte alltoall, with a barrier between
 * calls, missed at every call: 0.45 us against the MPI's 0.05.)  A set
 * holds at most one memo per (tag, communicator) (native_memo_note). */
#define NATIVE_MEMO_SLOTS 16
extern _Thread_local struct native_memo native_memo[NATIVE_MEMO_SLOTS] COLIBRI_HIDDEN;

/* A memo table's index (of 2^bits) for a key of a count, a communicator
 * and a tag, every bit of each mixed in (a communicator handle's low bits
 * are often all alike). */
static inline unsigned memo_index(uint64_t count, MPI_Comm comm, int tag, int bits)
{
    const uint64_t k =
        count ^ (uint64_t)(uintptr_t)comm * 0xc2b2ae3d27d4eb4fULL ^ (uint64_t)tag << 56;
    return (unsigned)((k * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
}

static inline struct native_memo *native_memo_set(MPI_Comm comm, int64_t count, int tag)
{
    /* by size class: a call of another count of a settled shape's class
     * finds the shape's memo (native_memo_lookup) */
    return &native_memo[2 * memo_index((uint64_t)online_size_class(count), comm, tag, 3)];
}

/* The way of the set that holds (tag, comm)'s memo, if any (else way 1). */
static inline struct native_memo *native_memo_slot(MPI_Comm comm, int64_t count, int tag)
{
    struct native_memo *m = native_memo_set(comm, count, tag);
    return m->tag == tag && m->comm == comm ? m : m + 1;
}

/* Whether any thread has remembered a call (set once, never cleared):
 * until then a call that automatic choice gives to colibri pays no memo
 * lookup here (a thread-local access and a dozen comparisons). */
extern bool native_memo_used COLIBRI_HIDDEN;
enum { NATIVE_MEMO_MISS, NATIVE_MEMO_BELOW, NATIVE_MEMO_NOTHING, NATIVE_MEMO_TIMED };
/* A blocking call of another count than the memo's, in the same size
 * class (select/online.h), takes the memo where online selection settled
 * that class's shape on native: the shape is the class's, the MPI below
 * serves any count, and every rank makes the same calls, so every rank
 * hits or misses alike; a sparse estimate is the class's too
 * (api/reductions.c, estimate_slot).  Not a call with nothing to move (its
 * count was the reason), a nonblocking one, or one the model or a rule
 * sent below (their choice is the count's, not the class's). */
static inline bool native_memo_same_class(const struct native_memo *m, int64_t count)
{
    return m->shape && !m->nothing && !m->version &&
           online_size_class(m->count) == online_size_class(count);
}

/* The lookup, inline in every interposed entry point: a call on the hit
 * path made each of them save its arguments around it (callgrind, Open
 * MPI 5, one rank, an 8-byte allreduce under a `native` rule: 431
 * instructions a call against the MPI's own 256; with the memo's hidden
 * symbols and TLS descriptors 414, the lookup 76 and the wrapper 53 of
 * them; inline 338, the wrapper 25). */
static inline int native_memo_lookup(colibri_coll coll, enum call_kind kind, MPI_Comm comm,
                                     int64_t count, MPI_Datatype dt, MPI_Op op, int root)
{
    const int tag = 1 + (int)coll * CALL_KINDS + (int)kind;
    const struct native_memo *m = native_memo_slot(comm, count, tag);
    __asm__("" : "+r"(m)); /* the slot's address once: no thread-local lookup per field */
    const struct config *cfg = config_get();
    if (m->tag != tag || m->comm != comm ||
        (m->count != count && !native_memo_same_class(m, count)) || m->dt != dt || m->op != op ||
        m->root != root || m->generation != cfg->generation ||
        m->epoch != __atomic_load_n(&comm_state_epoch, __ATOMIC_RELAXED) ||
        (m->version && *m->version != m->version_at) || !estimate_memo_ok(m->est, m->est_made))
        return NATIVE_MEMO_MISS;
    /* last: they count the call in its shape (and its sparse estimate) */
    const int pass = online_turn_memo_pass(m->cs, m->shape, m->stamp, NULL);
    if (!pass)
        return NATIVE_MEMO_MISS;
    const bool timed = pass == 2;
    estimate_memo_take(m->cs, m->est);
    if (m->nothing) {
        *m->last = "none";
        stats_count_none(coll, kind);
        return NATIVE_MEMO_NOTHING;
    }
    *m->last = "native";
    if (cfg->stats) /* (stats_count checks it too: here without a call) */
        stats_count(NULL, coll, kind);
    return timed ? NATIVE_MEMO_TIMED : NATIVE_MEMO_BELOW;
}

/* NATIVE_MEMO_BELOW (and the call counted as native) when an identical
 * call went to the MPI below by automatic choice: the caller makes the
 * MPI's call; NATIVE_MEMO_NOTHING (counted as "none") when an identical
 * blocking call had nothing to move: the caller returns MPI_SUCCESS (or,
 * where it cannot tell that the rest of its arguments is the same, makes
 * the MPI's call); NATIVE_MEMO_TIMED when the identical call's shape is
 * exploring and this call is one of native's: the caller makes the MPI's
 * call and hands its result to native_memo_timed, which times it for
 * online selection (so native is measured exactly as it runs when settled,
 * from the memo, not after colibri's driver); NATIVE_MEMO_MISS (0)
 * otherwise. */
static inline int native_memo_hit(colibri_coll coll, enum call_kind kind, MPI_Comm comm,
                                  int64_t count, MPI_Datatype dt, MPI_Op op, int root)
{
    return __atomic_load_n(&native_memo_used, __ATOMIC_RELAXED)
               ? native_memo_lookup(coll, kind, comm, count, dt, op, root)
               : NATIVE_MEMO_MISS;
}
/* allgatherv's key in the native memo: all blocks' elements (total) and
 * the largest block's (most, in the root's place), the online shape's key
 * (select/online.h) in elements; every rank has the same recvcounts, of
 * any integer type (the interposed entry's int, the C API's int64_t). */
#define ALLGATHERV_MEMO_KEY(recvcounts, size, total, most)                                   \
    do {                                                                                     \
        (total) = 0, (most) = 0;                                                             \
        for (int i_ = 0; i_ < (size); i_++) {                                                \
            (total) += (recvcounts)[i_];                                                     \
            (most) = (recvcounts)[i_] > (most) ? (recvcounts)[i_] : (most);                  \
        }                                                                                    \
    } while (0)
/* reduce_scatter's key in the native memo: all ranks' elements (total)
 * and a hash of the counts (in the root's place): its automatic choice
 * reads the whole vector, so a memo serves only the same counts, which
 * every rank has alike (a collision would send another vector below on
 * every rank alike: never a wrong or rank-dependent result). */
#define REDUCE_SCATTER_MEMO_KEY(counts, size, total, hash)                                   \
    do {                                                                                     \
        uint64_t h_ = 0xcbf29ce484222325ULL;                                                 \
        (total) = 0;                                                                         \
        for (int i_ = 0; i_ < (size); i_++) {                                                \
            (total) += (counts)[i_];                                                         \
            h_ = (h_ ^ (uint64_t)(counts)[i_]) * 0x100000001b3ULL;                           \
        }                                                                                    \
        (hash) = (int)(h_ ^ h_ >> 32);                                                       \
    } while (0)
/* The same from the C API's counts: false where there are none or the
 * largest does not fit an int. */
static inline bool allgatherv_memo_key(const int64_t *recvcounts, int size, int64_t *count,
                                       int *largest)
{
    int64_t most = 0;
    *count = 0;
    if (recvcounts)
        ALLGATHERV_MEMO_KEY(recvcounts, size, *count, most);
    *largest = (int)most;
    return recvcounts && size > 0 && most <= INT32_MAX;
}

/* After a NATIVE_MEMO_TIMED answer: the MPI's call's result `rc`, recorded
 * (online_turn_memo_end); returns rc. */
int native_memo_timed(int rc) COLIBRI_HIDDEN;

/* Remembers a call that automatic choice sent below (its conditions:
 * above); `cs` is the communicator's state, `shape` the online shape
 * settled on native that chose it (NULL: none), `est` the reduction's
 * sparse estimate its choice read (NULL: none). */
struct native_memo *native_memo_note(colibri_coll coll, enum call_kind kind, MPI_Comm comm,
                                     int64_t count, MPI_Datatype dt, MPI_Op op, int root,
                                     struct comm_state *cs, struct online_shape *shape,
                                     struct sparse_estimate *est);

#endif
