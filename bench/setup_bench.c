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
 *   setup-bench [N] [alltoallv|allreduce|layout]
 *   setup-bench [-n N] [-c alltoallv|allreduce|layout]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include "colibri.h"

static const char USAGE[] = "usage: setup-bench [N] [alltoallv|allreduce|layout]\n"
                            "       setup-bench [-n N] [-c alltoallv|allreduce|layout]\n";

/* One pass over the communicators (see main). */
struct pass {
    int pass, rank, size, v, layout;
    MPI_Comm *comms;
    int *node_of, n_nodes;
    MPI_Count *cnt;
    MPI_Aint *dsp;
    char *sb, *rb;
    double x, y;
};

static int one_comm(void *ctx, int i)
{
    struct pass *p = ctx;
    if (p->pass < 2 && i % 2)
        MPI_Comm_split(MPI_COMM_WORLD, p->rank < p->size / 2, p->rank, &p->comms[i]);
    else if (p->pass < 2)
        MPI_Comm_dup(MPI_COMM_WORLD, &p->comms[i]);
    if (p->pass == 0)
        return MPI_SUCCESS;
    if (p->v)
        return colibri_alltoallv(p->sb, p->cnt, p->dsp, MPI_CHAR, p->rb, p->cnt, p->dsp, MPI_CHAR,
                                 p->comms[i], "sloavx");
    if (p->layout)
        return colibri_node_layout(p->comms[i], p->node_of, &p->n_nodes);
    return colibri_allreduce(&p->x, &p->y, 1, MPI_DOUBLE, MPI_SUM, p->comms[i], NULL);
}

static int own_option(int opt, const char *arg, void *ctx)
{
    if (opt != 'n')
        return -1;
    return (*(int *)ctx = atoi(arg)) > 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, n = 100;
    struct bench_opts o;
    bench_opts_init(&o, "setup-bench", USAGE);
    int arg = bench_parse(argc, argv, "n:c:h", &o, own_option, &n);
    if (arg < argc && (n = atoi(argv[arg++])) < 1)
        bench_usage_exit(&o, "bad communicator count");
    const char *coll = arg < argc ? argv[arg++] : o.coll ? o.coll : "alltoallv";
    if (arg < argc)
        bench_usage_exit(&o, "unexpected argument");
    const int v = strcmp(coll, "alltoallv") == 0, layout = strcmp(coll, "layout") == 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct pass p = {0, rank, size, v, layout, malloc((size_t)n * sizeof(MPI_Comm)),
                     malloc((size_t)size * sizeof(int)), 0,
                     malloc((size_t)size * sizeof(MPI_Count)), malloc((size_t)size * sizeof(MPI_Aint)),
                     calloc((size_t)size, 1), calloc((size_t)size, 1), 1, 0};
    /* The world's own first collective is not part of the measure. */
    colibri_allreduce(&p.x, &p.y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, NULL);
    if (v) {
        for (int j = 0; j < size; j++)
            p.cnt[j] = 1, p.dsp[j] = j;
        colibri_alltoallv(p.sb, p.cnt, p.dsp, MPI_CHAR, p.rb, p.cnt, p.dsp, MPI_CHAR, MPI_COMM_WORLD,
                          "sloavx");
    }
    if (layout)
        colibri_node_layout(MPI_COMM_WORLD, p.node_of, &p.n_nodes);
    /* Pass 0: the creations alone, for the baseline (colibri sees none of
     * them used, and counts from after them); pass 1: creations and first
     * collectives; pass 2: a second collective on each.  Each pass is one
     * timed stretch from a barrier, the slowest rank's. */
    struct colibri_setup_stats a, b;
    const struct bench_loop loop = {one_comm, &p, MPI_COMM_WORLD, n, 0, 0, 0};
    double tmax[3];
    for (p.pass = 0; p.pass < 3; p.pass++) {
        tmax[p.pass] = bench_time(&loop) * n;
        if (p.pass == 0) {
            for (int i = 0; i < n; i++)
                MPI_Comm_free(&p.comms[i]);
            colibri_setup_stats(&a);
        } else if (p.pass == 1) {
            colibri_setup_stats(&b);
        }
    }
    long long mine[4] = {b.state_bytes - a.state_bytes, b.setup_collectives - a.setup_collectives,
                         b.layout_collectives - a.layout_collectives,
                         b.shm_bytes - a.shm_bytes}, sum[4], most[4];
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
        MPI_Comm_free(&p.comms[i]);
    free(p.comms), free(p.node_of), free(p.cnt), free(p.dsp), free(p.sb), free(p.rb);
    MPI_Finalize();
    return 0;
}
