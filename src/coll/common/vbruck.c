/* Variable-size Bruck exchange with per-round metadata (see vbruck.h). */
#include "vbruck.h"

#include <stdlib.h>
#include <string.h>

int vbruck_init(struct vbruck *b, int n, int me, const int *rank_of, int radix,
                const struct vb_block *src, const struct vb_block *dst, int64_t meta_off)
{
    memset(b, 0, sizeof *b);
    b->n = n, b->me = me, b->k = radix < 2 ? 2 : radix;
    b->meta_off = meta_off;
    b->rank_of = malloc((size_t)n * sizeof *b->rank_of);
    b->slot = malloc((size_t)n * sizeof *b->slot);
    b->dst = malloc((size_t)n * sizeof *b->dst);
    b->stage = calloc((size_t)b->k, sizeof *b->stage);
    if (!b->rank_of || !b->slot || !b->dst || !b->stage) {
        vbruck_free(b);
        return -1;
    }
    memcpy(b->rank_of, rank_of, (size_t)n * sizeof *rank_of);
    memcpy(b->dst, dst, (size_t)n * sizeof *dst);
    for (int j = 0; j < n; j++) /* slot j: my block for the participant j ahead */
        b->slot[j] = src[(me + j) % n];
    return 0;
}

void vbruck_free(struct vbruck *b)
{
    free(b->rank_of);
    free(b->slot);
    free(b->dst);
    free(b->stage);
    memset(b, 0, sizeof *b);
}

static int digit(int j, int64_t w, int k) { return (int)((j / w) % k); }

bool vbruck_round(struct vbruck *b, struct schedule *s, void *const buf[])
{
    int n = b->n, k = b->k, me = b->me;
    int64_t *meta_out = (int64_t *)((char *)buf[BUF_TMP2] + b->meta_off), *meta_in = meta_out + n;
    int64_t arena = s->tmp_count[0];

    if (b->w) {
        /* Data of position w: the packed blocks go, the peers' arrive (sizes
         * from the metadata that came last round, in the same order as the
         * sender listed them: ascending slot) and stay where they land. */
        int64_t w = b->w;
        int pos = 0;
        for (int v = 1; v < k && v * w < n; v++) {
            int to = (int)((me + v * w) % n), from = (int)((me - v * w % n + n) % n);
            int64_t start = arena;
            for (int j = 0; j < n; j++) {
                if (digit(j, w, k) != v)
                    continue;
                b->slot[j] = (struct vb_block){BUF_TMP, arena, meta_in[pos++]};
                arena += b->slot[j].len;
            }
            sched_recv(s, b->rank_of[from], BUF_TMP, start, arena - start);
            sched_send(s, b->rank_of[to], b->stage[v].buf, b->stage[v].off, b->stage[v].len);
        }
    }

    int64_t next = b->w ? b->w * k : 1;
    if (next < n) {
        /* Metadata of the next position, and its blocks packed after this
         * round's data arrived (a round's copies follow its messages). */
        int pos = 0;
        for (int v = 1; v < k && v * next < n; v++) {
            int to = (int)((me + v * next) % n), from = (int)((me - v * next % n + n) % n);
            int first = pos;
            int64_t start = arena;
            for (int j = 0; j < n; j++) {
                if (digit(j, next, k) != v)
                    continue;
                struct vb_block *sl = &b->slot[j];
                meta_out[pos++] = sl->len;
                sched_copy(s, sl->buf, sl->off, BUF_TMP, arena, sl->len);
                arena += sl->len;
            }
            b->stage[v] = (struct vb_block){BUF_TMP, start, arena - start};
            int64_t bytes = (int64_t)(pos - first) * (int64_t)sizeof(int64_t);
            sched_send(s, b->rank_of[to], BUF_TMP2, b->meta_off + first * (int64_t)sizeof(int64_t), bytes);
            sched_recv(s, b->rank_of[from], BUF_TMP2,
                       b->meta_off + (n + first) * (int64_t)sizeof(int64_t), bytes);
        }
        b->w = next;
        sched_need_tmp(s, BUF_TMP, arena);
        return false;
    }

    /* Every block has arrived: slot j came from the participant j behind. */
    for (int j = 0; j < n; j++) {
        const struct vb_block *d = &b->dst[(me - j + n) % n];
        sched_copy(s, b->slot[j].buf, b->slot[j].off, d->buf, d->off, d->len);
    }
    sched_need_tmp(s, BUF_TMP, arena);
    return true;
}

int vbruck_positions(int n, int radix)
{
    int k = radix < 2 ? 2 : radix, x = 0;
    for (int64_t w = 1; w < n; w *= k)
        x++;
    return x;
}
