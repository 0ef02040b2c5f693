/*
 * The pass/fail accounting every colibri test shares: one counter of passed
 * and one of failed checks per process, a cap on the failure lines printed,
 * and the closing "N passed, N failed" line that tests/run.sh greps
 * (^[0-9]+ passed, [0-9]+ failed).
 *
 * Header-only C11 with no colibri or MPI dependency, so that unit tests, MPI
 * tests, SMPI programs (smpicc) and the drop-in programs (built without
 * colibri's headers) can all include it by relative path:
 *
 *   #include "../lib/check.h"
 *
 * Unit tests call check() (or wrap check_at() in a CHECK macro for file:line)
 * and end with `return check_summary();`.  Programs whose outcome is agreed
 * over ranks do the agreement themselves (each has its own rules: which
 * communicator, PMPI or not, who prints) and hand the agreed outcome to
 * check_count(); they sum or not the counters as they need and print the
 * totals with check_print_totals().
 *
 * CHECK_MAX_LINES (define before the include): failure lines printed before
 * further failures are only counted; 40 by default, negative for no cap.
 */
#ifndef COLIBRI_TEST_CHECK_H
#define COLIBRI_TEST_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#ifndef CHECK_MAX_LINES
#define CHECK_MAX_LINES 40
#endif

static long long check_passed, check_failed;

/* Counts one outcome.  True for a failure whose line is to be printed (one of
 * the first CHECK_MAX_LINES failures), false otherwise. */
static inline bool check_count(bool ok)
{
    if (ok) {
        check_passed++;
        return false;
    }
    check_failed++;
    return CHECK_MAX_LINES < 0 || check_failed <= CHECK_MAX_LINES;
}

/* Prints "<lead><message>\n" to stdout: the body of a failure line. */
static inline void check_vprint(const char *lead, const char *fmt, va_list ap)
{
    fputs(lead, stdout);
    vprintf(fmt, ap);
    putchar('\n');
}

/* One check: counted; a failure printed as "FAIL <message>".  Returns ok. */
static inline bool check(bool ok, const char *fmt, ...)
{
    if (check_count(ok)) {
        va_list ap;
        va_start(ap, fmt);
        check_vprint("FAIL ", fmt, ap);
        va_end(ap);
    }
    return ok;
}

/* A failure's line with where it was checked: "FAIL file:line: <message>".
 * For a macro that counts first, so the message's arguments are evaluated
 * only on failure:
 *   #define CHECK(cond, ...) \
 *       do { if (check_count(cond)) check_at(__FILE__, __LINE__, __VA_ARGS__); } while (0)
 */
static inline void check_at(const char *file, int line, const char *fmt, ...)
{
    printf("FAIL %s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    check_vprint("", fmt, ap);
    va_end(ap);
}

/* The same to stderr with the rank that failed first ("rank R: file:line:
 * <message>"), for MPI tests whose ranks check on their own:
 *   #define CHECK(cond, ...) CHECK_RANKED(wrank, cond, __VA_ARGS__)
 */
static inline void check_at_rank(int rank, const char *file, int line, const char *fmt, ...)
{
    fprintf(stderr, "rank %d: %s:%d: ", rank, file, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
#define CHECK_RANKED(rank, cond, ...)                                                        \
    do {                                                                                     \
        if (check_count(cond))                                                               \
            check_at_rank(rank, __FILE__, __LINE__, __VA_ARGS__);                            \
    } while (0)

/* The closing line tests/run.sh greps. */
static inline void check_print_totals(long long passed, long long failed)
{
    printf("%lld passed, %lld failed\n", passed, failed);
}

/* This process's totals, printed; the exit status (nonzero on a failure). */
static inline int check_summary(void)
{
    check_print_totals(check_passed, check_failed);
    return check_failed != 0;
}

#endif
