/*
 * Every algorithm in the catalog, run symbolically (no MPI) on every rank of
 * p = 1..40 and larger awkward sizes, for counts around p, uneven and empty
 * reduce-scatter blocks, every root, in place or not, commutative or not
 * (where the catalog allows it).  See symbolic.h for what is checked.
 */
#include "symbolic.h"
#include "../lib/check.h"

/* One symbolic run, counted; the first 40 failures printed. */
static void check_run(const struct algorithm *a, int p, int root, int64_t count,
                      const int64_t *counts, bool commutative, bool in_place, const char *what)
{
    struct sym_result res;
    if (check_count(sym_run(a, p, root, count, counts, commutative, in_place, &res) == 0))
        printf("FAIL %s %s p=%d root=%d count=%lld %s%s%s: %s\n", colibri_coll_name(a->coll),
               a->name, p, root, (long long)count, what, commutative ? "" : " noncommutative",
               in_place ? " in-place" : "", res.error);
}

static void run_algorithm(const struct algorithm *a, int p)
{
    int64_t counts_list[] = {0, 1, 2, p - 1, p, p + 1, 7, 13, 3 * p + 1};
    /* Past p = 40 the small counts already cover the block boundaries; the
     * big ones cost seconds each in symbolic form. */
    unsigned n_counts = p <= 40 ? 9 : 6;
    int roots[] = {0, p - 1, p / 2};
    int64_t *rc = malloc((size_t)p * sizeof *rc);
    for (int comm = 1; comm >= 0; comm--) {
        if (!comm && (a->restrictions & R_COMMUTATIVE))
            continue;
        for (int ip = 0; ip < 2; ip++) {
            for (unsigned ci = 0; ci < n_counts; ci++) {
                int64_t n = counts_list[ci];
                if (n < 0)
                    continue;
                switch (a->coll) {
                case COLIBRI_ALLREDUCE:
                    check_run(a, p, 0, n, NULL, comm, ip, "");
                    break;
                case COLIBRI_REDUCE:
                    for (int r = 0; r < 3; r++)
                        check_run(a, p, roots[r], n, NULL, comm, ip, "");
                    break;
                case COLIBRI_REDUCE_SCATTER_BLOCK:
                    for (int i = 0; i < p; i++)
                        rc[i] = n;
                    check_run(a, p, 0, n, rc, comm, ip, "block");
                    break;
                case COLIBRI_SCAN:
                case COLIBRI_EXSCAN:
                    check_run(a, p, 0, n, NULL, comm, ip, "");
                    break;
                case COLIBRI_REDUCE_SCATTER:
                    /* uneven, with empty blocks */
                    for (int i = 0; i < p; i++)
                        rc[i] = (n * (i + 1) + i) % (2 * n + 3);
                    check_run(a, p, 0, 0, rc, comm, ip, "uneven");
                    for (int i = 0; i < p; i++)
                        rc[i] = i == p / 2 ? n : 0;
                    check_run(a, p, 0, 0, rc, comm, ip, "one-block");
                    break;
                default:
                    break;
                }
            }
        }
    }
    free(rc);
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    int sizes[80], ns = 0;
    for (int p = 1; p <= 40; p++)
        sizes[ns++] = p;
    int big[] = {48, 63, 64, 65, 96, 100, 127, 128, 129, 200};
    for (unsigned i = 0; i < sizeof big / sizeof *big; i++)
        sizes[ns++] = big[i];
    for (int i = 0; i < catalog_count; i++) {
        const struct algorithm *a = &catalog[i];
        /* data-movement collectives: test_exchange_schedules; sparse
         * reductions (neutral-element): test_sparse, on real values;
         * node-aware ones: test_node_reductions, over node layouts */
        if ((only && strcmp(only, a->name) != 0) || !coll_reduces(a->coll) ||
            (a->restrictions & (R_NEUTRAL | R_NODE_AWARE)))
            continue;
        long long before = check_failed;
        for (int k = 0; k < ns; k++)
            run_algorithm(a, sizes[k]);
        printf("%-22s %-20s %s\n", colibri_coll_name(a->coll), a->name,
               check_failed == before ? "ok" : "FAILED");
    }
    return check_summary();
}
