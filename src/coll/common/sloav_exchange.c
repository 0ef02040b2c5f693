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

void sloav_exchange_shape(int n, int k, int64_t block, int64_t max_block, struct sx_shape *sh)
{
    *sh = (struct sx_shape){0, 0, 0};
    if (n < 2)
        return;
    k = sloav_exchange_radix(n, k);
    for (int d = 0, D = radix_digits(n, k); d < D; d++) {
        const int w = radix_weight(k, d);
        bool overflow = false;
        for (int v = 1; v <= radix_values(n, k, w); v++) {
            int64_t c = radix_nmoving(n, k, w, v);
            sh->msgs++;
            sh->blocks += c;
            if (c * block > sloav_exchange_cap(c, max_block))
                sh->msgs++, overflow = true;
        }
        sh->rounds += 1 + overflow;
    }
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
    x->d = -1;
    x->in_place = g->in_place;
    x->max_block = g->max_block;
    x->stage = 8 * (int64_t)(n - 1);
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
static int64_t arena_base(const struct sloav_exchange *x, int d) { return d % 2 ? 0 : x->stage; }

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
 * sizes start in a header array; returns the number of values. */
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

/* Emits the copies that build arena d: each message's sizes (from the
 * staging array, which this writes) and blocks, then the other live slots
 * that may not stay where they are (in a dying arena, or in a source that
 * deliveries overwrite); reserves it up to the receive areas. */
static void build_arena(struct sloav_exchange *x, struct schedule *s, void *const buf[], int d)
{
    const int X = arena_buf(d), w = radix_weight(x->k, d);
    int nv = count_values(x, w);
    int64_t *stage = buf[BUF_TMP];
    int64_t o = arena_base(x, d);
    for (int v = 1; v <= nv; v++)
        x->pack_len[v] = 0, x->seen[v] = 0;
    for (int i = 1; i < x->n; i++) {
        int v = radix_digit(i, x->k, w);
        if (!v)
            continue;
        x->pack_len[v] += x->size[i];
        memcpy(&stage[x->moff[v] + x->seen[v]++], &x->size[i], sizeof(int64_t));
    }
    for (int v = 1; v <= nv; v++) {
        x->pack_off[v] = o;
        sched_copy(s, BUF_TMP, 8 * x->moff[v], X, o, 8 * x->cnt[v]);
        o += 8 * x->cnt[v] + x->pack_len[v];
    }
    int64_t *fill = x->seen; /* next free byte of each packed message */
    for (int v = 1; v <= nv; v++)
        fill[v] = x->pack_off[v] + 8 * x->cnt[v];
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
    /* the receive areas: sizes and up to cap data bytes from each peer */
    for (int v = 1; v <= nv; v++) {
        x->recv_off[v] = o;
        o += 8 * x->cnt[v] + sloav_exchange_cap(x->cnt[v], x->max_block);
    }
    x->end = o;
    sched_need_tmp(s, X, o);
}

/* Digit d's messages: sizes and (up to cap) blocks to me + v w, from
 * me - v w. */
static void message_round(struct sloav_exchange *x, struct schedule *s, int d)
{
    const int X = arena_buf(d), w = radix_weight(x->k, d);
    int nv = radix_values(x->n, x->k, w);
    for (int v = 1; v <= nv; v++) {
        int64_t cap = sloav_exchange_cap(x->cnt[v], x->max_block);
        int64_t data = x->pack_len[v] < cap ? x->pack_len[v] : cap;
        sched_send_bytes(s, peer_rank(x, v, w, +1), X, x->pack_off[v], 8 * x->cnt[v] + data);
        sched_recv_upto(s, peer_rank(x, v, w, -1), X, x->recv_off[v], 8 * x->cnt[v] + cap);
    }
    sched_round(s);
}

/* After digit d's messages: read their sizes, fetch what exceeded cap (an
 * overflow message each way where needed), and deliver the blocks that
 * arrived at their destination.  Ops go into the open round. */
static void receive_digit(struct sloav_exchange *x, struct schedule *s, void *const buf[], int d)
{
    const int X = arena_buf(d), w = radix_weight(x->k, d);
    int nv = radix_values(x->n, x->k, w);
    const char *arena = buf[X];
    int64_t *seen = x->seen;
    for (int v = 1; v <= nv; v++) {
        seen[v] = 0;
        /* What I sent beyond cap follows now. */
        int64_t cap = sloav_exchange_cap(x->cnt[v], x->max_block);
        if (x->pack_len[v] > cap)
            sched_send(s, peer_rank(x, v, w, +1), X, x->pack_off[v] + 8 * x->cnt[v] + cap,
                       x->pack_len[v] - cap);
    }
    /* Where each message's blocks are: after its sizes, or, when it
     * overflowed, in an overflow area at the arena's end that gets the
     * first cap bytes by a copy and the rest by the overflow message. */
    int64_t *at = x->pack_len; /* reused: the sends above are posted */
    for (int v = 1; v <= nv; v++) {
        const int64_t *sizes = (const int64_t *)(arena + x->recv_off[v]);
        int64_t total = 0;
        for (int64_t j = 0; j < x->cnt[v]; j++) {
            int64_t sz;
            memcpy(&sz, &sizes[j], sizeof sz);
            total += sz;
        }
        int64_t cap = sloav_exchange_cap(x->cnt[v], x->max_block);
        at[v] = x->recv_off[v] + 8 * x->cnt[v];
        if (total > cap) {
            sched_recv(s, peer_rank(x, v, w, -1), X, x->end + cap, total - cap);
            sched_copy(s, X, at[v], X, x->end, cap);
            at[v] = x->end;
            x->end += total;
        }
    }
    sched_need_tmp(s, X, x->end);
    for (int i = 1; i < x->n; i++) {
        int v = radix_digit(i, x->k, w);
        if (!v)
            continue;
        const int64_t *sizes = (const int64_t *)(arena + x->recv_off[v]);
        memcpy(&x->size[i], &sizes[seen[v]++], sizeof(int64_t));
        x->buf[i] = (uint8_t)X;
        x->off[i] = at[v];
        at[v] += x->size[i];
        if (!radix_final(i, v, w))
            continue;
        deliver(x, s, X, x->off[i], x->size[i], radix_peer(x->me, x->n, i, 1, -1));
        x->done[i] = true;
    }
}

bool sloav_exchange_start(struct sloav_exchange *x, struct schedule *s)
{
    int me = x->me;
    if (!x->in_place)
        deliver(x, s, x->buf[0], x->off[0], x->size[0], me);
    else if (x->size[0] > x->dst[me].len)
        s->truncated = true;
    if (x->n > 1)
        sched_need_tmp(s, BUF_TMP, x->stage);
    sched_round(s);
    return x->n > 1;
}

bool sloav_exchange_round(struct sloav_exchange *x, struct schedule *s, void *const buf[])
{
    const int d = x->d;
    if (d >= 0)
        receive_digit(x, s, buf, d);
    if (d + 1 < x->D)
        build_arena(x, s, buf, d + 1);
    sched_round(s);
    if (d + 1 == x->D)
        return true;
    message_round(x, s, d + 1);
    x->d = d + 1;
    return false;
}
