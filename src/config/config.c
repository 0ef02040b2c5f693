/* Reads the COLIBRI_* variables that every call consults (see config.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct config cfg;
static int loaded;

static const char *const algorithm_vars[COLIBRI_NCOLL] = {
    "COLIBRI_ALLREDUCE_ALGORITHM", "COLIBRI_REDUCE_ALGORITHM", "COLIBRI_REDUCE_SCATTER_ALGORITHM",
    "COLIBRI_REDUCE_SCATTER_BLOCK_ALGORITHM", "COLIBRI_ALLTOALL_ALGORITHM",
    "COLIBRI_ALLTOALLV_ALGORITHM"};

static bool env_flag(const char *name)
{
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static void env_string(const char *name, char *out, size_t len)
{
    const char *v = getenv(name);
    snprintf(out, len, "%s", v ? v : "");
}

static long env_long(const char *name)
{
    const char *v = getenv(name);
    return v ? strtol(v, NULL, 10) : 0;
}

/* A positive number, or `def` when unset or not one. */
static double env_positive(const char *name, double def)
{
    const char *v = getenv(name);
    const double x = v ? strtod(v, NULL) : 0.0;
    return x > 0.0 ? x : def;
}

void colibri_config_reload(void)
{
    for (int c = 0; c < COLIBRI_NCOLL; c++)
        env_string(algorithm_vars[c], cfg.algorithm[c], sizeof cfg.algorithm[c]);
    const char *f = getenv("COLIBRI_FALLBACK");
    cfg.fallback = f && strcmp(f, "warn") == 0     ? FALLBACK_WARN
                   : f && strcmp(f, "silent") == 0 ? FALLBACK_SILENT
                                                   : FALLBACK_ERROR;
    cfg.radix = env_long("COLIBRI_RADIX");
    cfg.segment_bytes = env_long("COLIBRI_SEGMENT_BYTES");
    const char *setup = getenv("COLIBRI_SETUP");
    cfg.setup_eager = setup && strcmp(setup, "eager") == 0;
    const char *cache = getenv("COLIBRI_CACHE_BYTES");
    cfg.cache_bytes = cache && *cache ? strtoll(cache, NULL, 10) : 8ll << 20;
    cfg.stats = env_flag("COLIBRI_STATS");
    cfg.progress_thread = env_flag("COLIBRI_PROGRESS_THREAD");
    env_string("COLIBRI_COST_MODEL", cfg.cost_model, sizeof cfg.cost_model);
    env_string("COLIBRI_TUNING", cfg.tuning, sizeof cfg.tuning);
    cfg.shm_bandwidth = env_positive("COLIBRI_SHM_BANDWIDTH", 1e10);
    cfg.shm_gamma = env_positive("COLIBRI_SHM_GAMMA", 5e-11);
    cfg.generation++;
    loaded = 1;
}

const struct config *config_get(void)
{
    if (!loaded)
        colibri_config_reload();
    return &cfg;
}
