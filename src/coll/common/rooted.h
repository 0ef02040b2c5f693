/*
 * Schedule fragments of the binomial gather and scatter (gather/binomial.c,
 * scatter/binomial.c): the binomial tree over ranks counted from the root,
 * x = (rank - root) mod p, whose subtrees are runs of relative ranks
 * (patterns/blocks.h): x's subtree is [x, blocks_subtree_end(x)), its
 * children are x + 1, x + 2, x + 4, ... below x + lowbit(x).
 *
 * A subtree's blocks travel as one run: at the root they are the blocks of
 * absolute ranks (x + root) mod p, in place in the user's buffer (RECV of
 * a gather, SEND of a scatter, block j at j c); at any other rank they sit
 * in its scratch, relative block r at (r - x) c of TMP.  A run of relative
 * blocks passes absolute block p-1 when the root is not rank 0: it is cut
 * there (blocks_wrap, on absolute ranks), and each piece is one message,
 * cut the same way at both ends.
 */
#ifndef COLIBRI_COMMON_ROOTED_H
#define COLIBRI_COMMON_ROOTED_H

#include <stdbool.h>

#include "../../patterns/blocks.h"
#include "../../sched/schedule.h"

/* Sends (send) or receives the relative blocks [lo, hi) to or from `peer`
 * (an absolute rank), c bytes each: at the root (x = 0) in root_buf at
 * their absolute places, elsewhere in TMP from relative block x. */
static inline void rooted_run(struct schedule *s, bool send, int peer, int lo, int hi, int x,
                              int root, int p, int64_t c, int root_buf)
{
    int start[2], len[2];
    const int pieces = blocks_wrap((lo + root) % p, hi - lo, p, start, len);
    for (int i = 0; i < pieces; i++) {
        const int rel = (start[i] - root + p) % p;
        const int buf = x ? BUF_TMP : root_buf;
        const int64_t off = x ? (int64_t)(rel - x) * c : (int64_t)start[i] * c;
        if (send)
            sched_send(s, peer, buf, off, len[i] * c);
        else
            sched_recv(s, peer, buf, off, len[i] * c);
    }
}

#endif
