// ranks: 1 2 3 4 5 6 7 8
// mpich-ranks: 2
// ompi5-ranks: 1 2 3 4
// mpich5-ranks: 1 2
// impi-ranks: 1 2
// abi-ranks: 1 2
// asan-ranks: 1 3
// env-ranks: COLIBRI_NODE_SHM_BYTES=4096 3 5
/*
 * Allgather, allgatherv, bcast, barrier, gather(v) and scatter(v), blocking, every algorithm of the catalog
 * found at run time and forced by name through the C API, then "auto" and
 * "native", on MPI_COMM_WORLD and on a split communicator in reversed rank
 * order, against a serial expectation:
 *  - allgather: counts 0, 1, 2, 7, 131 ints, in place or not; derived
 *    types with equal signatures: n MPI_INTs sent against one contiguous
 *    type of n ints received, a strided receive type (its gaps must stay
 *    untouched) and a resized type whose extent is twice its size; the
 *    send buffer never written;
 *  - allgatherv: uneven counts with empty blocks, in reverse rank order
 *    with gaps, in place or not, received as MPI_INT or as a resized type
 *    (a gap after every element); Bruck also at COLIBRI_RADIX 2 and 3;
 *  - bcast: every root, counts 0, 1, 2, 7, 131, 1000 ints, and the strided
 *    type (gaps untouched on every rank); the pipelined ones (pipeline,
 *    binary_tree) also with COLIBRI_SEGMENT_BYTES 5 and 1000 (many
 *    segments, cut mid-element);
 *  - barrier: no rank leaves before every rank has entered: each adds one
 *    to a counter in a shared-memory window before the barrier and reads
 *    p after it (when every rank shares a node, as here);
 *  - colibri_last_algorithm names the forced algorithm after each call;
 *  - the interposed MPI_Allgather(v), MPI_Bcast and MPI_Barrier with
 *    COLIBRI_<COLL>_ALGORITHM set (colibri_config_reload);
 *  - intercommunicators (groups of different sizes) go to the MPI below:
 *    MPI_Bcast (MPI_ROOT, MPI_PROC_NULL), MPI_Allgather(v) (each group gets
 *    the other's blocks), MPI_Barrier, and the C API's blocking and
 *    nonblocking forms, checked from the standard's definitions;
 *  - errors: a root out of range (MPI_ERR_ROOT), unequal signatures
 *    (MPI_ERR_TRUNCATE), an unknown algorithm (MPI_ERR_ARG), with no
 *    buffer touched; allgather's neighbor_exchange forced at odd p
 *    (MPI_ERR_ARG, untouched: no fallback), run at even p; every
 *    algorithm's loops skip those whose restrictions exclude p;
 *  - gather and scatter: every algorithm, auto and native, every root,
 *    counts 0, 1, 7, 131 ints, the root's side in each of allgather's
 *    receive types (gaps untouched), in place at the root or not, the
 *    other ranks' root-side arguments a NULL buffer, count -1 and
 *    MPI_DATATYPE_NULL under a named algorithm (MPI does not read them),
 *    their buffers untouched; gatherv and scatterv: uneven counts with
 *    empty blocks in reverse rank order with gaps, MPI_INT or the resized
 *    type, in place or not, every root, NULL arrays off the root; the
 *    interposed entry points forced by the environment; the MPI-4 _c and
 *    persistent ones; intercommunicators (MPI_ROOT, MPI_PROC_NULL) below;
 *    errors every rank finds alike (root, negative counts, unknown
 *    algorithm) and, on one rank, the root's own (signatures, NULL arrays,
 *    a negative recvcounts entry, MPI_IN_PLACE as its p-block buffer).
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"

#define CHECK_MAX_LINES 20
#include "../lib/check.h"
#include "../lib/algorithms.h"

static int wrank, wsize;

#define CHECK(cond, ...) CHECK_RANKED(wrank, cond, __VA_ARGS__)

#define GUARD (-55555)

static int val(int r, int i, int k) { return (r * 131 + i * 7 + k * 17) % 100003 - 500; }

static int algorithms(colibri_coll coll, const char **names, int max)
{
    return test_algorithms_for(coll, false, wsize, names, max); /* every comm here: wsize ranks */
}

static void check_last(MPI_Comm comm, colibri_coll coll, const char *alg)
{
    const char *ran = colibri_last_algorithm(comm, coll);
    if (alg)
        CHECK(ran && strcmp(ran, alg) == 0, "%s: last algorithm %s, forced %s",
              colibri_coll_name(coll), ran ? ran : "(none)", alg);
    else
        CHECK(ran != NULL, "%s: no last algorithm after an automatic call",
              colibri_coll_name(coll));
}

/* ---- allgather ---- */

enum ag_type { AG_INT, AG_CONTIG, AG_STRIDED, AG_RESIZED, AG_NTYPES };
static const char *const ag_type_names[AG_NTYPES] = {"int", "contiguous", "strided", "resized"};

/* Receive type for n ints per block: its datatype, count per block, the
 * extent of a block in ints and where element i of a block lies in it. */
struct rtype {
    MPI_Datatype dt;
    int count, block_ints, stride;
};

static struct rtype make_rtype(enum ag_type t, int n)
{
    struct rtype r = {MPI_INT, n, n, 1};
    MPI_Datatype v;
    switch (t) {
    case AG_INT:
        break;
    case AG_CONTIG:
        MPI_Type_contiguous(n, MPI_INT, &r.dt);
        MPI_Type_commit(&r.dt);
        r.count = n ? 1 : 0;
        if (!n) { /* a zero-size type: count it as 0 of MPI_INT */
            MPI_Type_free(&r.dt);
            r.dt = MPI_INT;
        }
        break;
    case AG_STRIDED: /* n ints, every other one: the block spans 2n ints */
        MPI_Type_vector(n ? n : 1, 1, 2, MPI_INT, &v);
        MPI_Type_create_resized(v, 0, (MPI_Aint)(2 * (n ? n : 1) * sizeof(int)), &r.dt);
        MPI_Type_free(&v);
        MPI_Type_commit(&r.dt);
        r.count = n ? 1 : 0;
        r.block_ints = 2 * n, r.stride = 2;
        break;
    case AG_RESIZED: /* one int of extent two ints */
        MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &r.dt);
        MPI_Type_commit(&r.dt);
        r.block_ints = 2 * n, r.stride = 2;
        break;
    default:
        break;
    }
    return r;
}

static void free_rtype(struct rtype *r)
{
    if (r->dt != MPI_INT)
        MPI_Type_free(&r->dt);
}

static void allgather_case(MPI_Comm comm, const char *cname, const char *alg, int n,
                           enum ag_type t, bool in_place, int k, bool interposed)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    struct rtype rt = make_rtype(t, n);
    const int total = rt.block_ints * p + 1;
    int *rbuf = malloc((size_t)total * sizeof(int)), *sbuf = malloc((size_t)(n + 1) * sizeof(int));
    for (int i = 0; i < total; i++)
        rbuf[i] = GUARD;
    for (int i = 0; i < n; i++)
        sbuf[i] = val(me, i, k);
    sbuf[n] = GUARD;
    if (in_place)
        for (int i = 0; i < n; i++)
            rbuf[me * rt.block_ints + i * rt.stride] = val(me, i, k);
    const void *s = in_place ? MPI_IN_PLACE : sbuf;
    int rc = interposed ? MPI_Allgather(s, n, MPI_INT, rbuf, rt.count, rt.dt, comm)
                        : colibri_allgather(s, n, MPI_INT, rbuf, rt.count, rt.dt, comm, alg);
    int bad = -1, want = 0;
    for (int i = 0; i < total && bad < 0; i++) {
        const int j = i / (rt.block_ints ? rt.block_ints : 1), w = i % (rt.block_ints ? rt.block_ints : 1);
        want = i < rt.block_ints * p && w % rt.stride == 0 ? val(j, w / rt.stride, k) : GUARD;
        if (rbuf[i] != want)
            bad = i;
    }
    for (int i = 0; i <= n && !in_place && bad < 0; i++)
        if (sbuf[i] != (i < n ? val(me, i, k) : GUARD))
            bad = total + i, want = -1;
    CHECK(rc == MPI_SUCCESS && bad < 0,
          "allgather %s on %s p=%d n=%d %s%s%s: rc %d, element %d is %d, expected %d",
          alg ? alg : "auto", cname, p, n, ag_type_names[t], in_place ? " in place" : "",
          interposed ? " interposed" : "", rc, bad,
          bad >= 0 && bad < total ? rbuf[bad] : 0, want);
    if (!interposed && (!alg || strcmp(alg, "native")))
        check_last(comm, COLIBRI_ALLGATHER, alg);
    free(rbuf);
    free(sbuf);
    free_rtype(&rt);
}

static void test_allgather(MPI_Comm comm, const char *cname)
{
    static const int counts[] = {0, 1, 2, 7, 131};
    const char *names[32];
    const int nalg = algorithms(COLIBRI_ALLGATHER, names, 32);
    int k = 0;
    for (int a = 0; a < nalg; a++)
        for (unsigned c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int t = 0; t < AG_NTYPES; t++)
                for (int ip = 0; ip < 2; ip++)
                    allgather_case(comm, cname, names[a], counts[c], (enum ag_type)t, ip, k++,
                                   false);
}

/* ---- allgatherv ---- */

/* Blocks of uneven counts (some empty) in reverse rank order with a gap of
 * one element after each; the receive type MPI_INT or one int of extent
 * two (resized: a gap after every element). */
static void allgatherv_case(MPI_Comm comm, const char *cname, const char *alg, int n, bool resized,
                            bool in_place, int k, bool interposed)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    const int stride = resized ? 2 : 1;
    MPI_Datatype rt = MPI_INT;
    if (resized) {
        MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &rt);
        MPI_Type_commit(&rt);
    }
    MPI_Count *rc = malloc((size_t)p * sizeof *rc);
    MPI_Aint *rd = malloc((size_t)p * sizeof *rd);
    int *ic = calloc((size_t)p, sizeof *ic), *id = calloc((size_t)p, sizeof *id), span = 0;
    for (int j = p - 1; j >= 0; j--) {
        rc[j] = ic[j] = (j + n) % 3 == 0 ? 0 : n + j;
        rd[j] = id[j] = span;
        span += ic[j] + 1;
    }
    const int total = span * stride + 1;
    int *rbuf = malloc((size_t)total * sizeof(int)), *sbuf = malloc((size_t)(ic[me] + 1) * sizeof(int));
    for (int i = 0; i < total; i++)
        rbuf[i] = GUARD;
    for (int i = 0; i <= ic[me]; i++)
        sbuf[i] = i < ic[me] ? val(me, i, k) : GUARD;
    if (in_place)
        for (int i = 0; i < ic[me]; i++)
            rbuf[(id[me] + i) * stride] = val(me, i, k);
    const void *s = in_place ? MPI_IN_PLACE : sbuf;
    int ret = interposed ? MPI_Allgatherv(s, ic[me], MPI_INT, rbuf, ic, id, rt, comm)
                         : colibri_allgatherv(s, ic[me], MPI_INT, rbuf, rc, rd, rt, comm, alg);
    int *want = malloc((size_t)total * sizeof(int)), bad = -1;
    for (int i = 0; i < total; i++)
        want[i] = GUARD;
    for (int j = 0; j < p; j++)
        for (int i = 0; i < ic[j]; i++)
            want[(id[j] + i) * stride] = val(j, i, k);
    for (int i = 0; i < total && bad < 0; i++)
        if (rbuf[i] != want[i])
            bad = i;
    for (int i = 0; i <= ic[me] && bad < 0 && !in_place; i++)
        if (sbuf[i] != (i < ic[me] ? val(me, i, k) : GUARD))
            bad = total + i;
    CHECK(ret == MPI_SUCCESS && bad < 0,
          "allgatherv %s on %s p=%d n=%d%s%s%s: rc %d, element %d is %d, expected %d",
          alg ? alg : "auto", cname, p, n, resized ? " resized" : "", in_place ? " in place" : "",
          interposed ? " interposed" : "", ret, bad, bad >= 0 && bad < total ? rbuf[bad] : 0,
          bad >= 0 && bad < total ? want[bad] : 0);
    if (!interposed && (!alg || strcmp(alg, "native")))
        check_last(comm, COLIBRI_ALLGATHERV, alg);
    free(rc), free(rd), free(ic), free(id), free(rbuf), free(sbuf), free(want);
    if (resized)
        MPI_Type_free(&rt);
}

static void test_allgatherv(MPI_Comm comm, const char *cname)
{
    static const int counts[] = {0, 1, 5, 40};
    const char *names[32];
    const int nalg = algorithms(COLIBRI_ALLGATHERV, names, 32);
    int k = 0;
    for (int a = 0; a < nalg; a++)
        for (unsigned c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int t = 0; t < 2; t++)
                for (int ip = 0; ip < 2; ip++)
                    allgatherv_case(comm, cname, names[a], counts[c], t, ip, k++, false);
    /* Bruck named runs at the model's radix (often p: one round); also at
     * radix 2 and 3 (COLIBRI_RADIX), several rounds of runs of slots */
    static const char *const radices[] = {"2", "3"};
    for (unsigned g = 0; g < sizeof radices / sizeof *radices; g++) {
        setenv("COLIBRI_RADIX", radices[g], 1);
        colibri_config_reload();
        for (int a = 0; a < nalg; a++)
            if (names[a] && strcmp(names[a], "bruck") == 0)
                for (unsigned c = 0; c < sizeof counts / sizeof *counts; c++)
                    for (int t = 0; t < 2; t++)
                        for (int ip = 0; ip < 2; ip++)
                            allgatherv_case(comm, cname, names[a], counts[c], t, ip, k++, false);
    }
    unsetenv("COLIBRI_RADIX");
    colibri_config_reload();
}

/* ---- bcast ---- */

static void bcast_case(MPI_Comm comm, const char *cname, const char *alg, int n, int root,
                       bool strided, int k, bool interposed)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    MPI_Datatype dt = MPI_INT;
    const int stride = strided ? 2 : 1, total = n * stride + 1;
    if (strided) {
        MPI_Type_vector(1, 1, 2, MPI_INT, &dt); /* one int, then a gap */
        MPI_Datatype r;
        MPI_Type_create_resized(dt, 0, 2 * sizeof(int), &r);
        MPI_Type_free(&dt);
        dt = r;
        MPI_Type_commit(&dt);
    }
    int *buf = malloc((size_t)total * sizeof(int));
    for (int i = 0; i < total; i++)
        buf[i] = me == root && i % stride == 0 && i < n * stride ? val(root, i / stride, k) : GUARD;
    int rc = interposed ? MPI_Bcast(buf, n, dt, root, comm)
                        : colibri_bcast(buf, n, dt, root, comm, alg);
    int bad = -1, want = 0;
    for (int i = 0; i < total && bad < 0; i++) {
        want = i % stride == 0 && i < n * stride ? val(root, i / stride, k) : GUARD;
        if (buf[i] != want)
            bad = i;
    }
    CHECK(rc == MPI_SUCCESS && bad < 0,
          "bcast %s on %s p=%d n=%d root=%d%s%s: rc %d, element %d is %d, expected %d",
          alg ? alg : "auto", cname, p, n, root, strided ? " strided" : "",
          interposed ? " interposed" : "", rc, bad, bad >= 0 ? buf[bad] : 0, want);
    if (!interposed && (!alg || strcmp(alg, "native")))
        check_last(comm, COLIBRI_BCAST, alg);
    free(buf);
    if (strided)
        MPI_Type_free(&dt);
}

static void test_bcast(MPI_Comm comm, const char *cname)
{
    static const int counts[] = {0, 1, 2, 7, 131, 1000};
    int p;
    MPI_Comm_size(comm, &p);
    const char *names[32];
    const int nalg = algorithms(COLIBRI_BCAST, names, 32);
    int k = 0;
    for (int a = 0; a < nalg; a++)
        for (unsigned c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int root = 0; root < p; root++)
                for (int st = 0; st < 2; st++)
                    bcast_case(comm, cname, names[a], counts[c], root, st, k++, false);
    /* The pipelined ones cut the buffer in segments of COLIBRI_SEGMENT_BYTES
     * (64 KiB, more than any count here): also in many short segments, 5
     * bytes (cutting ints, and the packed strided type, mid-element) and
     * 1000 (4000-byte buffers in four, the last short). */
    static const char *const segs[] = {"5", "1000"};
    for (unsigned g = 0; g < sizeof segs / sizeof *segs; g++) {
        setenv("COLIBRI_SEGMENT_BYTES", segs[g], 1);
        colibri_config_reload();
        for (int a = 0; a < nalg; a++)
            if (names[a] && strcmp(names[a], "native") &&
                (!strcmp(names[a], "pipeline") || !strcmp(names[a], "binary_tree")))
                for (unsigned c = 0; c < sizeof counts / sizeof *counts; c++)
                    for (int root = 0; root < p; root++)
                        for (int st = 0; st < 2; st++)
                            bcast_case(comm, cname, names[a], counts[c], root, st, k++, false);
    }
    unsetenv("COLIBRI_SEGMENT_BYTES");
    colibri_config_reload();
}

/* ---- barrier ---- */

/* Every rank adds one to a shared counter, then the barrier; after it
 * every rank must read the number of ranks times the round.  Needs every
 * rank of comm on one node (here they are; else skipped). */
static void test_barrier(MPI_Comm comm, const char *cname)
{
    int me, p, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    MPI_Comm node;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &np);
    int all_one = np == p, ok1;
    PMPI_Allreduce(&all_one, &ok1, 1, MPI_INT, MPI_LAND, comm);
    if (!ok1) {
        MPI_Comm_free(&node);
        return;
    }
    MPI_Win win;
    int64_t *counter;
    MPI_Aint sz;
    int du;
    MPI_Win_allocate_shared(me == 0 ? sizeof(int64_t) : 0, sizeof(int64_t), MPI_INFO_NULL, node,
                            &counter, &win);
    MPI_Win_shared_query(win, 0, &sz, &du, &counter);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    if (me == 0)
        __atomic_store_n(counter, 0, __ATOMIC_SEQ_CST);
    MPI_Win_sync(win);
    PMPI_Barrier(comm);
    const char *names[32];
    const int nalg = algorithms(COLIBRI_BARRIER, names, 32);
    int64_t round = 0;
    for (int a = 0; a < nalg; a++)
        for (int rep = 0; rep < 5; rep++) {
            round++;
            if (me == (int)(round % p)) { /* a late rank */
                double t0 = MPI_Wtime();
                while (MPI_Wtime() - t0 < 0.002)
                    ;
            }
            __atomic_fetch_add(counter, 1, __ATOMIC_SEQ_CST);
            int rc = colibri_barrier(comm, names[a]);
            const int64_t seen = __atomic_load_n(counter, __ATOMIC_SEQ_CST);
            CHECK(rc == MPI_SUCCESS && seen >= round * p,
                  "barrier %s on %s p=%d: rc %d, left having seen %lld of %lld entries",
                  names[a] ? names[a] : "auto", cname, p, rc, (long long)seen,
                  (long long)(round * p));
            if (names[a] && strcmp(names[a], "native"))
                check_last(comm, COLIBRI_BARRIER, names[a]);
            /* nobody adds for the next round before everyone has read */
            PMPI_Barrier(comm);
        }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Comm_free(&node);
}

/* ---- the interposed entry points, forced by the environment ---- */

static void test_interposed(void)
{
    int k = 1000;
    const char *colls[] = {"COLIBRI_ALLGATHER_ALGORITHM", "COLIBRI_BCAST_ALGORITHM",
                           "COLIBRI_ALLGATHERV_ALGORITHM"};
    const colibri_coll cc[] = {COLIBRI_ALLGATHER, COLIBRI_BCAST, COLIBRI_ALLGATHERV};
    for (int c = 0; c < 3; c++) {
        const char *names[32];
        const int nalg = algorithms(cc[c], names, 32);
        for (int a = 0; a < nalg - 2; a++) {
            setenv(colls[c], names[a], 1);
            colibri_config_reload();
            if (cc[c] == COLIBRI_ALLGATHER) {
                allgather_case(MPI_COMM_WORLD, "world", names[a], 5, AG_INT, false, k++, true);
                allgather_case(MPI_COMM_WORLD, "world", names[a], 5, AG_STRIDED, true, k++, true);
            } else if (cc[c] == COLIBRI_BCAST) {
                bcast_case(MPI_COMM_WORLD, "world", names[a], 9, wsize - 1, false, k++, true);
            } else {
                allgatherv_case(MPI_COMM_WORLD, "world", names[a], 4, true, false, k++, true);
                allgatherv_case(MPI_COMM_WORLD, "world", names[a], 2, false, true, k++, true);
            }
            const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, cc[c]);
            CHECK(ran && strcmp(ran, names[a]) == 0, "interposed %s ran %s, forced %s",
                  colibri_coll_name(cc[c]), ran ? ran : "(none)", names[a]);
            unsetenv(colls[c]);
        }
    }
    setenv("COLIBRI_BARRIER_ALGORITHM", "dissemination", 1);
    colibri_config_reload();
    int rc = MPI_Barrier(MPI_COMM_WORLD);
    const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_BARRIER);
    CHECK(rc == MPI_SUCCESS && ran && strcmp(ran, "dissemination") == 0,
          "interposed MPI_Barrier: rc %d, ran %s", rc, ran ? ran : "(none)");
    unsetenv("COLIBRI_BARRIER_ALGORITHM");
    colibri_config_reload();
}

/* ---- intercommunicators: the MPI below's ---- */

static void test_intercomm(void)
{
    if (wsize < 2)
        return;
    /* group 0: ranks 0 .. h-1, group 1: the rest (h = wsize / 3 + 1 < wsize) */
    const int h = wsize / 3 + 1, g = wrank < h;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, g, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, g ? h : 0, 77, &inter);
    int lrank, lsize, rsize;
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    for (int form = 0; form < 3; form++) { /* interposed, C API, C API nonblocking */
        /* bcast from group 0's rank 0 to group 1 */
        int buf[5];
        for (int i = 0; i < 5; i++)
            buf[i] = g && lrank == 0 ? val(0, i, form) : GUARD;
        const int root = g ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        MPI_Request r = MPI_REQUEST_NULL;
        int rc = form == 0   ? MPI_Bcast(buf, 5, MPI_INT, root, inter)
                 : form == 1 ? colibri_bcast(buf, 5, MPI_INT, root, inter, NULL)
                             : colibri_ibcast(buf, 5, MPI_INT, root, inter, NULL, &r);
        if (form == 2 && rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        bool ok = rc == MPI_SUCCESS;
        for (int i = 0; i < 5; i++)
            ok = ok && buf[i] == (g && lrank != 0 ? GUARD : val(0, i, form));
        CHECK(ok, "intercommunicator bcast, form %d: rc %d", form, rc);

        /* allgather: each group receives the other's blocks */
        int sb[2] = {val(wrank, 0, form), val(wrank, 1, form)}, *rb = malloc(2 * (size_t)rsize * sizeof(int));
        for (int i = 0; i < 2 * rsize; i++)
            rb[i] = GUARD;
        rc = form == 0   ? MPI_Allgather(sb, 2, MPI_INT, rb, 2, MPI_INT, inter)
             : form == 1 ? colibri_allgather(sb, 2, MPI_INT, rb, 2, MPI_INT, inter, NULL)
                         : colibri_iallgather(sb, 2, MPI_INT, rb, 2, MPI_INT, inter, NULL, &r);
        if (form == 2 && rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        ok = rc == MPI_SUCCESS;
        for (int j = 0; j < rsize; j++) {
            const int wr = g ? h + j : j; /* world rank of remote rank j */
            ok = ok && rb[2 * j] == val(wr, 0, form) && rb[2 * j + 1] == val(wr, 1, form);
        }
        CHECK(ok, "intercommunicator allgather, form %d: rc %d", form, rc);
        free(rb);

        /* allgatherv: one int from each remote rank, in reverse order */
        int *ic = malloc((size_t)rsize * sizeof *ic), *id = malloc((size_t)rsize * sizeof *id);
        MPI_Count *cc = malloc((size_t)rsize * sizeof *cc);
        MPI_Aint *cd = malloc((size_t)rsize * sizeof *cd);
        rb = malloc((size_t)rsize * sizeof(int));
        for (int j = 0; j < rsize; j++)
            ic[j] = cc[j] = 1, id[j] = cd[j] = rsize - 1 - j, rb[j] = GUARD;
        rc = form == 0   ? MPI_Allgatherv(sb, 1, MPI_INT, rb, ic, id, MPI_INT, inter)
             : form == 1 ? colibri_allgatherv(sb, 1, MPI_INT, rb, cc, cd, MPI_INT, inter, NULL)
                         : colibri_iallgatherv(sb, 1, MPI_INT, rb, cc, cd, MPI_INT, inter, NULL, &r);
        if (form == 2 && rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        ok = rc == MPI_SUCCESS;
        for (int j = 0; j < rsize; j++)
            ok = ok && rb[rsize - 1 - j] == val(g ? h + j : j, 0, form);
        CHECK(ok, "intercommunicator allgatherv, form %d: rc %d", form, rc);
        free(ic), free(id), free(cc), free(cd), free(rb);

        rc = form == 0   ? MPI_Barrier(inter)
             : form == 1 ? colibri_barrier(inter, NULL)
                         : colibri_ibarrier(inter, NULL, &r);
        if (form == 2 && rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS, "intercommunicator barrier, form %d: rc %d", form, rc);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

/* ---- errors ---- */

static void test_errors(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int buf[8], sbuf[2] = {1, 2}, cls = 0;
    for (int i = 0; i < 8; i++)
        buf[i] = GUARD;
    int rc = colibri_bcast(buf, 2, MPI_INT, wsize, c, NULL);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ROOT, "bcast with root p: class %d", cls);
    if (wsize <= 4) {
        rc = colibri_allgather(sbuf, 2, MPI_INT, buf, 1, MPI_INT, c, NULL);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE, "allgather of unequal signatures: class %d", cls);
    }
    rc = colibri_barrier(c, "bogus");
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "barrier 'bogus': class %d", cls);
    bool untouched = true;
    for (int i = 0; i < 8; i++)
        untouched = untouched && buf[i] == GUARD;
    CHECK(untouched, "a refused call wrote its buffer");
    /* neighbour exchange pairs ranks: at odd p a forced call is refused
     * (MPI_ERR_ARG, the buffer untouched), never run as another algorithm */
    if (wsize <= 8) {
        rc = colibri_allgather(sbuf, 1, MPI_INT, buf, 1, MPI_INT, c, "neighbor_exchange");
        MPI_Error_class(rc, &cls);
        untouched = true;
        for (int i = 0; i < 8; i++)
            untouched = untouched && buf[i] == GUARD;
        if (wsize % 2)
            CHECK(cls == MPI_ERR_ARG && untouched,
                  "neighbor_exchange at odd p=%d: class %d, buffer %s", wsize, cls,
                  untouched ? "untouched" : "written");
        else
            CHECK(rc == MPI_SUCCESS && buf[0] == 1 && buf[wsize - 1] == 1,
                  "neighbor_exchange at even p=%d: rc %d", wsize, rc);
    }
    MPI_Comm_free(&c);
}

/* ---- gather, gatherv, scatter, scatterv ---- */

/* A named colibri algorithm reads nothing that MPI does not make
 * significant: the other ranks then pass a NULL buffer, a negative count,
 * MPI_DATATYPE_NULL and NULL arrays for the root's side (the MPI below and
 * automatic selection, which may explore it, get ordinary arguments). */
static bool garbage_ok(const char *alg) { return alg && strcmp(alg, "native") != 0; }

/* The root's p blocks of n ints in the receive type t (gather), every
 * other rank's buffer untouched; in place at the root its own block is
 * already there. */
static void gather_case(MPI_Comm comm, const char *cname, const char *alg, int n, enum ag_type t,
                        bool in_place, int root, int k, bool interposed)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    struct rtype rt = make_rtype(t, n);
    const int total = rt.block_ints * p + 1;
    const bool mine = me == root, ip = in_place && mine;
    int *rbuf = malloc((size_t)total * sizeof(int)), *sbuf = malloc((size_t)(n + 1) * sizeof(int));
    for (int i = 0; i < total; i++)
        rbuf[i] = GUARD;
    for (int i = 0; i < n; i++)
        sbuf[i] = val(me, i, k);
    sbuf[n] = GUARD;
    if (ip)
        for (int i = 0; i < n; i++)
            rbuf[me * rt.block_ints + i * rt.stride] = val(me, i, k);
    const bool junk = !mine && garbage_ok(alg) && !interposed;
    void *r = junk ? NULL : rbuf;
    const int rcount = junk ? -1 : rt.count;
    const MPI_Datatype rdt = junk ? MPI_DATATYPE_NULL : rt.dt;
    const void *sb = ip ? MPI_IN_PLACE : sbuf;
    int rc = interposed ? MPI_Gather(sb, n, MPI_INT, r, rcount, rdt, root, comm)
                        : colibri_gather(sb, n, MPI_INT, r, rcount, rdt, root, comm, alg);
    int bad = -1, want = 0;
    for (int i = 0; i < total && bad < 0; i++) {
        const int b = rt.block_ints ? rt.block_ints : 1, j = i / b, w = i % b;
        want = mine && i < rt.block_ints * p && w % rt.stride == 0 ? val(j, w / rt.stride, k)
                                                                   : GUARD;
        if (rbuf[i] != want)
            bad = i;
    }
    for (int i = 0; i <= n && bad < 0; i++)
        if (sbuf[i] != (i < n ? val(me, i, k) : GUARD))
            bad = total + i, want = -1;
    CHECK(rc == MPI_SUCCESS && bad < 0,
          "gather %s on %s p=%d n=%d root=%d %s%s%s: rc %d, element %d is %d, expected %d",
          alg ? alg : "auto", cname, p, n, root, ag_type_names[t], in_place ? " in place" : "",
          interposed ? " interposed" : "", rc, bad, bad >= 0 && bad < total ? rbuf[bad] : 0, want);
    if (!interposed && (!alg || strcmp(alg, "native")))
        check_last(comm, COLIBRI_GATHER, alg);
    free(rbuf);
    free(sbuf);
    free_rtype(&rt);
}

/* The root's p blocks of n ints in the send type t (scatter) to every
 * rank's n ints; in place the root's own block stays in its send buffer
 * and its receive buffer is untouched. */
static void scatter_case(MPI_Comm comm, const char *cname, const char *alg, int n, enum ag_type t,
                         bool in_place, int root, int k, bool interposed)
{
    int me, p;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    struct rtype st = make_rtype(t, n);
    const int total = st.block_ints * p + 1;
    const bool mine = me == root, ip = in_place && mine;
    int *sbuf = malloc((size_t)total * sizeof(int)), *rbuf = malloc((size_t)(n + 1) * sizeof(int));
    for (int i = 0; i < total; i++) {
        const int b = st.block_ints ? st.block_ints : 1, j = i / b, w = i % b;
        sbuf[i] = mine && i < st.block_ints * p && w % st.stride == 0 ? val(j, w / st.stride, k)
                                                                      : GUARD;
    }
    for (int i = 0; i <= n; i++)
        rbuf[i] = GUARD;
    const bool junk = !mine && garbage_ok(alg) && !interposed;
    const void *sb = junk ? NULL : sbuf;
    const int scount = junk ? -1 : st.count;
    const MPI_Datatype sdt = junk ? MPI_DATATYPE_NULL : st.dt;
    void *rb = ip ? MPI_IN_PLACE : rbuf;
    int rc = interposed ? MPI_Scatter(sb, scount, sdt, rb, n, MPI_INT, root, comm)
                        : colibri_scatter(sb, scount, sdt, rb, n, MPI_INT, root, comm, alg);
    int bad = -1, want = 0;
    for (int i = 0; i <= n && bad < 0; i++) {
        want = i < n && !ip ? val(me, i, k) : GUARD;
        if (rbuf[i] != want)
            bad = i;
    }
    for (int i = 0; i < total && bad < 0; i++) {
        const int b = st.block_ints ? st.block_ints : 1, j = i / b, w = i % b;
        want = mine && i < st.block_ints * p && w % st.stride == 0 ? val(j, w / st.stride, k)
                                                                   : GUARD;
        if (sbuf[i] != want)
            bad = n + 1 + i;
    }
    CHECK(rc == MPI_SUCCESS && bad < 0,
          "scatter %s on %s p=%d n=%d root=%d %s%s%s: rc %d, element %d is %d, expected %d",
          alg ? alg : "auto", cname, p, n, root, ag_type_names[t], in_place ? " in place" : "",
          interposed ? " interposed" : "", rc, bad, bad >= 0 && bad <= n ? rbuf[bad] : 0, want);
    if (!interposed && (!alg || strcmp(alg, "native")))
        check_last(comm, COLIBRI_SCATTER, alg);
    free(rbuf);
    free(sbuf);
    free_rtype(&st);
}

/* The v forms' blocks: uneven counts (some empty) in reverse rank order
 * with a gap of one element after each, the root's side MPI_INT or one int
 * of extent two (resized: a gap after every element); *span is the
 * root's buffer in elements of that type. */
static void v_layout(int p, int n, MPI_Count *c, MPI_Aint *d, int *ic, int *id, int *span)
{
    *span = 0;
    for (int j = p - 1; j >= 0; j--) {
        c[j] = ic[j] = (j + n) % 3 == 0 ? 0 : n + j;
        d[j] = id[j] = *span;
        *span += ic[j] + 1;
    }
}

static void gatherv_case(MPI_Comm comm, const char *cname, const char *alg, int n, bool resized,
                         bool in_place, int root, int k, bool interposed)
{
    int me, p, span;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    const int stride = resized ? 2 : 1;
    const bool mine = me == root, ip = in_place && mine;
    MPI_Datatype rt = MPI_INT;
    if (resized) {
        MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &rt);
        MPI_Type_commit(&rt);
    }
    MPI_Count *rc = malloc((size_t)p * sizeof *rc);
    MPI_Aint *rd = malloc((size_t)p * sizeof *rd);
    int *ic = malloc((size_t)p * sizeof *ic), *id = malloc((size_t)p * sizeof *id);
    v_layout(p, n, rc, rd, ic, id, &span);
    const int total = span * stride + 1;
    int *rbuf = malloc((size_t)total * sizeof(int)), *sbuf = malloc((size_t)(ic[me] + 1) * sizeof(int));
    for (int i = 0; i < total; i++)
        rbuf[i] = GUARD;
    for (int i = 0; i <= ic[me]; i++)
        sbuf[i] = i < ic[me] ? val(me, i, k) : GUARD;
    if (ip)
        for (int i = 0; i < ic[me]; i++)
            rbuf[(id[me] + i) * stride] = val(me, i, k);
    const bool junk = !mine && garbage_ok(alg) && !interposed;
    const void *s = ip ? MPI_IN_PLACE : sbuf;
    int ret = interposed ? MPI_Gatherv(s, ic[me], MPI_INT, junk ? NULL : rbuf, junk ? NULL : ic,
                                       junk ? NULL : id, junk ? MPI_DATATYPE_NULL : rt, root, comm)
                         : colibri_gatherv(s, ic[me], MPI_INT, junk ? NULL : rbuf,
                                           junk ? NULL : rc, junk ? NULL : rd,
                                           junk ? MPI_DATATYPE_NULL : rt, root, comm, alg);
    int *want = malloc((size_t)total * sizeof(int)), bad = -1;
    for (int i = 0; i < total; i++)
        want[i] = GUARD;
    for (int j = 0; j < p && mine; j++)
        for (int i = 0; i < ic[j]; i++)
            want[(id[j] + i) * stride] = val(j, i, k);
    for (int i = 0; i < total && bad < 0; i++)
        if (rbuf[i] != want[i])
            bad = i;
    for (int i = 0; i <= ic[me] && bad < 0; i++)
        if (sbuf[i] != (i < ic[me] ? val(me, i, k) : GUARD))
            bad = total + i;
    CHECK(ret == MPI_SUCCESS && bad < 0,
          "gatherv %s on %s p=%d n=%d root=%d%s%s%s: rc %d, element %d is %d, expected %d",
          alg ? alg : "auto", cname, p, n, root, resized ? " resized" : "",
          in_place ? " in place" : "", interposed ? " interposed" : "", ret, bad,
          bad >= 0 && bad < total ? rbuf[bad] : 0, bad >= 0 && bad < total ? want[bad] : 0);
    if (!interposed && (!alg || strcmp(alg, "native")))
        check_last(comm, COLIBRI_GATHERV, alg);
    free(rc), free(rd), free(ic), free(id), free(rbuf), free(sbuf), free(want);
    if (resized)
        MPI_Type_free(&rt);
}

static void scatterv_case(MPI_Comm comm, const char *cname, const char *alg, int n, bool resized,
                          bool in_place, int root, int k, bool interposed)
{
    int me, p, span;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &p);
    const int stride = resized ? 2 : 1;
    const bool mine = me == root, ip = in_place && mine;
    MPI_Datatype st = MPI_INT;
    if (resized) {
        MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &st);
        MPI_Type_commit(&st);
    }
    MPI_Count *sc = malloc((size_t)p * sizeof *sc);
    MPI_Aint *sd = malloc((size_t)p * sizeof *sd);
    int *ic = malloc((size_t)p * sizeof *ic), *id = malloc((size_t)p * sizeof *id);
    v_layout(p, n, sc, sd, ic, id, &span);
    const int total = span * stride + 1;
    int *sbuf = malloc((size_t)total * sizeof(int)), *rbuf = malloc((size_t)(ic[me] + 1) * sizeof(int));
    int *sent = malloc((size_t)total * sizeof(int));
    for (int i = 0; i < total; i++)
        sent[i] = GUARD;
    for (int j = 0; j < p && mine; j++)
        for (int i = 0; i < ic[j]; i++)
            sent[(id[j] + i) * stride] = val(j, i, k);
    memcpy(sbuf, sent, (size_t)total * sizeof(int));
    for (int i = 0; i <= ic[me]; i++)
        rbuf[i] = GUARD;
    const bool junk = !mine && garbage_ok(alg) && !interposed;
    void *r = ip ? MPI_IN_PLACE : rbuf;
    int ret = interposed ? MPI_Scatterv(junk ? NULL : sbuf, junk ? NULL : ic, junk ? NULL : id,
                                        junk ? MPI_DATATYPE_NULL : st, r, ic[me], MPI_INT, root,
                                        comm)
                         : colibri_scatterv(junk ? NULL : sbuf, junk ? NULL : sc,
                                            junk ? NULL : sd, junk ? MPI_DATATYPE_NULL : st, r,
                                            ic[me], MPI_INT, root, comm, alg);
    int bad = -1, want = 0;
    for (int i = 0; i <= ic[me] && bad < 0; i++) {
        want = i < ic[me] && !ip ? val(me, i, k) : GUARD;
        if (rbuf[i] != want)
            bad = i;
    }
    for (int i = 0; i < total && bad < 0; i++)
        if (sbuf[i] != sent[i])
            bad = ic[me] + 1 + i, want = sent[i];
    CHECK(ret == MPI_SUCCESS && bad < 0,
          "scatterv %s on %s p=%d n=%d root=%d%s%s%s: rc %d, element %d is %d, expected %d",
          alg ? alg : "auto", cname, p, n, root, resized ? " resized" : "",
          in_place ? " in place" : "", interposed ? " interposed" : "", ret, bad,
          bad >= 0 && bad <= ic[me] ? rbuf[bad] : 0, want);
    if (!interposed && (!alg || strcmp(alg, "native")))
        check_last(comm, COLIBRI_SCATTERV, alg);
    free(sc), free(sd), free(ic), free(id), free(rbuf), free(sbuf), free(sent);
    if (resized)
        MPI_Type_free(&st);
}

/* Every algorithm, auto and native, every root; gather and scatter with
 * every receive (send) type of allgather's cases, in place or not. */
static void test_rooted(MPI_Comm comm, const char *cname)
{
    static const int counts[] = {0, 1, 7, 131}, vcounts[] = {0, 1, 5, 40};
    int p;
    MPI_Comm_size(comm, &p);
    const char *names[32];
    int k = 0, nalg = algorithms(COLIBRI_GATHER, names, 32);
    for (int a = 0; a < nalg; a++)
        for (unsigned c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int root = 0; root < p; root++)
                for (int t = 0; t < AG_NTYPES; t++)
                    gather_case(comm, cname, names[a], counts[c], (enum ag_type)t, (root + t) % 2,
                                root, k++, false);
    nalg = algorithms(COLIBRI_SCATTER, names, 32);
    for (int a = 0; a < nalg; a++)
        for (unsigned c = 0; c < sizeof counts / sizeof *counts; c++)
            for (int root = 0; root < p; root++)
                for (int t = 0; t < AG_NTYPES; t++)
                    scatter_case(comm, cname, names[a], counts[c], (enum ag_type)t,
                                 (root + t + 1) % 2, root, k++, false);
    nalg = algorithms(COLIBRI_GATHERV, names, 32);
    for (int a = 0; a < nalg; a++)
        for (unsigned c = 0; c < sizeof vcounts / sizeof *vcounts; c++)
            for (int root = 0; root < p; root++)
                for (int t = 0; t < 4; t++)
                    gatherv_case(comm, cname, names[a], vcounts[c], t % 2, t / 2, root, k++,
                                 false);
    nalg = algorithms(COLIBRI_SCATTERV, names, 32);
    for (int a = 0; a < nalg; a++)
        for (unsigned c = 0; c < sizeof vcounts / sizeof *vcounts; c++)
            for (int root = 0; root < p; root++)
                for (int t = 0; t < 4; t++)
                    scatterv_case(comm, cname, names[a], vcounts[c], t % 2, t / 2, root, k++,
                                  false);
}

/* The interposed MPI_Gather(v) and MPI_Scatter(v) with
 * COLIBRI_<COLL>_ALGORITHM set (colibri_config_reload). */
static void test_rooted_interposed(void)
{
    int k = 2000;
    const char *vars[] = {"COLIBRI_GATHER_ALGORITHM", "COLIBRI_SCATTER_ALGORITHM",
                          "COLIBRI_GATHERV_ALGORITHM", "COLIBRI_SCATTERV_ALGORITHM"};
    const colibri_coll cc[] = {COLIBRI_GATHER, COLIBRI_SCATTER, COLIBRI_GATHERV,
                               COLIBRI_SCATTERV};
    for (int c = 0; c < 4; c++) {
        const char *names[32];
        const int nalg = algorithms(cc[c], names, 32);
        for (int a = 0; a < nalg - 2; a++) {
            setenv(vars[c], names[a], 1);
            colibri_config_reload();
            const int root = (a + c) % wsize;
            if (cc[c] == COLIBRI_GATHER) {
                gather_case(MPI_COMM_WORLD, "world", names[a], 5, AG_INT, false, root, k++, true);
                gather_case(MPI_COMM_WORLD, "world", names[a], 3, AG_STRIDED, true, root, k++,
                            true);
            } else if (cc[c] == COLIBRI_SCATTER) {
                scatter_case(MPI_COMM_WORLD, "world", names[a], 5, AG_INT, false, root, k++,
                             true);
                scatter_case(MPI_COMM_WORLD, "world", names[a], 3, AG_RESIZED, true, root, k++,
                             true);
            } else if (cc[c] == COLIBRI_GATHERV) {
                gatherv_case(MPI_COMM_WORLD, "world", names[a], 4, true, false, root, k++, true);
                gatherv_case(MPI_COMM_WORLD, "world", names[a], 2, false, true, root, k++, true);
            } else {
                scatterv_case(MPI_COMM_WORLD, "world", names[a], 4, true, false, root, k++, true);
                scatterv_case(MPI_COMM_WORLD, "world", names[a], 2, false, true, root, k++, true);
            }
            const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, cc[c]);
            CHECK(ran && strcmp(ran, names[a]) == 0, "interposed %s ran %s, forced %s",
                  colibri_coll_name(cc[c]), ran ? ran : "(none)", names[a]);
            unsetenv(vars[c]);
        }
    }
    colibri_config_reload();
}

/* The MPI-4 large-count and persistent entry points (an MPI-4 library):
 * MPI_Gather_c, MPI_Scatterv_c, MPI_Igatherv_c, MPI_Iscatter_c, and
 * MPI_Gather_init / MPI_Scatterv_init started twice with new contents. */
static void test_rooted_mpi4(void)
{
#if MPI_VERSION >= 4
    const int p = wsize, root = p - 1;
    int *all = malloc(3 * (size_t)p * sizeof(int)), mine[3], got[3], bad = 0;
    MPI_Count *c = malloc((size_t)p * sizeof *c);
    MPI_Aint *d = malloc((size_t)p * sizeof *d);
    int *ic = malloc((size_t)p * sizeof *ic), *id = malloc((size_t)p * sizeof *id);
    for (int j = 0; j < p; j++) /* rank j's 1 + j % 3 ints, reversed */
        c[j] = ic[j] = 1 + j % 3, d[j] = id[j] = 3 * (p - 1 - j);
    for (int form = 0; form < 4; form++) {
        for (int i = 0; i < 3; i++)
            mine[i] = val(wrank, i, 3000 + form), got[i] = GUARD;
        for (int j = 0; j < 3 * p; j++)
            all[j] = GUARD;
        MPI_Request r[2];
        int rc = MPI_SUCCESS;
        if (form == 0) {
            rc = MPI_Gather_c(mine, 3, MPI_INT, all, 3, MPI_INT, root, MPI_COMM_WORLD);
        } else if (form == 1) {
            rc = MPI_Igatherv_c(mine, c[wrank], MPI_INT, all, c, d, MPI_INT, root, MPI_COMM_WORLD,
                                &r[0]);
            if (rc == MPI_SUCCESS)
                rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        } else if (form == 2) {
            rc = MPI_Gather_init(mine, 3, MPI_INT, all, 3, MPI_INT, root, MPI_COMM_WORLD,
                                 MPI_INFO_NULL, &r[0]);
            for (int k = 0; k < 2 && rc == MPI_SUCCESS; k++) {
                for (int i = 0; i < 3; i++)
                    mine[i] = val(wrank, i, 3000 + form + k);
                rc = MPI_Start(&r[0]);
                if (rc == MPI_SUCCESS)
                    rc = MPI_Wait(&r[0], MPI_STATUS_IGNORE);
                for (int j = 0; j < p && wrank == root; j++)
                    for (int i = 0; i < 3; i++)
                        bad += all[3 * j + i] != val(j, i, 3000 + form + k);
            }
            if (rc == MPI_SUCCESS)
                rc = MPI_Request_free(&r[0]);
            CHECK(rc == MPI_SUCCESS && !bad, "MPI_Gather_init: rc %d, %d wrong", rc, bad);
            continue;
        } else {
            rc = MPI_Gather_c(mine, 3, MPI_INT, all, 3, MPI_INT, root, MPI_COMM_WORLD);
        }
        for (int j = 0; j < p && wrank == root && form != 1; j++)
            for (int i = 0; i < 3; i++)
                bad += all[3 * j + i] != val(j, i, 3000 + form);
        for (int j = 0; j < p && wrank == root && form == 1; j++)
            for (int i = 0; i < c[j]; i++)
                bad += all[d[j] + i] != val(j, i, 3000 + form);
        CHECK(rc == MPI_SUCCESS && !bad, "MPI_Gather(v)_c form %d: rc %d, %d wrong", form, rc,
              bad);
        /* back from the root: scatterv_c (form 0), iscatter_c (1),
         * scatterv_init (3) */
        if (form == 0)
            rc = MPI_Scatterv_c(all, c, d, MPI_INT, got, c[wrank], MPI_INT, root, MPI_COMM_WORLD);
        else if (form == 1) {
            rc = MPI_Iscatter_c(all, 1, MPI_INT, got, 1, MPI_INT, root, MPI_COMM_WORLD, &r[1]);
            if (rc == MPI_SUCCESS)
                rc = MPI_Wait(&r[1], MPI_STATUS_IGNORE);
        } else {
            rc = MPI_Scatterv_init(all, ic, id, MPI_INT, got, ic[wrank], MPI_INT, root,
                                   MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
            if (rc == MPI_SUCCESS)
                rc = MPI_Start(&r[1]);
            if (rc == MPI_SUCCESS)
                rc = MPI_Wait(&r[1], MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = MPI_Request_free(&r[1]);
        }
        /* form 0 and 3 (blocks of 3 from 3 j, the first c[wrank] of them);
         * form 1: a 1-int block from slot j of the v layout's buffer */
        bad = 0;
        for (int i = 0; i < (form == 1 ? 1 : (int)c[wrank]); i++) {
            const int x = form == 1 ? wrank : (int)d[wrank] + i; /* in the root's buffer */
            const int j = form == 1 ? p - 1 - x / 3 : x / 3, e = x % 3;
            const int want = form == 1 && e >= c[j] ? GUARD : val(j, e, 3000 + form);
            bad += got[i] != want;
        }
        CHECK(rc == MPI_SUCCESS && !bad, "MPI_Scatter(v) MPI-4 form %d: rc %d, %d wrong", form,
              rc, bad);
    }
    free(all), free(c), free(d), free(ic), free(id);
#endif
}

/* Intercommunicators go to the MPI below: group 0's rank 0 gathers one int
 * from every rank of group 1 and scatters (v: in reverse order, two ints
 * each) back, interposed, through the C API and nonblocking. */
static void test_rooted_intercomm(void)
{
    if (wsize < 2)
        return;
    const int h = wsize / 3 + 1, g = wrank < h;
    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, g, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, g ? h : 0, 78, &inter);
    int lrank, rsize;
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_remote_size(inter, &rsize);
    const int root = g ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    const bool receiver = g && lrank == 0;
    for (int form = 0; form < 3; form++) {
        int mine = val(wrank, 0, form), *all = malloc(2 * (size_t)rsize * sizeof(int));
        for (int i = 0; i < 2 * rsize; i++)
            all[i] = GUARD;
        MPI_Request r = MPI_REQUEST_NULL;
        int rc = form == 0 ? MPI_Gather(&mine, 1, MPI_INT, all, 1, MPI_INT, root, inter)
                 : form == 1
                     ? colibri_gather(&mine, 1, MPI_INT, all, 1, MPI_INT, root, inter, NULL)
                     : colibri_igather(&mine, 1, MPI_INT, all, 1, MPI_INT, root, inter, NULL, &r);
        if (form == 2 && rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        bool ok = rc == MPI_SUCCESS;
        for (int j = 0; j < rsize; j++)
            ok = ok && all[j] == (receiver ? val(h + j, 0, form) : GUARD);
        CHECK(ok, "intercommunicator gather, form %d: rc %d", form, rc);

        /* scatterv: remote rank j gets two ints from reversed places */
        int *ic = malloc((size_t)rsize * sizeof *ic), *id = malloc((size_t)rsize * sizeof *id);
        MPI_Count *cc = malloc((size_t)rsize * sizeof *cc);
        MPI_Aint *cd = malloc((size_t)rsize * sizeof *cd);
        for (int j = 0; j < rsize; j++) {
            ic[j] = cc[j] = 2, id[j] = cd[j] = 2 * (rsize - 1 - j);
            all[2 * (rsize - 1 - j)] = val(j, 1, form), all[2 * (rsize - 1 - j) + 1] = val(j, 2, form);
        }
        int got[2] = {GUARD, GUARD};
        rc = form == 0 ? MPI_Scatterv(all, ic, id, MPI_INT, got, 2, MPI_INT, root, inter)
             : form == 1
                 ? colibri_scatterv(all, cc, cd, MPI_INT, got, 2, MPI_INT, root, inter, NULL)
                 : colibri_iscatterv(all, cc, cd, MPI_INT, got, 2, MPI_INT, root, inter, NULL, &r);
        if (form == 2 && rc == MPI_SUCCESS)
            rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
        ok = rc == MPI_SUCCESS &&
             (g ? got[0] == GUARD && got[1] == GUARD
                : got[0] == val(lrank, 1, form) && got[1] == val(lrank, 2, form));
        CHECK(ok, "intercommunicator scatterv, form %d: rc %d", form, rc);
        free(ic), free(id), free(cc), free(cd), free(all);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

/* Errors every rank finds alike (so no rank waits for another), through
 * the communicator's error handler, no buffer touched. */
static void test_rooted_errors(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int buf[64], sbuf[2] = {1, 2}, cls = 0;
    MPI_Count cnt[64];
    MPI_Aint dsp[64];
    for (int i = 0; i < 64; i++)
        buf[i] = GUARD, cnt[i] = 1, dsp[i] = i;
    if (wsize <= 64) {
        int rc = colibri_gather(sbuf, 1, MPI_INT, buf, 1, MPI_INT, wsize, c, NULL);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_ROOT, "gather with root p: class %d", cls);
        rc = MPI_Scatter(buf, 1, MPI_INT, sbuf, 1, MPI_INT, -1, c);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_ROOT, "interposed scatter with root -1: class %d", cls);
        rc = colibri_scatterv(buf, cnt, dsp, MPI_INT, sbuf, 1, MPI_INT, wsize + 3, c, "linear");
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_ROOT, "scatterv with root p+3: class %d", cls);
        rc = colibri_gather(sbuf, -1, MPI_INT, buf, 1, MPI_INT, 0, c, NULL);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_COUNT, "gather of sendcount -1: class %d", cls);
        rc = colibri_scatter(buf, 1, MPI_INT, sbuf, -2, MPI_INT, wsize - 1, c, "binomial");
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_COUNT, "scatter of recvcount -2: class %d", cls);
        rc = colibri_gatherv(sbuf, 1, MPI_INT, buf, cnt, dsp, MPI_INT, 0, c, "bogus");
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_ARG, "gatherv 'bogus': class %d", cls);
        if (wsize == 1) { /* the root alone: its own checks */
            rc = colibri_gather(sbuf, 2, MPI_INT, buf, 1, MPI_INT, 0, c, NULL);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_TRUNCATE, "gather of unequal signatures: class %d", cls);
            rc = colibri_scatterv(buf, NULL, dsp, MPI_INT, sbuf, 1, MPI_INT, 0, c, NULL);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_ARG, "scatterv with NULL sendcounts: class %d", cls);
            cnt[0] = -1;
            rc = colibri_gatherv(sbuf, 1, MPI_INT, buf, cnt, dsp, MPI_INT, 0, c, NULL);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_COUNT, "gatherv of recvcounts[0] -1: class %d", cls);
            rc = colibri_gather(MPI_IN_PLACE, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 0, c, NULL);
            MPI_Error_class(rc, &cls);
            CHECK(cls == MPI_ERR_BUFFER, "gather into MPI_IN_PLACE: class %d", cls);
        }
        bool untouched = true;
        for (int i = 0; i < 64; i++)
            untouched = untouched && buf[i] == GUARD;
        CHECK(untouched && sbuf[0] == 1 && sbuf[1] == 2, "a refused rooted call wrote a buffer");
    }
    MPI_Comm_free(&c);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm reversed;
    MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - wrank, &reversed);
    test_allgather(MPI_COMM_WORLD, "world");
    test_allgather(reversed, "reversed");
    test_allgatherv(MPI_COMM_WORLD, "world");
    test_allgatherv(reversed, "reversed");
    test_bcast(MPI_COMM_WORLD, "world");
    test_bcast(reversed, "reversed");
    test_barrier(MPI_COMM_WORLD, "world");
    test_barrier(reversed, "reversed");
    test_interposed();
    test_intercomm();
    test_errors();
    test_rooted(MPI_COMM_WORLD, "world");
    test_rooted(reversed, "reversed");
    test_rooted_interposed();
    test_rooted_mpi4();
    test_rooted_intercomm();
    test_rooted_errors();
    MPI_Comm_free(&reversed);
    long long v[2] = {check_passed, check_failed}, t[2];
    PMPI_Allreduce(v, t, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (wrank == 0)
        check_print_totals(t[0], t[1]);
    MPI_Finalize();
    return t[1] ? 1 : 0;
}
