/*
 * SLOAV: logarithmic alltoallv for blocks of any size (Xu et al., CCGrid
 * 2013), with a tunable radix as in Fan et al. (HPDC'22) and TuNA (HPDC'25).
 *
 * Radix-k Bruck exchange (patterns/sloav.h): slot i holds the block for rank
 * + i; digit by digit, the slots whose digit d is v go to rank + v k^d, so
 * after D = ceil(log_k p) digits every block has moved i ranks, to its
 * destination.  The k-1 sub-rounds of a digit move disjoint slots to
 * distinct peers, so they run in one round.  Blocks are forwarded through
 * ranks that do not know their sizes (only each rank's own counts are
 * known), so each sub-round is preceded by METADATA: one int64 byte count
 * per slot it moves.  Receivers size their receives from it: no global
 * maximum, no padding.
 *
 * Pipeline.  The metadata of digit d depends only on sizes, known once the
 * metadata of digit d-1 has arrived, not on its data.  So, executor rounds:
 *   B        local: own block SEND -> RECV, pack digit 0's slots
 *   R1       metadata(0)
 *   R(d+1)   data(d-1) + metadata(d)       d = 1 .. D-1
 *   R(D+1)   data(D-1)
 * D + 1 communication rounds instead of 2D, each with at most 2(k-1) sends.
 * At the end of each data round, blocks that reached their destination are
 * copied to RECV at rdispls[source] and the slots of the next digit are
 * packed, contiguous per peer, into the next scratch arena.
 *
 * Scratch.  BUF_TMP starts with two metadata arrays (send, receive; p-1
 * int64 each, which resume writes and reads through buf[]).  Digit d's
 * arena lives in BUF_TMP (d even, after the metadata) or BUF_TMP2 (d odd):
 * [packed slots moving at d, by v | other live slots | receive area of d].
 * Building arena d copies every live slot out of arena d-1, so the arena
 * two digits back is dead and reused.  Sizes grow as metadata arrives
 * (tmp_count raised from resume; the executor keeps contents).  Not in
 * place, a slot that has not moved yet is read straight from SEND.  In place
 * (SEND is RECV), round B copies every outgoing block to scratch before the
 * first received block is written to RECV (end of R2).
 *
 * Mismatched counts (a block's size from metadata differs from the
 * receiver's rcounts[source], an erroneous program): the message sizes
 * still agree on both sides (they come from the metadata), so nobody
 * deadlocks; min(size, rcount) bytes are copied and the state records it
 * (struct sloav.mismatch) for the runtime to report.
 *
 * Cost (alpha per sub-round message a rank injects; the metadata of digit
 * d > 0 travels in the round of data d-1, only R1's is exposed):
 *     (S + 1) a + (M n + 8 M) b
 * n the (largest) block size, S = sum_d min(k-1, floor((p-1)/k^d)) the
 * sub-rounds, M = sum_d #{0 < i < p : digit_d(i) != 0} the blocks a rank
 * forwards.  For p = k^D: S = D(k-1), M = D p (k-1)/k; k = 2: S = lg p,
 * M = p lg(p)/2; k = p: S = M = p-1 (direct exchange plus one metadata round).
 */
#include <stdlib.h>
#include <string.h>

#include "../../patterns/sloav.h"
#include "../algorithm.h"

struct sloav {
    int p, rank, k, D;
    int d;                  /* resume builds round R(d+1) next */
    bool in_place;
    bool mismatch;          /* some block's size != the receiver's count */
    int64_t meta;           /* bytes of each metadata array */
    int64_t *size;          /* p: current bytes of each slot */
    int64_t *off;           /* p: where each slot lives */
    uint8_t *buf;           /* p: ... in which buffer */
    bool *done;             /* p: delivered to RECV (or own) */
    const int64_t *rcounts, *rdispls; /* copies, for resume */
    /* Per value v of the digit in flight (k entries each): */
    int64_t *cnt, *moff;         /* slots with that digit, their first metadata index */
    int64_t *pack_off, *pack_len;/* the packed message to rank + v w */
    int64_t *recv_off;           /* the message from rank - v w */
    int64_t *seen;               /* scratch: slots of each value placed so far */
    int64_t recv_base;           /* receive area of the current arena */
};

static void sloav_free(void *state)
{
    struct sloav *st = state;
    if (!st)
        return;
    free(st->size);
    free(st);
}

static int arena_buf(int d) { return d % 2 ? BUF_TMP2 : BUF_TMP; }
static int64_t arena_base(const struct sloav *st, int d) { return d % 2 ? 0 : 2 * st->meta; }

/* Counts the slots of each value of digit d (w = k^d) and where their
 * metadata starts; returns the number of values. */
static int count_values(struct sloav *st, int w)
{
    int nv = sloav_values(st->p, st->k, w);
    for (int v = 0; v <= nv; v++)
        st->cnt[v] = 0;
    for (int i = 1; i < st->p; i++)
        st->cnt[sloav_digit(i, st->k, w)]++;
    int64_t m = 0;
    for (int v = 1; v <= nv; v++) {
        st->moff[v] = m;
        m += st->cnt[v];
    }
    return nv;
}

/* Emits the copies that build arena d: the slots moving at digit d packed
 * by value, then the other live slots that are not (and may not stay) in
 * SEND; reserves it and records where the receive area starts. */
static void build_arena(struct sloav *st, struct schedule *s, int d)
{
    const int X = arena_buf(d), w = sloav_weight(st->k, d);
    int nv = sloav_values(st->p, st->k, w);
    int64_t o = arena_base(st, d);
    for (int v = 1; v <= nv; v++)
        st->pack_len[v] = 0;
    for (int i = 1; i < st->p; i++)
        st->pack_len[sloav_digit(i, st->k, w)] += st->size[i];
    for (int v = 1; v <= nv; v++) {
        st->pack_off[v] = o;
        o += st->pack_len[v];
    }
    int64_t *fill = st->seen; /* next free byte of each packed message */
    for (int v = 1; v <= nv; v++)
        fill[v] = st->pack_off[v];
    for (int i = 1; i < st->p; i++) {
        int v = sloav_digit(i, st->k, w);
        int64_t to;
        if (v)
            to = fill[v], fill[v] += st->size[i];
        else if (!st->done[i] && (st->buf[i] != BUF_SEND || st->in_place))
            to = o, o += st->size[i];
        else
            continue;
        sched_copy(s, st->buf[i], st->off[i], X, to, st->size[i]);
        st->buf[i] = (uint8_t)X;
        st->off[i] = to;
    }
    st->recv_base = o;
    sched_need_tmp(s, X, o);
}

/* Data of digit d (sizes from its metadata, now in the receive array):
 * send the packed messages, receive into the arena's receive area, deliver
 * the blocks that arrive at their destination. */
static void data_round(struct sloav *st, struct schedule *s, const int64_t *meta_in, int d)
{
    const int X = arena_buf(d), w = sloav_weight(st->k, d);
    int nv = count_values(st, w);
    int64_t *seen = st->seen;
    for (int v = 1; v <= nv; v++) {
        sched_send(s, sloav_peer(st->rank, st->p, v, w, +1), X, st->pack_off[v], st->pack_len[v]);
        seen[v] = 0;
        st->recv_off[v] = 0;
    }
    /* New sizes, and each message's length (the v-th recv_off holds it for now). */
    for (int i = 1; i < st->p; i++) {
        int v = sloav_digit(i, st->k, w);
        if (!v)
            continue;
        memcpy(&st->size[i], &meta_in[st->moff[v] + seen[v]++], sizeof(int64_t));
        st->recv_off[v] += st->size[i];
    }
    int64_t o = st->recv_base;
    for (int v = 1; v <= nv; v++) {
        int64_t len = st->recv_off[v];
        sched_recv(s, sloav_peer(st->rank, st->p, v, w, -1), X, o, len);
        st->recv_off[v] = o;
        o += len;
    }
    sched_need_tmp(s, X, o);
    for (int i = 1; i < st->p; i++) {
        int v = sloav_digit(i, st->k, w);
        if (!v)
            continue;
        st->buf[i] = (uint8_t)X;
        st->off[i] = st->recv_off[v];
        st->recv_off[v] += st->size[i];
        if (!sloav_final(i, v, w))
            continue;
        int src = sloav_peer(st->rank, st->p, i, 1, -1);
        int64_t n = st->size[i];
        if (n != st->rcounts[src]) {
            st->mismatch = true;
            n = n < st->rcounts[src] ? n : st->rcounts[src];
        }
        sched_copy(s, X, st->off[i], BUF_RECV, st->rdispls[src], n);
        st->done[i] = true;
    }
}

/* Appends round R(d+1) (see the header); called once the previous round ran. */
static int sloav_resume(struct schedule *s, void *const buf[])
{
    struct sloav *st = s->state;
    const int d = st->d;
    int64_t *meta_out = buf[BUF_TMP];
    const int64_t *meta_in = (const int64_t *)((char *)buf[BUF_TMP] + st->meta);
    if (d > 0)
        data_round(st, s, meta_in, d - 1);
    if (d < st->D) {
        const int w = sloav_weight(st->k, d);
        int nv = count_values(st, w);
        int64_t *seen = st->seen;
        for (int v = 1; v <= nv; v++)
            seen[v] = 0;
        for (int i = 1; i < st->p; i++) {
            int v = sloav_digit(i, st->k, w);
            if (v)
                memcpy(&meta_out[st->moff[v] + seen[v]++], &st->size[i], sizeof(int64_t));
        }
        for (int v = 1; v <= nv; v++) {
            int64_t at = st->moff[v] * 8, len = st->cnt[v] * 8;
            sched_send(s, sloav_peer(st->rank, st->p, v, w, +1), BUF_TMP, at, len);
            sched_recv(s, sloav_peer(st->rank, st->p, v, w, -1), BUF_TMP, st->meta + at, len);
        }
        if (d > 0)
            build_arena(st, s, d);
    }
    sched_round(s);
    if (++st->d > st->D)
        s->resume = NULL;
    return s->oom ? -1 : 0;
}

int alltoallv_sloav_build(const struct sched_params *p, struct schedule *s)
{
    const int size = p->size, rank = p->rank;
    const int64_t own = p->scounts[rank] < p->rcounts[rank] ? p->scounts[rank] : p->rcounts[rank];
    if (!p->in_place)
        sched_copy(s, BUF_SEND, p->sdispls[rank], BUF_RECV, p->rdispls[rank], own);
    if (size == 1) {
        sched_round(s);
        return s->oom ? -1 : 0;
    }
    int k = p->radix >= 2 ? p->radix : sloav_default_radix(size);
    k = k < size ? k : size; /* any k >= p is one digit: the same exchange */
    struct sloav *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    s->state = st;
    s->free_state = sloav_free;
    size_t P = (size_t)size, K = (size_t)k;
    /* One block: size, off, rcounts, rdispls (p each), the six per-value
     * arrays (k each), then buf and done. */
    char *mem = malloc(P * 4 * sizeof(int64_t) + K * 6 * sizeof(int64_t) + P * 2);
    if (!mem)
        return -1;
    int64_t *a = (int64_t *)mem;
    st->size = a, st->off = a + P;
    int64_t *rc = a + 2 * P, *rd = a + 3 * P;
    st->cnt = a + 4 * P, st->moff = st->cnt + K, st->recv_off = st->moff + K;
    st->pack_off = st->recv_off + K, st->pack_len = st->pack_off + K, st->seen = st->pack_len + K;
    st->buf = (uint8_t *)(st->seen + K);
    st->done = (bool *)(st->buf + P);
    memcpy(rc, p->rcounts, P * sizeof *rc);
    memcpy(rd, p->rdispls, P * sizeof *rd);
    st->rcounts = rc, st->rdispls = rd;
    st->p = size, st->rank = rank, st->k = k, st->D = sloav_digits(size, k);
    st->in_place = p->in_place;
    st->mismatch = own != p->scounts[rank] || own != p->rcounts[rank];
    st->meta = 8 * (int64_t)(size - 1);
    for (int i = 0; i < size; i++) {
        int to = (rank + i) % size;
        st->size[i] = p->scounts[to];
        st->buf[i] = BUF_SEND;
        st->off[i] = p->sdispls[to];
        st->done[i] = i == 0;
    }
    sched_need_tmp(s, BUF_TMP, 2 * st->meta);
    build_arena(st, s, 0);
    sched_round(s);
    /* resume writes metadata into BUF_TMP, which the executor binds only
     * when it runs a round: a rank with nothing to copy still needs one. */
    if (s->n_rounds == 0) {
        sched_copy(s, BUF_TMP, 0, BUF_TMP, st->meta, 1);
        sched_round(s);
    }
    s->resume = sloav_resume;
    return s->oom ? -1 : 0;
}

double alltoallv_sloav_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int size = p->size;
    if (size == 1)
        return 0;
    int k = p->radix >= 2 ? p->radix : sloav_default_radix(size);
    k = k < size ? k : size;
    int D = sloav_digits(size, k);
    int64_t moved = 0;
    for (int d = 0; d < D; d++)
        moved += sloav_moving(size, k, sloav_weight(k, d));
    /* p->count: the largest block of any rank when selecting automatically. */
    double bytes = (double)moved * (double)(p->count + 8);
    return (sloav_subrounds(size, k) + 1) * m->alpha + bytes * m->beta;
}
