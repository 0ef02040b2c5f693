/*
 * Setup cost (docs/setup.md): create N communicators (alternately a dup of
 * MPI_COMM_WORLD and a split into halves) and run the first collective on
 * each (a 1-element sloavx alltoallv, which needs the node layout, or an
 * 8-byte allreduce; or, for topology setup alone, colibri_node_layout), all
 * kept alive; then report, from rank 0, the simulated (or real) time of the
 * loop (the slowest rank's), the time of the same N creations without any
 * colibri call (create_s, measured first, so time_s - create_s is what
 * colibri added), the time of a second call on each communicator
 * (repeat_s: the collectives without their setup), colibri's setup calls
 * and layouts, and its state and segment bytes per rank.  Run once with COLIBRI_SETUP=eager and once
 * without to compare.
 *
 *   setup_bench [N] [alltoallv|allreduce|layout]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, n = argc > 1 ? atoi(argv[1]) : 100;
    const char *coll = argc > 2 ? argv[2] : "alltoallv";
    const int v = strcmp(coll, "alltoallv") == 0, layout = strcmp(coll, "layout") == 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm *comms = malloc((size_t)n * sizeof *comms);
    int *node_of = malloc((size_t)size * sizeof *node_of), n_nodes;
    MPI_Count *cnt = malloc((size_t)size * sizeof *cnt);
    MPI_Aint *dsp = malloc((size_t)size * sizeof *dsp);
    char *sb = calloc((size_t)size, 1), *rb = calloc((size_t)size, 1);
    double x = 1, y;
    /* The world's own first collective is not part of the measure. */
    colibri_allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, NULL);
    if (v) {
        for (int j = 0; j < size; j++)
            cnt[j] = 1, dsp[j] = j;
        colibri_alltoallv(sb, cnt, dsp, MPI_CHAR, rb, cnt, dsp, MPI_CHAR, MPI_COMM_WORLD, "sloavx");
    }
    if (layout)
        colibri_node_layout(MPI_COMM_WORLD, node_of, &n_nodes);
    /* Pass 0: the creations alone, for the baseline (colibri sees none of
     * them used, and counts from after them); pass 1: creations and first
     * collectives; pass 2: a second collective on each. */
    struct colibri_setup_stats a, b;
    double times[3], tmax[3];
    for (int pass = 0; pass < 3; pass++) {
        PMPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++) {
            if (pass < 2 && i % 2)
                MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, rank, &comms[i]);
            else if (pass < 2)
                MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
            if (pass == 0)
                continue;
            if (v)
                colibri_alltoallv(sb, cnt, dsp, MPI_CHAR, rb, cnt, dsp, MPI_CHAR, comms[i], "sloavx");
            else if (layout)
                colibri_node_layout(comms[i], node_of, &n_nodes);
            else
                colibri_allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, comms[i], NULL);
        }
        times[pass] = MPI_Wtime() - t0;
        if (pass == 0) {
            for (int i = 0; i < n; i++)
                MPI_Comm_free(&comms[i]);
            colibri_setup_stats(&a);
        } else if (pass == 1) {
            colibri_setup_stats(&b);
        }
    }
    long long mine[4] = {b.state_bytes - a.state_bytes, b.setup_collectives - a.setup_collectives,
                         b.layout_collectives - a.layout_collectives,
                         b.shm_bytes - a.shm_bytes}, sum[4], most[4];
    PMPI_Reduce(times, tmax, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    PMPI_Reduce(mine, sum, 4, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    PMPI_Reduce(mine, most, 4, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        const char *mode = getenv("COLIBRI_SETUP");
        printf("mode=%s p=%d comms=%d coll=%s time_s=%.6f create_s=%.6f repeat_s=%.6f state_bytes_per_rank=%.0f "
               "state_bytes_max=%lld bytes_per_comm_per_rank=%.0f setup_calls_per_rank=%.1f "
               "layout_calls_per_rank=%.1f layouts_predicted=%lld layouts_exchanged=%lld "
               "shm_bytes_per_rank=%.0f\n",
               mode ? mode : "lazy", size, n, v ? "alltoallv-sloavx" : coll, tmax[1], tmax[0], tmax[2],
               (double)sum[0] / size, most[0], (double)sum[0] / size / n, (double)sum[1] / size,
               (double)sum[2] / size, b.layouts_predicted - a.layouts_predicted,
               b.layouts_exchanged - a.layouts_exchanged, (double)sum[3] / size);
    }
    for (int i = 0; i < n; i++)
        MPI_Comm_free(&comms[i]);
    free(comms), free(node_of), free(cnt), free(dsp), free(sb), free(rb);
    MPI_Finalize();
    return 0;
}
