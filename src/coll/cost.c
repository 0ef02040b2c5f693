/* Cost-model terms shared by the algorithms' cost functions. */
#include "../patterns/nodes.h"
#include "algorithm.h"

int cost_link_share(const struct sched_params *p)
{
    const struct node_layout *l = p->layout;
    return l ? node_max_ranks(l->n_nodes, l->node_start) : 1;
}
