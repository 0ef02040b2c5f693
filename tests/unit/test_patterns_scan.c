/*
 * patterns/scan.h, exhaustively for P = 1..1100 (and some larger P for
 * the level counts), checked against definitions by running each pattern
 * on rank intervals: every message must be mutual (v sends to w in a
 * round exactly when w receives from v), carry an interval that ends just
 * below the receiver's (so the receiver combines it on the left and the
 * result stays in rank order), and every position must end holding
 * exactly [0, v].  The up-down sweep: a position sends only what it will
 * not change again in the up-sweep (its block), down-sweep senders
 * already hold their full prefix, every position sends at most once in
 * the up-sweep, the rounds with messages are floor(lg P) up and
 * scan_sweep_down_rounds(P) down, and the messages in all at most 2P.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "patterns/scan.h"

#include "../lib/check.h"

enum { MAXP = 1100 };

static int lo[MAXP], hi[MAXP], nlo[MAXP], nhi[MAXP];

static int lg_ceil(int p) /* independent of scan_levels */
{
    int k = 0;
    while ((1 << k) < p)
        k++;
    return k;
}

/* One round: to(v) / from(v) give the peers; every receiver combines the
 * sender's interval (as it was before the round) on its left.  Returns
 * the number of messages, -1 on a failure (reported). */
typedef int (*peer_fn)(int v, int P, int level);
static int run_round(int P, int level, peer_fn to, peer_fn from, const char *what,
                     bool *sent_once)
{
    int msgs = 0;
    for (int v = 0; v < P; v++)
        nlo[v] = lo[v], nhi[v] = hi[v];
    for (int v = 0; v < P; v++) {
        const int w = to(v, P, level);
        if (w < 0)
            continue;
        if (!check(w > v && w < P && from(w, P, level) == v,
                   "%s P=%d level %d: %d sends to %d, which receives from %d", what, P, level, v,
                   w, w >= 0 && w < P ? from(w, P, level) : -2))
            return -1;
        if (sent_once) {
            if (!check(!sent_once[v], "%s P=%d: %d sends twice in the up-sweep", what, P, v))
                return -1;
            sent_once[v] = true;
        }
        msgs++;
    }
    for (int w = 0; w < P; w++) {
        const int v = from(w, P, level);
        if (v < 0)
            continue;
        if (!check(v >= 0 && v < w && to(v, P, level) == w,
                   "%s P=%d level %d: %d receives from %d, which sends to %d", what, P, level, w,
                   v, v >= 0 ? to(v, P, level) : -2))
            return -1;
        if (!check(hi[v] + 1 == lo[w], "%s P=%d level %d: %d combines [%d,%d] left of [%d,%d]",
                   what, P, level, w, lo[v], hi[v], lo[w], hi[w]))
            return -1;
        nlo[w] = lo[v];
    }
    for (int v = 0; v < P; v++)
        lo[v] = nlo[v], hi[v] = nhi[v];
    return msgs;
}

static int rd_to(int v, int P, int k) { return scan_rd_to(v, P, k); }
static int rd_from(int v, int P, int k)
{
    (void)P;
    return scan_rd_from(v, k);
}

static void all_prefixes(int P, const char *what)
{
    for (int v = 0; v < P; v++)
        if (!check(lo[v] == 0 && hi[v] == v, "%s P=%d: %d ends with [%d,%d]", what, P, v, lo[v],
                   hi[v]))
            return;
}

static void test_rd(int P)
{
    for (int v = 0; v < P; v++)
        lo[v] = hi[v] = v;
    check(scan_levels(P) == lg_ceil(P), "scan_levels(%d) = %d", P, scan_levels(P));
    for (int k = 0; k < scan_levels(P); k++)
        if (run_round(P, k, rd_to, rd_from, "rd", NULL) < 0)
            return;
    all_prefixes(P, "rd");
}

static void test_sweep(int P)
{
    static bool sent[MAXP];
    for (int v = 0; v < P; v++)
        lo[v] = hi[v] = v, sent[v] = false;
    const int L = scan_levels(P);
    int msgs = 0, up_rounds = 0, down_rounds = 0;
    for (int k = 0; k < L + 1; k++) { /* one level past the top: nothing */
        /* a position that has sent holds its final block: it receives no more */
        for (int w = 0; w < P; w++) {
            const int v = scan_up_from(w, P, k);
            if (v >= 0 && !check(!sent[w], "sweep P=%d: %d receives after sending", P, w))
                return;
        }
        const int m = run_round(P, k, scan_up_to, scan_up_from, "up", sent);
        if (m < 0)
            return;
        check(k < L || m == 0, "up P=%d: messages at level %d", P, k);
        msgs += m, up_rounds += m > 0;
    }
    for (int v = 0; v < P; v++) {
        const int x = v + 1, low = x & -x;
        if (!check(lo[v] == x - low && hi[v] == v, "up P=%d: %d holds [%d,%d], its block is [%d,%d]",
                   P, v, lo[v], hi[v], x - low, v))
            return;
    }
    for (int j = L; j >= 0; j--) {
        for (int v = 0; v < P; v++) {
            const int w = scan_down_to(v, P, j);
            if (w >= 0 && !check(lo[v] == 0, "down P=%d level %d: %d sends [%d,%d], not a prefix",
                                 P, j, v, lo[v], hi[v]))
                return;
        }
        const int m = run_round(P, j, scan_down_to, scan_down_from, "down", NULL);
        if (m < 0)
            return;
        check(j <= L - 2 || m == 0, "down P=%d: messages at level %d", P, j);
        msgs += m, down_rounds += m > 0;
    }
    all_prefixes(P, "sweep");
    check(msgs <= 2 * P, "sweep P=%d: %d messages", P, msgs);
    check(up_rounds == scan_sweep_up_rounds(P) && down_rounds == scan_sweep_down_rounds(P),
          "sweep P=%d: %d up and %d down rounds, counted %d and %d", P, up_rounds, down_rounds,
          scan_sweep_up_rounds(P), scan_sweep_down_rounds(P));
}

int main(void)
{
    for (int P = 1; P <= MAXP; P++) {
        test_rd(P);
        test_sweep(P);
    }
    /* the counts' closed forms at large P, and no overflow at the top level */
    const int big[] = {2047, 2048, 3 << 20, (1 << 30) + 7, 2147483647};
    for (unsigned i = 0; i < sizeof big / sizeof *big; i++) {
        const int P = big[i];
        int fl = 0, d = 0;
        while (((long long)2 << fl) <= P)
            fl++;
        while ((3LL << d) <= P)
            d++;
        check(scan_sweep_up_rounds(P) == fl && scan_sweep_down_rounds(P) == d,
              "P=%d: rounds %d + %d", P, scan_sweep_up_rounds(P), scan_sweep_down_rounds(P));
        check(scan_levels(P) == (P > (1 << 30) ? 31 : lg_ceil(P)), "scan_levels(%d)", P);
        const int top = scan_levels(P) - 1;
        check(scan_rd_to(P - 1, P, top) == -1 && scan_rd_from(P - 1, top) >= 0 &&
                  scan_up_to(P - 1, P, top) == -1 && scan_down_to(P - 1, P, top) == -1,
              "P=%d: the top level's peers", P);
    }
    return check_summary();
}
