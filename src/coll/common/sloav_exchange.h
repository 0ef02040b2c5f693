/*
 * The SLOAV exchange (Xu et al., CCGrid 2013) as a fragment of a dynamic
 * schedule, over any group of participants: radix-k Bruck exchange of
 * variable-size blocks with per-slot size metadata, pipelined one digit
 * ahead of the data (patterns/sloav.h has the index arithmetic).
 *
 * n participants (ranks rank_of[0..n-1] of the communicator) each hold one
 * block for every participant, anywhere in the schedule's buffers, and say
 * where each block they receive goes.  Flat SLOAV (alltoallv/sloav.c) runs
 * it over all ranks with blocks in SEND and RECV; SLOAVx (alltoallv/
 * sloavx.c) over the node leaders with node-aggregated blocks in the node's
 * shared segment.
 *
 * Rounds (one executor round each):
 *   B        local: own block to its destination, pack digit 0's slots
 *   R1       metadata(0)
 *   R(d+1)   data(d-1) + metadata(d)       d = 1 .. D-1
 *   R(D+1)   data(D-1)
 * D = ceil(log_k n); each with at most 2(k-1) messages.  Metadata is one
 * int64 byte count per slot a sub-round moves: blocks are forwarded by
 * participants that do not know their sizes.  A block is copied to its
 * destination as soon as it arrives there.
 *
 * Scratch.  BUF_TMP starts with two metadata arrays (send, receive; n-1
 * int64 each, written and read through buf[] by the resume).  Digit d's
 * arena lives in BUF_TMP (d even, after the metadata) or BUF_TMP2 (d odd):
 * [packed slots moving at d, by v | other live slots | receive area of d].
 * Building arena d copies every live slot out of arena d-1, so the arena
 * two digits back is dead and reused.  Sizes grow as metadata arrives
 * (tmp_count raised from resume; the executor keeps contents).  A slot that
 * has not moved yet is read from its source, unless `in_place`: then the
 * sources share memory with the destinations, and round B copies every
 * outgoing block to scratch before the first block is delivered (end of R2).
 *
 * Mismatched sizes (a block's size differs from its destination's length,
 * an erroneous program): message sizes still agree on both sides (they come
 * from the metadata), so nobody deadlocks; min(size, length) bytes are
 * copied, and a block longer than its destination sets s->truncated.
 */
#ifndef COLIBRI_COMMON_SLOAV_EXCHANGE_H
#define COLIBRI_COMMON_SLOAV_EXCHANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../sched/schedule.h"

/* Bytes of one block: buffer, byte offset, length. */
struct sx_block {
    int buf;
    int64_t off, len;
};

struct sloav_group {
    int n, me;                   /* participants, and my index among them */
    const int *rank_of;          /* n: communicator rank of each (NULL: identity) */
    int radix;                   /* k (< 2: patterns/sloav.h's default) */
    const struct sx_block *src;  /* n: my block for each participant */
    const struct sx_block *dst;  /* n: where the block from each goes */
    bool in_place;               /* src and dst share memory (see above) */
};

struct sloav_exchange {
    int n, me, k, D;
    int d;                  /* the next round is R(d+1) */
    bool in_place;
    int64_t meta;           /* bytes of each metadata array */
    int *rank_of;           /* n */
    int64_t *size;          /* n: current bytes of each slot */
    int64_t *off;           /* n: where each slot lives */
    uint8_t *buf;           /* n: ... in which buffer */
    bool *done;             /* n: delivered (or own) */
    struct sx_block *dst;   /* n: copy of the group's */
    /* Per value v of the digit in flight (k entries each): */
    int64_t *cnt, *moff;         /* slots with that digit, their first metadata index */
    int64_t *pack_off, *pack_len;/* the packed message to me + v w */
    int64_t *recv_off;           /* the message from me - v w */
    int64_t *seen;               /* scratch: slots of each value placed so far */
    int64_t recv_base;           /* receive area of the current arena */
};

/* Sets up the exchange; returns 0, or -1 when out of memory. */
int sloav_exchange_init(struct sloav_exchange *x, const struct sloav_group *g);
void sloav_exchange_free(struct sloav_exchange *x);

/* Round B: adds its copies to the schedule's open round and closes it (with
 * a one-byte scratch copy if it would be empty: the next round's resume
 * writes metadata into BUF_TMP, which the executor binds when it runs a
 * round).  Returns whether rounds follow (n > 1): then the caller's resume
 * calls sloav_exchange_round until it returns true. */
bool sloav_exchange_start(struct sloav_exchange *x, struct schedule *s);

/* From a resume, after the previous round ran: appends and closes the next
 * round.  Returns true when that round was the last. */
bool sloav_exchange_round(struct sloav_exchange *x, struct schedule *s, void *const buf[]);

/* The radix a group of n uses for a requested radix (< 2: default). */
int sloav_exchange_radix(int n, int radix);

#endif
