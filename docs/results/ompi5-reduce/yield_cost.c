/* The cost of sched_yield beside a busy process on the same core (issue #26,
 * README.md here): 400 iterations of about 100 us of work and N yields;
 * run as taskset -c 1 ./a.out N, alone and beside taskset -c 1 yes. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static volatile unsigned long sink;
static void work(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(int argc, char **argv)
{
    int yields = atoi(argv[1]);
    long n = 200000; /* ~100 us */
    double t0 = now(); work(n * 100); double per = (now() - t0) / 100;
    t0 = now();
    int iters = 400;
    for (int i = 0; i < iters; i++) {
        work(n);
        for (int k = 0; k < yields; k++) sched_yield();
    }
    double el = now() - t0;
    printf("yields/iter %d: work share %.2f (alone-time per unit %.0f us, got %.0f us per iter)\n", yields, per * iters / el, per * 1e6, el / iters * 1e6);
}
