/*
 * Gatherv up a binomial tree over ranks counted from the root (the tree of
 * gather/binomial.c, common/rooted.h): x's subtree is the run of relative
 * ranks [x, blocks_subtree_end(x)).  Only the root knows every block's
 * size, so an inner rank learns how much each child forwards from the
 * child itself: a child sends its parent its subtree's byte total (one
 * int64) and then the subtree's blocks in the same message when the two
 * fit GVB_INLINE bytes, else the total alone ahead of the blocks, both
 * posted at once (the totals climb the tree a latency ahead of the data
 * they announce).  The parent receives up to GVB_INLINE bytes from each
 * child, reads the total and applies the same rule to know whether the
 * blocks came with it.  Children of the root send no total (the root
 * knows every size).  A dynamic schedule (schedule.h, `resume`): a rank's
 * data rounds are built once its children's totals have arrived.
 *
 * A rank gathers its subtree's blocks in TMP in relative rank order behind
 * its total, its own first (copied from SEND), each child's run behind the
 * runs before it, and sends them to its parent as one message (with the
 * total when they fit).  The root receives each child's run straight into
 * its output where the run's blocks lie back to back there in relative
 * rank order (packed displacements, the run not passing rank p-1), else
 * into TMP and copies the blocks to their places, adjacent ones as one
 * copy.
 *
 * Against linear (gatherv/linear.c) the root takes ceil(lg p) messages
 * instead of p-1, and a block passes up to ceil(lg p) - 1 ranks between.
 * Selection sees only p and the root (the sizes are the root's), so this
 * is `by-name`: the C API, COLIBRI_GATHERV_ALGORITHM or a tuning rule.
 *
 * Cost (COST_FORMULA below): ceil(lg p) levels, each a latency and the
 * overheads of a message each way (two where a subtree's blocks exceed
 * GVB_INLINE); the root receives the other blocks' n bytes through its
 * link.
 *
 * Bytes (schedule.h): `count` is this rank's block; at the root, rcounts
 * and rdispls are block j's bytes and offset in RECV (in place, its own
 * block is there already).  TMP2 holds the children's packets (child i's
 * at i GVB_INLINE) and then this rank's total; a leaf's TMP2 is its
 * packet.
 */
#include <stdlib.h>
#include <string.h>

#include "../../patterns/fold.h"
#include "../algorithm.h"
#include "../common/rooted.h"

COST_FORMULA(gatherv, binomial,
             "ceil(lg p)(a + 2 o [+ 2 o where a subtree's blocks exceed 4 KiB]) + n b, n the "
             "other ranks' blocks' bytes");

/* A rank has at most ceil(lg p) <= 31 children. */
#define GVB_MAX_CHILDREN 32
/* A subtree's total and blocks travel in one message up to this many bytes. */
#define GVB_INLINE 4096

static bool gvb_inline(int64_t total) { return 8 + total <= GVB_INLINE; }

struct gvb {
    int size, root, x, nch;
    int64_t own;
};

static int gvb_abs(const struct gvb *g, int rel) { return (rel + g->root) % g->size; }

/* Children x + 1, x + 2, x + 4, ... below x + lowbit(x) and p, in that
 * order (the smallest subtree first, relative rank order). */
static int gvb_child(const struct gvb *g, int i) { return g->x + (1 << i); }

/* A rank below a child of the root.  A leaf's packet (its size, then its
 * block when the two fit GVB_INLINE) is TMP2; an inner rank's children's
 * packets arrived at i GVB_INLINE of TMP2, its own total goes at
 * nch GVB_INLINE, and its packet is assembled in TMP: the total, then its
 * block and its children's runs in relative rank order. */
static int gvb_resume(struct schedule *s, void *const buf[])
{
    struct gvb *g = s->state;
    const int lb = blocks_lowbit(g->x, g->size), parent = gvb_abs(g, g->x - lb);
    const bool to_root = g->x == lb; /* the parent is the root: no total */
    const char *t = buf[BUF_TMP2];
    const int64_t mine = (int64_t)g->nch * GVB_INLINE; /* where this rank's total goes */
    int64_t total = g->own, tot[GVB_MAX_CHILDREN];
    for (int i = 0; i < g->nch; i++) {
        memcpy(&tot[i], t + (int64_t)i * GVB_INLINE, sizeof tot[i]);
        total += tot[i];
    }
    memcpy((char *)buf[BUF_TMP2] + mine, &total, sizeof total);
    s->resume = NULL;
    if (!g->nch) { /* a leaf: its size, then its block, together when they fit */
        if (gvb_inline(total)) {
            sched_copy(s, BUF_SEND, 0, BUF_TMP2, 8, g->own);
            sched_round(s);
            sched_send_bytes(s, parent, BUF_TMP2, 0, 8 + total);
        } else {
            sched_send_bytes(s, parent, BUF_TMP2, 0, 8);
            sched_send(s, parent, BUF_SEND, 0, g->own);
        }
        sched_round(s);
        return s->oom ? -1 : 0;
    }
    sched_need_tmp(s, BUF_TMP, 8 + total);
    const bool packet = !to_root && gvb_inline(total);
    if (!to_root && !packet) /* the total ahead of the blocks it announces */
        sched_send_bytes(s, parent, BUF_TMP2, mine, 8);
    int64_t off = 8 + g->own;
    for (int i = 0; i < g->nch; i++) {
        if (gvb_inline(tot[i]))
            sched_copy(s, BUF_TMP2, (int64_t)i * GVB_INLINE + 8, BUF_TMP, off, tot[i]);
        else
            sched_recv(s, gvb_abs(g, gvb_child(g, i)), BUF_TMP, off, tot[i]);
        off += tot[i];
    }
    sched_copy(s, BUF_SEND, 0, BUF_TMP, 8, g->own);
    if (packet)
        sched_copy(s, BUF_TMP2, mine, BUF_TMP, 0, 8);
    sched_round(s);
    if (packet)
        sched_send_bytes(s, parent, BUF_TMP, 0, 8 + total);
    else
        sched_send(s, parent, BUF_TMP, 8, total);
    sched_round(s);
    return s->oom ? -1 : 0;
}

/* The root: each child's run of blocks, straight into RECV where they lie
 * back to back there (empty blocks anywhere), else through TMP. */
static void gvb_root(const struct sched_params *p, struct schedule *s, const struct gvb *g)
{
    const int64_t *n = p->rcounts, *d = p->rdispls;
    int64_t toff = 0;
    for (int i = 0; i < g->nch; i++) {
        const int c = gvb_child(g, i), e = blocks_subtree_end(c, g->size);
        int64_t at;
        const int64_t total = rooted_v_run(n, d, c, e, g->root, g->size, &at);
        if (at >= 0) {
            sched_recv(s, gvb_abs(g, c), BUF_RECV, at, total);
        } else { /* (the copies run after the round's messages) */
            sched_recv(s, gvb_abs(g, c), BUF_TMP, toff, total);
            rooted_v_copy(s, n, d, c, e, g->root, g->size, BUF_RECV, toff, true);
            toff += total;
        }
    }
    sched_need_tmp(s, BUF_TMP, toff);
    if (!p->in_place)
        sched_copy(s, BUF_SEND, 0, BUF_RECV, d[g->root], n[g->root]);
    sched_round(s);
}

int gatherv_binomial_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, root = p->root, x = (p->rank - root + size) % size;
    struct gvb g0 = {size, root, x, 0, p->count};
    const int lb = blocks_lowbit(x, size);
    for (int d = 1; d < lb && x + d < size; d *= 2)
        g0.nch++;
    if (!x) {
        gvb_root(p, s, &g0);
        return s->oom ? -1 : 0;
    }
    if (x == lb && !g0.nch) { /* a leaf below the root: no total */
        sched_send(s, (x - lb + root) % size, BUF_SEND, 0, p->count);
        sched_round(s);
        return s->oom ? -1 : 0;
    }
    struct gvb *g = malloc(sizeof *g);
    if (!g)
        return -1;
    *g = g0;
    s->state = g;
    s->free_state = free;
    s->resume = gvb_resume;
    if (!g->nch) { /* a leaf: room for its size and (when they fit) its block */
        sched_need_tmp(s, BUF_TMP2, 8 + (gvb_inline(p->count) ? p->count : 0));
        return s->oom ? -1 : 0;
    }
    /* the children's packets (total, then the blocks when they fit), then
     * this rank's total */
    sched_need_tmp(s, BUF_TMP2, (int64_t)g->nch * GVB_INLINE + 8);
    for (int i = 0; i < g->nch; i++)
        sched_recv_upto(s, gvb_abs(g, gvb_child(g, i)), BUF_TMP2, (int64_t)i * GVB_INLINE,
                        GVB_INLINE);
    sched_round(s);
    return s->oom ? -1 : 0;
}

double gatherv_binomial_cost(const struct sched_params *p, const struct cost_params *m)
{
    /* a subtree's blocks: taken as its half of the other blocks */
    const double n = cost_rooted_volume(p, p->rcounts);
    const double extra = p->size > 2 && !gvb_inline((int64_t)(n / 2)) ? 2 * m->o : 0;
    return ceil_log2(p->size) * (m->alpha + 2 * m->o + extra) + n * m->beta;
}
