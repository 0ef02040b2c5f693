/*
 * The SLOAV exchange (Xu et al., CCGrid 2013) as a fragment of a dynamic
 * schedule, over any group of participants: radix-k Bruck exchange of
 * variable-size blocks (patterns/radix.h has the index arithmetic), each
 * message carrying the sizes of the blocks it forwards in front of them.
 *
 * n participants (ranks rank_of[0..n-1] of the communicator) each hold one
 * block for every participant, anywhere in the schedule's buffers, and say
 * where each block they receive goes.  Flat SLOAV (alltoallv/sloav.c) runs
 * it over all ranks with blocks in SEND and RECV.  (SLOAVx no longer
 * runs it over node leaders: with node-aggregated blocks of L^2 n bytes
 * the forwarding costs the node's port more than the messages it saves;
 * alltoallv/sloavx.c.)
 *
 * Messages.  The k-1 sub-rounds of digit d (one per value v of the digit)
 * run in one round, each ONE message to the peer me + v k^d:
 *     [ c int64 sizes | the c blocks, packed ]
 * c = the number of slots with digit v (the same on every participant).
 * Blocks are forwarded by participants that do not know their sizes, so
 * the sizes travel with them (Fan et al., HPDC'22, send them as a separate
 * message first; one message is half the per-message overheads and no
 * round that carries only sizes).  The receiver posts the message as an
 * upper bound (SOP_UPTO): the sizes, plus at most `cap` data bytes, cap =
 * min(c * largest block, SX_CAP_KNOWN) where every participant knows the
 * largest block (automatic selection agreed on it), else SX_CAP.  A message whose
 * blocks exceed cap sends the first cap bytes and the rest in an overflow
 * message of the next round, which the receiver sizes from the header.
 *
 * Rounds (executor rounds; L = local operations only, no message):
 *   L      own block to its destination (round B, sloav_exchange_start)
 *   L      pack digit 0: its messages' sizes and blocks
 *   M0     digit 0's messages
 *   O0+L   overflow of digit 0 (only where a message exceeded cap), then
 *          deliver what arrived at its destination, pack digit 1
 *   M1 ... M(D-1), O(D-1)+L
 * D = ceil(log_k n) rounds with messages, D more with overflows only when
 * blocks are large.  A block is copied to its destination as soon as it
 * arrives there.
 *
 * Scratch.  BUF_TMP starts with the header staging array (n-1 int64): the
 * resume writes the next digit's sizes there and copies them in front of
 * each packed message.  Digit d's arena lives in BUF_TMP (d even, after the
 * staging array) or BUF_TMP2 (d odd):
 *     [message v=1 | v=2 | ... | other live slots | receive areas | overflow areas]
 * Building arena d copies every live slot out of arena d-1, so the arena
 * two digits back is dead and reused.  Sizes grow as headers arrive
 * (tmp_count raised from resume; the executor keeps contents).  A slot that
 * has not moved yet is read from its source, unless `in_place`: then the
 * sources share memory with the destinations, and every outgoing block is
 * copied to scratch (packing digit 0) before the first block is delivered.
 *
 * Mismatched sizes (a block's size differs from its destination's length,
 * an erroneous program): message sizes still agree on both sides (they come
 * from the headers), so nobody deadlocks; min(size, length) bytes are
 * copied, and a block longer than its destination sets s->truncated.
 */
#ifndef COLIBRI_COMMON_SLOAV_EXCHANGE_H
#define COLIBRI_COMMON_SLOAV_EXCHANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../sched/schedule.h"

/* The most data bytes a receiver reserves for one message before it has
 * read the message's header (see above): when the largest block is agreed
 * (reserved memory a correct program fills when its blocks are equal), and
 * when it is not (an eager limit: small blocks need no second message). */
#define SX_CAP_KNOWN ((int64_t)1 << 20)
#define SX_CAP ((int64_t)4096)

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
    /* The largest block of any participant, the same on all (0: unknown). */
    int64_t max_block;
};

struct sloav_exchange {
    int n, me, k, D;
    int d;                  /* digit of the messages in flight (-1: none yet) */
    bool in_place;
    int64_t max_block;
    int64_t stage;          /* bytes of the header staging array */
    int *rank_of;           /* n */
    int64_t *size;          /* n: current bytes of each slot */
    int64_t *off;           /* n: where each slot lives */
    uint8_t *buf;           /* n: ... in which buffer */
    bool *done;             /* n: delivered (or own) */
    struct sx_block *dst;   /* n: copy of the group's */
    /* Per value v of the digit in flight (k entries each): */
    int64_t *cnt, *moff;         /* slots with that digit, their first header index */
    int64_t *pack_off, *pack_len;/* the message to me + v w: header offset, data bytes */
    int64_t *recv_off;           /* the message from me - v w: where it lands */
    int64_t *seen;               /* scratch: slots of each value placed so far */
    int64_t end;                 /* first free byte of the current arena */
};

/* Sets up the exchange; returns 0, or -1 when out of memory. */
int sloav_exchange_init(struct sloav_exchange *x, const struct sloav_group *g);
void sloav_exchange_free(struct sloav_exchange *x);

/* Round B: adds its copies to the schedule's open round and closes it.
 * Returns whether rounds follow (n > 1): then the caller's resume calls
 * sloav_exchange_round until it returns true. */
bool sloav_exchange_start(struct sloav_exchange *x, struct schedule *s);

/* From a resume, after the previous round ran: appends the next rounds.
 * Returns true when the last of them is appended. */
bool sloav_exchange_round(struct sloav_exchange *x, struct schedule *s, void *const buf[]);

/* The radix a group of n uses for a requested radix (< 2: default). */
int sloav_exchange_radix(int n, int radix);

/* What one participant's exchange costs when every block has `block` bytes
 * (the cost models' and the dry-run tests' shape): rounds with messages,
 * messages sent (as many received), blocks forwarded (each with its 8-byte
 * size); max_block as in struct sloav_group. */
struct sx_shape {
    int rounds;
    int64_t msgs, blocks;
};
void sloav_exchange_shape(int n, int k, int64_t block, int64_t max_block, struct sx_shape *sh);

/* The data bytes a receiver reserves for a message of c blocks (see above). */
static inline int64_t sloav_exchange_cap(int64_t c, int64_t max_block)
{
    if (max_block <= 0)
        return SX_CAP;
    return c * max_block < SX_CAP_KNOWN ? c * max_block : SX_CAP_KNOWN;
}

#endif
