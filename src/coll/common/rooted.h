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
 * cut the same way at both ends.  The v forms' trees (gatherv/binomial.c,
 * scatterv/binomial.c) send a run as one message whatever its blocks'
 * places: at the root straight from or into the user's buffer where they
 * lie back to back there, else through TMP (rooted_v_run, rooted_v_copy).
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

/* The v forms at the root (gatherv/binomial.c, scatterv/binomial.c): the
 * relative blocks [lo, hi) of a child's subtree, block j of n[j] bytes at
 * d[j] of the root's buffer (absolute j = (rel + root) mod p).  Returns
 * their bytes; *at gets where they start when they lie back to back there
 * in relative rank order (empty blocks anywhere; 0 when all are empty),
 * else -1, and they go through scratch. */
static inline int64_t rooted_v_run(const int64_t *n, const int64_t *d, int lo, int hi, int root,
                                   int p, int64_t *at)
{
    int64_t len = 0, first = -1, next = -1;
    bool packed = true;
    for (int r = lo; r < hi; r++) {
        const int j = (r + root) % p;
        if (!n[j])
            continue;
        if (first < 0)
            first = d[j];
        else if (d[j] != next)
            packed = false;
        next = d[j] + n[j];
        len += n[j];
    }
    *at = packed ? (first < 0 ? 0 : first) : -1;
    return len;
}

/* Copies those blocks between their places in the root's buffer `user`
 * and TMP from `off` on, back to back in relative rank order (to_user:
 * TMP to the buffer, a gatherv's; else the other way, a scatterv's),
 * blocks adjacent at both ends as one copy. */
static inline void rooted_v_copy(struct schedule *s, const int64_t *n, const int64_t *d, int lo,
                                 int hi, int root, int p, int user, int64_t off, bool to_user)
{
    int64_t run_tmp = 0, run_user = 0, run_len = 0;
    for (int r = lo; r < hi; r++) {
        const int j = (r + root) % p;
        if (!n[j])
            continue;
        if (run_len && d[j] != run_user + run_len) {
            if (to_user)
                sched_copy(s, BUF_TMP, run_tmp, user, run_user, run_len);
            else
                sched_copy(s, user, run_user, BUF_TMP, run_tmp, run_len);
            run_len = 0;
        }
        if (!run_len)
            run_tmp = off, run_user = d[j];
        run_len += n[j];
        off += n[j];
    }
    if (to_user)
        sched_copy(s, BUF_TMP, run_tmp, user, run_user, run_len);
    else
        sched_copy(s, user, run_user, BUF_TMP, run_tmp, run_len);
}

#endif
