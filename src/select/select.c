/*
 * Selection layer: honours COLIBRI_<COLL>_ALGORITHM / the C API's explicit
 * name, checks the catalog's restrictions, and otherwise picks by the cost
 * model.  This is the only place where one algorithm is ever used instead of
 * another, and it says so (COLIBRI_FALLBACK).
 */
#include "select.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "../config/config.h"

/* Cost-model parameters: defaults describe a 100 Gb/s, 1 us cluster with
 * reduction kernels at 20 GB/s (colibri's run at 14-100 GB/s here, see
 * kernel-bench), 0.2 us of processor overhead per message, and the local
 * work of sparse blocks (SPARSE_DEFAULT below);
 * COLIBRI_COST_MODEL="alpha,beta,gamma[,o[,sparse]]" (seconds, seconds/byte,
 * seconds/byte, seconds, seconds/byte) overrides.  With the earlier 1.5 us / 0.2 ns
 * gamma guess, auto missed k-nomial at 4-8 KiB and lost 1.27x to SMPI's rdb
 * at 1000-1024 ranks (docs/benchmarks.md). */
/* Local work per byte of a sparse block, from real processes on this VM
 * (2 Open MPI ranks, 1 MiB of doubles, the AVX2 encode and branch-free
 * merge): sparse Rabenseifner took 72, 81, 107 and 403 us at 0.01%, 0.1%,
 * 1% and 10% random non-zeros where the model without it said 54-71 us
 * (and 112 for dense Rabenseifner, measured 145): 0.4 ns per byte of
 * sparse block (about 5 ns per double, its index and value) fits 1% and
 * 10% within 15%.  Without it auto took the sparse algorithms at 10%, 2.8x
 * slower than dense there. */
#define SPARSE_DEFAULT 4.0e-10
static struct cost_params model_params(void)
{
    static struct cost_params m;
    static unsigned generation;
    const struct config *cfg = config_get();
    if (generation != cfg->generation) {
        m.alpha = 1.0e-6;
        m.beta = 8.0e-11;
        m.gamma = 5.0e-11;
        m.o = 2.0e-7; /* 5 million messages per second and core */
        m.sparse = SPARSE_DEFAULT;
        m.mem = 1.0 / cfg->shm_bandwidth;
        if (cfg->cost_model[0])
            sscanf(cfg->cost_model, "%lf,%lf,%lf,%lf,%lf", &m.alpha, &m.beta, &m.gamma, &m.o,
                   &m.sparse);
        generation = cfg->generation;
    }
    return m;
}

/*
 * COLIBRI_TUNING=<file>: measured rules that override the model, one per line,
 *   <collective> <min_bytes> <max_bytes> <min_p> <max_p> <algorithm|native>
 * (bytes: the whole vector, count x type size; ranges inclusive; '#' starts
 * a comment).  The first rule that matches and whose algorithm's
 * restrictions hold wins.
 */
struct rule {
    colibri_coll coll;
    long long lo_bytes, hi_bytes;
    int lo_p, hi_p;
    char name[48];
};
static struct rule rules[256];
static int n_rules;
static unsigned rules_generation; /* config generation the rules were read at */

static void load_rules(void)
{
    n_rules = 0;
    const char *path = config_get()->tuning[0] ? config_get()->tuning : NULL;
    FILE *f = path ? fopen(path, "r") : NULL;
    if (path && !f)
        fprintf(stderr, "colibri: warning: cannot read COLIBRI_TUNING file '%s'\n", path);
    if (!f)
        return;
    char line[256], coll[48];
    while (fgets(line, sizeof line, f) && n_rules < (int)(sizeof rules / sizeof *rules)) {
        struct rule *r = &rules[n_rules];
        if (line[0] == '#' || sscanf(line, "%47s %lld %lld %d %d %47s", coll, &r->lo_bytes,
                                     &r->hi_bytes, &r->lo_p, &r->hi_p, r->name) != 6)
            continue;
        for (int c = 0; c < COLIBRI_NCOLL; c++)
            if (strcmp(coll, colibri_coll_name((colibri_coll)c)) == 0) {
                r->coll = (colibri_coll)c;
                n_rules++;
            }
    }
    fclose(f);
}

static int64_t vector_elems(colibri_coll coll, const struct sched_params *p)
{
    if (coll != COLIBRI_REDUCE_SCATTER)
        return coll == COLIBRI_REDUCE_SCATTER_BLOCK ? p->count * p->size : p->count;
    int64_t n = 0;
    for (int i = 0; i < p->size; i++)
        n += p->counts[i];
    return n;
}

/* Returns 1 and sets *alg (NULL = native) when a tuning rule decides. */
static int tuned_choice(colibri_coll coll, const struct sched_params *p,
                        const struct algorithm **alg)
{
    if (rules_generation != config_get()->generation) {
        load_rules();
        rules_generation = config_get()->generation;
    }
    long long bytes = (long long)vector_elems(coll, p) * (long long)p->elem_size;
    for (int i = 0; i < n_rules; i++) {
        const struct rule *r = &rules[i];
        if (r->coll != coll || bytes < r->lo_bytes || bytes > r->hi_bytes || p->size < r->lo_p ||
            p->size > r->hi_p)
            continue;
        if (strcmp(r->name, "native") == 0) {
            *alg = NULL;
            return 1;
        }
        const struct algorithm *a = catalog_find(coll, r->name);
        if (a && !catalog_violation(a, p)) {
            *alg = a;
            return 1;
        }
    }
    return 0;
}

/* The modelled time of `a` for this call, and for a tunable-radix algorithm
 * with no radix given, the radix that minimises it (ties: the smaller).
 * Candidates: 2..8, then powers of two, ceil(sqrt p) and p: a handful of
 * O(log p) evaluations.  Depends only on what all ranks agree on. */
static double modelled(const struct algorithm *a, const struct sched_params *p,
                       const struct cost_params *m, int *radix)
{
    *radix = p->radix;
    if (!a->tunable_radix || p->radix > 0 || p->size <= 2)
        return a->cost(p, m);
    int root = 1;
    while (root * root < p->size)
        root++;
    int cand[40], n = 0;
    for (int k = 2; k <= 8; k++)
        cand[n++] = k;
    for (int k = 16; k < p->size && n < 36; k *= 2)
        cand[n++] = k;
    cand[n++] = root;
    cand[n++] = p->size;
    struct sched_params q = *p;
    double best = 0;
    for (int i = 0; i < n; i++) {
        if (cand[i] < 2 || cand[i] > p->size)
            continue;
        q.radix = cand[i];
        double t = a->cost(&q, m);
        if (*radix == 0 || t < best * (1 - 1e-9) || (t <= best * (1 + 1e-9) && cand[i] < *radix)) {
            best = t;
            *radix = cand[i];
        }
    }
    return best;
}

bool select_never_native(colibri_coll coll)
{
    if (rules_generation != config_get()->generation) {
        load_rules();
        rules_generation = config_get()->generation;
    }
    for (int i = 0; i < n_rules; i++)
        if (rules[i].coll == coll && strcmp(rules[i].name, "native") == 0)
            return false;
    return true;
}

const struct algorithm *select_auto(colibri_coll coll, const struct sched_params *p)
{
    int radix;
    return select_auto_radix(coll, p, &radix);
}

/*
 * The automatic choice is a pure function of the call's shape, and
 * applications repeat shapes: evaluating every catalog entry's cost (with
 * radix scans) was a sixth of a short allreduce's time on 2 ranks.  So the
 * last choices are remembered per thread (no lock), keyed by everything the
 * choice reads, the agreed sparsity included.  Calls with per-rank count
 * vectors (reduce_scatter, alltoallv) are not remembered.
 */
struct memo {
    bool used;
    unsigned generation; /* config_get()'s: a reload may change the model or the rules */
    colibri_coll coll;
    int size, root, radix_in;
    int64_t count, segment;
    size_t elem_size;
    bool in_place, commutative, nonblocking, sparse, layout;
    double density, support, span, run_length;
    const struct algorithm *alg;
    int radix;
};
#define MEMO_SLOTS 16
static _Thread_local struct memo memo[MEMO_SLOTS];

static bool memo_applies(colibri_coll coll, const struct sched_params *p)
{
    return coll != COLIBRI_REDUCE_SCATTER && coll != COLIBRI_ALLTOALLV;
}

static struct memo memo_key(colibri_coll coll, const struct sched_params *p)
{
    return (struct memo){.used = true, .generation = config_get()->generation, .coll = coll, .size = p->size, .root = p->root,
                         .radix_in = p->radix, .count = p->count, .segment = p->segment,
                         .elem_size = p->elem_size, .in_place = p->in_place,
                         .commutative = p->commutative, .nonblocking = p->nonblocking,
                         .sparse = p->sparse != NULL, .layout = p->layout != NULL,
                         .density = p->density, .support = p->support, .span = p->span,
                         .run_length = p->run_length};
}

static bool memo_same(const struct memo *a, const struct memo *b)
{
    return a->used && a->generation == b->generation && a->coll == b->coll && a->size == b->size && a->root == b->root &&
           a->radix_in == b->radix_in && a->count == b->count && a->segment == b->segment &&
           a->elem_size == b->elem_size && a->in_place == b->in_place &&
           a->commutative == b->commutative && a->nonblocking == b->nonblocking &&
           a->sparse == b->sparse && a->layout == b->layout && a->density == b->density &&
           a->support == b->support && a->span == b->span && a->run_length == b->run_length;
}

static struct memo *memo_slot(const struct memo *k)
{
    uint64_t h = (uint64_t)k->count * 0x9e3779b97f4a7c15ull ^ (uint64_t)k->coll << 7 ^
                 (uint64_t)k->size << 11 ^ (uint64_t)k->root << 3 ^ k->elem_size;
    return &memo[(h ^ h >> 29) % MEMO_SLOTS];
}

static const struct algorithm *choose(colibri_coll coll, const struct sched_params *p,
                                      int *radix);

const struct algorithm *select_auto_radix(colibri_coll coll, const struct sched_params *p,
                                          int *radix)
{
    if (!memo_applies(coll, p))
        return choose(coll, p, radix);
    struct memo k = memo_key(coll, p);
    struct memo *m = memo_slot(&k);
    if (!memo_same(m, &k)) {
        k.alg = choose(coll, p, &k.radix);
        *m = k;
    }
    *radix = m->radix;
    return m->alg;
}

/* The choice itself: a tuning rule, else the cost model's minimum. */
static const struct algorithm *choose(colibri_coll coll, const struct sched_params *p,
                                      int *radix)
{
    const struct algorithm *tuned;
    *radix = p->radix;
    if (tuned_choice(coll, p, &tuned)) {
        if (tuned) {
            struct cost_params m = model_params();
            modelled(tuned, p, &m, radix);
        }
        return tuned;
    }
    struct cost_params m = model_params();
    const struct algorithm *best = NULL;
    double best_t = 0;
    for (int i = 0; i < catalog_count; i++) {
        const struct algorithm *a = &catalog[i];
        if (a->coll != coll || catalog_violation(a, p))
            continue;
        int k;
        double t = modelled(a, p, &m, &k);
        /* Ties (e.g. rabenseifner and rabenseifner_3_2 at p = 2^k, equal up
         * to rounding) go to the earlier catalog entry, not to rounding. */
        if (!best || t < best_t * (1 - 1e-9)) {
            best = a;
            best_t = t;
            *radix = k;
        }
    }
    return best;
}

int select_algorithm(colibri_coll coll, struct sched_params *p, const char *requested,
                     const struct algorithm **alg, char *msg, size_t len)
{
    const char *name = requested ? requested : config_get()->algorithm[coll];
    *alg = NULL;
    int radix = p->radix;
    if (!name || !*name || strcmp(name, "auto") == 0) {
        *alg = select_auto_radix(coll, p, &radix);
        p->radix = radix;
        return MPI_SUCCESS;
    }
    if (strcmp(name, "native") == 0)
        return MPI_SUCCESS;

    const struct algorithm *a = catalog_find(coll, name);
    if (!a) {
        char names[512];
        snprintf(msg, len, "unknown %s algorithm '%s' (valid: %s, auto, native)",
                 colibri_coll_name(coll), name, catalog_names(coll, names, sizeof names));
        return MPI_ERR_ARG;
    }
    const char *why = catalog_violation(a, p);
    if (!why) {
        struct cost_params m = model_params();
        modelled(a, p, &m, &radix);
        p->radix = radix;
        *alg = a;
        return MPI_SUCCESS;
    }
    enum fallback f = config_get()->fallback;
    if (f == FALLBACK_ERROR) {
        snprintf(msg, len, "%s algorithm '%s' %s (COLIBRI_FALLBACK=warn lets colibri choose instead)",
                 colibri_coll_name(coll), name, why);
        return MPI_ERR_ARG;
    }
    *alg = select_auto_radix(coll, p, &radix);
    p->radix = radix;
    if (f == FALLBACK_WARN && p->rank == 0)
        fprintf(stderr, "colibri: warning: %s algorithm '%s' %s; using '%s'\n",
                colibri_coll_name(coll), name, why, *alg ? (*alg)->name : "native");
    return MPI_SUCCESS;
}
