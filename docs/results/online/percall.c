/* per-call cost: percall COLL BYTES [ITERS] [REPS]; COLL: allreduce reduce alltoall alltoallv
 * prints min-over-reps of mean us per call (max over ranks), after a warm-up of 20000 calls */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const char *coll = argv[1];
    int bytes = atoi(argv[2]), iters = argc > 3 ? atoi(argv[3]) : 20000, reps = argc > 4 ? atoi(argv[4]) : 7;
    char *s = calloc((size_t)(bytes + 8) * p, 1), *r = calloc((size_t)(bytes + 8) * p, 1);
    int *cnt = malloc(p * sizeof *cnt), *dis = malloc(p * sizeof *dis);
    for (int j = 0; j < p; j++) cnt[j] = bytes, dis[j] = j * bytes;
    int n = bytes / 8;
    double best = 1e9;
    for (int rep = -1; rep < reps; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (!strcmp(coll, "allreduce")) MPI_Allreduce(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            else if (!strcmp(coll, "reduce")) MPI_Reduce(s, r, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            else if (!strcmp(coll, "alltoall")) MPI_Alltoall(s, bytes, MPI_BYTE, r, bytes, MPI_BYTE, MPI_COMM_WORLD);
            else MPI_Alltoallv(s, cnt, dis, MPI_BYTE, r, cnt, dis, MPI_BYTE, MPI_COMM_WORLD);
        }
        double t = (MPI_Wtime() - t0) / iters * 1e6, m;
        MPI_Allreduce(&t, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (rep >= 0 && m < best) best = m;
    }
    if (!rank) printf("%s %d %.3f\n", coll, bytes, best);
    MPI_Finalize();
    return 0;
}
