/* Online selection's arithmetic and tables (online.h says how it works). */
#include "online.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stamps are unique in the process, so a memo can never mistake a shape
 * decided again, or a slot given to another shape, for the one it saw. */
static unsigned stamps;
static unsigned new_stamp(void)
{
    return __atomic_add_fetch(&stamps, 1, __ATOMIC_RELAXED);
}

static bool same_key(const struct online_key *a, const struct online_key *b)
{
    return a->coll == b->coll && a->root == b->root && a->count == b->count &&
           a->elem_size == b->elem_size && a->commutative == b->commutative &&
           a->model == b->model && a->sparse == b->sparse && a->native_ok == b->native_ok &&
           a->largest == b->largest;
}

struct online_shape *online_shape_find(struct online_table *t, const struct online_key *k)
{
    for (int i = 0; i < ONLINE_SHAPES; i++)
        if (t->shape[i].used && same_key(&t->shape[i].key, k))
            return &t->shape[i];
    return NULL;
}

/* A new long shape's inherited drops (online.h, ONLINE_INHERIT_SPAN). */
static unsigned inherited_drops(const struct online_table *t, const struct online_shape *s)
{
    if (!online_long(s))
        return 0;
    const struct online_key *k = &s->key;
    const struct online_shape *near = NULL;
    for (int i = 0; i < ONLINE_SHAPES; i++) {
        const struct online_shape *x = &t->shape[i];
        const struct online_key *q = &x->key;
        if (x == s || !x->used || x->winner < 0 || q->coll != k->coll || q->root != k->root ||
            q->elem_size != k->elem_size || q->commutative != k->commutative ||
            q->sparse != k->sparse || q->native_ok != k->native_ok || q->largest != k->largest ||
            q->count >= k->count || q->count * ONLINE_INHERIT_SPAN < k->count || !online_long(x))
            continue;
        if (!near || q->count > near->key.count)
            near = x;
    }
    if (!near || !(near->agreed_last[near->winner] < ONLINE_NONE))
        return 0;
    unsigned drops = 0;
    for (int j = 0; j < s->n_cand; j++)
        for (int i = 0; s->cand[j] && i < near->n_cand; i++)
            if (near->cand[i] == s->cand[j] && i != near->winner &&
                ((near->dropped >> i & 1) ||
                 (near->agreed_last[i] < ONLINE_NONE &&
                  near->agreed_last[i] >= near->agreed_last[near->winner] * ONLINE_CLEAR_LOSS)))
                drops |= 1u << j;
    /* (never every candidate: without native, the shape explores them) */
    return drops == (1u << s->n_cand) - 1 ? 0 : drops;
}

struct online_shape *online_shape_get(struct online_table *t, const struct online_key *k,
                                      const struct algorithm *const cand[], int n, bool *fresh)
{
    struct online_shape *s = online_shape_find(t, k);
    *fresh = s == NULL;
    if (s)
        return s;
    s = &t->shape[0];
    for (int i = 0; i < ONLINE_SHAPES; i++) {
        struct online_shape *x = &t->shape[i];
        if (!x->used) {
            s = x;
            break;
        }
        if (x->last_use < s->last_use)
            s = x;
    }
    if (s->used && s->winner >= 0)
        t->version++; /* its decision is gone (online_reuse) */
    memset(s, 0, sizeof *s);
    s->used = true;
    s->key = *k;
    s->n_cand = n < ONLINE_CANDIDATES ? n : ONLINE_CANDIDATES;
    for (int i = 0; i < s->n_cand; i++)
        s->cand[i] = cand[i];
    s->explore_start = 0;
    s->winner = -1;
    s->stamp = new_stamp();
    s->clock = &t->clock;
    s->version = &t->version;
    for (int i = 0; i < ONLINE_CANDIDATES; i++)
        s->agreed_last[i] = ONLINE_NONE;
    s->dropped = inherited_drops(t, s);
    return s;
}

/* Whether a colibri candidate's agreed score x beats native's score by
 * the native margin and by ONLINE_NATIVE_GAIN (online.h). */
static bool beats_native(double x, double native, const struct online_params *pr)
{
    return x < native * (1 - pr->native_margin) && x < native - ONLINE_NATIVE_GAIN;
}

static int calls_per_candidate(const struct online_shape *s, const struct online_params *pr)
{
    int k = pr->calls;
    if (pr->long_calls > 0 && pr->long_calls < k && online_long(s))
        k = pr->long_calls;
    return k < 2 ? 2 : k > ONLINE_SAMPLES + 1 ? ONLINE_SAMPLES + 1 : k;
}

/* Candidate c's calls in an exploration: k, native's more while it warms
 * (ONLINE_NATIVE_WARM: the first untimed, then (k - 1) 2^native_warm). */
static int turn_calls(const struct online_shape *s, int k, int c)
{
    return s->cand[c] ? k : 1 + ((k - 1) << s->native_warm);
}

struct online_step online_peek(const struct online_shape *s, const struct online_params *pr)
{
    const long long c = s->calls;
    struct online_step st = {.cand = s->winner, .call = c};
    if (s->explore_start < 0 && c < s->quiet_until) {
        st.settled = true;
        return st;
    }
    if (s->explore_start >= 0 && c < s->pause_until) {
        st.cand = s->pause_cand;
        st.pause = true;
        return st;
    }
    const int k = calls_per_candidate(s, pr);
    /* the candidates this exploration runs, in order (re-checks leave the
     * dropped ones out), and its calls */
    int run[ONLINE_CANDIDATES], n = 0;
    long long total = 0;
    for (int c = 0; c < s->n_cand; c++)
        if (!(s->dropped >> c & 1))
            run[n++] = c;
    if (n == 0)
        run[n++] = s->winner >= 0 ? s->winner : 0; /* (never: the winner is not dropped) */
    for (int j = 0; j < n; j++)
        total += turn_calls(s, k, run[j]);
    /* (modulo: never past the plan's last candidate, even if a caller
     * missed a deciding call) */
    long long i = (s->explore_start < 0 ? 0 : s->explore_i) % total;
    const long long step = i;
    int j = 0;
    while (i >= turn_calls(s, k, run[j]))
        i -= turn_calls(s, k, run[j++]);
    st.cand = run[j];
    st.timed = i != 0;
    st.decide = step == total - 1;
    /* (from native's calls on: before them there is nothing to pause for) */
    st.block_end = !st.decide && i == turn_calls(s, k, run[j]) - 1 && online_long(s) &&
                   st.cand >= 1 && s->n_cand > 1 && !s->cand[1];
    return st;
}

struct online_step online_next(struct online_shape *s, const struct online_params *pr)
{
    const struct online_step st = online_peek(s, pr);
    const long long c = s->calls++;
    s->last_use = ++*s->clock;
    if (st.settled)
        return st;
    if (s->explore_start < 0) { /* the window has ended: explore again */
        s->explore_start = c;
        s->explore_i = 0;
        s->pause_until = 0;
        s->paused = 0;
        memset(s->n_sample, 0, sizeof s->n_sample);
    }
    if (!st.pause)
        s->explore_i++;
    return st;
}

long long online_block_end(struct online_shape *s, const double agreed[ONLINE_CANDIDATES],
                           const struct online_params *pr)
{
    int best = -1, native = -1;
    for (int i = 0; i < s->n_cand; i++) {
        if (!s->cand[i])
            native = i;
        if (agreed[i] < ONLINE_NONE && (best < 0 || agreed[i] < agreed[best]))
            best = i;
    }
    if (best < 0)
        return 0;
    if (native < 0 || !(agreed[native] < ONLINE_NONE))
        return 0;
    /* colibri's best runs only where a decision would take it now; where it
     * takes at most ONLINE_PACE_CLEAR of native's time, no pause */
    if (best != native && !beats_native(agreed[best], agreed[native], pr))
        best = native;
    if (best != native && agreed[best] <= agreed[native] * ONLINE_PACE_CLEAR)
        return 0;
    const int k = calls_per_candidate(s, pr);
    double excess = 0;
    for (int i = 0; i < s->n_cand; i++)
        if (agreed[i] < ONLINE_NONE && agreed[i] > agreed[best])
            excess += turn_calls(s, k, i) * (agreed[i] - agreed[best]);
    if (!(agreed[best] > 0))
        return 0;
    /* the calls since the exploration began (pauses included) and the
     * pause, all at the best's score, against the excess */
    const double need = excess / (ONLINE_BUDGET * agreed[best]) - (double)(s->calls - s->explore_start);
    long long pause = need > 0 ? (long long)ceil(need) : 0;
    if (pause > ONLINE_PAUSE_MAX - s->paused)
        pause = ONLINE_PAUSE_MAX - s->paused;
    if (pause < 0)
        pause = 0;
    s->paused += pause;
    s->pause_until = s->calls + pause;
    s->pause_cand = best;
    return pause;
}

void online_record(struct online_shape *s, int cand, double seconds)
{
    if (cand < 0 || cand >= s->n_cand || !(seconds >= 0 && seconds <= ONLINE_MAX_SECONDS))
        return; /* NaN, a timer that went backwards or jumped: not a time */
    if (s->n_sample[cand] == ONLINE_SAMPLES) /* the last ONLINE_SAMPLES (native's warm-up) */
        memmove(s->sample[cand], s->sample[cand] + 1, (ONLINE_SAMPLES - 1) * sizeof(double));
    else
        s->n_sample[cand]++;
    s->sample[cand][s->n_sample[cand] - 1] = seconds;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double online_fast_mean(double *v, int n)
{
    if (n <= 0)
        return ONLINE_NONE;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    const int k = (n + 1) / 2; /* the faster half, the middle one included */
    double sum = 0;
    for (int i = 0; i < k; i++)
        sum += v[i];
    return sum / k;
}

void online_scores(const struct online_shape *s, double score[ONLINE_CANDIDATES])
{
    for (int i = 0; i < ONLINE_CANDIDATES; i++) {
        double v[ONLINE_SAMPLES];
        const int n = i < s->n_cand ? s->n_sample[i] : 0;
        memcpy(v, s->sample[i], (size_t)n * sizeof *v);
        score[i] = online_fast_mean(v, n);
    }
}

int online_pick(const double *score, int n, int incumbent, double margin)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (score[i] < ONLINE_NONE && (best < 0 || score[i] < score[best]))
            best = i;
    if (best < 0)
        return incumbent >= 0 && incumbent < n ? incumbent : 0;
    if (incumbent < 0 || incumbent >= n || !(score[incumbent] < ONLINE_NONE))
        return best;
    return score[best] < score[incumbent] * (1 - margin) ? best : incumbent;
}

long long online_next_window(long long window, bool kept, long long confirm,
                             const struct online_params *pr)
{
    const long long first = pr->window > 0 ? pr->window : 1;
    if (!kept || window <= 0) /* a first decision or a switch: confirmed soon */
        return confirm > 0 && confirm < first ? confirm : first;
    if (window < first)
        return first; /* confirmed: the full window */
    return window * 2 > ONLINE_WINDOW_MAX ? ONLINE_WINDOW_MAX : window * 2;
}

int online_decide(struct online_shape *s, const double agreed[ONLINE_CANDIDATES],
                  const struct online_params *pr)
{
    const bool first = s->winner < 0;
    int native = -1;
    for (int i = 0; i < s->n_cand; i++)
        if (!s->cand[i])
            native = i;
    /* the fastest colibri candidate, the previous winner kept unless
     * another beats it by the margin... */
    double colibri[ONLINE_CANDIDATES];
    for (int i = 0; i < ONLINE_CANDIDATES; i++)
        colibri[i] = i == native || i >= s->n_cand ? ONLINE_NONE : agreed[i];
    int w = online_pick(colibri, s->n_cand, first || s->winner == native ? -1 : s->winner,
                        pr->margin);
    /* ...runs only where it beats native by the native margin: native is
     * always the incumbent (never slower than the MPI below) */
    if (native >= 0 && !(colibri[w] < ONLINE_NONE && beats_native(agreed[w], agreed[native], pr) &&
                         beats_native(agreed[w], s->agreed_last[native], pr)))
        w = native;
    const int k = calls_per_candidate(s, pr);
    s->explore_extra = 0;
    for (int i = 0; i < s->n_cand; i++)
        if (agreed[i] < ONLINE_NONE && agreed[w] < ONLINE_NONE)
            s->explore_extra += turn_calls(s, k, i) * (agreed[i] - agreed[w]);
    /* native's warm-up (ONLINE_NATIVE_WARM): a long shape's colibri winner
     * that native trails by ONLINE_CLEAR_LOSS gives native a longer turn
     * next time, after the confirmation window */
    const bool warming = native >= 0 && w != native && online_long(s) &&
                         s->native_warm < ONLINE_NATIVE_WARM && agreed[w] < ONLINE_NONE &&
                         agreed[native] < ONLINE_NONE &&
                         agreed[native] >= agreed[w] * ONLINE_CLEAR_LOSS;
    s->native_warm += warming;
    const bool falling = warming && (first || agreed[native] * ONLINE_WARM_FALL <=
                                                 s->agreed_last[native]);
    /* a first decision for native where every colibri candidate scored at
     * least ONLINE_CLEAR_LOSS of native's: no confirmation (a cold start
     * makes a candidate, native included, slow, not fast; nothing here
     * came near) */
    bool clear = first && w == native && agreed[native] < ONLINE_NONE;
    for (int i = 0; clear && i < s->n_cand; i++)
        clear = i == native || !(agreed[i] < agreed[native] * ONLINE_CLEAR_LOSS);
    s->window = online_next_window(s->window, (first || w == s->winner) && !warming,
                                   clear             ? 0
                                   : falling        ? ONLINE_CONFIRM_WARM
                                   : online_long(s) ? ONLINE_CONFIRM_LONG
                                                     : ONLINE_CONFIRM_WINDOW,
                                   pr);
    /* the candidates the next re-checks leave out (online.h, `dropped`) */
    const double winner_last = first ? ONLINE_NONE : s->agreed_last[s->winner];
    const bool moved = !first && (w != s->winner || !(agreed[w] < ONLINE_NONE) ||
                                  !(winner_last < ONLINE_NONE) ||
                                  agreed[w] >= winner_last * ONLINE_CLEAR_LOSS ||
                                  agreed[w] * ONLINE_CLEAR_LOSS <= winner_last);
    if (moved)
        s->dropped = 0;
    else if (!first) /* (a first decision keeps what the shape inherited) */
        for (int i = 0; i < s->n_cand; i++)
            if (i != w && i != native && agreed[i] < ONLINE_NONE &&
                agreed[i] >= agreed[w] * ONLINE_CLEAR_LOSS)
                s->dropped |= 1u << i;
    for (int i = 0; i < ONLINE_CANDIDATES; i++)
        s->agreed_last[i] = i < s->n_cand ? agreed[i] : ONLINE_NONE;
    s->switches += !first && w != s->winner;
    s->decisions++;
    s->winner = w;
    s->explore_start = -1;
    s->quiet_until = s->calls + s->window;
    s->stamp = new_stamp();
    ++*s->version;
    return w;
}

bool online_reuse(const struct online_table *t, const struct online_key *k,
                  const struct algorithm **alg)
{
    for (int i = 0; i < ONLINE_SHAPES; i++) {
        const struct online_shape *s = &t->shape[i];
        if (s->used && s->winner >= 0 && same_key(&s->key, k)) {
            *alg = s->cand[s->winner];
            return true;
        }
    }
    return false;
}

static bool settled(const struct online_shape *s)
{
    return s->explore_start < 0 && s->winner >= 0;
}

static bool settled_on_native(const struct online_shape *s)
{
    return settled(s) && !s->cand[s->winner];
}

bool online_other_settled_colibri(const struct online_table *t, int coll,
                                  const struct online_shape *s)
{
    for (int i = 0; i < ONLINE_SHAPES; i++) {
        const struct online_shape *x = &t->shape[i];
        if (x != s && x->used && x->key.coll == coll && settled(x) && !settled_on_native(x))
            return true;
    }
    return false;
}

/* A skip window's next length: `first` after none, then doubled up to
 * `most`. */
static long long skip_grow(long long window, long long first, long long most)
{
    return window <= 0 ? first : window * 2 > most ? most : window * 2;
}

void online_skip_after(struct online_skip *k, const struct online_table *t, int coll,
                       struct online_shape *s, const struct online_params *pr)
{
    const bool repeat = s && k->last == s && k->last_stamp == s->stamp;
    k->last = s;
    k->last_stamp = s ? s->stamp : 0;
    const bool native = s && settled_on_native(s);
    bool all = native;
    for (int i = 0; all && i < ONLINE_SHAPES; i++) {
        const struct online_shape *x = &t->shape[i];
        all = !x->used || x->key.coll != coll || settled_on_native(x);
    }
    if (s && s->explore_start >= 0 && s->calls < s->pause_until && !s->cand[s->pause_cand]) {
        /* a pause on native: skipped to its end (online_pause_pass) */
        const bool mixed = online_other_settled_colibri(t, coll, s);
        k->shape = s;
        k->stamp = s->stamp;
        k->until = mixed && s->pause_until - s->calls > ONLINE_SKIP_MIXED_MAX
                       ? s->calls + ONLINE_SKIP_MIXED_MAX
                       : s->pause_until;
        k->window = 0;
        return;
    }
    if (!all && !(native && repeat)) {
        k->shape = NULL;
        k->window = 0;
        return;
    }
    const long long most = all ? ONLINE_SKIP_MAX : ONLINE_SKIP_MIXED_MAX;
    const long long first = pr->window < ONLINE_SKIP_FIRST ? (pr->window > 0 ? pr->window : 1)
                                                           : ONLINE_SKIP_FIRST;
    k->window = skip_grow(k->window, first, most);
    k->shape = s;
    k->stamp = s->stamp;
    k->until = s->calls + k->window;
}

void online_skip_rule_after(struct online_skip *k, const int64_t *rule_sizes)
{
    k->rule_calls++;
    int64_t key[3] = {-1, -1, -1};
    for (int i = 0; rule_sizes && i < 3; i++)
        key[i] = online_size_class(rule_sizes[i] < 0 ? -rule_sizes[i] : rule_sizes[i]);
    const bool repeat = rule_sizes && k->rule_last && memcmp(key, k->rule_key, sizeof key) == 0;
    k->rule_last = rule_sizes != NULL;
    memcpy(k->rule_key, key, sizeof key);
    k->rule_window = repeat ? skip_grow(k->rule_window, ONLINE_SKIP_FIRST, ONLINE_SKIP_MIXED_MAX) : 0;
    k->rule_until = repeat ? k->rule_calls + k->rule_window : 0;
}

/* splitmix64: a well-mixed 64-bit function of its input. */
static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ x >> 27) * 0x94d049bb133111ebull;
    return x ^ x >> 31;
}

double online_fake_seconds(const char *spec, const char *alg, int rank, long long call)
{
    unsigned long long seed;
    if (sscanf(spec, "random:%llu", &seed) == 1) {
        uint64_t h = mix(seed ^ mix((uint64_t)rank ^ mix((uint64_t)call)));
        for (const char *c = alg; *c; c++)
            h = mix(h ^ (unsigned char)*c);
        return (1.0 + (double)(h % 1000)) / 1e6;
    }
    double us = 1000, mine = -1;
    const size_t len = strlen(alg);
    for (const char *e = spec; e && *e; e = strchr(e, ',') ? strchr(e, ',') + 1 : NULL) {
        if (strncmp(e, alg, len) != 0 || (e[len] != ':' && e[len] != '@'))
            continue;
        int r = -1;
        double v;
        if (e[len] == '@' ? sscanf(e + len, "@%d:%lf", &r, &v) == 2
                          : sscanf(e + len, ":%lf", &v) == 1) {
            if (r < 0)
                us = v;
            else if (r == rank)
                mine = v;
        }
    }
    return (mine >= 0 ? mine : us) / 1e6;
}
