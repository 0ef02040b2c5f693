/* Cost-model terms shared by the algorithms' cost functions. */
#include <math.h>
#include <stdbool.h>
#include "../patterns/dissemination.h"
#include "../patterns/node_reduce.h"
#include "../patterns/nodes.h"
#include "algorithm.h"

int cost_link_share(const struct sched_params *p)
{
    const struct node_layout *l = p->layout;
    return l ? node_max_ranks(l->n_nodes, l->node_start) : 1;
}

/* A layout's port sharing, read once per cost (node_max_ranks and
 * node_blocked walk the layout): L the most ranks on a node, 0 where the
 * port is not shared (no layout, one node); `blocked`, nodes of
 * consecutive ranks. */
struct port {
    int L;
    bool blocked;
};

static struct port port_of(const struct sched_params *p)
{
    const struct node_layout *l = p->layout;
    if (!l || l->n_nodes <= 1)
        return (struct port){0, true};
    return (struct port){node_max_ranks(l->n_nodes, l->node_start),
                         node_blocked(l->n_nodes, l->node_start, l->node_ranks) != 0};
}

static double share_at(struct port q, long long d)
{
    if (q.L <= 0)
        return 1;
    if (!q.blocked)
        return q.L;
    return d < 1 ? 1 : d > q.L ? q.L : (double)d;
}

double cost_port_share(const struct sched_params *p, long long d)
{
    return share_at(port_of(p), d);
}

double cost_bruck_port_share(const struct sched_params *p, int k)
{
    const struct port q = port_of(p);
    if (p->size <= 1 || q.L <= 0)
        return 1;
    double blocks = 0, weighted = 0;
    for (int t = 0; t < dis_rounds(p->size, k); t++) {
        const long long D = dis_distance(k, t);
        for (int j = 1; j < k && dis_active(p->size, j, D); j++) {
            const double n = (double)dis_count(p->size, j, D);
            blocks += n;
            weighted += n * share_at(q, (long long)j * D);
        }
    }
    return blocks > 0 ? weighted / blocks : 1;
}

double cost_doubling_port_share(const struct sched_params *p)
{
    const struct port q = port_of(p);
    double blocks = 0, weighted = 0;
    for (long long d = 1; 2 * d <= p->size; d *= 2) {
        blocks += (double)d;
        weighted += (double)d * share_at(q, d);
    }
    return blocks > 0 ? weighted / blocks : 1;
}

double cost_scan_port_rounds(const struct sched_params *p)
{
    const struct port q = port_of(p);
    double rounds = 0;
    for (long long d = 1; d < p->size; d *= 2)
        rounds += share_at(q, d);
    return rounds;
}

int cost_radix(const struct sched_params *p)
{
    int k = p->radix > 0 ? p->radix : 2;
    if (k > p->size)
        k = p->size;
    return k < 2 ? 2 : k;
}

double cost_typical_block(const struct sched_params *p)
{
    return p->volume_min > 0 && p->size > 1 ? (double)p->volume_min / (p->size - 1)
                                            : (double)p->count;
}

double cost_excess_volume(const struct sched_params *p)
{
    return p->volume_max > p->volume_min ? (double)(p->volume_max - p->volume_min) : 0;
}

double cost_with_overhead(cost_model_fn f, const struct sched_params *p,
                          const struct cost_params *m)
{
    const struct cost_params latency_only = {.alpha = 1};
    return f(p, m) + 2 * m->o * f(p, &latency_only);
}

double cost_node_inner(cost_model_fn inner, const struct sched_params *sub,
                       const struct cost_params *m, int share)
{
    if (!inner || sub->size <= 1)
        return 0;
    struct cost_params shared = *m;
    shared.beta *= share;
    return cost_with_overhead(inner, sub, &shared);
}

double cost_node_traffic(const struct cost_params *m, double n, double chunk_bytes, int syncs,
                         double local, double streamed, double dirty, double reduced)
{
    const double chunks = chunk_bytes > 0 && n > chunk_bytes ? ceil(n / chunk_bytes) : 1;
    return chunks * syncs * m->shm_alpha +
           (0.5 * local + streamed + 1.5 * dirty) * m->shm_beta + reduced * m->gamma;
}

double cost_node_local(const struct cost_params *m, double n, double out, double reduced,
                       int syncs)
{
    return syncs * m->shm_alpha + (n + out + reduced) * m->shm_beta + reduced * m->gamma;
}

double cost_rooted_volume(const struct sched_params *p, const int64_t *counts)
{
    if (!counts)
        return (double)(p->size - 1) * (double)p->count;
    double n = 0;
    for (int j = 0; j < p->size; j++)
        n += j == p->root ? 0 : (double)counts[j];
    return n;
}

double cost_linear_rooted(const struct sched_params *p, const struct cost_params *m,
                          const int64_t *counts)
{
    if (p->size < 2)
        return 0;
    const double overheads = (double)(p->size - 1) * m->o,
                 bytes = cost_rooted_volume(p, counts) * m->beta + m->o;
    return m->alpha + m->o + (overheads > bytes ? overheads : bytes);
}
