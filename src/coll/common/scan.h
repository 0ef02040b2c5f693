/*
 * The prefix patterns (patterns/scan.h) as schedule fragments, shared by
 * the scan and exscan algorithms.  Positions v = rank - shift over P
 * positions; the running partial is in BUF_RECV, a received one lands in
 * BUF_TMP (n elements) and is combined as the left operand.
 */
#ifndef COLIBRI_COMMON_SCAN_H
#define COLIBRI_COMMON_SCAN_H

#include "../../sched/schedule.h"

/* Recursive doubling over positions 0..P-1, peers v + shift. */
void scan_rd_rounds(struct schedule *s, int v, int P, int shift, int64_t n);
/* The up-down sweep over positions 0..P-1, peers v + shift. */
void scan_sweep_rounds(struct schedule *s, int v, int P, int shift, int64_t n);
/* An exclusive scan's first step: rank r's input moves to rank r + 1's
 * BUF_RECV (through BUF_TMP when r + 1 is in place, whose input is there). */
void exscan_shift_round(struct schedule *s, int rank, int size, int64_t n, bool in_place);

/* Pipelined chain: rank r receives segment c of the prefix [0, r-1] from
 * r - 1 while it sends segment c - 1 of what it passes on to r + 1, the
 * segments `seg` elements long.  Inclusive (scan) or exclusive (exscan). */
void scan_chain_build(const struct sched_params *p, struct schedule *s, int64_t seg,
                      bool exclusive);

#endif
