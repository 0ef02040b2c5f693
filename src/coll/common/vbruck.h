/*
 * Variable-size Bruck exchange with per-round metadata (SLOAV, Xu et al.
 * 2013), over a group of participants, as a dynamic schedule fragment.
 *
 * n participants (comm ranks rank_of[0..n-1]) each hold one block of any
 * size for every participant.  Radix k: for each digit position of weight
 * w = k^x < n and each digit value v = 1..k-1 with v w < n, a participant
 * sends to (me + v w) mod n every block whose remaining distance has digit v
 * at that position, packed into one message, after a metadata message with
 * the sizes of those blocks (which only the sender knows: they came from
 * other participants).  After ceil(log_k n) positions every block has
 * travelled its distance.  Blocks are tracked where they lie (received
 * blocks stay where they arrived), so a block is copied only to pack it for
 * a send and once at the end, to its destination.
 *
 * Rounds: the metadata of position x+1 travels with the data of position x
 * (its sizes are known once position x's metadata has arrived), so the
 * exchange takes ceil(log_k n) + 1 rounds of at most 2(k-1) messages each.
 * Each round but the first is emitted from a resume, after the previous
 * one's metadata arrived.
 *
 * Memory: BUF_TMP from its size when vbruck_init is called onwards (an arena
 * holding the packed and received blocks of every step: at most 2 ceil(log_k
 * n) times the bytes exchanged), and 2 n int64 of BUF_TMP2 at meta_off,
 * which the caller declares and which must be allocated (declared before an
 * earlier round) when vbruck_round first runs, since it writes metadata there.
 */
#ifndef COLIBRI_COMMON_VBRUCK_H
#define COLIBRI_COMMON_VBRUCK_H

#include <stdbool.h>
#include <stdint.h>

#include "../../core/schedule.h"

/* Bytes of one block: buffer, byte offset, length. */
struct vb_block {
    int buf;
    int64_t off, len;
};

struct vbruck {
    int n, me, k;
    int *rank_of;           /* n: comm rank of each participant */
    struct vb_block *slot;  /* n: slot j holds the block now j participants short of its end */
    struct vb_block *dst;   /* n: where the block from each participant ends */
    struct vb_block *stage; /* k: packed blocks waiting to go, per digit value */
    int64_t w;              /* weight of the position whose data goes next; 0 before the first round */
    int64_t meta_off;       /* BUF_TMP2: n int64 sent, then n received */
};

/* src[j]: my block for participant j; dst[i]: where the block from
 * participant i goes (its length must be what i sends).  radix < 2 means 2.
 * Returns 0, or -1 when out of memory. */
int vbruck_init(struct vbruck *b, int n, int me, const int *rank_of, int radix,
                const struct vb_block *src, const struct vb_block *dst, int64_t meta_off);
void vbruck_free(struct vbruck *b);

/* Adds the next round's operations to the open round of s (without closing
 * it, so the caller may add its own), reading the metadata the previous
 * round brought from buf[BUF_TMP2] and writing the next into it.  Returns
 * true when that was the last round (its copies put every block at dst). */
bool vbruck_round(struct vbruck *b, struct schedule *s, void *const buf[]);

/* Rounds and messages per participant (every participant sends to k - 1
 * peers per position, and k - 1 more metadata messages but in the last
 * round): for cost models. */
int vbruck_positions(int n, int radix);

#endif
