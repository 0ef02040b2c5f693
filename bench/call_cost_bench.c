/*
 * call-cost-bench: the cost of one short MPI_Allreduce against one
 * MPI_Iallreduce + MPI_Wait, in one run, side by side.  It links no colibri:
 * run it plain for the MPI below, with LD_PRELOAD=libcolibri.so for
 * colibri, as an application would.
 *
 *   call-cost-bench [-n doubles] [-i iterations] [-R repetitions] [-m both|blocking|nonblocking]
 *
 * Each repetition times `iterations` calls of each form in turn (blocking,
 * then nonblocking), and the fastest repetition of each form counts (the
 * machine is shared).  Prints, on rank 0, the mean microseconds per call
 * (the largest over ranks) and the ratio nonblocking / blocking.  With one
 * rank it measures the software path alone; under callgrind it gives
 * instructions per call (bench/scripts/bench_call_cost.sh).  Timing never judges
 * anything here.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n = 1, iters = 20000, reps = 10, opt;
    const char *mode = "both";
    while ((opt = getopt(argc, argv, "n:i:R:m:")) != -1) {
        switch (opt) {
        case 'n': n = atoi(optarg); break;
        case 'i': iters = atoi(optarg); break;
        case 'R': reps = atoi(optarg); break;
        case 'm': mode = optarg; break;
        default:
            fprintf(stderr, "usage: call-cost-bench [-n doubles] [-i iterations] [-R repetitions] "
                            "[-m both|blocking|nonblocking]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    const int run[2] = {strcmp(mode, "nonblocking") != 0, strcmp(mode, "blocking") != 0};
    /* dense data: zeros would let the blocking call go sparse */
    double *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
    for (int i = 0; i < n; i++)
        in[i] = 1.0 + i % 7;
    double best[2] = {-1, -1};
    for (int rep = 0; rep < reps; rep++) {
        for (int form = 0; form < 2; form++) {
            if (!run[form])
                continue;
            MPI_Barrier(MPI_COMM_WORLD);
            double t = MPI_Wtime();
            for (int i = 0; i < iters; i++) {
                if (form == 0) {
                    MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                } else {
                    MPI_Request r;
                    MPI_Iallreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
                    MPI_Wait(&r, MPI_STATUS_IGNORE);
                }
            }
            t = (MPI_Wtime() - t) / iters * 1e6;
            MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (best[form] < 0 || t < best[form])
                best[form] = t;
        }
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        printf("ranks=%d bytes=%zu blocking_us=%.3f nonblocking_us=%.3f", size,
               (size_t)n * sizeof(double), best[0], best[1]);
        if (run[0] && run[1])
            printf(" ratio=%.3f", best[1] / best[0]);
        printf("\n");
    }
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
