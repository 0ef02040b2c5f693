/* The one catalog of colibri's algorithms (see catalog.h). */
#include "catalog.h"

#include "../patterns/node_reduce.h"
#include "../patterns/nodes.h"

#include <stdio.h>
#include <string.h>

/* Each entry binds an algorithm file's builder, cost model and cost formula
 * (COST_FORMULA, coll/algorithm.h) to its name and restrictions. */
#define ENTRY(coll, formula_coll, enumv, name, restr, tunable)                          \
    { #name, enumv, restr, coll##_##name##_build, coll##_##name##_cost,                  \
      formula_coll##_##name##_cost_formula, tunable }
#define ALG(coll, enumv, name, restr) ENTRY(coll, coll, enumv, name, restr, false)
/* ... whose radix selection tunes (catalog.h) */
#define ALG_K(coll, enumv, name, restr) ENTRY(coll, coll, enumv, name, restr, true)
/* reduce_scatter_block runs reduce_scatter's builders with its own formulas */
#define ALG_BLOCK(name, restr)                                                           \
    ENTRY(reduce_scatter, reduce_scatter_block, COLIBRI_REDUCE_SCATTER_BLOCK, name, restr, false)

const struct algorithm catalog[] = {
    ALG(allreduce, COLIBRI_ALLREDUCE, recursive_doubling, 0),
    ALG(allreduce, COLIBRI_ALLREDUCE, rabenseifner, 0),
    ALG(allreduce, COLIBRI_ALLREDUCE, rabenseifner_3_2, 0),
    ALG(allreduce, COLIBRI_ALLREDUCE, ring, R_COMMUTATIVE),
    ALG(allreduce, COLIBRI_ALLREDUCE, reduce_bcast, 0),
    ALG(allreduce, COLIBRI_ALLREDUCE, knomial, 0),
    ALG(allreduce, COLIBRI_ALLREDUCE, sparse_recursive_doubling, R_NEUTRAL),
    ALG(allreduce, COLIBRI_ALLREDUCE, sparse_rabenseifner, R_NEUTRAL),
    ALG(allreduce, COLIBRI_ALLREDUCE, node_leader, R_NODE_AWARE | R_NODE_ORDER),
    ALG(allreduce, COLIBRI_ALLREDUCE, node_split_rail, R_NODE_AWARE | R_NODE_ORDER),
    ALG_K(allreduce, COLIBRI_ALLREDUCE, node_rails, R_NODE_AWARE | R_NODE_ORDER),

    ALG(reduce, COLIBRI_REDUCE, binomial, R_COMMUTATIVE),
    ALG(reduce, COLIBRI_REDUCE, ordered_binomial, 0),
    ALG(reduce, COLIBRI_REDUCE, rabenseifner, 0),
    ALG(reduce, COLIBRI_REDUCE, sparse_binomial, R_COMMUTATIVE | R_NEUTRAL),
    ALG(reduce, COLIBRI_REDUCE, sparse_rabenseifner, R_NEUTRAL),
    ALG(reduce, COLIBRI_REDUCE, node_leader, R_NODE_AWARE | R_NODE_ORDER),
    ALG(reduce, COLIBRI_REDUCE, node_split_rail, R_NODE_AWARE | R_NODE_ORDER),
    ALG_K(reduce, COLIBRI_REDUCE, node_rails, R_NODE_AWARE | R_NODE_ORDER),

    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER, recursive_halving, 0),
    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER, pairwise, R_COMMUTATIVE),
    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER, ring, R_COMMUTATIVE),
    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER, sparse_recursive_halving, R_NEUTRAL),
    ALG(reduce_scatter, COLIBRI_REDUCE_SCATTER, node_split_rail, R_NODE_AWARE | R_NODE_ORDER),

    ALG_BLOCK(recursive_halving, 0),
    ALG_BLOCK(pairwise, R_COMMUTATIVE),
    ALG_BLOCK(ring, R_COMMUTATIVE),
    /* stated over N elements in all, its formula is reduce_scatter's */
    ENTRY(reduce_scatter, reduce_scatter, COLIBRI_REDUCE_SCATTER_BLOCK, sparse_recursive_halving,
          R_NEUTRAL, false),
    ALG_BLOCK(node_split_rail, R_NODE_AWARE | R_NODE_ORDER),

    ALG_K(alltoall, COLIBRI_ALLTOALL, bruck, 0),
    ALG(alltoall, COLIBRI_ALLTOALL, pairwise, 0),
    ALG(alltoall, COLIBRI_ALLTOALL, scattered, 0),

    ALG(alltoallv, COLIBRI_ALLTOALLV, linear, 0),
    ALG(alltoallv, COLIBRI_ALLTOALLV, pairwise, 0),
    ALG_K(alltoallv, COLIBRI_ALLTOALLV, sloav, 0),
    ALG_K(alltoallv, COLIBRI_ALLTOALLV, sloavx, R_NODE_AWARE | R_BLOCKING_ONLY),

    ALG(allgather, COLIBRI_ALLGATHER, recursive_doubling, 0),
    ALG_K(allgather, COLIBRI_ALLGATHER, bruck, 0),
    ALG(allgather, COLIBRI_ALLGATHER, ring, 0),
    ALG(allgather, COLIBRI_ALLGATHER, neighbor_exchange, R_EVEN),
    ALG(allgather, COLIBRI_ALLGATHER, node_rails, R_NODE_AWARE),

    ALG(allgatherv, COLIBRI_ALLGATHERV, recursive_doubling, 0),
    ALG(allgatherv, COLIBRI_ALLGATHERV, ring, 0),
    ALG_K(allgatherv, COLIBRI_ALLGATHERV, bruck, 0),
    ALG(allgatherv, COLIBRI_ALLGATHERV, node_rails, R_NODE_AWARE),

    ALG(bcast, COLIBRI_BCAST, binomial, 0),
    ALG(bcast, COLIBRI_BCAST, scatter_allgather, 0),
    ALG(bcast, COLIBRI_BCAST, pipeline, 0),
    ALG(bcast, COLIBRI_BCAST, binary_tree, 0),
    ALG(bcast, COLIBRI_BCAST, node_leader, R_NODE_AWARE),

    ALG_K(barrier, COLIBRI_BARRIER, dissemination, 0),
    ALG(barrier, COLIBRI_BARRIER, node_leader, R_NODE_AWARE),

    ALG(gather, COLIBRI_GATHER, binomial, 0),
    ALG(gather, COLIBRI_GATHER, linear, 0),
    ALG(gather, COLIBRI_GATHER, node_leader, R_NODE_AWARE),
    ALG(gatherv, COLIBRI_GATHERV, linear, R_BY_NAME),
    ALG(gatherv, COLIBRI_GATHERV, binomial, 0),
    ALG(scatter, COLIBRI_SCATTER, binomial, 0),
    ALG(scatter, COLIBRI_SCATTER, linear, 0),
    ALG(scatter, COLIBRI_SCATTER, node_leader, R_NODE_AWARE),
    ALG(scatterv, COLIBRI_SCATTERV, linear, R_BY_NAME),
    ALG(scatterv, COLIBRI_SCATTERV, binomial, 0),
    ALG(scan, COLIBRI_SCAN, recursive_doubling, 0),
    ALG(scan, COLIBRI_SCAN, up_down, 0),
    ALG(scan, COLIBRI_SCAN, linear, 0),
    ALG(scan, COLIBRI_SCAN, node_leader, R_NODE_AWARE | R_NODE_BLOCKED),
    ALG(exscan, COLIBRI_EXSCAN, recursive_doubling, 0),
    ALG(exscan, COLIBRI_EXSCAN, up_down, 0),
    ALG(exscan, COLIBRI_EXSCAN, linear, 0),
    ALG(exscan, COLIBRI_EXSCAN, node_leader, R_NODE_AWARE | R_NODE_BLOCKED),
};
const int catalog_count = (int)(sizeof catalog / sizeof catalog[0]);

static const char *const restriction_names[] = {"commutative", "power-of-two", "node-aware",
                                                "neutral-element", "blocking-only", "node-order",
                                                "even-p", "by-name", "node-blocked"};

const struct algorithm *catalog_find(colibri_coll coll, const char *name)
{
    for (int i = 0; i < catalog_count; i++)
        if (catalog[i].coll == coll && strcmp(catalog[i].name, name) == 0)
            return &catalog[i];
    return NULL;
}

/* Elements of the whole vector being reduced (reduce-scatter: all ranks'). */
static int64_t vector_elems(const struct sched_params *p)
{
    if (!p->counts)
        return p->count;
    int64_t n = 0;
    for (int i = 0; i < p->size; i++)
        n += p->counts[i];
    return n;
}

const char *catalog_violation(const struct algorithm *a, const struct sched_params *p)
{
    if ((a->restrictions & R_COMMUTATIVE) && !p->commutative)
        return "needs a commutative operation";
    if ((a->restrictions & R_POW2) && (p->size & (p->size - 1)))
        return "needs a power-of-two number of processes";
    if ((a->restrictions & R_EVEN) && p->size % 2)
        return "needs an even number of processes";
    if ((a->restrictions & R_BLOCKING_ONLY) && p->nonblocking)
        return "runs only as a blocking call (it grows the node's shared segment mid-run)";
    if ((a->restrictions & R_NODE_AWARE) && !p->layout)
        return "needs the node layout (node-aware)";
    /* every node-aware algorithm but SLOAVx's goes through the slots of
     * the communicator's reduction segment */
    if ((a->restrictions & R_NODE_AWARE) && a->coll != COLIBRI_ALLTOALLV && p->node_chunk < 1)
        return "needs a node reduction segment that holds an element of the type "
               "(COLIBRI_NODE_SHM_BYTES)";
    if ((a->restrictions & R_NODE_AWARE) &&
        (a->coll == COLIBRI_ALLGATHER || a->coll == COLIBRI_ALLGATHERV ||
         a->coll == COLIBRI_GATHER || a->coll == COLIBRI_SCATTER) &&
        node_gather_piece(p->node_chunk, node_max_ranks(p->layout->n_nodes, p->layout->node_start),
                          p->size) < 1)
        return "needs a node reduction segment that holds a byte of every rank's block "
               "(COLIBRI_NODE_SHM_BYTES)";
    if ((a->restrictions & R_NODE_ORDER) && !p->commutative &&
        !node_blocked(p->layout->n_nodes, p->layout->node_start, p->layout->node_ranks))
        return "needs a commutative operation, or every node holding consecutive ranks";
    if ((a->restrictions & R_NODE_BLOCKED) &&
        !node_blocked(p->layout->n_nodes, p->layout->node_start, p->layout->node_ranks))
        return "needs every node holding consecutive ranks";
    if ((a->restrictions & R_NEUTRAL) &&
        (!p->sparse || vector_elems(p) * (int64_t)p->elem_size > SCHED_CHUNK))
        return "needs an operation with a neutral element (predefined, or registered with "
               "colibri_op_neutral) on a predefined or contiguous type (and at most 2 GiB)";
    return NULL;
}

const char *catalog_restrictions(const struct algorithm *a, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < sizeof restriction_names / sizeof *restriction_names; i++)
        if (a->restrictions & (1u << i))
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
                                     used ? " " : "", restriction_names[i]);
    return buf;
}

const char *catalog_names(colibri_coll coll, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < catalog_count; i++)
        if (catalog[i].coll == coll)
            used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s",
                                     used ? ", " : "", catalog[i].name);
    return buf;
}
