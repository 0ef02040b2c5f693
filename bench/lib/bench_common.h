/*
 * The part every benchmark program of bench/ shares: the common flags and
 * their parsing, the synchronised timed loop (and the fastest of several),
 * the largest value over ranks, and CSV output.  It uses MPI only through
 * PMPI_*, so that the harness neither measures nor depends on the code under
 * test, and it links no colibri (call-cost-bench measures colibri only when
 * preloaded).
 *
 * Common flags (a program accepts those its getopt string names; the rest
 * of its string is its own, handed to its callback):
 *   -c name        the collective (or mode) to run; the program reads it
 *   -m bytes       smallest size     } sizes accept K, M, G suffixes
 *   -M bytes       largest size      } (powers of 1024)
 *   -s factor      size step (each size the previous one times factor)
 *   -i n           timed calls per measurement   (-1 when not given)
 *   -w n           untimed warm-up calls first   (-1 when not given)
 *   -R n           measurements; the fastest counts
 *   -o file.csv    CSV output
 *   -h             usage
 */
#ifndef COLIBRI_BENCH_COMMON_H
#define COLIBRI_BENCH_COMMON_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

struct bench_opts {
    const char *prog;  /* for messages */
    const char *usage; /* printed by -h and after a bad option */
    const char *coll;  /* -c, NULL when not given */
    int64_t min_bytes, max_bytes;
    long step;
    int iters, warmup, reps;
    const char *csv;
};

/* The program's defaults: everything "not given" (NULL, -1), reps 1. */
void bench_opts_init(struct bench_opts *o, const char *prog, const char *usage);

/* getopt over `optstring`: every letter goes first to own(letter, optarg,
 * ctx), which returns 1 when it took it, 0 for a bad value, -1 when it is a
 * common flag (above) for *o; so a program may give a common letter its
 * own meaning.  -h, an unknown option or a bad value print the usage on
 * rank 0 and end the run (exit status 0 for -h, 2 otherwise).  Returns
 * optind. */
int bench_parse(int argc, char **argv, const char *optstring, struct bench_opts *o,
                int (*own)(int opt, const char *arg, void *ctx), void *ctx);

/* The usage (after `msg`, when not NULL) on rank 0, then the end of the run. */
void bench_usage_exit(const struct bench_opts *o, const char *msg);

/* "64K" -> 65536; -1 when it is no size. */
int64_t bench_parse_bytes(const char *s);

/* The largest of each v[i] over the ranks of comm, on every rank; gather and
 * broadcast rather than allreduce, which SMPI may have been told to replace
 * with a broken built-in. */
void bench_max_over_ranks(double *v, int n, MPI_Comm comm);

/* Whether every rank reads one clock (MPI_WTIME_IS_GLOBAL, as under SMPI). */
int bench_global_clock(MPI_Comm comm);

/* One timed measurement: `warmup` untimed calls, a barrier, then `iters`
 * calls of call(ctx, i), back to back in one stretch, or each from a
 * barrier of its own (barrier_each: rooted and exchange collectives, whose
 * back-to-back calls can pipeline).  A stretch runs from the last rank's
 * start to the last rank's end with a global clock (global_clock set),
 * otherwise OSU-style each rank's own sum of its stretches, the largest
 * over ranks. */
struct bench_loop {
    int (*call)(void *ctx, int i); /* MPI_SUCCESS, or the measurement fails */
    void *ctx;
    MPI_Comm comm;
    int iters, warmup;
    int barrier_each;
    int global_clock;
};

/* Mean seconds per call; negative when a call failed on any rank. */
double bench_time(const struct bench_loop *l);

/* The fastest of `reps` measurements (warm-up before the first only);
 * negative when one failed. */
double bench_best_of(const struct bench_loop *l, int reps);

/* On rank 0 of MPI_COMM_WORLD: `path` opened for writing ("-": stdout) with
 * `header` as its first line; NULL on the other ranks and for a NULL path.
 * A file that cannot be opened ends the run. */
FILE *bench_csv_open(const char *path, const char *header);
void bench_csv_close(FILE *f);

#endif
