/*
 * Online selection in a call (select/online.h says what it learns, and
 * how every rank decides the same): a blocking automatic call of a shape
 * that no tuning rule decides runs the candidate its shape's plan names,
 * timed with MPI_Wtime (simulated time under SMPI), and at the shape's
 * deciding call agrees on the scores with one small MPI_MAX on colibri's
 * private communicator (agree_max_n), counted in colibri_setup_stats'
 * online_agreements.  COLIBRI_ONLINE=0 turns it off; COLIBRI_ONLINE_FAKE
 * replaces every measured time (the tests' hook: no test depends on the
 * clock).
 */
#ifndef COLIBRI_ONLINE_TURN_H
#define COLIBRI_ONLINE_TURN_H

#include <mpi.h>
#include <stdbool.h>

#include "call.h"
#include "../config/config.h"
#include "../select/online.h"
#include "state/setup.h"
#include "state/state.h"

struct online_turn {
    struct online_shape *s; /* NULL: online selection does not serve this call */
    struct online_step step;
    double t0;
    double entry; /* online_turn_entry's time (0: none) */
    /* native's calls charged from `entry` too: where a settled native call
     * pays colibri's driver before the MPI's call (an alltoallv that
     * cannot skip its size agreement: api/alltoall.c) */
    bool native_from_entry;
};
/* At the entry of a blocking call's driver, before anything else: the
 * time from which a colibri candidate is charged (0 where online selection
 * is off or the call is not blocking).  A call settled on native goes to
 * the MPI below from its entry point (the native memo), one settled on a
 * colibri algorithm pays colibri's driver too (validation, selection, the
 * schedule and its executor: about 0.8 us a call on Intel MPI, 2 ranks):
 * timing only the run ranked colibri's short alltoall ahead of Intel MPI's
 * own, which it then trailed 1.5-1.7x when settled. */
double online_turn_entry(enum call_kind kind);

/* For a call of `coll` in the form `kind` (requested: the C API's name,
 * NULL for the interposed and automatic ones) whose selection gave *alg
 * and *sp from `before` (sp as it was before selection): where online
 * selection serves the call, *alg and *sp become the candidate this call
 * runs (NULL: native), and t->s is set.  Counts the call in its shape.
 * `native_ok`: the MPI below may serve the call (native_pair_agrees).
 * Automatic calls only: interposed ones and the C API's NULL or "auto".
 * A nonblocking or persistent call is neither timed nor counted: it takes
 * the decision of the blocking shape with its key, where one has decided
 * and can run it (select/online.h, online_reuse), else the model's choice;
 * t->s stays NULL. */
void online_turn_begin(struct comm_state *cs, colibri_coll coll, enum call_kind kind,
                       const char *requested, bool native_ok, const struct sched_params *before,
                       struct sched_params *sp, const struct algorithm **alg,
                       struct online_turn *t);

/* Right before the run. */
static inline void online_turn_clock(struct online_turn *t)
{
    if (t->s && t->step.timed) {
        const bool native = t->step.cand < 0 || !t->s->cand[t->step.cand];
        t->t0 = (native && !t->native_from_entry) || t->entry <= 0 ? PMPI_Wtime() : t->entry;
    }
}

/* Right after it, with its result: records the time and, at the shape's
 * deciding call, agrees and decides.  Returns rc (an agreement that fails
 * settles the shape on the model's choice, on every rank that gets here,
 * and returns its error). */
int online_turn_end(struct comm_state *cs, struct online_turn *t, int rc);

/* Whether a memo of an identical call may remember this one, which ran
 * colibri's `alg`: where online selection does not serve it, where its
 * shape is settled, and while its shape explores where `alg` is the
 * candidate this call explored: the memo then serves that candidate's
 * further calls of the exploration, timed (online_turn_memo_begin), so a
 * colibri candidate is charged what it costs once settled, where the
 * memo serves it too.  (Timed through the full path, a short reduce's
 * `node_leader` on Intel MPI, 2 ranks, measured 0.94 us to native's 0.86
 * at a re-check, and settled on native; through the memo it takes
 * 0.55-0.59 us to native's 0.73-0.75 in a loop of calls.) */
static inline bool online_turn_memo_ok(const struct online_turn *t, const struct algorithm *alg)
{
    return !t->s || t->step.settled ||
           (t->step.cand >= 0 && t->step.cand < t->s->n_cand && t->s->cand[t->step.cand] == alg);
}
/* The same for a call that runs native (the native memo, native.h): also
 * while its shape explores, where the memo serves native's further calls
 * of the exploration (online_turn_memo_begin). */
static inline bool online_turn_native_memo(const struct online_turn *t)
{
    return !t->s || t->step.settled || !t->s->cand[t->step.cand];
}

/* A memo's exploring call (the native memo, native.h NATIVE_MEMO_TIMED,
 * with alg NULL; the call memos of api/reductions.c and api/alltoall.c
 * with their colibri algorithm): when the next call of shape s (memo made
 * with `stamp`) runs the candidate `alg` and does not decide, counts it in
 * the shape, starts its clock and returns true; the caller then makes the
 * call and hands its result to online_turn_memo_end (this thread's one
 * pending turn).  False: the full path serves the call. */
bool online_turn_memo_begin(struct comm_state *cs, struct online_shape *s, unsigned stamp,
                            const struct algorithm *alg);
/* A memo's call of shape s (NULL: none) made with `stamp`, running alg
 * (NULL: native): 0 where the memo may not serve it (the full path does), 1 where it
 * may, untimed (settled: online_memo_pass, which counts it), 2 where it may
 * and is an exploring call begun by online_turn_memo_begin (end it with
 * online_turn_memo_end). */
static inline int online_turn_memo_pass(struct comm_state *cs, struct online_shape *s,
                                        unsigned stamp, const struct algorithm *alg)
{
    if (!s)
        return 1;
    if (s->explore_start >= 0)
        return online_turn_memo_begin(cs, s, stamp, alg) ? 2 : 0;
    return online_memo_pass(s, stamp) ? 1 : 0;
}
int online_turn_memo_end(int rc);

/* A blocking automatic alltoallv on cs, before its size agreement: true
 * when the call skips the agreement and goes to the MPI below
 * (select/online.h, struct online_skip); then counted as a native call
 * (colibri_last_algorithm, COLIBRI_STATS) and in colibri_setup_stats'
 * online_skipped.  Local: no communication. */
bool online_skip_sizes(struct comm_state *cs);
/* comm's state where it has one (NULL: none, or an intercommunicator,
 * MPI_COMM_NULL or a handle MPI cannot read), found without an attribute
 * lookup when the thread's last such call was on the same communicator. */
struct comm_state *online_skip_state(MPI_Comm comm);
/* The same as online_skip_sizes for an interposed MPI_Alltoallv, before
 * anything else (a communicator with colibri state is an
 * intracommunicator): whether COLIBRI_ALLTOALLV_ALGORITHM leaves it
 * automatic, and its communicator's state says to skip, or (counted in
 * colibri_setup_stats' rule_skipped) that the tuning file sends every
 * size below (alltoallv_rules_native, as found by an earlier call), or
 * (counted in named_skipped) that COLIBRI_ALLTOALLV_ALGORITHM=native names
 * the MPI below, whose call then takes the caller's arrays as they are:
 * through colibri's driver, widened, checked and narrowed again, such a
 * call took 2x Intel MPI's own 8-byte alltoallv (1.35 us), 2 ranks. */
bool online_skip_sizes_slow(MPI_Comm comm);
/* online_skip_state's and native_memo_note's memory: the thread's last
 * communicator with colibri state, its state, and comm_state_epoch then. */
struct online_seen {
    MPI_Comm comm;
    unsigned epoch;
    struct comm_state *cs;
};
extern _Thread_local struct online_seen online_seen COLIBRI_HIDDEN;
/* `comm`'s state if it is this thread's last communicator with colibri
 * state and no such communicator has been freed since (its handle may
 * have come back as another), else NULL. */
static inline struct comm_state *online_seen_state(MPI_Comm comm)
{
    struct comm_state *cs = online_seen.cs;
    return cs && online_seen.comm == comm &&
                   online_seen.epoch == __atomic_load_n(&comm_state_epoch, __ATOMIC_RELAXED)
               ? cs
               : NULL;
}
/* The size of `comm` if online_seen_state knows it, else 0.  Only
 * intracommunicators get colibri state, so a caller that finds a size may
 * skip the intercommunicator test too: MPI_Reduce_scatter and
 * MPI_Allgatherv key their memo on the counts, and a PMPI_Comm_test_inter
 * and a PMPI_Comm_size before each lookup made a reduce_scatter settled on
 * native 1.07-1.13x Intel MPI 2021.19's own at 16 B-2 KiB (0.1-0.15 us,
 * side by side), where reduce_scatter_block's memo costs 1.03-1.05x. */
static inline int online_seen_size(MPI_Comm comm)
{
    const struct comm_state *cs = online_seen_state(comm);
    return cs ? cs->size : 0;
}
/* Inline in MPI_Alltoallv: the usual case, a skip window of the thread's
 * last communicator open, without COLIBRI_STATS, at the cost of a memo
 * (through online_skip_sizes_slow, out of line, the skip cost about 125
 * instructions, Debian's Open MPI, callgrind, and an 8-byte alltoallv
 * settled on native ran 1.09-1.20x the MPI's own, side by side, where a
 * bare wrapper ran 1.00: a delay before the MPI's call shows about twice
 * over in that benchmark); everything else, as before, out of line. */
static inline bool online_skip_sizes_of(MPI_Comm comm)
{
    struct comm_state *cs = online_seen_state(comm);
    if (cs) {
        struct online_skip *k = &cs->alltoallv_skip;
        const struct config *cfg = config_get();
        if (k->interposed_auto && k->generation == cfg->generation && !cfg->stats &&
            online_skip_pass(k)) {
            setup_stats.online_skipped++;
            cs->last[COLIBRI_ALLTOALLV] = "native";
            return true;
        }
    }
    return online_skip_sizes_slow(comm);
}
/* Whether the tuning file sends every automatic alltoallv of this form
 * (`kind`; counted as one of it) on cs below whatever its sizes
 * (select_rules_all_native): then no rank agrees on them.  The blocking
 * form's answer is kept per configuration
 * (struct comm_state, rules_native), so that online_skip_sizes_of answers
 * an interposed call from it at the entry point.  Collective the first
 * time where the rules name a node shape (the node layout). */
bool alltoallv_rules_native(struct comm_state *cs, enum call_kind kind);
/* After an agreed blocking automatic alltoallv (t: its turn, ended):
 * opens the next window or closes it; `rule_sizes`: the call's agreed
 * sizes (largest block, most and fewest bytes) where a tuning rule sent
 * it below, else NULL. */
void online_skip_note(struct comm_state *cs, const struct online_turn *t,
                      const int64_t *rule_sizes);

#endif
