/* colibri-info: prints the catalog, one line per algorithm:
 *   <collective> <algorithm> [restrictions...]
 * then the nonblocking collectives ("iallreduce", ...; their persistent
 * forms run the same algorithms) with the algorithms that serve them.
 * With -v, the algorithm's alpha-beta-gamma cost follows after a '#'.
 * Last, lines starting "# " say which tuning file and which cost-model
 * parameters automatic selection uses here (colibri_tuning_describe);
 * colibri-info --tuning prints only those.  The very last lines, "# built
 * for: ..." and "# runs on: ...", say which MPI (and whether the MPI-5
 * standard ABI) the library was compiled for and which MPI library it runs
 * on (colibri_mpi_describe); colibri-info --mpi prints only those.
 *
 * colibri-info --markdown [collective...]: the catalog of those collectives
 * (all when none are named) as one markdown table, in catalog order; the
 * tables of docs/algorithms.md are this output (tests/docs/algorithms.sh
 * checks them and, with --update, rewrites them).  The cost is the formula
 * each algorithm file defines (COST_FORMULA), as -v prints it. */
#include <stdio.h>
#include <string.h>

#include "colibri.h"

/* `s` as the text of a markdown table cell: '|' would end the cell. */
static void print_cell(const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            putchar('\\');
        putchar(*s);
    }
}

static int markdown(int ncoll, char **colls)
{
    for (int c = 0; c < ncoll; c++) {
        int known = 0;
        for (int i = 0; i < colibri_catalog_size() && !known; i++) {
            colibri_algorithm_info info;
            colibri_catalog_get(i, &info);
            known = strcmp(info.collective, colls[c]) == 0;
        }
        if (!known) {
            fprintf(stderr, "colibri-info: no collective '%s' in the catalog\n", colls[c]);
            return 2;
        }
    }
    printf("| collective | algorithm | restrictions | cost |\n|---|---|---|---|\n");
    for (int i = 0; i < colibri_catalog_size(); i++) {
        colibri_algorithm_info info;
        colibri_catalog_get(i, &info);
        int wanted = ncoll == 0;
        for (int c = 0; c < ncoll && !wanted; c++)
            wanted = strcmp(info.collective, colls[c]) == 0;
        if (!wanted)
            continue;
        printf("| %s | `%s` | %s | ", info.collective, info.name, info.restrictions);
        print_cell(info.cost);
        printf(" |\n");
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--markdown") == 0)
        return markdown(argc - 2, argv + 2);
    char tuning[2048];
    colibri_tuning_describe(tuning, sizeof tuning);
    if (argc > 1 && strcmp(argv[1], "--tuning") == 0) {
        fputs(tuning, stdout);
        return 0;
    }
    char mpi[1024];
    colibri_mpi_describe(mpi, sizeof mpi);
    if (argc > 1 && strcmp(argv[1], "--mpi") == 0) {
        fputs(mpi, stdout);
        return 0;
    }
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
    for (const char *line = strtok(tuning, "\n"); line; line = strtok(NULL, "\n"))
        printf("# %s\n", line);
    for (const char *line = strtok(mpi, "\n"); line; line = strtok(NULL, "\n"))
        printf("# %s\n", line);
    return 0;
}
