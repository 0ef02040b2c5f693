/*
 * patterns/butterfly.h and the recursive-halving layout of
 * patterns/halving.h, exhaustively: p = 1..300 with the plain fold, and
 * every root of every p = 1..80 with the rooted fold.  Checked against the
 * definitions, not the headers' arithmetic:
 *  - L = floor(lg p); exactly 2^L ranks survive, their virtual ranks are
 *    0..2^L-1 in rank order (what keeps non-commutative reductions exact);
 *  - folded pairs are (2i, 2i+1) for i < p - 2^L, one of each sits out, the
 *    `extra` links are mutual, and a reduce's root never sits out;
 *  - peer[i] is the survivor whose virtual rank is v ^ 2^i, and peers are
 *    mutual;
 *  - halving_layout: folded block b holds the outputs of the ranks that
 *    fold into virtual rank b, nat partitions the input in rank order, and
 *    position q of the permuted vector is block bit_reverse(q) (where
 *    virtual rank bit_reverse(q) ends a halving).
 */
#include <stdio.h>
#include <stdlib.h>

#include "patterns/butterfly.h"
#include "patterns/halving.h"
#include "../lib/check.h"


enum { P = 300 };
static struct butterfly bf[P];

static void roles(int p, int root)
{
    int L = 0;
    while ((2 << L) <= p)
        L++;
    const int pof2 = 1 << L, rem = p - pof2;
    for (int r = 0; r < p; r++)
        butterfly_init(&bf[r], r, p, root);
    int survivors = 0, last_v = -1;
    bool ordered = true, mutual = true, pairs = true, peers = true;
    for (int r = 0; r < p; r++) {
        const struct butterfly *b = &bf[r];
        check(b->L == L, "p=%d root=%d rank %d: L=%d, expected %d", p, root, r, b->L, L);
        if (b->v >= 0) {
            ordered &= b->v == last_v + 1;
            last_v = b->v;
            survivors++;
        }
        /* folded pairs: (2i, 2i+1), i < rem, one of each sits out */
        const bool in_pair = r < 2 * rem;
        pairs &= butterfly_folded(b) == in_pair;
        if (in_pair) {
            pairs &= b->extra == (r % 2 ? r - 1 : r + 1);
            const struct butterfly *o = &bf[b->extra];
            mutual &= o->extra == r && (o->v < 0) != (b->v < 0);
        } else {
            pairs &= b->extra == -1 && b->v >= 0;
        }
        for (int i = 0; i < BUTTERFLY_MAXL; i++) {
            if (b->v < 0 || i >= L) {
                peers &= b->peer[i] == -1;
                continue;
            }
            const int q = b->peer[i];
            peers &= q >= 0 && q < p && bf[q].v == (b->v ^ 1 << i);
        }
    }
    for (int r = 0; r < p; r++)
        for (int i = 0; i < L && bf[r].v >= 0; i++)
            peers &= bf[r].peer[i] >= 0 && bf[r].peer[i] < p && bf[bf[r].peer[i]].peer[i] == r;
    check(survivors == pof2, "p=%d root=%d: %d survivors, expected %d", p, root, survivors, pof2);
    check(ordered, "p=%d root=%d: virtual ranks not 0..2^L-1 in rank order", p, root);
    check(pairs, "p=%d root=%d: folded pairs are not (2i, 2i+1), i < rem", p, root);
    check(mutual, "p=%d root=%d: extra links not mutual / both or none sit out", p, root);
    check(peers, "p=%d root=%d: peers are not v ^ 2^i, mutually", p, root);
    if (root >= 0)
        check(bf[root].v >= 0, "p=%d: root %d sits out", p, root);
}

static void layout(int p, const int64_t *counts)
{
    int L = 0;
    while ((2 << L) <= p)
        L++;
    const int pof2 = 1 << L;
    int64_t nat[P + 1], pos[P + 1], block[P], total = 0;
    for (int b = 0; b < pof2; b++)
        block[b] = 0;
    for (int r = 0; r < p; r++) {
        butterfly_init(&bf[r], r, p, -1);
        total += counts[r];
    }
    /* folded block b: the outputs of the ranks that end up as virtual rank b */
    for (int r = 0; r < p; r++)
        block[bf[r].v >= 0 ? bf[r].v : bf[bf[r].extra].v] += counts[r];
    halving_layout(counts, p, nat, pos);
    bool ok = nat[0] == 0 && pos[0] == 0 && nat[pof2] == total && pos[pof2] == total;
    for (int b = 0; b < pof2; b++) {
        ok &= nat[b + 1] - nat[b] == block[b] && halving_folded_count(counts, p, b) == block[b];
        int q = 0; /* the position that holds block b: bit_reverse(b), by hand */
        for (int i = 0; i < L; i++)
            q |= (b >> i & 1) << (L - 1 - i);
        ok &= pos[q + 1] - pos[q] == block[b];
    }
    /* natural order: block b starts where the outputs of lower ranks end */
    int64_t before = 0;
    for (int r = 0; r < p; r++) {
        const int b = bf[r].v >= 0 ? bf[r].v : bf[bf[r].extra].v;
        if (!butterfly_folded(&bf[r]) || r % 2 == 0) /* the first rank of its block */
            ok &= nat[b] == before;
        before += counts[r];
    }
    check(ok, "p=%d: halving layout does not match the folded blocks", p);
}

int main(void)
{
    int64_t counts[P];
    unsigned seed = 12345;
    for (int p = 1; p <= P; p++) {
        roles(p, -1);
        if (p <= 80)
            for (int root = 0; root < p; root++)
                roles(p, root);
        for (int trial = 0; trial < 3; trial++) {
            for (int r = 0; r < p; r++) {
                seed = seed * 1103515245u + 12345u;
                counts[r] = trial == 0 ? 1 : trial == 1 ? r % 3 : (int64_t)((seed >> 16) % 100);
            }
            layout(p, counts);
        }
    }
    return check_summary();
}
