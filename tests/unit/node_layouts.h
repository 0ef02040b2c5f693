/*
 * Made-up node layouts for the unit tests of node-aware schedules
 * (test_node_reductions.c, test_node_movement.c): from each rank's
 * leader, or N nodes of L ranks, consecutive or round-robin.  Free a
 * layout_mem with free(m.node_of).
 * Header-only on purpose: each unit test that needs it includes it.
 */
#ifndef COLIBRI_TEST_NODE_LAYOUTS_H
#define COLIBRI_TEST_NODE_LAYOUTS_H

#include <stdlib.h>

#include "patterns/nodes.h"
#include "sched/schedule.h"

struct layout_mem {
    int *node_of, *local_index, *node_start, *node_ranks;
    struct node_layout l;
};

static void make_layout(struct layout_mem *m, int p, const int *leader_of)
{
    m->node_of = malloc(4 * ((size_t)p + 1) * sizeof(int));
    m->local_index = m->node_of + p + 1;
    m->node_start = m->local_index + p + 1;
    m->node_ranks = m->node_start + p + 1;
    m->l.n_nodes = node_layout_fill(p, leader_of, m->node_of, m->local_index, m->node_start,
                                    m->node_ranks);
    m->l.node_of = m->node_of, m->l.local_index = m->local_index;
    m->l.node_start = m->node_start, m->l.node_ranks = m->node_ranks;
}

/* N nodes of L ranks, consecutive (rr = 0) or round-robin (rr = 1). */
static void even_layout(struct layout_mem *m, int N, int L, int rr)
{
    int p = N * L, *leader = malloc((size_t)p * sizeof *leader);
    for (int r = 0; r < p; r++)
        leader[r] = rr ? r % N : r - r % L;
    make_layout(m, p, leader);
    free(leader);
}

#endif
