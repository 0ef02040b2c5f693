/*
 * Runs alltoall and alltoallv algorithms (every catalog one by default, or
 * those named) under SimGrid SMPI and checks every rank's receive buffer
 * against the serial expectation computed here (every byte says which rank
 * sent it to whom), never against the MPI below.  Count patterns: uniform,
 * skewed (rank 0 sends far more), zero, empty ranks (some ranks send or
 * receive nothing), random; blocks in reverse order with gaps; in place.
 * Node-aware algorithms see the placement the hostfile gives (several
 * ranks per host); run it under several.
 *
 *   check_exchange [name ...]      ("auto": automatic alltoallv too)
 *
 * CHECK_PATTERNS=uniform,skewed limits the alltoallv count patterns and
 * CHECK_IN_PLACE=0 leaves out in place (for the 1000-rank runs, which take
 * seconds per call).
 *
 * Prints "N passed, N failed" (rank 0); exits non-zero on any failure.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"
#include "smpi_errors.h"

#define CHECK_MAX_LINES -1 /* every failure printed (by rank 0) */
#include "../lib/check.h"
#include "smpi_check.h"

static int rank, size;

enum pattern { UNIFORM, SKEWED, ZERO, EMPTY_RANKS, RANDOM, NPATTERNS };
static const char *const pattern_names[] = {"uniform", "skewed", "zero", "empty-ranks", "random"};

static MPI_Count count_of(enum pattern pat, int i, int j)
{
    switch (pat) {
    case UNIFORM: return 3;
    case SKEWED: return i == 0 ? 300 + j : (i + j) % 3;
    case ZERO: return 0;
    case EMPTY_RANKS: return i % 3 == 1 || j % 4 == 2 ? 0 : 1 + (i * 7 + j) % 5;
    default: return (MPI_Count)((unsigned)(i * 2654435761u + j * 40503u) >> 9) % 37;
    }
}

static unsigned char byte_of(int src, int dst, MPI_Count t)
{
    return (unsigned char)(src * 131 + dst * 31 + t * 7 + 1);
}

/* Both sides laid out in reverse rank order with 2-byte gaps. */
static MPI_Count layout(MPI_Count *cnt, MPI_Aint *dsp)
{
    MPI_Count off = 0;
    for (int j = size - 1; j >= 0; j--) {
        dsp[j] = (MPI_Aint)off;
        off += cnt[j] + 2;
    }
    return off;
}

static void report(int ok, const char *coll, const char *alg, const char *what)
{
    char line[256];
    snprintf(line, sizeof line, "%s %s %s", coll, alg, what);
    smpi_report(ok, line);
}

static void check_v(const char *alg, enum pattern pat, int in_place)
{
    MPI_Count *sc = malloc(4 * (size_t)size * sizeof *sc), *rc = sc + size;
    MPI_Aint *sd = malloc(2 * (size_t)size * sizeof *sd), *rd = sd + size;
    for (int j = 0; j < size; j++) {
        /* In place needs symmetric counts: the upper triangle both ways. */
        int a = in_place && rank > j ? j : rank, b = in_place && rank > j ? rank : j;
        sc[j] = count_of(pat, a, b);
        a = in_place && j > rank ? rank : j, b = in_place && j > rank ? j : rank;
        rc[j] = count_of(pat, a, b);
    }
    MPI_Count slen = layout(sc, sd), rlen = layout(rc, rd);
    unsigned char *sb = malloc((size_t)slen + 1), *rb = malloc((size_t)rlen + 1);
    memset(sb, 0xEE, (size_t)slen + 1);
    memset(rb, 0xEE, (size_t)rlen + 1);
    unsigned char *src = in_place ? rb : sb;
    const MPI_Aint *srcd = in_place ? rd : sd;
    for (int j = 0; j < size; j++)
        for (MPI_Count t = 0; t < sc[j]; t++)
            src[srcd[j] + t] = byte_of(rank, j, t);
    int err = colibri_alltoallv(in_place ? MPI_IN_PLACE : sb, sc, sd, MPI_BYTE, rb, rc, rd,
                                MPI_BYTE, MPI_COMM_WORLD, alg);
    int ok = err == MPI_SUCCESS;
    for (int j = 0; ok && j < size; j++)
        for (MPI_Count t = 0; t < rc[j]; t++)
            ok &= rb[rd[j] + t] == byte_of(j, rank, t);
    for (int j = 0; ok && j < size; j++) /* gaps untouched */
        ok &= rb[rd[j] + rc[j]] == 0xEE && rb[rd[j] + rc[j] + 1] == 0xEE;
    char what[96];
    snprintf(what, sizeof what, "%s%s", pattern_names[pat], in_place ? " in-place" : "");
    report(ok, "alltoallv", alg, what);
    free(sb), free(rb), free(sc), free(sd);
}

static void check_a(const char *alg, MPI_Count block, int in_place)
{
    size_t n = (size_t)block * (size_t)size;
    unsigned char *sb = malloc(n + 1), *rb = malloc(n + 1);
    unsigned char *src = in_place ? rb : sb;
    for (int j = 0; j < size; j++)
        for (MPI_Count t = 0; t < block; t++)
            src[j * block + t] = byte_of(rank, j, t);
    int err = colibri_alltoall(in_place ? MPI_IN_PLACE : sb, block, MPI_BYTE, rb, block, MPI_BYTE,
                               MPI_COMM_WORLD, alg);
    int ok = err == MPI_SUCCESS;
    for (int j = 0; ok && j < size; j++)
        for (MPI_Count t = 0; t < block; t++)
            ok &= rb[j * block + t] == byte_of(j, rank, t);
    char what[64];
    snprintf(what, sizeof what, "block=%lld%s", (long long)block, in_place ? " in-place" : "");
    report(ok, "alltoall", alg, what);
    free(sb), free(rb);
}

static bool pattern_wanted(enum pattern pat)
{
    const char *only = getenv("CHECK_PATTERNS");
    if (!only || !*only)
        return true;
    size_t n = strlen(pattern_names[pat]);
    for (const char *p = only; (p = strstr(p, pattern_names[pat])); p += n)
        if ((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

static void run(colibri_coll coll, const char *alg)
{
    const char *ip_env = getenv("CHECK_IN_PLACE");
    for (int ip = 0; ip < (ip_env && strcmp(ip_env, "0") == 0 ? 1 : 2); ip++) {
        if (coll == COLIBRI_ALLTOALLV) {
            for (int pat = 0; pat < NPATTERNS; pat++)
                if (pattern_wanted((enum pattern)pat))
                    check_v(alg, pat, ip);
        } else {
            for (MPI_Count b = 0; b < 12; b += 5)
                check_a(alg, b, ip);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return_errors(MPI_COMM_WORLD);
    for (int a = 1; a < argc; a++)
        if (strcmp(argv[a], "auto") == 0)
            run(COLIBRI_ALLTOALLV, "auto");
    colibri_algorithm_info info;
    for (int i = 0; colibri_catalog_get(i, &info) == 0; i++) {
        if (info.coll != COLIBRI_ALLTOALL && info.coll != COLIBRI_ALLTOALLV)
            continue;
        int wanted = argc == 1;
        for (int a = 1; a < argc; a++)
            wanted |= strcmp(argv[a], info.name) == 0;
        if (wanted)
            run(info.coll, info.name);
    }
    if (rank == 0) {
        printf("p=%d: ", size);
        check_print_totals(check_passed, check_failed);
    }
    MPI_Finalize();
    return check_failed != 0;
}
