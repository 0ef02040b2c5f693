/* Online selection in a call (online_turn.h). */
#include "online_turn.h"

#include <stdio.h>
#include <string.h>

#include "../config/config.h"
#include "../select/select.h"
#include "agree.h"
#include "state/node.h"
#include "state/setup.h"
#include "state/state.h"
#include "stats.h"

static struct online_params params(const struct config *cfg)
{
    return (struct online_params){(int)cfg->online_calls, cfg->online_window,
                                  ONLINE_NATIVE_MARGIN, ONLINE_MARGIN,
                                  cfg->online_calls_set ? 0 : ONLINE_LONG_CALLS};
}

/* The shape's vector: a reduction's elements (reduce_scatter: all ranks'
 * together), an all-to-all's (agreed largest) block. */
static int64_t shape_count(colibri_coll coll, const struct sched_params *p)
{
    if (coll != COLIBRI_REDUCE_SCATTER)
        return p->count;
    int64_t n = 0;
    for (int i = 0; i < p->size; i++)
        n += p->counts[i];
    return n;
}

void online_turn_begin(struct comm_state *cs, colibri_coll coll, enum call_kind kind,
                       const char *requested, bool native_ok, const struct sched_params *before,
                       struct sched_params *sp, const struct algorithm **alg,
                       struct online_turn *t)
{
    const struct config *cfg = config_get();
    t->s = NULL;
    if (!cfg->online || !select_names_auto(coll, requested) || before->size < 2 || !*alg ||
        select_rule_decides(coll, before))
        return;
    /* the key: what every rank of the call agrees on, never a handle
     * (a freed and recreated one may come back on one rank only) */
    const struct online_key k = {(int)coll, before->root,
                                 online_size_class(shape_count(coll, before)),
                                 before->elem_size, before->commutative, *alg,
                                 before->sparse != NULL, native_ok,
                                 coll == COLIBRI_ALLGATHERV
                                     ? online_size_class(before->volume_max)
                                     : 0};
    if (kind != CALL_BLOCKING) { /* the blocking shape's decision, if it has one */
        const struct algorithm *a = *alg;
        if (!online_reuse(&cs->online, &k, &a) || a == *alg)
            return;
        if (!a && kind == CALL_PERSISTENT && MPI_VERSION < 4)
            return; /* no persistent collectives below (MPI-4) */
        struct sched_params q = *before;
        if (a && ((a->restrictions & R_BLOCKING_ONLY) || catalog_violation(a, &q)))
            return; /* the model's choice, as without a decision */
        select_prepare(&q, a);
        *sp = q;
        *alg = a;
        return;
    }
    struct online_shape *s = online_shape_find(&cs->online, &k);
    if (!s) {
        const struct algorithm *cand[ONLINE_CANDIDATES];
        const int n = select_candidates(coll, before, *alg, native_ok, cand);
        if (n < 2)
            return;
        bool fresh;
        s = online_shape_get(&cs->online, &k, cand, n, &fresh);
    }
    const struct online_params pr = params(cfg);
    t->s = s;
    t->step = online_next(s, &pr);
    const struct algorithm *a = s->cand[t->step.cand < 0 ? 0 : t->step.cand];
    if (a == *alg)
        return;
    struct sched_params q = *before;
    if (a && catalog_violation(a, &q)) { /* cannot run this call: the model's choice, untimed */
        t->step.timed = false;
        return;
    }
    select_prepare(&q, a);
    *sp = q;
    *alg = a;
}

double online_turn_entry(enum call_kind kind)
{
    return kind == CALL_BLOCKING && config_get()->online ? PMPI_Wtime() : 0;
}

static const char *cand_name(const struct online_shape *s, int i)
{
    return s->cand[i] ? s->cand[i]->name : "native";
}

/* COLIBRI_ONLINE_TRACE=2: this rank's times of each candidate (us) and its
 * score, before the agreement. */
static void trace_samples(const struct comm_state *cs, const struct online_shape *s,
                          const double score[ONLINE_CANDIDATES])
{
    char line[1024];
    int n = snprintf(line, sizeof line, "colibri: online %s counts %lld+ rank %d times (us):",
                     colibri_coll_name((colibri_coll)s->key.coll), (long long)s->key.count, cs->rank);
    for (int i = 0; i < s->n_cand && n < (int)sizeof line; i++) {
        n += snprintf(line + n, sizeof line - (size_t)n, " %s", cand_name(s, i));
        for (int j = 0; j < s->n_sample[i] && n < (int)sizeof line; j++)
            n += snprintf(line + n, sizeof line - (size_t)n, " %.2f", s->sample[i][j] * 1e6);
        if (n < (int)sizeof line)
            n += snprintf(line + n, sizeof line - (size_t)n, " -> %.2f;", score[i] * 1e6);
    }
    fprintf(stderr, "%s\n", line);
}

/* COLIBRI_ONLINE_TRACE=1: each decision's agreed scores and winner, by the
 * communicator's rank 0. */
static void trace_decision(const struct online_shape *s, const double agreed[ONLINE_CANDIDATES],
                           bool had, int w)
{
    char line[512];
    int n = snprintf(line, sizeof line, "colibri: online %s counts %lld+ %s %lld, agreed us:",
                     colibri_coll_name((colibri_coll)s->key.coll), (long long)s->key.count,
                     had ? "re-check" : "decision", s->decisions);
    for (int i = 0; i < s->n_cand && n < (int)sizeof line; i++)
        n += agreed[i] < ONLINE_NONE
                 ? snprintf(line + n, sizeof line - (size_t)n, " %s %.2f", cand_name(s, i),
                            agreed[i] * 1e6)
                 : snprintf(line + n, sizeof line - (size_t)n, " %s none", cand_name(s, i));
    fprintf(stderr, "%s -> %s, next check in %lld calls\n", line, cand_name(s, w), s->window);
}

int online_turn_end(struct comm_state *cs, struct online_turn *t, int rc)
{
    struct online_shape *s = t->s;
    if (!s)
        return rc;
    const struct config *cfg = config_get();
    const colibri_coll coll = (colibri_coll)s->key.coll;
    if (!t->step.settled && !t->step.pause) {
        setup_stats.online_explored++;
        stats_online_explored(coll);
    }
    if (t->step.timed && rc == MPI_SUCCESS) {
        const struct algorithm *a = s->cand[t->step.cand];
        const double secs = cfg->online_fake[0]
                                ? online_fake_seconds(cfg->online_fake, a ? a->name : "native",
                                                      cs->rank, t->step.call)
                                : PMPI_Wtime() - t->t0;
        online_record(s, t->step.cand, secs);
    }
    if (!t->step.decide && !t->step.block_end)
        return rc;
    double score[ONLINE_CANDIDATES];
    online_scores(s, score);
    if (cfg->online_trace >= 2)
        trace_samples(cs, s, score);
    setup_stats.online_agreements++;
    const int arc = agree_max_n(cs, MPI_DOUBLE, score, ONLINE_CANDIDATES);
    if (t->step.block_end) { /* a paced exploration pauses (no pause without figures) */
        const struct online_params pr = params(cfg);
        const long long pause = arc == MPI_SUCCESS ? online_block_end(s, score, &pr) : 0;
        if (cfg->online_trace && cs->rank == 0 && pause > 0)
            fprintf(stderr, "colibri: online %s counts %lld+ pause of %lld calls on %s after %s\n",
                    colibri_coll_name(coll), (long long)s->key.count, pause,
                    cand_name(s, s->pause_cand), cand_name(s, t->step.cand));
        return rc != MPI_SUCCESS ? rc : arc;
    }
    if (arc != MPI_SUCCESS) /* no agreed figures: the model's choice */
        for (int i = 0; i < ONLINE_CANDIDATES; i++)
            score[i] = i == 0 ? 0 : ONLINE_NONE;
    const bool had = s->winner >= 0;
    const struct algorithm *was = had ? s->cand[s->winner] : NULL;
    const struct online_params pr = params(cfg);
    const int w = online_decide(s, score, &pr);
    if (cfg->online_trace && cs->rank == 0)
        trace_decision(s, score, had, w);
    stats_online_decided(coll, had, was, s->cand[w], s->explore_extra);
    return rc != MPI_SUCCESS ? rc : arc;
}

/* The native memo's pending exploring call, per thread (a thread makes one
 * MPI call at a time). */
static _Thread_local struct {
    struct comm_state *cs;
    struct online_turn t;
} pending;

bool online_turn_memo_begin(struct comm_state *cs, struct online_shape *s, unsigned stamp,
                            const struct algorithm *alg)
{
    const struct config *cfg = config_get();
    const struct online_params pr = params(cfg);
    if (!cfg->online || s->stamp != stamp)
        return false;
    const struct online_step next = online_peek(s, &pr);
    if (next.settled || next.decide || next.block_end || next.cand < 0 ||
        next.cand >= s->n_cand || s->cand[next.cand] != alg)
        return false;
    setup_stats.online_memo_explored++;
    pending.cs = cs;
    pending.t = (struct online_turn){.s = s, .step = online_next(s, &pr)};
    online_turn_clock(&pending.t);
    return true;
}

int online_turn_memo_end(int rc)
{
    struct online_turn t = pending.t;
    pending.t.s = NULL;
    return online_turn_end(pending.cs, &t, rc);
}

/* A call that goes below because the tuning file sends it there: every
 * size, or the sizes of the last agreed calls (a rule's window). */
static void rule_skip(struct comm_state *cs, enum call_kind kind)
{
    setup_stats.rule_skipped++;
    cs->last[COLIBRI_ALLTOALLV] = "native";
    stats_count(NULL, COLIBRI_ALLTOALLV, kind);
}

bool online_skip_sizes(struct comm_state *cs)
{
    struct online_skip *k = &cs->alltoallv_skip;
    if (k->generation != config_get()->generation)
        return false;
    if (online_skip_rule_open(k)) {
        online_skip_rule_pass(k);
        rule_skip(cs, CALL_BLOCKING);
        return true;
    }
    if (!k->shape || !online_skip_pass(k))
        return false;
    setup_stats.online_skipped++;
    stats_online_skipped(COLIBRI_ALLTOALLV);
    cs->last[COLIBRI_ALLTOALLV] = "native";
    stats_count(NULL, COLIBRI_ALLTOALLV, CALL_BLOCKING);
    return true;
}

/* The communicator's state, remembered per thread for the next call on
 * the same communicator (valid while no communicator with colibri state
 * has been freed: comm_state_epoch); NULL where it has none. */
_Thread_local struct online_seen online_seen;

struct comm_state *online_skip_state(MPI_Comm comm)
{
    const unsigned epoch = __atomic_load_n(&comm_state_epoch, __ATOMIC_RELAXED);
    struct comm_state *cs = online_seen_state(comm);
    if (cs)
        return cs;
    cs = comm_state_find(comm);
    if (cs) {
        online_seen.comm = comm;
        online_seen.epoch = epoch;
        online_seen.cs = cs;
    }
    return cs;
}


bool online_skip_sizes_slow(MPI_Comm comm)
{
    struct comm_state *cs = online_skip_state(comm);
    if (!cs)
        return false;
    const char *named = config_get()->algorithm[COLIBRI_ALLTOALLV];
    if (named[0] == 'n' && strcmp(named, "native") == 0) {
        setup_stats.named_skipped++;
        cs->last[COLIBRI_ALLTOALLV] = "native";
        stats_count(NULL, COLIBRI_ALLTOALLV, CALL_BLOCKING);
        return true;
    }
    if (cs->rules_native_interposed && cs->rules_native_gen == config_get()->generation + 1) {
        rule_skip(cs, CALL_BLOCKING);
        return true;
    }
    const struct online_skip *k = &cs->alltoallv_skip;
    return (k->shape || online_skip_rule_open(k)) && k->interposed_auto &&
           online_skip_sizes(cs); /* which checks the configuration's generation */
}

bool alltoallv_rules_native(struct comm_state *cs, enum call_kind kind)
{
    const bool nonblocking = kind != CALL_BLOCKING;
    const struct config *cfg = config_get();
    if (!nonblocking && cs->rules_native_gen == cfg->generation + 1) {
        if (cs->rules_native)
            rule_skip(cs, CALL_BLOCKING);
        return cs->rules_native;
    }
    struct sched_params q = {.rank = cs->rank, .size = cs->size, .nonblocking = nonblocking};
    const bool all = (!select_wants_layout(COLIBRI_ALLTOALLV) ||
                      node_layout_get(cs, &q.layout) == MPI_SUCCESS) &&
                     select_rules_all_native(COLIBRI_ALLTOALLV, &q);
    if (!nonblocking) {
        cs->rules_native = all;
        cs->rules_native_interposed = all && select_names_auto(COLIBRI_ALLTOALLV, NULL);
        cs->rules_native_gen = cfg->generation + 1;
    }
    if (all)
        rule_skip(cs, kind);
    return all;
}

void online_skip_note(struct comm_state *cs, const struct online_turn *t,
                      const int64_t *rule_sizes)
{
    const struct config *cfg = config_get();
    struct online_skip *k = &cs->alltoallv_skip;
    const struct online_params pr = params(cfg);
    /* a tuning rule for some alltoallv: online selection's windows stay
     * shut (the rule wins where it has one, and only the agreed sizes say
     * where); the rule's own windows below */
    online_skip_after(k, &cs->online, COLIBRI_ALLTOALLV,
                      select_has_rules(COLIBRI_ALLTOALLV) ? NULL : t->s, &pr);
    k->generation = cfg->generation;
    k->interposed_auto = select_names_auto(COLIBRI_ALLTOALLV, NULL);
    /* a rule's window (the same on every rank: agreed sizes, the same
     * rules, the same calls) */
    online_skip_rule_after(k, rule_sizes);
}
