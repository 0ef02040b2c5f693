/* The node-aware scan and exscan (node_scan.h; the method is described in
 * coll/scan/node_leader.c). */
#include "node_scan.h"

#include <stdlib.h>

#include "node_phases.h"

/* Areas [0, upto) of use u's slot combined in rank order into (dst, off):
 * a0 (op) (a1 (op) ( ... (op) a_{upto-1})), dst = src (op) dst from the
 * last down, as MPI_Reduce_local orders them; the last operand from (own,
 * own_off) instead of its area where own >= 0 (this rank's input, which it
 * did not publish; it may be (dst, off) itself).  One chain (SOP_CHAIN): the
 * destination written once, piece by piece. */
static void node_prefix(struct schedule *s, const struct node_view *v, int u, int64_t len,
                        int upto, int dst, int64_t off, int own, int64_t own_off)
{
    for (int l = upto - 1; l >= 0; l--) {
        const unsigned chain = l > 0 ? SOP_CHAIN : 0;
        if (l == upto - 1 && own >= 0)
            sched_copy_slot_flags(s, u, own, own_off, dst, off, len, chain);
        else if (l == upto - 1)
            sched_copy_slot_flags(s, u, BUF_SHM, node_input(l, v->C), dst, off, len, chain);
        else
            sched_reduce_slot(s, u, BUF_SHM, node_input(l, v->C), dst, off, len, chain);
    }
}

int node_scan_build(const struct sched_params *p, struct schedule *s, bool exclusive)
{
    struct node_view v;
    node_view_init(&v, p);
    const int in = p->in_place ? BUF_RECV : BUF_SEND;
    const int64_t chunks = node_chunks(p->count, v.C);
    const int last = v.L - 1;
    /* the leaders: each node's last rank, which holds its node's total */
    int *leaders = malloc((size_t)v.N * sizeof *leaders);
    if (!leaders)
        return -1;
    for (int n = 0; n < v.N; n++)
        leaders[n] = v.l->node_ranks[v.l->node_start[n + 1] - 1];
    /* the ranks below it on its node that this rank's prefix combines
     * (exscan: itself excluded), and where the lower nodes' prefix E lies:
     * a scan's leader sends its own result as the node's total and E
     * arrives in the output area; an exscan's leader combines the total
     * into the output area and E arrives in its own input area, which no
     * other rank reads */
    const int upto = exclusive ? v.li : v.li + 1;
    const int64_t out = node_output(v.L, v.C);
    const int64_t e_at = exclusive ? node_input(last, v.C) : out;
    for (int64_t k = 0; k < chunks; k++) {
        const int u = (int)k;
        const int64_t at = node_chunk_at(k, v.C), m = node_chunk_len(p->count, k, v.C);
        /* every rank publishes (and waits for the slot's previous use),
         * but a scan's last rank, whose input no other rank reads: it
         * reads it where it is */
        const bool own = !exclusive && v.li == last;
        if (own)
            node_publish_except(s, &v, u, in, at, m, 0, m);
        else
            node_publish(s, &v, u, in, at, m);
        /* its prefix within the node, straight into its receive buffer */
        const int reads = v.li == last && v.N > 1 ? v.L : upto;
        if (reads > 0)
            node_wait(s, &v, u, NODE_READY, 0, reads);
        if (upto > 0)
            node_prefix(s, &v, u, m, upto, BUF_RECV, at, own ? in : -1, at);
        if (v.N > 1 && v.li == last) {
            /* the node's total to the leaders' exscan, which leaves node
             * n's E (the nodes below it) in e_at (node 0's untouched) */
            int64_t total = at;
            int tbuf = BUF_RECV;
            if (exclusive) { /* P_{L-2} (op) x_{L-1}: two passes, not L */
                sched_copy_slot(s, u, BUF_SHM, node_input(last, v.C), BUF_SHM, out, m);
                if (upto > 0)
                    sched_reduce_slot(s, u, BUF_RECV, at, BUF_SHM, out, m, 0);
                total = out, tbuf = BUF_SHM;
            }
            struct sched_params sub = node_sub_params(p, m);
            sub.rank = v.node, sub.size = v.N;
            if (m > 0 && node_embed(s, p->inner, &sub, leaders, u, tbuf, total, BUF_SHM, e_at) != 0) {
                free(leaders);
                return -1;
            }
            node_set(s, &v, u, NODE_REDUCED);
        }
        /* the lower nodes' prefix on the left */
        if (v.N > 1 && v.node > 0) {
            if (v.li != last)
                node_wait(s, &v, u, NODE_REDUCED, last, 1);
            if (upto > 0)
                sched_reduce_slot(s, u, BUF_SHM, e_at, BUF_RECV, at, m, 0);
            else
                sched_copy_slot(s, u, BUF_SHM, e_at, BUF_RECV, at, m);
        }
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    free(leaders);
    s->shm_epochs = chunks;
    return s->oom ? -1 : 0;
}

double node_scan_cost(const struct sched_params *p, const struct cost_params *m)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, L = node_max_ranks(N, l->node_start);
    const double n = (double)p->count * (double)p->elem_size;
    const double chunk = (double)p->node_chunk * (double)p->elem_size;
    /* the leader's path (coll/scan/node_leader.c): 4 local at most (its
     * input, published by an exscan's leader; its result written and read
     * back), L - 1 inputs streamed, E read dirty, about L + 1 combinations */
    const double combos = L + (N > 1);
    double t = cost_node_traffic(m, n, chunk, N > 1 ? 3 : 2, 4 * n, (double)(L - 1) * n,
                                 N > 1 ? n : 0, combos * n);
    if (N > 1 && p->inner_cost) {
        struct sched_params sub = node_sub_params(p, p->count);
        sub.size = N;
        t += cost_node_inner(p->inner_cost, &sub, m, 1);
    }
    return t;
}
