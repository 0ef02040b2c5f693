// ranks: 1 2 3 4
// mpich-ranks: 2
// env-ranks: COLIBRI_PROGRESS_THREAD=1 3
// asan-ranks: 3
/*
 * Online selection (docs/tuning.md, "Online selection") on real ranks,
 * decided by injected timings (COLIBRI_ONLINE_FAKE, set per rank and
 * read again with colibri_config_reload), never by the clock:
 *  - every rank reaches the same choice although each rank's times would
 *    make it choose differently by itself (the agreed MAX decides);
 *  - exploration ends within its bound (calls per candidate x candidates),
 *    with one agreement per decision (colibri_setup_stats);
 *  - the re-check keeps the winner inside the margin and switches past it;
 *  - counts that change at every call within one size class settle once;
 *  - random per-rank timings that flip the decision every few calls, on
 *    allreduce, reduce, reduce_scatter_block and alltoall through the
 *    interposed MPI_* calls (their memos included): results exact, every
 *    rank running the same algorithm at every call;
 *  - automatic alltoallv's size agreement skipped once its agreed shapes
 *    settled on native, with sizes that change between calls meanwhile
 *    (MPI_Alltoallv and colibri_alltoallv in turn): results exact, every
 *    rank the same algorithm at every call, calls skipped, and sizes
 *    moved to a new class explored at the window's end; random timings
 *    that settle some shapes on colibri's algorithms: the same;
 *  - nonblocking and persistent calls take the decision of the blocking
 *    shape with the same key, also as it switches between their calls,
 *    through the interposed MPI_I* calls' memos: the same algorithm on
 *    every rank, results exact;
 *  - a communicator freed mid-exploration, a shape called only twice,
 *    zero-count calls (no exploration), COLIBRI_ONLINE=0 and a tuning
 *    rule (no exploration either).
 */
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"

static int rank, size;

static void set_env(const char *var, const char *value)
{
    if (value)
        setenv(var, value, 1);
    else
        unsetenv(var);
    colibri_config_reload();
}

static struct colibri_setup_stats stats(void)
{
    struct colibri_setup_stats s;
    colibri_setup_stats(&s);
    return s;
}

/* One allreduce of n ints on comm, checked exactly; returns the algorithm. */
static const char *sum_ints(MPI_Comm comm, int n, const char *what)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out);
    for (int i = 0; i < n; i++)
        in[i] = r * 1000 + i;
    int rc = colibri_allreduce(in, out, n, MPI_INT, MPI_SUM, comm, NULL);
    bool ok = rc == MPI_SUCCESS;
    for (int i = 0; ok && i < n; i++)
        ok = out[i] == 1000 * p * (p - 1) / 2 + p * i;
    h_record(MPI_COMM_WORLD, ok, "%s: allreduce of %d ints wrong (rc %d)", what, n, rc);
    free(in);
    free(out);
    return colibri_last_algorithm(comm, COLIBRI_ALLREDUCE);
}

/* Whether every rank of comm ran the same algorithm (by name). */
static bool same_everywhere(MPI_Comm comm, const char *alg)
{
    char mine[64] = "", first[64];
    snprintf(mine, sizeof mine, "%s", alg ? alg : "(none)");
    memcpy(first, mine, sizeof first);
    PMPI_Bcast(first, sizeof first, MPI_CHAR, 0, comm);
    int same = strcmp(first, mine) == 0, all;
    PMPI_Allreduce(&same, &all, 1, MPI_INT, MPI_LAND, comm);
    return all;
}

/* The agreement: rank 0 finds the model's choice faster than native, the
 * other ranks native faster; agreed (MAX), the model's choice takes 60 us
 * and native 50: every rank settles on native.  Exploration: 3 calls per
 * candidate, at most 3 candidates, one agreement. */
static void agreement(void)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    set_env("COLIBRI_ONLINE_CALLS", "3");
    set_env("COLIBRI_ONLINE_WINDOW", "1000");
    const struct colibri_setup_stats s0 = stats();
    const char *model = sum_ints(comm, 16, "agreement"); /* the first call: the model's choice */
    char spec[256];
    snprintf(spec, sizeof spec, "%s:%d,native:%d", model, rank == 0 ? 10 : 60,
             rank == 0 ? 50 : 20);
    set_env("COLIBRI_ONLINE_FAKE", spec);
    int decided_at = -1;
    const char *alg = model;
    for (int call = 1; call < 20; call++) {
        alg = sum_ints(comm, 16, "agreement");
        if (decided_at < 0 && stats().online_agreements > s0.online_agreements)
            decided_at = call + 1; /* calls made */
    }
    const struct colibri_setup_stats s1 = stats();
    if (size == 1) { /* nothing to choose between on one rank */
        h_record(MPI_COMM_WORLD, s1.online_agreements == s0.online_agreements &&
                           s1.online_explored == s0.online_explored,
                 "one rank explored");
    } else {
        h_record(MPI_COMM_WORLD, strcmp(alg, "native") == 0, "agreed choice %s, want native", alg);
        h_record(MPI_COMM_WORLD, same_everywhere(comm, alg), "ranks settled differently");
        h_record(MPI_COMM_WORLD, s1.online_agreements == s0.online_agreements + 1,
                 "%lld agreements, want 1", s1.online_agreements - s0.online_agreements);
        const long long explored = s1.online_explored - s0.online_explored;
        h_record(MPI_COMM_WORLD, (explored == 6 || explored == 9) && decided_at == explored,
                 "explored %lld calls, decided after %d: want 6 or 9 (3 per candidate)", explored,
                 decided_at);
    }
    set_env("COLIBRI_ONLINE_FAKE", NULL);
    MPI_Comm_free(&comm);
}

/* A long shape's exploration pauses (select/online.h, "Paced
 * exploration"): a 64 KiB allreduce, native faked at 100 us and every
 * colibri candidate at 1000, 3 calls a candidate (its candidates: the
 * model's choice, native, and on one node at least one more).  From
 * native's on, each candidate's calls end with an agreement: native's at
 * call 6; by then the model's choice has cost 3 x 900 us over native, so
 * native runs untimed until that is 5% of the calls since the exploration
 * began (540 calls: a pause of 534), and the third candidate's calls end
 * at call 543.  Sums exact, native everywhere in the end, the explored
 * calls 3 a candidate. */
static void paced_exploration(void)
{
    if (size == 1)
        return;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    set_env("COLIBRI_ONLINE_CALLS", "3");
    set_env("COLIBRI_ONLINE_WINDOW", "100000");
    const int n = 16384; /* 64 KiB of ints: a long shape */
    const struct colibri_setup_stats s0 = stats();
    sum_ints(comm, n, "paced"); /* the model's first call, untimed */
    set_env("COLIBRI_ONLINE_FAKE", "native:100");
    long long agreed = s0.online_agreements;
    int at[2] = {0, 0}, seen = 0;
    long long explored_at_second = -1;
    const char *alg = NULL;
    for (int call = 2; call <= 600; call++) {
        alg = sum_ints(comm, n, "paced");
        const struct colibri_setup_stats x = stats();
        if (x.online_agreements != agreed && seen < 2) {
            at[seen++] = call;
            if (seen == 2)
                explored_at_second = x.online_explored - s0.online_explored;
        }
        agreed = x.online_agreements;
    }
    h_record(MPI_COMM_WORLD, at[0] == 6 && at[1] == 543 && explored_at_second == 9,
             "paced: agreements at calls %d, %d (%lld explored by then): want 6, 543 (9)", at[0],
             at[1], explored_at_second);
    h_record(MPI_COMM_WORLD, alg && strcmp(alg, "native") == 0 && same_everywhere(comm, alg),
             "paced: ran %s, want native on every rank", alg ? alg : "(none)");
    set_env("COLIBRI_ONLINE_FAKE", NULL);
    set_env("COLIBRI_ONLINE_CALLS", NULL);
    set_env("COLIBRI_ONLINE_WINDOW", NULL);
    MPI_Comm_free(&comm);
}

/* The exploring calls of an interposed call after the first of each
 * candidate's block are served from a memo (as a settled call is), timed
 * there: native's from the native memo, the colibri candidates' from the
 * call memo.  The call before the loop is the model's first (full path,
 * untimed); the fake times' reload voids every memo, so the loop's first
 * call takes the full path again and its next 3 come from the memo; then
 * native's 5 (the first through the full path) and, where the model has a
 * runner-up, its 5; the last call of all decides, through the full path:
 * 3 + 3 = 6 memo calls of two candidates, 3 + 4 + 3 = 10 of three (3 or 4
 * before the call memo served the colibri candidates).  The decision is
 * the same as through the full path. */
static void memo_explores(void)
{
    if (size == 1)
        return;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    set_env("COLIBRI_ONLINE_CALLS", "5");
    set_env("COLIBRI_ONLINE_WINDOW", "1000");
    const int n = 40;
    int in[40], out[40];
    for (int i = 0; i < n; i++)
        in[i] = rank + i;
    MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, comm);
    char spec[256];
    snprintf(spec, sizeof spec, "%s:10,native:5", colibri_last_algorithm(comm, COLIBRI_ALLREDUCE));
    set_env("COLIBRI_ONLINE_FAKE", spec);
    const struct colibri_setup_stats s0 = stats();
    bool exact = true;
    for (int call = 0; call < 20 && stats().online_agreements == s0.online_agreements; call++) {
        MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, comm);
        for (int i = 0; i < n; i++)
            exact = exact && out[i] == size * (size - 1) / 2 + size * i;
    }
    const struct colibri_setup_stats s1 = stats();
    const long long memo = s1.online_memo_explored - s0.online_memo_explored;
    h_record(MPI_COMM_WORLD, exact, "memo exploration: wrong sums");
    h_record(MPI_COMM_WORLD, s1.online_agreements == s0.online_agreements + 1,
             "memo exploration: %lld agreements", s1.online_agreements - s0.online_agreements);
    h_record(MPI_COMM_WORLD, memo == 6 || memo == 10,
             "exploring calls from the memos: %lld, want 6 or 10", memo);
    MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, comm);
    const char *alg = colibri_last_algorithm(comm, COLIBRI_ALLREDUCE);
    h_record(MPI_COMM_WORLD, alg && strcmp(alg, "native") == 0, "memo exploration chose %s", alg);
    set_env("COLIBRI_ONLINE_FAKE", NULL);
    set_env("COLIBRI_ONLINE_CALLS", NULL);
    set_env("COLIBRI_ONLINE_WINDOW", NULL);
    MPI_Comm_free(&comm);
}

/* The re-check: the model's choice wins (10 against native's 100), then,
 * window after window, native at 12 (the model's choice 17% faster:
 * kept), then at 10.5 (the model's choice under 10% faster: native, the
 * incumbent at every decision, replaces it). */
static void recheck(void)
{
    if (size == 1)
        return;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    set_env("COLIBRI_ONLINE_CALLS", "2");
    set_env("COLIBRI_ONLINE_WINDOW", "4");
    const char *model = sum_ints(comm, 24, "recheck");
    char spec[256];
    snprintf(spec, sizeof spec, "%s:10,native:100", model);
    set_env("COLIBRI_ONLINE_FAKE", spec);
    const struct colibri_setup_stats s0 = stats();
    const char *alg = NULL;
    int calls = 1;
    while (stats().online_agreements == s0.online_agreements && calls < 50)
        alg = sum_ints(comm, 24, "recheck"), calls++;
    char model_name[64];
    snprintf(model_name, sizeof model_name, "%s", model);
    alg = sum_ints(comm, 24, "recheck");
    h_record(MPI_COMM_WORLD, strcmp(alg, model_name) == 0, "first decision %s, want %s", alg, model_name);
    snprintf(spec, sizeof spec, "%s:10,native:12", model_name);
    set_env("COLIBRI_ONLINE_FAKE", spec);
    /* the window (4 settled calls, one made) and a re-check (2 or 3
     * candidates x 2 calls), then settled calls: the winner stays */
    const long long a0 = stats().online_agreements;
    for (int i = 0; i < 3 + 6 && stats().online_agreements == a0; i++)
        alg = sum_ints(comm, 24, "recheck");
    alg = sum_ints(comm, 24, "recheck");
    h_record(MPI_COMM_WORLD, stats().online_agreements == a0 + 1, "no re-check after the window");
    h_record(MPI_COMM_WORLD, strcmp(alg, model_name) == 0,
             "native 20%% slower replaced %s (now %s)", model_name, alg);
    snprintf(spec, sizeof spec, "%s:10,native:10.5", model_name);
    set_env("COLIBRI_ONLINE_FAKE", spec);
    const long long a1 = stats().online_agreements;
    for (int i = 0; i < 8 + 6 && stats().online_agreements == a1; i++)
        alg = sum_ints(comm, 24, "recheck");
    alg = sum_ints(comm, 24, "recheck");
    h_record(MPI_COMM_WORLD, strcmp(alg, "native") == 0,
             "native 5%% slower (under the native margin) did not replace %s (%s)", model_name,
             alg);
    h_record(MPI_COMM_WORLD, same_everywhere(comm, alg), "ranks differ after the switch");
    set_env("COLIBRI_ONLINE_FAKE", NULL);
    set_env("COLIBRI_ONLINE_CALLS", NULL);
    set_env("COLIBRI_ONLINE_WINDOW", NULL);
    MPI_Comm_free(&comm);
}

/* Size classes (online.h): allreduce counts that change at every call but
 * stay in one class (1000 to 1019 ints) are one shape: one exploration,
 * one agreement, then native (faked 3x faster than the model's choice) on
 * every rank; exact counts made every call a new shape, never explored
 * past its first call.  A count of another class (2000) is a shape of its
 * own: one more agreement.  Through MPI_Allreduce, the native memo serves
 * such calls too (native.c, same_class). */
static void drifting(void)
{
    if (size == 1)
        return;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    set_env("COLIBRI_ONLINE_CALLS", "3");
    set_env("COLIBRI_ONLINE_WINDOW", "1000");
    char model[64], spec[256];
    snprintf(model, sizeof model, "%s", sum_ints(comm, 1000, "drifting"));
    snprintf(spec, sizeof spec, "%s:60,native:20", model);
    set_env("COLIBRI_ONLINE_FAKE", spec);
    const struct colibri_setup_stats s0 = stats();
    const char *alg = NULL;
    for (int call = 0; call < 40; call++)
        alg = sum_ints(comm, 1000 + (call * 7) % 20, "drifting");
    const struct colibri_setup_stats s1 = stats();
    h_record(MPI_COMM_WORLD, s1.online_agreements == s0.online_agreements + 1,
             "counts 1000-1019: %lld agreements, want 1",
             s1.online_agreements - s0.online_agreements);
    h_record(MPI_COMM_WORLD, s1.online_explored - s0.online_explored <= 3 * 4,
             "counts 1000-1019: %lld calls explored", s1.online_explored - s0.online_explored);
    h_record(MPI_COMM_WORLD, strcmp(alg, "native") == 0 && same_everywhere(comm, alg),
             "counts 1000-1019 settled on %s, want native on every rank", alg);
    for (int call = 0; call < 16; call++)
        alg = sum_ints(comm, 2000, "drifting");
    h_record(MPI_COMM_WORLD, stats().online_agreements == s1.online_agreements + 1,
             "count 2000: %lld agreements, want 1", stats().online_agreements - s1.online_agreements);
    /* the interposed call: native's exploring calls after its first come
     * from the native memo although no two calls in a row have the same
     * count (the memo matches the class), and settled calls too; sums
     * exact throughout.  From 8 KiB a sum's sparse estimate is the
     * class's too (api/reductions.c), which the memo needs. */
    for (int size_i = 0; size_i < 2; size_i++) {
        const int base = size_i ? 4096 : 1000, spread = size_i ? 64 : 20;
        MPI_Comm c2;
        MPI_Comm_dup(MPI_COMM_WORLD, &c2);
        int *in = malloc((size_t)(base + spread) * sizeof *in);
        int *out = malloc((size_t)(base + spread) * sizeof *out);
        for (int i = 0; i < base + spread; i++)
            in[i] = rank + i;
        const struct colibri_setup_stats s2 = stats();
        bool exact = true;
        for (int call = 0; call < 40; call++) {
            const int n = base + (call * 7) % spread;
            MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, c2);
            for (int i = 0; i < n; i++)
                exact = exact && out[i] == size * (size - 1) / 2 + size * i;
        }
        const struct colibri_setup_stats s3 = stats();
        alg = colibri_last_algorithm(c2, COLIBRI_ALLREDUCE);
        h_record(MPI_COMM_WORLD, exact, "drifting interposed allreduce from %d: wrong sums", base);
        h_record(MPI_COMM_WORLD,
                 s3.online_agreements == s2.online_agreements + 1 && alg &&
                     strcmp(alg, "native") == 0,
                 "drifting interposed allreduce from %d: %lld agreements, then %s", base,
                 s3.online_agreements - s2.online_agreements, alg ? alg : "(none)");
        h_record(MPI_COMM_WORLD, s3.online_memo_explored - s2.online_memo_explored == 2,
                 "drifting interposed allreduce from %d: %lld of native's exploring calls from "
                 "the memo, want 2",
                 base, s3.online_memo_explored - s2.online_memo_explored);
        free(in);
        free(out);
        MPI_Comm_free(&c2);
    }
    set_env("COLIBRI_ONLINE_FAKE", NULL);
    set_env("COLIBRI_ONLINE_CALLS", NULL);
    set_env("COLIBRI_ONLINE_WINDOW", NULL);
    MPI_Comm_free(&comm);
}

/* Random timings, different on every rank, re-decided every few calls,
 * through the interposed calls (native and call memos serve the settled
 * ones): exact results, the same algorithm on every rank at every call. */
static void flipping(void)
{
    set_env("COLIBRI_ONLINE_FAKE", "random:11,calls=2,window=1");
    const int counts[] = {1, 7, 64, 1000};
    for (int k = 0; k < 4; k++) {
        const int n = counts[k];
        int *in = malloc((size_t)n * size * sizeof *in), *out = malloc((size_t)n * size * sizeof *out);
        bool ok = true, same = true;
        const char *colls = "";
        for (int call = 0; call < 40; call++) {
            for (int i = 0; i < n * size; i++)
                in[i] = rank * 7 + i + call;
            /* allreduce */
            MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            for (int i = 0; i < n; i++)
                ok = ok && out[i] == 7 * size * (size - 1) / 2 + size * (i + call);
            same = same && same_everywhere(MPI_COMM_WORLD,
                                           colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLREDUCE));
            /* reduce to a rank that moves */
            const int root = call % size;
            MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
            for (int i = 0; rank == root && i < n; i++)
                ok = ok && out[i] == 7 * size * (size - 1) / 2 + size * (i + call);
            same = same && same_everywhere(MPI_COMM_WORLD,
                                           colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_REDUCE));
            /* reduce_scatter_block */
            MPI_Reduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            for (int i = 0; i < n; i++)
                ok = ok && out[i] == 7 * size * (size - 1) / 2 + size * (rank * n + i + call);
            /* alltoall: block j of rank r holds r, j, i */
            for (int j = 0; j < size; j++)
                for (int i = 0; i < n; i++)
                    in[j * n + i] = (rank * size + j) * 4096 + i + call;
            MPI_Alltoall(in, n, MPI_INT, out, n, MPI_INT, MPI_COMM_WORLD);
            for (int j = 0; j < size; j++)
                for (int i = 0; i < n; i++)
                    ok = ok && out[j * n + i] == (j * size + rank) * 4096 + i + call;
            same = same && same_everywhere(MPI_COMM_WORLD,
                                           colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_ALLTOALL));
        }
        (void)colls;
        h_record(MPI_COMM_WORLD, ok, "flipping, n=%d: a wrong result", n);
        h_record(MPI_COMM_WORLD, same, "flipping, n=%d: ranks ran different algorithms", n);
        free(in);
        free(out);
    }
    set_env("COLIBRI_ONLINE_FAKE", NULL);
}

/* One alltoallv on comm, block (r -> j) of count(r, j) ints whose values
 * say (r, j, i, call), checked exactly; through MPI_Alltoallv at even calls
 * and colibri_alltoallv at odd ones.  Returns whether it was right and
 * whether every rank ran the same algorithm. */
static bool vcall(MPI_Comm comm, int call, int (*count)(int r, int j, int call), bool *same)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int sc[64], sd[64], rc[64], rd[64], ns = 0, nr = 0;
    for (int j = 0; j < p; j++) {
        sc[j] = count(r, j, call), sd[j] = ns, ns += sc[j];
        rc[j] = count(j, r, call), rd[j] = nr, nr += rc[j];
    }
    int *in = malloc((size_t)(ns + 1) * sizeof *in), *out = malloc((size_t)(nr + 1) * sizeof *out);
    for (int j = 0; j < p; j++)
        for (int i = 0; i < sc[j]; i++)
            in[sd[j] + i] = ((r * 64 + j) * 8192 + i) * 16 + call % 16;
    int ret;
    if (call % 2 == 0) {
        ret = MPI_Alltoallv(in, sc, sd, MPI_INT, out, rc, rd, MPI_INT, comm);
    } else {
        MPI_Count c[4][64];
        for (int j = 0; j < p; j++)
            c[0][j] = sc[j], c[1][j] = sd[j], c[2][j] = rc[j], c[3][j] = rd[j];
        ret = colibri_alltoallv(in, c[0], (MPI_Aint *)c[1], MPI_INT, out, c[2], (MPI_Aint *)c[3],
                                MPI_INT, comm, NULL);
    }
    bool ok = ret == MPI_SUCCESS;
    for (int j = 0; ok && j < p; j++)
        for (int i = 0; ok && i < rc[j]; i++)
            ok = out[rd[j] + i] == ((j * 64 + r) * 8192 + i) * 16 + call % 16;
    *same = same_everywhere(comm, colibri_last_algorithm(comm, COLIBRI_ALLTOALLV));
    free(in);
    free(out);
    return ok;
}

/* Sizes that change at every call, the largest block always 4 ints (the
 * block a rank keeps): one size class. */
static int small_counts(int r, int j, int call)
{
    return r == j ? 4 : (r + 2 * j + call) % 4;
}
/* A larger class: blocks of up to 3000 ints. */
static int large_counts(int r, int j, int call)
{
    return r == j ? 3000 : 1000 + (r + j + call) % 7;
}
/* Three classes in turn, changing every few calls. */
static int mixed_counts(int r, int j, int call)
{
    const int k = call / 3 % 3;
    return k == 0 ? small_counts(r, j, call) : k == 1 ? 64 + (r + j) % 3 : large_counts(r, j, call);
}

/* Automatic alltoallv skips its size agreement once every shape agreed on
 * settled on native: native wins everywhere (its time 10 us on rank 0, 500
 * on the others, every algorithm 1000), the sizes change at every call
 * within one class; then move to a new class, whose calls run native until
 * the window ends and then explore it.  Then random timings over three
 * classes (some shapes settle on colibri's algorithms: no skipping while
 * one does).  Every call exact, every rank the same algorithm. */
static void alltoallv_skip(void)
{
    if (size > 64)
        return;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    set_env("COLIBRI_ONLINE_CALLS", "2");
    set_env("COLIBRI_ONLINE_WINDOW", "100000");
    set_env("COLIBRI_ONLINE_FAKE", "native@0:10,native:500");
    bool ok = true, same = true, s1;
    const struct colibri_setup_stats s0 = stats();
    const int calls = 300;
    for (int call = 0; call < calls; call++)
        ok = vcall(comm, call, small_counts, &s1) && ok, same = same && s1;
    const struct colibri_setup_stats s2 = stats();
    h_record(MPI_COMM_WORLD, ok, "alltoallv skip: a wrong result");
    h_record(MPI_COMM_WORLD, same, "alltoallv skip: ranks ran different algorithms");
    const long long skipped = s2.online_skipped - s0.online_skipped;
    if (size == 1)
        h_record(MPI_COMM_WORLD, skipped == 0, "one rank skipped %lld agreements", skipped);
    else
        h_record(MPI_COMM_WORLD, skipped >= calls / 2 && skipped < calls,
                 "alltoallv skip: %lld of %d calls skipped the agreement", skipped, calls);
    /* a new class: native (skipped) until the window ends, then explored */
    for (int call = calls; call < 2 * calls; call++)
        ok = vcall(comm, call, large_counts, &s1) && ok, same = same && s1;
    const struct colibri_setup_stats s3 = stats();
    h_record(MPI_COMM_WORLD, ok, "alltoallv skip, new class: a wrong result");
    h_record(MPI_COMM_WORLD, same, "alltoallv skip, new class: ranks ran different algorithms");
    if (size > 1)
        h_record(MPI_COMM_WORLD, s3.online_explored > s2.online_explored,
                 "alltoallv skip: the new class was never explored");
    /* three classes changing every 3 calls, all on native: skipped across
     * classes too */
    for (int call = 0; call < calls; call++)
        ok = vcall(comm, call, mixed_counts, &s1) && ok, same = same && s1;
    const struct colibri_setup_stats s4 = stats();
    h_record(MPI_COMM_WORLD, ok && same, "alltoallv skip, three classes: wrong or different");
    if (size > 1)
        h_record(MPI_COMM_WORLD, s4.online_skipped - s3.online_skipped >= calls / 2,
                 "alltoallv skip, three classes: %lld of %d calls skipped",
                 s4.online_skipped - s3.online_skipped, calls);
    /* random timings, three classes changing every 3 calls */
    for (int seed = 1; seed <= 3; seed++) {
        char spec[64];
        snprintf(spec, sizeof spec, "random:%d,calls=2,window=8", seed);
        set_env("COLIBRI_ONLINE_WINDOW", NULL);
        set_env("COLIBRI_ONLINE_CALLS", NULL);
        set_env("COLIBRI_ONLINE_FAKE", spec);
        for (int call = 0; call < 150; call++)
            ok = vcall(comm, call, mixed_counts, &s1) && ok, same = same && s1;
    }
    h_record(MPI_COMM_WORLD, ok, "alltoallv skip, random: a wrong result");
    h_record(MPI_COMM_WORLD, same, "alltoallv skip, random: ranks ran different algorithms");
    set_env("COLIBRI_ONLINE_FAKE", NULL);
    set_env("COLIBRI_ONLINE_CALLS", NULL);
    set_env("COLIBRI_ONLINE_WINDOW", NULL);
    MPI_Comm_free(&comm);
}

/* Where one alltoallv shape settled on colibri's algorithm, another
 * settled on native still skips its size agreement while its calls follow
 * one another (online_skip_after's second case): a small class settles on
 * colibri's algorithm (native faked 5000 us, every algorithm 1000), then a
 * large one on native (native 10 us) and skips at least half of its
 * calls; back in the small class, colibri's algorithm runs again.  Every
 * call exact, every rank the same algorithm. */
static void alltoallv_skip_mixed(void)
{
    if (size > 64 || size < 2)
        return;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    set_env("COLIBRI_ONLINE_CALLS", "2");
    set_env("COLIBRI_ONLINE_WINDOW", "100000");
    set_env("COLIBRI_ONLINE_FAKE", "native:5000");
    bool ok = true, same = true, s1;
    for (int call = 0; call < 40; call++)
        ok = vcall(comm, call, small_counts, &s1) && ok, same = same && s1;
    const char *small = colibri_last_algorithm(comm, COLIBRI_ALLTOALLV);
    h_record(MPI_COMM_WORLD, strcmp(small, "native") != 0,
             "alltoallv mixed skip: the small class settled on %s", small);
    set_env("COLIBRI_ONLINE_FAKE", "native:10");
    const int calls = 300;
    const struct colibri_setup_stats s2 = stats();
    for (int call = 0; call < calls; call++)
        ok = vcall(comm, call, large_counts, &s1) && ok, same = same && s1;
    const struct colibri_setup_stats s3 = stats();
    const long long skipped = s3.online_skipped - s2.online_skipped;
    h_record(MPI_COMM_WORLD, skipped >= calls / 2 && skipped < calls,
             "alltoallv mixed skip: %lld of %d calls skipped the agreement", skipped, calls);
    set_env("COLIBRI_ONLINE_FAKE", "native:5000");
    for (int call = 0; call < 256; call++) /* twice the mixed windows' bound */
        ok = vcall(comm, call, small_counts, &s1) && ok, same = same && s1;
    const char *back = colibri_last_algorithm(comm, COLIBRI_ALLTOALLV);
    h_record(MPI_COMM_WORLD, strcmp(back, small) == 0,
             "alltoallv mixed skip: back in the small class, %s runs, not %s", back, small);
    h_record(MPI_COMM_WORLD, ok, "alltoallv mixed skip: a wrong result");
    h_record(MPI_COMM_WORLD, same, "alltoallv mixed skip: ranks ran different algorithms");
    set_env("COLIBRI_ONLINE_FAKE", NULL);
    set_env("COLIBRI_ONLINE_CALLS", NULL);
    set_env("COLIBRI_ONLINE_WINDOW", NULL);
    MPI_Comm_free(&comm);
}

/* One allreduce of n ints on comm in the form `form` (0 MPI_Allreduce, 1
 * MPI_Iallreduce + MPI_Wait, 2 colibri_allreduce_init + MPI_Start +
 * MPI_Wait), checked exactly; returns the algorithm it ran. */
static const char *sum_form(MPI_Comm comm, int n, int form, int call, bool *ok)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int in[64], out[64];
    for (int i = 0; i < n; i++)
        in[i] = r * 1000 + i + call;
    int rc;
    MPI_Request req = MPI_REQUEST_NULL;
    if (form == 0) {
        rc = MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, comm);
    } else if (form == 1) {
        rc = MPI_Iallreduce(in, out, n, MPI_INT, MPI_SUM, comm, &req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        rc = colibri_allreduce_init(in, out, n, MPI_INT, MPI_SUM, comm, NULL, &req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Start(&req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (req != MPI_REQUEST_NULL)
            MPI_Request_free(&req);
    }
    bool good = rc == MPI_SUCCESS;
    for (int i = 0; good && i < n; i++)
        good = out[i] == 1000 * p * (p - 1) / 2 + p * (i + call);
    *ok = *ok && good;
    return colibri_last_algorithm(comm, COLIBRI_ALLREDUCE);
}

/* Nonblocking and persistent calls reuse the blocking shape's decision:
 * native decided (10 us against 1000), then the model's choice (1 us
 * against native's 1000) after the re-check; then random timings that
 * re-decide every few calls, the three forms interleaved. */
static void reuse(void)
{
    if (size == 1)
        return;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    bool ok = true, same = true;
    char model[64];
    snprintf(model, sizeof model, "%s", sum_form(comm, 16, 1, 0, &ok)); /* no decision yet */
    set_env("COLIBRI_ONLINE_FAKE", "native:10,calls=2,window=6");
    const long long a0 = stats().online_agreements;
    int call = 1;
    while (stats().online_agreements == a0 && call < 50)
        sum_form(comm, 16, 0, call++, &ok);
    const char *nb = sum_form(comm, 16, 1, call++, &ok), *pe = sum_form(comm, 16, 2, call++, &ok);
    h_record(MPI_COMM_WORLD, strcmp(nb, "native") == 0, "nonblocking: %s, want native", nb);
#if MPI_VERSION >= 4
    const char *want_pe = "native";
#else
    const char *want_pe = model; /* no persistent collectives below */
#endif
    h_record(MPI_COMM_WORLD, strcmp(pe, want_pe) == 0, "persistent: %s, want %s", pe, want_pe);
    char spec[128];
    snprintf(spec, sizeof spec, "%s:1,native:1000,calls=2,window=6", model);
    set_env("COLIBRI_ONLINE_FAKE", spec);
    const long long a1 = stats().online_agreements;
    for (int i = 0; i < 40 && stats().online_agreements == a1; i++) {
        same = same_everywhere(comm, sum_form(comm, 16, 0, call++, &ok)) && same;
        same = same_everywhere(comm, sum_form(comm, 16, 1 + i % 2, call++, &ok)) && same;
    }
    nb = sum_form(comm, 16, 1, call++, &ok);
    h_record(MPI_COMM_WORLD, strcmp(nb, model) == 0, "nonblocking after the switch: %s, want %s",
             nb, model);
    set_env("COLIBRI_ONLINE_FAKE", "random:3,calls=2,window=2");
    for (int i = 0; i < 120; i++) {
        const int n = 1 + i % 3 * 20; /* three shapes */
        same = same_everywhere(comm, sum_form(comm, n, i * 7 % 3, call++, &ok)) && same;
    }
    h_record(MPI_COMM_WORLD, ok, "reuse: a wrong result");
    h_record(MPI_COMM_WORLD, same, "reuse: ranks ran different algorithms");
    set_env("COLIBRI_ONLINE_FAKE", NULL);
    MPI_Comm_free(&comm);
}

/* Bad cases: a communicator freed in the middle of an exploration, a shape
 * called twice, zero counts, online selection off, a tuning rule. */
static void bad_cases(void)
{
    set_env("COLIBRI_ONLINE_FAKE", "random:5");
    for (int k = 0; k < 3; k++) {
        MPI_Comm comm;
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        for (int i = 0; i < 3 + k; i++)
            sum_ints(comm, 5, "freed mid-exploration");
        MPI_Comm_free(&comm);
    }
    struct colibri_setup_stats s0 = stats();
    sum_ints(MPI_COMM_WORLD, 333, "called twice");
    sum_ints(MPI_COMM_WORLD, 333, "called twice");
    h_record(MPI_COMM_WORLD, stats().online_agreements == s0.online_agreements,
             "a shape called twice agreed");

    s0 = stats();
    int x = 1, y = 7;
    h_record(MPI_COMM_WORLD,
             MPI_Allreduce(&x, &y, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS && y == 7,
             "zero-count allreduce");
    h_record(MPI_COMM_WORLD,
             MPI_Alltoall(&x, 0, MPI_INT, &y, 0, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS && y == 7,
             "zero-count alltoall");
    h_record(MPI_COMM_WORLD,
             MPI_Allreduce(&x, &y, 0, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS,
             "a zero-count call is still checked");
    h_record(MPI_COMM_WORLD, stats().online_explored == s0.online_explored,
             "zero-count calls explored");

    set_env("COLIBRI_ONLINE", "0");
    s0 = stats();
    for (int i = 0; i < 30; i++)
        sum_ints(MPI_COMM_WORLD, 444, "COLIBRI_ONLINE=0");
    h_record(MPI_COMM_WORLD, stats().online_explored == s0.online_explored,
             "COLIBRI_ONLINE=0 explored");
    set_env("COLIBRI_ONLINE", NULL);

    char path[128];
    snprintf(path, sizeof path, "/tmp/colibri-online-%d.tuning", (int)getppid());
    if (rank == 0) {
        FILE *f = fopen(path, "w");
        fprintf(f, "allreduce 0 100000000 1 1024 native\n");
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    set_env("COLIBRI_TUNING", path);
    s0 = stats();
    const char *alg = NULL;
    for (int i = 0; i < 30; i++)
        alg = sum_ints(MPI_COMM_WORLD, 555, "tuning rule");
    h_record(MPI_COMM_WORLD, stats().online_explored == s0.online_explored &&
                                 strcmp(alg, "native") == 0,
             "a tuning rule did not win (%s)", alg);
    set_env("COLIBRI_TUNING", NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        unlink(path);
    set_env("COLIBRI_ONLINE_FAKE", NULL);
}

/* allgatherv under online selection: a shape keys on all blocks' bytes
 * and the largest block's (every rank has the same recvcounts).  Native
 * timed fastest, every candidate else slow: the shape explores, settles on
 * native on every rank, and its further calls go below from the native
 * memo (counted as explored while exploring, then as settled); blocks
 * spread otherwise with the same total and largest share the shape and
 * stay exact; a larger largest block is another shape, explored anew. */
static void allgatherv_shapes(void)
{
    if (size == 1)
        return;
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    set_env("COLIBRI_ONLINE_CALLS", "3");
    set_env("COLIBRI_ONLINE_FAKE", "native:1");
    int *counts = malloc((size_t)size * sizeof *counts), *displs = malloc((size_t)size * sizeof *displs);
    /* blocks of at most 3 + 6 ints, each followed by a gap of one */
    int *out = malloc((size_t)(10 * size) * sizeof *out), in[9];
    bool exact = true;
    const char *alg = NULL;
    const struct colibri_setup_stats s0 = stats();
    /* shapes: rank j's block j % 3 + 1 ints (rotated by `shift`), then a
     * block of 7 ints on the last rank */
    for (int call = 0; call < 60; call++) {
        const int shift = call < 40 ? call % 2 : 0, big = call >= 40;
        int at = 0;
        for (int j = 0; j < size; j++) {
            counts[j] = (j + shift) % 3 + 1 + (big && j == size - 1 ? 6 : 0);
            displs[j] = at;
            at += counts[j] + 1; /* a gap */
        }
        for (int i = 0; i < counts[rank]; i++)
            in[i] = rank * 100 + i;
        for (int i = 0; i < 10 * size; i++)
            out[i] = -1;
        MPI_Allgatherv(in, counts[rank], MPI_INT, out, counts, displs, MPI_INT, comm);
        for (int j = 0; j < size; j++)
            for (int i = 0; i < counts[j] + 1; i++)
                exact = exact && out[displs[j] + i] == (i < counts[j] ? j * 100 + i : -1);
        alg = colibri_last_algorithm(comm, COLIBRI_ALLGATHERV);
        if (call == 39 || call == 59) {
            h_record(MPI_COMM_WORLD, alg && strcmp(alg, "native") == 0,
                     "allgatherv call %d ran %s, want native", call, alg ? alg : "(none)");
            h_record(MPI_COMM_WORLD, same_everywhere(comm, alg), "allgatherv: ranks differ");
        }
    }
    const struct colibri_setup_stats s1 = stats();
    h_record(MPI_COMM_WORLD, exact, "allgatherv under online selection: wrong blocks");
    /* (shifted blocks share the total and the largest only where size is
     * a multiple of 3; otherwise each shift is a shape of its own) */
    const long long agreements = s1.online_agreements - s0.online_agreements;
    h_record(MPI_COMM_WORLD, agreements >= 2 && agreements <= 3,
             "allgatherv: %lld agreements, want 2 or 3 (one per shape)", agreements);
    h_record(MPI_COMM_WORLD, s1.online_memo_explored > s0.online_memo_explored,
             "allgatherv: no exploring call from the native memo");
    set_env("COLIBRI_ONLINE_FAKE", NULL);
    set_env("COLIBRI_ONLINE_CALLS", NULL);
    free(counts), free(displs), free(out);
    MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
    h_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    agreement();
    paced_exploration();
    recheck();
    drifting();
    memo_explores();
    flipping();
    alltoallv_skip();
    alltoallv_skip_mixed();
    allgatherv_shapes();
    reuse();
    bad_cases();
    return h_finish();
}
