/*
 * The catalog: every algorithm colibri has, with the restrictions under which
 * it is correct.  Algorithms never check these themselves and never fall back
 * to another algorithm; the selector reads them here.
 *
 * A property of every entry, not a restriction: a reduction gives every
 * rank that receives the result bitwise the same values, for every
 * operation, predefined or not (MPI-4 6.9.1).  Every rank's result is one
 * combination of the same contributions in the same bracketing, so
 * floating-point sums cannot differ in their last bits between ranks.
 * tests/unit/symbolic.h checks the bracketing of every allreduce entry for
 * every p <= 200, tests/mpi/test_identical.c the bits on real ranks.
 */
#ifndef COLIBRI_CATALOG_H
#define COLIBRI_CATALOG_H

#include "colibri.h"
#include "../coll/algorithm.h"

enum restriction {
    R_COMMUTATIVE = 1u << 0, /* the operation must be commutative */
    R_POW2 = 1u << 1,        /* the process count must be a power of two */
    R_NODE_AWARE = 1u << 2,  /* needs p->layout and the node's shared segment (BUF_SHM) */
    R_NEUTRAL = 1u << 3,     /* needs an operation with a neutral element (p->sparse:
                              * predefined, or a user op given one by colibri_op_neutral),
                              * vectors of at most SCHED_CHUNK bytes */
    R_BLOCKING_ONLY = 1u << 4, /* not for nonblocking or persistent calls (p->nonblocking):
                                * it grows the node's shared segment collectively over the
                                * node in the middle of a run, which would block on ranks
                                * that have not reached it */
    R_NODE_ORDER = 1u << 5,  /* a non-commutative operation needs every node to hold
                              * consecutive ranks (it combines nodes in node order) */
    R_EVEN = 1u << 6,        /* the process count must be even (neighbour exchange pairs
                              * ranks 2m and 2m+1) */
    R_NODE_BLOCKED = 1u << 8, /* every node must hold consecutive ranks, whatever the
                               * operation (the node-aware scans: a node's prefix is
                               * the ranks below a rank there) */
    R_BY_NAME = 1u << 7,     /* not the model's choice, only named (the C API,
                              * COLIBRI_<COLL>_ALGORITHM, a tuning rule; automatic
                              * persistent calls, api/rooted.c): the MPI's own runs the
                              * same algorithm, so where the model ranks it ahead of its
                              * choice, automatic selection takes the MPI's own
                              * (gatherv, scatterv: linear; selection reads p alone, as
                              * only the root knows the blocks) */
    /* No in-place restriction exists on purpose: for MPI_Reduce only the root
     * may pass MPI_IN_PLACE, and a choice that depended on it would differ
     * between ranks.  Every algorithm supports MPI_IN_PLACE. */
};

struct algorithm {
    const char *name;
    colibri_coll coll;
    unsigned restrictions;
    sched_build_fn build;
    cost_model_fn cost;
    /* The alpha-beta-gamma formula, defined once next to the builder
     * (COST_FORMULA in the algorithm's file, coll/algorithm.h). */
    const char *cost_formula;
    /* The radix is a free parameter: with COLIBRI_RADIX unset, selection
     * gives the builder the radix the cost model finds fastest. */
    bool tunable_radix;
};

/* The reductions count in elements of the call's datatype and reduce; the
 * data-movement collectives (alltoall on) count in bytes.  The prefix
 * reductions come after those in colibri_coll. */
static inline bool coll_reduces(colibri_coll c)
{
    return c < COLIBRI_ALLTOALL || c == COLIBRI_SCAN || c == COLIBRI_EXSCAN;
}

extern const struct algorithm catalog[];
extern const int catalog_count;

const struct algorithm *catalog_find(colibri_coll coll, const char *name);

/* NULL when `a` may run this call, else a phrase naming the unmet
 * restriction ("needs a commutative operation"). */
const char *catalog_violation(const struct algorithm *a, const struct sched_params *p);

/* Space-separated restriction names of `a` into buf. */
const char *catalog_restrictions(const struct algorithm *a, char *buf, size_t len);

/* Lists the valid names for `coll` into buf ("a, b, c"). */
const char *catalog_names(colibri_coll coll, char *buf, size_t len);

#endif
