// ranks: 2 3 4
// mpich-ranks: 2
// asan-ranks: 3
// ompi5-ranks: 2
// impi-ranks: 2
/*
 * `native` tuning rules through the interposed entry points, and the
 * shortcut that sends repeated native calls straight below
 * (runtime/native.h): results right, colibri_last_algorithm says what ran
 * at every call, and the shortcut never outlives what it depends on: a
 * reloaded configuration (another file), a freed communicator (a new one
 * of another size may get its handle), another count, root or datatype;
 * gather and scatter at every root, in place at the root or not.
 */
#include "harness.h"

static int rank, size;
static char path[256];

/* Every rank reads the same file: rank 0 writes it, all reload. */
static void use_rules(const char *rules) { h_use_rules(path, rules); }

/* What auto runs for an allreduce of n doubles on comm without any rule
 * (colibri_select cannot say: it knows no communicator, so not the node
 * layout that the node-aware algorithms need).  Collective over comm. */
static const char *model_choice(MPI_Comm comm, int n)
{
    static char name[64];
    const char *rules = getenv("COLIBRI_TUNING");
    char saved[256];
    snprintf(saved, sizeof saved, "%s", rules ? rules : "");
    setenv("COLIBRI_TUNING", "none", 1);
    colibri_config_reload();
    double in[64] = {0}, out[64];
    colibri_allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, comm, "auto");
    snprintf(name, sizeof name, "%s", colibri_last_algorithm(comm, COLIBRI_ALLREDUCE));
    if (rules)
        setenv("COLIBRI_TUNING", saved, 1);
    else
        unsetenv("COLIBRI_TUNING");
    colibri_config_reload();
    return name;
}

static void expect(MPI_Comm comm, colibri_coll coll, const char *want, const char *what)
{
    const char *got = colibri_last_algorithm(comm, coll);
    check(got && strcmp(got, want) == 0, "rank %d, %s: ran %s, want %s", rank, what,
          got ? got : "(none)", want);
}

/* n doubles summed over comm, checked; then what ran */
static void allreduce(MPI_Comm comm, int n, const char *want, const char *what)
{
    int p;
    MPI_Comm_size(comm, &p);
    double in[64], out[64];
    for (int i = 0; i < n; i++)
        in[i] = i + 1;
    MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, comm);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != (double)p * (i + 1);
    check(!bad, "rank %d, %s: %d wrong sums", rank, what, bad);
    expect(comm, COLIBRI_ALLREDUCE, want, what);
}

int main(int argc, char **argv)
{
    h_init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(path, sizeof path, "/tmp/colibri-native-rules-%d.tuning", (int)getppid());

    /* native up to 64 bytes at any p; the model above */
    use_rules("allreduce 0 64 1 1000 native\nreduce 0 64 1 1000 native\n"
              "alltoall 0 64 1 1000 native\n");
    for (int i = 0; i < 4; i++) /* the first call decides, the others repeat it */
        allreduce(MPI_COMM_WORLD, 8, "native", "64 B under a native rule");
    allreduce(MPI_COMM_WORLD, 9, model_choice(MPI_COMM_WORLD, 9), "72 B, past the rule");
    allreduce(MPI_COMM_WORLD, 8, "native", "64 B again");
    /* another file: the same call now runs the algorithm it names */
    use_rules("allreduce 0 64 1 1000 recursive_doubling\n");
    allreduce(MPI_COMM_WORLD, 8, "recursive_doubling", "after a reload with another rule");
    allreduce(MPI_COMM_WORLD, 8, "recursive_doubling", "after a reload, repeated");
    use_rules("allreduce 0 64 1 1000 native\nreduce 0 64 1 1000 native\n"
              "alltoall 0 64 1 1000 native\n");

    /* reduce: the root is part of the call; all roots native */
    for (int root = 0; root < size; root++)
        for (int i = 0; i < 2; i++) {
            double x = rank + 1, y = 0;
            MPI_Reduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
            check(rank != root || y == size * (size + 1) / 2.0, "reduce to %d: %g", root, y);
            expect(MPI_COMM_WORLD, COLIBRI_REDUCE, "native", "reduce under a native rule");
        }

    /* alltoall of bytes, repeated */
    char s[64 * 64], r[64 * 64];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < size * 8; j++)
            s[j] = (char)(rank * 8 + j % 8);
        MPI_Alltoall(s, 8, MPI_BYTE, r, 8, MPI_BYTE, MPI_COMM_WORLD);
        int bad = 0;
        for (int j = 0; j < size * 8; j++)
            bad += r[j] != (char)(j / 8 * 8 + j % 8);
        check(!bad, "rank %d: alltoall %d wrong bytes", rank, bad);
        expect(MPI_COMM_WORLD, COLIBRI_ALLTOALL, "native", "alltoall under a native rule");
    }

    /* alltoallv with blocks that differ between ranks: a file that sends
     * every size below (a rule for this communicator of 0 bytes to the
     * largest, ppn and nodes given as colibri-tune writes them) needs no
     * agreement on the sizes, so after the communicator's first call every
     * call goes below without one (rule_skipped); a file whose rules name
     * a colibri algorithm for some sizes agrees at every call */
    int *sc = malloc(4 * (size_t)size * sizeof *sc), *sd = sc + size, *rc = sd + size,
        *rd = rc + size;
    int *vs = malloc(64 * (size_t)size * sizeof *vs), *vr = malloc(64 * (size_t)size * sizeof *vr);
    char file[256];
    for (int f = 0; f < 4; f++) {
        /* f 0: every size native for any layout; 1: the same for this
         * communicator's node shape only (the layout is read); 2: native
         * only to 64 bytes, pairwise above; 3: no rule, but
         * COLIBRI_ALLTOALLV_ALGORITHM=native (named_skipped: the interposed
         * call hands the caller's arrays below) */
        int ppn = 0, nodes = 0;
        if (f == 1) {
            int n_nodes = 0, *node_of = malloc((size_t)size * sizeof *node_of);
            colibri_node_layout(MPI_COMM_WORLD, node_of, &n_nodes);
            for (int j = 0; j < size; j++)
                ppn += node_of[j] == node_of[rank];
            PMPI_Allreduce(MPI_IN_PLACE, &ppn, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            nodes = n_nodes;
            free(node_of);
        }
        snprintf(file, sizeof file,
                 f == 0   ? "alltoallv 0 9223372036854775807 1 100000 native\n"
                 : f == 1 ? "alltoallv 0 9223372036854775807 1 100000 native ppn=%d nodes=%d\n"
                          : "alltoallv 0 64 1 100000 native\n"
                            "alltoallv 65 9223372036854775807 1 100000 pairwise\n",
                 ppn, nodes);
        use_rules(f == 3 ? "" : file);
        if (f == 3) {
            setenv("COLIBRI_ALLTOALLV_ALGORITHM", "native", 1);
            colibri_config_reload();
        }
        struct colibri_setup_stats s0, s1;
        colibri_setup_stats(&s0);
        for (int i = 0; i < 5; i++) {
            /* rank r sends (r + j + i) % 5 * 3 ints to rank j */
            int off = 0;
            for (int j = 0; j < size; j++)
                sc[j] = (rank + j + i) % 5 * 3, sd[j] = off, off += sc[j];
            off = 0;
            for (int j = 0; j < size; j++)
                rc[j] = (j + rank + i) % 5 * 3, rd[j] = off, off += rc[j];
            for (int j = 0; j < size; j++)
                for (int k = 0; k < sc[j]; k++)
                    vs[sd[j] + k] = rank * 1000 + j * 10 + k;
            MPI_Alltoallv(vs, sc, sd, MPI_INT, vr, rc, rd, MPI_INT, MPI_COMM_WORLD);
            int bad = 0;
            for (int j = 0; j < size; j++)
                for (int k = 0; k < rc[j]; k++)
                    bad += vr[rd[j] + k] != j * 1000 + rank * 10 + k;
            check(!bad, "rank %d: alltoallv under rules %d, call %d: %d wrong ints", rank, f, i,
                  bad);
        }
        colibri_setup_stats(&s1);
        if (f == 3) {
            unsetenv("COLIBRI_ALLTOALLV_ALGORITHM");
            colibri_config_reload();
            check(s1.named_skipped - s0.named_skipped == 5 && s1.rule_skipped == s0.rule_skipped,
                  "rank %d: %lld of 5 alltoallv calls named native went below with the "
                  "caller's arrays (want 5)",
                  rank, s1.named_skipped - s0.named_skipped);
            expect(MPI_COMM_WORLD, COLIBRI_ALLTOALLV, "native", "alltoallv named native");
            continue;
        }
        const long long skipped = s1.rule_skipped - s0.rule_skipped;
        check(f == 2 || skipped >= 4,
              "rank %d, rules %d: %lld of 5 alltoallv calls went below without an agreement "
              "(want 4 or 5)",
              rank, f, skipped);
        if (f == 2) { /* native below 64 B, pairwise above: the rule's windows */
            MPI_Comm d;
            MPI_Comm_dup(MPI_COMM_WORLD, &d);
            int bad = 0;
            /* 40 calls of one size under the native rule: 1 and 2 agree,
             * then a window of 16 calls skips, 19 agrees, a window of 32
             * (to call 51) skips: 37 skipped */
            colibri_setup_stats(&s0);
            for (int i = 0; i < 40; i++) {
                MPI_Alltoallv(vs, sc, sd, MPI_INT, vr, rc, rd, MPI_INT, d);
                for (int j = 0; j < size; j++)
                    for (int k = 0; k < rc[j]; k++)
                        bad += vr[rd[j] + k] != j * 1000 + rank * 10 + k;
            }
            colibri_setup_stats(&s1);
            check(!bad && s1.rule_skipped - s0.rule_skipped == 37,
                  "rank %d: 40 alltoallvs under a native rule: %d wrong ints, %lld skipped "
                  "(want 37)",
                  rank, bad, s1.rule_skipped - s0.rule_skipped);
            /* blocks of 32 ints (above 64 B: pairwise): calls 41-51 are
             * in the window and go below (legal for any sizes), 52
             * agrees, runs pairwise and closes it; every later call agrees */
            int *bs = malloc(4 * (size_t)size * sizeof *bs), *bd = bs + size;
            int *ws = malloc(32 * (size_t)size * sizeof *ws), *wr = malloc(32 * (size_t)size * sizeof *wr);
            for (int j = 0; j < size; j++)
                bs[j] = 32, bd[j] = 32 * j;
            for (int j = 0; j < 32 * size; j++)
                ws[j] = rank * 100000 + j;
            colibri_setup_stats(&s0);
            for (int i = 0; i < 20; i++) {
                for (int j = 0; j < 32 * size; j++)
                    wr[j] = -1;
                MPI_Alltoallv(ws, bs, bd, MPI_INT, wr, bs, bd, MPI_INT, d);
                for (int j = 0; j < 32 * size; j++)
                    bad += wr[j] != j / 32 * 100000 + rank * 32 + j % 32;
            }
            colibri_setup_stats(&s1);
            check(!bad && s1.rule_skipped - s0.rule_skipped == 11,
                  "rank %d: then 20 alltoallvs of 128 B blocks: %d wrong ints, %lld skipped "
                  "(want 11)",
                  rank, bad, s1.rule_skipped - s0.rule_skipped);
            expect(d, COLIBRI_ALLTOALLV, "pairwise", "alltoallv of 128 B blocks, pairwise rule");
            free(bs), free(ws), free(wr);
            MPI_Comm_free(&d);
        }
        if (f < 2)
            expect(MPI_COMM_WORLD, COLIBRI_ALLTOALLV, "native", "alltoallv, every size native");
        if (f == 0) { /* the nonblocking form too (the rule is for both forms) */
            MPI_Request r;
            for (int j = 0; j < size * 15; j++)
                vr[j] = -1;
            MPI_Ialltoallv(vs, sc, sd, MPI_INT, vr, rc, rd, MPI_INT, MPI_COMM_WORLD, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            int bad = 0;
            for (int j = 0; j < size; j++)
                for (int k = 0; k < rc[j]; k++)
                    bad += vr[rd[j] + k] != j * 1000 + rank * 10 + k;
            struct colibri_setup_stats s2;
            colibri_setup_stats(&s2);
            check(!bad && s2.rule_skipped == s1.rule_skipped + 1,
                  "rank %d: ialltoallv under the all-native file: %d wrong ints, %lld skipped",
                  rank, bad, s2.rule_skipped - s1.rule_skipped);
        }
    }
    free(sc), free(vs), free(vr);

    /* gather and scatter: the root is part of the call and the memo's key
     * is the block a rank describes (the root's own side when it is in
     * place); 16 doubles (128 B) are outside the rules, never native */
    use_rules("gather 0 64 1 1000 native\nscatter 0 64 1 1000 native\n");
    double g[16 * 64], b[16];
    for (int root = 0; root < size && size <= 64; root++)
        for (int i = 0; i < 6; i++) {
            const int n = i < 4 ? 1 : 16, ip = i % 2 && rank == root;
            for (int j = 0; j < n; j++)
                b[j] = rank * 100 + j;
            for (int j = 0; j < n * size; j++)
                g[j] = ip && j / n == rank ? b[j % n] : -1;
            MPI_Gather(ip ? MPI_IN_PLACE : b, n, MPI_DOUBLE, g, n, MPI_DOUBLE, root,
                       MPI_COMM_WORLD);
            int bad = 0;
            for (int j = 0; rank == root && j < n * size; j++)
                bad += g[j] != j / n * 100 + j % n;
            check(!bad, "gather of %d to %d%s: %d wrong", n, root, ip ? " in place" : "", bad);
            const char *ran = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_GATHER);
            check(ran && (strcmp(ran, "native") == 0) == (n == 1),
                  "gather of %d doubles ran %s under a native rule for <= 64 B", n,
                  ran ? ran : "(none)");
            for (int j = 0; j < n; j++)
                b[j] = -1;
            MPI_Scatter(g, n, MPI_DOUBLE, ip ? MPI_IN_PLACE : b, n, MPI_DOUBLE, root,
                        MPI_COMM_WORLD);
            bad = 0;
            for (int j = 0; j < n && !ip; j++)
                bad += b[j] != rank * 100 + j;
            check(!bad, "scatter of %d from %d%s: %d wrong", n, root, ip ? " in place" : "", bad);
            ran = colibri_last_algorithm(MPI_COMM_WORLD, COLIBRI_SCATTER);
            check(ran && (strcmp(ran, "native") == 0) == (n == 1),
                  "scatter of %d doubles ran %s under a native rule for <= 64 B", n,
                  ran ? ran : "(none)");
        }

    /* native at p = 2 only: communicators of 2 and of 1 rank, created and
     * freed in turn (a freed handle may come back for the other size) */
    use_rules("allreduce 0 64 2 2 native\n");
    for (int i = 0; i < 6; i++) {
        MPI_Comm c;
        const int two = i % 2 == 0 && size >= 2;
        MPI_Comm_split(MPI_COMM_WORLD, two ? rank / 2 : rank, rank, &c);
        int p;
        MPI_Comm_size(c, &p);
        const char *want = p == 2 ? "native" : model_choice(c, 8);
        allreduce(c, 8, want, p == 2 ? "p=2 under its native rule" : "another p, the model");
        allreduce(c, 8, want, "the same, repeated");
        MPI_Comm_free(&c);
    }
    unsetenv("COLIBRI_TUNING");
    colibri_config_reload();

    /* reduce_scatter under a native rule: an identical call (the same
     * counts) is served from the memo; other counts with the same total
     * are another key (its automatic choice reads the vector), and the
     * sums stay right through both */
    use_rules("reduce_scatter 0 1024 1 1000 native\n");
    {
        int rcounts[64], total = 0;
        double in[256], out[64];
        struct colibri_setup_stats q0, q1;
        for (int v = 0; v < 2 && size <= 64; v++) {
            total = 0;
            for (int j = 0; j < size; j++)
                total += rcounts[j] = v == 0 ? 1 + j % 2 : 1 + (j + 1) % 2;
            for (int j = 0; j < total; j++)
                in[j] = rank + 1 + j;
            colibri_setup_stats(&q0);
            for (int i = 0; i < 4; i++) {
                MPI_Reduce_scatter(in, out, rcounts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                int off = 0, bad = 0;
                for (int j = 0; j < rank; j++)
                    off += rcounts[j];
                for (int j = 0; j < rcounts[rank]; j++)
                    bad += out[j] != size * (size + 1) / 2.0 + (double)size * (off + j);
                check(!bad, "rank %d: reduce_scatter counts %d call %d: %d wrong", rank, v, i, bad);
                expect(MPI_COMM_WORLD, COLIBRI_REDUCE_SCATTER, "native", "reduce_scatter, native rule");
            }
            colibri_setup_stats(&q1);
            check(q1.native_memos - q0.native_memos == 1,
                  "rank %d: 4 identical reduce_scatter calls (counts %d) remembered %lld times, "
                  "want 1",
                  rank, v, q1.native_memos - q0.native_memos);
        }
        /* communicators of other sizes freed and made again (an MPI may
         * give a freed handle to the next one): the memo's lookup reads
         * the counts by the size of the thread's last communicator with
         * state (online_seen_size), valid only while no communicator with
         * state has been freed; each counts array exactly p long (a stale
         * larger size would read past it: AddressSanitizer, where handles
         * come back); the sums stay right */
        for (int i = 0; i < 8; i++) {
            MPI_Comm c;
            const int wide = i % 2 == 0;
            MPI_Comm_split(MPI_COMM_WORLD, wide ? 0 : rank, rank, &c);
            int p, me;
            MPI_Comm_size(c, &p);
            MPI_Comm_rank(c, &me);
            int *rc = malloc((size_t)p * sizeof *rc), tot = 0, off = 0;
            for (int j = 0; j < p; j++)
                tot += rc[j] = 1 + (j + i) % 3;
            for (int j = 0; j < me; j++)
                off += rc[j];
            double *x = malloc((size_t)tot * sizeof *x), y[3];
            for (int j = 0; j < tot; j++)
                x[j] = me + 1 + j;
            for (int k = 0; k < 3; k++) {
                MPI_Reduce_scatter(x, y, rc, MPI_DOUBLE, MPI_SUM, c);
                int bad = 0;
                for (int j = 0; j < rc[me]; j++)
                    bad += y[j] != p * (p + 1) / 2.0 + (double)p * (off + j);
                check(!bad, "rank %d: reduce_scatter on a remade communicator of %d (round %d, "
                            "call %d): %d wrong",
                      rank, p, i, k, bad);
            }
            free(x), free(rc);
            MPI_Comm_free(&c);
        }
    }
    unsetenv("COLIBRI_TUNING");
    colibri_config_reload();

    /* gatherv and scatterv: automatic choice sends them below (their one
     * algorithm, linear, is the MPI's own and runs by name only), the
     * repeated call from the memo keyed by communicator and root; blocks
     * of 1 + rank doubles, every root */
    {
        struct colibri_setup_stats q0, q1;
        int cnt[64], dsp[64], tot = 0;
        double gb[64 * 65], mine[65];
        for (int j = 0; j < size && size <= 64; j++)
            cnt[j] = 1 + j, dsp[j] = tot, tot += cnt[j];
        for (int root = 0; root < size && size <= 64; root++) {
            colibri_setup_stats(&q0);
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j <= rank; j++)
                    mine[j] = rank * 100 + j + i;
                for (int j = 0; j < tot; j++)
                    gb[j] = -1;
                MPI_Gatherv(mine, rank + 1, MPI_DOUBLE, gb, cnt, dsp, MPI_DOUBLE, root,
                            MPI_COMM_WORLD);
                int bad = 0;
                for (int r = 0; rank == root && r < size; r++)
                    for (int j = 0; j < cnt[r]; j++)
                        bad += gb[dsp[r] + j] != r * 100 + j + i;
                check(!bad, "rank %d: gatherv to %d call %d: %d wrong", rank, root, i, bad);
                expect(MPI_COMM_WORLD, COLIBRI_GATHERV, "native", "automatic gatherv");
                for (int j = 0; j <= rank; j++)
                    mine[j] = -1;
                MPI_Scatterv(gb, cnt, dsp, MPI_DOUBLE, mine, rank + 1, MPI_DOUBLE, root,
                             MPI_COMM_WORLD);
                bad = 0; /* the root's gb holds the gathered blocks: each its own back */
                for (int j = 0; j <= rank; j++)
                    bad += mine[j] != rank * 100 + j + i;
                check(!bad, "rank %d: scatterv from %d call %d: %d wrong", rank, root, i, bad);
                expect(MPI_COMM_WORLD, COLIBRI_SCATTERV, "native", "automatic scatterv");
            }
            /* nonblocking: straight below at the entry point */
            MPI_Request q;
            for (int j = 0; j <= rank; j++)
                mine[j] = rank * 100 + j + 7;
            for (int j = 0; j < tot; j++)
                gb[j] = -1;
            MPI_Igatherv(mine, rank + 1, MPI_DOUBLE, gb, cnt, dsp, MPI_DOUBLE, root, MPI_COMM_WORLD,
                         &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            int bad = 0;
            for (int r = 0; rank == root && r < size; r++)
                for (int j = 0; j < cnt[r]; j++)
                    bad += gb[dsp[r] + j] != r * 100 + j + 7;
            check(!bad, "rank %d: igatherv to %d: %d wrong", rank, root, bad);
            expect(MPI_COMM_WORLD, COLIBRI_GATHERV, "native", "automatic igatherv");
            MPI_Iscatterv(gb, cnt, dsp, MPI_DOUBLE, mine, rank + 1, MPI_DOUBLE, root,
                          MPI_COMM_WORLD, &q);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            expect(MPI_COMM_WORLD, COLIBRI_SCATTERV, "native", "automatic iscatterv");
            colibri_setup_stats(&q1);
            check(q1.native_memos - q0.native_memos == 2,
                  "rank %d: 4 gatherv and 4 scatterv to root %d remembered %lld times, want 2",
                  rank, root, q1.native_memos - q0.native_memos);
        }
    }

    /* Two remembered calls alternating on one communicator, as a benchmark
     * puts a barrier between its calls: each keeps its memo (the memo's
     * set once came from the key's low bits, where every blocking
     * collective's tag had the same parity and took the same slot:
     * zero-byte alltoall and allreduce in turn missed at every call). */
    struct colibri_setup_stats m0, m1;
    char zs[8], zr[8];
    double zx[1], zy[1];
    MPI_Alltoall(zs, 0, MPI_BYTE, zr, 0, MPI_BYTE, MPI_COMM_WORLD); /* remembered */
    MPI_Allreduce(zx, zy, 0, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    colibri_setup_stats(&m0);
    for (int i = 0; i < 20; i++) {
        MPI_Alltoall(zs, 0, MPI_BYTE, zr, 0, MPI_BYTE, MPI_COMM_WORLD);
        expect(MPI_COMM_WORLD, COLIBRI_ALLTOALL, "none", "zero-byte alltoall");
        MPI_Allreduce(zx, zy, 0, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        expect(MPI_COMM_WORLD, COLIBRI_ALLREDUCE, "none", "zero-count allreduce");
    }
    colibri_setup_stats(&m1);
    check(m1.native_memos == m0.native_memos,
          "rank %d: zero-count alltoall and allreduce in turn, 40 calls: %lld remembered again "
          "(want 0: each served from its memo)",
          rank, m1.native_memos - m0.native_memos);

    /* Nonblocking calls with nothing to move: a request already complete
     * (counted "none") that every completion call and MPI_Request_free
     * accept on every MPI (Debian's MPICH 4.0 refuses MPI_Request_free on
     * its own collective requests), after the checks MPI requires; an
     * identical call gets its request at the entry point (the memo). */
    MPI_Request nq[6];
    struct colibri_setup_stats z1, z2;
    int nrc = MPI_SUCCESS;
    for (int round = 0; round < 3; round++) {
        MPI_Iallreduce(zx, zy, 0, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &nq[0]);
        expect(MPI_COMM_WORLD, COLIBRI_ALLREDUCE, "none", "zero-count iallreduce");
        MPI_Ireduce(zx, zy, 0, MPI_DOUBLE, MPI_SUM, size - 1, MPI_COMM_WORLD, &nq[1]);
        expect(MPI_COMM_WORLD, COLIBRI_REDUCE, "none", "zero-count ireduce");
        MPI_Ialltoall(zs, 0, MPI_BYTE, zr, 0, MPI_BYTE, MPI_COMM_WORLD, &nq[2]);
        expect(MPI_COMM_WORLD, COLIBRI_ALLTOALL, "none", "zero-byte ialltoall");
        MPI_Iallgather(zs, 0, MPI_BYTE, zr, 0, MPI_BYTE, MPI_COMM_WORLD, &nq[3]);
        expect(MPI_COMM_WORLD, COLIBRI_ALLGATHER, "none", "zero-byte iallgather");
        MPI_Ibcast(zs, 0, MPI_BYTE, 0, MPI_COMM_WORLD, &nq[4]);
        expect(MPI_COMM_WORLD, COLIBRI_BCAST, "none", "zero-byte ibcast");
        MPI_Igather(rank ? zs : MPI_IN_PLACE, 0, MPI_BYTE, zr, 0, MPI_BYTE, 0, MPI_COMM_WORLD,
                    &nq[5]);
        expect(MPI_COMM_WORLD, COLIBRI_GATHER, "none", "zero-byte igather");
        nrc = MPI_Waitall(6, nq, MPI_STATUSES_IGNORE);
        int nleft = 0;
        for (int i = 0; i < 6; i++)
            nleft += nq[i] != MPI_REQUEST_NULL;
        check(nrc == MPI_SUCCESS && !nleft,
              "rank %d, round %d: zero-byte nonblocking calls: Waitall %d, %d left", rank, round,
              nrc, nleft);
    }
    /* one repeated alone: served from its memo (five alternating may
     * share a set of the memo table, whose 2 ways hold two) */
    for (int i = 0; i < 4; i++) {
        if (i == 1)
            colibri_setup_stats(&z1);
        MPI_Ibcast(zs, 0, MPI_BYTE, 0, MPI_COMM_WORLD, &nq[0]);
        MPI_Wait(&nq[0], MPI_STATUS_IGNORE);
        expect(MPI_COMM_WORLD, COLIBRI_BCAST, "none", "zero-byte ibcast repeated");
    }
    colibri_setup_stats(&z2);
    check(z2.native_memos == z1.native_memos,
          "rank %d: a zero-byte ibcast repeated: %lld remembered again (want 0)", rank,
          z2.native_memos - z1.native_memos);
    MPI_Request fq;
    MPI_Iscatter(zs, 0, MPI_BYTE, zr, 0, MPI_BYTE, 0, MPI_COMM_WORLD, &fq);
    expect(MPI_COMM_WORLD, COLIBRI_SCATTER, "none", "zero-byte iscatter");
    nrc = MPI_Request_free(&fq);
    MPI_Ireduce_scatter_block(zx, zy, 0, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &nq[0]);
    int flag = 0;
    MPI_Test(&nq[0], &flag, MPI_STATUS_IGNORE);
    check(nrc == MPI_SUCCESS && fq == MPI_REQUEST_NULL && flag,
          "rank %d: a zero-byte iscatter's request freed at once (%d), a zero-count "
          "ireduce_scatter_block's complete at its first test (%d)",
          rank, nrc, flag);
    /* still checked: a zero-count call with no operation is the MPI's error */
    MPI_Comm ec;
    MPI_Comm_dup(MPI_COMM_WORLD, &ec);
    MPI_Comm_set_errhandler(ec, MPI_ERRORS_RETURN);
    nq[0] = MPI_REQUEST_NULL;
    nrc = MPI_Iallreduce(zx, zy, 0, MPI_DOUBLE, MPI_OP_NULL, ec, &nq[0]);
    check(nrc != MPI_SUCCESS, "rank %d: zero-count iallreduce with MPI_OP_NULL returned success",
          rank);
    if (nrc == MPI_SUCCESS)
        MPI_Wait(&nq[0], MPI_STATUS_IGNORE);
    MPI_Comm_free(&ec);
    if (rank == 0)
        unlink(path);
    return h_finish();
}
