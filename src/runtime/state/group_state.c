/*
 * Group states (state.h): the state communicators with the same group
 * share.
 *
 * A group is identified by its members' ranks in MPI_COMM_WORLD
 * (MPI_Group_translate_ranks, local): their hash is the table key, and
 * MPI_Group_compare == MPI_IDENT confirms a hit, so a hash collision costs
 * a comparison, never a wrong share.  Communicators of one group hold one
 * reference each; the last one's release frees the state.
 *
 * MPI_COMM_WORLD's group state, once its node layout is known, is kept until
 * MPI_Finalize (an attribute of MPI_COMM_SELF, whose deletion is the first
 * thing MPI_Finalize does): it is the parent every other layout is
 * predicted from (node.c), and keeping it is what makes 10^5 communicators
 * created, used and freed cost one layout exchange in all.
 */
#include <stdlib.h>

#include "../../config/config.h"
#include "state.h"
#include "setup.h"

#define BUCKETS 256
static struct group_state *table[BUCKETS];

static MPI_Group world_group = MPI_GROUP_NULL;
static struct group_state *world_parent;
static int self_keyval = MPI_KEYVAL_INVALID;

static int finalized(void)
{
    int done = 0;
    PMPI_Finalized(&done);
    return done;
}

/* MPI_Finalize: drop the world parent and the world group handle. */
static int release_world(MPI_Comm comm, int key, void *attr, void *extra)
{
    (void)comm, (void)key, (void)attr, (void)extra;
    if (world_parent)
        group_state_release(world_parent);
    world_parent = NULL;
    if (world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&world_group);
    return MPI_SUCCESS;
}

static int world_group_get(void)
{
    if (world_group != MPI_GROUP_NULL)
        return MPI_SUCCESS;
    int rc = PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
    if (rc == MPI_SUCCESS && self_keyval == MPI_KEYVAL_INVALID)
        rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, release_world, &self_keyval, NULL);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_set_attr(MPI_COMM_SELF, self_keyval, NULL);
    return rc;
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The hash of g's members' world ranks, in order, and whether g is
 * MPI_COMM_WORLD's group (rank i is world rank i, every world rank in). */
static int identify(MPI_Group g, int size, uint64_t *hash, bool *world)
{
    int rc = world_group_get(), world_size = 0;
    int *idx = malloc(2 * (size_t)size * sizeof *idx + 1), *w = idx + size;
    if (!idx)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++)
        idx[i] = i;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Group_translate_ranks(g, size, idx, world_group, w);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Group_size(world_group, &world_size);
    uint64_t h = mix((uint64_t)size);
    bool identity = size == world_size;
    for (int i = 0; rc == MPI_SUCCESS && i < size; i++) {
        h = mix(h ^ (uint64_t)(uint32_t)w[i]);
        identity = identity && w[i] == i;
    }
    free(idx);
    *hash = h;
    *world = identity;
    return rc;
}

static int group_state_get_locked(MPI_Comm comm, struct group_state **out)
{
    MPI_Group g;
    int size, rc = PMPI_Comm_group(comm, &g);
    if (rc != MPI_SUCCESS)
        return rc;
    PMPI_Group_size(g, &size);
    /* Eager setup, as a library without sharing: a private state each. */
    const bool share = !config_get()->setup_eager;
    uint64_t hash = 0;
    bool world = false;
    if (share && (rc = identify(g, size, &hash, &world)) != MPI_SUCCESS) {
        PMPI_Group_free(&g);
        return rc;
    }
    struct group_state **bucket = &table[hash % BUCKETS];
    for (struct group_state *e = share ? *bucket : NULL; e; e = e->next) {
        int cmp = MPI_UNEQUAL;
        if (e->hash == hash && e->size == size &&
            PMPI_Group_compare(g, e->group, &cmp) == MPI_SUCCESS && cmp == MPI_IDENT) {
            PMPI_Group_free(&g);
            e->refs++;
            setup_stats.group_shared++;
            *out = e;
            return MPI_SUCCESS;
        }
    }
    struct group_state *e = state_alloc(sizeof *e);
    if (!e) {
        PMPI_Group_free(&g);
        return MPI_ERR_NO_MEM;
    }
    *e = (struct group_state){.hash = hash, .size = size, .refs = 1, .group = g,
                              .world = world, .shared = share,
                              .node = {.comm = MPI_COMM_NULL}};
    if (share) {
        e->next = *bucket;
        *bucket = e;
    }
    setup_stats.group_states++;
    setup_stats.group_states_live++;
    *out = e;
    return MPI_SUCCESS;
}

int group_state_get(MPI_Comm comm, struct group_state **out)
{
    setup_lock();
    int rc = group_state_get_locked(comm, out);
    setup_unlock();
    return rc;
}

static void group_state_release_locked(struct group_state *g)
{
    if (--g->refs > 0)
        return;
    if (g->shared) {
        struct group_state **p = &table[g->hash % BUCKETS];
        while (*p != g)
            p = &(*p)->next;
        *p = g->next;
    }
    sched_cache_drop_group(g);
    state_free(g->layout_mem, node_layout_bytes(g->size));
    if (!finalized())
        PMPI_Group_free(&g->group);
    state_free(g, sizeof *g);
    setup_stats.group_states_live--;
}

void group_state_release(struct group_state *g)
{
    setup_lock();
    group_state_release_locked(g);
    setup_unlock();
}

struct group_state *group_state_world_parent(void) { return world_parent; }

void group_state_keep_world(struct group_state *g)
{
    setup_lock();
    if (!world_parent && g->world && g->shared) {
        g->refs++;
        world_parent = g;
    }
    setup_unlock();
}

size_t node_layout_bytes(int size) { return (4 * (size_t)size + 1) * sizeof(int); }
