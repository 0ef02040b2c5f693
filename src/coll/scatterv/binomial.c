/*
 * Scatterv down a binomial tree over ranks counted from the root (the tree
 * of scatter/binomial.c, common/rooted.h): x's subtree is the run of
 * relative ranks [x, blocks_subtree_end(x)).  Only the root knows every
 * block's size, so a parent sends an inner child the sizes of its
 * subtree's blocks (one int64 each, in relative rank order) just ahead of
 * the blocks themselves, both posted at once; a leaf knows its own size
 * and gets its block alone, straight into its output.  A dynamic schedule
 * (schedule.h, `resume`): an inner rank builds its data rounds once the
 * sizes have arrived, and the root its rounds once it has written them.
 *
 * An inner rank receives its subtree's blocks into TMP as one message, in
 * relative rank order, keeps its own (copied to RECV) and hands each child
 * its run and the run's sizes, the largest subtree first, one round each,
 * as the binomial scatter does.  The root sends each child's run straight
 * from its input where the run's blocks lie back to back there in relative
 * rank order (packed displacements, the run not passing rank p-1), else
 * packs them into TMP first, adjacent ones as one copy.
 *
 * Against linear (scatterv/linear.c) the root sends ceil(lg p) runs
 * instead of p-1 blocks, and a block passes up to ceil(lg p) - 1 ranks
 * between; each inner rank also receives its subtree's sizes.  Selection
 * sees only p and the root (the sizes are the root's), so this is
 * `by-name`: the C API, COLIBRI_SCATTERV_ALGORITHM or a tuning rule.
 *
 * Cost (COST_FORMULA below): ceil(lg p) levels, each a latency and the
 * overheads of two messages each way (sizes and data); the root sends the
 * other blocks' n bytes through its link.
 *
 * Bytes (schedule.h): `count` is this rank's block; at the root, scounts
 * and sdispls are block j's bytes and offset in SEND (in place, its own
 * block stays there).  TMP2 holds the sizes of the subtree's blocks,
 * relative block r's at 8 (r - x).
 */
#include <stdlib.h>
#include <string.h>

#include "../../patterns/blocks.h"
#include "../../patterns/fold.h"
#include "../algorithm.h"

COST_FORMULA(scatterv, binomial, "ceil(lg p)(a + 4 o) + n b, n the other ranks' blocks' bytes");

struct svb {
    int size, root, x;
    int64_t own;
    const int64_t *n, *d; /* the root's counts and displacements (the call's) */
};

static int svb_abs(const struct svb *g, int rel) { return (rel + g->root) % g->size; }

/* Hands each child its sizes (inner children only: TMP2 from 8 (c - x)
 * on) and its run (child c's at where[c - x] of buffer from[c - x]), the
 * largest subtree first, one round each. */
static void svb_hand_down(struct schedule *s, const struct svb *g, const int64_t *len,
                          const int *from, const int64_t *where)
{
    const int lb = blocks_lowbit(g->x, g->size);
    for (int d = lb / 2; d >= 1; d /= 2) {
        const int c = g->x + d;
        if (c >= g->size)
            continue;
        const int e = blocks_subtree_end(c, g->size);
        if (e > c + 1)
            sched_send(s, svb_abs(g, c), BUF_TMP2, 8 * (int64_t)d, 8 * (int64_t)(e - c));
        sched_send(s, svb_abs(g, c), from[d], where[d], len[d]);
        sched_round(s);
    }
}

/* The root: writes every block's size (relative block r's at 8 r of TMP2),
 * then hands the runs down, each straight from SEND where its blocks lie
 * back to back there (empty blocks anywhere), else packed into TMP first,
 * runs adjacent in both as one copy. */
static int svb_root(struct schedule *s, const struct svb *g, void *const buf[])
{
    const int p = g->size;
    int64_t *len = calloc((size_t)p, sizeof *len), *where = calloc((size_t)p, sizeof *where);
    int *from = calloc((size_t)p, sizeof *from);
    if (!len || !where || !from) {
        free(len), free(where), free(from);
        return -1;
    }
    for (int r = 1; r < p; r++) {
        const int64_t v = g->n[svb_abs(g, r)];
        memcpy((char *)buf[BUF_TMP2] + 8 * (int64_t)r, &v, 8);
    }
    int64_t toff = 0;
    for (int c = 1; c < p; c *= 2) {
        const int e = blocks_subtree_end(c, p);
        int64_t first = -1, next = -1;
        bool packed = true;
        for (int r = c; r < e; r++) {
            const int j = svb_abs(g, r);
            if (!g->n[j])
                continue;
            if (first < 0)
                first = g->d[j];
            else if (g->d[j] != next)
                packed = false;
            next = g->d[j] + g->n[j];
            len[c] += g->n[j];
        }
        if (packed) {
            from[c] = BUF_SEND, where[c] = first < 0 ? 0 : first;
            continue;
        }
        from[c] = BUF_TMP, where[c] = toff;
        int64_t run_src = 0, run_dst = 0, run_len = 0;
        for (int r = c; r < e; r++) {
            const int j = svb_abs(g, r);
            if (!g->n[j])
                continue;
            if (run_len && g->d[j] != run_src + run_len) {
                sched_copy(s, BUF_SEND, run_src, BUF_TMP, run_dst, run_len);
                run_len = 0;
            }
            if (!run_len)
                run_src = g->d[j], run_dst = toff;
            run_len += g->n[j];
            toff += g->n[j];
        }
        sched_copy(s, BUF_SEND, run_src, BUF_TMP, run_dst, run_len);
    }
    sched_need_tmp(s, BUF_TMP, toff);
    sched_round(s); /* the packing, when there is any */
    svb_hand_down(s, g, len, from, where);
    free(len), free(where), free(from);
    return 0;
}

static int svb_resume(struct schedule *s, void *const buf[])
{
    struct svb *g = s->state;
    s->resume = NULL;
    if (!g->x)
        return svb_root(s, g, buf) != 0 || s->oom ? -1 : 0;
    /* an inner rank: its subtree's sizes have arrived */
    const int e = blocks_subtree_end(g->x, g->size), m = e - g->x;
    int64_t *len = calloc((size_t)m, sizeof *len), *where = calloc((size_t)m, sizeof *where);
    int *from = calloc((size_t)m, sizeof *from);
    if (!len || !where || !from) {
        free(len), free(where), free(from);
        return -1;
    }
    int64_t total = 0, sz0 = 0;
    for (int r = 0; r < m; r++) {
        int64_t v;
        memcpy(&v, (const char *)buf[BUF_TMP2] + 8 * (int64_t)r, 8);
        if (!r)
            sz0 = v;
        total += v;
    }
    /* each child's run: its blocks' sizes, behind the runs before it */
    for (int d = 1; d < m; d *= 2) {
        const int ce = blocks_subtree_end(g->x + d, g->size) - g->x;
        int64_t off = 0;
        for (int r = 0; r < ce; r++) {
            int64_t v;
            memcpy(&v, (const char *)buf[BUF_TMP2] + 8 * (int64_t)r, 8);
            if (r < d)
                off += v;
            else
                len[d] += v;
        }
        from[d] = BUF_TMP, where[d] = off;
    }
    if (sz0 > g->own) /* the root sends more than this rank receives */
        s->truncated = true;
    sched_need_tmp(s, BUF_TMP, total);
    sched_recv(s, svb_abs(g, g->x - blocks_lowbit(g->x, g->size)), BUF_TMP, 0, total);
    sched_copy(s, BUF_TMP, 0, BUF_RECV, 0, sz0 < g->own ? sz0 : g->own);
    sched_round(s);
    svb_hand_down(s, g, len, from, where);
    free(len), free(where), free(from);
    return s->oom ? -1 : 0;
}

int scatterv_binomial_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, root = p->root, x = (p->rank - root + size) % size;
    const int lb = blocks_lowbit(x, size), e = blocks_subtree_end(x, size);
    if (!x && !p->in_place) {
        sched_copy(s, BUF_SEND, p->sdispls[root], BUF_RECV, 0, p->scounts[root]);
        sched_round(s);
    }
    if (size == 1)
        return s->oom ? -1 : 0;
    if (x && e == x + 1) { /* a leaf: its block alone */
        sched_recv(s, (x - lb + root) % size, BUF_RECV, 0, p->count);
        sched_round(s);
        return s->oom ? -1 : 0;
    }
    struct svb *g = malloc(sizeof *g);
    if (!g)
        return -1;
    *g = (struct svb){size, root, x, p->count, p->scounts, p->sdispls};
    s->state = g;
    s->free_state = free;
    s->resume = svb_resume;
    sched_need_tmp(s, BUF_TMP2, 8 * (int64_t)(x ? e - x : size));
    if (x) { /* an inner rank: its subtree's sizes first */
        sched_recv(s, (x - lb + root) % size, BUF_TMP2, 0, 8 * (int64_t)(e - x));
        sched_round(s);
    }
    return s->oom ? -1 : 0;
}

double scatterv_binomial_cost(const struct sched_params *p, const struct cost_params *m)
{
    return ceil_log2(p->size) * (m->alpha + 4 * m->o) + cost_rooted_volume(p, p->scounts) * m->beta;
}
