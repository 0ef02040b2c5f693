/* Phases of the node-aware reductions (node_phases.h). */
#include <math.h>
#include <stdlib.h>

#include "node_phases.h"

#include "../../patterns/node_segment.h"

void node_view_init(struct node_view *v, const struct sched_params *p)
{
    const struct node_layout *l = p->layout;
    v->l = l;
    v->me = p->rank;
    v->node = l->node_of[p->rank];
    v->li = l->local_index[p->rank];
    v->L = l->node_start[v->node + 1] - l->node_start[v->node];
    v->N = l->n_nodes;
    v->R = node_fewest(l->n_nodes, l->node_start);
    v->C = p->node_chunk;
}

double node_region_min_bytes = NODE_REGION_MIN_BYTES;

void node_slot_span(struct schedule *s, const struct node_view *v, double bytes)
{
    if (bytes >= node_region_min_bytes)
        sched_slot_reach(s, node_slot_elems(v->L, v->C));
}

void node_set(struct schedule *s, const struct node_view *v, int u, enum node_flag f)
{
    sched_flag_set(s, u, node_flag(v->li, f));
}

void node_wait(struct schedule *s, const struct node_view *v, int u, enum node_flag f, int first,
               int n)
{
    for (int l = first; l < first + n; l++)
        if (l != v->li || f != NODE_READY)
            sched_flag_wait(s, u, node_flag(l, f), 0);
}

void node_reuse_wait(struct schedule *s, const struct node_view *v, int u)
{
    /* This rank's own DONE too: the use NODE_SLOTS earlier may belong to
     * a nonblocking call of its own that has not read the slot yet. */
    for (int l = 0; l < v->L; l++)
        sched_flag_wait(s, u, node_flag(l, NODE_DONE), -NODE_SLOTS);
}

void node_publish_except(struct schedule *s, const struct node_view *v, int u, int buf,
                         int64_t off, int64_t len, int64_t skip_at, int64_t skip_len)
{
    node_reuse_wait(s, v, u);
    const int64_t in = node_input(v->li, v->C), end = skip_at + skip_len;
    if (skip_len <= 0) {
        sched_copy_slot(s, u, buf, off, BUF_SHM, in, len);
    } else {
        if (skip_at > 0)
            sched_copy_slot(s, u, buf, off, BUF_SHM, in, skip_at);
        if (len > end)
            sched_copy_slot(s, u, buf, off + end, BUF_SHM, in + end, len - end);
    }
    node_set(s, v, u, NODE_READY);
}

void node_publish(struct schedule *s, const struct node_view *v, int u, int buf, int64_t off,
                  int64_t len)
{
    node_publish_except(s, v, u, buf, off, len, 0, 0);
}

void node_reduce_own(struct schedule *s, const struct node_view *v, int u, int64_t at,
                     int64_t len, int dst, int64_t off, int own, int64_t own_off)
{
    node_wait(s, v, u, NODE_READY, 0, v->L);
    /* in0 (op) (in1 (op) ( ... (op) in_{L-1})): MPI_Reduce_local's order,
     * dst = src (op) dst, from the last input down, so a non-commutative
     * operation sees its operands in rank order.  This rank's own input
     * from (own, own_off) where it did not publish it.  One chain
     * (SOP_CHAIN): the destination is written once, piece by piece, each
     * piece combined with all L inputs while it is in this core's cache. */
    for (int l = v->L - 1; l >= 0; l--) {
        const bool mine = own >= 0 && l == v->li;
        const int src = mine ? own : BUF_SHM;
        const int64_t src_off = mine ? own_off + at : node_input(l, v->C) + at;
        const unsigned chain = l > 0 ? SOP_CHAIN : 0;
        if (l == v->L - 1)
            sched_copy_slot_flags(s, u, src, src_off, dst, off, len, chain);
        else
            sched_reduce_slot(s, u, src, src_off, dst, off, len, chain);
    }
}

void node_reduce(struct schedule *s, const struct node_view *v, int u, int64_t at, int64_t len,
                 int dst, int64_t off)
{
    node_reduce_own(s, v, u, at, len, dst, off, -1, 0);
}

struct sched_params node_sub_params(const struct sched_params *p, int64_t count)
{
    return (struct sched_params){.count = count,
                                 .elem_size = p->elem_size,
                                 .commutative = p->commutative,
                                 .segment = p->segment,
                                 .radix = p->inner_radix};
}

int node_embed(struct schedule *s, sched_build_fn inner, const struct sched_params *sub,
               const int *group, int u, int sbuf, int64_t soff, int rbuf, int64_t roff)
{
    struct schedule in;
    sched_init(&in);
    if (inner(sub, &in) != 0 || in.oom || in.resume) {
        sched_free(&in);
        return -1;
    }
    sched_round(s);
    /* The inner scratch buffers, one after the other in ours. */
    const int64_t tmp2_at = in.tmp_count[0];
    sched_need_tmp(s, BUF_TMP, in.tmp_count[0] + in.tmp_count[1]);
    for (uint32_t r = 0; r < in.n_rounds; r++) {
        const struct sched_round *rd = &in.rounds[r];
        for (uint32_t i = rd->first_op; i < rd->first_op + rd->n_ops; i++) {
            const struct sched_op *op = &in.ops[i];
            int buf[2] = {op->src_buf, op->dst_buf};
            int64_t off[2] = {op->src_off, op->dst_off};
            for (int k = 0; k < 2; k++) {
                if (buf[k] == BUF_SEND)
                    buf[k] = sbuf, off[k] += soff;
                else if (buf[k] == BUF_RECV)
                    buf[k] = rbuf, off[k] += roff;
                else if (buf[k] == BUF_TMP2)
                    buf[k] = BUF_TMP, off[k] += tmp2_at;
            }
            switch (op->kind) {
            case SOP_SEND:
                /* a barrier's zero-byte message is kept (SOP_SYNC) */
                if (op->flags & SOP_SYNC)
                    sched_signal(s, group[op->peer]);
                else
                    sched_send_slot(s, u, group[op->peer], buf[0], off[0], op->count);
                break;
            case SOP_RECV:
                if (op->flags & SOP_SYNC)
                    sched_await(s, group[op->peer]);
                else
                    sched_recv_slot(s, u, group[op->peer], buf[0], off[0], op->count);
                break;
            case SOP_REDUCE:
                sched_reduce_slot(s, u, buf[0], off[0], buf[1], off[1], op->count, op->flags);
                break;
            case SOP_COPY:
                sched_copy_slot(s, u, buf[0], off[0], buf[1], off[1], op->count);
                break;
            default: /* a flat algorithm has no flags */
                sched_free(&in);
                return -1;
            }
        }
        sched_round(s);
    }
    sched_free(&in);
    return s->oom ? -1 : 0;
}

int *node_rail(const struct node_view *v, int li)
{
    int *rail = malloc((size_t)v->N * sizeof *rail);
    for (int n = 0; rail && li < v->R && n < v->N; n++)
        rail[n] = node_rank(v, n, li);
    return rail;
}

/* Use u of a split-rail run: the chunk of m elements at `at` (node_rail_schedule).
 * A rail's own slice of its input is read by it alone: it is not copied
 * into the segment but read where it is; with `direct` the rail's reduced
 * slice goes straight to its receive buffer (the reduce's root on one
 * node, the only rank that reads it).  Blocking runs only: a nonblocking
 * one copies all of its input at the start of each chunk, as before, since
 * programs that overlap calls tend to reuse a pending call's send buffer
 * as another's in-place buffer (erroneous, yet the MPIs' own nonblocking
 * collectives, which copy or send it early, give them what they expect:
 * the Fortran drop-in's two overlapping MPI_Iallreduce did). */
static int node_rail_chunk(struct schedule *s, const struct node_view *v,
                           const struct sched_params *p, int u, int in, int64_t at, int64_t m,
                           struct sched_params sub, const int *rail, bool direct)
{
    if (v->li >= v->R) {
        node_publish(s, v, u, in, at, m);
        return 0;
    }
    const int64_t sa = node_slice_at(m, v->li, v->R), sl = node_slice_len(m, v->li, v->R);
    const int64_t out = node_output(v->L, v->C) + sa;
    /* a nonblocking run publishes all of its input (own_in_place below) */
    const bool own = !p->nonblocking;
    node_publish_except(s, v, u, in, at, m, sa, own ? sl : 0);
    if (direct)
        node_reduce_own(s, v, u, sa, sl, BUF_RECV, at + sa, own ? in : -1, at);
    else
        node_reduce_own(s, v, u, sa, sl, BUF_SHM, out, own ? in : -1, at);
    if (v->N > 1 && sl > 0) {
        sub.count = sl, sub.rank = v->node, sub.size = v->N, sub.in_place = true;
        if (node_embed(s, p->inner, &sub, rail, u, BUF_SHM, out, BUF_SHM, out) != 0)
            return -1;
    }
    node_set(s, v, u, NODE_REDUCED);
    return 0;
}

int node_rail_schedule(const struct sched_params *p, struct schedule *s, int in,
                       struct sched_params sub, bool copy_out, bool sole_reader)
{
    struct node_view v;
    node_view_init(&v, p);
    node_slot_span(s, &v, (double)p->count * (double)p->elem_size);
    const int64_t chunks = node_chunks(p->count, v.C);
    int *rail = node_rail(&v, v.li);
    if (!rail)
        return -1;
    /* its own slice straight into the receive buffer, which must not be
     * its input (in place, the slice would overwrite its own operand) */
    const bool direct = copy_out && sole_reader && v.N == 1 && v.li < v.R && in != BUF_RECV;
    for (int64_t k = 0; k < chunks; k++) {
        const int u = (int)k;
        const int64_t at = node_chunk_at(k, v.C), m = node_chunk_len(p->count, k, v.C);
        if (node_rail_chunk(s, &v, p, u, in, at, m, sub, rail, direct) != 0) {
            free(rail);
            return -1;
        }
        if (copy_out) {
            /* a rail's own slice first, before it waits for the others: it
             * is final once this rank has reduced it (and run the step
             * between nodes), and is still in this core's cache (a 2-rank
             * model of the hand-offs ran 10-20% faster so, issue #27);
             * with `direct` it is in the receive buffer already */
            const bool rail = v.li < v.R;
            const int64_t sa = rail ? node_slice_at(m, v.li, v.R) : m;
            const int64_t end = rail ? sa + node_slice_len(m, v.li, v.R) : m;
            const int64_t out = node_output(v.L, v.C);
            if (rail && !direct)
                sched_copy_slot(s, u, BUF_SHM, out + sa, BUF_RECV, at + sa, end - sa);
            node_wait(s, &v, u, NODE_REDUCED, 0, v.R);
            sched_copy_slot(s, u, BUF_SHM, out, BUF_RECV, at, sa);
            sched_copy_slot(s, u, BUF_SHM, out + end, BUF_RECV, at + end, m - end);
        }
        node_set(s, &v, u, NODE_DONE);
        sched_round(s);
    }
    free(rail);
    s->shm_epochs = chunks;
    return s->oom ? -1 : 0;
}

double node_rail_cost(const struct sched_params *p, const struct cost_params *m, int syncs,
                      bool direct)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, L = node_max_ranks(N, l->node_start);
    const int R = node_fewest(N, l->node_start);
    const double n = (double)p->count * (double)p->elem_size;
    struct sched_params sub = node_sub_params(p, (p->count + R - 1) / R);
    sub.size = N, sub.in_place = true;
    /* local: publishing all but its slice (read and write), its own slice
     * read in place and written, the result written out (its own slice
     * read back, unless `direct`: straight into the receive buffer);
     * streamed: the slice of the L - 1 others; dirty: the R - 1 other
     * reduced slices */
    return cost_node_traffic(m, n, (double)p->node_chunk * (double)p->elem_size, syncs,
                             direct && N == 1 ? 3 * n - n / R : 3 * n + n / R,
                             (double)(L - 1) * n / R, (double)(R - 1) * n / R,
                             (double)(L - 1) * n / R) +
           cost_node_inner(p->inner_cost, &sub, m, R);
}

void node_pieces_copy(struct schedule *s, const struct sched_params *p, const struct node_view *v,
                      int u, int64_t b, int64_t at, int64_t m, bool out)
{
    const int P = p->size;
    const int *ranks = v->l->node_ranks;
    for (int q = 0; q < P;) {
        const int r = ranks[q];
        if (r == p->rank) {
            if (!p->in_place)
                sched_copy(s, BUF_SEND, out ? at : r * b + at, BUF_RECV, out ? r * b + at : at, m);
            q++;
            continue;
        }
        int e = q + 1;
        while (m == b && e < P && ranks[e] == ranks[e - 1] + 1 && ranks[e] != p->rank)
            e++;
        if (out)
            sched_copy_slot(s, u, BUF_SHM, (int64_t)q * m, BUF_RECV, r * b + at, (e - q) * m);
        else
            sched_copy_slot(s, u, BUF_SEND, r * b + at, BUF_SHM, (int64_t)q * m, (e - q) * m);
        q = e;
    }
}

int node_rooted_embed(struct schedule *s, const struct sched_params *p, const struct node_view *v,
                      int u, int64_t m, bool gather)
{
    const int root_node = v->l->node_of[p->root];
    int *leaders = malloc((size_t)v->N * sizeof *leaders);
    if (!leaders)
        return -1;
    for (int n = 0; n < v->N; n++)
        leaders[n] = n == root_node ? p->root : node_rank(v, n, 0);
    struct sched_params sub = node_sub_params(p, (int64_t)v->L * m);
    sub.rank = v->node, sub.size = v->N, sub.root = root_node;
    sub.in_place = v->node == root_node;
    const int64_t area = (int64_t)v->l->node_start[v->node] * m;
    const int rc = gather ? node_embed(s, p->inner, &sub, leaders, u, BUF_SHM, area, BUF_SHM, 0)
                          : node_embed(s, p->inner, &sub, leaders, u, BUF_SHM, 0, BUF_SHM, area);
    free(leaders);
    return rc;
}

void node_rails_swap(struct schedule *s, const struct node_view *v, int u, int G,
                     const int64_t *at, int64_t m)
{
    const int *start = v->l->node_start;
#define AREA_AT(q) (at ? at[q] : (int64_t)(q) * m)
    if (v->li < G) {
        node_wait(s, v, u, NODE_READY, 0, v->L);
        sched_round(s);
        const int64_t mine_at = AREA_AT(start[v->node]), mine = AREA_AT(start[v->node + 1]) - mine_at;
        for (int t = 0; t < node_seg_rail_msgs(v->N, G, v->li); t++) {
            const int j = node_seg_rail_dist(G, v->li, t);
            const int to = node_seg_to(v->node, j, v->N), from = node_seg_from(v->node, j, v->N);
            const int64_t from_at = AREA_AT(start[from]), len = AREA_AT(start[from + 1]) - from_at;
            if (mine > 0)
                sched_send_slot(s, u, node_rank(v, to, v->li), BUF_SHM, mine_at, mine);
            if (len > 0)
                sched_recv_slot(s, u, node_rank(v, from, v->li), BUF_SHM, from_at, len);
        }
        node_set(s, v, u, NODE_REDUCED);
    }
#undef AREA_AT
    sched_round(s);
    if (G > 0)
        node_wait(s, v, u, NODE_REDUCED, 0, G);
    else
        node_wait(s, v, u, NODE_READY, 0, v->L);
}

double node_rails_gather_cost(const struct sched_params *p, const struct cost_params *m,
                              double uses, double port, double b)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, Lmax = node_max_ranks(N, l->node_start);
    const int G = node_seg_rails(0, node_fewest(N, l->node_start), N);
    const double P = p->size;
    const int64_t piece = node_gather_piece(p->node_chunk, Lmax, p->size);
    const double net =
        N > 1 ? uses * (m->alpha + 2.0 * ceil((N - 1.0) / G) * m->o) + port * m->beta : 0;
    /* its piece in (2 local), the others' out (p-1 streamed, p-1 local),
     * its own block (2 local) */
    return net + cost_node_traffic(m, b * P, piece > 0 ? (double)piece * P : 0, 3, (P + 3) * b,
                                   (P - 1) * b, 0, 0);
}

double node_rooted_cost(const struct sched_params *p, const struct cost_params *m, double local,
                        double streamed)
{
    const struct node_layout *l = p->layout;
    const int N = l->n_nodes, Lmax = node_max_ranks(N, l->node_start);
    const int root_node = l->node_of[p->root];
    const int Lr = l->node_start[root_node + 1] - l->node_start[root_node];
    const double b = (double)p->count, P = p->size;
    const int64_t piece = node_gather_piece(p->node_chunk, Lmax, p->size);
    double net = 0;
    if (N > 1 && p->inner_cost && Lmax * N == p->size) {
        /* the leaders' flat step, once per use of the slots */
        const double uses = piece > 0 && p->count > piece ? ceil(b / (double)piece) : 1;
        struct sched_params sub = node_sub_params(p, (int64_t)(Lmax * (b / uses)));
        sub.size = N, sub.root = root_node;
        net = uses * p->inner_cost(&sub, m);
    } else if (N > 1) {
        const double overheads = (N - 1.0) * m->o, bytes = (P - Lr) * b * m->beta;
        net = m->alpha + 2 * m->o + (overheads > bytes ? overheads : bytes);
    }
    return net + cost_node_traffic(m, b * P, piece > 0 ? (double)piece * P : 0, 2, local * b,
                                   streamed * b, 0, 0);
}
