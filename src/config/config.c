/* Reads the COLIBRI_* variables that every call consults (see config.h). */
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct config cfg;
static int loaded;

static const char *const algorithm_vars[COLIBRI_NCOLL] = {
    "COLIBRI_ALLREDUCE_ALGORITHM", "COLIBRI_REDUCE_ALGORITHM", "COLIBRI_REDUCE_SCATTER_ALGORITHM",
    "COLIBRI_REDUCE_SCATTER_BLOCK_ALGORITHM", "COLIBRI_ALLTOALL_ALGORITHM",
    "COLIBRI_ALLTOALLV_ALGORITHM", "COLIBRI_ALLGATHER_ALGORITHM", "COLIBRI_BCAST_ALGORITHM",
    "COLIBRI_BARRIER_ALGORITHM", "COLIBRI_ALLGATHERV_ALGORITHM",
    "COLIBRI_GATHER_ALGORITHM", "COLIBRI_GATHERV_ALGORITHM", "COLIBRI_SCATTER_ALGORITHM",
    "COLIBRI_SCATTERV_ALGORITHM",
    [COLIBRI_SCAN] = "COLIBRI_SCAN_ALGORITHM", [COLIBRI_EXSCAN] = "COLIBRI_EXSCAN_ALGORITHM"};

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

/* The site's tuning file: etc/colibri/tuning under the prefix of the
 * library's own folder ($PREFIX/lib/libcolibri.so: $PREFIX/etc/colibri/tuning,
 * where `make install` makes room for it), so that a relocated install
 * finds its own; "" when the library cannot tell where it was loaded from. */
static void site_tuning(char *out, size_t len)
{
    Dl_info info;
    out[0] = '\0';
    if (!dladdr((void *)site_tuning, &info) || !info.dli_fname)
        return;
    char dir[4096];
    if (!realpath(info.dli_fname, dir)) /* build/bin/../lib/...: the real folders */
        snprintf(dir, sizeof dir, "%s", info.dli_fname);
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            return;
        *slash = '\0';
    }
    snprintf(out, len, "%s/etc/colibri/tuning", *dir ? dir : "");
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
    const char *shm = getenv("COLIBRI_NODE_SHM_BYTES");
    cfg.node_shm_bytes = shm && *shm ? strtoll(shm, NULL, 10) : 8ll << 20;
    const char *chunk = getenv("COLIBRI_NODE_CHUNK_BYTES");
    cfg.node_chunk_bytes = chunk && *chunk ? strtoll(chunk, NULL, 10) : 0;
    cfg.stats = env_flag("COLIBRI_STATS");
    cfg.progress_thread = env_flag("COLIBRI_PROGRESS_THREAD");
    const char *hook = getenv("COLIBRI_PROGRESS_HOOK");
    cfg.progress_hook = !(hook && strcmp(hook, "0") == 0);
    env_string("COLIBRI_COST_MODEL", cfg.cost_model, sizeof cfg.cost_model);
    const char *online = getenv("COLIBRI_ONLINE");
    cfg.online = !(online && strcmp(online, "0") == 0);
    cfg.online_calls = (long)env_positive("COLIBRI_ONLINE_CALLS", 5);
    cfg.online_calls_set = getenv("COLIBRI_ONLINE_CALLS") != NULL;
    cfg.online_window = (long)env_positive("COLIBRI_ONLINE_WINDOW", 1024);
    cfg.online_trace = (int)env_long("COLIBRI_ONLINE_TRACE");
    env_string("COLIBRI_ONLINE_FAKE", cfg.online_fake, sizeof cfg.online_fake);
    /* the tests' hook may set the plan too (one variable per test run):
     * items calls=N and window=N, where the variables above are unset */
    const char *item;
    if (!getenv("COLIBRI_ONLINE_CALLS") && (item = strstr(cfg.online_fake, "calls="))) {
        cfg.online_calls = strtol(item + 6, NULL, 10);
        cfg.online_calls_set = true;
    }
    if (!getenv("COLIBRI_ONLINE_WINDOW") && (item = strstr(cfg.online_fake, "window=")))
        cfg.online_window = strtol(item + 7, NULL, 10);
    cfg.shm_bandwidth = env_positive("COLIBRI_SHM_BANDWIDTH", 1e10);
    cfg.shm_gamma = env_positive("COLIBRI_SHM_GAMMA", 5e-11);
    /* COLIBRI_TUNING names the file; set to "" or "none" it turns the
     * site's default off; unset, the site's default is used if present. */
    site_tuning(cfg.tuning_default, sizeof cfg.tuning_default);
    const char *tuning = getenv("COLIBRI_TUNING");
    cfg.tuning_source = "COLIBRI_TUNING";
    if (!tuning) {
        tuning = access(cfg.tuning_default, R_OK) == 0 ? cfg.tuning_default : "";
        cfg.tuning_source = "the site's default";
    }
    snprintf(cfg.tuning, sizeof cfg.tuning, "%s", strcmp(tuning, "none") == 0 ? "" : tuning);
    cfg.generation++;
    loaded = 1;
}

const struct config *config_get(void)
{
    if (!loaded)
        colibri_config_reload();
    return &cfg;
}
