/*
 * Schedule steps of recursive halving and doubling (patterns/halving.h),
 * shared by the Rabenseifner allreduce and reduce, the 3-2 elimination
 * allreduce and the recursive-halving reduce-scatter.
 *
 * A struct halving names where the positions of the butterfly live: `in`
 * holds this rank's input until the first step, `work` the ranges being
 * reduced and gathered, `tmp` one received half.  Position b starts at
 * element off[b], or at block_offset(n, 2^L, b) when off is NULL.
 */
#ifndef COLIBRI_HALVING_STEPS_H
#define COLIBRI_HALVING_STEPS_H

#include <stdbool.h>

#include "../patterns/halving.h"
#include "algorithm.h"

struct halving {
    struct schedule *s;
    int L;
    int64_t n;
    const int64_t *off;
    int in, work, tmp;
};

static inline int64_t hv_off(const struct halving *h, int pos)
{
    return h->off ? h->off[pos] : block_offset(h->n, 1 << h->L, pos);
}

static inline int64_t hv_count(const struct halving *h, int lo, int len)
{
    return hv_off(h, lo + len) - hv_off(h, lo);
}

static inline void hv_send(const struct halving *h, int peer, int buf, int lo, int len)
{
    sched_send(h->s, peer, buf, hv_off(h, lo), hv_count(h, lo, len));
}

static inline void hv_recv(const struct halving *h, int peer, int buf, int lo, int len)
{
    sched_recv(h->s, peer, buf, hv_off(h, lo), hv_count(h, lo, len));
}

/* Receives `peer`'s positions [keep, keep+len) into scratch `tmp` and
 * combines them into work, the lower rank's data on the left. */
static inline void hv_recv_reduce(const struct halving *h, int tmp, int peer, bool peer_lower,
                                  int keep, int len)
{
    int64_t k = hv_off(h, keep), kn = hv_count(h, keep, len);
    sched_recv(h->s, peer, tmp, 0, kn);
    sched_reduce(h->s, tmp, 0, h->work, k, kn, peer_lower ? 0 : SOP_DST_IS_LEFT);
}

/* One reduce-scatter exchange: `give` goes to peer from `src`, peer's copy of
 * `keep` is combined into work.  Reading the first step straight from the
 * input moves only the kept half into work instead of the whole vector. */
static inline void hv_exchange(const struct halving *h, int src, int peer, bool peer_lower,
                               int keep, int give, int len)
{
    hv_send(h, peer, src, give, len);
    sched_copy(h->s, src, hv_off(h, keep), h->work, hv_off(h, keep), hv_count(h, keep, len));
    hv_recv_reduce(h, h->tmp, peer, peer_lower, keep, len);
}

/* Folding a neighbour's whole vector (n elements) into this rank's. */
static inline void hv_fold_in(struct halving *h, int partner, bool partner_lower, int64_t n)
{
    sched_recv(h->s, partner, h->tmp, 0, n);
    sched_copy(h->s, h->in, 0, h->work, 0, n);
    sched_reduce(h->s, h->tmp, 0, h->work, 0, n, partner_lower ? 0 : SOP_DST_IS_LEFT);
    sched_round(h->s);
    h->in = h->work;
}

/* Reduce-scatter of virtual rank v (peer[s]: the real rank of v ^ 2^s):
 * afterwards work holds position bit_reverse(v, L), reduced over all. */
static inline void hv_reduce_scatter(const struct halving *h, int v, const int *peer)
{
    int src = h->in, lo = 0, len = 1 << h->L;
    for (int s = 0; s < h->L; s++) {
        bool upper = v >> s & 1;
        len >>= 1;
        hv_exchange(h, src, peer[s], upper, upper ? lo + len : lo, upper ? lo : lo + len, len);
        sched_round(h->s);
        lo += upper ? len : 0;
        src = h->work;
    }
    /* With a single position (L = 0) no step moved the input to work. */
    sched_copy(h->s, src, 0, h->work, 0, hv_off(h, 1 << h->L));
    sched_round(h->s);
}

/* Allgather by recursive doubling: the steps of hv_reduce_scatter backwards. */
static inline void hv_allgather(const struct halving *h, int v, const int *peer)
{
    for (int s = h->L - 1; s >= 0; s--) {
        int lo, len;
        halving_range(v, h->L, s + 1, &lo, &len);
        hv_send(h, peer[s], h->work, lo, len);
        hv_recv(h, peer[s], h->work, v >> s & 1 ? lo - len : lo + len, len);
        sched_round(h->s);
    }
}

/* Model time of a reduce-scatter by halving and its (all)gather by doubling
 * over 2^floor(lg p) ranks, each step moving its largest half. */
static inline double hv_cost(const struct sched_params *p, const struct cost_params *m)
{
    const int L = floor_log2(p->size);
    const double vol = (double)halving_volume(p->count, L) * (double)p->elem_size;
    return 2 * L * m->alpha + 2 * vol * m->beta + vol * m->gamma;
}

/* Binomial gather of the reduce-scattered positions to virtual rank vr. */
static inline void hv_gather(const struct halving *h, int v, int vr, const int *peer)
{
    for (int s = h->L - 1; s >= 0; s--) {
        int role = gather_role(v, vr, s), lo, len;
        if (!role)
            continue;
        halving_range(role > 0 ? v ^ 1 << s : v, h->L, s + 1, &lo, &len);
        if (role > 0)
            hv_recv(h, peer[s], h->work, lo, len);
        else
            hv_send(h, peer[s], h->work, lo, len);
        sched_round(h->s);
    }
}

#endif
