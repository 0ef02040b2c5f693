/*
 * patterns/dissemination.h: for every N up to 300 nodes and radix 2 to 20,
 * simulated on sets of nodes, every node holds every node's value after
 * dis_rounds(N, k) rounds and not one round earlier (the round count is
 * the least), the partners of a round are each other's (n sends to m for
 * j exactly when m receives from n for j), and a round's partners are
 * distinct nodes other than n itself (no rail idles on a duplicate).
 * As an allgather (N up to 300, radix 2 to 20): every slot is written once,
 * by a message whose count both ends agree on, with the value its slot
 * says (dis_slot_node), only from slots the sender already holds, and
 * every slot of every node is full after the last round.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patterns/dissemination.h"

#include "../lib/check.h"

enum { NMAX = 300 };

/* The allgather of node ids over N nodes, radix k, slots as in
 * dissemination.h. */
static void test_allgather(int N, int k)
{
    static int slot[NMAX][NMAX], next[NMAX][NMAX];
    for (int n = 0; n < N; n++)
        for (int i = 0; i < N; i++)
            slot[n][i] = i == 0 ? n : -1;
    bool ok = true;
    for (int t = 0; t < dis_rounds(N, k) && ok; t++) {
        const long long D = dis_distance(k, t);
        memcpy(next, slot, sizeof slot);
        for (int n = 0; n < N && ok; n++) {
            for (int j = 1; j < k && dis_active(N, j, D) && ok; j++) {
                const int from = dis_from(n, j, D, N);
                const long long c = dis_count(N, j, D);
                /* the sender's count for this message is its own dis_count(N, j, D):
                 * the same j and D, so trivially equal; what matters is the range */
                ok = c >= 1 && c <= D && j * D + c <= N;
                for (long long i = 0; ok && i < c; i++) {
                    ok = slot[from][i] >= 0 && next[n][j * D + i] == -1 &&
                         slot[from][i] == dis_slot_node(n, j * D + i, N);
                    next[n][j * D + i] = slot[from][i];
                }
            }
        }
        memcpy(slot, next, sizeof slot);
    }
    for (int n = 0; n < N && ok; n++)
        for (int i = 0; i < N && ok; i++)
            ok = slot[n][i] == dis_slot_node(n, i, N);
    check(ok, "allgather N=%d k=%d: a slot written twice, wrongly, from an empty slot or never", N, k);
}

int main(void)
{
    static bool have[NMAX][NMAX], next[NMAX][NMAX];
    for (int N = 1; N <= NMAX; N++) {
        for (int k = 2; k <= 20; k++) {
            memset(have, 0, sizeof have);
            for (int n = 0; n < N; n++)
                have[n][n] = true;
            const int rounds = dis_rounds(N, k);
            bool ok = true, full_early = false;
            for (int t = 0; t < rounds && ok; t++) {
                const long long D = dis_distance(k, t);
                memcpy(next, have, sizeof have);
                for (int n = 0; n < N && ok; n++) {
                    for (int j = 1; j < k && dis_active(N, j, D); j++) {
                        const int from = dis_from(n, j, D, N), to = dis_to(n, j, D, N);
                        ok = from != n && to != n && dis_from(to, j, D, N) == n &&
                             dis_to(from, j, D, N) == n;
                        for (int j2 = 1; ok && j2 < j; j2++)
                            ok = dis_from(n, j2, D, N) != from;
                        for (int m = 0; m < N; m++)
                            next[n][m] |= have[from][m];
                    }
                }
                memcpy(have, next, sizeof have);
                if (t == rounds - 2) {
                    full_early = true;
                    for (int n = 0; n < N; n++)
                        for (int m = 0; m < N; m++)
                            full_early &= have[n][m];
                }
            }
            check(ok, "N=%d k=%d: partners inconsistent", N, k);
            bool full = true;
            for (int n = 0; n < N; n++)
                for (int m = 0; m < N; m++)
                    full &= have[n][m];
            check(full, "N=%d k=%d: not every node's value after %d rounds", N, k, rounds);
            check(!full_early, "N=%d k=%d: %d rounds where %d do", N, k, rounds, rounds - 1);
        }
    }
    for (int N = 1; N <= NMAX; N++)
        for (int k = 2; k <= 20; k++)
            test_allgather(N, k);
    check(dis_rounds(64, 17) == 2 && dis_rounds(256, 17) == 2 && dis_rounds(1, 2) == 0 &&
              dis_rounds(2, 2) == 1 && dis_rounds(1024, 2) == 10,
          "dis_rounds at the seed's shapes");
    return check_summary();
}
