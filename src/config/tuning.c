/* The tuning file's format: parser and writer (see tuning.h). */
#include "tuning.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const coll_names[COLIBRI_NCOLL] = {
    "allreduce", "reduce", "reduce_scatter", "reduce_scatter_block", "alltoall", "alltoallv",
    "allgather", "bcast", "barrier", "allgatherv",
    "gather", "gatherv", "scatter", "scatterv",
    [COLIBRI_SCAN] = "scan", [COLIBRI_EXSCAN] = "exscan"};

const char *colibri_coll_name(colibri_coll coll)
{
    return (unsigned)coll < COLIBRI_NCOLL ? coll_names[coll] : NULL;
}

const char *tuning_coll_name(colibri_coll coll, bool nonblocking, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", nonblocking ? "i" : "", colibri_coll_name(coll));
    return buf;
}

void tuning_mpi_id(const char *version, char *out, size_t len)
{
    size_t n = 0;
    bool space = false;
    for (const char *s = version; *s && *s != '\n' && n + 1 < len; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\r') {
            space = n > 0;
            continue;
        }
        if (space && n + 2 < len)
            out[n++] = ' ';
        space = false;
        out[n++] = *s;
    }
    out[n] = '\0';
}

static bool coll_of(const char *s, colibri_coll *coll, bool *nonblocking)
{
    *nonblocking = false;
    for (int pass = 0; pass < 2; pass++) {
        for (int c = 0; c < COLIBRI_NCOLL; c++)
            if (strcmp(s, coll_names[c]) == 0) {
                *coll = (colibri_coll)c;
                return true;
            }
        if (s[0] != 'i')
            return false;
        s++;
        *nonblocking = true;
    }
    return false;
}

/* One diagnostic: "colibri: <path>:<line>: <what>". */
static void complain(FILE *diag, const char *path, int line, const char *fmt, ...)
{
    if (!diag)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(diag, "colibri: %s:%d: ", path, line);
    vfprintf(diag, fmt, ap);
    fputc('\n', diag);
    va_end(ap);
}

/* Whole-token numbers: "12x", "", "1e999" and values out of range are not. */
static bool parse_ll(const char *s, long long lo, long long hi, long long *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end || errno || x < lo || x > hi)
        return false;
    *v = x;
    return true;
}

static bool parse_int(const char *s, int lo, int hi, int *v)
{
    long long x;
    if (!parse_ll(s, lo, hi, &x))
        return false;
    *v = (int)x;
    return true;
}

static bool parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(x) || x < 0)
        return false;
    *v = x;
    return true;
}

/* "a" or "a-b", 1 <= a <= b. */
static bool parse_range(const char *s, int *lo, int *hi)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    char *dash = strchr(buf, '-');
    if (dash)
        *dash = '\0';
    return parse_int(buf, 1, INT_MAX, lo) && (dash ? parse_int(dash + 1, *lo, INT_MAX, hi)
                                                   : (*hi = *lo, true));
}

#define MAX_TOKENS 24

/* Splits a line into whitespace-separated tokens, in place; -1: too many. */
static int tokens(char *line, char **tok)
{
    int n = 0;
    for (char *s = strtok(line, " \t\r\n"); s; s = strtok(NULL, " \t\r\n")) {
        if (n == MAX_TOKENS)
            return -1;
        tok[n++] = s;
    }
    return n;
}

/* key=value tokens of a directive or rule: `val` points into `tok`. */
static bool split_kv(char *tok, char **key, char **val)
{
    char *eq = strchr(tok, '=');
    if (!eq || eq == tok)
        return false;
    *eq = '\0';
    *key = tok;
    *val = eq + 1;
    return true;
}

static bool parse_model(char **tok, int n, struct tuning_model *m, const char **bad)
{
    struct tuning_model x = {.set = true};
    for (int i = 1; i < n; i++) {
        char *k, *v;
        *bad = tok[i];
        if (!split_kv(tok[i], &k, &v))
            return false;
        double *d = strcmp(k, "alpha_node") == 0  ? &x.alpha_node
                    : strcmp(k, "beta_node") == 0 ? &x.beta_node
                    : strcmp(k, "alpha") == 0     ? &x.alpha
                    : strcmp(k, "beta") == 0      ? &x.beta
                    : strcmp(k, "o") == 0         ? &x.o
                    : strcmp(k, "gamma") == 0     ? &x.gamma
                    : strcmp(k, "shm_beta") == 0  ? &x.shm_beta
                                                  : NULL;
        if (d ? !parse_double(v, d)
              : strcmp(k, "eager") != 0 || !parse_ll(v, 0, LLONG_MAX, &x.eager))
            return false;
    }
    *m = x;
    return true;
}

static bool parse_shape(char **tok, int n, struct tuning_file *t, const char **bad)
{
    int p = 0, ppn = 0, nodes = 0;
    for (int i = 1; i < n; i++) {
        char *k, *v;
        *bad = tok[i];
        int *dst = !split_kv(tok[i], &k, &v) ? NULL
                   : strcmp(k, "p") == 0     ? &p
                   : strcmp(k, "ppn") == 0   ? &ppn
                   : strcmp(k, "nodes") == 0 ? &nodes
                                             : NULL;
        if (!dst || !parse_int(v, 1, INT_MAX, dst))
            return false;
    }
    t->shape_p = p, t->shape_ppn = ppn, t->shape_nodes = nodes;
    return true;
}

/* A rule line; on false *bad names the offending token. */
static bool parse_rule(char **tok, int n, struct tuning_rule *r, const char **bad)
{
    *bad = tok[0];
    if (n < 6)
        return false;
    if (!parse_ll(tok[1], 0, LLONG_MAX, &r->lo_bytes) && (*bad = tok[1]))
        return false;
    if (!parse_ll(tok[2], r->lo_bytes, LLONG_MAX, &r->hi_bytes) && (*bad = tok[2]))
        return false;
    if (!parse_int(tok[3], 1, INT_MAX, &r->lo_p) && (*bad = tok[3]))
        return false;
    if (!parse_int(tok[4], r->lo_p, INT_MAX, &r->hi_p) && (*bad = tok[4]))
        return false;
    *bad = tok[5];
    if (strlen(tok[5]) >= sizeof r->alg)
        return false;
    strcpy(r->alg, tok[5]);
    for (int i = 6; i < n; i++) {
        char *k, *v;
        long long ll;
        *bad = tok[i];
        if (!split_kv(tok[i], &k, &v))
            return false;
        bool ok = strcmp(k, "ppn") == 0     ? parse_range(v, &r->lo_ppn, &r->hi_ppn)
                  : strcmp(k, "nodes") == 0 ? parse_range(v, &r->lo_nodes, &r->hi_nodes)
                  : strcmp(k, "radix") == 0 ? parse_int(v, 2, INT_MAX, &r->radix)
                  : strcmp(k, "segment") == 0
                      ? parse_ll(v, 1, LLONG_MAX, &ll) && (r->segment = ll, true)
                  : strcmp(k, "us") == 0        ? parse_double(v, &r->us)
                  : strcmp(k, "native_us") == 0 ? parse_double(v, &r->native_us)
                                                : false;
        if (!ok)
            return false;
    }
    return true;
}

static bool ranges_meet(long long a, long long b, long long c, long long d)
{
    return a <= d && c <= b;
}

/* Whether two rules could both match one call (an absent ppn or node range
 * matches everything). */
static bool overlap(const struct tuning_rule *a, const struct tuning_rule *b)
{
    return a->coll == b->coll && a->nonblocking == b->nonblocking &&
           ranges_meet(a->lo_bytes, a->hi_bytes, b->lo_bytes, b->hi_bytes) &&
           ranges_meet(a->lo_p, a->hi_p, b->lo_p, b->hi_p) &&
           (!a->lo_ppn || !b->lo_ppn || ranges_meet(a->lo_ppn, a->hi_ppn, b->lo_ppn, b->hi_ppn)) &&
           (!a->lo_nodes || !b->lo_nodes ||
            ranges_meet(a->lo_nodes, a->hi_nodes, b->lo_nodes, b->hi_nodes));
}

static void parse_line(char *line, int no, const char *path, tuning_known_fn known, FILE *diag,
                       struct tuning_file *t)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", line);
    char *tok[MAX_TOKENS];
    const int n = tokens(line, tok);
    if (n == 0)
        return;
    t->n_ignored++; /* until it proves good */
    if (n < 0) {
        complain(diag, path, no, "too many fields; line ignored");
        return;
    }
    const char *bad = tok[0];
    if (strcmp(tok[0], "mpi") == 0) {
        /* the rest of the line, spaces normalised as tuning_mpi_id does */
        const char *s = copy + strspn(copy, " \t") + 3;
        tuning_mpi_id(s, t->mpi, sizeof t->mpi);
        t->mpi_line = no;
    } else if (strcmp(tok[0], "model") == 0) {
        if (!parse_model(tok, n, &t->model, &bad)) {
            complain(diag, path, no, "bad model parameter '%s'; line ignored", bad);
            return;
        }
    } else if (strcmp(tok[0], "shape") == 0) {
        if (!parse_shape(tok, n, t, &bad)) {
            complain(diag, path, no, "bad shape field '%s'; line ignored", bad);
            return;
        }
    } else {
        struct tuning_rule r = {.line = no};
        if (!coll_of(tok[0], &r.coll, &r.nonblocking)) {
            complain(diag, path, no, "unknown collective '%s'; rule ignored", tok[0]);
            return;
        }
        if (!parse_rule(tok, n, &r, &bad)) {
            if (n < 6)
                complain(diag, path, no,
                         "a rule is '<collective> <min_bytes> <max_bytes> <min_p> <max_p> "
                         "<algorithm>' [key=value...]; rule ignored");
            else
                complain(diag, path, no, "bad field '%s'; rule ignored", bad);
            return;
        }
        char why[640] = "";
        if (strcmp(r.alg, "native") != 0 && known && !known(r.coll, r.alg, why, sizeof why)) {
            complain(diag, path, no, "%s; rule ignored", why);
            return;
        }
        for (int i = 0; i < t->n_rules; i++)
            if (overlap(&t->rules[i], &r)) {
                complain(diag, path, no, "overlaps the rule of line %d; rule ignored",
                         t->rules[i].line);
                return;
            }
        if (t->n_rules == TUNING_MAX_RULES) {
            complain(diag, path, no, "more than %d rules; rule ignored", TUNING_MAX_RULES);
            return;
        }
        t->rules[t->n_rules++] = r;
    }
    t->n_ignored--;
}

void tuning_parse(const char *text, const char *path, tuning_known_fn known, FILE *diag,
                  struct tuning_file *t)
{
    memset(t, 0, sizeof *t);
    char line[1024];
    int no = 0;
    for (const char *s = text; *s;) {
        size_t len = strcspn(s, "\n");
        no++;
        if (len >= sizeof line) {
            complain(diag, path, no, "line longer than %zu characters; ignored", sizeof line - 1);
            t->n_ignored++;
        } else {
            memcpy(line, s, len);
            line[len] = '\0';
            if (memchr(s, '\0', len) == NULL)
                parse_line(line, no, path, known, diag, t);
        }
        s += len;
        if (*s == '\n')
            s++;
    }
}

bool tuning_load(const char *path, tuning_known_fn known, FILE *diag, struct tuning_file *t)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        memset(t, 0, sizeof *t);
        if (diag)
            fprintf(diag, "colibri: cannot read tuning file '%s': %s\n", path, strerror(errno));
        return false;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap + 1);
    for (size_t got; text && (got = fread(text + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(text, 2 * cap + 1);
            if (!bigger) {
                free(text);
                text = NULL;
            }
            text = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (!text) {
        memset(t, 0, sizeof *t);
        if (diag)
            fprintf(diag, "colibri: out of memory reading tuning file '%s'\n", path);
        return false;
    }
    text[n] = '\0';
    tuning_parse(text, path, known, diag, t);
    free(text);
    return true;
}

static void write_range(FILE *f, const char *key, int lo, int hi)
{
    if (!lo)
        return;
    if (lo == hi)
        fprintf(f, " %s=%d", key, lo);
    else
        fprintf(f, " %s=%d-%d", key, lo, hi);
}

void tuning_write(FILE *f, const struct tuning_file *t)
{
    if (t->mpi[0])
        fprintf(f, "mpi %s\n", t->mpi);
    if (t->shape_p)
        fprintf(f, "shape p=%d ppn=%d nodes=%d\n", t->shape_p, t->shape_ppn, t->shape_nodes);
    const struct tuning_model *m = &t->model;
    if (m->set)
        fprintf(f,
                "model alpha_node=%.9g beta_node=%.9g alpha=%.9g beta=%.9g o=%.9g gamma=%.9g "
                "shm_beta=%.9g eager=%lld\n",
                m->alpha_node, m->beta_node, m->alpha, m->beta, m->o, m->gamma, m->shm_beta,
                m->eager);
    for (int i = 0; i < t->n_rules; i++) {
        const struct tuning_rule *r = &t->rules[i];
        char name[32];
        fprintf(f, "%s %lld %lld %d %d %s", tuning_coll_name(r->coll, r->nonblocking, name, sizeof name),
                r->lo_bytes, r->hi_bytes, r->lo_p, r->hi_p, r->alg);
        write_range(f, "ppn", r->lo_ppn, r->hi_ppn);
        write_range(f, "nodes", r->lo_nodes, r->hi_nodes);
        if (r->radix)
            fprintf(f, " radix=%d", r->radix);
        if (r->segment)
            fprintf(f, " segment=%lld", r->segment);
        if (r->us > 0)
            fprintf(f, " us=%.9g", r->us);
        if (r->native_us > 0)
            fprintf(f, " native_us=%.9g", r->native_us);
        fputc('\n', f);
    }
}
