/* colibri-info: prints the catalog, one line per algorithm:
 *   <collective> <algorithm> [restrictions...]
 * then the nonblocking collectives ("iallreduce", ...; their persistent
 * forms run the same algorithms) with the algorithms that serve them.
 * With -v, the algorithm's alpha-beta-gamma cost follows after a '#'. */
#include <stdio.h>
#include <string.h>

#include "colibri.h"

int main(int argc, char **argv)
{
    int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    for (int nonblocking = 0; nonblocking < 2; nonblocking++)
        for (int i = 0; i < colibri_catalog_size(); i++) {
            colibri_algorithm_info info;
            colibri_catalog_get(i, &info);
            if (nonblocking && !info.nonblocking)
                continue;
            printf("%s%s %s%s%s", nonblocking ? "i" : "", info.collective, info.name,
                   *info.restrictions ? " " : "", info.restrictions);
            if (verbose)
                printf("  # %s", info.cost);
            printf("\n");
        }
    return 0;
}
