// ranks: 1 2 3 4 5 8
// mpich-ranks: 1 2
// env-ranks: COLIBRI_PROGRESS_THREAD=1 2 4
// env-ranks: COLIBRI_PROGRESS_HOOK=0 1 2 3 4 8
// env-ranks: MIXED_SEED0=132 4
// asan-ranks: 3
// ompi5-ranks: 1 2 4
// mpich5-ranks: 1 2
// impi-ranks: 1 2
// abi-ranks: 2
/*
 * Progress when colibri's nonblocking collectives are mixed with the MPI's
 * own (issue #25): a stress program in the spirit of an application's.
 *
 * A window of up to 20 outstanding requests over 4 duplicates of
 * MPI_COMM_WORLD, filled one start at a time in an order every rank agrees
 * on (a shared random stream): colibri's collectives (MPI_Iallreduce,
 * Ireduce, Ireduce_scatter(_block), Ialltoall(v), Ibcast, Ibarrier,
 * Iallgather(v), persistent allreduce, a reduce whose user op and a reduce
 * whose user datatype are freed right after the start, a request freed
 * right after the start) beside the MPI's own (Igather, Iscatter(v), called
 * as PMPI_ since colibri serves their MPI_ names too, Iscan, and
 * point-to-point rings).  Between starts, each rank on its own (a private
 * random stream) sleeps a little and completes some of its window with
 * MPI_Wait, Waitall, Waitany, Waitsome, Test, Testall, Testany or Testsome,
 * so the ranks' windows differ.  Blocking calls are interleaved in the
 * agreed order while the window is busy: the MPI's MPI_Barrier, Bcast,
 * Gather, Allgather, Send/Recv, Ssend, Sendrecv, Sendrecv_replace, Probe,
 * and colibri's blocking MPI_Allreduce, Reduce, Alltoall.  Every result is
 * checked against a serial expectation (int sums: exact).
 *
 * A hang is the failure this test looks for: a watchdog (SIGALRM, every
 * rank) prints the rank's phase and a stack trace (gdb when it can attach,
 * else glibc's backtrace) and exits non-zero, so tests/run.sh shows where
 * every rank was waiting.  Environment (test-only): MIXED_SEEDS (seeds per
 * run, default 3), MIXED_STARTS (starts per seed, default 250),
 * MIXED_SEED0 (first seed), MIXED_WATCHDOG (seconds, default 90).
 */
#include <execinfo.h>
#include <mpi.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "colibri.h"

#define CHECK_MAX_LINES 20
#include "../lib/check.h"

#define WINDOW 20
#define NCOMMS 4

static int rank, size;
static MPI_Comm comms[NCOMMS];

/* ---- random streams: one agreed by all ranks, one per rank ------------- */

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t shared_state, own_state;
static unsigned agreed(unsigned n) { return (unsigned)(mix(shared_state++) % n); }
static unsigned mine(unsigned n) { return (unsigned)(mix(own_state++) % n); }

/* The value rank r contributes at element i of operation id. */
static int val(int id, int r, long i) { return (int)((id * 131 + r * 7 + i * 3) & 0xffff); }

/* ---- watchdog ---------------------------------------------------------- */

static volatile sig_atomic_t phase_seed, phase_start;
static volatile const char *phase_what = "init";

static void put(const char *s) { (void)!write(2, s, strlen(s)); }

static void put_num(long v)
{
    char b[24], *p = b + sizeof b;
    *--p = 0;
    bool neg = v < 0;
    unsigned long u = neg ? (unsigned long)-v : (unsigned long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (neg)
        *--p = '-';
    put(p);
}

static void on_alarm(int sig)
{
    (void)sig;
    put("WATCHDOG: rank ");
    put_num(rank);
    put(" of ");
    put_num(size);
    put(" hung: seed ");
    put_num(phase_seed);
    put(", start ");
    put_num(phase_start);
    put(", in ");
    put((const char *)phase_what);
    put("\n");
    /* gdb's full stacks when it is installed and may attach, else glibc's */
    char pid[24], *p = pid + sizeof pid;
    *--p = 0;
    for (long v = getpid(); v; v /= 10)
        *--p = (char)('0' + v % 10);
    pid_t child = fork();
    if (child == 0) {
        dup2(2, 1);
        execlp("gdb", "gdb", "-p", p, "-batch", "-nx", "-ex", "thread apply all bt", (char *)NULL);
        _exit(127);
    }
    int st = 0;
    if (child < 0 || waitpid(child, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        void *frames[64];
        backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
    }
    /* let the other ranks' watchdogs print theirs before the launcher
     * tears the job down */
    sleep(3);
    _exit(3);
}

static void watchdog(unsigned seconds)
{
#ifdef PR_SET_PTRACER
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
    signal(SIGALRM, on_alarm);
    alarm(seconds);
}

/* ---- the operations ---------------------------------------------------- */

enum kind {
    /* colibri's */
    K_IALLREDUCE, K_IREDUCE, K_IRSB, K_IRS, K_IALLTOALL, K_IALLTOALLV, K_PERSISTENT,
    K_USEROP, K_USERTYPE, K_FREED,
    /* the MPI's */
    K_IBCAST, K_IBARRIER, K_IGATHER, K_ISCATTER, K_ISCATTERV, K_IALLGATHER, K_IALLGATHERV,
    K_ISCAN, K_RING,
    K_NKINDS
};
static const char *const kind_names[K_NKINDS] = {
    "Iallreduce", "Ireduce", "Ireduce_scatter_block", "Ireduce_scatter", "Ialltoall",
    "Ialltoallv", "persistent allreduce", "Ireduce(user op freed)",
    "Iallreduce(user type freed)", "Iallreduce(request freed)", "Ibcast", "Ibarrier", "Igather",
    "Iscatter", "Iscatterv", "Iallgather", "Iallgatherv", "Iscan", "Isend/Irecv ring"};

struct slot {
    enum kind kind;
    int id, comm_i, root;
    long n;               /* elements per rank (per block) */
    int *s, *r;           /* send and receive buffers */
    int *cnt, *dsp;       /* v-forms: counts and displacements */
    int *cnt2, *dsp2;
    MPI_Request req;
    bool persistent;
};

static struct slot win[WINDOW];
static int live;
/* requests freed right after their start: buffers kept to the end */
static struct slot *orphans;
static int n_orphans, cap_orphans;

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int per = 1;
    if (*dt != MPI_INT) {
        int sz = 0;
        MPI_Type_size(*dt, &sz);
        per = sz / (int)sizeof(int);
    }
    for (long i = 0; i < (long)*len * per; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static long pick_n(void)
{
    static const long ns[] = {0, 1, 3, 17, 100, 1000, 4099, 20000, 70000};
    return ns[agreed(sizeof ns / sizeof ns[0])];
}

static int *ints(long n) { return malloc((size_t)(n > 0 ? n : 1) * sizeof(int)); }

static void fill(int *b, long n, int id, int r, long off)
{
    for (long i = 0; i < n; i++)
        b[i] = val(id, r, off + i);
}

static long sum_of(int id, long i)
{
    long t = 0;
    for (int r = 0; r < size; r++)
        t += val(id, r, i);
    return t;
}

/* Starts operation `k` into slot `sl`; returns false when it left no request
 * in the window (freed right after the start). */
static bool start(struct slot *sl, enum kind k, int id)
{
    memset(sl, 0, sizeof *sl);
    sl->kind = k;
    sl->id = id;
    sl->comm_i = (int)agreed(NCOMMS);
    sl->root = (int)agreed((unsigned)size);
    long n = sl->n = pick_n();
    MPI_Comm c = comms[sl->comm_i];
    const long p = size;
    int rc = MPI_SUCCESS;
    switch (k) {
    case K_IALLREDUCE:
    case K_FREED:
    case K_PERSISTENT:
        sl->s = ints(n), sl->r = ints(n);
        fill(sl->s, n, id, rank, 0);
        if (k == K_PERSISTENT) {
            rc = colibri_allreduce_init(sl->s, sl->r, n, MPI_INT, MPI_SUM, c, NULL, &sl->req);
            if (rc == MPI_SUCCESS)
                rc = MPI_Start(&sl->req);
            sl->persistent = true;
        } else {
            rc = MPI_Iallreduce(sl->s, sl->r, (int)n, MPI_INT, MPI_SUM, c, &sl->req);
        }
        break;
    case K_IREDUCE:
    case K_USEROP: {
        sl->s = ints(n), sl->r = ints(n);
        fill(sl->s, n, id, rank, 0);
        MPI_Op op = MPI_SUM;
        if (k == K_USEROP)
            MPI_Op_create(user_sum, 1, &op);
        rc = MPI_Ireduce(sl->s, sl->r, (int)n, MPI_INT, op, sl->root, c, &sl->req);
        if (k == K_USEROP)
            MPI_Op_free(&op);
        break;
    }
    case K_USERTYPE: {
        n = sl->n = 2 * (n / 2);
        sl->s = ints(n), sl->r = ints(n);
        fill(sl->s, n, id, rank, 0);
        MPI_Datatype two;
        MPI_Op op;
        MPI_Type_contiguous(2, MPI_INT, &two);
        MPI_Type_commit(&two);
        MPI_Op_create(user_sum, 1, &op);
        rc = MPI_Iallreduce(sl->s, sl->r, (int)(n / 2), two, op, c, &sl->req);
        MPI_Type_free(&two);
        MPI_Op_free(&op);
        break;
    }
    case K_IRSB:
        sl->s = ints(n * p), sl->r = ints(n);
        fill(sl->s, n * p, id, rank, 0);
        rc = MPI_Ireduce_scatter_block(sl->s, sl->r, (int)n, MPI_INT, MPI_SUM, c, &sl->req);
        break;
    case K_IRS: {
        sl->cnt = malloc(p * sizeof(int));
        long tot = 0;
        for (int j = 0; j < size; j++)
            tot += sl->cnt[j] = (int)((n + 7 * j) % (n + 3));
        sl->s = ints(tot), sl->r = ints(sl->cnt[rank]);
        fill(sl->s, tot, id, rank, 0);
        rc = MPI_Ireduce_scatter(sl->s, sl->r, sl->cnt, MPI_INT, MPI_SUM, c, &sl->req);
        break;
    }
    case K_IALLTOALL:
    case K_IALLGATHER:
    case K_IGATHER:
    case K_ISCATTER:
        sl->s = ints(k == K_IALLTOALL || k == K_ISCATTER ? n * p : n);
        sl->r = ints(k == K_ISCATTER ? n : n * p);
        if (k == K_IALLTOALL || k == K_ISCATTER)
            for (int j = 0; j < size; j++)
                fill(sl->s + j * n, n, id, rank * 64 + j, 0);
        else
            fill(sl->s, n, id, rank, 0);
        if (k == K_IALLTOALL)
            rc = MPI_Ialltoall(sl->s, (int)n, MPI_INT, sl->r, (int)n, MPI_INT, c, &sl->req);
        else if (k == K_IALLGATHER)
            rc = MPI_Iallgather(sl->s, (int)n, MPI_INT, sl->r, (int)n, MPI_INT, c, &sl->req);
        else if (k == K_IGATHER)
            rc = PMPI_Igather(sl->s, (int)n, MPI_INT, sl->r, (int)n, MPI_INT, sl->root, c,
                              &sl->req);
        else
            rc = PMPI_Iscatter(sl->s, (int)n, MPI_INT, sl->r, (int)n, MPI_INT, sl->root, c,
                               &sl->req);
        break;
    case K_IALLTOALLV: {
        /* rank s sends (s + 2 d + id) % 3 * n / 2 + 1 elements to d */
        sl->cnt = malloc(p * sizeof(int)), sl->dsp = malloc(p * sizeof(int));
        sl->cnt2 = malloc(p * sizeof(int)), sl->dsp2 = malloc(p * sizeof(int));
        long ts = 0, tr = 0;
        for (int j = 0; j < size; j++) {
            sl->cnt[j] = (int)((rank + 2 * j + id) % 3 * n / 2 + 1);
            sl->cnt2[j] = (int)((j + 2 * rank + id) % 3 * n / 2 + 1);
            sl->dsp[j] = (int)ts, sl->dsp2[j] = (int)tr;
            ts += sl->cnt[j], tr += sl->cnt2[j];
        }
        sl->s = ints(ts), sl->r = ints(tr);
        for (int j = 0; j < size; j++)
            fill(sl->s + sl->dsp[j], sl->cnt[j], id, rank * 64 + j, 0);
        rc = MPI_Ialltoallv(sl->s, sl->cnt, sl->dsp, MPI_INT, sl->r, sl->cnt2, sl->dsp2, MPI_INT,
                            c, &sl->req);
        break;
    }
    case K_IBCAST:
        sl->r = ints(n);
        if (rank == sl->root)
            fill(sl->r, n, id, rank, 0);
        rc = MPI_Ibcast(sl->r, (int)n, MPI_INT, sl->root, c, &sl->req);
        break;
    case K_IBARRIER:
        rc = MPI_Ibarrier(c, &sl->req);
        break;
    case K_ISCATTERV:
    case K_IALLGATHERV: {
        sl->cnt = malloc(p * sizeof(int)), sl->dsp = malloc(p * sizeof(int));
        long tot = 0;
        for (int j = 0; j < size; j++) {
            sl->cnt[j] = (int)((j % 3) * n / 2 + (j & 1));
            sl->dsp[j] = (int)tot;
            tot += sl->cnt[j];
        }
        if (k == K_ISCATTERV) {
            sl->s = ints(tot), sl->r = ints(sl->cnt[rank]);
            for (int j = 0; j < size; j++)
                fill(sl->s + sl->dsp[j], sl->cnt[j], id, rank * 64 + j, 0);
            rc = PMPI_Iscatterv(sl->s, sl->cnt, sl->dsp, MPI_INT, sl->r, sl->cnt[rank], MPI_INT,
                                sl->root, c, &sl->req);
        } else {
            sl->s = ints(sl->cnt[rank]), sl->r = ints(tot);
            fill(sl->s, sl->cnt[rank], id, rank, 0);
            rc = MPI_Iallgatherv(sl->s, sl->cnt[rank], MPI_INT, sl->r, sl->cnt, sl->dsp, MPI_INT,
                                 c, &sl->req);
        }
        break;
    }
    case K_ISCAN:
        sl->s = ints(n), sl->r = ints(n);
        fill(sl->s, n, id, rank, 0);
        rc = MPI_Iscan(sl->s, sl->r, (int)n, MPI_INT, MPI_SUM, c, &sl->req);
        break;
    case K_RING:
    default:
        break;
    }
    if (!check(rc == MPI_SUCCESS, "rank %d: start of %s failed (%d)", rank, kind_names[k], rc))
        return false;
    if (k == K_FREED) {
        MPI_Request_free(&sl->req);
        if (n_orphans == cap_orphans) {
            cap_orphans = cap_orphans ? 2 * cap_orphans : 64;
            orphans = realloc(orphans, (size_t)cap_orphans * sizeof *orphans);
        }
        orphans[n_orphans++] = *sl;
        return false;
    }
    return true;
}

/* The result of a completed slot against its serial expectation. */
static void verify(struct slot *sl)
{
    const int id = sl->id;
    const long n = sl->n;
    long bad = -1;
    switch (sl->kind) {
    case K_IALLREDUCE:
    case K_PERSISTENT:
    case K_USERTYPE:
        for (long i = 0; i < n && bad < 0; i++)
            if (sl->r[i] != sum_of(id, i))
                bad = i;
        break;
    case K_IREDUCE:
    case K_USEROP:
        for (long i = 0; rank == sl->root && i < n && bad < 0; i++)
            if (sl->r[i] != sum_of(id, i))
                bad = i;
        break;
    case K_IRSB:
        for (long i = 0; i < n && bad < 0; i++)
            if (sl->r[i] != sum_of(id, rank * n + i))
                bad = i;
        break;
    case K_IRS: {
        long off = 0;
        for (int j = 0; j < rank; j++)
            off += sl->cnt[j];
        for (long i = 0; i < sl->cnt[rank] && bad < 0; i++)
            if (sl->r[i] != sum_of(id, off + i))
                bad = i;
        break;
    }
    case K_IALLTOALL:
        for (int j = 0; j < size && bad < 0; j++)
            for (long i = 0; i < n && bad < 0; i++)
                if (sl->r[j * n + i] != val(id, j * 64 + rank, i))
                    bad = j * n + i;
        break;
    case K_IALLTOALLV:
        for (int j = 0; j < size && bad < 0; j++)
            for (long i = 0; i < sl->cnt2[j] && bad < 0; i++)
                if (sl->r[sl->dsp2[j] + i] != val(id, j * 64 + rank, i))
                    bad = sl->dsp2[j] + i;
        break;
    case K_IBCAST:
        for (long i = 0; i < n && bad < 0; i++)
            if (sl->r[i] != val(id, sl->root, i))
                bad = i;
        break;
    case K_IGATHER:
    case K_IALLGATHER:
        for (int j = 0; (sl->kind == K_IALLGATHER || rank == sl->root) && j < size && bad < 0; j++)
            for (long i = 0; i < n && bad < 0; i++)
                if (sl->r[j * n + i] != val(id, j, i))
                    bad = j * n + i;
        break;
    case K_ISCATTER:
        for (long i = 0; i < n && bad < 0; i++)
            if (sl->r[i] != val(id, sl->root * 64 + rank, i))
                bad = i;
        break;
    case K_ISCATTERV:
        for (long i = 0; i < sl->cnt[rank] && bad < 0; i++)
            if (sl->r[i] != val(id, sl->root * 64 + rank, i))
                bad = i;
        break;
    case K_IALLGATHERV:
        for (int j = 0; j < size && bad < 0; j++)
            for (long i = 0; i < sl->cnt[j] && bad < 0; i++)
                if (sl->r[sl->dsp[j] + i] != val(id, j, i))
                    bad = sl->dsp[j] + i;
        break;
    case K_ISCAN:
        for (long i = 0; i < n && bad < 0; i++) {
            long t = 0;
            for (int r = 0; r <= rank; r++)
                t += val(id, r, i);
            if (sl->r[i] != t)
                bad = i;
        }
        break;
    case K_RING: /* send side: nothing to check; receive side: s == NULL */
        for (long i = 0; sl->s == NULL && i < n && bad < 0; i++)
            if (sl->r[i] != val(id, (rank + size - 1) % size, i))
                bad = i;
        break;
    default:
        break;
    }
    check(bad < 0, "rank %d: %s #%d (n=%ld, comm %d, root %d) wrong at element %ld", rank,
          kind_names[sl->kind], id, n, sl->comm_i, sl->root, bad);
    if (sl->persistent)
        MPI_Request_free(&sl->req);
    free(sl->s), free(sl->r), free(sl->cnt), free(sl->dsp), free(sl->cnt2), free(sl->dsp2);
}

/* Removes the slots at the given window indices (ascending or not). */
static void retire(const int *idx, int k)
{
    bool gone[WINDOW] = {false};
    for (int j = 0; j < k; j++) {
        verify(&win[idx[j]]);
        gone[idx[j]] = true;
    }
    int w = 0;
    for (int j = 0; j < live; j++)
        if (!gone[j])
            win[w++] = win[j];
    live = w;
}

/* Completes some of the window by a call this rank picks on its own. */
static void complete_some(bool all)
{
    if (live == 0)
        return;
    MPI_Request reqs[WINDOW];
    int idx[WINDOW], k = 0, flag = 0, one = 0, rc = MPI_SUCCESS;
    for (int j = 0; j < live; j++)
        reqs[j] = win[j].req;
    const unsigned how = all ? (mine(2) ? 1 : 5) : mine(8);
    switch (how) {
    case 0:
        phase_what = "MPI_Wait";
        one = (int)mine((unsigned)live);
        rc = MPI_Wait(&reqs[one], MPI_STATUS_IGNORE);
        idx[k++] = one;
        break;
    case 1:
        phase_what = "MPI_Waitall";
        rc = MPI_Waitall(live, reqs, MPI_STATUSES_IGNORE);
        for (int j = 0; j < live; j++)
            idx[k++] = j;
        break;
    case 2:
        phase_what = "MPI_Waitany";
        rc = MPI_Waitany(live, reqs, &one, MPI_STATUS_IGNORE);
        if (one != MPI_UNDEFINED)
            idx[k++] = one;
        break;
    case 3:
        phase_what = "MPI_Waitsome";
        rc = MPI_Waitsome(live, reqs, &k, idx, MPI_STATUSES_IGNORE);
        if (k == MPI_UNDEFINED)
            k = 0;
        break;
    case 4:
        phase_what = "MPI_Test loop";
        one = (int)mine((unsigned)live);
        while (rc == MPI_SUCCESS && !flag)
            rc = MPI_Test(&reqs[one], &flag, MPI_STATUS_IGNORE);
        idx[k++] = one;
        break;
    case 5:
        phase_what = "MPI_Testall loop";
        while (rc == MPI_SUCCESS && !flag)
            rc = MPI_Testall(live, reqs, &flag, MPI_STATUSES_IGNORE);
        for (int j = 0; j < live; j++)
            idx[k++] = j;
        break;
    case 6:
        phase_what = "MPI_Testany loop";
        while (rc == MPI_SUCCESS && !flag)
            rc = MPI_Testany(live, reqs, &one, &flag, MPI_STATUS_IGNORE);
        if (one != MPI_UNDEFINED)
            idx[k++] = one;
        break;
    default:
        phase_what = "MPI_Testsome loop";
        while (rc == MPI_SUCCESS && k == 0)
            rc = MPI_Testsome(live, reqs, &k, idx, MPI_STATUSES_IGNORE);
        if (k == MPI_UNDEFINED)
            k = 0;
        break;
    }
    check(rc == MPI_SUCCESS, "rank %d: %s returned %d", rank, phase_what, rc);
    for (int j = 0; j < live; j++)
        win[j].req = reqs[j];
    retire(idx, k);
}

/* A blocking call in the agreed order, with the window as it is. */
static long skipped_native_blocking;

static void blocking(int id)
{
    unsigned b = agreed(12);
    /* Barrier, bcast, allgather and gather are the MPI's own (PMPI_:
     * colibri serves the MPI_ names of those too now): the mix this test
     * is about.  Without the MPI's progress hook a native blocking
     * collective cannot progress colibri's operations (docs/nonblocking.md,
     * "Progress"): the agreed draw is kept, the call is not made and is
     * counted. */
    if (!colibri_progress_hooked() && (b == 0 || b == 1 || b == 5 || b == 6)) {
        skipped_native_blocking++;
        b = 100;
    }
    MPI_Comm c = comms[agreed(NCOMMS)];
    const int root = (int)agreed((unsigned)size);
    const long n = pick_n();
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *s = ints(n * size), *r = ints(n * size);
    fill(s, n, id, rank, 0);
    long bad = -1;
    int rc = MPI_SUCCESS;
    switch (b) {
    case 100:
        break;
    case 0:
        phase_what = "MPI_Barrier";
        rc = PMPI_Barrier(c);
        break;
    case 1:
        phase_what = "MPI_Bcast";
        if (rank == root)
            fill(r, n, id, root, 0);
        rc = PMPI_Bcast(r, (int)n, MPI_INT, root, c);
        for (long i = 0; i < n && bad < 0; i++)
            if (r[i] != val(id, root, i))
                bad = i;
        break;
    case 2:
        phase_what = "MPI_Allreduce (colibri)";
        rc = MPI_Allreduce(s, r, (int)n, MPI_INT, MPI_SUM, c);
        for (long i = 0; i < n && bad < 0; i++)
            if (r[i] != sum_of(id, i))
                bad = i;
        break;
    case 3:
        phase_what = "MPI_Reduce (colibri)";
        rc = MPI_Reduce(s, r, (int)n, MPI_INT, MPI_SUM, root, c);
        for (long i = 0; rank == root && i < n && bad < 0; i++)
            if (r[i] != sum_of(id, i))
                bad = i;
        break;
    case 4:
        phase_what = "MPI_Alltoall (colibri)";
        for (int j = 0; j < size; j++)
            fill(s + j * n, n, id, rank * 64 + j, 0);
        rc = MPI_Alltoall(s, (int)n, MPI_INT, r, (int)n, MPI_INT, c);
        for (int j = 0; j < size && bad < 0; j++)
            for (long i = 0; i < n && bad < 0; i++)
                if (r[j * n + i] != val(id, j * 64 + rank, i))
                    bad = j * n + i;
        break;
    case 5:
        phase_what = "MPI_Gather";
        rc = PMPI_Gather(s, (int)n, MPI_INT, r, (int)n, MPI_INT, root, c);
        for (int j = 0; rank == root && j < size && bad < 0; j++)
            for (long i = 0; i < n && bad < 0; i++)
                if (r[j * n + i] != val(id, j, i))
                    bad = j * n + i;
        break;
    case 6:
        phase_what = "MPI_Allgather";
        rc = PMPI_Allgather(s, (int)n, MPI_INT, r, (int)n, MPI_INT, c);
        for (int j = 0; j < size && bad < 0; j++)
            for (long i = 0; i < n && bad < 0; i++)
                if (r[j * n + i] != val(id, j, i))
                    bad = j * n + i;
        break;
    case 7:
        phase_what = "MPI_Sendrecv";
        rc = MPI_Sendrecv(s, (int)n, MPI_INT, right, id, r, (int)n, MPI_INT, left, id, c,
                          MPI_STATUS_IGNORE);
        for (long i = 0; i < n && bad < 0; i++)
            if (r[i] != val(id, left, i))
                bad = i;
        break;
    case 8:
        phase_what = "MPI_Sendrecv_replace";
        rc = MPI_Sendrecv_replace(s, (int)n, MPI_INT, right, id, left, id, c, MPI_STATUS_IGNORE);
        for (long i = 0; i < n && bad < 0; i++)
            if (s[i] != val(id, left, i))
                bad = i;
        break;
    case 9:
    case 10:
        /* Send (or Ssend) and Recv around the ring: even ranks send first
         * (an odd ring's last rank too: its receiver, rank 0, is then
         * freed by rank 1's receive) */
        phase_what = b == 9 ? "MPI_Send/MPI_Recv" : "MPI_Ssend/MPI_Recv";
        if (size == 1) {
            fill(r, n, id, left, 0);
            break;
        }
        for (int turn = 0; turn < 2 && rc == MPI_SUCCESS; turn++) {
            if ((rank % 2 == 0) == (turn == 0))
                rc = b == 9 ? MPI_Send(s, (int)n, MPI_INT, right, id, c)
                            : MPI_Ssend(s, (int)n, MPI_INT, right, id, c);
            else
                rc = MPI_Recv(r, (int)n, MPI_INT, left, id, c, MPI_STATUS_IGNORE);
        }
        for (long i = 0; i < n && bad < 0; i++)
            if (r[i] != val(id, left, i))
                bad = i;
        break;
    case 11: {
        phase_what = "MPI_Probe/MPI_Recv";
        MPI_Request q;
        MPI_Status st;
        int got = -1;
        rc = MPI_Isend(s, (int)n, MPI_INT, right, id, c, &q);
        if (rc == MPI_SUCCESS)
            rc = MPI_Probe(left, id, c, &st);
        if (rc == MPI_SUCCESS)
            rc = MPI_Get_count(&st, MPI_INT, &got);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(r, got, MPI_INT, left, id, c, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
        check(got == (int)n, "rank %d: MPI_Probe saw %d elements, not %ld", rank, got, n);
        for (long i = 0; i < n && bad < 0; i++)
            if (r[i] != val(id, left, i))
                bad = i;
        break;
    }
    }
    check(rc == MPI_SUCCESS && bad < 0, "rank %d: %s #%d (n=%ld) rc %d, wrong at %ld", rank,
          phase_what, id, n, rc, bad);
    free(s), free(r);
}

static void run_seed(unsigned seed, int starts)
{
    shared_state = mix(seed);
    own_state = mix(seed * 1000003u + (unsigned)rank + 1);
    phase_seed = (sig_atomic_t)seed;
    for (int id = 0; id < starts; id++) {
        phase_start = id;
        /* a short sleep of this rank's own: the ranks drift apart */
        if (mine(4) == 0)
            usleep(mine(300));
        if (agreed(10) == 0) {
            blocking(id);
            continue;
        }
        while (live >= WINDOW - 1) /* a ring takes two slots */
            complete_some(false);
        const enum kind k = (enum kind)agreed(K_NKINDS);
        phase_what = kind_names[k];
        if (k == K_RING) {
            /* Irecv from the left, Isend to the right: two window entries */
            struct slot *rs = &win[live], *ss = &win[live + 1];
            memset(rs, 0, sizeof *rs), memset(ss, 0, sizeof *ss);
            rs->kind = ss->kind = K_RING;
            rs->id = ss->id = id;
            rs->comm_i = ss->comm_i = (int)agreed(NCOMMS);
            rs->n = ss->n = pick_n();
            rs->r = ints(rs->n);
            ss->s = ints(ss->n);
            fill(ss->s, ss->n, id, rank, 0);
            MPI_Comm c = comms[rs->comm_i];
            int rc = MPI_Irecv(rs->r, (int)rs->n, MPI_INT, (rank + size - 1) % size, id, c,
                               &rs->req);
            if (rc == MPI_SUCCESS)
                rc = MPI_Isend(ss->s, (int)ss->n, MPI_INT, (rank + 1) % size, id, c, &ss->req);
            if (check(rc == MPI_SUCCESS, "rank %d: ring start failed", rank))
                live += 2;
        } else if (start(&win[live], k, id)) {
            live++;
        }
        if (mine(3) == 0)
            complete_some(false);
    }
    phase_what = "final completion";
    complete_some(true);
}

int main(int argc, char **argv)
{
    int provided = 0;
    const char *pt = getenv("COLIBRI_PROGRESS_THREAD");
    MPI_Init_thread(&argc, &argv, pt && *pt == '1' ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE,
                    &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < NCOMMS; i++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
    const char *e;
    const int seeds = (e = getenv("MIXED_SEEDS")) ? atoi(e) : 3;
    const int starts = (e = getenv("MIXED_STARTS")) ? atoi(e) : 250;
    const unsigned seed0 = (e = getenv("MIXED_SEED0")) ? (unsigned)atoi(e) : 1;
    const unsigned limit = (e = getenv("MIXED_WATCHDOG")) ? (unsigned)atoi(e) : 90;
    PMPI_Barrier(MPI_COMM_WORLD);
    watchdog(limit);
    for (int s = 0; s < seeds; s++)
        run_seed(seed0 + (unsigned)s, starts);
    phase_what = "final barrier";
    MPI_Barrier(MPI_COMM_WORLD);
    alarm(0);
    for (int i = 0; i < NCOMMS; i++)
        MPI_Comm_free(&comms[i]);
    long long mine_c[2] = {check_passed, check_failed}, tot[2] = {0, 0};
    PMPI_Allreduce(mine_c, tot, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && skipped_native_blocking)
        printf("without the MPI's progress hook: %ld native blocking collectives not made\n",
               skipped_native_blocking);
    if (rank == 0)
        printf("%lld passed, %lld failed\n", tot[0], tot[1]);
    MPI_Finalize();
    for (int i = 0; i < n_orphans; i++)
        free(orphans[i].s), free(orphans[i].r);
    free(orphans);
    return tot[1] ? 1 : 0;
}
