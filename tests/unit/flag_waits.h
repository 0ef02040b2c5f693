/*
 * Removing one flag wait from a built schedule, for the unit tests that
 * check a node-aware schedule needs every wait it has
 * (test_node_reductions.c, test_node_movement.c).
 * Header-only on purpose: each unit test that needs it includes it.
 */
#ifndef COLIBRI_TEST_FLAG_WAITS_H
#define COLIBRI_TEST_FLAG_WAITS_H

#include <stdbool.h>
#include <string.h>

#include "patterns/node_reduce.h"
#include "sched/schedule.h"

/* Takes flag wait w (counted over the whole schedule) out of s; 0, or -1
 * when there is no such wait. */
static int flag_wait_drop(struct schedule *s, int w)
{
    int seen = 0;
    for (uint32_t r = 0; r < s->n_rounds; r++) {
        struct sched_round *rd = &s->rounds[r];
        for (uint32_t i = rd->first_op; i < rd->first_op + rd->n_ops; i++) {
            if (s->ops[i].kind != SOP_FLAG_WAIT || seen++ != w)
                continue;
            /* out of the op list: every later round starts one op earlier */
            memmove(&s->ops[i], &s->ops[i + 1], (s->n_ops - i - 1) * sizeof *s->ops);
            s->n_ops--;
            rd->n_ops--;
            for (uint32_t q = r + 1; q < s->n_rounds; q++)
                s->rounds[q].first_op--;
            return 0;
        }
    }
    return -1;
}

/* Flag wait w of a schedule: whether it can hold back anything in a
 * single call (a reuse wait, a negative delta, for a use before the
 * call's first holds at once), and the local rank whose flag it waits
 * for. */
static bool wait_matters(const struct schedule *s, int w, int *owner)
{
    int seen = 0;
    for (uint32_t i = 0; i < s->n_ops; i++)
        if (s->ops[i].kind == SOP_FLAG_WAIT && seen++ == w) {
            *owner = (int)(s->ops[i].src_off / NODE_FLAG_KINDS);
            return s->ops[i].count >= 0;
        }
    return false;
}

#endif
