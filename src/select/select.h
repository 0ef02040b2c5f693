/* Selection: which catalog algorithm runs a call (NULL: the MPI below). */
#ifndef COLIBRI_SELECT_H
#define COLIBRI_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "online.h"

/* `requested` is the caller's choice (C API), or NULL to read
 * COLIBRI_<COLL>_ALGORITHM.  On success *alg is the algorithm, or NULL for
 * native; for a tunable-radix algorithm (catalog.h) with p->radix unset,
 * p->radix becomes the radix the cost model prefers.  On a bad request
 * returns an MPI error class and a message. */
int select_algorithm(colibri_coll coll, struct sched_params *p, const char *requested,
                     const struct algorithm **alg, char *msg, size_t len);

/* The automatic choice: a COLIBRI_TUNING rule if one matches, else the
 * cost-model minimum among the algorithms whose restrictions hold; NULL
 * means native.  Depends only on what every rank agrees on (p, counts, type
 * size, commutativity, root), so all ranks pick the same. */
const struct algorithm *select_auto(colibri_coll coll, const struct sched_params *p);
/* False when a COLIBRI_TUNING rule may hand `coll` to the MPI below:
 * a choice made late (after a nonblocking agreement, possibly on the
 * progress thread) must not issue a native collective out of call order. */
bool select_never_native(colibri_coll coll);

/* Whether a call asks for automatic selection: `requested` (the C API's
 * name) or, when NULL, COLIBRI_<COLL>_ALGORITHM is unset, empty or "auto". */
bool select_names_auto(colibri_coll coll, const char *requested);
/* The first `by-name` algorithm of coll (catalog R_BY_NAME; NULL: none):
 * automatic choice's algorithm for a persistent v form (api/rooted.c). */
const char *select_by_name_only(colibri_coll coll);
/* Whether an automatic blocking or nonblocking call of coll on `size`
 * processes goes to the MPI below whatever its other arguments: the
 * configuration names no algorithm (COLIBRI_<COLL>_ALGORITHM unset or
 * auto), the tuning file has no rule for coll, and coll's algorithms are
 * all `by-name` or (gatherv, scatterv, whose selection reads p alone) the
 * model ranks a `by-name` one, which the MPI's own runs, ahead at p.
 * Local; the same on every rank. */
bool select_always_below(colibri_coll coll, int size);

/* Online selection (online.h) applies only where no tuning rule decides:
 * whether one does for this call (p before selection). */
bool select_rule_decides(colibri_coll coll, const struct sched_params *p);
/* Whether the tuning file sends every call of `coll` on this communicator
 * below whatever its size (p as before selection: size, form, layout where
 * known): a rule for both forms naming native for 0 bytes to the largest,
 * and no rule for this communicator and form naming anything else.  Then
 * alltoallv needs no agreement on its sizes (api/alltoall.c): every rank
 * reads the same rules, so every rank goes below. */
bool select_rules_all_native(colibri_coll coll, const struct sched_params *p);
/* Whether the tuning file has any blocking rule for `coll` (whatever the
 * size): alltoallv skips no size agreement then (online.h, online_skip). */
bool select_has_rules(colibri_coll coll);
/* Online selection's candidates for a call whose automatic choice is
 * `model` (p as before selection): the model's choice, native (NULL),
 * where the model is unsure (online.h, ONLINE_UNSURE) its runner-up, and
 * the model's choice for a network ONLINE_BETA_SPAN times slower per byte
 * between nodes (a sparse algorithm on sparse data, a node-aware one where
 * the node's port would be the bottleneck) where it is neither of those,
 * or, where the layout puts the communicator on one node, its best
 * algorithm of the other kind (node-aware against flat);
 * native only where `native_ok` (the MPI below reduces as colibri does).
 * Returns their number, 0 when the model has no algorithm for the call. */
int select_candidates(colibri_coll coll, const struct sched_params *p,
                      const struct algorithm *model, bool native_ok,
                      const struct algorithm *cand[ONLINE_CANDIDATES]);
/* p (as before selection) made ready to run candidate `a` (NULL: native),
 * with the radix and inner algorithm the model prefers, as for a name. */
void select_prepare(struct sched_params *p, const struct algorithm *a);

/* True when the automatic choice for `coll` depends on the communicator's
 * node layout (tuning rules for a node shape, a model calibrated on one
 * node and across nodes, flat costs that charge the node's shared port):
 * the caller then gives it p->layout. */
bool select_wants_layout(colibri_coll coll);

/* What selection uses, for colibri-info: the tuning file and where it was
 * found, its rules in force and lines ignored, the MPI and shape it was
 * measured on, the cost model's parameters and their origin. */
void select_describe(char *buf, size_t len);

#endif
