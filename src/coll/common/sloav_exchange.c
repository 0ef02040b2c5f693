/* The SLOAV exchange over a group of participants (see sloav_exchange.h). */
#include "sloav_exchange.h"

#include <stdlib.h>
#include <string.h>

#include "../../patterns/radix.h"

int sloav_exchange_radix(int n, int radix)
{
    int k = radix >= 2 ? radix : radix_sqrt(n);
    return k < n ? k : n; /* any k >= n is one digit: the same exchange */
}

void sloav_exchange_free(struct sloav_exchange *x)
{
    free(x->size);
    memset(x, 0, sizeof *x);
}

static int peer_rank(const struct sloav_exchange *x, int v, int w, int dir)
{
    return x->rank_of[radix_peer(x->me, x->n, v, w, dir)];
}

int sloav_exchange_init(struct sloav_exchange *x, const struct sloav_group *g)
{
    memset(x, 0, sizeof *x);
    const int n = g->n, me = g->me;
    int k = n > 1 ? sloav_exchange_radix(n, g->radix) : 2;
    size_t N = (size_t)n, K = (size_t)k;
    /* One block: size, off (n int64 each), the six per-value arrays (k
     * int64 each), dst (n), rank_of (n int), then buf and done. */
    char *mem = malloc(N * 2 * sizeof(int64_t) + K * 6 * sizeof(int64_t) +
                       N * sizeof(struct sx_block) + N * sizeof(int) + N * 2);
    if (!mem)
        return -1;
    int64_t *a = (int64_t *)mem;
    x->size = a, x->off = a + N;
    x->cnt = a + 2 * N, x->moff = x->cnt + K, x->recv_off = x->moff + K;
    x->pack_off = x->recv_off + K, x->pack_len = x->pack_off + K, x->seen = x->pack_len + K;
    x->dst = (struct sx_block *)(x->seen + K);
    x->rank_of = (int *)(x->dst + N);
    x->buf = (uint8_t *)(x->rank_of + N);
    x->done = (bool *)(x->buf + N);
    memcpy(x->dst, g->dst, N * sizeof *x->dst);
    for (int i = 0; i < n; i++)
        x->rank_of[i] = g->rank_of ? g->rank_of[i] : i;
    x->n = n, x->me = me, x->k = k, x->D = radix_digits(n, k);
    x->in_place = g->in_place;
    x->meta = 8 * (int64_t)(n - 1);
    for (int i = 0; i < n; i++) {
        const struct sx_block *b = &g->src[(me + i) % n];
        x->size[i] = b->len;
        x->buf[i] = (uint8_t)b->buf;
        x->off[i] = b->off;
        x->done[i] = i == 0;
    }
    return 0;
}

static bool is_scratch(int buf) { return buf == BUF_TMP || buf == BUF_TMP2; }
static int arena_buf(int d) { return d % 2 ? BUF_TMP2 : BUF_TMP; }
static int64_t arena_base(const struct sloav_exchange *x, int d) { return d % 2 ? 0 : 2 * x->meta; }

/* Copies a block that reached this participant to its destination. */
static void deliver(struct sloav_exchange *x, struct schedule *s, int buf, int64_t off,
                    int64_t size, int from)
{
    const struct sx_block *d = &x->dst[from];
    if (size > d->len) /* an erroneous program: MPI reports truncation */
        s->truncated = true;
    sched_copy(s, buf, off, d->buf, d->off, size < d->len ? size : d->len);
}

/* Counts the slots of each value of digit d (w = k^d) and where their
 * metadata starts; returns the number of values. */
static int count_values(struct sloav_exchange *x, int w)
{
    int nv = radix_values(x->n, x->k, w);
    for (int v = 0; v <= nv; v++)
        x->cnt[v] = 0;
    for (int i = 1; i < x->n; i++)
        x->cnt[radix_digit(i, x->k, w)]++;
    int64_t m = 0;
    for (int v = 1; v <= nv; v++) {
        x->moff[v] = m;
        m += x->cnt[v];
    }
    return nv;
}

/* Emits the copies that build arena d: the slots moving at digit d packed
 * by value, then the other live slots that may not stay where they are
 * (in a dying arena, or in a source that deliveries overwrite); reserves it
 * and records where the receive area starts. */
static void build_arena(struct sloav_exchange *x, struct schedule *s, int d)
{
    const int X = arena_buf(d), w = radix_weight(x->k, d);
    int nv = radix_values(x->n, x->k, w);
    int64_t o = arena_base(x, d);
    for (int v = 1; v <= nv; v++)
        x->pack_len[v] = 0;
    for (int i = 1; i < x->n; i++)
        x->pack_len[radix_digit(i, x->k, w)] += x->size[i];
    for (int v = 1; v <= nv; v++) {
        x->pack_off[v] = o;
        o += x->pack_len[v];
    }
    int64_t *fill = x->seen; /* next free byte of each packed message */
    for (int v = 1; v <= nv; v++)
        fill[v] = x->pack_off[v];
    for (int i = 1; i < x->n; i++) {
        int v = radix_digit(i, x->k, w);
        int64_t to;
        if (v)
            to = fill[v], fill[v] += x->size[i];
        else if (!x->done[i] && (is_scratch(x->buf[i]) || x->in_place))
            to = o, o += x->size[i];
        else
            continue;
        sched_copy(s, x->buf[i], x->off[i], X, to, x->size[i]);
        x->buf[i] = (uint8_t)X;
        x->off[i] = to;
    }
    x->recv_base = o;
    sched_need_tmp(s, X, o);
}

bool sloav_exchange_start(struct sloav_exchange *x, struct schedule *s)
{
    int me = x->me;
    if (!x->in_place)
        deliver(x, s, x->buf[0], x->off[0], x->size[0], me);
    else if (x->size[0] > x->dst[me].len)
        s->truncated = true;
    if (x->n == 1) {
        sched_round(s);
        return false;
    }
    sched_need_tmp(s, BUF_TMP, 2 * x->meta);
    build_arena(x, s, 0);
    sched_round(s);
    return true;
}

/* Data of digit d (sizes from its metadata, now in the receive array):
 * send the packed messages, receive into the arena's receive area, deliver
 * the blocks that arrive at their destination. */
static void data_round(struct sloav_exchange *x, struct schedule *s, const int64_t *meta_in, int d)
{
    const int X = arena_buf(d), w = radix_weight(x->k, d);
    int nv = count_values(x, w);
    int64_t *seen = x->seen;
    for (int v = 1; v <= nv; v++) {
        sched_send(s, peer_rank(x, v, w, +1), X, x->pack_off[v], x->pack_len[v]);
        seen[v] = 0;
        x->recv_off[v] = 0;
    }
    /* New sizes, and each message's length (the v-th recv_off holds it for now). */
    for (int i = 1; i < x->n; i++) {
        int v = radix_digit(i, x->k, w);
        if (!v)
            continue;
        memcpy(&x->size[i], &meta_in[x->moff[v] + seen[v]++], sizeof(int64_t));
        x->recv_off[v] += x->size[i];
    }
    int64_t o = x->recv_base;
    for (int v = 1; v <= nv; v++) {
        int64_t len = x->recv_off[v];
        sched_recv(s, peer_rank(x, v, w, -1), X, o, len);
        x->recv_off[v] = o;
        o += len;
    }
    sched_need_tmp(s, X, o);
    for (int i = 1; i < x->n; i++) {
        int v = radix_digit(i, x->k, w);
        if (!v)
            continue;
        x->buf[i] = (uint8_t)X;
        x->off[i] = x->recv_off[v];
        x->recv_off[v] += x->size[i];
        if (!radix_final(i, v, w))
            continue;
        deliver(x, s, X, x->off[i], x->size[i], radix_peer(x->me, x->n, i, 1, -1));
        x->done[i] = true;
    }
}

bool sloav_exchange_round(struct sloav_exchange *x, struct schedule *s, void *const buf[])
{
    const int d = x->d;
    int64_t *meta_out = buf[BUF_TMP];
    const int64_t *meta_in = (const int64_t *)((char *)buf[BUF_TMP] + x->meta);
    if (d > 0)
        data_round(x, s, meta_in, d - 1);
    if (d < x->D) {
        const int w = radix_weight(x->k, d);
        int nv = count_values(x, w);
        int64_t *seen = x->seen;
        for (int v = 1; v <= nv; v++)
            seen[v] = 0;
        for (int i = 1; i < x->n; i++) {
            int v = radix_digit(i, x->k, w);
            if (v)
                memcpy(&meta_out[x->moff[v] + seen[v]++], &x->size[i], sizeof(int64_t));
        }
        for (int v = 1; v <= nv; v++) {
            int64_t at = x->moff[v] * 8, len = x->cnt[v] * 8;
            sched_send(s, peer_rank(x, v, w, +1), BUF_TMP, at, len);
            sched_recv(s, peer_rank(x, v, w, -1), BUF_TMP, x->meta + at, len);
        }
        if (d > 0)
            build_arena(x, s, d);
    }
    sched_round(s);
    return ++x->d > x->D;
}
