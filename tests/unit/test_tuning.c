/*
 * The tuning file (src/config/tuning.c) and its use by selection
 * (src/select/select.c), no communication: write and read back, bad lines
 * (one message naming file and line, the rest kept), a file from another
 * MPI, rule matching at the edges of sizes, p, ranks per node and nodes,
 * precedence over the model, native rules, radix and segment, and a fuzzed
 * parser (deterministic seed).
 *
 * Run as a singleton or `mpirun -n 1`.
 */
#include <mpi.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/tuning.h"
#include "patterns/nodes.h"
#include "select/select.h"

#include "../lib/check.h"
#define CHECK(cond, ...) \
    do { if (check_count(cond)) check_at(__FILE__, __LINE__, __VA_ARGS__); } while (0)
#include "../lib/xorshift.h"

static bool known(colibri_coll coll, const char *alg, char *why, size_t len)
{
    if (catalog_find(coll, alg))
        return true;
    snprintf(why, len, "unknown algorithm '%s'", alg);
    return false;
}

/* Parses `text` as file "f"; the diagnostics into diag (caller frees). */
static void parse(const char *text, struct tuning_file *t, char **diag)
{
    size_t len;
    FILE *d = open_memstream(diag, &len);
    tuning_parse(text, "f", known, d, t);
    fclose(d);
}

static struct tuning_file t, u;

static void test_round_trip(void)
{
    memset(&t, 0, sizeof t);
    strcpy(t.mpi, "Open MPI v4.1.4, package: Debian OpenMPI");
    t.shape_p = 4, t.shape_ppn = 2, t.shape_nodes = 2;
    t.model = (struct tuning_model){true, 4.2e-7, 1.6e-10, 2.5e-6, 8e-11, 9e-8, 2e-11, 1.3e-11, 4096};
    const struct tuning_rule rules[] = {
        {.coll = COLIBRI_ALLREDUCE, .lo_bytes = 0, .hi_bytes = 1023, .lo_p = 4, .hi_p = 4,
         .lo_ppn = 2, .hi_ppn = 2, .lo_nodes = 2, .hi_nodes = 2, .alg = "recursive_doubling",
         .us = 1.25, .native_us = 2.5},
        {.coll = COLIBRI_ALLREDUCE, .lo_bytes = 1024, .hi_bytes = LLONG_MAX, .lo_p = 4,
         .hi_p = 4, .alg = "ring", .segment = 65536},
        {.coll = COLIBRI_ALLREDUCE, .nonblocking = true, .lo_bytes = 0, .hi_bytes = 10,
         .lo_p = 1, .hi_p = 1000, .lo_ppn = 1, .hi_ppn = 64, .alg = "native"},
        {.coll = COLIBRI_ALLTOALL, .lo_bytes = 5, .hi_bytes = 77, .lo_p = 2, .hi_p = 8,
         .alg = "bruck", .radix = 3},
    };
    t.n_rules = (int)(sizeof rules / sizeof *rules);
    memcpy(t.rules, rules, sizeof rules);
    char *text, *diag;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    tuning_write(f, &t);
    fclose(f);
    parse(text, &u, &diag);
    CHECK(strcmp(diag, "") == 0, "round trip: no diagnostics, got '%s'", diag);
    CHECK(strcmp(u.mpi, t.mpi) == 0, "mpi '%s'", u.mpi);
    CHECK(u.shape_p == 4 && u.shape_ppn == 2 && u.shape_nodes == 2, "shape");
    CHECK(u.model.set && u.model.eager == 4096 && u.model.alpha_node == 4.2e-7 &&
              u.model.beta == 8e-11 && u.model.shm_beta == 1.3e-11,
          "model");
    CHECK(u.n_rules == t.n_rules && u.n_ignored == 0, "%d rules read back", u.n_rules);
    for (int i = 0; i < u.n_rules && i < t.n_rules; i++) {
        struct tuning_rule a = t.rules[i], b = u.rules[i];
        a.line = b.line = 0;
        CHECK(memcmp(&a, &b, sizeof a) == 0, "rule %d read back as written", i);
        CHECK(u.rules[i].line == 4 + i, "rule %d on line %d", i, u.rules[i].line);
    }
    free(text);
    free(diag);
}

/* Every bad line: one message naming the file and its line, and the good
 * rules around it kept. */
static void test_bad_lines(void)
{
    const char *bad[] = {
        "allreduce 0 100 2 2",                       /* too few fields */
        "allreduce x 100 2 2 ring",                  /* not a number */
        "allreduce 100 0 2 2 ring",                  /* max below min */
        "allreduce 0 100 0 2 ring",                  /* p of 0 */
        "allreduce 0 100 4 2 ring",                  /* max p below min */
        "allreduce 0 99999999999999999999 2 2 ring", /* out of range */
        "gatherv 0 100 2 2 ring",                    /* unknown collective */
        "allreduce 0 100 2 2 bruck",                 /* unknown algorithm (alltoall's) */
        "allreduce 0 100 2 2 ring color=blue",       /* unknown key */
        "allreduce 0 100 2 2 ring ppn=0",            /* bad range */
        "allreduce 0 100 2 2 ring ppn=4-2",
        "allreduce 0 100 2 2 ring radix=1",
        "allreduce 0 100 2 2 ring us=-1",
        "allreduce 5 20 1 3 native",                 /* overlaps line 1 */
        "model alpha=fast",
        "model alpha=1e-6 delta=2",
        "shape p=two",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[512], *diag, want[32];
        snprintf(text, sizeof text,
                 "allreduce 0 10 2 2 native\n# comment\n%s\nalltoall 0 10 2 2 pairwise\n",
                 bad[i]);
        parse(text, &u, &diag);
        snprintf(want, sizeof want, "colibri: f:3: ");
        CHECK(strncmp(diag, want, strlen(want)) == 0 && strchr(diag, '\n') == diag + strlen(diag) - 1,
              "'%s': one message for line 3, got '%s'", bad[i], diag);
        CHECK(strstr(diag, "ignored") != NULL, "'%s': says the line is ignored", bad[i]);
        CHECK(u.n_rules == 2 && u.n_ignored == 1 && u.rules[0].coll == COLIBRI_ALLREDUCE &&
                  u.rules[1].coll == COLIBRI_ALLTOALL,
              "'%s': the good rules kept (%d rules, %d ignored)", bad[i], u.n_rules, u.n_ignored);
        free(diag);
    }
    /* rules that only touch, or differ in a dimension, do not overlap */
    char *diag;
    parse("allreduce 0 10 2 2 ring\nallreduce 11 20 2 2 native\nallreduce 0 10 3 3 native\n"
          "allreduce 0 10 2 2 native ppn=1\nallreduce 0 10 2 2 ring ppn=2 nodes=1\n"
          "iallreduce 0 10 2 2 native\nreduce 0 10 2 2 native\n",
          &u, &diag);
    CHECK(u.n_rules == 5 && strstr(diag, "f:4: overlaps the rule of line 1") &&
              strstr(diag, "f:5: overlaps the rule of line 1"),
          "touching rules kept, ppn rules inside an unconstrained one refused: %d, '%s'",
          u.n_rules, diag);
    free(diag);
}

/* Selection with the file `text` as COLIBRI_TUNING; stderr captured into
 * *err (caller frees) when err is not NULL. */
static char path[64];
static void use_file(const char *text, char **err)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    setenv("COLIBRI_TUNING", path, 1);
    fflush(stderr);
    int saved = dup(2);
    char errpath[] = "/tmp/colibri-tuning-err-XXXXXX";
    int fd = mkstemp(errpath);
    dup2(fd, 2);
    colibri_config_reload();
    char buf[4096];
    colibri_tuning_describe(buf, sizeof buf); /* reads the file now */
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    if (err) {
        lseek(fd, 0, SEEK_SET);
        ssize_t n = read(fd, buf, sizeof buf - 1);
        buf[n > 0 ? n : 0] = '\0';
        *err = strdup(buf);
    }
    close(fd);
    unlink(errpath);
}

static const char *pick(colibri_coll coll, int p, int64_t count, size_t elem, bool commutative,
                        bool nonblocking, const struct node_layout *layout)
{
    static int64_t counts[64]; /* reduce_scatter_block: every rank's count */
    for (int i = 0; i < p; i++)
        counts[i] = count;
    struct sched_params sp = {.size = p, .count = count, .elem_size = elem,
                              .commutative = commutative, .nonblocking = nonblocking,
                              .layout = layout, .counts = counts};
    const struct algorithm *a = select_auto(coll, &sp);
    return a ? a->name : "native";
}

#define PICK(want, ...)                                                                            \
    do {                                                                                           \
        const char *got = pick(__VA_ARGS__);                                                       \
        CHECK(strcmp(got, want) == 0, "%s: got %s, want %s", #__VA_ARGS__, got, want);             \
    } while (0)

/* A layout of `nodes` nodes of `ppn` consecutive ranks. */
static struct node_layout layout_of(int ppn, int nodes, int *mem)
{
    const int p = ppn * nodes;
    int *leader = mem + 4 * p + 2;
    for (int r = 0; r < p; r++)
        leader[r] = r / ppn * ppn;
    int n = node_layout_fill(p, leader, mem, mem + p, mem + 2 * p, mem + 3 * p + 1);
    return (struct node_layout){n, mem, mem + p, mem + 2 * p, mem + 3 * p + 1};
}

static void test_selection(void)
{
    /* the model alone, at these shapes (reduce_bcast never wins it) */
    setenv("COLIBRI_TUNING", "none", 1);
    colibri_config_reload();
    const char *model_small = pick(COLIBRI_ALLREDUCE, 4, 128, 8, true, false, NULL);
    CHECK(strcmp(model_small, "reduce_bcast") != 0, "the model avoids reduce_bcast");

    use_file("# sizes 0..1023 and 1024..4095 bytes, p 4..8\n"
             "allreduce 0 1023 4 8 reduce_bcast\n"
             "allreduce 1024 4095 4 8 native\n"
             "iallreduce 0 1023 4 8 ring\n"
             "reduce_scatter_block 0 65535 4 4 ring\n",
             NULL);
    PICK("reduce_bcast", COLIBRI_ALLREDUCE, 4, 1, 8, true, false, NULL);
    PICK("reduce_bcast", COLIBRI_ALLREDUCE, 4, 127, 8, true, false, NULL);  /* 1016 B */
    PICK("reduce_bcast", COLIBRI_ALLREDUCE, 4, 1023, 1, true, false, NULL); /* edge */
    PICK("native", COLIBRI_ALLREDUCE, 4, 1024, 1, true, false, NULL);       /* next edge */
    PICK("native", COLIBRI_ALLREDUCE, 8, 4095, 1, true, false, NULL);
    PICK("native", COLIBRI_ALLREDUCE, 4, 128, 8, true, false, NULL);
    CHECK(strcmp(pick(COLIBRI_ALLREDUCE, 4, 4096, 1, true, false, NULL), "native") != 0,
          "past the last rule: the model");
    CHECK(strcmp(pick(COLIBRI_ALLREDUCE, 3, 8, 8, true, false, NULL), "reduce_bcast") != 0 &&
              strcmp(pick(COLIBRI_ALLREDUCE, 9, 8, 8, true, false, NULL), "reduce_bcast") != 0,
          "p outside the rules: the model");
    /* nonblocking: its own rule first, then the rule for both forms */
    PICK("ring", COLIBRI_ALLREDUCE, 4, 8, 8, true, true, NULL);
    PICK("native", COLIBRI_ALLREDUCE, 4, 2048, 1, true, true, NULL);
    /* a rule whose restriction the call breaks: the model */
    CHECK(strcmp(pick(COLIBRI_ALLREDUCE, 4, 8, 8, false, true, NULL), "ring") != 0,
          "ring is not chosen for a non-commutative operation");
    /* reduce_scatter_block counts the whole vector: 4 ranks x 2047 x 8 B
     * = 65504 B, inside; x 2048 = 65536 B, past 65535 */
    PICK("ring", COLIBRI_REDUCE_SCATTER_BLOCK, 4, 2047, 8, true, false, NULL);
    CHECK(strcmp(pick(COLIBRI_REDUCE_SCATTER_BLOCK, 4, 2048, 8, true, false, NULL), "ring") != 0,
          "reduce_scatter_block past its range");

    /* ranks per node and nodes: the layout must be known and inside */
    int mem[64];
    struct node_layout two_by_two = layout_of(2, 2, mem);
    int mem2[64];
    struct node_layout one_by_four = layout_of(4, 1, mem2);
    use_file("alltoall 0 100 4 4 pairwise ppn=2 nodes=2\n"
             "alltoall 0 100 4 4 native ppn=4 nodes=1\n",
             NULL);
    CHECK(select_wants_layout(COLIBRI_ALLTOALL) && !select_wants_layout(COLIBRI_ALLREDUCE),
          "rules for a node shape ask for the layout");
    PICK("pairwise", COLIBRI_ALLTOALL, 4, 100, 1, true, false, &two_by_two);
    PICK("native", COLIBRI_ALLTOALL, 4, 100, 1, true, false, &one_by_four);
    /* layout unknown: neither rule applies, the model decides (as with no file) */
    setenv("COLIBRI_TUNING", "none", 1);
    colibri_config_reload();
    const char *model_a2a = pick(COLIBRI_ALLTOALL, 4, 100, 1, true, false, NULL);
    use_file("alltoall 0 100 4 4 pairwise ppn=2 nodes=2\n"
             "alltoall 0 100 4 4 native ppn=4 nodes=1\n",
             NULL);
    PICK(model_a2a, COLIBRI_ALLTOALL, 4, 100, 1, true, false, NULL);

    /* radix and segment from the rule, the caller's first */
    use_file("alltoall 0 100 4 4 bruck radix=3\nallreduce 0 1000000 4 4 ring segment=4096\n",
             NULL);
    struct sched_params sp = {.size = 4, .count = 64, .elem_size = 1, .commutative = true};
    const struct algorithm *a = NULL;
    char msg[256];
    select_algorithm(COLIBRI_ALLTOALL, &sp, NULL, &a, msg, sizeof msg);
    CHECK(a && strcmp(a->name, "bruck") == 0 && sp.radix == 3, "bruck radix 3, got %d", sp.radix);
    sp = (struct sched_params){.size = 4, .count = 64, .elem_size = 1, .radix = 2};
    select_algorithm(COLIBRI_ALLTOALL, &sp, NULL, &a, msg, sizeof msg);
    CHECK(sp.radix == 2, "COLIBRI_RADIX over the rule's radix");
    sp = (struct sched_params){.size = 4, .count = 1000, .elem_size = 8, .commutative = true};
    select_algorithm(COLIBRI_ALLREDUCE, &sp, NULL, &a, msg, sizeof msg);
    CHECK(a && strcmp(a->name, "ring") == 0 && sp.segment == 512, "ring segment 4096 B = 512 doubles, got %lld",
          (long long)sp.segment);

    /* a file from another MPI: one message naming it, nothing used */
    char *err;
    use_file("mpi Some Other MPI 9.9\nallreduce 0 1023 4 8 reduce_bcast\n"
             "model alpha_node=1 beta_node=1\n",
             &err);
    CHECK(strstr(err, ":1: measured with 'Some Other MPI 9.9', not with this MPI") && 
              strchr(err, '\n') == err + strlen(err) - 1,
          "one message about the other MPI, got '%s'", err);
    PICK(model_small, COLIBRI_ALLREDUCE, 4, 128, 8, true, false, NULL);
    free(err);
    /* this MPI's own version: used */
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], id[256], text[512];
    int len;
    MPI_Get_library_version(lib, &len);
    tuning_mpi_id(lib, id, sizeof id);
    snprintf(text, sizeof text, "mpi %s\nallreduce 0 1023 4 8 reduce_bcast\n", id);
    use_file(text, &err);
    CHECK(strcmp(err, "") == 0, "no message for this MPI's file, got '%s'", err);
    PICK("reduce_bcast", COLIBRI_ALLREDUCE, 4, 8, 8, true, false, NULL);
    free(err);

    /* bad lines through the library: messages on stderr, the rest used */
    use_file("allreduce 0 1023 4 8 reduce_bcast\nallreduce 0 10 4 4 nope\nbogus\n", &err);
    CHECK(strstr(err, ":2: unknown allreduce algorithm 'nope'") && strstr(err, ":3: unknown collective"),
          "messages name the lines, got '%s'", err);
    PICK("reduce_bcast", COLIBRI_ALLREDUCE, 4, 8, 8, true, false, NULL);
    free(err);

    /* a missing file: said, and the model used */
    setenv("COLIBRI_TUNING", "/nonexistent/tuning", 1);
    colibri_config_reload();
    PICK(model_small, COLIBRI_ALLREDUCE, 4, 128, 8, true, false, NULL);
    setenv("COLIBRI_TUNING", "none", 1);
    colibri_config_reload();
}

/* The calibrated model from the file is what the cost model uses. */
static void test_model(void)
{
    use_file("model alpha_node=3e-6 beta_node=2e-10 alpha=0 beta=0 o=1e-7 gamma=4e-11 "
             "shm_beta=1e-11 eager=4096\n",
             NULL);
    char buf[2048];
    colibri_tuning_describe(buf, sizeof buf);
    CHECK(strstr(buf, "alpha=3e-06 s beta=2e-10 s/B gamma=4e-11 s/B o=1e-07 s") &&
              strstr(buf, "calibrated, from the tuning file") && strstr(buf, "eager limit 4096 B"),
          "describe shows the calibrated model: %s", buf);
    setenv("COLIBRI_COST_MODEL", "1e-6,8e-11,5e-11", 1);
    use_file("model alpha_node=3e-6 beta_node=2e-10\n", NULL);
    colibri_tuning_describe(buf, sizeof buf);
    CHECK(strstr(buf, "alpha=1e-06") && strstr(buf, "(COLIBRI_COST_MODEL)"),
          "COLIBRI_COST_MODEL wins over the file: %s", buf);
    unsetenv("COLIBRI_COST_MODEL");
    setenv("COLIBRI_TUNING", "none", 1);
    colibri_config_reload();
}

/* Random edits of a valid file: the parser never crashes, and what it
 * keeps is consistent (ranges ordered, rules disjoint, names known). */
static void test_fuzz(void)
{
    static const char base[] =
        "mpi Open MPI v4.1.4\nshape p=4 ppn=2 nodes=2\n"
        "model alpha_node=4e-7 beta_node=1.6e-10 alpha=2e-6 beta=8e-11 o=9e-8 gamma=2e-11 "
        "shm_beta=1e-11 eager=4096\n"
        "allreduce 0 1448 4 4 native ppn=2 nodes=2\n"
        "allreduce 1449 92681 4 4 recursive_doubling ppn=2 nodes=2 us=1.2 native_us=1.4\n"
        "allreduce 92682 9223372036854775807 4 4 ring ppn=2 nodes=2 segment=524288\n"
        "ialltoall 0 11 4 4 bruck radix=2\nreduce_scatter 0 100 1 64 pairwise\n";
    static const char *const pieces[] = {" ", "\n", "#", "=", "-", "0", "9", "ppn=", "radix=",
                                         "native", "allreduce", "i", "99999999999999999999",
                                         "\t", "e", ".", "nodes=1-", "\r", "\0"};
    rng = 2026;
    char text[4096];
    size_t diag_len;
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = sizeof base - 1;
        memcpy(text, base, n);
        const int edits = 1 + (int)(next() % 8);
        for (int e = 0; e < edits; e++) {
            const size_t at = n ? next() % n : 0;
            switch (next() % 4) {
            case 0: /* flip a byte */
                text[at] = (char)(next() & 0xff);
                break;
            case 1: { /* insert a piece */
                const char *s = pieces[next() % (sizeof pieces / sizeof *pieces)];
                size_t k = *s ? strlen(s) : 1;
                if (n + k < sizeof text - 1) {
                    memmove(text + at + k, text + at, n - at);
                    memcpy(text + at, s, k);
                    n += k;
                }
                break;
            }
            case 2: /* delete a stretch */
            {
                size_t k = next() % 16;
                k = at + k > n ? n - at : k;
                memmove(text + at, text + at + k, n - at - k);
                n -= k;
                break;
            }
            default: /* duplicate a line, overlapping itself */
                if (n * 2 < sizeof text - 1) {
                    memcpy(text + n, text, n);
                    n *= 2;
                }
            }
        }
        text[n] = '\0';
        char *diag;
        FILE *d = open_memstream(&diag, &diag_len);
        tuning_parse(text, "fuzz", known, d, &u);
        fclose(d);
        for (int i = 0; i < u.n_rules; i++) {
            const struct tuning_rule *r = &u.rules[i];
            if (!(r->lo_bytes <= r->hi_bytes && r->lo_p >= 1 && r->lo_p <= r->hi_p &&
                  r->lo_ppn <= r->hi_ppn && r->lo_nodes <= r->hi_nodes &&
                  (strcmp(r->alg, "native") == 0 || catalog_find(r->coll, r->alg)))) {
                CHECK(0, "fuzz %d: rule %d inconsistent", iter, i);
                break;
            }
            for (int j = 0; j < i; j++)
                if (r->coll == u.rules[j].coll && r->nonblocking == u.rules[j].nonblocking &&
                    r->lo_bytes <= u.rules[j].hi_bytes && u.rules[j].lo_bytes <= r->hi_bytes &&
                    r->lo_p <= u.rules[j].hi_p && u.rules[j].lo_p <= r->hi_p &&
                    (!r->lo_ppn || !u.rules[j].lo_ppn ||
                     (r->lo_ppn <= u.rules[j].hi_ppn && u.rules[j].lo_ppn <= r->hi_ppn)) &&
                    (!r->lo_nodes || !u.rules[j].lo_nodes ||
                     (r->lo_nodes <= u.rules[j].hi_nodes && u.rules[j].lo_nodes <= r->hi_nodes))) {
                    CHECK(0, "fuzz %d: rules %d and %d overlap", iter, j, i);
                    i = u.n_rules;
                    break;
                }
        }
        /* every ignored line got a message naming it */
        int messages = 0;
        for (const char *s = diag; (s = strstr(s, "colibri: fuzz:")); s++)
            messages++;
        if (messages != u.n_ignored)
            CHECK(0, "fuzz %d: %d messages for %d ignored lines", iter, messages, u.n_ignored);
        free(diag);
    }
    CHECK(1, "20000 fuzzed files parsed");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    snprintf(path, sizeof path, "/tmp/colibri-tuning-test-%d", (int)getpid());
    unsetenv("COLIBRI_COST_MODEL");
    unsetenv("COLIBRI_RADIX");
    unsetenv("COLIBRI_SEGMENT_BYTES");
    test_round_trip();
    test_bad_lines();
    test_selection();
    test_model();
    test_fuzz();
    unlink(path);
    MPI_Finalize();
    return check_summary();
}
