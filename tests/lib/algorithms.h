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

#endif
