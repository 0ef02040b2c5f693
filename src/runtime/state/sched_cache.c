/*
 * The schedule cache (state.h, comm_cached_schedule).  Applications repeat
 * the same calls, and communicators of one group run the same schedules: a
 * schedule depends on the call only through its algorithm and parameters
 * (rank, size, root, count, element size, ...; the datatype and operation
 * matter to the executor, not to the schedule) and on the group only
 * through rank, size and node layout.  So cached schedules are keyed by
 * (group state, collective, algorithm, parameters) and shared by every
 * communicator of the group.
 *
 * Memory is bounded: the cached schedules of the process stay under
 * COLIBRI_CACHE_BYTES (entries and arrays counted), the least recently used
 * going first; a schedule larger than the cap is not cached.  A group's
 * schedules go with its state.
 */
#include <stddef.h>

#include "../../select/catalog.h"
#include "../../config/config.h"
#include "state.h"
#include "setup.h"

struct sched_entry {
    struct sched_entry *hnext, **hprev;  /* hash chain */
    struct sched_entry *newer, *older;   /* recency list */
    struct sched_entry *gnext, **gprev;  /* the group's list */
    struct group_state *grp;
    const struct algorithm *alg;
    colibri_coll coll;
    uint64_t hash;
    struct sched_params key;             /* no count vectors, no layout */
    int64_t bytes;                       /* entry and arrays */
    int pins;                            /* runs using it now: not evicted */
    struct schedule s;
};

#define BUCKETS 1024
static struct sched_entry *table[BUCKETS];
static struct sched_entry *newest, *oldest;
/* Schedules dropped so far (comm_schedule_again). */
static uint64_t drops;

static uint64_t mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xbf58476d1ce4e5b9ull;
}

static uint64_t key_hash(const struct group_state *g, colibri_coll coll,
                         const struct algorithm *alg, const struct sched_params *p)
{
    uint64_t h = mix((uint64_t)(uintptr_t)g, (uint64_t)(uintptr_t)alg);
    h = mix(h, (uint64_t)coll);
    h = mix(h, (uint64_t)p->count);
    h = mix(h, (uint64_t)p->root << 32 | (uint64_t)(uint32_t)p->rank);
    h = mix(h, (uint64_t)p->elem_size << 2 | (uint64_t)p->in_place << 1 | p->commutative);
    h = mix(h, (uint64_t)p->segment);
    return mix(h, (uint64_t)p->radix);
}

static bool same_key(const struct sched_params *x, const struct sched_params *y)
{
    return x->rank == y->rank && x->size == y->size && x->root == y->root &&
           x->count == y->count && x->elem_size == y->elem_size && x->in_place == y->in_place &&
           x->commutative == y->commutative && x->segment == y->segment && x->radix == y->radix &&
           x->node_chunk == y->node_chunk && x->inner == y->inner &&
           x->inner_radix == y->inner_radix && x->nonblocking == y->nonblocking;
}

static void recency_unlink(struct sched_entry *e)
{
    *(e->newer ? &e->newer->older : &newest) = e->older;
    *(e->older ? &e->older->newer : &oldest) = e->newer;
}

static void recency_push(struct sched_entry *e)
{
    e->newer = NULL;
    e->older = newest;
    *(newest ? &newest->newer : &oldest) = e;
    newest = e;
}

static void drop(struct sched_entry *e)
{
    if ((*e->hprev = e->hnext))
        e->hnext->hprev = e->hprev;
    if ((*e->gprev = e->gnext))
        e->gnext->gprev = e->gprev;
    recency_unlink(e);
    __atomic_add_fetch(&drops, 1, __ATOMIC_RELAXED);
    setup_stats.schedule_bytes -= e->bytes;
    setup_stats.state_bytes -= e->bytes - (int64_t)sizeof *e;
    sched_free(&e->s);
    state_free(e, sizeof *e);
}

void sched_cache_drop_group(struct group_state *g)
{
    while (g->cached)
        drop(g->cached);
}

/* Counts the scratch schedule's arrays as they are now. */
static void scratch_account(struct comm_state *cs)
{
    int64_t now = sched_bytes(&cs->scratch);
    setup_stats.state_bytes += now - cs->scratch_bytes;
    cs->scratch_bytes = now;
}

/* Moves the static schedule just built in cs->scratch into the cache. */
static struct schedule *insert(struct comm_state *cs, colibri_coll coll,
                               const struct algorithm *alg, const struct sched_params *p,
                               uint64_t hash, int64_t cap)
{
    sched_trim(&cs->scratch);
    scratch_account(cs);
    const int64_t bytes = (int64_t)sizeof(struct sched_entry) + cs->scratch_bytes;
    struct sched_entry *e = bytes <= cap ? state_alloc(sizeof *e) : NULL;
    if (!e)
        return &cs->scratch;
    *e = (struct sched_entry){.grp = cs->grp, .alg = alg, .coll = coll, .hash = hash,
                              .key = *p, .bytes = bytes, .s = cs->scratch};
    e->key.counts = e->key.scounts = e->key.sdispls = e->key.rcounts = e->key.rdispls = NULL;
    e->key.layout = NULL;
    e->key.sparse = NULL;
    /* the arrays (already counted) now belong to the entry: the scratch
     * starts empty */
    sched_init(&cs->scratch);
    cs->scratch_bytes = 0;
    setup_stats.schedule_bytes += bytes;
    setup_stats.schedules_cached++;

    struct sched_entry **b = &table[hash % BUCKETS];
    if ((e->hnext = *b))
        e->hnext->hprev = &e->hnext;
    e->hprev = b;
    *b = e;
    if ((e->gnext = cs->grp->cached))
        e->gnext->gprev = &e->gnext;
    e->gprev = &cs->grp->cached;
    cs->grp->cached = e;
    recency_push(e);
    e->pins = 1;
    for (struct sched_entry *v = oldest, *next; v && setup_stats.schedule_bytes > cap; v = next) {
        next = v->newer;
        if (!v->pins) {
            drop(v);
            setup_stats.schedules_evicted++;
        }
    }
    return &e->s;
}

static struct sched_entry *entry_of(struct schedule *s)
{
    return (struct sched_entry *)((char *)s - offsetof(struct sched_entry, s));
}

/* A hit: the entry is the most recently used, and pinned for the run. */
static struct schedule *hit(struct sched_entry *e)
{
    if (e != newest) {
        recency_unlink(e);
        recency_push(e);
    }
    setup_stats.schedule_hits++;
    e->pins++;
    return &e->s;
}

static struct schedule *cached_schedule(struct comm_state *cs, colibri_coll coll,
                                        const struct algorithm *alg, const struct sched_params *p)
{
    /* Per-rank count vectors are not compared: those calls always build
     * (reduce_scatter_block's are all `count`). */
    const bool keyed = coll != COLIBRI_REDUCE_SCATTER && coll != COLIBRI_ALLTOALLV &&
                       coll != COLIBRI_ALLGATHERV && coll != COLIBRI_GATHERV &&
                       coll != COLIBRI_SCATTERV;
    const int64_t cap = config_get()->cache_bytes;
    uint64_t hash = 0;
    if (keyed && cap > 0) {
        hash = key_hash(cs->grp, coll, alg, p);
        for (struct sched_entry *e = table[hash % BUCKETS]; e; e = e->hnext) {
            if (e->hash == hash && e->grp == cs->grp && e->alg == alg && e->coll == coll &&
                same_key(&e->key, p))
                return hit(e);
        }
    }
    sched_reset(&cs->scratch);
    if (alg->build(p, &cs->scratch) != 0 || cs->scratch.oom) {
        scratch_account(cs);
        return NULL;
    }
    /* A dynamic schedule grows while it runs: it serves this call only. */
    if (keyed && cap > 0 && !cs->scratch.resume)
        return insert(cs, coll, alg, p, hash, cap);
    scratch_account(cs);
    return &cs->scratch;
}

struct schedule *comm_cached_schedule(struct comm_state *cs, colibri_coll coll,
                                      const struct algorithm *alg, const struct sched_params *p,
                                      uint64_t *stamp)
{
    setup_lock();
    struct schedule *s = cached_schedule(cs, coll, alg, p);
    if (stamp)
        *stamp = drops;
    setup_unlock();
    return s;
}

/* An entry is freed only by drop(), which counts it: while the count is
 * what it was when the entry was found, the entry is still there. */
struct schedule *comm_schedule_again(struct schedule *s, uint64_t stamp)
{
    setup_lock();
    s = __atomic_load_n(&drops, __ATOMIC_RELAXED) == stamp ? hit(entry_of(s)) : NULL;
    setup_unlock();
    return s;
}

void comm_release_schedule(struct comm_state *cs, struct schedule *s)
{
    if (!s)
        return;
    setup_lock();
    if (s == &cs->scratch) {
        /* An uncached schedule served this call only, and one with per-rank
         * counts (alltoallv: every block copied in and out) holds O(p)
         * operations once it has run: an idle communicator keeps none. */
        sched_free(&cs->scratch);
        scratch_account(cs);
    } else {
        entry_of(s)->pins--;
    }
    setup_unlock();
}
