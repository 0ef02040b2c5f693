// ranks: 2
// mpich-ranks: 2
/*
 * Real runs past 2^31: an allreduce of 2^31 + 5 MPI_UINT8_T elements
 * (MPI_SUM, in place) and an alltoallv whose block to the other rank is
 * 2^31 + 5 bytes, on 2 ranks, through the large-count entry points:
 * MPI_Allreduce_c and MPI_Alltoallv_c on an MPI-4 library (MPICH), the C
 * API's colibri_allreduce / colibri_alltoallv (MPI_Count counts) on Open
 * MPI 4.1, which has no _c bindings.  Every message is longer than
 * INT_MAX, so the executor splits it (SCHED_CHUNK).  Checked: a strided
 * sample of the result, the elements around 2^31 and the last 64 KiB;
 * colibri ran the call (not the MPI below).
 *
 * Memory: 4 GiB per rank at a time (allreduce: the vector and colibri's
 * scratch of about one vector; alltoallv: a 2 GiB send and a 2 GiB receive
 * buffer, nothing to self), about 9 GiB for the two ranks with the MPI's
 * own.  The alltoallv runs `pairwise` (COLIBRI_ALLTOALLV_ALGORITHM, unless
 * set already): auto picks sloavx on one node, which stages the blocks in
 * the node's shared segment too, 12.6 GiB in all for the two ranks.  With less available memory (MemAvailable in /proc/meminfo) the test
 * prints SKIP and exits 77, which tests/run.sh counts as skipped.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "colibri.h"
#include "../lib/check.h"
#include "../lib/proc.h"

#define CHECK(cond, ...)                                                                          \
    do {                                                                                          \
        if (check_count(cond))                                                                    \
            check_at(__FILE__, __LINE__, __VA_ARGS__);                                            \
    } while (0)

static const MPI_Count N = (MPI_Count)INT_MAX + 6; /* 2^31 + 5 */
static const long long PER_RANK = 9ll << 29;       /* 4.5 GiB, with room for the MPI's own */

static int rank, size;

static long long mem_available(void) { return proc_kb_field("/proc/meminfo", "MemAvailable"); }

static inline uint8_t ar_val(int64_t i, int r) { return (uint8_t)(i * 7 + r * 13 + (i >> 20)); }
static inline uint8_t av_val(int64_t i, int r) { return (uint8_t)(i * 3 + r * 101 + (i >> 24)); }

/* The positions checked: every 4093rd, those around 2^31 and the last 64 KiB. */
static bool sampled(int64_t i, int64_t n)
{
    return i % 4093 == 0 || (i >= INT_MAX - 64 && i <= (int64_t)INT_MAX + 64) || i >= n - 65536;
}

static void test_allreduce(void)
{
    uint8_t *buf = malloc((size_t)N);
    CHECK(buf != NULL, "could not allocate %lld bytes", (long long)N);
    if (!buf)
        return;
    for (int64_t i = 0; i < N; i++)
        buf[i] = ar_val(i, rank);
    double t = MPI_Wtime();
#if MPI_VERSION >= 4
    int rc = MPI_Allreduce_c(MPI_IN_PLACE, buf, N, MPI_UINT8_T, MPI_SUM, MPI_COMM_WORLD);
    const char *via = "MPI_Allreduce_c";
#else
    int rc = colibri_allreduce(MPI_IN_PLACE, buf, N, MPI_UINT8_T, MPI_SUM, MPI_COMM_WORLD, NULL);
    const char *via = "colibri_allreduce";
#endif
    t = MPI_Wtime() - t;
    CHECK(rc == MPI_SUCCESS, "%s returned %d", via, rc);
    int64_t bad = 0, first = -1, checked = 0;
    for (int64_t i = 0; i < N; i++) {
        if (!sampled(i, N))
            continue;
        uint8_t want = 0;
        for (int r = 0; r < size; r++)
            want = (uint8_t)(want + ar_val(i, r));
        checked++;
        if (buf[i] != want && bad++ == 0)
            first = i;
    }
    CHECK(bad == 0, "%s of %lld bytes: %lld of %lld checked elements wrong, first at %lld", via,
          (long long)N, (long long)bad, (long long)checked, (long long)first);
    const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLREDUCE);
    CHECK(ran && strcmp(ran, "native") != 0, "%s ran %s", via, ran ? ran : "(none)");
    if (rank == 0)
        printf("%s: %lld MPI_UINT8_T elements, MPI_SUM in place, %s, %.1f s, %lld elements checked\n",
               via, (long long)N, ran ? ran : "(none)", t, (long long)checked);
    free(buf);
}

static void test_alltoallv(void)
{
    /* Rank r sends N bytes to each other rank and nothing to itself. */
    const int64_t total = N * (size - 1);
    uint8_t *sbuf = malloc((size_t)total), *rbuf = malloc((size_t)total);
    MPI_Count *sc = calloc((size_t)size, sizeof *sc), *rc_ = calloc((size_t)size, sizeof *rc_);
    MPI_Aint *sd = calloc((size_t)size, sizeof *sd), *rd = calloc((size_t)size, sizeof *rd);
    CHECK(sbuf && rbuf, "could not allocate 2 x %lld bytes", (long long)total);
    if (sbuf && rbuf) {
        int64_t off = 0;
        for (int j = 0; j < size; j++) {
            if (j == rank)
                continue;
            sc[j] = rc_[j] = N;
            sd[j] = rd[j] = (MPI_Aint)off;
            for (int64_t i = 0; i < N; i++)
                sbuf[off + i] = av_val(i, rank * 64 + j);
            off += N;
        }
        memset(rbuf, 0xEE, (size_t)total);
        double t = MPI_Wtime();
#if MPI_VERSION >= 4
        int rc = MPI_Alltoallv_c(sbuf, sc, sd, MPI_BYTE, rbuf, rc_, rd, MPI_BYTE, MPI_COMM_WORLD);
        const char *via = "MPI_Alltoallv_c";
#else
        int rc = colibri_alltoallv(sbuf, sc, sd, MPI_BYTE, rbuf, rc_, rd, MPI_BYTE, MPI_COMM_WORLD,
                                   NULL);
        const char *via = "colibri_alltoallv";
#endif
        t = MPI_Wtime() - t;
        CHECK(rc == MPI_SUCCESS, "%s returned %d", via, rc);
        int64_t bad = 0, first = -1, checked = 0;
        for (int j = 0; j < size; j++) {
            if (j == rank)
                continue;
            for (int64_t i = 0; i < N; i++) {
                if (!sampled(i, N))
                    continue;
                checked++;
                if (rbuf[rd[j] + i] != av_val(i, j * 64 + rank) && bad++ == 0)
                    first = i;
            }
        }
        CHECK(bad == 0, "%s with blocks of %lld bytes: %lld of %lld checked bytes wrong, first at %lld",
              via, (long long)N, (long long)bad, (long long)checked, (long long)first);
        const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLTOALLV);
        CHECK(ran && strcmp(ran, "native") != 0, "%s ran %s", via, ran ? ran : "(none)");
        if (rank == 0)
            printf("%s: blocks of %lld bytes to the other rank(s), %s, %.1f s, %lld bytes checked\n",
                   via, (long long)N, ran ? ran : "(none)", t, (long long)checked);
    }
    free(sbuf);
    free(rbuf);
    free(sc);
    free(rc_);
    free(sd);
    free(rd);
}

int main(int argc, char **argv)
{
    setenv("COLIBRI_ALLTOALLV_ALGORITHM", "pairwise", 0);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Every rank runs on this machine (the test runs on one node): rank 0
     * decides for all. */
    long long need = PER_RANK * size, have = rank == 0 ? mem_available() : 0;
    PMPI_Bcast(&have, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (size != 2 || have < need) {
        if (rank == 0) {
            if (size != 2)
                printf("SKIP: runs on 2 ranks only (%d here)\n", size);
            else
                printf("SKIP: needs %.1f GiB of available memory, this machine has %.1f GiB\n",
                       need / 1073741824.0, have / 1073741824.0);
        }
        MPI_Finalize();
        return 77;
    }

    test_allreduce();
    test_alltoallv();

    long long t[2] = {check_passed, check_failed}, sum[2];
    PMPI_Allreduce(t, sum, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        check_print_totals(sum[0], sum[1]);
    MPI_Finalize();
    return sum[1] != 0;
}
