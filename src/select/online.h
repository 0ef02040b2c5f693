/*
 * Online selection (docs/tuning.md, "Online selection"): automatic
 * selection learns from the application's own blocking calls where no
 * tuning rule decides.  Per call shape of a communicator (collective,
 * count, type size, commutativity, root and the model's own choice, which
 * stands for everything else the selector keys on: p, the node layout,
 * the agreed sparsity), the model's choice, `native`, where the model is
 * unsure its runner-up, and its choice on a network ONLINE_BETA_SPAN times
 * slower (select.h, select_candidates) each run `calls` consecutive calls of the
 * shape; the first of each is not timed (first use: page faults, setup,
 * a schedule built).  At the last exploring call every rank agrees on the
 * per-candidate scores (one MPI_MAX of ONLINE_CANDIDATES doubles, the
 * caller's) and decides from the agreed figures alone, so every rank
 * decides the same; then the winner runs, re-checked after a window of
 * calls that doubles at each re-check that keeps it.
 *
 * Everything here is pure arithmetic on per-communicator tables (no MPI,
 * no clock): the runtime times the calls and runs the agreement
 * (runtime/online_turn.c), tests/unit/test_online_plan.c checks this file.
 *
 * Why every rank reaches the same call at the same step: collectives of a
 * communicator are called in the same order on every rank, and a shape's
 * key holds only what every rank of a call agrees on, so a shape's call
 * count is the same on every rank at each of its calls, and the plan
 * (which candidate, when to agree) is a function of that count alone.
 * Every path a call of the shape can take counts it: the full path
 * (online_next) and the memos of an identical call (online_memo_pass);
 * eviction from the table is by least recent use counted the same way.
 */
#ifndef COLIBRI_ONLINE_H
#define COLIBRI_ONLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct algorithm;

#define ONLINE_CANDIDATES 4 /* the model's choice, native, the model's runner-up, its choice on
                             * a slower network or, on one node, its best of the other kind
                             * (select.h, select_candidates) */
#define ONLINE_SHAPES 16    /* shapes a communicator keeps (least recently used replaced) */
#define ONLINE_SAMPLES 8    /* timed calls per candidate kept, at most */
#define ONLINE_NONE 1e300   /* the score of a candidate with no valid time */
/* A candidate's time that is not a time: negative (a timer that went
 * backwards) or longer than this (a timer that jumped). */
#define ONLINE_MAX_SECONDS 3600.0

/* The knobs (config.h: COLIBRI_ONLINE_CALLS, COLIBRI_ONLINE_WINDOW). */
struct online_params {
    int calls;          /* consecutive calls per candidate, the first untimed: 2..ONLINE_SAMPLES+1 */
    long long window;   /* settled calls before the first re-check (doubles at each re-check
                         * that keeps the winner, back to this after a switch) */
    double native_margin; /* a colibri algorithm runs instead of native only when this much
                           * faster, at every decision (native is always the incumbent) */
    double margin;        /* at a re-check, another colibri algorithm replaces the winner only
                           * when this much faster */
    int long_calls;       /* calls per candidate of a shape of ONLINE_LONG_BYTES or more, where
                           * fewer than `calls` (0: `calls`) */
};
/* From this many bytes (count x element size), a shape explores with
 * long_calls calls per candidate: a call takes tens of microseconds or
 * more, its time varies less, and an application makes fewer of them. */
#define ONLINE_LONG_BYTES 65536
#define ONLINE_LONG_CALLS 3
#define ONLINE_DEFAULT_CALLS 5
/* A first decision, and a switch, is confirmed by a re-check after this
 * many calls (or the window, if shorter): a shape's first exploration
 * runs while the program and the MPI below are still cold.  Short shapes
 * wait longer (their calls are cheap, their times noisier, and Intel MPI
 * 2021.19's short alltoall warms up over its first ~250 calls); long ones
 * (ONLINE_LONG_BYTES) are confirmed sooner. */
#define ONLINE_CONFIRM_WINDOW 256
#define ONLINE_CONFIRM_LONG 64
/* Native's warm-up.  The MPI below may be slow for the first calls of a
 * size and fast after: Intel MPI 2021.19's 128 KiB reduce on one node
 * takes 130-250 us for its first ~16 calls of a size and 10-20 us after
 * (a new communicator of the same size starts fast), and an MPI on a
 * network that registers memory pays it at the first calls with a buffer.
 * A long shape's exploration gives native ONLINE_LONG_CALLS calls, so
 * every re-check measured the same cold calls and a colibri algorithm at
 * 1.5x native's warm time stayed for good (26-29 us against 19, 1500 calls
 * of that reduce).  So where a decision for a colibri candidate finds
 * native's agreed time ONLINE_CLEAR_LOSS or more times the winner's, a
 * long shape's next exploration gives native twice the timed calls (up to
 * ONLINE_NATIVE_WARM doublings: 3, 5, 9, 17 calls with the first untimed)
 * and comes after the confirmation window, not a doubled one; a
 * candidate's score reads its last ONLINE_SAMPLES timed calls. */
#define ONLINE_NATIVE_WARM 3
/* ...and that exploration comes after ONLINE_CONFIRM_WARM calls, not the
 * confirmation window, where native may be warming: at a shape's first
 * decision (native timed cold: Intel MPI's 512 KiB reduce read 385-470 us
 * at the first exploration and 50-110 warm, and a benchmark making tens of
 * calls of a size ran node_leader at 1.2-1.4x native's warm time for the
 * 64 calls before the re-check) and where native's agreed time fell by
 * ONLINE_WARM_FALL or more since the last decision. */
#define ONLINE_CONFIRM_WARM 8
#define ONLINE_WARM_FALL 1.25
/* Re-checks monitor the winner and its contenders: a colibri candidate
 * that took at least ONLINE_CLEAR_LOSS times the winner's agreed time at
 * a decision other than the shape's first (a cold start slows everything)
 * is left out of the re-checks that follow (bit i of the shape's
 * `dropped`), as STAR-MPI monitors only its winner once it has one: a
 * re-check costs what its slowest candidates cost (Intel MPI 2021.19's
 * 128 KiB allreduce, 2 ranks: node_split_rail and node_leader 60-100 us
 * against native's 33-46 at every re-check; an 8-byte alltoallv's
 * `linear` 2x native's time).  They come back when the winner changes or
 * its agreed time moves by ONLINE_CLEAR_LOSS either way from the last
 * decision's (the machine or the program changed); the winner and native
 * are never left out. */
/* No confirmation for a first decision that keeps native where every
 * colibri candidate took at least this many times native's agreed time:
 * a cold start slows a candidate down, it does not speed one up, and
 * the confirmation's exploration costs most where native's calls are
 * cheapest (Open MPI's 8-byte alltoallv, 0.45 us, against about 1.5 us
 * for an exploring call that agrees on sizes first). */
#define ONLINE_CLEAR_LOSS 1.5
/* A new long shape (online_long) starts with the colibri candidates
 * dropped that its nearest decided neighbour below left out or would
 * have (so a size that inherited passes it on): the shape of the same
 * collective and call properties (its model's choice aside) with the
 * largest count below the new one, itself
 * long and at most ONLINE_INHERIT_SPAN times smaller, where that
 * candidate took at least ONLINE_CLEAR_LOSS times its winner's agreed
 * time at the neighbour's last decision.  From 64 KiB a call moves
 * bytes more than it waits, and a candidate 1.5x slower there stays
 * slower a size class or two up (Debian's Open MPI, 2 ranks, alltoallv:
 * sloavx 2.4x native at 128 KiB, 2.7x at 256 KiB, 3x at 2 MiB, where
 * each exploration ran it for three calls at every new size).  Upward
 * only: below about the cache's size the ranking turns (sloavx 0.76x
 * native at 32 KiB).  It comes back as a re-check's dropped candidates
 * do (the winner changes or its time moves); native is never dropped.
 * A function of agreed scores and the table, the same on every rank. */
#define ONLINE_INHERIT_SPAN 4
#define ONLINE_WINDOW_MAX (1ll << 20)
/* 10%: the agreed figures of a few calls err by about that much on a
 * shared 2-core machine (docs/tuning.md), and a colibri algorithm chosen
 * on a smaller lead may run slower than the MPI below once settled. */
#define ONLINE_NATIVE_MARGIN 0.10
#define ONLINE_MARGIN 0.10
/* ...and by at least this many seconds a call: below 50 ns, a few calls'
 * agreed times cannot tell a colibri algorithm from the MPI below on a
 * shared machine (two timer reads take 40 ns; a cache line's hand-off
 * between cores varies by more), and the saving would be within what the
 * interposed call costs by itself (0.02-0.03 us on one rank, Open MPI 5,
 * an 8-byte allreduce through the native memo).  Measured: Open MPI
 * 5.0.11's 8-byte reduce, 0.40 us, 2 ranks: `node_leader` scored 0.43-0.64
 * us in explorations and, once in about five runs, 10% under native, then
 * ran 1.0-1.3x native's time in the benchmark's loops (dropin-bench -P,
 * forced); at 512 B it wins by 0.1-0.2 us and still does. */
#define ONLINE_NATIVE_GAIN 50e-9
/* The model is unsure when its runner-up's modelled time is within this
 * factor of its choice's: the runner-up is explored too. */
#define ONLINE_UNSURE 1.25
/* The network the model assumes (100 Gb/s per rank unless a tuning file or
 * COLIBRI_COST_MODEL says otherwise) may be this many times slower per
 * byte: 2.5 Gb/s per rank, the sparse-reduction seed's DDR port shared by
 * 8 cores.  Where the model's choice on such a network differs, it is
 * explored too (select_candidates): on that network sparse algorithms win
 * at densities where they lose at 100 Gb/s, and a shared port changes the
 * dense ranking. */
#define ONLINE_BETA_SPAN 40.0

/* Size classes: a shape keys on its count's class, not the count itself.
 * Counts whose three leading bits agree (the leading one and the next
 * two) share a class, four per octave, each spanning less than 25% above
 * its smallest count; counts below 8 are classes of their own.  An
 * application whose counts drift from call to call (particle counts,
 * adaptive meshes, alltoallv's largest block) so explores and settles once
 * per class, where exact counts had it explore every count it met, and
 * churn the table's 16 shapes with counts it might never repeat (each new
 * shape's first call is the model's choice, unexplored).  The price: the
 * calls of one exploration may differ in count by up to that 25%, which
 * the 10% margins absorb only where the counts drift slowly; a benchmark
 * stepping by a factor of 2 meets one count per class, as before. */
#define ONLINE_CLASS_BITS 3
static inline int64_t online_size_class(int64_t count)
{
    if (count < ((int64_t)1 << ONLINE_CLASS_BITS))
        return count;
    const int top = 63 - __builtin_clzll((unsigned long long)count);
    return count & ~(((int64_t)1 << (top - (ONLINE_CLASS_BITS - 1))) - 1);
}

struct online_key {
    int coll, root;
    int64_t count; /* its class (online_size_class): the smallest count of the class */
    size_t elem_size;
    bool commutative;
    const struct algorithm *model; /* the model's choice (never NULL for a shape) */
    bool sparse;                   /* the operation has a sparse form (a neutral element) */
    bool native_ok;                /* the MPI below may serve it (native.h, native_pair_agrees) */
    int64_t largest;               /* allgatherv: its largest block's bytes' class (count: all
                                    * blocks'), so that blocks spread alike share a shape;
                                    * 0 otherwise */
};

struct online_shape {
    bool used;
    struct online_key key;
    const struct algorithm *cand[ONLINE_CANDIDATES]; /* NULL: native */
    int n_cand;
    long long calls;         /* calls of the shape counted so far */
    long long explore_start; /* the current exploration's first call; -1: settled */
    long long quiet_until;   /* settled: calls before this run the winner, no question asked */
    long long window;
    int winner;              /* index into cand; -1 before the first decision */
    unsigned stamp;          /* changes at every decision (memos compare it) */
    unsigned last_use;       /* *clock at the shape's last call */
    unsigned *clock;         /* its table's */
    unsigned *version;       /* its table's */
    double sample[ONLINE_CANDIDATES][ONLINE_SAMPLES];
    int n_sample[ONLINE_CANDIDATES];
    long long decisions, switches;
    /* what the last exploration cost, in seconds, over running its winner
     * throughout: each candidate's calls (untimed first one included) at
     * its agreed score minus the winner's (negative where a candidate ran
     * faster than the winner that the margins kept); COLIBRI_STATS */
    double explore_extra;
    unsigned dropped;   /* candidates (bit i: cand[i]) that re-checks leave out (online_decide),
                         * or that a new shape inherits (ONLINE_INHERIT_SPAN) */
    double agreed_last[ONLINE_CANDIDATES]; /* the last decision's agreed scores (ONLINE_NONE:
                                            * none): native's, the winner's, the others' */
    /* a paced exploration (a long shape's, online_long): */
    long long explore_i;   /* the exploration's steps taken, pauses not counted */
    long long pause_until; /* while calls is below this, the exploration pauses... */
    int pause_cand;        /* ...running this candidate (the best so far), untimed */
    long long paused;      /* the calls its pauses have taken so far */
    int native_warm;       /* doublings of native's timed calls (ONLINE_NATIVE_WARM) */
};

struct online_table {
    struct online_shape shape[ONLINE_SHAPES];
    unsigned clock;
    /* Changes whenever what a nonblocking or persistent call reuses may
     * change: at every decision, and when a decided shape is replaced.
     * A memo of such a call (native.h, api/reductions.c) serves it only
     * while this stands (online_reuse). */
    unsigned version;
};

/* The shape of key k in t: the existing one, else a new one in the least
 * recently used slot, with candidates cand[0..n-1] (cand[0] the model's
 * choice) and its exploration starting now; *fresh says which. */
struct online_shape *online_shape_get(struct online_table *t, const struct online_key *k,
                                      const struct algorithm *const cand[], int n,
                                      bool *fresh);
/* The shape of key k if t has one (counts nothing). */
struct online_shape *online_shape_find(struct online_table *t, const struct online_key *k);

/* This call of the shape (counted): the candidate to run; whether its time
 * is wanted (online_record); whether, after it, the ranks agree on the
 * scores and decide (online_scores, online_decide); whether the shape is
 * settled (the winner runs, nothing timed). */
struct online_step {
    int cand;
    long long call; /* the shape's call index of this call */
    bool timed, decide, settled;
    bool block_end; /* a paced exploration's last call of a candidate (not the deciding
                     * one): after it the ranks agree on the scores so far and pause
                     * (online_block_end) */
    bool pause;     /* a call of a paced exploration's pause: the best so far, untimed */
};
struct online_step online_next(struct online_shape *s, const struct online_params *pr);
/* What online_next would answer for the shape's next call, counting
 * nothing. */
struct online_step online_peek(const struct online_shape *s, const struct online_params *pr);

/*
 * Paced exploration.  A long shape (ONLINE_LONG_BYTES or more) explores
 * in calls that cost tens of microseconds to milliseconds each, and an
 * application may make only tens of them (a benchmark's 2 MiB loop holds
 * 3-7 calls): four candidates of three calls each filled every loop, at
 * up to 3x the MPI's time a call.  So a long shape's exploration pauses
 * after each candidate's calls from native's on (native is the second
 * candidate; the model's choice, the first, has nothing to be compared
 * with before): the ranks agree on the scores so far (one small MPI_MAX,
 * as at the decision) and then run the best so far (colibri's only where
 * it beats native by the native margin, as a decision would have it;
 * untimed, not counted as exploring) for as many calls as keep what the
 * exploration has cost over that best, its candidates' calls at their
 * agreed scores, within ONLINE_BUDGET of the time all the calls since it
 * began would take at the best's score; at most ONLINE_PAUSE_MAX calls of
 * pauses an exploration.  No pause where the best so far is colibri's and
 * takes at most ONLINE_PACE_CLEAR of native's time: a clear win, where
 * finding a better one soon matters more than what looking costs (SMPI's
 * 1 MiB allreduce on 16 ranks, Rabenseifner 174 us against native's 1604,
 * or a sparse algorithm still to be explored on the sparse seed's
 * cluster).  Every rank pauses alike: the pause is a function of agreed
 * scores and the shape's calls.
 */
#define ONLINE_BUDGET 0.05
#define ONLINE_PAUSE_MAX 1024
#define ONLINE_PACE_CLEAR 0.5
/* Whether s is a long shape (ONLINE_LONG_BYTES or more): fewer calls per
 * candidate, a sooner confirmation, a paced exploration. */
static inline bool online_long(const struct online_shape *s)
{
    return (double)s->key.count * (double)s->key.elem_size >= ONLINE_LONG_BYTES;
}
/* After a block_end step, from the agreed scores so far (ONLINE_NONE for
 * the candidates not yet explored): sets the pause and its candidate;
 * returns the pause's calls. */
long long online_block_end(struct online_shape *s, const double agreed[ONLINE_CANDIDATES],
                           const struct online_params *pr);

/* A timed call's seconds (invalid times are dropped: ONLINE_MAX_SECONDS). */
void online_record(struct online_shape *s, int cand, double seconds);

/* This rank's score of each candidate (n_cand values): the mean of the
 * faster half of its times (online_fast_mean), ONLINE_NONE without any. */
void online_scores(const struct online_shape *s, double score[ONLINE_CANDIDATES]);

/* Decides from the agreed scores (the maximum over ranks of each), ends
 * the exploration and opens the settled window; returns the winner: the
 * fastest colibri candidate (the previous winner kept unless another is
 * `margin` faster) where it is `native_margin` and ONLINE_NATIVE_GAIN
 * faster than native, else
 * native (where native is a candidate).  "Faster than native": than
 * native's score now and than its score at the shape's last decision, if
 * any: a few calls' agreed times of a call of a microsecond err by 20-50%
 * on a shared 2-core machine (Intel MPI 2021.19's 32-byte
 * reduce_scatter_block: native 1.94 us at one re-check, 1.04-1.21 at the
 * others), and one slow native sample gave node_split_rail, 1.2x slower,
 * a window of 256 calls. */
int online_decide(struct online_shape *s, const double agreed[ONLINE_CANDIDATES],
                  const struct online_params *pr);

/* The pure rules, exposed for tests/unit/test_online_plan.c. */
/* The mean of the faster half of v[0..n-1] (the (n+1)/2 smallest values;
 * v is reordered); ONLINE_NONE for n = 0.  Noise in a call's time is
 * one-sided: preemption, page faults, a peer late from its own work or an
 * MPI warming up (Intel MPI 2021.19's alltoall takes ~10 us instead of
 * 1.3 at every 4th call of its first ~250 on a communicator) only add
 * time, so the faster half says what a candidate costs when nothing else
 * intervenes; a candidate that is slow by itself is slow in all its calls. */
double online_fast_mean(double *v, int n);
/* The fastest of score[0..n-1] (ties: the lower index), except that the
 * incumbent (-1: none) stays unless the fastest beats it by `margin`
 * (0.1: 10% less time); scores of ONLINE_NONE never win, and when all are,
 * the incumbent, else 0, is kept. */
int online_pick(const double *score, int n, int incumbent, double margin);
/* The window after a decision: the first, or a re-check that replaced the
 * winner (kept false): the confirmation window `confirm` (at most the full
 * one); a re-check that kept it: the full window after a confirmation,
 * else twice the last. */
long long online_next_window(long long window, bool kept, long long confirm,
                             const struct online_params *pr);

/* The test hook (COLIBRI_ONLINE_FAKE): the seconds a timed call of
 * candidate `alg` ("native" or a catalog name) is taken to have lasted on
 * `rank` at the shape's call `call`.  spec "random:SEED": pseudo-random in
 * 1..1000 us of (seed, rank, call, alg); else a list "NAME:US,NAME@R:US,...":
 * US microseconds for NAME, on rank R only with @R (which wins over the
 * plain entry), 1000 us for names not listed. */
double online_fake_seconds(const char *spec, const char *alg, int rank, long long call);

/* What a nonblocking or persistent call of key k reuses (docs/tuning.md,
 * "Nonblocking and persistent calls"): the decision of the blocking shape
 * with the same key, if t has one that has decided (its winner, also
 * while a re-check explores: the winner stands until the re-check
 * decides); *alg is left as it is (the model's choice) otherwise.  True
 * when a decision was found (*alg: it, NULL for native).  Reads only:
 * blocking and nonblocking calls of a communicator come in the same order
 * on every rank, so every rank reads the same state at the same call. */
bool online_reuse(const struct online_table *t, const struct online_key *k,
                  const struct algorithm **alg);

/* Whether a shape of `coll` in t other than s has settled on one of
 * colibri's algorithms (its winner not native).  While one has, the
 * communicator's alltoallv calls of s settled on native skip their size
 * agreement only while they follow one another (online_skip_after); a
 * call of s after another shape's pays the agreement and colibri's driver
 * before the MPI's call: online_turn.h charges native's exploring calls
 * from the driver's entry then. */
bool online_other_settled_colibri(const struct online_table *t, int coll,
                                  const struct online_shape *s);

/* A memo of an identical call (api/reductions.c, runtime/native.h) made
 * when the shape was settled with `stamp` may serve this call: it is
 * counted as the full path would count it.  False once the shape decided
 * again (another stamp) or its window ended (the full path re-checks). */
static inline bool online_memo_pass(struct online_shape *s, unsigned stamp)
{
    if (s->stamp != stamp || s->calls >= s->quiet_until)
        return false;
    s->calls++;
    s->last_use = ++*s->clock;
    return true;
}

/*
 * The size agreement of automatic alltoallv (api/alltoall.c): its choice
 * depends on every rank's block sizes, so a call agrees on them (one
 * small allreduce) before it selects, and that agreement costs more than a
 * short native alltoallv.  Calls skip it for a window of calls and go to
 * the MPI below (always legal, whatever the sizes), each counted in the
 * shape of the last agreed call as its memo would count it
 * (online_memo_pass: the window ends with that shape's own re-check at the
 * latest), in two cases:
 *  - every alltoallv shape the communicator has agreed on is settled on
 *    native: windows of ONLINE_SKIP_FIRST calls, doubled at each agreement
 *    that finds them all still there, up to ONLINE_SKIP_MAX;
 *  - some shape is settled on one of colibri's algorithms, but the last
 *    two agreed calls (and those since: none skipped in between) found the
 *    same shape, settled on native: the sizes stay in one class, so the
 *    window is opened as above, up to ONLINE_SKIP_MIXED_MAX (a phase of
 *    the application that moves to a shape on colibri's algorithm runs
 *    native until the window ends: at most that many calls).
 *  - the last agreed call's shape is exploring and pauses on native
 *    (online_block_end: a long shape's paced exploration): the pause's
 *    calls, at most ONLINE_SKIP_MIXED_MAX of them where another shape is
 *    settled on one of colibri's algorithms (an agreement took 2-4 us of
 *    Debian Open MPI's 25 us 128 KiB alltoallv, and pauses there ran 20-60
 *    calls at every exploration).
 * Otherwise every call agrees; a call whose sizes moved to a shape not yet
 * settled is explored at the window's end.
 *
 * Every rank skips the same calls: all ranks make the same sequence of
 * blocking automatic alltoallv calls on a communicator, the window is
 * counted in those calls, and it opens and closes from the agreed (or, after
 * SLOAVx, predicted) shapes and their states alone, which are the same on
 * every rank.
 */
struct online_skip {
    struct online_shape *shape; /* the window's shape (NULL: no window open) */
    unsigned stamp;             /* its stamp then */
    long long until;            /* the window: while shape->calls is below this */
    long long window;           /* the window's length (0: none opened since the last agreement
                                 * that could not open one) */
    struct online_shape *last;  /* the last agreed call's shape (NULL: none, or a rule chose) */
    unsigned last_stamp;        /* its stamp then */
    unsigned generation;        /* the configuration's when it opened (runtime) */
    bool interposed_auto;       /* then: the interposed calls select automatically (runtime) */
    /* The same where a tuning rule, not online selection, sent the agreed
     * calls below (runtime/online_turn.c, online_skip_note): a window
     * opens where the last two agreed calls had sizes of the same classes
     * (largest block, most and fewest bytes a rank moves) that a rule
     * sent below, 16 calls doubling to ONLINE_SKIP_MIXED_MAX; any other
     * agreed call closes it.  Calls counted here, every automatic
     * blocking alltoallv of the communicator's, agreed or skipped. */
    long long rule_calls, rule_until, rule_window;
    int64_t rule_key[3];        /* the last agreed call's size classes */
    bool rule_last;             /* a rule sent the last agreed call below */
};
#define ONLINE_SKIP_FIRST 16
#define ONLINE_SKIP_MAX 1024
#define ONLINE_SKIP_MIXED_MAX 128

/* Whether the last agreed call's shape was s: where another shape is on
 * colibri's algorithm, s's calls settled on native will skip their
 * agreement while they keep coming (online_skip_after). */
static inline bool online_skip_follows(const struct online_skip *k, const struct online_shape *s)
{
    return s && k->last == s;
}

/* A call of a paced exploration's pause (online_block_end) that skips
 * its size agreement: counted in the shape as online_next counts a pause
 * step. */
static inline bool online_pause_pass(struct online_shape *s, unsigned stamp)
{
    if (s->stamp != stamp || s->explore_start < 0 || s->calls >= s->pause_until)
        return false;
    s->calls++;
    s->last_use = ++*s->clock;
    return true;
}

/* Whether this call skips the agreement (counted in the window's shape). */
static inline bool online_skip_pass(struct online_skip *k)
{
    return k->shape && k->shape->calls < k->until &&
           (online_memo_pass(k->shape, k->stamp) || online_pause_pass(k->shape, k->stamp));
}

/* After an agreed call of collective `coll` whose shape is s (NULL:
 * online selection did not serve it): opens the next window when s and
 * every other shape of `coll` in t are settled on native, else closes it. */
void online_skip_after(struct online_skip *k, const struct online_table *t, int coll,
                       struct online_shape *s, const struct online_params *pr);

/* A tuning rule's window is open: the next call skips (counted by the
 * caller with online_skip_rule_pass). */
static inline bool online_skip_rule_open(const struct online_skip *k)
{
    return k->rule_calls < k->rule_until;
}
static inline void online_skip_rule_pass(struct online_skip *k)
{
    k->rule_calls++;
}
/* After an agreed call (counted here): `rule_sizes` its agreed sizes
 * (largest block, most and fewest bytes) where a tuning rule sent it
 * below, else NULL; opens the rule's next window where the last agreed
 * call's were of the same classes and a rule sent it below too, else
 * closes it. */
void online_skip_rule_after(struct online_skip *k, const int64_t *rule_sizes);

#endif
