/*
 * Reading one "<key>: <n> kB" line of a /proc file (Linux), for tests that
 * size themselves to the machine or watch their own memory.
 */
#ifndef COLIBRI_TEST_PROC_H
#define COLIBRI_TEST_PROC_H

#include <stdio.h>
#include <string.h>

/* Bytes of the "<key>: <n> kB" line of `path`, or -1024 when absent. */
static inline long long proc_kb_field(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    char line[256];
    long long kb = -1;
    const size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':' && sscanf(line + n + 1, "%lld", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb * 1024;
}

#endif
