/*
 * patterns/neighbor.h, exhaustively for every even p = 2..400 and every
 * rank, against its definition: partners are mutual and neighbours (the
 * pair partner at even steps, 2m-1 and 2m+2 at odd ones); what a rank
 * sends at a step is what its partner receives then; a rank sends only a
 * pair-block it holds (its own pair's after step 0, or one received at an
 * earlier step); and after the h steps every rank holds every pair-block,
 * each received once.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "patterns/neighbor.h"

#include "../lib/check.h"

enum { MAXP = 400 };

static void test_p(int p)
{
    const int h = nx_steps(p);
    bool ok = h == p / 2;
    static int got[MAXP][MAXP / 2]; /* [rank][pair]: the step it arrived at + 1 */
    memset(got, 0, sizeof got);
    for (int r = 0; r < p; r++)
        got[r][r / 2] = 1; /* its own pair: after step 0 */
    for (int t = 0; t < h; t++) {
        for (int r = 0; r < p; r++) { /* the step against what was held before it */
            const int q = nx_partner(r, p, t);
            ok = ok && q >= 0 && q < p && q != r && nx_partner(q, p, t) == r;
            ok = ok && (t % 2 == 0 ? q / 2 == r / 2 : (q - r + p) % p == (r % 2 ? 1 : p - 1));
            if (t == 0)
                continue;
            const int sp = nx_send_pair(r, p, t), rp = nx_recv_pair(r, p, t);
            ok = ok && sp >= 0 && sp < h && rp >= 0 && rp < h;
            ok = ok && nx_send_pair(q, p, t) == rp;        /* partner sends what I receive */
            ok = ok && got[r][sp] >= 1 && got[r][sp] <= t; /* held before this step */
            ok = ok && got[r][rp] == 0;                    /* new to me */
        }
        for (int r = 0; r < p && t; r++)
            got[r][nx_recv_pair(r, p, t)] = t + 1;
    }
    for (int r = 0; r < p; r++)
        for (int m = 0; m < h; m++)
            ok = ok && got[r][m] > 0;
    check(ok, "neighbour exchange p=%d", p);
}

int main(void)
{
    for (int p = 2; p <= MAXP; p += 2)
        test_p(p);
    return check_summary();
}
