/*
 * A plain MPI program that never calls a collective colibri replaces (no
 * reduction, all-to-all, allgather(v), bcast, barrier, gather(v),
 * scatter(v), scan or exscan): preloading colibri must change nothing for it (and
 * COLIBRI_STATS must report no call).  It passes a token around a ring,
 * gathers to the last rank by MPI_Alltoallw (one int from every rank,
 * nothing anywhere else), forms a prefix sum along a chain of point-to-point
 * messages (colibri serves MPI_Scan), and duplicates and frees a
 * communicator; a wrong value makes the exit status nonzero.
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, errors = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int token = rank, got = -1;
    MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    errors += got != (rank + size - 1) % size;

    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int all[64] = {0}, mine = rank * 3, prefix = -1;
    if (size <= 64) {
        int sc[64] = {0}, rc[64] = {0}, sd[64] = {0}, rd[64];
        MPI_Datatype t[64];
        sc[size - 1] = 1;
        for (int r = 0; r < size; r++)
            rc[r] = rank == size - 1, rd[r] = r * (int)sizeof(int), t[r] = MPI_INT;
        MPI_Alltoallw(&mine, sc, sd, t, all, rc, rd, t, dup);
        for (int r = 0; rank == size - 1 && r < size; r++)
            errors += all[r] != r * 3;
    }
    prefix = mine;
    if (rank > 0) {
        int below = 0;
        MPI_Recv(&below, 1, MPI_INT, rank - 1, 1, dup, MPI_STATUS_IGNORE);
        prefix += below;
    }
    if (rank < size - 1)
        MPI_Send(&prefix, 1, MPI_INT, rank + 1, 1, dup);
    errors += prefix != 3 * rank * (rank + 1) / 2;
    MPI_Comm_free(&dup);

    if (errors)
        fprintf(stderr, "rank %d: %d wrong values\n", rank, errors);
    MPI_Finalize();
    return errors != 0;
}
