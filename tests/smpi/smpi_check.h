/* Shared by the SMPI test programs: one check agreed over MPI_COMM_WORLD,
 * counted by ../lib/check.h (include it first, after CHECK_MAX_LINES);
 * rank 0 prints what failed. */
#ifndef SMPI_CHECK_H
#define SMPI_CHECK_H

#include <mpi.h>
#include <stdio.h>

static inline void smpi_report(int ok, const char *what)
{
    int all = 0, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* the verdict's own agreement below colibri: through colibri, online
     * selection would explore on it (and map MPI_COMM_WORLD's node segment
     * for a node-aware candidate) in the middle of what a check counts */
    PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (check_count(all) && rank == 0)
        printf("FAIL %s (p=%d)\n", what, size);
}

#endif
