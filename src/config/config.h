/*
 * colibri's environment settings, read once (on the first call, or again on
 * colibri_config_reload()) like an MPI library's tuning variables: getenv on
 * every call was a quarter of a short allreduce's instructions.  This is the
 * only place that reads a COLIBRI_* variable; what is derived from one
 * (the parsed cost model and tuning rules of select.c) is derived again when
 * `generation` changes.
 */
#ifndef COLIBRI_CONFIG_H
#define COLIBRI_CONFIG_H

#include <stdbool.h>

#include "colibri.h"

enum fallback { FALLBACK_ERROR, FALLBACK_WARN, FALLBACK_SILENT };

struct config {
    char algorithm[COLIBRI_NCOLL][64]; /* COLIBRI_<COLL>_ALGORITHM, "" when unset */
    enum fallback fallback;            /* COLIBRI_FALLBACK */
    long radix;                        /* COLIBRI_RADIX */
    long segment_bytes;                /* COLIBRI_SEGMENT_BYTES */
    bool setup_eager;                  /* COLIBRI_SETUP=eager (default lazy) */
    long long cache_bytes;             /* COLIBRI_CACHE_BYTES (default 8 MiB) */
    long long node_shm_bytes;          /* COLIBRI_NODE_SHM_BYTES (default 8 MiB): data area of
                                        * a communicator's node reduction segment */
    long long node_chunk_bytes;        /* COLIBRI_NODE_CHUNK_BYTES (0, default: from this
                                        * machine's second-level cache) */
    bool stats;                        /* COLIBRI_STATS set, not "0" */
    bool progress_thread;              /* COLIBRI_PROGRESS_THREAD set, not "0" */
    bool progress_hook;                /* COLIBRI_PROGRESS_HOOK not "0": hook into the MPI's progress */
    char cost_model[256];              /* COLIBRI_COST_MODEL, "" when unset */
    char tuning[4096];                 /* the tuning file in force, "" for none */
    const char *tuning_source;         /* "COLIBRI_TUNING" or "the site's default" */
    char tuning_default[4096];         /* the site's default's path (config.c) */
    /* SMPI builds only (runtime/shm_charge.h): what a shared-segment copy
     * and reduction cost in simulated time. */
    double shm_bandwidth;              /* COLIBRI_SHM_BANDWIDTH, bytes/s (default 1e10) */
    double shm_gamma;                  /* COLIBRI_SHM_GAMMA, s/byte (default 5e-11) */
    /* Online selection (select/online.h, docs/tuning.md): */
    bool online;                       /* COLIBRI_ONLINE not "0" (default on) */
    long online_calls;                 /* COLIBRI_ONLINE_CALLS: calls per candidate (default 5) */
    bool online_calls_set;             /* ...given (then for long shapes too) */
    long online_window;                /* COLIBRI_ONLINE_WINDOW: settled calls before the first
                                        * re-check (default 64) */
    int online_trace;                  /* COLIBRI_ONLINE_TRACE: 1 decisions, 2 also times */
    char online_fake[256];             /* COLIBRI_ONLINE_FAKE: the tests' timings ("" real) */
    unsigned generation;               /* counts reloads, from 1 */
};

/* What the library uses, not a symbol for its users: calls from another
 * of its files go straight to it, not through the procedure linkage
 * table, and its data is reached without the global offset table (the
 * settled path of a memoised call, runtime/native.h, is made of such
 * calls and reads). */
#define COLIBRI_HIDDEN __attribute__((visibility("hidden")))

/* The configuration: config_get reads it, loading it at the first call
 * (config_load, as colibri_config_reload); inline, since every call reads
 * it (before: a call through the procedure linkage table at every memoised call). */
extern struct config config_current COLIBRI_HIDDEN;
extern int config_loaded COLIBRI_HIDDEN;
void config_load(void) COLIBRI_HIDDEN;
static inline const struct config *config_get(void)
{
    if (__builtin_expect(!config_loaded, 0))
        config_load();
    return &config_current;
}

#endif
