/*
 * Selection layer: honours COLIBRI_<COLL>_ALGORITHM / the C API's explicit
 * name, checks the catalog's restrictions, and otherwise picks by the cost
 * model.  This is the only place where one algorithm is ever used instead of
 * another, and it says so (COLIBRI_FALLBACK).
 */
#include "select.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "../config/config.h"
#include "../config/tuning.h"
#include "../patterns/node_reduce.h"
#include "online.h"

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
/* The node (COLIBRI_COST_MODEL's 6th to 9th values): colibri's own copies
 * through a node's segment at COLIBRI_SHM_BANDWIDTH (10 GB/s, what SMPI
 * builds charge for them) and a flag hand-off of 0.1 us (a
 * cache line between cores), and the MPI below's messages between two
 * ranks of one node at 0.5 us and 2 GB/s, what a flat algorithm pays when
 * the whole communicator is on one node (a tuning file's calibrated
 * point-to-point figures on one node replace the last two).  The last is
 * what Open MPI 4.1's shared-memory transport gave flat Rabenseifner on
 * this 2-core VM (4.8 ms at 8 MiB on 2 ranks, where the split-rail copies
 * took 3.4 ms); at 100 Gb/s' 0.08 ns per byte the model sent 8 KiB-8 MiB
 * allreduces on one node to flat algorithms 1.4-8x slower than the
 * node-aware ones. */
#define SHM_ALPHA_DEFAULT 1.0e-7
#define NODE_ALPHA_DEFAULT 5.0e-7
#define NODE_BETA_DEFAULT 5.0e-10

/*
 * The tuning file in force: COLIBRI_TUNING, else the site's default
 * (config.h), read again when the configuration is reloaded.  A file
 * measured with another MPI library (its `mpi` line) is not used at all:
 * its rules and model describe another library's collectives.
 */
static struct tuning_file tuning;
static unsigned tuning_generation; /* config generation it was read at */

static bool known_algorithm(colibri_coll coll, const char *alg, char *why, size_t len)
{
    if (catalog_find(coll, alg))
        return true;
    char names[512];
    snprintf(why, len, "unknown %s algorithm '%s' (valid: %s, native)", colibri_coll_name(coll),
             alg, catalog_names(coll, names, sizeof names));
    return false;
}

/* Messages about the file go to stderr once per job, from world rank 0
 * (every rank reads the same file). */
static FILE *diag_stream(void)
{
    int init = 0, fin = 0, rank = 0;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    if (init && !fin)
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank == 0 ? stderr : NULL;
}

static const struct tuning_file *tuning_in_force(void)
{
    const struct config *cfg = config_get();
    if (tuning_generation == cfg->generation)
        return &tuning;
    tuning_generation = cfg->generation;
    if (!cfg->tuning[0]) {
        memset(&tuning, 0, sizeof tuning);
        return &tuning;
    }
    FILE *diag = diag_stream();
    if (!tuning_load(cfg->tuning, known_algorithm, diag, &tuning)) /* cleared, said why */
        return &tuning;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], here[sizeof tuning.mpi];
    int len = 0;
    PMPI_Get_library_version(lib, &len);
    tuning_mpi_id(lib, here, sizeof here);
    if (tuning.mpi[0] && strcmp(tuning.mpi, here) != 0) {
        if (diag)
            fprintf(diag,
                    "colibri: %s:%d: measured with '%s', not with this MPI ('%s'): its rules "
                    "and model are ignored (run colibri-tune again)\n",
                    cfg->tuning, tuning.mpi_line, tuning.mpi, here);
        tuning.n_ignored += tuning.n_rules;
        tuning.n_rules = 0;
        tuning.model.set = false;
    }
    return &tuning;
}

/* Cost-model parameters, from the lowest precedence up: the defaults
 * above, the tuning file's calibrated model, COLIBRI_COST_MODEL.  A
 * calibrated model has point-to-point figures between ranks of a node and,
 * when measured on several nodes, between nodes: a call on a communicator
 * whose layout says it lies on one node gets the first, others the second
 * (or the first, when the file has only those). */
static struct cost_params model_params(const struct sched_params *p)
{
    static struct cost_params across, within;
    static unsigned generation;
    const struct config *cfg = config_get();
    if (generation != cfg->generation) {
        const struct tuning_model *t = &tuning_in_force()->model;
        across = (struct cost_params){.alpha = 1.0e-6, .beta = 8.0e-11, .gamma = 5.0e-11,
                                      .o = 2.0e-7, /* 5 million messages per second and core */
                                      .sparse = SPARSE_DEFAULT, .shm_beta = 1.0 / cfg->shm_bandwidth,
                                      .shm_alpha = SHM_ALPHA_DEFAULT,
                                      .node_alpha = NODE_ALPHA_DEFAULT,
                                      .node_beta = NODE_BETA_DEFAULT};
        if (t->set) {
            across.alpha = t->alpha > 0 ? t->alpha : t->alpha_node;
            across.beta = t->alpha > 0 ? t->beta : t->beta_node;
            across.gamma = t->gamma > 0 ? t->gamma : across.gamma;
            across.o = t->o > 0 ? t->o : across.o;
            if (t->alpha_node > 0)
                across.node_alpha = t->alpha_node, across.node_beta = t->beta_node;
        }
        if (cfg->cost_model[0])
            sscanf(cfg->cost_model, "%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &across.alpha,
                   &across.beta, &across.gamma, &across.o, &across.sparse, &across.shm_beta,
                   &across.shm_alpha, &across.node_alpha, &across.node_beta);
        within = across;
        within.alpha = across.node_alpha, within.beta = across.node_beta;
        generation = cfg->generation;
    }
    return p && p->layout && p->layout->n_nodes == 1 ? within : across;
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

/* The largest number of ranks on one node, and the nodes, from the
 * communicator's layout (0, 0: unknown). */
static void node_shape(const struct sched_params *p, int *ppn, int *nodes)
{
    *ppn = *nodes = 0;
    if (!p->layout)
        return;
    *nodes = p->layout->n_nodes;
    for (int i = 0; i < *nodes; i++) {
        int k = p->layout->node_start[i + 1] - p->layout->node_start[i];
        *ppn = k > *ppn ? k : *ppn;
    }
}

static bool in_range(int v, int lo, int hi)
{
    return lo == 0 || (v >= lo && v <= hi); /* a rule without the range: any */
}

/* Whether rule r is for this call's collective, form and communicator (p,
 * and the node shape ppn x nodes where it names one: unknown, it does not
 * fit), whatever the call's size. */
static bool rule_fits(const struct tuning_rule *r, colibri_coll coll,
                      const struct sched_params *p, int ppn, int nodes)
{
    return r->coll == coll && (!r->nonblocking || p->nonblocking) && p->size >= r->lo_p &&
           p->size <= r->hi_p && (!(r->lo_ppn || r->lo_nodes) || p->layout) &&
           in_range(ppn, r->lo_ppn, r->hi_ppn) && in_range(nodes, r->lo_nodes, r->hi_nodes);
}

/* The rule matching this call: for nonblocking calls an "i" rule first,
 * then one for both forms.  Rules are disjoint (tuning.c refuses overlaps),
 * so at most one of each matches.  A rule with a node shape needs the
 * layout: unknown, it does not match. */
static const struct tuning_rule *matching_rule(colibri_coll coll, const struct sched_params *p,
                                               int ppn, int nodes)
{
    const struct tuning_file *t = tuning_in_force();
    const long long bytes = (long long)vector_elems(coll, p) * (long long)p->elem_size;
    const struct tuning_rule *plain = NULL;
    for (int i = 0; i < t->n_rules; i++) {
        const struct tuning_rule *r = &t->rules[i];
        if (!rule_fits(r, coll, p, ppn, nodes) || bytes < r->lo_bytes || bytes > r->hi_bytes)
            continue;
        if (r->nonblocking)
            return r;
        plain = plain ? plain : r;
    }
    return plain;
}

bool select_wants_layout(colibri_coll coll)
{
    /* their flat costs read cost_port_share (allgather's node-aware
     * algorithms fetch the layout anyway) */
    if (coll == COLIBRI_ALLGATHERV || coll == COLIBRI_SCAN || coll == COLIBRI_EXSCAN)
        return true;
    const struct tuning_file *t = tuning_in_force();
    if (t->model.set && t->model.alpha > 0 && t->model.alpha_node > 0)
        return true; /* the model differs between one node and several */
    for (int i = 0; i < t->n_rules; i++)
        if (t->rules[i].coll == coll && (t->rules[i].lo_ppn || t->rules[i].lo_nodes))
            return true;
    return false;
}

/* The modelled time of flat `a` for this call, and for a tunable-radix
 * algorithm with no radix given, the radix that minimises it (ties: the
 * smaller).  Candidates: 2..8, then powers of two, ceil(sqrt p) and p: a
 * handful of O(log p) evaluations.  Depends only on what all ranks agree
 * on. */
static double modelled_flat(const struct algorithm *a, const struct sched_params *p,
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

/* Whether node-aware `a` runs a flat algorithm of its collective between
 * nodes (the reductions', the leaders' broadcast, barrier, gather and
 * scatter), chosen here; the others (node_rails' exchanges) run their own. */
static bool node_has_inner(const struct algorithm *a)
{
    return coll_reduces(a->coll) || a->coll == COLIBRI_BCAST || a->coll == COLIBRI_BARRIER ||
           a->coll == COLIBRI_GATHER || a->coll == COLIBRI_SCATTER;
}

/*
 * A node-aware reduction runs a flat algorithm between nodes: the one that
 * makes it cheapest in the model (same collective, no node or sparse
 * restriction, whose restrictions hold over N nodes).  Sets p's inner
 * fields and returns the modelled time.  With one node there is no step
 * between nodes.
 */
static double modelled_node(const struct algorithm *a, struct sched_params *p,
                            const struct cost_params *m)
{
    p->inner = NULL, p->inner_cost = NULL, p->inner_radix = p->radix;
    if (p->layout->n_nodes == 1 || !node_has_inner(a))
        return a->cost(p, m);
    struct sched_params sub = {.size = p->layout->n_nodes, .count = p->count,
                               .commutative = p->commutative, .nonblocking = p->nonblocking,
                               .elem_size = p->elem_size};
    double best = 0;
    for (int i = 0; i < catalog_count; i++) {
        const struct algorithm *c = &catalog[i];
        /* (a node-aware scan's leaders run an exscan) */
        const colibri_coll between = a->coll == COLIBRI_SCAN ? COLIBRI_EXSCAN : a->coll;
        if (c->coll != between || (c->restrictions & (R_NODE_AWARE | R_NEUTRAL)) ||
            catalog_violation(c, &sub))
            continue;
        struct sched_params q = *p;
        q.inner = c->build, q.inner_cost = c->cost;
        const double t = a->cost(&q, m);
        if (!p->inner || t < best * (1 - 1e-9)) {
            best = t;
            p->inner = c->build, p->inner_cost = c->cost;
        }
    }
    return p->inner ? best : -1;
}

/*
 * A node-aware reduction with a radix of its own between nodes (K - 1 of
 * each node's ranks exchanging at once: node_rails) and no flat algorithm
 * inside: the radix from 2 to R + 1 (R the fewest ranks on a node, at
 * most N) that makes it cheapest in the model (ties: the smaller), unless
 * the call gives one.  Its cost counts its messages' overhead itself.
 * Negative on one node: not a candidate there.
 */
static double modelled_rails(const struct algorithm *a, struct sched_params *p,
                             const struct cost_params *m, int *radix)
{
    p->inner = NULL, p->inner_cost = NULL, p->inner_radix = 0;
    const struct node_layout *l = p->layout;
    /* On one node it is node_leader's schedule, at node_leader's cost:
     * automatic selection leaves it there (it would only take the place
     * of a different runner-up that online selection could try). */
    if (l->n_nodes == 1)
        return -1;
    int top = node_fewest(l->n_nodes, l->node_start) + 1;
    top = top < l->n_nodes ? top : l->n_nodes;
    if (p->radix > 0 || top < 2)
        return a->cost(p, m);
    double best = 0;
    for (int k = 2; k <= top; k++) {
        p->radix = k;
        const double t = a->cost(p, m);
        if (k == 2 || t < best * (1 - 1e-9)) {
            best = t;
            *radix = k;
        }
    }
    p->radix = *radix;
    return best;
}

/* The model's time of `a` for this call (negative: it cannot run), the
 * radix it runs with, and for a node-aware reduction the flat algorithm
 * between nodes (in *q, a copy of p).  (A communicator all on one node
 * already has the node's alpha and beta in m: model_params.) */
static double modelled(const struct algorithm *a, const struct sched_params *p,
                       const struct cost_params *m, int *radix, struct sched_params *q)
{
    *q = *p;
    *radix = p->radix;
    if ((a->restrictions & R_NODE_AWARE) && node_has_inner(a))
        return a->tunable_radix ? modelled_rails(a, q, m, radix) : modelled_node(a, q, m);
    struct cost_params flat = *m;
    if (!coll_reduces(a->coll))
        return modelled_flat(a, p, &flat, radix);
    if (p->layout && p->layout->n_nodes > 1 &&
        !node_blocked(p->layout->n_nodes, p->layout->node_start, p->layout->node_ranks)) {
        /* A flat reduction over nodes whose ranks interleave: every step
         * leaves the node, the L ranks of a node sharing its port.  On
         * nodes of consecutive ranks the long steps of the halving,
         * doubling and ring patterns stay on the node, and the port
         * carries about what one rank sends (tests/unit/
         * test_node_reductions.c measures both).  The exchanges charge
         * the share in their own cost functions. */
        flat.beta *= cost_link_share(p);
    }
    /* a reduction's radix is not tuned: its modelled time, with the
     * overhead of its messages, which the node-aware algorithms' flag
     * hand-offs do not pay */
    return cost_with_overhead(a->cost, p, &flat);
}


bool select_never_native(colibri_coll coll)
{
    const struct tuning_file *t = tuning_in_force();
    for (int i = 0; i < t->n_rules; i++)
        if (t->rules[i].coll == coll && strcmp(t->rules[i].alg, "native") == 0)
            return false;
    return true;
}

bool select_rules_all_native(colibri_coll coll, const struct sched_params *p)
{
    const struct tuning_file *t = tuning_in_force();
    int ppn, nodes;
    node_shape(p, &ppn, &nodes);
    bool all = false;
    for (int i = 0; i < t->n_rules; i++) {
        const struct tuning_rule *r = &t->rules[i];
        if (!rule_fits(r, coll, p, ppn, nodes))
            continue;
        if (strcmp(r->alg, "native") != 0)
            return false; /* some size of this communicator runs colibri */
        all |= !r->nonblocking && r->lo_bytes <= 0 && r->hi_bytes == LLONG_MAX;
    }
    return all;
}

/* Whether the tuning file has a rule for coll (for blocking calls, or
 * for either form). */
static bool rules_for(colibri_coll coll, bool nonblocking_too)
{
    const struct tuning_file *t = tuning_in_force();
    for (int i = 0; i < t->n_rules; i++)
        if (t->rules[i].coll == coll && (nonblocking_too || !t->rules[i].nonblocking))
            return true;
    return false;
}

bool select_has_rules(colibri_coll coll) { return rules_for(coll, false); }

/* What an automatic choice gives: the algorithm (NULL: native), the radix
 * and the segment (elements) to run it with. */
struct choice {
    const struct algorithm *alg;
    int radix;
    int64_t segment;
    /* node-aware reductions: the flat algorithm between nodes */
    int (*inner)(const struct sched_params *p, struct schedule *s);
    double (*inner_cost)(const struct sched_params *p, const struct cost_params *m);
    int inner_radix;
};

/* c's inner fields from the parameters modelled() filled in. */
static void set_inner(struct choice *c, const struct sched_params *q)
{
    c->inner = q->inner, c->inner_cost = q->inner_cost, c->inner_radix = q->inner_radix;
}

static struct choice choose(colibri_coll coll, const struct sched_params *p);

/*
 * The automatic choice is a pure function of the call's shape, and
 * applications repeat shapes: evaluating every catalog entry's cost (with
 * radix scans) was a sixth of a short allreduce's time on 2 ranks.  So the
 * last choices are remembered per thread (no lock), keyed by everything the
 * choice reads, the agreed sparsity and the node shape included.
 * reduce_scatter's choice reads its per-rank counts and is not remembered;
 * alltoallv's reads only the agreed sizes (the largest block, the most
 * and fewest bytes of a rank), never the count vectors, and is.
 */
struct memo {
    bool used;
    unsigned generation; /* config_get()'s: a reload may change the model or the rules */
    colibri_coll coll;
    int size, root, radix_in, ppn, nodes;
    int64_t count, segment;
    size_t elem_size;
    bool in_place, commutative, nonblocking, sparse;
    const struct node_layout *layout; /* the group's: node-aware choices read all of it */
    int64_t node_chunk, volume_max, volume_min;
    double density, support, span, run_length;
    struct choice choice;
};
#define MEMO_SLOTS 16
static _Thread_local struct memo memo[MEMO_SLOTS];

static bool memo_applies(colibri_coll coll, const struct sched_params *p)
{
    return coll != COLIBRI_REDUCE_SCATTER;
}

static struct memo memo_key(colibri_coll coll, const struct sched_params *p)
{
    struct memo k = {.used = true, .generation = config_get()->generation, .coll = coll,
                     .size = p->size, .root = p->root, .radix_in = p->radix, .count = p->count,
                     .segment = p->segment, .elem_size = p->elem_size, .in_place = p->in_place,
                     .commutative = p->commutative, .nonblocking = p->nonblocking,
                     .sparse = p->sparse != NULL, .density = p->density, .support = p->support,
                     .span = p->span, .run_length = p->run_length, .layout = p->layout,
                     .node_chunk = p->node_chunk,
                     .volume_max = p->volume_max,
                     .volume_min = p->volume_min};
    node_shape(p, &k.ppn, &k.nodes);
    return k;
}

static bool memo_same(const struct memo *a, const struct memo *b)
{
    return a->used && a->generation == b->generation && a->coll == b->coll && a->size == b->size && a->root == b->root &&
           a->radix_in == b->radix_in && a->count == b->count && a->segment == b->segment &&
           a->elem_size == b->elem_size && a->in_place == b->in_place &&
           a->commutative == b->commutative && a->nonblocking == b->nonblocking &&
           a->sparse == b->sparse && a->ppn == b->ppn && a->nodes == b->nodes &&
           a->layout == b->layout && a->node_chunk == b->node_chunk &&
           a->volume_max == b->volume_max && a->volume_min == b->volume_min &&
           a->density == b->density && a->support == b->support && a->span == b->span &&
           a->run_length == b->run_length;
}

static struct memo *memo_slot(const struct memo *k)
{
    uint64_t h = (uint64_t)k->count * 0x9e3779b97f4a7c15ull ^ (uint64_t)k->coll << 7 ^
                 (uint64_t)k->size << 11 ^ (uint64_t)k->root << 3 ^ k->elem_size;
    return &memo[(h ^ h >> 29) % MEMO_SLOTS];
}

static struct choice auto_choice(colibri_coll coll, const struct sched_params *p)
{
    if (!memo_applies(coll, p))
        return choose(coll, p);
    struct memo k = memo_key(coll, p);
    struct memo *m = memo_slot(&k);
    if (!memo_same(m, &k)) {
        k.choice = choose(coll, p);
        *m = k;
    }
    return m->choice;
}

const struct algorithm *select_auto(colibri_coll coll, const struct sched_params *p)
{
    return auto_choice(coll, p).alg;
}

/* Which algorithms model_rank ranks: all, or only the flat or only the
 * node-aware ones (R_NODE_AWARE). */
enum model_kind { KIND_FLAT = 0, KIND_NODE_AWARE = 1, KIND_ANY = 2 };

/* The model's times of the algorithms of `kind` whose restrictions hold:
 * the fastest (its radix and inner algorithm in *c, its time in *t_best)
 * and, where `second` is given, the fastest of the others (*t_second). */
static void model_rank(colibri_coll coll, const struct sched_params *p,
                       const struct cost_params *m, enum model_kind kind, struct choice *c,
                       double *t_best, const struct algorithm **second, double *t_second)
{
    *c = (struct choice){NULL, p->radix, p->segment, NULL, NULL, 0};
    const struct algorithm *runner = NULL;
    double best_t = 0, runner_t = 0;
    for (int i = 0; i < catalog_count; i++) {
        const struct algorithm *a = &catalog[i];
        if (a->coll != coll ||
            (kind != KIND_ANY && !(a->restrictions & R_NODE_AWARE) == (kind == KIND_NODE_AWARE)) ||
            (a->restrictions & R_BY_NAME) || catalog_violation(a, p))
            continue;
        int k;
        struct sched_params q;
        double t = modelled(a, p, m, &k, &q);
        /* Ties (e.g. rabenseifner and rabenseifner_3_2 at p = 2^k, equal up
         * to rounding) go to the earlier catalog entry, not to rounding. */
        if (t >= 0 && (!c->alg || t < best_t * (1 - 1e-9))) {
            if (c->alg)
                runner = c->alg, runner_t = best_t;
            c->alg = a;
            best_t = t;
            c->radix = k;
            set_inner(c, &q);
        } else if (t >= 0 && (!runner || t < runner_t * (1 - 1e-9))) {
            runner = a, runner_t = t;
        }
    }
    *t_best = best_t;
    if (second)
        *second = runner, *t_second = runner_t;
}

/* The model's modelled time of coll's `by-name` algorithms (the MPI's own
 * runs the same: catalog.h), the fastest; < 0 where coll has none or none
 * applies. */
static double model_by_name(colibri_coll coll, const struct sched_params *p,
                            const struct cost_params *m)
{
    double best = -1;
    for (int i = 0; i < catalog_count; i++) {
        const struct algorithm *a = &catalog[i];
        if (a->coll != coll || !(a->restrictions & R_BY_NAME) || catalog_violation(a, p))
            continue;
        int k;
        struct sched_params q;
        const double t = modelled(a, p, m, &k, &q);
        if (t >= 0 && (best < 0 || t < best))
            best = t;
    }
    return best;
}

/* The cost model's fastest among the algorithms whose restrictions hold,
 * with the radix it prefers; native (NULL) where a `by-name` algorithm,
 * which the MPI's own runs, is modelled no slower. */
static struct choice model_choice(colibri_coll coll, const struct sched_params *p,
                                  const struct cost_params *m)
{
    struct choice c;
    double t;
    model_rank(coll, p, m, KIND_ANY, &c, &t, NULL, NULL);
    const double below = c.alg ? model_by_name(coll, p, m) : -1;
    if (below >= 0 && below <= t)
        c = (struct choice){NULL, p->radix, p->segment, NULL, NULL, 0};
    return c;
}

/* The choice itself: the tuning rule for this shape, else the cost model's
 * minimum.  Two exceptions leave it to the model: a rule's algorithm whose
 * restriction this call breaks (ring measured with a commutative sum,
 * called with a non-commutative operation), and data the agreed estimate
 * finds sparse enough for a sparse algorithm (rules are measured on dense
 * data, docs/tuning.md).  The radix and segment: the caller's
 * (COLIBRI_RADIX, COLIBRI_SEGMENT_BYTES), else the rule's, else the
 * model's. */
static struct choice choose(colibri_coll coll, const struct sched_params *p)
{
    struct cost_params m = model_params(p);
    int ppn, nodes;
    node_shape(p, &ppn, &nodes);
    const struct tuning_rule *r = matching_rule(coll, p, ppn, nodes);
    if (!r)
        return model_choice(coll, p, &m);
    if (p->density > 0) {
        struct choice c = model_choice(coll, p, &m);
        if (c.alg && (c.alg->restrictions & R_NEUTRAL))
            return c;
    }
    struct choice c = {NULL, p->radix, p->segment, NULL, NULL, 0};
    if (strcmp(r->alg, "native") == 0)
        return c;
    const struct algorithm *a = catalog_find(coll, r->alg);
    if (!a || catalog_violation(a, p))
        return model_choice(coll, p, &m);
    c.alg = a;
    struct sched_params q;
    int radix;
    modelled(a, p, &m, &radix, &q);
    set_inner(&c, &q);
    c.radix = !c.radix && r->radix ? r->radix : radix;
    if (!c.segment && r->segment && p->elem_size)
        c.segment = r->segment / (int64_t)p->elem_size;
    return c;
}

const char *select_by_name_only(colibri_coll coll)
{
    for (int i = 0; i < catalog_count; i++)
        if (catalog[i].coll == coll && (catalog[i].restrictions & R_BY_NAME))
            return catalog[i].name;
    return NULL;
}

bool select_always_below(colibri_coll coll, int size)
{
    /* whether coll has a by-name algorithm: the catalog is constant, so
     * scanned once per collective (a race writes the same values) */
    static signed char by_name[COLIBRI_NCOLL]; /* 0: not yet; 1: yes; -1: no */
    if ((unsigned)coll >= COLIBRI_NCOLL)
        return false;
    if (!by_name[coll]) {
        signed char some = -1;
        for (int i = 0; i < catalog_count; i++)
            if (catalog[i].coll == coll && (catalog[i].restrictions & R_BY_NAME))
                some = 1;
        by_name[coll] = some;
    }
    if (by_name[coll] < 0 || !select_names_auto(coll, NULL) || rules_for(coll, true))
        return false;
    /* gatherv, scatterv: what auto takes reads p alone (their count is 0
     * to selection, no layout, no rule: api/rooted.c), the same on every
     * rank (native where only by-name algorithms apply, or where the model
     * ranks one ahead); the last answer per collective kept, sparing the
     * nonblocking entry points the selector's memo (size << 33 | generation
     * << 1 | below, one word: a race writes a whole answer) */
    static uint64_t last[COLIBRI_NCOLL];
    const uint64_t gen = config_get()->generation & 0xffffffffu;
    const uint64_t seen = __atomic_load_n(&last[coll], __ATOMIC_RELAXED);
    if (seen && (seen >> 33) == (uint64_t)(unsigned)size && ((seen >> 1) & 0xffffffffu) == gen)
        return seen & 1;
    struct sched_params p = {.size = size, .root = 0, .elem_size = 1};
    const bool below = !auto_choice(coll, &p).alg;
    __atomic_store_n(&last[coll], (uint64_t)(unsigned)size << 33 | gen << 1 | below,
                     __ATOMIC_RELAXED);
    return below;
}

bool select_names_auto(colibri_coll coll, const char *requested)
{
    const char *name = requested ? requested : config_get()->algorithm[coll];
    return !name || !*name || strcmp(name, "auto") == 0;
}

bool select_rule_decides(colibri_coll coll, const struct sched_params *p)
{
    if (tuning_in_force()->n_rules == 0)
        return false;
    int ppn, nodes;
    node_shape(p, &ppn, &nodes);
    return matching_rule(coll, p, ppn, nodes) != NULL;
}

/* The radix and the flat algorithm between nodes that `a` runs this call
 * with, as the model prefers them (a named algorithm's). */
static void prepare(const struct algorithm *a, struct sched_params *p)
{
    struct cost_params m = model_params(p);
    struct sched_params q;
    int radix;
    modelled(a, p, &m, &radix, &q);
    p->radix = radix;
    p->inner = q.inner, p->inner_cost = q.inner_cost, p->inner_radix = q.inner_radix;
}

void select_prepare(struct sched_params *p, const struct algorithm *a)
{
    if (a)
        prepare(a, p);
}

int select_candidates(colibri_coll coll, const struct sched_params *p,
                      const struct algorithm *model, bool native_ok,
                      const struct algorithm *cand[ONLINE_CANDIDATES])
{
    if (!model)
        return 0;
    int n = 0;
    cand[n++] = model;
    if (native_ok)
        cand[n++] = NULL; /* native */
    const struct cost_params m = model_params(p);
    const struct algorithm *second = NULL;
    struct choice c;
    double t_model, t_second = 0;
    model_rank(coll, p, &m, KIND_ANY, &c, &t_model, &second, &t_second);
    if (c.alg != model) /* (a choice the model did not make: no runner-up of its) */
        second = NULL;
    if (second && t_model > 0 && t_second <= t_model * ONLINE_UNSURE)
        cand[n++] = second;
    else
        second = NULL;
    /* the model's choice on a slower network between nodes (its per-byte
     * cost only: the node's own figures stay); on one node there is none,
     * and there the model's best of the other kind instead (node-aware
     * where it chose a flat algorithm, flat where it chose node-aware):
     * the node's copy and hand-off costs are what it knows least (Open MPI
     * 5, 2 ranks, 32 KiB reduce_scatter_block: the model's node_split_rail
     * and native even, ring 0.45x native) */
    if (c.alg == model && !(p->layout && p->layout->n_nodes == 1)) {
        struct cost_params slow = m;
        slow.beta *= ONLINE_BETA_SPAN;
        const struct choice s = model_choice(coll, p, &slow);
        if (s.alg && s.alg != model && s.alg != second)
            cand[n++] = s.alg;
    } else if (c.alg == model && p->size > 1) {
        struct choice o;
        double t_other;
        model_rank(coll, p, &m, model->restrictions & R_NODE_AWARE ? KIND_FLAT : KIND_NODE_AWARE,
                   &o, &t_other, NULL, NULL);
        if (o.alg && o.alg != second)
            cand[n++] = o.alg;
    }
    return n;
}

/* An automatic choice into *alg and p's radix and segment. */
static void apply_auto(colibri_coll coll, struct sched_params *p, const struct algorithm **alg)
{
    struct choice c = auto_choice(coll, p);
    *alg = c.alg;
    p->radix = c.radix;
    p->segment = c.segment;
    p->inner = c.inner, p->inner_cost = c.inner_cost, p->inner_radix = c.inner_radix;
}

int select_algorithm(colibri_coll coll, struct sched_params *p, const char *requested,
                     const struct algorithm **alg, char *msg, size_t len)
{
    const char *name = requested ? requested : config_get()->algorithm[coll];
    *alg = NULL;
    if (!name || !*name || strcmp(name, "auto") == 0) {
        apply_auto(coll, p, alg);
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
        prepare(a, p);
        *alg = a;
        return MPI_SUCCESS;
    }
    enum fallback f = config_get()->fallback;
    if (f == FALLBACK_ERROR) {
        snprintf(msg, len, "%s algorithm '%s' %s (COLIBRI_FALLBACK=warn lets colibri choose instead)",
                 colibri_coll_name(coll), name, why);
        return MPI_ERR_ARG;
    }
    apply_auto(coll, p, alg);
    if (f == FALLBACK_WARN && p->rank == 0)
        fprintf(stderr, "colibri: warning: %s algorithm '%s' %s; using '%s'\n",
                colibri_coll_name(coll), name, why, *alg ? (*alg)->name : "native");
    return MPI_SUCCESS;
}

/* snprintf at buf + *n, advancing *n, never past len. */
static void appendf(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
    if (*n >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *n, len - *n, fmt, ap);
    va_end(ap);
    *n = k < 0 ? len : *n + (size_t)k < len ? *n + (size_t)k : len;
}

void select_describe(char *buf, size_t len)
{
    const struct config *cfg = config_get();
    const struct tuning_file *t = tuning_in_force();
    const struct cost_params m = model_params(NULL);
    size_t n = 0;
    buf[0] = '\0';
    if (!cfg->tuning[0])
        appendf(buf, len, &n, "tuning: none (COLIBRI_TUNING unset, no file at %s)\n",
                cfg->tuning_default);
    else {
        appendf(buf, len, &n, "tuning: %s (%s): %d rules in force, %d lines ignored\n",
                cfg->tuning, cfg->tuning_source, t->n_rules, t->n_ignored);
        if (t->mpi[0])
            appendf(buf, len, &n, "tuning: measured with %s", t->mpi);
        if (t->mpi[0] && t->shape_p)
            appendf(buf, len, &n, ", p=%d ppn=%d nodes=%d", t->shape_p, t->shape_ppn,
                    t->shape_nodes);
        if (t->mpi[0])
            appendf(buf, len, &n, "\n");
    }
    appendf(buf, len, &n,
            "model: alpha=%.3g s beta=%.3g s/B gamma=%.3g s/B o=%.3g s sparse=%.3g s/B (%s)\n",
            m.alpha, m.beta, m.gamma, m.o, m.sparse,
            cfg->cost_model[0] ? "COLIBRI_COST_MODEL"
            : t->model.set     ? "calibrated, from the tuning file"
                               : "built-in defaults");
    if (t->model.set)
        appendf(buf, len, &n,
                "model: within a node alpha=%.3g s beta=%.3g s/B; eager limit %lld B; "
                "shared-memory copy %.3g s/B\n",
                t->model.alpha_node, t->model.beta_node, t->model.eager, t->model.shm_beta);
    if (!cfg->online)
        appendf(buf, len, &n, "online: off (COLIBRI_ONLINE=0): where no rule decides, the model\n");
    else
        appendf(buf, len, &n,
                "online: on (COLIBRI_ONLINE=0 turns it off): a blocking automatic call that no "
                "rule decides runs the model's choice, native, within %.0f%% the model's "
                "runner-up, and its choice for a network %.0fx slower per byte between nodes (on "
                "one node its best of the other kind, node-aware or flat) for %ld calls each (%d "
                "from %d KiB unless COLIBRI_ONLINE_CALLS is given; "
                "the first untimed; native's from the memo a "
                "settled call takes; from %d KiB paused after each candidate's calls from "
                "native's on, on the best so far, until exploring has cost %.0f%% over it, at "
                "most %d calls, none where colibri's best takes at most %.0f%% of native's "
                "time), then the winner by the slowest rank's mean of the faster "
                "half of its last %d timed calls (colibri's only where %.0f%% and %.0f ns a "
                "call faster than native), "
                "confirmed after %d "
                "calls (%d from %d KiB; a first native win where every candidate took %.1fx "
                "its time or more: not confirmed; from %d KiB, while native takes %.1fx the "
                "colibri winner's time, native's next turn has twice the timed calls, up to %d "
                "times, and the window stays the confirmation's, %d calls at a first decision or "
                "where native's time fell %.2fx since the last: the MPI below may be slow for "
                "a size's first calls), re-checked after %ld, then in doubling windows (another colibri "
                "algorithm past %.0f%%; candidates %.1fx the winner's time at a later decision "
                "left out until the winner or its time changes; a new shape of %d KiB or more starts "
                "without those its decided neighbour up to %dx smaller left out or found %.1fx "
                "its winner's time); nonblocking and "
                "persistent calls take the decision of the blocking shape with their key; "
                "alltoallv skips its size agreement for %d to %d calls while every shape "
                "agreed on is settled on native (to %d while consecutive agreements find "
                "one shape on native, and through a long exploration's pauses on native)%s\n",
                (ONLINE_UNSURE - 1) * 100, ONLINE_BETA_SPAN, cfg->online_calls, ONLINE_LONG_CALLS,
                ONLINE_LONG_BYTES / 1024, ONLINE_LONG_BYTES / 1024, ONLINE_BUDGET * 100,
                ONLINE_PAUSE_MAX, ONLINE_PACE_CLEAR * 100, ONLINE_SAMPLES,
                ONLINE_NATIVE_MARGIN * 100, ONLINE_NATIVE_GAIN * 1e9, ONLINE_CONFIRM_WINDOW,
                ONLINE_CONFIRM_LONG, ONLINE_LONG_BYTES / 1024, ONLINE_CLEAR_LOSS,
                ONLINE_LONG_BYTES / 1024, ONLINE_CLEAR_LOSS, ONLINE_NATIVE_WARM, ONLINE_CONFIRM_WARM,
                ONLINE_WARM_FALL, cfg->online_window,
                ONLINE_MARGIN * 100, ONLINE_CLEAR_LOSS, ONLINE_LONG_BYTES / 1024,
                ONLINE_INHERIT_SPAN, ONLINE_CLEAR_LOSS, ONLINE_SKIP_FIRST, ONLINE_SKIP_MAX,
                ONLINE_SKIP_MIXED_MAX, cfg->online_fake[0] ? "; timings faked (COLIBRI_ONLINE_FAKE)" : "");
}
