/*
 * The node-aware data-movement algorithms (bcast, barrier, gather and
 * scatter node_leader, allgather and allgatherv node_rails) and auto under SimGrid SMPI with
 * several ranks per host (the hostfile's placement), against serial
 * expectations computed here, never against the MPI below:
 *  - bcast: roots 0, p-1 and p/2, 0 to 70000 bytes (many chunks through
 *    a small segment), blocking, nonblocking and persistent;
 *  - allgather: blocks of 0 to 9000 bytes, in place or not, blocking,
 *    nonblocking and persistent;
 *  - allgatherv: uneven blocks of 0 to 9000 bytes (every third empty) in
 *    reverse rank order with gaps, in place or not, the three forms;
 *  - gather and scatter: roots 0, p-1 and p/2, blocks of 0 to 9000 bytes,
 *    in place at the root or not, blocking, nonblocking and persistent;
 *  - gatherv and scatterv (binomial and auto: its online exploration
 *    against the MPI's own where the model takes binomial, from about 31
 *    ranks): roots 0, p-1 and p/2, uneven blocks of 0 to 3000 bytes
 *    (every fourth empty) in reverse rank order with gaps at the root, in
 *    place or not, the three forms, blocking calls 12 in a row;
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

/* allgatherv: rank j's block of (j * 37 + k * 1000) % 9001 bytes (every
 * third one empty), placed in reverse rank order with 5-byte gaps, in place
 * or not, the three forms. */
static void check_allgatherv(const char *alg)
{
    MPI_Count *rc = malloc((size_t)size * sizeof *rc);
    MPI_Aint *rd = malloc((size_t)size * sizeof *rd);
    unsigned char *in = malloc(9001), *out = malloc((size_t)9006 * size);
    int call = 0;
    for (int form = 0; form < 3; form++)
        for (int ip = 0; ip < 2; ip++)
            for (int k = 0; k < 3; k++, call++) {
                MPI_Aint at = 0;
                for (int q = size - 1; q >= 0; q--) {
                    rc[q] = q % 3 == 1 ? 0 : (q * 37 + k * 1000) % 9001;
                    rd[q] = at, at += rc[q] + 5;
                }
                memset(out, 0xEE, (size_t)at);
                for (int t = 0; t < rc[rank]; t++)
                    (ip ? out + rd[rank] : in)[t] = byte_of(rank, call, t);
                const void *sb = ip ? MPI_IN_PLACE : in;
                MPI_Request r;
                const MPI_Count mine = rc[rank];
                int e = form == 0 ? colibri_allgatherv(sb, mine, MPI_BYTE, out, rc, rd,
                                                       MPI_BYTE, MPI_COMM_WORLD, alg)
                        : form == 1 ? colibri_iallgatherv(sb, mine, MPI_BYTE, out, rc, rd,
                                                          MPI_BYTE, MPI_COMM_WORLD, alg, &r)
                                    : colibri_allgatherv_init(sb, mine, MPI_BYTE, out, rc,
                                                              rd, MPI_BYTE, MPI_COMM_WORLD, alg,
                                                              &r);
                if (e == MPI_SUCCESS)
                    finish(form, &r);
                int ok = e == MPI_SUCCESS;
                for (int j = 0; j < size && ok; j++) {
                    for (int t = 0; t < rc[j] && ok; t++)
                        ok = out[rd[j] + t] == byte_of(j, call, t);
                    for (int t = 0; t < 5 && ok; t++) /* the gap after it */
                        ok = out[rd[j] + rc[j] + t] == 0xEE;
                }
                if (ok && alg && form == 0)
                    ok = strcmp(colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLGATHERV), alg) ==
                         0;
                char what[160];
                snprintf(what, sizeof what, "allgatherv %s form %d%s k %d", alg ? alg : "auto",
                         form, ip ? " in place" : "", k);
                smpi_report(ok, what);
            }
    free(rc);
    free(rd);
    free(in);
    free(out);
}

/* gather (g) or scatter: roots 0, p-1 and p/2, blocks of 0 to 9000
 * bytes, in place at the root or not, the three forms. */
static void check_rooted(const char *alg, bool g)
{
    static const int bs[] = {0, 1, 3, 100, 9000};
    const int roots[3] = {0, size - 1, size / 2};
    unsigned char *one = malloc(9001), *many = malloc((size_t)9000 * size);
    const colibri_coll coll = g ? COLIBRI_GATHER : COLIBRI_SCATTER;
    int call = 0;
    for (int form = 0; form < 3; form++)
        for (int ri = 0; ri < 3; ri++)
            for (int ip = 0; ip < 2; ip++)
                for (unsigned k = 0; k < sizeof bs / sizeof *bs; k++, call++) {
                    const int b = bs[k], root = roots[ri];
                    const bool in_place = ip && rank == root;
                    memset(one, 0xEE, 9001);
                    memset(many, 0xEE, (size_t)9000 * size);
                    if (g) { /* each rank's block; the root's in place in `many` */
                        for (int t = 0; t < b; t++)
                            (in_place ? many + (size_t)rank * b : one)[t] =
                                byte_of(rank, call, t);
                    } else if (rank == root) {
                        for (int j = 0; j < size; j++)
                            for (int t = 0; t < b; t++)
                                many[(size_t)j * b + t] = byte_of(j, call, t);
                    }
                    const void *sb = g ? (in_place ? MPI_IN_PLACE : (void *)one) : many;
                    void *rb = g ? many : in_place ? MPI_IN_PLACE : (void *)one;
                    MPI_Request r;
                    int rc;
                    if (g)
                        rc = form == 0 ? colibri_gather(sb, b, MPI_BYTE, rb, b, MPI_BYTE, root,
                                                        MPI_COMM_WORLD, alg)
                             : form == 1 ? colibri_igather(sb, b, MPI_BYTE, rb, b, MPI_BYTE, root,
                                                           MPI_COMM_WORLD, alg, &r)
                                         : colibri_gather_init(sb, b, MPI_BYTE, rb, b, MPI_BYTE,
                                                               root, MPI_COMM_WORLD, alg, &r);
                    else
                        rc = form == 0 ? colibri_scatter(sb, b, MPI_BYTE, rb, b, MPI_BYTE, root,
                                                         MPI_COMM_WORLD, alg)
                             : form == 1 ? colibri_iscatter(sb, b, MPI_BYTE, rb, b, MPI_BYTE,
                                                            root, MPI_COMM_WORLD, alg, &r)
                                         : colibri_scatter_init(sb, b, MPI_BYTE, rb, b, MPI_BYTE,
                                                                root, MPI_COMM_WORLD, alg, &r);
                    if (rc == MPI_SUCCESS)
                        finish(form, &r);
                    int ok = rc == MPI_SUCCESS;
                    if (g && rank == root)
                        for (int j = 0; j < size && ok; j++)
                            for (int t = 0; t < b && ok; t++)
                                ok = many[(size_t)j * b + t] == byte_of(j, call, t);
                    if (!g) /* its block; the root's stays in `many` when in place */
                        for (int t = 0; t < b && ok; t++)
                            ok = (in_place ? many + (size_t)rank * b : one)[t] ==
                                 byte_of(rank, call, t);
                    if (!g && !in_place) /* nothing past the block */
                        ok = ok && one[b] == 0xEE;
                    if (ok && alg && form == 0)
                        ok = strcmp(colibri_last_algorithm(MPI_COMM_WORLD, coll), alg) == 0;
                    char what[160];
                    snprintf(what, sizeof what, "%s %s form %d root %d%s b %d",
                             g ? "gather" : "scatter", alg ? alg : "auto", form, root,
                             ip ? " in place" : "", b);
                    smpi_report(ok, what);
                }
    free(one);
    free(many);
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

/* gatherv (g) or scatterv: roots 0, p-1 and p/2, rank j's block of
 * (j * 37 + k * 500) % 3001 bytes (every fourth one empty), at the root in
 * reverse rank order with 3-byte gaps, in place at the root or not, the
 * three forms; blocking calls 12 times in a row with the same sizes, so
 * that automatic selection's online exploration runs and decides on the
 * way (a shape is p and the root: the sizes are the root's). */
static void check_rooted_v(const char *alg, bool g)
{
    const int roots[3] = {0, size - 1, size / 2};
    MPI_Count *c = malloc((size_t)size * sizeof *c);
    MPI_Aint *d = malloc((size_t)size * sizeof *d);
    unsigned char *one = malloc(3001), *many = malloc((size_t)3004 * size);
    const colibri_coll coll = g ? COLIBRI_GATHERV : COLIBRI_SCATTERV;
    int call = 0;
    for (int form = 0; form < 3; form++)
        for (int ri = 0; ri < 3; ri++)
            for (int ip = 0; ip < 2; ip++)
                for (int rep = 0; rep < (form == 0 ? 12 : 1); rep++, call++) {
                    const int root = roots[ri], k = ri + ip;
                    const bool in_place = ip && rank == root;
                    MPI_Aint at = 0;
                    for (int j = size - 1; j >= 0; j--) {
                        c[j] = j % 4 == 1 ? 0 : (j * 37 + k * 500) % 3001;
                        d[j] = at, at += c[j] + 3;
                    }
                    const MPI_Count mine = c[rank];
                    memset(one, 0xEE, 3001);
                    memset(many, 0xEE, (size_t)at);
                    if (g) { /* each rank's block; the root's in place in `many` */
                        for (int t = 0; t < mine; t++)
                            (in_place ? many + d[rank] : one)[t] = byte_of(rank, call, t);
                    } else if (rank == root) {
                        for (int j = 0; j < size; j++)
                            for (int t = 0; t < c[j]; t++)
                                many[d[j] + t] = byte_of(j, call, t);
                    }
                    const void *sb = g ? (in_place ? MPI_IN_PLACE : (void *)one) : many;
                    void *rb = g ? many : in_place ? MPI_IN_PLACE : (void *)one;
                    MPI_Request r;
                    int rc;
                    if (g)
                        rc = form == 0 ? colibri_gatherv(sb, mine, MPI_BYTE, rb, c, d, MPI_BYTE,
                                                         root, MPI_COMM_WORLD, alg)
                             : form == 1 ? colibri_igatherv(sb, mine, MPI_BYTE, rb, c, d, MPI_BYTE,
                                                            root, MPI_COMM_WORLD, alg, &r)
                                         : colibri_gatherv_init(sb, mine, MPI_BYTE, rb, c, d,
                                                                MPI_BYTE, root, MPI_COMM_WORLD,
                                                                alg, &r);
                    else
                        rc = form == 0 ? colibri_scatterv(sb, c, d, MPI_BYTE, rb, mine, MPI_BYTE,
                                                          root, MPI_COMM_WORLD, alg)
                             : form == 1 ? colibri_iscatterv(sb, c, d, MPI_BYTE, rb, mine,
                                                             MPI_BYTE, root, MPI_COMM_WORLD, alg,
                                                             &r)
                                         : colibri_scatterv_init(sb, c, d, MPI_BYTE, rb, mine,
                                                                 MPI_BYTE, root, MPI_COMM_WORLD,
                                                                 alg, &r);
                    if (rc == MPI_SUCCESS)
                        finish(form, &r);
                    int ok = rc == MPI_SUCCESS;
                    if (g && rank == root)
                        for (int j = 0; j < size && ok; j++) {
                            for (int t = 0; t < c[j] && ok; t++)
                                ok = many[d[j] + t] == byte_of(j, call, t);
                            for (int t = 0; t < 3 && ok; t++) /* the gap after it */
                                ok = many[d[j] + c[j] + t] == 0xEE;
                        }
                    if (!g) { /* its block; the root's stays in `many` when in place */
                        const unsigned char *mb = in_place ? many + d[rank] : one;
                        for (int t = 0; t < mine && ok; t++)
                            ok = mb[t] == byte_of(rank, call, t);
                        if (!in_place)
                            ok = ok && one[mine] == 0xEE;
                    }
                    if (ok && alg && form == 0)
                        ok = strcmp(colibri_last_algorithm(MPI_COMM_WORLD, coll), alg) == 0;
                    char what[160];
                    snprintf(what, sizeof what, "%s %s form %d root %d%s call %d", g ? "gatherv" : "scatterv",
                             alg ? alg : "auto", form, root, ip ? " in place" : "", call);
                    smpi_report(ok, what);
                }
    free(c);
    free(d);
    free(one);
    free(many);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *def[] = {"node_leader", "node_rails", "binomial", "auto"};
    const int n = argc > 1 ? argc - 1 : 4;
    for (int i = 0; i < n; i++) {
        const char *name = argc > 1 ? argv[i + 1] : def[i];
        const char *alg = strcmp(name, "auto") == 0 ? NULL : name;
        if (!alg || strcmp(name, "node_leader") == 0) {
            check_bcast(alg);
            check_barrier(alg);
            check_rooted(alg, true);
            check_rooted(alg, false);
        }
        if (!alg || strcmp(name, "node_rails") == 0) {
            check_allgather(alg);
            check_allgatherv(alg);
        }
        if (!alg || strcmp(name, "binomial") == 0) {
            check_rooted_v(alg, true);
            check_rooted_v(alg, false);
        }
    }
    /* every count is agreed over the ranks (smpi_report) */
    if (rank == 0)
        check_print_totals(check_passed, check_failed);
    MPI_Finalize();
    return check_failed ? 1 : 0;
}
