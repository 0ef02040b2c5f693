/*
 * A plain MPI program that knows nothing of colibri; the drop-in scripts
 * preload libcolibri.so under it.  It calls MPI_Alltoall and MPI_Alltoallv
 * (uneven blocks, empty ones, displacements in reverse order with gaps) on
 * int and MPI_DOUBLE_INT data, in place and not, and checks every received
 * value against what the sender must have put there.
 *
 *   dropin_exchange              the calls run on MPI_COMM_WORLD
 *   dropin_exchange split        they run on two halves of MPI_COMM_WORLD only
 *   dropin_exchange large-count  the MPI-4 forms (MPI_Alltoall_c, ...) instead
 *                                (exit 2 if the MPI has none)
 *
 * Rank 0 prints "calls per rank: alltoall=<n> alltoallv=<n>" for the scripts
 * to check COLIBRI_STATS against; a wrong result makes the exit status nonzero.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_MAX_LINES -1 /* every failure printed */
#include "../lib/check.h"

struct double_int { double v; int i; };

static int large_count, calls_a2a, calls_a2av;

static double value(int src, int dst, int k) { return src * 10007.0 + dst * 101.0 + k; }

/* Elements rank `src` sends to `dst` in the alltoallv (symmetric, so it is
 * also valid in place): some empty. */
static int vcount(int src, int dst, int scale)
{
    return (src + dst) % 3 == 2 ? 0 : scale * (1 + (src * dst) % 4);
}

static void put(MPI_Datatype dt, void *buf, long idx, double v)
{
    if (dt == MPI_INT)
        ((int *)buf)[idx] = (int)v;
    else
        ((struct double_int *)buf)[idx] = (struct double_int){v, -(int)v};
}

static int same(MPI_Datatype dt, const void *buf, long idx, double v)
{
    if (dt == MPI_INT)
        return ((const int *)buf)[idx] == (int)v;
    const struct double_int *d = (const struct double_int *)buf + idx;
    return d->v == v && d->i == -(int)v;
}

static void alltoall(MPI_Comm comm, MPI_Datatype dt, int n, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t es = dt == MPI_INT ? sizeof(int) : sizeof(struct double_int);
    char *s = malloc(es * (size_t)(size * n + 1)), *r = malloc(es * (size_t)(size * n + 1));
    char *in = in_place ? r : s;
    for (int j = 0; j < size; j++)
        for (int k = 0; k < n; k++)
            put(dt, in, (long)j * n + k, value(rank, j, k));
    const void *sb = in_place ? MPI_IN_PLACE : s;
#if MPI_VERSION >= 4
    if (large_count)
        MPI_Alltoall_c(sb, n, dt, r, n, dt, comm);
    else
#endif
        MPI_Alltoall(sb, n, dt, r, n, dt, comm);
    calls_a2a++;
    for (int j = 0; j < size; j++)
        for (int k = 0; k < n; k++)
            if (check_count(same(dt, r, (long)j * n + k, value(j, rank, k)))) {
                fprintf(stderr, "rank %d: MPI_Alltoall n=%d%s: wrong element %d from %d\n", rank, n,
                        in_place ? " in place" : "", k, j);
                j = size;
                break;
            }
    free(s);
    free(r);
}

static void alltoallv(MPI_Comm comm, MPI_Datatype dt, int scale, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t es = dt == MPI_INT ? sizeof(int) : sizeof(struct double_int);
    int *sc = malloc(4 * sizeof(int) * (size_t)size), *sd = sc + size, *rc = sc + 2 * size,
        *rd = sc + 3 * size;
    int soff = 0, roff = 0;
    for (int j = size - 1; j >= 0; j--) { /* reverse order, one-element gaps */
        sc[j] = vcount(rank, j, scale), rc[j] = vcount(j, rank, scale);
        sd[j] = soff, rd[j] = roff;
        soff += sc[j] + 1, roff += rc[j] + 1;
    }
    char *s = calloc((size_t)soff + 1, es), *r = calloc((size_t)roff + 1, es);
    char *in = in_place ? r : s;
    int *ind = in_place ? rd : sd, *inc = in_place ? rc : sc;
    for (int j = 0; j < size; j++)
        for (int k = 0; k < inc[j]; k++)
            put(dt, in, ind[j] + k, value(rank, j, k));
    const void *sb = in_place ? MPI_IN_PLACE : s;
#if MPI_VERSION >= 4
    if (large_count) {
        MPI_Count *c = malloc(2 * sizeof *c * (size_t)size);
        MPI_Aint *d = malloc(2 * sizeof *d * (size_t)size);
        for (int j = 0; j < size; j++)
            c[j] = sc[j], c[size + j] = rc[j], d[j] = sd[j], d[size + j] = rd[j];
        MPI_Alltoallv_c(sb, c, d, dt, r, c + size, d + size, dt, comm);
        free(c);
        free(d);
    } else
#endif
        MPI_Alltoallv(sb, sc, sd, dt, r, rc, rd, dt, comm);
    calls_a2av++;
    for (int j = 0; j < size; j++)
        for (int k = 0; k < rc[j]; k++)
            if (check_count(same(dt, r, rd[j] + k, value(j, rank, k)))) {
                fprintf(stderr, "rank %d: MPI_Alltoallv scale=%d%s: wrong element %d from %d\n",
                        rank, scale, in_place ? " in place" : "", k, j);
                j = size;
                break;
            }
    free(s);
    free(r);
    free(sc);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm comm = MPI_COMM_WORLD;
    if (argc > 1 && strcmp(argv[1], "split") == 0)
        MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &comm);
    large_count = argc > 1 && strcmp(argv[1], "large-count") == 0;
#if MPI_VERSION < 4
    if (large_count) {
        MPI_Finalize();
        return 2;
    }
#endif
    const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE_INT};
    const int sizes[] = {0, 1, 7, 1000};
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 4; i++)
            for (int in_place = 0; in_place < 2; in_place++) {
                alltoall(comm, types[t], sizes[i], in_place);
                alltoallv(comm, types[t], sizes[i], in_place);
            }
    if (comm != MPI_COMM_WORLD)
        MPI_Comm_free(&comm);
    if (wrank == 0)
        printf("calls per rank: alltoall=%d alltoallv=%d\n", calls_a2a, calls_a2av);
    MPI_Finalize();
    return check_failed != 0;
}
