/* The rails exchange of the node_rails reductions (node_rails.h). */
#include "node_rails.h"

#include <math.h>

#include "../../patterns/node_groups.h"
#include "node_phases.h"

/* The radix a call runs with: its own (the model's or COLIBRI_RADIX), at
 * most R + 1 (K - 1 rails) and N, at least 2; R + 1 where none is given. */
static int rails_radix(const struct sched_params *p, int N, int R)
{
    int K = p->radix > 0 ? p->radix : R + 1;
    if (K > R + 1)
        K = R + 1;
    if (K > N)
        K = N;
    return K < 2 ? 2 : K;
}

/* A split combination's end: REDUCED, and once every rank of the node
 * has said so, the whole of the slot's output area into (dst, off). */
static void rails_gather(struct schedule *s, const struct node_view *v, int u, int64_t m, int dst,
                         int64_t off)
{
    node_set(s, v, u, NODE_REDUCED);
    node_wait(s, v, u, NODE_REDUCED, 0, v->L);
    sched_copy_slot(s, u, BUF_SHM, node_output(v->L, v->C), dst, off, m);
}

/* Round t of node v->node: rail v->li receives and sends (none where it
 * has no rail this round), then every rank combines the k partials in
 * group order from (cur, cur_off) and the rails' input areas into (nxt,
 * nxt_off); `split` (node_rails_split): each its slice into the slot's
 * output area, then, once every slice is REDUCED, the whole into (nxt,
 * nxt_off). */
static void rails_round(struct schedule *s, const struct node_view *v, int K, int t, int u,
                        int64_t m, int cur, int64_t cur_off, int nxt, int64_t nxt_off, bool split)
{
    const struct ng_round r = ng_round_of(v->N, K, t, v->node);
    if (v->li + 1 < r.k) {
        const int j = v->li + 1;
        sched_recv_slot(s, u, node_rank(v, ng_sender(v->N, K, t, &r, j), v->li), BUF_SHM,
                        node_input(v->li, v->C), m);
        /* the nodes of group a + j whose position is i modulo |a| */
        const int b = (r.a + j) % r.k, own = ng_member_size(v->N, K, t, r.first, r.a);
        const int first = ng_member_start(v->N, K, t, r.first, b);
        const int end = first + ng_member_size(v->N, K, t, r.first, b);
        for (int z = first + r.i; z < end; z += own)
            sched_send(s, node_rank(v, z, v->li), cur, cur_off, m);
        node_set(s, v, u, NODE_READY);
    }
    node_wait(s, v, u, NODE_READY, 0, r.k - 1);
    const int64_t at = split ? node_slice_at(m, v->li, v->L) : 0;
    const int64_t len = split ? node_slice_len(m, v->li, v->L) : m;
    const int dst = split ? BUF_SHM : nxt;
    const int64_t dst_off = split ? node_output(v->L, v->C) + at : nxt_off;
    /* P_0 (op) (P_1 (op) ( ... (op) P_{k-1})), from the last down, as
     * node_reduce_own: the partial of group b from rail (a - b) mod k - 1 */
    for (int b = r.k - 1; b >= 0; b--) {
        const int src = b == r.a ? cur : BUF_SHM;
        const int64_t src_off =
            (b == r.a ? cur_off : node_input((r.a - b + r.k) % r.k - 1, v->C)) + at;
        const unsigned chain = b > 0 ? SOP_CHAIN : 0;
        if (b == r.k - 1)
            sched_copy_slot_flags(s, u, src, src_off, dst, dst_off, len, chain);
        else
            sched_reduce_slot(s, u, src, src_off, dst, dst_off, len, chain);
    }
    if (split)
        rails_gather(s, v, u, m, nxt, nxt_off);
    node_set(s, v, u, NODE_DONE);
}

int node_rails_schedule(const struct sched_params *p, struct schedule *s, int final)
{
    struct node_view v;
    node_view_init(&v, p);
    const int in = p->in_place ? BUF_RECV : BUF_SEND;
    const int K = rails_radix(p, v.N, v.R), T = ng_rounds(v.N, K);
    const int64_t chunks = node_chunks(p->count, v.C);
    const int64_t most = p->count < v.C ? p->count : v.C;
    sched_need_tmp(s, BUF_TMP, most);
    if (final != BUF_RECV)
        sched_need_tmp(s, final, most);
    for (int64_t c = 0; c < chunks; c++) {
        const int base = (int)c * (T + 1);
        const int64_t at = node_chunk_at(c, v.C), m = node_chunk_len(p->count, c, v.C);
        /* the private copies alternate so that the last lands in `final` */
        const int64_t final_off = final == BUF_RECV ? at : 0;
        int cur = T % 2 ? BUF_TMP : final;
        int64_t cur_off = T % 2 ? 0 : final_off;
        const bool split = node_rails_split(m, v.L, (int64_t)p->elem_size);
        node_publish(s, &v, base, in, at, m);
        if (split) { /* (node_publish has waited for the slot's reuse) */
            const int64_t lo = node_slice_at(m, v.li, v.L);
            node_reduce(s, &v, base, lo, node_slice_len(m, v.li, v.L), BUF_SHM,
                        node_output(v.L, v.C) + lo);
            rails_gather(s, &v, base, m, cur, cur_off);
        } else {
            node_reduce(s, &v, base, 0, m, cur, cur_off);
        }
        node_set(s, &v, base, NODE_DONE);
        for (int t = 0; t < T; t++) {
            const int u = base + 1 + t;
            /* a rail writes into the slot: once the node is done with
             * its last use (before the round posts its receive).  Not
             * after a split use (then every rank writes into it): every
             * rank said REDUCED in the use before this one after it was
             * done with the slot's last use, and this rank has waited for
             * all of them (the symbolic check finds such a wait
             * redundant) */
            if (!split && v.li + 1 < ng_round_of(v.N, K, t, v.node).k)
                node_reuse_wait(s, &v, u);
            sched_round(s);
            const int nxt = cur == final ? BUF_TMP : final;
            const int64_t nxt_off = nxt == final ? final_off : 0;
            rails_round(s, &v, K, t, u, m, cur, cur_off, nxt, nxt_off, split);
            cur = nxt, cur_off = nxt_off;
        }
        sched_round(s);
    }
    s->shm_epochs = chunks * (T + 1);
    return s->oom ? -1 : 0;
}

/* The busiest rail's messages in round t: ceil(largest / smallest) of
 * the level-t groups. */
static int rails_sends(int N, int K, int t)
{
    int most = 0, least = N, n[NG_MAX_ROUNDS + 1];
    ng_counts(N, K, n);
    for (int g = 0; g < n[t]; g++) {
        const int sz = ng_start(N, K, t, g + 1) - ng_start(N, K, t, g);
        most = sz > most ? sz : most;
        least = sz < least ? sz : least;
    }
    return (most + least - 1) / least;
}

double node_rails_cost(const struct sched_params *p, const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, L = node_max_ranks(N, l->node_start);
    const int K = rails_radix(p, N, node_fewest(N, l->node_start)), T = ng_rounds(N, K);
    const double n = (double)p->count * (double)p->elem_size;
    const double chunk = (double)p->node_chunk * (double)p->elem_size;
    const double chunks = chunk > 0 && n > chunk ? ceil(n / chunk) : 1;
    int n_g[NG_MAX_ROUNDS + 1];
    ng_counts(N, K, n_g);
    /* split (node_rails_split, decided on a chunk): a rank combines 1/L of
     * every operand, reads the others' slices as just computed and copies
     * the whole out, one more hand-off per use of the slots */
    const double m_el = chunk > 0 && n > chunk ? (double)p->node_chunk : (double)p->count;
    const bool split = node_rails_split((int64_t)m_el, L, (int64_t)p->elem_size);
    const double part = split ? n / L : n, gather = split ? (L - 1) * n / L : 0;
    double local = split ? 3 * n + part : 4 * n, dirty = gather;
    double reduced = (double)(L - 1) * part, net = 0;
    for (int t = 0; t < T; t++) {
        const int k = (n_g[t] + n_g[t + 1] - 1) / n_g[t + 1];
        local += split ? n + 2 * part : 2 * n, dirty += (k - 1) * part + gather;
        reduced += (k - 1) * part;
        net += chunks * (m->alpha + (1 + rails_sends(N, K, t)) * m->o) + (k - 1) * n * m->beta;
    }
    return cost_node_traffic(m, n, chunk, (1 + T) * (split ? 2 : 1), local,
                             (double)(L - 1) * part, dirty, reduced) +
           net;
}
