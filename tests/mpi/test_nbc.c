// ranks: 1 2 3 4 5 8
// mpich-ranks: 2
// ompi5-ranks: 1 2 3 4
// mpich5-ranks: 1 2
// impi-ranks: 1 2
// abi-ranks: 1 2
// env-ranks: COLIBRI_PROGRESS_THREAD=1 2 4
// env-ranks: COLIBRI_CACHE_BYTES=4096 3
// env-ranks: COLIBRI_ONLINE_FAKE=random:4,calls=2,window=2 2 3
// asan-ranks: 1 3 4
// asan-env-ranks: COLIBRI_PROGRESS_THREAD=1 2
// env-ranks: COLIBRI_ONLINE_FAKE=random:9,calls=2,window=1 2 3
// env-ranks: COLIBRI_SEGMENT_BYTES=12 3 5
/*
 * Nonblocking and persistent collectives, checked against a serial
 * expectation computed here (int sums: exact):
 *  - every nonblocking collective x every catalog algorithm that serves
 *    nonblocking calls, "auto" and "native", counts 0, 1, 7, 300, completed
 *    by each of MPI_Wait, Test, Waitall, Testall, Waitany, Testany,
 *    Waitsome, Testsome in turn, mixed with point-to-point requests whose
 *    statuses are checked too; the collective's status is the empty one;
 *  - six collectives outstanding at once on MPI_COMM_WORLD, a duplicate and
 *    a split (reversed order), completed together and in any order;
 *  - MPI_Request_free on a running collective (it still completes);
 *  - persistent requests (colibri_*_init, and MPI_*_init on an MPI-4
 *    library) started many times with new buffer contents, by MPI_Start
 *    and MPI_Startall, then freed: the first algorithm and auto, and for
 *    bcast, allgather and allgatherv every algorithm;
 *  - the interposed MPI_I* entry points (int counts);
 *  - a non-contiguous type (strided vector) in nonblocking and persistent
 *    alltoall: packed at every start, gaps untouched;
 *  - a nonblocking automatic alltoallv started while another rank waits
 *    for a message sent after the start (no agreement at the call);
 *  - bad arguments: the MPI error class, no request, no buffer touched;
 *    a blocking-only algorithm forced on a nonblocking call is an error.
 * A second run line has COLIBRI_PROGRESS_THREAD=1 (MPI_THREAD_MULTIPLE).
 * One with COLIBRI_SEGMENT_BYTES=12 runs the pipelined bcasts (and the
 * segmented ring reductions) in many short segments, nonblocking and
 * persistent.
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri.h"

#define CHECK_MAX_LINES 20
#include "../lib/check.h"
#include "../lib/algorithms.h"

static int wrank, wsize;

#define CHECK(cond, ...) CHECK_RANKED(wrank, cond, __VA_ARGS__)

#define SENTINEL (-77777)

static int val(int r, int i, int k) { return (r * 7 + i * 3 + k * 11) % 1000 - 300; }

/* One collective call: its communicator, arguments, buffers and the
 * result it must produce. */
struct inst {
    colibri_coll coll;
    const char *alg;
    int n, root, k;
    MPI_Comm comm;
    int crank, csize;
    int *sbuf, *rbuf, *expect;
    int nsend, nrecv;
    MPI_Count *counts, *sc, *rc; /* reduce_scatter counts; alltoallv counts */
    MPI_Aint *sd, *rd;
    bool fixed_root; /* persistent: the root given at init, 0 */
};

static int a2av_count(int from, int to, int n) { return ((from + 2 * to) % 3) * n; }

static void inst_init(struct inst *t, colibri_coll coll, const char *alg, int n, MPI_Comm comm)
{
    memset(t, 0, sizeof *t);
    t->coll = coll, t->alg = alg, t->n = n, t->comm = comm;
    MPI_Comm_rank(comm, &t->crank);
    MPI_Comm_size(comm, &t->csize);
    const int p = t->csize;
    t->counts = calloc((size_t)p, sizeof *t->counts);
    t->sc = calloc((size_t)p, sizeof *t->sc);
    t->rc = calloc((size_t)p, sizeof *t->rc);
    t->sd = calloc((size_t)p, sizeof *t->sd);
    t->rd = calloc((size_t)p, sizeof *t->rd);
    switch (coll) {
    case COLIBRI_ALLREDUCE:
    case COLIBRI_REDUCE:
    case COLIBRI_SCAN:
    case COLIBRI_EXSCAN:
        t->nsend = t->nrecv = n;
        break;
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        t->nsend = n * p, t->nrecv = n;
        break;
    case COLIBRI_REDUCE_SCATTER:
        for (int j = 0; j < p; j++) {
            t->counts[j] = (j + n) % 3 == 0 ? 0 : n + j;
            t->nsend += (int)t->counts[j];
        }
        t->nrecv = (int)t->counts[t->crank];
        break;
    case COLIBRI_ALLTOALL:
        t->nsend = t->nrecv = n * p;
        break;
    case COLIBRI_ALLGATHER:
        t->nsend = n, t->nrecv = n * p;
        break;
    case COLIBRI_BCAST: /* the buffer is rbuf */
        t->nrecv = n;
        break;
    case COLIBRI_BARRIER:
        break;
    case COLIBRI_ALLGATHERV: /* uneven blocks, some empty, in reverse rank order */
        for (int j = p - 1; j >= 0; j--) {
            t->rc[j] = (j + n) % 3 == 0 ? 0 : n + j;
            t->rd[j] = j == p - 1 ? 0 : t->rd[j + 1] + t->rc[j + 1];
            t->nrecv += (int)t->rc[j];
        }
        t->nsend = (int)t->rc[t->crank];
        break;
    case COLIBRI_GATHER: /* every rank has room for the root's side */
        t->nsend = n, t->nrecv = n * p;
        break;
    case COLIBRI_SCATTER:
        t->nsend = n * p, t->nrecv = n;
        break;
    case COLIBRI_GATHERV: /* allgatherv's blocks */
    case COLIBRI_SCATTERV:
        for (int j = p - 1; j >= 0; j--) {
            t->rc[j] = (j + n) % 3 == 0 ? 0 : n + j;
            t->rd[j] = j == p - 1 ? 0 : t->rd[j + 1] + t->rc[j + 1];
            t->nsend += (int)t->rc[j];
        }
        t->nrecv = (int)t->rc[t->crank];
        if (coll == COLIBRI_GATHERV)
            t->nrecv = t->nsend, t->nsend = (int)t->rc[t->crank];
        break;
    default:
        for (int j = 0; j < p; j++) {
            t->sc[j] = a2av_count(t->crank, j, n);
            t->rc[j] = a2av_count(j, t->crank, n);
            /* displacements reversed: blocks of high ranks first */
            t->sd[j] = j == p - 1 ? 0 : t->sd[j + 1];
        }
        for (int j = p - 1; j >= 0; j--) {
            t->sd[j] = j == p - 1 ? 0 : t->sd[j + 1] + t->sc[j + 1];
            t->rd[j] = j == p - 1 ? 0 : t->rd[j + 1] + t->rc[j + 1];
        }
        for (int j = 0; j < p; j++)
            t->nsend += (int)t->sc[j], t->nrecv += (int)t->rc[j];
    }
    t->sbuf = malloc((size_t)(t->nsend + 1) * sizeof(int));
    t->rbuf = malloc((size_t)(t->nrecv + 1) * sizeof(int));
    t->expect = malloc((size_t)(t->nrecv + 1) * sizeof(int));
}

static void inst_free(struct inst *t)
{
    free(t->counts), free(t->sc), free(t->rc), free(t->sd), free(t->rd);
    free(t->sbuf), free(t->rbuf), free(t->expect);
}

/* New contents for iteration k: inputs, a sentinel output, the expectation. */
static void inst_fill(struct inst *t, int k)
{
    const int p = t->csize, n = t->n, me = t->crank;
    t->k = k;
    t->root = t->fixed_root ? 0 : k % p;
    for (int i = 0; i <= t->nrecv; i++)
        t->rbuf[i] = SENTINEL;
    int off = 0;
    switch (t->coll) {
    case COLIBRI_ALLREDUCE:
    case COLIBRI_REDUCE:
        for (int i = 0; i < n; i++) {
            t->sbuf[i] = val(me, i, k);
            t->expect[i] = 0;
            for (int r = 0; r < p; r++)
                t->expect[i] += val(r, i, k);
        }
        if (t->coll == COLIBRI_REDUCE && me != t->root)
            for (int i = 0; i < n; i++)
                t->expect[i] = SENTINEL;
        break;
    case COLIBRI_SCAN:   /* ranks 0..me */
    case COLIBRI_EXSCAN: /* ranks 0..me-1; rank 0's output untouched */
        for (int i = 0; i < n; i++) {
            t->sbuf[i] = val(me, i, k);
            t->expect[i] = 0;
            for (int r = 0; r < me + (t->coll == COLIBRI_SCAN); r++)
                t->expect[i] += val(r, i, k);
            if (t->coll == COLIBRI_EXSCAN && me == 0)
                t->expect[i] = SENTINEL;
        }
        break;
    case COLIBRI_REDUCE_SCATTER_BLOCK:
    case COLIBRI_REDUCE_SCATTER:
        for (int i = 0; i < t->nsend; i++)
            t->sbuf[i] = val(me, i, k);
        for (int j = 0; j < me; j++)
            off += t->coll == COLIBRI_REDUCE_SCATTER ? (int)t->counts[j] : n;
        for (int i = 0; i < t->nrecv; i++) {
            t->expect[i] = 0;
            for (int r = 0; r < p; r++)
                t->expect[i] += val(r, off + i, k);
        }
        break;
    case COLIBRI_ALLTOALL:
        for (int j = 0; j < p; j++)
            for (int i = 0; i < n; i++) {
                t->sbuf[j * n + i] = val(me, j * 1000 + i, k);
                t->expect[j * n + i] = val(j, me * 1000 + i, k);
            }
        break;
    case COLIBRI_ALLGATHER:
        for (int i = 0; i < n; i++)
            t->sbuf[i] = val(me, i, k);
        for (int j = 0; j < p; j++)
            for (int i = 0; i < n; i++)
                t->expect[j * n + i] = val(j, i, k);
        break;
    case COLIBRI_BCAST:
        for (int i = 0; i < n; i++) {
            t->expect[i] = val(t->root, i, k);
            if (me == t->root)
                t->rbuf[i] = t->expect[i];
        }
        break;
    case COLIBRI_BARRIER:
        break;
    case COLIBRI_ALLGATHERV:
        for (int i = 0; i < t->nsend; i++)
            t->sbuf[i] = val(me, i, k);
        for (int j = 0; j < p; j++)
            for (int i = 0; i < t->rc[j]; i++)
                t->expect[t->rd[j] + i] = val(j, i, k);
        break;
    case COLIBRI_GATHER:
    case COLIBRI_GATHERV: /* the root's output; the others' untouched */
        for (int i = 0; i < t->nsend; i++)
            t->sbuf[i] = val(me, i, k);
        for (int i = 0; i < t->nrecv; i++)
            t->expect[i] = SENTINEL;
        for (int j = 0; j < p && me == t->root; j++)
            for (int i = 0; i < (t->coll == COLIBRI_GATHER ? n : t->rc[j]); i++)
                t->expect[(t->coll == COLIBRI_GATHER ? j * n : t->rd[j]) + i] = val(j, i, k);
        break;
    case COLIBRI_SCATTER:
    case COLIBRI_SCATTERV: /* block j of the root's input to rank j */
        for (int j = 0; j < p; j++) {
            const int cj = t->coll == COLIBRI_SCATTER ? n : (int)t->rc[j];
            const int dj = t->coll == COLIBRI_SCATTER ? j * n : (int)t->rd[j];
            for (int i = 0; i < cj; i++)
                t->sbuf[dj + i] = val(me, j * 1000 + i, k);
        }
        for (int i = 0; i < t->nrecv; i++)
            t->expect[i] = val(t->root, me * 1000 + i, k);
        break;
    default:
        for (int j = 0; j < p; j++) {
            for (int i = 0; i < t->sc[j]; i++)
                t->sbuf[t->sd[j] + i] = val(me, j * 1000 + i, k);
            for (int i = 0; i < t->rc[j]; i++)
                t->expect[t->rd[j] + i] = val(j, me * 1000 + i, k);
        }
    }
    t->expect[t->nrecv] = SENTINEL;
}

/* Starts it nonblocking (persistent: creates the inactive request). */
static int inst_call(struct inst *t, bool persistent, MPI_Request *r)
{
    const char *a = t->alg;
    MPI_Comm c = t->comm;
    t->fixed_root = persistent;
    switch (t->coll) {
    case COLIBRI_ALLREDUCE:
        return persistent ? colibri_allreduce_init(t->sbuf, t->rbuf, t->n, MPI_INT, MPI_SUM, c, a, r)
                          : colibri_iallreduce(t->sbuf, t->rbuf, t->n, MPI_INT, MPI_SUM, c, a, r);
    case COLIBRI_SCAN:
        return persistent ? colibri_scan_init(t->sbuf, t->rbuf, t->n, MPI_INT, MPI_SUM, c, a, r)
                          : colibri_iscan(t->sbuf, t->rbuf, t->n, MPI_INT, MPI_SUM, c, a, r);
    case COLIBRI_EXSCAN:
        return persistent ? colibri_exscan_init(t->sbuf, t->rbuf, t->n, MPI_INT, MPI_SUM, c, a, r)
                          : colibri_iexscan(t->sbuf, t->rbuf, t->n, MPI_INT, MPI_SUM, c, a, r);
    case COLIBRI_REDUCE:
        /* a persistent reduce keeps its root: 0 */
        return persistent ? colibri_reduce_init(t->sbuf, t->rbuf, t->n, MPI_INT, MPI_SUM, 0, c, a, r)
                          : colibri_ireduce(t->sbuf, t->rbuf, t->n, MPI_INT, MPI_SUM, t->root, c,
                                            a, r);
    case COLIBRI_REDUCE_SCATTER_BLOCK:
        return persistent ? colibri_reduce_scatter_block_init(t->sbuf, t->rbuf, t->n, MPI_INT,
                                                              MPI_SUM, c, a, r)
                          : colibri_ireduce_scatter_block(t->sbuf, t->rbuf, t->n, MPI_INT, MPI_SUM,
                                                          c, a, r);
    case COLIBRI_REDUCE_SCATTER:
        return persistent ? colibri_reduce_scatter_init(t->sbuf, t->rbuf, t->counts, MPI_INT,
                                                        MPI_SUM, c, a, r)
                          : colibri_ireduce_scatter(t->sbuf, t->rbuf, t->counts, MPI_INT, MPI_SUM,
                                                    c, a, r);
    case COLIBRI_ALLTOALL:
        return persistent ? colibri_alltoall_init(t->sbuf, t->n, MPI_INT, t->rbuf, t->n, MPI_INT,
                                                  c, a, r)
                          : colibri_ialltoall(t->sbuf, t->n, MPI_INT, t->rbuf, t->n, MPI_INT, c,
                                              a, r);
    case COLIBRI_ALLGATHER:
        return persistent ? colibri_allgather_init(t->sbuf, t->n, MPI_INT, t->rbuf, t->n, MPI_INT,
                                                   c, a, r)
                          : colibri_iallgather(t->sbuf, t->n, MPI_INT, t->rbuf, t->n, MPI_INT, c,
                                               a, r);
    case COLIBRI_BCAST: /* a persistent bcast keeps its root: 0 */
        return persistent ? colibri_bcast_init(t->rbuf, t->n, MPI_INT, 0, c, a, r)
                          : colibri_ibcast(t->rbuf, t->n, MPI_INT, t->root, c, a, r);
    case COLIBRI_BARRIER:
        return persistent ? colibri_barrier_init(c, a, r) : colibri_ibarrier(c, a, r);
    case COLIBRI_ALLGATHERV:
        return persistent ? colibri_allgatherv_init(t->sbuf, t->nsend, MPI_INT, t->rbuf, t->rc,
                                                    t->rd, MPI_INT, c, a, r)
                          : colibri_iallgatherv(t->sbuf, t->nsend, MPI_INT, t->rbuf, t->rc, t->rd,
                                                MPI_INT, c, a, r);
    case COLIBRI_GATHER: /* a persistent gather or scatter keeps its root: 0 */
        return persistent ? colibri_gather_init(t->sbuf, t->n, MPI_INT, t->rbuf, t->n, MPI_INT, 0,
                                                c, a, r)
                          : colibri_igather(t->sbuf, t->n, MPI_INT, t->rbuf, t->n, MPI_INT,
                                            t->root, c, a, r);
    case COLIBRI_GATHERV:
        return persistent ? colibri_gatherv_init(t->sbuf, t->nsend, MPI_INT, t->rbuf, t->rc, t->rd,
                                                 MPI_INT, 0, c, a, r)
                          : colibri_igatherv(t->sbuf, t->nsend, MPI_INT, t->rbuf, t->rc, t->rd,
                                             MPI_INT, t->root, c, a, r);
    case COLIBRI_SCATTER:
        return persistent ? colibri_scatter_init(t->sbuf, t->n, MPI_INT, t->rbuf, t->n, MPI_INT, 0,
                                                 c, a, r)
                          : colibri_iscatter(t->sbuf, t->n, MPI_INT, t->rbuf, t->n, MPI_INT,
                                             t->root, c, a, r);
    case COLIBRI_SCATTERV:
        return persistent ? colibri_scatterv_init(t->sbuf, t->rc, t->rd, MPI_INT, t->rbuf,
                                                  t->nrecv, MPI_INT, 0, c, a, r)
                          : colibri_iscatterv(t->sbuf, t->rc, t->rd, MPI_INT, t->rbuf, t->nrecv,
                                              MPI_INT, t->root, c, a, r);
    default:
        return persistent ? colibri_alltoallv_init(t->sbuf, t->sc, t->sd, MPI_INT, t->rbuf, t->rc,
                                                   t->rd, MPI_INT, c, a, r)
                          : colibri_ialltoallv(t->sbuf, t->sc, t->sd, MPI_INT, t->rbuf, t->rc,
                                               t->rd, MPI_INT, c, a, r);
    }
}

static void inst_verify(const struct inst *t, const char *how)
{
    int bad = -1;
    for (int i = 0; i <= t->nrecv && bad < 0; i++)
        if (t->rbuf[i] != t->expect[i])
            bad = i;
    CHECK(bad < 0, "%s %s n=%d k=%d (%s) p=%d: element %d is %d, expected %d",
          colibri_coll_name(t->coll), t->alg ? t->alg : "auto", t->n, t->k, how, t->csize, bad,
          bad >= 0 ? t->rbuf[bad] : 0, bad >= 0 ? t->expect[bad] : 0);
}

/* Point-to-point traffic mixed into the completion calls: a ring exchange. */
struct ring {
    int in, out;
    MPI_Request r[2];
};

static void ring_start(struct ring *g, int tag)
{
    g->out = wrank * 100 + tag;
    g->in = -1;
    MPI_Irecv(&g->in, 1, MPI_INT, (wrank + wsize - 1) % wsize, tag, MPI_COMM_WORLD, &g->r[0]);
    MPI_Isend(&g->out, 1, MPI_INT, (wrank + 1) % wsize, tag, MPI_COMM_WORLD, &g->r[1]);
}

static void ring_check(const struct ring *g, const MPI_Status *recv_status, int tag)
{
    int left = (wrank + wsize - 1) % wsize;
    CHECK(g->in == left * 100 + tag, "ring received %d", g->in);
    if (recv_status)
        CHECK(recv_status->MPI_SOURCE == left && recv_status->MPI_TAG == tag,
              "ring status source %d tag %d", recv_status->MPI_SOURCE, recv_status->MPI_TAG);
}

static void check_coll_status(const MPI_Status *st)
{
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    CHECK(count == 0, "collective status count %d", count);
}

enum style { S_WAIT, S_TEST, S_WAITALL, S_TESTALL, S_WAITANY, S_TESTANY, S_WAITSOME, S_TESTSOME,
             S_NSTYLES };
static const char *const style_names[S_NSTYLES] = {"Wait", "Test", "Waitall", "Testall",
                                                   "Waitany", "Testany", "Waitsome", "Testsome"};

/* Completes the collective's request `coll` together with a ring exchange,
 * by one completion call style; checks statuses.  `native` requests have
 * the MPI's own status, not checked; a persistent request stays (inactive). */
static void complete_mixed(MPI_Request *coll, int style, bool check_status, bool persistent)
{
    static int tag = 1;
    struct ring g;
    tag = tag % 1000 + 1;
    ring_start(&g, tag);
    MPI_Request reqs[3] = {g.r[0], *coll, g.r[1]};
    MPI_Status sts[3], st;
    int flag = 0, idx, outcount, indices[3], left = 3;
    bool got_coll = false;
    MPI_Status coll_st, recv_st;
    bool have_recv = false;
    switch (style) {
    case S_WAIT:
        MPI_Wait(&reqs[1], &coll_st);
        got_coll = true;
        MPI_Waitall(3, reqs, sts);
        recv_st = sts[0], have_recv = true;
        break;
    case S_TEST:
        while (!flag)
            MPI_Test(&reqs[1], &flag, &coll_st);
        got_coll = true;
        MPI_Waitall(3, reqs, sts);
        recv_st = sts[0], have_recv = true;
        break;
    case S_WAITALL:
        MPI_Waitall(3, reqs, sts);
        coll_st = sts[1], recv_st = sts[0], got_coll = have_recv = true;
        break;
    case S_TESTALL:
        while (!flag)
            MPI_Testall(3, reqs, &flag, sts);
        coll_st = sts[1], recv_st = sts[0], got_coll = have_recv = true;
        break;
    case S_WAITANY:
    case S_TESTANY:
        while (left > 0) {
            if (style == S_WAITANY)
                MPI_Waitany(3, reqs, &idx, &st);
            else {
                MPI_Testany(3, reqs, &idx, &flag, &st);
                if (!flag)
                    continue;
            }
            if (idx == MPI_UNDEFINED) {
                CHECK(false, "Wait/Testany: no request left with %d to go", left);
                break;
            }
            left--;
            if (idx == 1)
                coll_st = st, got_coll = true;
            if (idx == 0)
                recv_st = st, have_recv = true;
        }
        break;
    default:
        while (left > 0) {
            if (style == S_WAITSOME)
                MPI_Waitsome(3, reqs, &outcount, indices, sts);
            else
                MPI_Testsome(3, reqs, &outcount, indices, sts);
            if (outcount == MPI_UNDEFINED) {
                CHECK(false, "Wait/Testsome: none active with %d to go", left);
                break;
            }
            for (int i = 0; i < outcount; i++) {
                left--;
                if (indices[i] == 1)
                    coll_st = sts[i], got_coll = true;
                if (indices[i] == 0)
                    recv_st = sts[i], have_recv = true;
            }
        }
    }
    CHECK(reqs[0] == MPI_REQUEST_NULL && (reqs[1] == MPI_REQUEST_NULL) != persistent &&
              reqs[2] == MPI_REQUEST_NULL,
          "%s left a request active (or freed a persistent one)", style_names[style]);
    if (got_coll && check_status)
        check_coll_status(&coll_st);
    ring_check(&g, have_recv ? &recv_st : NULL, tag);
    *coll = reqs[1];
}

static int algorithms(colibri_coll coll, const char **names, int max)
{
    return test_algorithms_for(coll, true, wsize, names, max); /* every comm here: wsize ranks */
}

static void test_every_algorithm(void)
{
    static const int counts[] = {0, 1, 7, 300};
    int style = 0;
    for (int coll = 0; coll < COLIBRI_NCOLL; coll++) {
        const char *names[32];
        int nalg = algorithms((colibri_coll)coll, names, 32);
        for (int a = 0; a < nalg; a++)
            for (unsigned c = 0; c < sizeof counts / sizeof *counts; c++) {
                struct inst t;
                inst_init(&t, (colibri_coll)coll, names[a], counts[c], MPI_COMM_WORLD);
                inst_fill(&t, (int)c + a);
                MPI_Request r = MPI_REQUEST_NULL;
                int rc = inst_call(&t, false, &r);
                CHECK(rc == MPI_SUCCESS, "start %s %s: rc %d", colibri_coll_name(t.coll),
                      names[a] ? names[a] : "auto", rc);
                /* (auto may run native too: gatherv, scatterv) */
                const char *started = colibri_last_algorithm(MPI_COMM_WORLD, t.coll);
                bool native = (names[a] && strcmp(names[a], "native") == 0) ||
                              (started && strcmp(started, "native") == 0);
                complete_mixed(&r, style, !native, false);
                inst_verify(&t, style_names[style]);
                if (!native && names[a]) {
                    const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, t.coll);
                    CHECK(ran && strcmp(ran, names[a]) == 0, "last algorithm %s, forced %s",
                          ran ? ran : "(none)", names[a]);
                }
                style = (style + 1) % S_NSTYLES;
                inst_free(&t);
            }
    }
}

/* Six collectives outstanding on three communicators, plus a ring. */
static void test_outstanding(void)
{
    MPI_Comm dup, split;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wsize - wrank, &split);
    struct {
        colibri_coll coll;
        MPI_Comm comm;
        int n;
    } plan[] = {{COLIBRI_ALLREDUCE, MPI_COMM_WORLD, 300}, {COLIBRI_ALLTOALL, dup, 5},
                {COLIBRI_REDUCE_SCATTER_BLOCK, split, 9}, {COLIBRI_ALLTOALLV, MPI_COMM_WORLD, 4},
                {COLIBRI_REDUCE, dup, 17},                {COLIBRI_ALLREDUCE, MPI_COMM_WORLD, 1},
                {COLIBRI_REDUCE_SCATTER, split, 6},       {COLIBRI_ALLGATHER, dup, 3},
                {COLIBRI_BCAST, split, 11},               {COLIBRI_BARRIER, MPI_COMM_WORLD, 0},
                {COLIBRI_ALLGATHERV, dup, 4},             {COLIBRI_GATHER, split, 5},
                {COLIBRI_SCATTERV, MPI_COMM_WORLD, 3},
                /* the same shapes again while the first ones run: one cached
                 * schedule pinned by two runs; two scratch schedules taken */
                {COLIBRI_ALLREDUCE, MPI_COMM_WORLD, 300}, {COLIBRI_REDUCE_SCATTER, split, 6},
                {COLIBRI_ALLTOALLV, MPI_COMM_WORLD, 4}};
    enum { N = sizeof plan / sizeof *plan };
    for (int round = 0; round < 4; round++) {
        struct inst t[N];
        MPI_Request r[N + 2];
        for (int i = 0; i < N; i++) {
            inst_init(&t[i], plan[i].coll, NULL, plan[i].n, plan[i].comm);
            inst_fill(&t[i], round * 10 + i);
            inst_call(&t[i], false, &r[i]);
        }
        struct ring g;
        ring_start(&g, 2000 + round);
        r[N] = g.r[0], r[N + 1] = g.r[1];
        if (round % 2 == 0) {
            MPI_Status st[N + 2];
            MPI_Waitall(N + 2, r, st);
            ring_check(&g, &st[N], 2000 + round);
        } else { /* in whatever order they finish */
            for (int left = N + 2; left > 0; left--) {
                int idx;
                MPI_Waitany(N + 2, r, &idx, MPI_STATUS_IGNORE);
            }
            ring_check(&g, NULL, 2000 + round);
        }
        for (int i = 0; i < N; i++) {
            inst_verify(&t[i], round % 2 ? "outstanding, Waitany" : "outstanding, Waitall");
            inst_free(&t[i]);
        }
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
}

/* A repeated nonblocking call runs the cached schedule of its shape: it
 * builds nothing after the first (one schedule cached, a hit per call). */
static void test_schedule_reuse(void)
{
    struct colibri_setup_stats before, after;
    double in[7] = {1, 2, 3, 4, 5, 6, 7}, out[7];
    enum { CALLS = 10 };
    MPI_Request r;
    colibri_iallreduce(in, out, 7, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, "recursive_doubling", &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    colibri_setup_stats(&before);
    for (int i = 0; i < CALLS; i++) {
        colibri_iallreduce(in, out, 7, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, "recursive_doubling",
                           &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(out[6] == 7.0 * wsize, "reuse: element 6 is %g", out[6]);
    }
    colibri_setup_stats(&after);
    const char *cap = getenv("COLIBRI_CACHE_BYTES");
    if (cap && atoll(cap) < 65536)
        return; /* a tiny cache may evict between calls */
    CHECK(after.schedule_hits - before.schedule_hits == CALLS &&
              after.schedules_cached == before.schedules_cached,
          "%d repeated iallreduce: %lld cache hits, %lld schedules built", CALLS,
          after.schedule_hits - before.schedule_hits,
          after.schedules_cached - before.schedules_cached);
}

/* A freed request's collective still runs to the end, and then lets go of
 * its communicator: freed meanwhile, the communicator's state goes with
 * it (MPICH calls the free function at MPI_Request_free, before the end:
 * the operation kept the state forever, and MPI_Finalize hung in the
 * state's window release on the other rank). */
static void test_request_free(void)
{
    struct colibri_setup_stats s0, s;
    colibri_setup_stats(&s0);
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    struct inst t;
    inst_init(&t, COLIBRI_ALLREDUCE, "ring", 300, d);
    inst_fill(&t, 3);
    MPI_Request r;
    inst_call(&t, false, &r);
    MPI_Request_free(&r);
    CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free left the request");
    double t0 = MPI_Wtime();
    while (memcmp(t.rbuf, t.expect, (size_t)t.nrecv * sizeof(int)) != 0 && MPI_Wtime() - t0 < 30)
        colibri_progress();
    inst_verify(&t, "after MPI_Request_free");
    inst_free(&t);
    MPI_Comm_free(&d);
    t0 = MPI_Wtime();
    do
        colibri_progress(), colibri_setup_stats(&s);
    while (s.comm_states_live > s0.comm_states_live && MPI_Wtime() - t0 < 10);
    CHECK(s.comm_states_live == s0.comm_states_live,
          "the freed request's collective let go of its freed communicator");
    MPI_Barrier(MPI_COMM_WORLD);
}

static void test_persistent(void)
{
    int style = 0;
    for (int coll = 0; coll < COLIBRI_NCOLL; coll++) {
        const char *names[32];
        int nalg = algorithms((colibri_coll)coll, names, 32);
        /* the first algorithm and auto, each started 5 times, two at once;
         * for the data-movement collectives every algorithm in turn */
        const bool every = coll == COLIBRI_BCAST || coll == COLIBRI_ALLGATHER ||
                           coll == COLIBRI_ALLGATHERV;
        for (int a0 = 0; a0 < (every ? nalg - 2 : 1); a0++) {
            struct inst t[2];
            MPI_Request r[2];
            const char *pick[2] = {names[a0], names[nalg - 2]};
            for (int i = 0; i < 2; i++) {
                inst_init(&t[i], (colibri_coll)coll, pick[i], 50 + i, MPI_COMM_WORLD);
                inst_fill(&t[i], 0);
                int rc = inst_call(&t[i], true, &r[i]);
                CHECK(rc == MPI_SUCCESS && r[i] != MPI_REQUEST_NULL, "%s_init rc %d",
                      colibri_coll_name(t[i].coll), rc);
            }
            for (int k = 0; k < 5; k++) {
                for (int i = 0; i < 2; i++) {
                    inst_fill(&t[i], k);
                    t[i].root = 0; /* persistent reduce: root fixed at init */
                    if (t[i].coll == COLIBRI_REDUCE && t[i].crank != 0)
                        for (int j = 0; j < t[i].n; j++)
                            t[i].expect[j] = SENTINEL;
                    else if (t[i].coll == COLIBRI_REDUCE)
                        for (int j = 0; j < t[i].n; j++) {
                            t[i].expect[j] = 0;
                            for (int q = 0; q < wsize; q++)
                                t[i].expect[j] += val(q, j, k);
                        }
                }
                if (k % 2)
                    MPI_Startall(2, r);
                else
                    MPI_Start(&r[0]), MPI_Start(&r[1]);
                for (int i = 0; i < 2; i++) {
                    complete_mixed(&r[i], style, false, true);
                    style = (style + 1) % S_NSTYLES;
                    inst_verify(&t[i], "persistent");
                }
            }
            for (int i = 0; i < 2; i++) {
                MPI_Request_free(&r[i]);
                CHECK(r[i] == MPI_REQUEST_NULL, "MPI_Request_free of a persistent request");
                inst_free(&t[i]);
            }
        }
    }
#if MPI_VERSION >= 4
    /* the interposed MPI-4 form */
    int in[64], out[64];
    MPI_Request r;
    MPI_Allreduce_init(in, out, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 64; i++)
            in[i] = val(wrank, i, k);
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        int bad = 0;
        for (int i = 0; i < 64; i++) {
            int e = 0;
            for (int q = 0; q < wsize; q++)
                e += val(q, i, k);
            bad += out[i] != e;
        }
        CHECK(bad == 0, "MPI_Allreduce_init start %d: %d wrong", k, bad);
    }
    MPI_Request_free(&r);
    const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLREDUCE);
    CHECK(ran && strcmp(ran, "native") != 0, "MPI_Allreduce_init ran %s", ran ? ran : "(none)");
#endif
}

/* The interposed int entry points. */
static void test_interposed(void)
{
    const int p = wsize;
    int *in = malloc((size_t)p * 8 * sizeof(int)), *out = malloc((size_t)p * 8 * sizeof(int));
    int *cnt = malloc((size_t)p * sizeof(int)), *dsp = malloc((size_t)p * sizeof(int));
    for (int j = 0; j < p; j++)
        cnt[j] = 2, dsp[j] = 3 * j;
    for (int i = 0; i < p * 8; i++)
        in[i] = val(wrank, i, 5);
    MPI_Request r[4];
    MPI_Status st[4];
    MPI_Iallreduce(in, out, 8, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    MPI_Waitall(1, r, st);
    int bad = 0;
    for (int i = 0; i < 8; i++) {
        int e = 0;
        for (int q = 0; q < p; q++)
            e += val(q, i, 5);
        bad += out[i] != e;
    }
    CHECK(bad == 0, "MPI_Iallreduce: %d wrong", bad);
    MPI_Ialltoall(in, 2, MPI_INT, out, 2, MPI_INT, MPI_COMM_WORLD, &r[0]);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    bad = 0;
    for (int j = 0; j < p; j++)
        for (int i = 0; i < 2; i++)
            bad += out[2 * j + i] != val(j, 2 * wrank + i, 5);
    CHECK(bad == 0, "MPI_Ialltoall: %d wrong", bad);
    MPI_Ialltoallv(in, cnt, dsp, MPI_INT, out, cnt, dsp, MPI_INT, MPI_COMM_WORLD, &r[0]);
    MPI_Ireduce_scatter(in, out + 3 * p, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, st);
    bad = 0;
    for (int j = 0; j < p; j++)
        for (int i = 0; i < 2; i++)
            bad += out[3 * j + i] != val(j, 3 * wrank + i, 5);
    for (int i = 0; i < 2; i++) {
        int e = 0;
        for (int q = 0; q < p; q++)
            e += val(q, 2 * wrank + i, 5);
        bad += out[3 * p + i] != e;
    }
    CHECK(bad == 0, "MPI_Ialltoallv / MPI_Ireduce_scatter: %d wrong", bad);
    const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLTOALLV);
    CHECK(ran && strcmp(ran, "native") != 0, "MPI_Ialltoallv ran %s", ran ? ran : "(none)");
    /* MPI_Igather to the last rank beside MPI_Iscatterv from rank 0 (two
     * ints to rank j from 3 j), other ranks' root arguments NULL; scatterv
     * by name (automatic choice sends the v forms below: `by-name`) */
    setenv("COLIBRI_SCATTERV_ALGORITHM", "linear", 1);
    colibri_config_reload();
    const int last = p - 1;
    for (int i = 0; i < p * 8; i++)
        out[i] = SENTINEL;
    MPI_Igather(in, 2, MPI_INT, wrank == last ? out : NULL, 2, MPI_INT, last, MPI_COMM_WORLD,
                &r[0]);
    MPI_Iscatterv(wrank == 0 ? in : NULL, wrank == 0 ? cnt : NULL, wrank == 0 ? dsp : NULL,
                  MPI_INT, out + 4 * p, 2, MPI_INT, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, st);
    bad = 0;
    for (int j = 0; j < p && wrank == last; j++)
        for (int i = 0; i < 2; i++)
            bad += out[2 * j + i] != val(j, i, 5);
    for (int i = 0; i < 2; i++)
        bad += out[4 * p + i] != val(0, 3 * wrank + i, 5);
    CHECK(bad == 0, "MPI_Igather / MPI_Iscatterv: %d wrong", bad);
    ran = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_SCATTERV);
    CHECK(ran && strcmp(ran, "linear") == 0, "MPI_Iscatterv ran %s", ran ? ran : "(none)");
    unsetenv("COLIBRI_SCATTERV_ALGORITHM");
    colibri_config_reload();
    free(in), free(out), free(cnt), free(dsp);
}

/* Non-contiguous types: a strided vector (ints 0 and 2 of every 3) sent
 * and received, nonblocking and persistent (packed again at every start,
 * unpacked at every end); the gaps must stay untouched. */
static void test_derived_types(void)
{
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec); /* extent 3 ints */
    MPI_Type_commit(&vec);
    const int p = wsize, n = 3 * p;
    int *in = malloc((size_t)n * sizeof(int)), *out = malloc((size_t)n * sizeof(int));
    MPI_Request pr;
    colibri_alltoall_init(in, 1, vec, out, 1, vec, MPI_COMM_WORLD, NULL, &pr);
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < n; i++)
            in[i] = val(wrank, i, k), out[i] = SENTINEL;
        MPI_Request r = MPI_REQUEST_NULL;
        if (k % 2)
            MPI_Start(&pr), r = pr;
        else
            colibri_ialltoall(in, 1, vec, out, 1, vec, MPI_COMM_WORLD, NULL, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        int bad = 0;
        for (int j = 0; j < p; j++) {
            bad += out[3 * j] != val(j, 3 * wrank, k);
            bad += out[3 * j + 1] != SENTINEL; /* the gap */
            bad += out[3 * j + 2] != val(j, 3 * wrank + 2, k);
        }
        CHECK(bad == 0, "%s alltoall of a strided vector, start %d: %d wrong",
              k % 2 ? "persistent" : "nonblocking", k, bad);
    }
    MPI_Request_free(&pr);
    MPI_Type_free(&vec);
    free(in), free(out);
}

/* A nonblocking call must not wait for the other ranks: rank 0 starts an
 * automatic alltoallv (whose choice needs an agreement on the largest
 * block) and only then sends what rank 1 waits for before starting its
 * own.  A call that agreed on the spot would deadlock here. */
static void test_no_synchronization(void)
{
    if (wsize < 2)
        return;
    struct inst t;
    inst_init(&t, COLIBRI_ALLTOALLV, NULL, 3, MPI_COMM_WORLD);
    inst_fill(&t, 9);
    MPI_Request r;
    int token = 42, got = 0;
    if (wrank == 0) {
        inst_call(&t, false, &r);
        MPI_Send(&token, 1, MPI_INT, 1, 77, MPI_COMM_WORLD);
    } else if (wrank == 1) {
        MPI_Recv(&got, 1, MPI_INT, 0, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(got == 42, "token %d", got);
        inst_call(&t, false, &r);
    } else {
        inst_call(&t, false, &r);
    }
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    inst_verify(&t, "started out of step");
    inst_free(&t);
}

static void test_errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int in[4] = {1, 2, 3, 4}, out[4] = {9, 9, 9, 9};
    MPI_Request r = (MPI_Request)0;
    int rc = MPI_Iallreduce(in, out, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COUNT, "MPI_Iallreduce count -1: class %d", cls);
    CHECK(r == MPI_REQUEST_NULL, "a failed MPI_Iallreduce returned a request");
    CHECK(out[0] == 9 && out[3] == 9, "a failed MPI_Iallreduce touched recvbuf");
    rc = colibri_ialltoall(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD, "bogus", &r);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ARG, "unknown algorithm: class %d", cls);
    MPI_Count c[1] = {1};
    MPI_Aint d[1] = {0};
    if (wsize == 1) {
        rc = colibri_ialltoallv(in, c, d, MPI_INT, out, c, d, MPI_INT, MPI_COMM_WORLD, "sloavx", &r);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_ARG, "nonblocking sloavx: class %d", cls);
    }
    CHECK(out[0] == 9 && out[3] == 9, "a failed call touched recvbuf");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* Node-aware reductions take turns on two slots of the communicator's
 * segment: a blocking call behind two outstanding nonblocking ones on the
 * same communicator waits for the older one's slot, which only this
 * rank's own progress frees (a deadlock when a blocking wait did not
 * progress them), and every result stays right. */
static void test_blocking_behind_nonblocking(void)
{
    const char *algs[] = {"node_leader", "node_split_rail", NULL};
    for (int a = 0; a < 3; a++) {
        double in[3][5], out[3][5];
        MPI_Request r[2];
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 5; i++)
                in[k][i] = (wrank + 1) * (k * 10 + i + 1), out[k][i] = -1;
        colibri_iallreduce(in[0], out[0], 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, algs[a], &r[0]);
        colibri_iallreduce(in[1], out[1], 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, algs[a], &r[1]);
        colibri_allreduce(in[2], out[2], 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, algs[a]);
        MPI_Status st[2];
        MPI_Waitall(2, r, st);
        const double ranks = (double)wsize * (wsize + 1) / 2;
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 5; i++)
                CHECK(out[k][i] == ranks * (k * 10 + i + 1),
                      "%s behind two nonblocking calls: call %d element %d is %g",
                      algs[a] ? algs[a] : "auto", k, i, out[k][i]);
    }
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    test_every_algorithm();
    test_outstanding();
    test_blocking_behind_nonblocking();
    test_schedule_reuse();
    test_request_free();
    test_persistent();
    test_interposed();
    test_derived_types();
    test_no_synchronization();
    test_errors();
    long long mine[2] = {check_passed, check_failed}, all[2];
    MPI_Reduce(mine, all, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (wrank == 0)
        check_print_totals(all[0], all[1]);
    MPI_Finalize();
    return check_failed ? 1 : 0;
}
