/* colibri-info: prints the catalog, one line per algorithm:
 *   <collective> <algorithm> [restrictions...]
 * With -v, the algorithm's alpha-beta-gamma cost follows after a '#'. */
#include <stdio.h>
#include <string.h>

#include "colibri.h"

int main(int argc, char **argv)
{
    int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
    for (int i = 0; i < colibri_catalog_size(); i++) {
        colibri_algorithm_info info;
        colibri_catalog_get(i, &info);
        printf("%s %s%s%s", info.collective, info.name, *info.restrictions ? " " : "",
               info.restrictions);
        if (verbose)
            printf("  # %s", info.cost);
        printf("\n");
    }
    return 0;
}
