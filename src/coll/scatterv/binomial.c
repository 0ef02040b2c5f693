/*
 * Scatterv down a binomial tree over ranks counted from the root (the tree
 * of scatter/binomial.c, common/rooted.h): x's subtree is the run of
 * relative ranks [x, blocks_subtree_end(x)), m = end - x ranks.  Only the
 * root knows every block's size, so a parent sends an inner child the
 * sizes of its subtree's blocks (one int64 each, in relative rank order)
 * ahead of the blocks: in the same message, sizes then blocks, when the
 * two fit in cap(m) = max(SVB_INLINE, 8 m) bytes, else the sizes alone and
 * then the blocks, both posted at once.  The child receives up to cap(m)
 * bytes, reads the sizes and applies the same rule to know whether its
 * blocks came with them.  A leaf knows its own size and gets its block
 * alone, straight into its output.  A dynamic schedule (schedule.h,
 * `resume`): an inner rank builds its data rounds once the sizes have
 * arrived, and the root its rounds once it has written them.
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
 * overheads of a message each way (two where a subtree's sizes and blocks
 * exceed SVB_INLINE); the root sends the other blocks' n bytes through its
 * link.
 *
 * Bytes (schedule.h): `count` is this rank's block; at the root, scounts
 * and sdispls are block j's bytes and offset in SEND (in place, its own
 * block stays there).  TMP2 holds the sizes of the subtree's blocks,
 * relative block r's at 8 (r - x), and behind them its blocks when they
 * came in the same message; TMP the blocks otherwise, then the packets
 * (sizes and blocks) for the children that get both in one message.
 */
#include <stdlib.h>
#include <string.h>

#include "../../patterns/fold.h"
#include "../algorithm.h"
#include "../common/rooted.h"

COST_FORMULA(scatterv, binomial,
             "ceil(lg p)(a + 2 o [+ 2 o where a subtree's sizes and blocks exceed 4 KiB]) + n b, "
             "n the other ranks' blocks' bytes");

/* Sizes and blocks of a subtree travel in one message up to this many
 * bytes (or 8 bytes a block of the subtree, when that is more). */
#define SVB_INLINE 4096

static int64_t svb_cap(int m) { return 8 * (int64_t)m > SVB_INLINE ? 8 * (int64_t)m : SVB_INLINE; }
static bool svb_inline(int m, int64_t len) { return 8 * (int64_t)m + len <= svb_cap(m); }

struct svb {
    int size, root, x;
    int64_t own;
    const int64_t *n, *d; /* the root's counts and displacements (the call's) */
};

static int svb_abs(const struct svb *g, int rel) { return (rel + g->root) % g->size; }

/* What a child gets: its run of `len` bytes at `off` of buffer `buf`, and
 * (an inner child) its m sizes, from TMP2 at 8 (c - x), or the two as one
 * packet assembled in TMP at `pk`. */
struct svb_child {
    int buf;
    int64_t off, len, pk;
    bool packet;
};

/* Child c's run is at (buf, off): an inner child whose sizes and blocks
 * fit one message gets a packet assembled at *top of TMP (copies in the
 * current round, before the hand-down rounds). */
static void svb_plan(struct schedule *s, const struct svb *g, int c, int buf, int64_t off,
                     int64_t len, int64_t *top, struct svb_child *ch)
{
    const int m = blocks_subtree_end(c, g->size) - c;
    *ch = (struct svb_child){buf, off, len, 0, m > 1 && svb_inline(m, len)};
    if (!ch->packet)
        return;
    ch->pk = *top;
    sched_copy(s, BUF_TMP2, 8 * (int64_t)(c - g->x), BUF_TMP, *top, 8 * (int64_t)m);
    sched_copy(s, buf, off, BUF_TMP, *top + 8 * (int64_t)m, len);
    *top += 8 * (int64_t)m + len;
}

/* Hands each child what svb_plan planned (children by distance d from x,
 * ch[d]), the largest subtree first, one round each. */
static void svb_hand_down(struct schedule *s, const struct svb *g, const struct svb_child *ch)
{
    const int lb = blocks_lowbit(g->x, g->size);
    for (int d = lb / 2; d >= 1; d /= 2) {
        const int c = g->x + d;
        if (c >= g->size)
            continue;
        const int m = blocks_subtree_end(c, g->size) - c, to = svb_abs(g, c);
        if (ch[d].packet) {
            sched_send_bytes(s, to, BUF_TMP, ch[d].pk, 8 * (int64_t)m + ch[d].len);
        } else {
            if (m > 1)
                sched_send_bytes(s, to, BUF_TMP2, 8 * (int64_t)d, 8 * (int64_t)m);
            sched_send(s, to, ch[d].buf, ch[d].off, ch[d].len);
        }
        sched_round(s);
    }
}

/* The root: writes every block's size (relative block r's at 8 r of TMP2),
 * then hands the runs down, each straight from SEND where its blocks lie
 * back to back there (empty blocks anywhere) and it goes without its
 * sizes, else packed into TMP first (behind the sizes, for a packet), runs
 * adjacent in both as one copy. */
static int svb_root(struct schedule *s, const struct svb *g, void *const buf[])
{
    const int p = g->size;
    struct svb_child *ch = calloc((size_t)p, sizeof *ch);
    if (!ch)
        return -1;
    for (int r = 1; r < p; r++) {
        const int64_t v = g->n[svb_abs(g, r)];
        memcpy((char *)buf[BUF_TMP2] + 8 * (int64_t)r, &v, 8);
    }
    int64_t top = 0;
    for (int c = 1; c < p; c *= 2) {
        const int e = blocks_subtree_end(c, p), m = e - c;
        int64_t at;
        const int64_t len = rooted_v_run(g->n, g->d, c, e, g->root, p, &at);
        const bool packet = m > 1 && svb_inline(m, len);
        ch[c] = (struct svb_child){BUF_SEND, at, len, 0, packet};
        if (at >= 0 && !packet)
            continue;
        at = top;
        if (packet) {
            ch[c].pk = top;
            sched_copy(s, BUF_TMP2, 8 * (int64_t)c, BUF_TMP, top, 8 * (int64_t)m);
            at += 8 * (int64_t)m;
        }
        ch[c].buf = BUF_TMP, ch[c].off = at;
        rooted_v_copy(s, g->n, g->d, c, e, g->root, p, BUF_SEND, at, false);
        top = at + len;
    }
    sched_need_tmp(s, BUF_TMP, top);
    sched_round(s); /* the packing, when there is any */
    svb_hand_down(s, g, ch);
    free(ch);
    return 0;
}

static int svb_resume(struct schedule *s, void *const buf[])
{
    struct svb *g = s->state;
    s->resume = NULL;
    if (!g->x)
        return svb_root(s, g, buf) != 0 || s->oom ? -1 : 0;
    /* an inner rank: its subtree's sizes have arrived (and maybe its blocks) */
    const int m = blocks_subtree_end(g->x, g->size) - g->x;
    int64_t *sz = calloc((size_t)m, sizeof *sz);
    struct svb_child *ch = calloc((size_t)m, sizeof *ch);
    if (!sz || !ch) {
        free(sz), free(ch);
        return -1;
    }
    int64_t total = 0;
    for (int r = 0; r < m; r++) {
        memcpy(&sz[r], (const char *)buf[BUF_TMP2] + 8 * (int64_t)r, 8);
        total += sz[r];
    }
    const bool came = svb_inline(m, total);
    const int data = came ? BUF_TMP2 : BUF_TMP;
    const int64_t base = came ? 8 * (int64_t)m : 0;
    int64_t top = came ? 0 : total;
    if (sz[0] > g->own) /* the root sends more than this rank receives */
        s->truncated = true;
    if (!came)
        sched_recv(s, svb_abs(g, g->x - blocks_lowbit(g->x, g->size)), BUF_TMP, 0, total);
    sched_copy(s, data, base, BUF_RECV, 0, sz[0] < g->own ? sz[0] : g->own);
    int64_t off = sz[0];
    for (int d = 1; d < m; d *= 2) { /* each child's run, behind the runs before it */
        const int ce = blocks_subtree_end(g->x + d, g->size) - g->x;
        int64_t len = 0;
        for (int r = d; r < ce; r++)
            len += sz[r];
        svb_plan(s, g, g->x + d, data, base + off, len, &top, &ch[d]);
        off += len;
    }
    sched_need_tmp(s, BUF_TMP, top);
    sched_round(s);
    svb_hand_down(s, g, ch);
    free(sz), free(ch);
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
    if (x) { /* an inner rank: its subtree's sizes first, its blocks with them if they fit */
        sched_need_tmp(s, BUF_TMP2, svb_cap(e - x));
        sched_recv_upto(s, (x - lb + root) % size, BUF_TMP2, 0, svb_cap(e - x));
        sched_round(s);
    } else {
        sched_need_tmp(s, BUF_TMP2, 8 * (int64_t)size);
    }
    return s->oom ? -1 : 0;
}

double scatterv_binomial_cost(const struct sched_params *p, const struct cost_params *m)
{
    /* a subtree's sizes and blocks: taken as its half of the other blocks */
    const double n = cost_rooted_volume(p, p->scounts), lg = ceil_log2(p->size);
    const double extra = p->size > 2 && n / 2 + 8.0 * p->size / 2 > SVB_INLINE ? 2 * m->o : 0;
    return lg * (m->alpha + 2 * m->o + extra) + n * m->beta;
}
