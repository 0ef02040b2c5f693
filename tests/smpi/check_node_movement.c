/*
 * The node-aware data-movement algorithms (bcast node_leader, barrier
 * node_leader, allgather node_rails) and auto under SimGrid SMPI with
 * several ranks per host (the hostfile's placement), against serial
 * expectations computed here, never against the MPI below:
 *  - bcast: roots 0, p-1 and p/2, 0 to 70000 bytes (many chunks through
 *    a small segment), blocking, nonblocking and persistent;
 *  - allgather: blocks of 0 to 9000 bytes, in place or not, blocking,
 *    nonblocking and persistent;
 *  - barrier: every rank enters at its own simulated time (rank r sleeps
 *    r microseconds first) and none may leave before the last has entered
 *    (simulated clocks, exact under SMPI), blocking and nonblocking;
 *  - colibri_last_algorithm names the forced algorithm.
 *
 *   check_node_movement [name ...]   only the algorithms named ("auto" too)
 *
 * Prints "N passed, N failed" (rank 0); exits non-zero on any failure.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"
#include <smpi/smpi.h>

#define CHECK_MAX_LINES -1
#include "../lib/check.h"
#include "smpi_check.h"

static int rank, size;

static unsigned char byte_of(int src, int call, int64_t t)
{
    return (unsigned char)(src * 131 + call * 31 + t * 7 + 1);
}

/* Runs `form` 0 blocking, 1 nonblocking, 2 persistent. */
static void finish(int form, MPI_Request *r)
{
    if (form == 1) {
        MPI_Wait(r, MPI_STATUS_IGNORE);
    } else if (form == 2) {
        MPI_Start(r);
        MPI_Wait(r, MPI_STATUS_IGNORE);
        MPI_Request_free(r);
    }
}

static void check_bcast(const char *alg)
{
    static const int ns[] = {0, 1, 7, 1000, 70000};
    const int roots[3] = {0, size - 1, size / 2};
    unsigned char *buf = malloc(70000);
    int call = 0;
    for (int form = 0; form < 3; form++)
        for (int ri = 0; ri < 3; ri++)
            for (unsigned k = 0; k < sizeof ns / sizeof *ns; k++, call++) {
                const int n = ns[k], root = roots[ri];
                for (int t = 0; t < n; t++)
                    buf[t] = rank == root ? byte_of(root, call, t) : 0xEE;
                MPI_Request r;
                int rc = form == 0   ? colibri_bcast(buf, n, MPI_BYTE, root, MPI_COMM_WORLD, alg)
                         : form == 1 ? colibri_ibcast(buf, n, MPI_BYTE, root, MPI_COMM_WORLD, alg,
                                                      &r)
                                     : colibri_bcast_init(buf, n, MPI_BYTE, root, MPI_COMM_WORLD,
                                                          alg, &r);
                if (rc == MPI_SUCCESS)
                    finish(form, &r);
                int ok = rc == MPI_SUCCESS;
                for (int t = 0; t < n && ok; t++)
                    ok = buf[t] == byte_of(root, call, t);
                if (ok && alg && form == 0)
                    ok = strcmp(colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_BCAST), alg) == 0;
                char what[160];
                snprintf(what, sizeof what, "bcast %s form %d root %d n %d", alg ? alg : "auto",
                         form, root, n);
                smpi_report(ok, what);
            }
    free(buf);
}

static void check_allgather(const char *alg)
{
    static const int bs[] = {0, 1, 3, 100, 9000};
    unsigned char *in = malloc(9000), *out = malloc((size_t)9000 * size);
    int call = 0;
    for (int form = 0; form < 3; form++)
        for (int ip = 0; ip < 2; ip++)
            for (unsigned k = 0; k < sizeof bs / sizeof *bs; k++, call++) {
                const int b = bs[k];
                memset(out, 0xEE, (size_t)b * size);
                for (int t = 0; t < b; t++)
                    (ip ? out + (size_t)rank * b : in)[t] = byte_of(rank, call, t);
                const void *sb = ip ? MPI_IN_PLACE : in;
                MPI_Request r;
                int rc = form == 0 ? colibri_allgather(sb, b, MPI_BYTE, out, b, MPI_BYTE,
                                                       MPI_COMM_WORLD, alg)
                         : form == 1 ? colibri_iallgather(sb, b, MPI_BYTE, out, b, MPI_BYTE,
                                                          MPI_COMM_WORLD, alg, &r)
                                     : colibri_allgather_init(sb, b, MPI_BYTE, out, b, MPI_BYTE,
                                                              MPI_COMM_WORLD, alg, &r);
                if (rc == MPI_SUCCESS)
                    finish(form, &r);
                int ok = rc == MPI_SUCCESS;
                for (int j = 0; j < size && ok; j++)
                    for (int t = 0; t < b && ok; t++)
                        ok = out[(size_t)j * b + t] == byte_of(j, call, t);
                if (ok && alg && form == 0)
                    ok = strcmp(colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLGATHER), alg) ==
                         0;
                char what[160];
                snprintf(what, sizeof what, "allgather %s form %d%s b %d", alg ? alg : "auto",
                         form, ip ? " in place" : "", b);
                smpi_report(ok, what);
            }
    free(in);
    free(out);
}

static void check_barrier(const char *alg)
{
    for (int form = 0; form < 2; form++)
        for (int rep = 0; rep < 3; rep++) {
            smpi_usleep((useconds_t)((rank * 7 + rep * 3) % (size + 1)) + 1);
            const double in = MPI_Wtime();
            MPI_Request r;
            int rc = form == 0 ? colibri_barrier(MPI_COMM_WORLD, alg)
                               : colibri_ibarrier(MPI_COMM_WORLD, alg, &r);
            if (rc == MPI_SUCCESS)
                finish(form, &r);
            const double out = MPI_Wtime();
            double last_in = 0;
            PMPI_Allreduce(&in, &last_in, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            int ok = rc == MPI_SUCCESS && out >= last_in;
            char what[160];
            snprintf(what, sizeof what, "barrier %s form %d rep %d: left at %.9f, last in at %.9f",
                     alg ? alg : "auto", form, rep, out, last_in);
            smpi_report(ok, what);
        }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *def[] = {"node_leader", "node_rails", "auto"};
    const int n = argc > 1 ? argc - 1 : 3;
    for (int i = 0; i < n; i++) {
        const char *name = argc > 1 ? argv[i + 1] : def[i];
        const char *alg = strcmp(name, "auto") == 0 ? NULL : name;
        if (!alg || strcmp(name, "node_leader") == 0) {
            check_bcast(alg);
            check_barrier(alg);
        }
        if (!alg || strcmp(name, "node_rails") == 0)
            check_allgather(alg);
    }
    /* every count is agreed over the ranks (smpi_report) */
    if (rank == 0)
        check_print_totals(check_passed, check_failed);
    MPI_Finalize();
    return check_failed ? 1 : 0;
}
