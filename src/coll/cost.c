/* Cost-model terms shared by the algorithms' cost functions. */
#include <math.h>
#include "../patterns/nodes.h"
#include "algorithm.h"

int cost_link_share(const struct sched_params *p)
{
    const struct node_layout *l = p->layout;
    return l ? node_max_ranks(l->n_nodes, l->node_start) : 1;
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
