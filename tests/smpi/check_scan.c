/*
 * Scan and exscan under SMPI: every algorithm (node_leader over the
 * hostfile's hosts: one rank a host by default), automatic selection (the
 * model's choice: run with COLIBRI_ONLINE=0) and SMPI's own MPI_Scan /
 * MPI_Exscan, on 8-byte elements at 1, 8192 (64 KiB) and 131072 (1 MiB)
 * elements.  Each result is checked against the closed form of the integer
 * prefix sums; the simulated time per call (the slowest rank's, the mean
 * of 3 calls after one warm-up) is printed as a table.  Checks: every
 * result right, and automatic selection within 25% of the fastest of
 * colibri's algorithms in simulated time (the cost model picks among
 * them).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"

#include "../lib/check.h"
#include "smpi_check.h"

static const char *const algs[] = {"recursive_doubling", "up_down", "linear", "node_leader",
                                   "auto", "native"};
enum { NALG = 6, NCOLL_SCAN = 2, AUTO = 4 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const int counts[] = {1, 8192, 131072};
    long *in = malloc(131072 * sizeof *in), *out = malloc(131072 * sizeof *out);
    int bad = 0, slow = 0;
    if (rank == 0)
        printf("p=%d: simulated us per call\n%-8s %8s %20s %10s %10s %12s %10s %10s   auto picks\n",
               p, "coll", "bytes", algs[0], algs[1], algs[2], algs[3], algs[4], algs[5]);
    for (int c = 0; c < NCOLL_SCAN; c++) {
        const colibri_coll coll = c ? COLIBRI_EXSCAN : COLIBRI_SCAN;
        for (unsigned ci = 0; ci < sizeof counts / sizeof *counts; ci++) {
            const int n = counts[ci];
            double t[NALG];
            const char *picked = "";
            for (int a = 0; a < NALG; a++) {
                const char *name = strcmp(algs[a], "auto") == 0 ? NULL : algs[a];
                double t0 = 0;
                for (int rep = 0; rep < 4; rep++) {
                    for (int i = 0; i < n; i++)
                        in[i] = rank + 1 + i, out[i] = -1;
                    if (rep == 1) {
                        PMPI_Barrier(MPI_COMM_WORLD);
                        t0 = MPI_Wtime();
                    }
                    if (coll == COLIBRI_SCAN)
                        colibri_scan(in, out, n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, name);
                    else
                        colibri_exscan(in, out, n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, name);
                    /* ranks 0..last: sum (q + 1 + i) */
                    const long last = coll == COLIBRI_SCAN ? rank : rank - 1;
                    for (int i = 0; i < n && last >= 0; i++)
                        bad += out[i] != (last + 1) * (last + 2) / 2 + (last + 1) * (long)i;
                }
                double mine = (MPI_Wtime() - t0) / 3, all;
                PMPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
                t[a] = all * 1e6;
                if (!name)
                    picked = colibri_last_algorithm(MPI_COMM_WORLD, coll);
            }
            double best = t[0];
            for (int a = 1; a < AUTO; a++)
                best = t[a] < best ? t[a] : best;
            slow += t[AUTO] > 1.25 * best;
            if (rank == 0)
                printf("%-8s %8d %20.2f %10.2f %10.2f %12.2f %10.2f %10.2f   %s\n",
                       colibri_coll_name(coll), n * 8, t[0], t[1], t[2], t[3], t[4], t[5],
                       picked ? picked : "?");
        }
    }
    int tot[2] = {bad, slow}, all[2];
    PMPI_Allreduce(tot, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    smpi_report(all[0] == 0, "scan: every scan and exscan result right");
    /* (SCAN_AUTO_CHECK=0: results only; on hosts of several ranks the
     * model's flat choice misjudges the hosts' loopback: exscan at 64 KiB
     * on hosts of 5, 2 and 7 ranks takes up_down, 111 us, where linear
     * takes 62) */
    const char *ac = getenv("SCAN_AUTO_CHECK");
    if (!ac || strcmp(ac, "0") != 0)
        smpi_report(all[1] == 0, "scan: automatic selection within 25% of colibri's fastest");
    free(in), free(out);
    if (rank == 0)
        check_print_totals(check_passed, check_failed);
    MPI_Finalize();
    return check_failed != 0;
}
