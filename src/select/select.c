/*
 * Selection layer: honours COLIBRI_<COLL>_ALGORITHM / the C API's explicit
 * name, checks the catalog's restrictions, and otherwise picks by the cost
 * model.  This is the only place where one algorithm is ever used instead of
 * another, and it says so (COLIBRI_FALLBACK).
 */
#include "select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

static const char *const env_names[COLIBRI_NCOLL] = {
    "COLIBRI_ALLREDUCE_ALGORITHM", "COLIBRI_REDUCE_ALGORITHM", "COLIBRI_REDUCE_SCATTER_ALGORITHM",
    "COLIBRI_REDUCE_SCATTER_BLOCK_ALGORITHM"};

enum fallback { FALLBACK_ERROR, FALLBACK_WARN, FALLBACK_SILENT };

static enum fallback fallback_mode(void)
{
    const char *v = getenv("COLIBRI_FALLBACK");
    if (v && strcmp(v, "warn") == 0)
        return FALLBACK_WARN;
    if (v && strcmp(v, "silent") == 0)
        return FALLBACK_SILENT;
    return FALLBACK_ERROR;
}

/* Cost-model parameters: defaults describe a commodity cluster node pair
 * (1.5 us latency, ~10 GB/s, ~5 GB/s reduction); COLIBRI_COST_MODEL=
 * "alpha,beta,gamma" (seconds, seconds/byte, seconds/byte) overrides. */
static struct cost_params model_params(void)
{
    static struct cost_params m;
    static int init;
    if (!init) {
        m.alpha = 1.5e-6;
        m.beta = 1.0e-10;
        m.gamma = 2.0e-10;
        const char *v = getenv("COLIBRI_COST_MODEL");
        if (v)
            sscanf(v, "%lf,%lf,%lf", &m.alpha, &m.beta, &m.gamma);
        init = 1;
    }
    return m;
}

const struct algorithm *select_auto(colibri_coll coll, const struct sched_params *p)
{
    struct cost_params m = model_params();
    const struct algorithm *best = NULL;
    double best_t = 0;
    for (int i = 0; i < catalog_count; i++) {
        const struct algorithm *a = &catalog[i];
        if (a->coll != coll || catalog_violation(a, p))
            continue;
        double t = a->cost(p, &m);
        if (!best || t < best_t) {
            best = a;
            best_t = t;
        }
    }
    return best;
}

int select_algorithm(colibri_coll coll, const struct sched_params *p, const char *requested,
                     const struct algorithm **alg, char *msg, size_t len)
{
    const char *name = requested ? requested : getenv(env_names[coll]);
    *alg = NULL;
    if (!name || !*name || strcmp(name, "auto") == 0) {
        *alg = select_auto(coll, p);
        return MPI_SUCCESS;
    }
    if (strcmp(name, "native") == 0)
        return MPI_SUCCESS;

    const struct algorithm *a = catalog_find(coll, name);
    if (!a) {
        char names[512];
        snprintf(msg, len, "unknown %s algorithm '%s' (valid: %s, auto, native)",
                 colibri_coll_name(coll), name, catalog_names(coll, names, sizeof names));
        return MPI_ERR_ARG;
    }
    const char *why = catalog_violation(a, p);
    if (!why) {
        *alg = a;
        return MPI_SUCCESS;
    }
    enum fallback f = fallback_mode();
    if (f == FALLBACK_ERROR) {
        snprintf(msg, len, "%s algorithm '%s' %s (COLIBRI_FALLBACK=warn lets colibri choose instead)",
                 colibri_coll_name(coll), name, why);
        return MPI_ERR_ARG;
    }
    *alg = select_auto(coll, p);
    if (f == FALLBACK_WARN && p->rank == 0)
        fprintf(stderr, "colibri: warning: %s algorithm '%s' %s; using '%s'\n",
                colibri_coll_name(coll), name, why, *alg ? (*alg)->name : "native");
    return MPI_SUCCESS;
}
