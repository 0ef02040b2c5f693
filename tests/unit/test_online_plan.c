/*
 * Online selection's arithmetic and plan (src/select/online.c), with no MPI
 * and no clock: the mean of the faster half, the pick with its margin, the doubling
 * window, the plan of a shape's calls (which candidate, which calls are
 * timed, when the ranks agree, that exploration stops within its bound),
 * decisions from agreed scores (several simulated ranks with different
 * times reach the same choice once their scores are agreed by MAX, and not
 * without), re-checks that keep or switch the winner, invalid times, the
 * memo pass and the table's eviction, size classes, the fake timings of the tests'
 * hook, alltoallv's skipped size agreement (the window opens only while
 * every shape of the collective is settled on native, doubles, stops at
 * its bound and at the shape's re-check) and what nonblocking calls reuse
 * (a decided shape's winner; the table's version changes with every
 * decision and with a decided shape's replacement).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "select/online.h"

#include "../lib/check.h"

#define CHECK(cond, ...) \
    do { if (check_count(cond)) check_at(__FILE__, __LINE__, __VA_ARGS__); } while (0)

/* Stand-ins for catalog entries: only their addresses are used. */
static const char alg_a, alg_b;
#define A ((const struct algorithm *)&alg_a)
#define B ((const struct algorithm *)&alg_b)

static const struct online_params PR = {5, 4, ONLINE_NATIVE_MARGIN, ONLINE_MARGIN, 0};

static void test_fast_mean(void)
{
    double v0[1];
    CHECK(online_fast_mean(v0, 0) == ONLINE_NONE, "no value: none");
    double v1[] = {3};
    CHECK(online_fast_mean(v1, 1) == 3, "one value: itself");
    double v2[] = {5, 1};
    CHECK(online_fast_mean(v2, 2) == 1, "two: the smaller");
    double v3[] = {9, 1, 2};
    CHECK(online_fast_mean(v3, 3) == 1.5, "three: mean of the two smaller");
    double v4[] = {100, 2, 1, 4};
    CHECK(online_fast_mean(v4, 4) == 1.5, "four: mean of the two smaller, got %g",
          online_fast_mean(v4, 4));
    /* Intel MPI's warm-up: two of four calls 6x slower */
    double w[] = {1.5, 1.4, 9.0, 8.0};
    CHECK(online_fast_mean(w, 4) == 1.45, "two jumps of four ignored, got %g",
          online_fast_mean(w, 4));
    double v8[] = {1e6, 3, 1, 1, 1, 1, 5, 7};
    CHECK(online_fast_mean(v8, 8) == 1, "eight: the four smallest");
}

static void test_pick(void)
{
    const double s[] = {10, 20, 9.5};
    CHECK(online_pick(s, 3, -1, 0.1) == 2, "no incumbent: the fastest");
    CHECK(online_pick(s, 3, 0, 0.1) == 0, "9.5 is not 10%% under 10: incumbent kept");
    CHECK(online_pick(s, 3, 0, 0.03) == 2, "9.5 is 5%% under 10: switch at a 3%% margin");
    CHECK(online_pick(s, 3, 1, 0.1) == 2, "a slow incumbent is replaced");
    const double t[] = {10, 10};
    CHECK(online_pick(t, 2, -1, 0) == 0, "ties: the lower index");
    CHECK(online_pick(t, 2, 1, 0) == 1, "ties: the incumbent");
    const double n[] = {ONLINE_NONE, 5, ONLINE_NONE};
    CHECK(online_pick(n, 3, 0, 0.1) == 1, "an incumbent with no time loses");
    CHECK(online_pick(n, 3, 2, 0.1) == 1, "none never wins");
    const double all[] = {ONLINE_NONE, ONLINE_NONE};
    CHECK(online_pick(all, 2, 1, 0.1) == 1, "all none: the incumbent");
    CHECK(online_pick(all, 2, -1, 0.1) == 0, "all none, no incumbent: the model's choice");
}

static void test_window(void)
{
    CHECK(online_next_window(0, true, ONLINE_CONFIRM_WINDOW, &PR) == 4, "first window");
    CHECK(online_next_window(4, true, ONLINE_CONFIRM_WINDOW, &PR) == 8, "kept: doubled");
    CHECK(online_next_window(64, false, ONLINE_CONFIRM_WINDOW, &PR) == 4, "switched: back to the first");
    CHECK(online_next_window(ONLINE_WINDOW_MAX, true, ONLINE_CONFIRM_WINDOW, &PR) == ONLINE_WINDOW_MAX, "capped");
    /* a window longer than the confirmation: a first decision and a switch
     * are confirmed after ONLINE_CONFIRM_WINDOW calls, then the full window */
    const struct online_params big = {5, 1024, ONLINE_NATIVE_MARGIN, ONLINE_MARGIN, 0};
    CHECK(online_next_window(0, true, ONLINE_CONFIRM_WINDOW, &big) == ONLINE_CONFIRM_WINDOW, "first: confirmation");
    CHECK(online_next_window(ONLINE_CONFIRM_WINDOW, true, ONLINE_CONFIRM_WINDOW, &big) == 1024, "confirmed: full window");
    CHECK(online_next_window(1024, true, ONLINE_CONFIRM_WINDOW, &big) == 2048, "then doubled");
    CHECK(online_next_window(2048, false, ONLINE_CONFIRM_WINDOW, &big) == ONLINE_CONFIRM_WINDOW, "switch: confirmation");
    CHECK(online_next_window(0, true, ONLINE_CONFIRM_LONG, &big) == ONLINE_CONFIRM_LONG,
          "a long shape: its own confirmation");
    /* a first decision for native that no colibri candidate came near
     * (ONLINE_CLEAR_LOSS): no confirmation, the full window; a near one,
     * a colibri winner, or a second decision: as above */
    const struct algorithm *cand[3] = {A, NULL, B};
    const double clear[][3] = {{1.5, 1.0, 2.0},     /* clear: window 1024 */
                               {1.49, 1.0, 2.0},    /* A near: confirmation */
                               {1.5, 1.0, 1.2},     /* B near */
                               {ONLINE_NONE, 1.0, 3.0}, /* A no time: clear */
                               {0.5, 1.0, 2.0}};    /* A wins */
    const long long want[] = {1024, ONLINE_CONFIRM_WINDOW, ONLINE_CONFIRM_WINDOW, 1024,
                              ONLINE_CONFIRM_WINDOW};
    for (int i = 0; i < 5; i++) {
        struct online_table tab;
        memset(&tab, 0, sizeof tab);
        bool fresh;
        struct online_shape *s = online_shape_get(
            &tab, &(struct online_key){0, 0, 64, 8, true, A, false, true, 0}, cand, 3, &fresh);
        double agreed[ONLINE_CANDIDATES] = {clear[i][0], clear[i][1], clear[i][2], ONLINE_NONE};
        online_decide(s, agreed, &big);
        CHECK(s->window == want[i], "clear loss case %d: window %lld, want %lld", i, s->window,
              want[i]);
        if (i == 0) { /* its re-check keeps native, now narrowly: doubled, no confirmation */
            agreed[0] = 1.05;
            online_decide(s, agreed, &big);
            CHECK(s->window == 2048, "re-check after a clear first decision: %lld", s->window);
        }
    }
}

static struct online_key key(int64_t count)
{
    return (struct online_key){0, 0, count, 8, true, A, false, true, 0};
}

/* Runs one shape's exploration on `ranks` simulated ranks, rank r timing
 * candidate c at t[r][c] seconds; returns the agreed winner, checking that
 * every rank's plan is the same and the exploration ends within its bound. */
static int explore(struct online_table *tab, int ranks, const double t[][3], int n_cand,
                   bool agree, int winner_out[])
{
    const struct algorithm *cand[3] = {A, NULL, B};
    struct online_shape *s[8];
    for (int r = 0; r < ranks; r++) {
        bool fresh;
        s[r] = online_shape_get(&tab[r], &(struct online_key){0, 0, 8, 8, true, A, false, true, 0}, cand,
                                n_cand, &fresh);
    }
    int calls = 0;
    for (bool done = false; !done; calls++) {
        struct online_step st[8];
        for (int r = 0; r < ranks; r++) {
            st[r] = online_next(s[r], &PR);
            CHECK(st[r].cand == st[0].cand && st[r].decide == st[0].decide &&
                      st[r].timed == st[0].timed && st[r].settled == st[0].settled,
                  "rank %d's plan differs at call %d", r, calls);
            if (st[r].timed)
                online_record(s[r], st[r].cand, t[r][st[r].cand]);
        }
        CHECK(!st[0].settled, "settled before deciding");
        if (st[0].decide) {
            double sc[8][ONLINE_CANDIDATES], agreed[ONLINE_CANDIDATES] = {0};
            for (int r = 0; r < ranks; r++) {
                online_scores(s[r], sc[r]);
                for (int c = 0; c < ONLINE_CANDIDATES; c++)
                    agreed[c] = fmax(agreed[c], sc[r][c]);
            }
            for (int r = 0; r < ranks; r++)
                winner_out[r] = online_decide(s[r], agree ? agreed : sc[r], &PR);
            done = true;
        }
        if (calls > 100)
            break;
    }
    CHECK(calls == PR.calls * n_cand, "exploration took %d calls, want %d", calls,
          PR.calls * n_cand);
    return winner_out[0];
}

static void test_agreed_decision(void)
{
    /* rank 0 finds A fastest, rank 1 native, rank 2 B: by itself each
     * would choose differently; the slowest rank's time (MAX) decides */
    const double t[3][3] = {{1e-6, 5e-6, 6e-6}, {7e-6, 2e-6, 6e-6}, {7e-6, 5e-6, 1e-6}};
    struct online_table tab[3];
    memset(tab, 0, sizeof tab);
    int w[3];
    explore(tab, 3, t, 3, false, w);
    CHECK(w[0] == 0 && w[1] == 1 && w[2] == 2, "without agreement the ranks differ (%d %d %d)",
          w[0], w[1], w[2]);
    memset(tab, 0, sizeof tab);
    explore(tab, 3, t, 3, true, w);
    /* agreed: A 7, native 5, B 6 us: native */
    CHECK(w[0] == 1 && w[1] == 1 && w[2] == 1, "agreed: every rank native (%d %d %d)", w[0],
          w[1], w[2]);
}

static void test_native_margin(void)
{
    /* A 5% faster than native: native stays (the native margin, 10%);
     * 15% faster: A wins */
    struct online_table tab[1];
    int w[1];
    memset(tab, 0, sizeof tab);
    explore(tab, 1, (const double[][3]){{0.95, 1.0, 0}}, 2, true, w);
    CHECK(w[0] == 1, "5%% faster does not replace native");
    memset(tab, 0, sizeof tab);
    explore(tab, 1, (const double[][3]){{0.85, 1.0, 0}}, 2, true, w);
    CHECK(w[0] == 0, "15%% faster replaces native");
    /* and by 50 ns a call (ONLINE_NATIVE_GAIN): 20% of a 0.2 us call is
     * not enough, 20% of a 0.3 us one is */
    memset(tab, 0, sizeof tab);
    explore(tab, 1, (const double[][3]){{0.16e-6, 0.2e-6, 0}}, 2, true, w);
    CHECK(w[0] == 1, "40 ns faster does not replace native");
    memset(tab, 0, sizeof tab);
    explore(tab, 1, (const double[][3]){{0.24e-6, 0.3e-6, 0}}, 2, true, w);
    CHECK(w[0] == 0, "60 ns and 20%% faster replaces native");
    /* a paced exploration's pause runs colibri's best only where a
     * decision would take it */
    const struct algorithm *cand[3] = {A, NULL, B};
    bool fresh;
    memset(tab, 0, sizeof tab);
    struct online_shape *s = online_shape_get(
        tab, &(struct online_key){0, 0, 1 << 14, 8, true, A, false, true, 0}, cand, 3, &fresh);
    s->calls = 6, s->explore_start = 0;
    online_block_end(s, (const double[ONLINE_CANDIDATES]){0.16e-6, 0.2e-6, ONLINE_NONE, ONLINE_NONE}, &PR);
    CHECK(s->pause_cand == 1, "the pause runs native, 40 ns slower, got %d", s->pause_cand);
}

/* Decisions among two colibri candidates and native, from agreed scores:
 * between colibri algorithms the winner keeps its place within the margin,
 * and whichever runs must beat native by the native margin. */
static void test_colibri_pair(void)
{
    struct online_table tab;
    memset(&tab, 0, sizeof tab);
    const struct algorithm *cand[3] = {A, NULL, B};
    bool fresh;
    struct online_shape *s =
        online_shape_get(&tab, &(struct online_key){0, 0, 64, 8, true, A, false, true, 0}, cand, 3,
                         &fresh);
    CHECK(online_decide(s, (const double[ONLINE_CANDIDATES]){1.0, 2.0, 1.1}, &PR) == 0, "first: A, the fastest");
    CHECK(fabs(s->explore_extra - 5 * (1.0 + 0.1)) < 1e-9,
          "its exploration cost 5 calls of native and of B over A's: 5.5, got %g", s->explore_extra);
    CHECK(online_decide(s, (const double[ONLINE_CANDIDATES]){1.0, 2.0, 0.95}, &PR) == 0,
          "B 5%% faster than A: A keeps its place");
    CHECK(online_decide(s, (const double[ONLINE_CANDIDATES]){1.0, 2.0, 0.85}, &PR) == 2, "B 15%% faster: B");
    CHECK(online_decide(s, (const double[ONLINE_CANDIDATES]){1.0, 1.05, 0.95}, &PR) == 1,
          "B only 10%% under native's 1.05 by less than the margin: native");
    CHECK(fabs(s->explore_extra - 5 * (-0.05 - 0.10)) < 1e-9,
          "A and B ran faster than native, the winner: -0.75, got %g", s->explore_extra);
    CHECK(online_decide(s, (const double[ONLINE_CANDIDATES]){0.8, 1.0, ONLINE_NONE}, &PR) == 0,
          "B with no time: A, 20%% under native");
    CHECK(fabs(s->explore_extra - 5 * 0.2) < 1e-9, "B without a time costs nothing: 1.0, got %g",
          s->explore_extra);
    CHECK(s->switches == 3, "three switches, got %lld", s->switches);
}

/* A colibri candidate must beat native's score now and at the shape's
 * last decision: one slow native measurement (3.0 after 1.0) hands the
 * shape to A only once native is slow at two decisions running. */
static void test_native_last(void)
{
    struct online_table tab;
    memset(&tab, 0, sizeof tab);
    const struct algorithm *cand[3] = {A, NULL, B};
    bool fresh;
    struct online_shape *s =
        online_shape_get(&tab, &(struct online_key){0, 0, 96, 8, true, A, false, true, 0}, cand, 3,
                         &fresh);
    CHECK(online_decide(s, (const double[ONLINE_CANDIDATES]){1.5, 1.0, 1.6}, &PR) == 1,
          "first: native, the fastest");
    CHECK(online_decide(s, (const double[ONLINE_CANDIDATES]){1.0, 3.0, 1.6}, &PR) == 1,
          "native slow once (3.0, 1.0 before): native stays");
    CHECK(online_decide(s, (const double[ONLINE_CANDIDATES]){1.0, 3.0, 1.6}, &PR) == 0,
          "native slow twice running: A");
    CHECK(online_decide(s, (const double[ONLINE_CANDIDATES]){1.0, 1.05, 1.6}, &PR) == 1,
          "native within the margin: native");
}

/* A one-rank table whose shape settled on A (1 s against native's 2). */
static struct online_shape *settled_on_a(struct online_table *tab)
{
    int w[1];
    memset(tab, 0, sizeof *tab);
    explore(tab, 1, (const double[][3]){{1.0, 2.0, 0}}, 2, true, w);
    return online_shape_find(tab, &(struct online_key){0, 0, 8, 8, true, A, false, true, 0});
}

/* After a decision: settled calls for the window, then a re-check. */
static void test_recheck(void)
{
    struct online_table tab[1];
    struct online_shape *s = settled_on_a(tab);
    CHECK(s && s->winner == 0 && s->window == PR.window, "A settled, first window");
    long long window = PR.window;
    /* three re-checks where A stays (A 20% faster than native): the
     * window doubles each time */
    for (int k = 0; k < 3; k++) {
        for (long long i = 0; i < window; i++) {
            struct online_step st = online_next(s, &PR);
            CHECK(st.settled && st.cand == 0 && !st.timed, "settled call %lld of window %lld", i,
                  window);
        }
        int calls = 0;
        for (;; calls++) {
            struct online_step st = online_next(s, &PR);
            CHECK(!st.settled, "re-check call settled");
            if (st.timed)
                online_record(s, st.cand, st.cand == 0 ? 1.0 : 1.25);
            if (st.decide) {
                double sc[ONLINE_CANDIDATES];
                online_scores(s, sc);
                online_decide(s, sc, &PR);
                break;
            }
        }
        CHECK(calls + 1 == 2 * PR.calls, "re-check took %d calls", calls + 1);
        window *= 2;
        CHECK(s->winner == 0 && s->window == window, "kept A, window %lld (want %lld)", s->window,
              window);
    }
    /* a re-check where A is only 5% faster than native: native is the
     * incumbent at every decision, so A loses its place; window back */
    for (long long i = 0; i < window; i++)
        online_next(s, &PR);
    for (;;) {
        struct online_step st = online_next(s, &PR);
        if (st.timed)
            online_record(s, st.cand, st.cand == 0 ? 1.0 : 1.05);
        if (st.decide) {
            double sc[ONLINE_CANDIDATES];
            online_scores(s, sc);
            online_decide(s, sc, &PR);
            break;
        }
    }
    CHECK(s->winner == 1 && s->window == PR.window && s->switches == 1,
          "switched to native, window %lld", s->window);
}

/* One exploration of s after its window (one rank, times t[cand]): the
 * candidates it ran (bit i: cand[i]); its winner in *w. */
static unsigned recheck_ran(struct online_shape *s, const double t[3], int *w)
{
    while (online_peek(s, &PR).settled)
        online_next(s, &PR);
    unsigned ran = 0;
    for (int calls = 0; calls < 100; calls++) {
        const struct online_step st = online_next(s, &PR);
        ran |= 1u << st.cand;
        if (st.timed)
            online_record(s, st.cand, t[st.cand]);
        if (st.decide) {
            double sc[ONLINE_CANDIDATES];
            online_scores(s, sc);
            *w = online_decide(s, sc, &PR);
            return ran;
        }
    }
    CHECK(false, "no decision in 100 calls");
    return ran;
}

/* Re-checks leave out a colibri candidate that lost clearly (1.5x the
 * winner's time) at a decision other than the first; it comes back when
 * the winner changes or its time moves by 1.5x. */
static void test_dropped(void)
{
    struct online_table tab;
    memset(&tab, 0, sizeof tab);
    const struct algorithm *cand[3] = {A, NULL, B};
    bool fresh;
    struct online_shape *s = online_shape_get(
        &tab, &(struct online_key){0, 0, 40, 8, true, A, false, true, 0}, cand, 3, &fresh);
    int w = -1;
    const double slow_a[3] = {3.0, 1.0, 1.2};
    CHECK(recheck_ran(s, slow_a, &w) == 7 && w == 1 && s->dropped == 0,
          "first decision: all ran, native, nothing dropped (a cold start), dropped %#x", s->dropped);
    CHECK(recheck_ran(s, slow_a, &w) == 7 && w == 1 && s->dropped == 1,
          "second: all ran, A (3x native's) dropped, dropped %#x", s->dropped);
    unsigned ran = recheck_ran(s, slow_a, &w);
    CHECK(ran == 6 && w == 1 && s->dropped == 1, "third: native and B only, ran %#x", ran);
    /* native's time doubles: the next re-check runs everyone again */
    const double slower[3] = {3.0, 2.0, 2.5};
    ran = recheck_ran(s, slower, &w);
    CHECK(ran == 6 && w == 1 && s->dropped == 0, "native 2x slower: A back, dropped %#x",
          s->dropped);
    ran = recheck_ran(s, slower, &w);
    CHECK(ran == 7 && w == 1 && s->dropped == 1, "A explored again (and 1.5x native's again), ran %#x",
          ran);
    /* a switch brings the dropped back too: B wins over native */
    const double fast_b[3] = {3.0, 2.0, 1.0};
    ran = recheck_ran(s, fast_b, &w);
    CHECK(ran == 6 && w == 2 && s->dropped == 0, "B wins without A: A back, ran %#x dropped %#x",
          ran, s->dropped);
    CHECK(recheck_ran(s, fast_b, &w) == 7 && w == 2, "A explored again");
    /* the winner's a colibri algorithm: native is never left out */
    recheck_ran(s, fast_b, &w);
    CHECK(w == 2 && s->dropped == 1, "A dropped beside B, native kept, dropped %#x", s->dropped);
    /* the plan is the same on every rank: dropped comes from agreed
     * scores only (online_decide's arguments) */
}

/* A new long shape starts without the colibri candidates that its
 * nearest decided neighbour below (long too, at most ONLINE_INHERIT_SPAN
 * times smaller) found 1.5x its winner's time or had dropped; nothing
 * else inherits, native never. */
static struct online_shape *shape_of(struct online_table *tab, int coll, int64_t count,
                                     const struct algorithm *const cand[3])
{
    bool fresh;
    return online_shape_get(tab, &(struct online_key){coll, 0, count, 8, true, cand[0], false, true, 0},
                            cand, 3, &fresh);
}

static void test_inherited(void)
{
    struct online_table tab;
    memset(&tab, 0, sizeof tab);
    const struct algorithm *cand[3] = {A, NULL, B};
    const double slow_a[3] = {3.0, 1.0, 1.2};
    int w = -1;
    /* 128 KiB (16 Ki doubles): A 3x native at the first decision */
    struct online_shape *s = shape_of(&tab, 0, 16384, cand);
    CHECK(s->dropped == 0, "nothing decided below: nothing dropped");
    CHECK(recheck_ran(s, slow_a, &w) == 7 && w == 1 && s->dropped == 0, "128 KiB: all ran");
    /* 512 KiB: starts without A, keeps it out after its first decision */
    struct online_shape *t = shape_of(&tab, 0, 65536, cand);
    CHECK(t->dropped == 1, "512 KiB inherits A's drop, dropped %#x", t->dropped);
    unsigned ran = recheck_ran(t, slow_a, &w);
    CHECK(ran == 6 && w == 1 && t->dropped == 1, "512 KiB: native and B ran, ran %#x dropped %#x",
          ran, t->dropped);
    /* 2 MiB: its neighbour never ran A but had dropped it: passed on */
    struct online_shape *u = shape_of(&tab, 0, 262144, cand);
    CHECK(u->dropped == 1, "2 MiB inherits from 512 KiB, dropped %#x", u->dropped);
    /* more than ONLINE_INHERIT_SPAN above its nearest: nothing */
    struct online_shape *v = shape_of(&tab, 0, 262144 * 8, cand);
    CHECK(v->dropped == 0, "16 MiB, 8x its nearest: nothing inherited, dropped %#x", v->dropped);
    /* downward, another collective, a short shape: nothing */
    CHECK(shape_of(&tab, 0, 8192 + 2048, cand)->dropped == 0, "below the decided one: nothing");
    CHECK(shape_of(&tab, 1, 65536, cand)->dropped == 0, "another collective: nothing");
    struct online_table tab2;
    memset(&tab2, 0, sizeof tab2);
    struct online_shape *x = shape_of(&tab2, 0, 1024, cand);
    recheck_ran(x, slow_a, &w);
    CHECK(shape_of(&tab2, 0, 4096, cand)->dropped == 0, "8 KiB above a short one: nothing");
    /* the neighbour's winner is never dropped; native never */
    const struct algorithm *cand_b[3] = {B, NULL, A};
    const double fast_b[3] = {1.0, 3.0, 4.0};
    struct online_table tab3;
    memset(&tab3, 0, sizeof tab3);
    struct online_shape *y = shape_of(&tab3, 0, 16384, cand_b);
    recheck_ran(y, fast_b, &w);
    CHECK(w == 0, "B wins at 128 KiB");
    struct online_shape *z = shape_of(&tab3, 0, 32768, cand);
    CHECK(z->dropped == 1, "A (4x B) dropped, B and native kept, dropped %#x", z->dropped);
    /* a switch brings the inherited back */
    const double fast_a[3] = {3.0, 1.0, 0.5};
    recheck_ran(z, fast_a, &w); /* first decision: B */
    CHECK(w == 2 && z->dropped == 1, "first decision: B, A still out, dropped %#x", z->dropped);
    const double b_slower[3] = {3.0, 1.0, 0.8};
    ran = recheck_ran(z, b_slower, &w);
    CHECK(ran == 6 && w == 2 && z->dropped == 0,
          "B's time moved 1.6x: A back at the next re-check, dropped %#x", z->dropped);
    CHECK(recheck_ran(z, b_slower, &w) == 7, "A explored again");
}

/* A shape of ONLINE_LONG_BYTES or more explores long_calls calls per
 * candidate (the first untimed), a shorter one `calls`; long_calls 0:
 * `calls` everywhere (COLIBRI_ONLINE_CALLS given). */
static int calls_to_decide(int64_t count, const struct online_params *pr)
{
    struct online_table tab;
    memset(&tab, 0, sizeof tab);
    const struct algorithm *cand[2] = {A, NULL};
    bool fresh;
    struct online_shape *s = online_shape_get(
        &tab, &(struct online_key){0, 0, count, 8, true, A, false, true, 0}, cand, 2, &fresh);
    int timed = 0;
    for (int calls = 1; calls <= 40; calls++) {
        const struct online_step st = online_next(s, pr);
        timed += st.timed;
        if (st.decide)
            return calls * 100 + timed;
    }
    return -1;
}

static void test_long_calls(void)
{
    const struct online_params pr = {5, 64, ONLINE_NATIVE_MARGIN, ONLINE_MARGIN, 3};
    const int64_t lng = ONLINE_LONG_BYTES / 8, shrt = lng - 1;
    CHECK(calls_to_decide(shrt, &pr) == 1008, "short shape: 10 calls, 8 timed (%d)",
          calls_to_decide(shrt, &pr));
    CHECK(calls_to_decide(lng, &pr) == 604, "long shape: 6 calls, 4 timed (%d)",
          calls_to_decide(lng, &pr));
    const struct online_params given = {5, 64, ONLINE_NATIVE_MARGIN, ONLINE_MARGIN, 0};
    CHECK(calls_to_decide(lng, &given) == 1008, "calls given: 10 calls for a long shape too");
}

/* Runs a long shape's paced exploration on `ranks` simulated ranks (rank r
 * times candidate c at t[r][c] seconds; candidates A, native, B), agreeing
 * at every block end and at the decision as online_turn_end does: every
 * rank's plan the same at every call, pauses untimed and running the best
 * so far.  Returns the calls up to the decision; *winner and *paused (the
 * pauses' calls, and the candidate of each pause in pause_cand[0..2]). */
static int paced(int ranks, const double t[][3], int64_t count, int *winner, long long *paused,
                 int pause_cand[3])
{
    const struct online_params pr = {5, 64, ONLINE_NATIVE_MARGIN, ONLINE_MARGIN, 3};
    const struct algorithm *cand[3] = {A, NULL, B};
    struct online_table tab[4];
    struct online_shape *s[4];
    memset(tab, 0, sizeof tab);
    for (int r = 0; r < ranks; r++) {
        bool fresh;
        s[r] = online_shape_get(&tab[r], &(struct online_key){0, 0, count, 8, true, A, false, true, 0},
                                cand, 3, &fresh);
    }
    int pauses = 0;
    *paused = 0;
    for (int calls = 1; calls <= 5000; calls++) {
        struct online_step st[4];
        for (int r = 0; r < ranks; r++) {
            st[r] = online_next(s[r], &pr);
            CHECK(st[r].cand == st[0].cand && st[r].decide == st[0].decide &&
                      st[r].timed == st[0].timed && st[r].pause == st[0].pause &&
                      st[r].block_end == st[0].block_end,
                  "rank %d's paced plan differs at call %d", r, calls);
            if (st[r].timed)
                online_record(s[r], st[r].cand, t[r][st[r].cand]);
        }
        CHECK(!st[0].settled, "settled before deciding");
        CHECK(!st[0].pause || (!st[0].timed && !st[0].decide && !st[0].block_end),
              "a pause's call timed, deciding or ending a block");
        *paused += st[0].pause;
        if (st[0].block_end || st[0].decide) {
            double sc[4][ONLINE_CANDIDATES], agreed[ONLINE_CANDIDATES] = {0};
            for (int r = 0; r < ranks; r++) {
                online_scores(s[r], sc[r]);
                for (int c = 0; c < ONLINE_CANDIDATES; c++)
                    agreed[c] = fmax(agreed[c], sc[r][c]);
            }
            for (int r = 0; r < ranks; r++) {
                if (st[0].decide) {
                    winner[r] = online_decide(s[r], agreed, &pr);
                    continue;
                }
                const long long p = online_block_end(s[r], agreed, &pr);
                if (p > 0 && r == 0 && pauses < 3)
                    pause_cand[pauses++] = s[0]->pause_cand;
            }
            if (st[0].decide)
                return calls;
        }
    }
    return -1;
}

static void test_paced(void)
{
    const int64_t lng = ONLINE_LONG_BYTES / 8;
    int w[4], pc[3] = {-1, -1, -1};
    long long paused;
    /* A 2 ms, native 1 ms, B 0.5 ms (rank 1 slower at native): after A's
     * block nothing to compare with; after native's, A cost 3 x 1 ms over
     * native, 60 native calls at 5%: 54 more calls of native; then B */
    const double t1[3][3] = {{2e-3, 1e-3, 0.5e-3}, {2e-3, 1e-3, 0.4e-3}, {1.5e-3, 0.9e-3, 0.5e-3}};
    int calls = paced(3, t1, lng, w, &paused, pc);
    CHECK(calls == 9 + 54 && paused == 54 && pc[0] == 1, "A slow: %d calls, %lld paused on %d",
          calls, paused, pc[0]);
    CHECK(w[0] == 2 && w[1] == 2 && w[2] == 2, "B, the fastest, wins everywhere (%d %d %d)", w[0],
          w[1], w[2]);
    /* A 30% faster than native: the pause runs A, which beats native by
     * the margin: native cost 3 x 0.3 ms over A, 25.7 calls of A at 5% */
    const double t2[1][3] = {{0.7e-3, 1e-3, 3e-3}};
    pc[0] = pc[1] = -1;
    calls = paced(1, t2, lng, w, &paused, pc);
    CHECK(pc[0] == 0 && paused == 20 && calls == 9 + 20, "A fast: paused %lld on %d, %d calls",
          paused, pc[0], calls);
    CHECK(w[0] == 0, "A wins (%d)", w[0]);
    /* A at half native's time or less: a clear win, no pause */
    const double t2b[1][3] = {{0.5e-3, 1e-3, 3e-3}};
    calls = paced(1, t2b, lng, w, &paused, pc);
    CHECK(paused == 0 && calls == 9 && w[0] == 0, "A clearly faster: paused %lld", paused);
    /* A within the native margin of native: the pause runs native */
    const double t3[1][3] = {{0.95e-3, 1e-3, 1e-3}};
    pc[0] = -1;
    calls = paced(1, t3, lng, w, &paused, pc);
    CHECK(paused == 0 && calls == 9, "A about native: no pause (%lld)", paused);
    const double t4[1][3] = {{0.95e-3, 1e-3, 3e-3}};
    calls = paced(1, t4, lng, w, &paused, pc);
    CHECK(calls == 9 && paused == 0, "B slow, but last: no pause after it (%lld)", paused);
    const double t5[1][3] = {{3e-3, 1e-3, 0.96e-3}};
    pc[0] = -1;
    calls = paced(1, t5, lng, w, &paused, pc);
    CHECK(pc[0] == 1 && paused == 114, "A 3x native: 114 calls of native, got %lld on %d", paused,
          pc[0]);
    /* a loser 1000x slower: pauses end at ONLINE_PAUSE_MAX, the
     * exploration ends */
    const double t6[1][3] = {{1.0, 1e-3, 1e-3}};
    calls = paced(1, t6, lng, w, &paused, pc);
    CHECK(paused == ONLINE_PAUSE_MAX && calls == 9 + ONLINE_PAUSE_MAX, "capped: %lld paused", paused);
    /* a short shape never pauses */
    calls = paced(1, t6, lng - 1, w, &paused, pc);
    CHECK(paused == 0 && calls == 15, "a short shape paused %lld calls", paused);
}

static void test_bad_times(void)
{
    struct online_table tab;
    memset(&tab, 0, sizeof tab);
    const struct algorithm *cand[2] = {A, NULL};
    bool fresh;
    struct online_shape *s = online_shape_get(&tab, &(struct online_key){0, 0, 1, 8, true, A, false, true, 0}, cand, 2, &fresh);
    online_record(s, 0, -1.0);  /* backwards */
    online_record(s, 0, 1e9);   /* jumped */
    online_record(s, 0, NAN);
    online_record(s, 5, 1.0);   /* no such candidate */
    double sc[ONLINE_CANDIDATES];
    online_scores(s, sc);
    CHECK(sc[0] == ONLINE_NONE && sc[1] == ONLINE_NONE, "invalid times are no times");
    for (int i = 0; i < 3 * ONLINE_SAMPLES; i++)
        online_record(s, 1, 1.0);
    CHECK(s->n_sample[1] == ONLINE_SAMPLES, "samples capped");
}

/* A memo made when settled serves calls only within the window, counting
 * them; a new decision voids it. */
static void test_memo_pass(void)
{
    struct online_table tab[1];
    struct online_shape *s = settled_on_a(tab);
    const unsigned stamp = s->stamp;
    CHECK(online_memo_pass(s, stamp + 1) == false, "another stamp: no");
    const long long before = s->calls;
    int passed = 0;
    while (online_memo_pass(s, stamp))
        passed++;
    CHECK(passed == PR.window && s->calls == before + PR.window,
          "memo served %d calls of a window of %lld", passed, PR.window);
    struct online_step st = online_next(s, &PR);
    CHECK(!st.settled, "after the window the full path re-checks");
}

static void test_table(void)
{
    struct online_table tab;
    memset(&tab, 0, sizeof tab);
    const struct algorithm *cand[2] = {A, NULL};
    bool fresh;
    struct online_shape *first = online_shape_get(&tab, &(struct online_key){0, 0, 1, 8, true, A, false, true, 0}, cand, 2, &fresh);
    CHECK(fresh, "new shape");
    online_next(first, &PR);
    for (int i = 2; i <= ONLINE_SHAPES; i++) {
        struct online_key k = key(i);
        online_next(online_shape_get(&tab, &k, cand, 2, &fresh), &PR);
    }
    online_next(first, &PR); /* the first is now the most recent */
    struct online_key k = key(1000);
    struct online_shape *s = online_shape_get(&tab, &k, cand, 2, &fresh);
    CHECK(fresh && s != first, "the least recently used slot is replaced");
    struct online_key k2 = key(2);
    CHECK(online_shape_find(&tab, &k2) == NULL, "shape 2 was the least recent");
    struct online_key kb = key(1);
    kb.model = B;
    CHECK(online_shape_find(&tab, &kb) == NULL, "another model choice, another shape");
    kb.model = A;
    kb.sparse = true;
    CHECK(online_shape_find(&tab, &kb) == NULL, "a sparse form, another shape");
}

/* Size classes: every count lies in its class, which starts at most 25%
 * below it (counts below 8 are their own); classes never decrease as the
 * count grows, four begin in every octave from 8 on, counts a factor of 2
 * apart never share one, and the largest counts stay positive. */
static void test_size_class(void)
{
    int64_t last = -1, starts = 0;
    for (int64_t c = 0; c <= (1 << 20); c++) {
        const int64_t k = online_size_class(c);
        CHECK(k <= c && (c < 8 ? k == c : 4 * c < 5 * k), "count %lld in class %lld", (long long)c,
              (long long)k);
        CHECK(k >= last, "classes decrease at %lld", (long long)c);
        CHECK(c == 0 || online_size_class(2 * c) != k, "%lld and %lld share a class", (long long)c,
              (long long)(2 * c));
        starts += k != last && c >= 8;
        last = k;
    }
    CHECK(starts == 4 * 17 + 1, "%lld classes from 8 to 2^20, want 4 per octave", (long long)starts);
    CHECK(online_size_class(1000) == online_size_class(1020) &&
              online_size_class(1000) != online_size_class(1024),
          "1000 and 1020 share a class, 1024 starts the next");
    const int64_t big = INT64_MAX, kb = online_size_class(big);
    CHECK(kb > 0 && kb <= big && big / 5 * 4 < kb, "class of INT64_MAX: %lld", (long long)kb);
    CHECK(online_size_class((int64_t)1 << 40) == (int64_t)1 << 40, "2^40 starts a class");
}

static void test_fake(void)
{
    CHECK(online_fake_seconds("ring:5,native:7", "ring", 0, 3) == 5e-6, "listed");
    CHECK(online_fake_seconds("ring:5,native:7", "native", 1, 3) == 7e-6, "listed");
    CHECK(online_fake_seconds("ring:5,native:7", "rabenseifner", 1, 3) == 1e-3, "not listed");
    CHECK(online_fake_seconds("ring:5,ring@1:9", "ring", 1, 0) == 9e-6, "rank 1's own");
    CHECK(online_fake_seconds("ring@1:9,ring:5", "ring", 0, 0) == 5e-6, "others: the plain one");
    CHECK(online_fake_seconds("ring_x:1,ring:5", "ring", 0, 0) == 5e-6, "a prefix is not a name");
    const double a = online_fake_seconds("random:7", "ring", 0, 1);
    CHECK(a == online_fake_seconds("random:7", "ring", 0, 1), "random: a function of its inputs");
    CHECK(a >= 1e-6 && a <= 1e-3, "random: 1..1000 us");
    int differ = 0;
    for (int c = 0; c < 50; c++)
        differ += online_fake_seconds("random:7", "ring", 0, c) !=
                  online_fake_seconds("random:7", "ring", 1, c);
    CHECK(differ > 40, "random: ranks differ (%d of 50)", differ);
}

/* Decides the shape of collective `coll`, count n in t (one rank): A
 * takes ta seconds, native tn; returns the shape, settled. */
static struct online_shape *decided(struct online_table *t, int coll, int64_t n, double ta,
                                    double tn)
{
    const struct algorithm *cand[2] = {A, NULL};
    bool fresh;
    struct online_shape *s = online_shape_get(
        t, &(struct online_key){coll, 0, n, 1, true, A, false, true, 0}, cand, 2, &fresh);
    for (int i = 0; i < 50; i++) {
        struct online_step st = online_next(s, &PR);
        if (st.timed)
            online_record(s, st.cand, st.cand == 0 ? ta : tn);
        if (st.decide) {
            double sc[ONLINE_CANDIDATES];
            online_scores(s, sc);
            online_decide(s, sc, &PR);
            break;
        }
    }
    return s;
}

static void test_skip(void)
{
    const struct online_params pr = {5, 1000, ONLINE_NATIVE_MARGIN, ONLINE_MARGIN, 0};
    struct online_table t;
    memset(&t, 0, sizeof t);
    struct online_skip k = {0};
    struct online_shape *s = decided(&t, 7, 100, 2.0, 1.0); /* native wins */
    s->quiet_until = s->calls + 100000;                      /* its re-check far away */
    online_skip_after(&k, &t, 7, s, &pr);
    CHECK(k.shape == s && k.window == ONLINE_SKIP_FIRST, "first window %lld", k.window);
    long long before = s->calls, skipped = 0;
    while (online_skip_pass(&k))
        skipped++;
    CHECK(skipped == ONLINE_SKIP_FIRST && s->calls == before + skipped,
          "%lld calls skipped, counted in the shape: want %d", skipped, ONLINE_SKIP_FIRST);
    /* agreed again on the same shape: the window doubles, up to its bound */
    long long w = ONLINE_SKIP_FIRST;
    for (int i = 0; i < 12; i++) {
        online_next(s, &PR); /* the agreed call */
        online_skip_after(&k, &t, 7, s, &pr);
        w = w * 2 > ONLINE_SKIP_MAX ? ONLINE_SKIP_MAX : w * 2;
        CHECK(k.window == w, "window %lld, want %lld", k.window, w);
        while (online_skip_pass(&k))
            ;
    }
    /* the shape's own re-check stops the window early */
    s->quiet_until = s->calls + 3;
    online_next(s, &PR);
    online_skip_after(&k, &t, 7, s, &pr);
    skipped = 0;
    while (online_skip_pass(&k))
        skipped++;
    CHECK(skipped == 2, "%lld skipped past the re-check", skipped);
    /* another shape of the collective settled on A: no window; one of
     * another collective on A does not matter */
    struct online_table u;
    memset(&u, 0, sizeof u);
    struct online_skip k2 = {0};
    struct online_shape *n = decided(&u, 7, 100, 2.0, 1.0);
    decided(&u, 3, 100, 1.0, 2.0);
    online_skip_after(&k2, &u, 7, n, &pr);
    CHECK(k2.shape == n, "another collective's shape closed the window");
    struct online_shape *x = decided(&u, 7, 999, 1.0, 2.0);
    CHECK(x->winner == 0, "A wins the second shape");
    online_skip_after(&k2, &u, 7, x, &pr); /* an agreed call of x */
    CHECK(!k2.shape && k2.window == 0 && !online_skip_pass(&k2),
          "a shape on A opened a window");
    online_skip_after(&k2, &u, 7, n, &pr); /* n after x: no window yet */
    CHECK(!k2.shape && k2.window == 0 && !online_skip_pass(&k2),
          "a shape on A left the window open");
    /* n after n: its calls follow one another, a window up to the mixed
     * bound; x between two of n's closes it, and it starts over */
    n->quiet_until = n->calls + 100000;
    w = ONLINE_SKIP_FIRST;
    for (int i = 0; i < 6; i++) {
        online_next(n, &PR);
        online_skip_after(&k2, &u, 7, n, &pr);
        CHECK(k2.shape == n && k2.window == w, "mixed window %lld, want %lld", k2.window, w);
        skipped = 0;
        while (online_skip_pass(&k2))
            skipped++;
        CHECK(skipped == w, "%lld skipped in a mixed window of %lld", skipped, w);
        w = w * 2 > ONLINE_SKIP_MIXED_MAX ? ONLINE_SKIP_MIXED_MAX : w * 2;
    }
    CHECK(k2.window == ONLINE_SKIP_MIXED_MAX, "mixed window %lld past its bound", k2.window);
    online_skip_after(&k2, &u, 7, x, &pr);
    CHECK(!k2.shape && k2.window == 0, "x's call left n's window open");
    online_skip_after(&k2, &u, 7, n, &pr);
    CHECK(!k2.shape, "n after x opened a window");
    online_skip_after(&k2, &u, 7, n, &pr);
    CHECK(k2.shape == n && k2.window == ONLINE_SKIP_FIRST, "n's window did not start over: %lld",
          k2.window);
    /* a shape re-decided in between (another stamp) is no repeat */
    struct online_skip k4 = {0};
    online_skip_after(&k4, &u, 7, n, &pr);
    n->stamp++;
    online_skip_after(&k4, &u, 7, n, &pr);
    CHECK(!k4.shape, "a re-decided shape counted as a repeat");
    CHECK(online_skip_follows(&k4, n) && !online_skip_follows(&k4, x) &&
              !online_skip_follows(&k4, NULL),
          "online_skip_follows");
    /* a shape exploring (new): closed as well */
    struct online_table v;
    memset(&v, 0, sizeof v);
    struct online_skip k3 = {0};
    struct online_shape *m = decided(&v, 7, 100, 2.0, 1.0);
    const struct algorithm *cand[2] = {A, NULL};
    bool fresh;
    online_shape_get(&v, &(struct online_key){7, 0, 5, 1, true, A, false, true, 0}, cand, 2, &fresh);
    online_skip_after(&k3, &v, 7, m, &pr);
    CHECK(!k3.shape, "an exploring shape left the window open");
    online_skip_after(&k3, &v, 7, NULL, &pr);
    CHECK(!k3.shape, "no shape (a rule decided) left the window open");
}

/* A tuning rule's alltoallv windows (online_skip_rule_after): two agreed
 * calls of the same size classes sent below open 16 calls, doubling to
 * 128; another class, or a call no rule sent below, closes them. */
/* A long shape {A, native, B} of collective 7 in t, explored with times
 * tm up to native's last call, its pause set from the scores so far:
 * returns the pause's calls. */
static long long paused_shape(struct online_table *t, struct online_shape **sp, const double tm[3],
                              const struct online_params *pr)
{
    const struct algorithm *cand[3] = {A, NULL, B};
    bool fresh;
    struct online_shape *s = online_shape_get(
        t, &(struct online_key){7, 0, ONLINE_LONG_BYTES, 8, true, A, false, true, 0}, cand, 3, &fresh);
    struct online_step st;
    do {
        st = online_next(s, pr);
        if (st.timed)
            online_record(s, st.cand, tm[st.cand]);
    } while (!st.block_end || st.cand != 1);
    double sc[ONLINE_CANDIDATES];
    online_scores(s, sc);
    *sp = s;
    return online_block_end(s, sc, pr);
}

/* A long shape's exploration pausing on native opens a skip window for
 * the pause: its calls skip the size agreement, counted in the shape as
 * pause steps, and the exploration goes on where it stopped; a pause on
 * a colibri candidate opens none; a colibri winner elsewhere caps it. */
static void test_skip_pause(void)
{
    const struct online_params pr = {5, 1000, ONLINE_NATIVE_MARGIN, ONLINE_MARGIN, 3};
    struct online_shape *s;
    for (int mixed = 0; mixed < 2; mixed++) {
        struct online_table t;
        memset(&t, 0, sizeof t);
        if (mixed)
            decided(&t, 7, 100, 1.0, 2.0); /* another size settled on A */
        struct online_skip k = {0};
        const double tm[3] = {5e-3, 1e-3, 1e-3}; /* a pause of 234 calls */
        const long long pause = paused_shape(&t, &s, tm, &pr);
        online_skip_after(&k, &t, 7, s, &pr);
        long long before = s->calls, skipped = 0;
        while (online_skip_pass(&k))
            skipped++;
        const long long want = mixed && pause > ONLINE_SKIP_MIXED_MAX ? ONLINE_SKIP_MIXED_MAX : pause;
        CHECK(pause > 0 && skipped == want && s->calls == before + skipped,
              "pause of %lld (mixed %d): %lld skipped, want %lld", pause, mixed, skipped, want);
        struct online_step st = online_peek(s, &pr);
        CHECK(st.pause == (mixed && pause > want), "after the window: pause step %d", st.pause);
        while (online_peek(s, &pr).pause)
            online_next(s, &pr);
        st = online_next(s, &pr);
        CHECK(st.cand == 2 && !st.timed && !st.pause, "then B's first call (cand %d)", st.cand);
    }
    /* a pause on A (30% faster than native): no window */
    struct online_table t;
    memset(&t, 0, sizeof t);
    struct online_skip k = {0};
    const double tm[3] = {0.7e-3, 1e-3, 1e-3};
    CHECK(paused_shape(&t, &s, tm, &pr) > 0 && s->pause_cand == 0, "a pause on A");
    online_skip_after(&k, &t, 7, s, &pr);
    CHECK(!online_skip_pass(&k), "a pause on a colibri algorithm skips nothing");
}

static void test_skip_rule(void)
{
    struct online_skip k;
    memset(&k, 0, sizeof k);
    const int64_t a[3] = {64, 512, -256}, b[3] = {4096, 512, -256};
    online_skip_rule_after(&k, a);
    CHECK(!online_skip_rule_open(&k), "one agreed call opens nothing");
    long long want = ONLINE_SKIP_FIRST, skipped = 0;
    for (int round = 0; round < 5; round++) {
        online_skip_rule_after(&k, a);
        for (skipped = 0; online_skip_rule_open(&k) && skipped < 1000; skipped++)
            online_skip_rule_pass(&k);
        CHECK(skipped == want, "round %d: %lld skipped, want %lld", round, skipped, want);
        want = want * 2 > ONLINE_SKIP_MIXED_MAX ? ONLINE_SKIP_MIXED_MAX : want * 2;
    }
    online_skip_rule_after(&k, b);
    CHECK(!online_skip_rule_open(&k), "another size class closes the window");
    online_skip_rule_after(&k, b);
    CHECK(online_skip_rule_open(&k) && k.rule_until - k.rule_calls == ONLINE_SKIP_FIRST,
          "two of the new class: a first window again");
    online_skip_rule_after(&k, NULL);
    online_skip_rule_after(&k, b);
    CHECK(!online_skip_rule_open(&k), "a call no rule sent below breaks the pair");
}

static void test_reuse(void)
{
    struct online_table t;
    memset(&t, 0, sizeof t);
    const struct online_key key = {2, 0, 64, 1, true, A, false, true, 0}; /* decided()'s */
    const struct algorithm *alg = A;
    CHECK(!online_reuse(&t, &key, &alg) && alg == A, "no shape: nothing reused");
    const struct algorithm *cand[2] = {A, NULL};
    bool fresh;
    struct online_shape *s = online_shape_get(&t, &key, cand, 2, &fresh);
    CHECK(!online_reuse(&t, &key, &alg) && alg == A, "undecided: nothing reused");
    const unsigned v0 = t.version;
    s = decided(&t, 2, 64, 1.0, 0.5); /* the same shape: native wins */
    CHECK(t.version != v0, "a decision left the version");
    CHECK(online_reuse(&t, &key, &alg) && alg == NULL, "the decision (native) not reused");
    /* a re-check exploring: the winner stands */
    s->quiet_until = s->calls;
    struct online_step st = online_next(s, &PR);
    CHECK(!st.settled && online_reuse(&t, &key, &alg) && alg == NULL,
          "the winner did not stand during the re-check");
    /* replaced by other shapes: gone, and the version says so */
    const unsigned v1 = t.version;
    for (int i = 0; i < ONLINE_SHAPES; i++) {
        struct online_shape *o = online_shape_get(
            &t, &(struct online_key){2, 0, 1000 + i, 4, true, A, false, true, 0}, cand, 2, &fresh);
        online_next(o, &PR); /* its first call: more recent than the decided shape */
    }
    alg = A;
    CHECK(!online_reuse(&t, &key, &alg) && alg == A && t.version != v1,
          "a replaced shape's decision reused, or the version unchanged");
}

/* Native's warm-up (ONLINE_NATIVE_WARM): 2 simulated ranks run a long
 * shape (A, native) for `calls` calls, agreeing at every block end and
 * decision as online_turn_end does; native takes cold_us for its first
 * `cold` calls (counted over all of native's calls, as Intel MPI's
 * per-size warm-up is) and warm_us after, rank 1 10% slower; A a_us.
 * Returns the decisions' winners in w[] (their count), native's calls in
 * *native_calls and each decision's window in win[]. */
static int warm_run(long long calls, int cold, double cold_us, double warm_us, double a_us,
                    int64_t count, int w[64], long long win[64], long long *native_calls)
{
    const struct online_params pr = {5, 64, ONLINE_NATIVE_MARGIN, ONLINE_MARGIN, 3};
    const struct algorithm *cand[2] = {A, NULL};
    struct online_table tab[2];
    struct online_shape *s[2];
    memset(tab, 0, sizeof tab);
    for (int r = 0; r < 2; r++) {
        bool fresh;
        s[r] = online_shape_get(&tab[r], &(struct online_key){0, 0, count, 8, true, A, false, true, 0},
                                cand, 2, &fresh);
    }
    int n = 0;
    *native_calls = 0;
    for (long long c = 0; c < calls; c++) {
        struct online_step st[2];
        for (int r = 0; r < 2; r++) {
            st[r] = online_next(s[r], &pr);
            CHECK(st[r].cand == st[0].cand && st[r].decide == st[0].decide &&
                      st[r].timed == st[0].timed && st[r].block_end == st[0].block_end &&
                      st[r].pause == st[0].pause,
                  "rank %d's plan differs at call %lld", r, c);
            const double us = st[r].cand == 1 ? (*native_calls < cold ? cold_us : warm_us) : a_us;
            if (st[r].timed)
                online_record(s[r], st[r].cand, us * 1e-6 * (r ? 1.1 : 1.0));
        }
        *native_calls += st[0].cand == 1;
        if (st[0].block_end || st[0].decide) {
            double sc[2][ONLINE_CANDIDATES], agreed[ONLINE_CANDIDATES] = {0};
            for (int r = 0; r < 2; r++) {
                online_scores(s[r], sc[r]);
                for (int i = 0; i < ONLINE_CANDIDATES; i++)
                    agreed[i] = fmax(agreed[i], sc[r][i]);
            }
            for (int r = 0; r < 2; r++) {
                if (!st[0].decide) {
                    online_block_end(s[r], agreed, &pr);
                    continue;
                }
                const int x = online_decide(s[r], agreed, &pr);
                CHECK(r == 0 || x == w[n - 1], "ranks decide %d and %d", w[n - 1], x);
                if (r == 0 && n < 64)
                    w[n] = x, win[n++] = s[0]->window;
            }
        }
    }
    return n;
}

static void test_native_warm(void)
{
    const int64_t lng = ONLINE_LONG_BYTES / 8;
    int w[64];
    long long win[64], nat;
    /* native 200 us for its first 16 calls, 20 after; A 26: A wins while
     * native is cold, native's turns grow 3, 5, 9, 17 calls, and the
     * fourth exploration (its 18th to 34th calls) finds native warm:
     * native from then on.  Between them: ONLINE_CONFIRM_WARM after the
     * first decision (native timed cold), the confirmation window after
     * the second (native's 4th-8th calls as cold as its first), and
     * ONLINE_CONFIRM_WARM after the third (its 10th-17th calls: one warm,
     * the faster half's mean 155 us against 200 at the last decision) */
    int n = warm_run(2000, 16, 200, 20, 26, lng, w, win, &nat);
    CHECK(n >= 5 && w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 1 && w[4] == 1,
          "warm-up: winners %d %d %d %d %d (%d decisions)", w[0], w[1], w[2], w[3], w[4], n);
    CHECK(win[0] == ONLINE_CONFIRM_WARM && win[1] == ONLINE_CONFIRM_LONG &&
              win[2] == ONLINE_CONFIRM_WARM,
          "warming: confirmation windows (%lld %lld %lld)", win[0], win[1], win[2]);
    /* without the longer turns native would never pass 16 calls here:
     * 3 a decision, one decision in the window of 64 and then doubling */
    CHECK(nat > 34, "native ran %lld calls", nat);
    /* native really slower (200 us throughout): its turn stops growing at
     * 17 calls and the windows double again */
    n = warm_run(20000, 1 << 30, 200, 200, 26, lng, w, win, &nat);
    CHECK(n >= 6 && w[n - 1] == 0, "slow native: A stays (%d decisions)", n);
    CHECK(win[3] > ONLINE_CONFIRM_LONG && win[4] == 2 * win[3],
          "slow native: windows grow after 3 doublings (%lld %lld %lld)", win[2], win[3], win[4]);
    CHECK(nat < 3 + 5 + 9 + 17 * (n - 3) + 1, "slow native: %lld calls in %d explorations", nat, n);
    /* native within 1.5x of A: no longer turns, windows as before */
    n = warm_run(2000, 1 << 30, 30, 30, 26, lng, w, win, &nat);
    CHECK(n >= 2 && win[1] == 2 * win[0] && nat == 3 * n,
          "native close: %lld native calls in %d explorations, windows %lld %lld", nat, n, win[0],
          win[1]);
    /* a short shape keeps its plan (5 calls a candidate) */
    n = warm_run(2000, 1 << 30, 200, 200, 26, lng - 1, w, win, &nat);
    CHECK(n >= 2 && nat == 5 * n && w[n - 1] == 0, "short shape: %lld native calls, %d decisions",
          nat, n);
}

int main(void)
{
    test_fast_mean();
    test_pick();
    test_window();
    test_agreed_decision();
    test_native_margin();
    test_dropped();
    test_inherited();
    test_colibri_pair();
    test_native_last();
    test_long_calls();
    test_paced();
    test_native_warm();
    test_recheck();
    test_bad_times();
    test_memo_pass();
    test_table();
    test_size_class();
    test_fake();
    test_skip();
    test_skip_pause();
    test_skip_rule();
    test_reuse();
    return check_summary();
}
