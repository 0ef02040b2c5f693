/*
 * The MPI tests' list of what to force for a collective: every algorithm
 * the catalog has for it (with `nonblocking`, only those that serve
 * nonblocking calls and need no neutral element, as the nonblocking tests
 * run them on any data), then auto (NULL) and "native".  Include after
 * colibri.h.
 */
#ifndef COLIBRI_TEST_ALGORITHMS_H
#define COLIBRI_TEST_ALGORITHMS_H

#include <stdbool.h>
#include <string.h>

/* Fills names[0..max) and returns how many it wrote. */
static inline int test_algorithms(colibri_coll coll, bool nonblocking, const char **names,
                                  int max)
{
    int n = 0;
    for (int i = 0; i < colibri_catalog_size() && n < max - 2; i++) {
        colibri_algorithm_info info;
        colibri_catalog_get(i, &info);
        if (info.coll == coll &&
            (!nonblocking || (info.nonblocking && !strstr(info.restrictions, "neutral"))))
            names[n++] = info.name;
    }
    names[n++] = NULL; /* auto */
    names[n++] = "native";
    return n;
}

/* Whether the catalog's restrictions let `name` run on p ranks at all
 * (power-of-two, even-p): a forced call on other p is refused with
 * MPI_ERR_ARG, never run as another algorithm.  auto and native: always. */
static inline bool test_algorithm_fits(colibri_coll coll, const char *name, int p)
{
    for (int i = 0; name && i < colibri_catalog_size(); i++) {
        colibri_algorithm_info info;
        colibri_catalog_get(i, &info);
        if (info.coll != coll || strcmp(info.name, name) != 0)
            continue;
        return !(strstr(info.restrictions, "even-p") && p % 2) &&
               !(strstr(info.restrictions, "power-of-two") && (p & (p - 1)));
    }
    return true;
}

/* test_algorithms without those that cannot run on p ranks. */
static inline int test_algorithms_for(colibri_coll coll, bool nonblocking, int p,
                                      const char **names, int max)
{
    const int n = test_algorithms(coll, nonblocking, names, max);
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (test_algorithm_fits(coll, names[i], p))
            names[kept++] = names[i];
    return kept;
}

#endif
