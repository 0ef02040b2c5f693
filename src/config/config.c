/* Reads the COLIBRI_* variables that every call consults (see config.h). */
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct config config_current;
int config_loaded;

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
        env_string(algorithm_vars[c], config_current.algorithm[c],
                   sizeof config_current.algorithm[c]);
    const char *f = getenv("COLIBRI_FALLBACK");
    config_current.fallback = f && strcmp(f, "warn") == 0     ? FALLBACK_WARN
                              : f && strcmp(f, "silent") == 0 ? FALLBACK_SILENT
                                                              : FALLBACK_ERROR;
    config_current.radix = env_long("COLIBRI_RADIX");
    config_current.segment_bytes = env_long("COLIBRI_SEGMENT_BYTES");
    const char *setup = getenv("COLIBRI_SETUP");
    config_current.setup_eager = setup && strcmp(setup, "eager") == 0;
    const char *cache = getenv("COLIBRI_CACHE_BYTES");
    config_current.cache_bytes = cache && *cache ? strtoll(cache, NULL, 10) : 8ll << 20;
    const char *shm = getenv("COLIBRI_NODE_SHM_BYTES");
    config_current.node_shm_bytes = shm && *shm ? strtoll(shm, NULL, 10) : 8ll << 20;
    const char *chunk = getenv("COLIBRI_NODE_CHUNK_BYTES");
    config_current.node_chunk_bytes = chunk && *chunk ? strtoll(chunk, NULL, 10) : 0;
    config_current.stats = env_flag("COLIBRI_STATS");
    config_current.progress_thread = env_flag("COLIBRI_PROGRESS_THREAD");
    const char *hook = getenv("COLIBRI_PROGRESS_HOOK");
    config_current.progress_hook = !(hook && strcmp(hook, "0") == 0);
    env_string("COLIBRI_COST_MODEL", config_current.cost_model, sizeof config_current.cost_model);
    const char *online = getenv("COLIBRI_ONLINE");
    config_current.online = !(online && strcmp(online, "0") == 0);
    config_current.online_calls = (long)env_positive("COLIBRI_ONLINE_CALLS", 5);
    config_current.online_calls_set = getenv("COLIBRI_ONLINE_CALLS") != NULL;
    config_current.online_window = (long)env_positive("COLIBRI_ONLINE_WINDOW", 1024);
    config_current.online_trace = (int)env_long("COLIBRI_ONLINE_TRACE");
    env_string("COLIBRI_ONLINE_FAKE", config_current.online_fake,
               sizeof config_current.online_fake);
    /* the tests' hook may set the plan too (one variable per test run):
     * items calls=N and window=N, where the variables above are unset */
    const char *item;
    if (!getenv("COLIBRI_ONLINE_CALLS") &&
        (item = strstr(config_current.online_fake, "calls="))) {
        config_current.online_calls = strtol(item + 6, NULL, 10);
        config_current.online_calls_set = true;
    }
    if (!getenv("COLIBRI_ONLINE_WINDOW") && (item = strstr(config_current.online_fake, "window=")))
        config_current.online_window = strtol(item + 7, NULL, 10);
    config_current.shm_bandwidth = env_positive("COLIBRI_SHM_BANDWIDTH", 1e10);
    config_current.shm_gamma = env_positive("COLIBRI_SHM_GAMMA", 5e-11);
    /* COLIBRI_TUNING names the file; set to "" or "none" it turns the
     * site's default off; unset, the site's default is used if present. */
    site_tuning(config_current.tuning_default, sizeof config_current.tuning_default);
    const char *tuning = getenv("COLIBRI_TUNING");
    config_current.tuning_source = "COLIBRI_TUNING";
    if (!tuning) {
        tuning = access(config_current.tuning_default, R_OK) == 0 ? config_current.tuning_default
                                                                   : "";
        config_current.tuning_source = "the site's default";
    }
    snprintf(config_current.tuning, sizeof config_current.tuning, "%s",
             strcmp(tuning, "none") == 0 ? "" : tuning);
    config_current.generation++;
    config_loaded = 1;
}

void config_load(void)
{
    colibri_config_reload();
}
