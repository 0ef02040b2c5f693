/*
 * Simulated time for work on a node's shared segment (BUF_SHM).
 *
 * Under SimGrid SMPI the simulated ranks of a node share memory for free: a
 * copy into or out of the segment, or a reduction reading it, costs no
 * simulated time, which flatters every node-aware algorithm against one that
 * sends messages (each charged latency, bandwidth and, with smpi/os,
 * smpi/or, smpi/ois, a per-message overhead).  In an SMPI build
 * (COLIBRI_SMPI, set by `make sim`) the executor therefore charges each
 * local copy or reduction that reads or writes BUF_SHM as computation on the
 * rank's core (smpi_execute_flops at the host's own speed):
 *
 *     copy of n bytes:       n / B
 *     reduction of n bytes:  n / B + n * gamma
 *
 * B = COLIBRI_SHM_BANDWIDTH bytes/s (default 1e10: one core's memcpy out of
 * cache on current servers), gamma = COLIBRI_SHM_GAMMA s/byte (default
 * 5e-11, the cost model's default gamma).  The executor sums the time of
 * a run of such operations and charges it at once, before the next flag
 * operation and at the end of the round's local operations: the same
 * simulated time as one charge per operation, one simulation action
 * instead of thousands (a 4096-rank SLOAVx copies 4096 blocks per rank).
 * Copies between private buffers
 * are not charged: they are the same in every algorithm's baseline and SMPI
 * does not charge the MPI library's own copies either.  Anywhere else the
 * hook compiles to nothing.
 */
#ifndef COLIBRI_SHM_CHARGE_H
#define COLIBRI_SHM_CHARGE_H

#include "call.h"

#ifdef COLIBRI_SMPI
/* Adds the simulated time of the local operation `op` (SOP_COPY or
 * SOP_REDUCE) of call `c`, if it touches the shared segment, to *pending. */
void shm_charge_add(double *pending, const struct coll_call *c, const struct sched_op *op);
/* Charges *pending on the rank's core, and zeroes it. */
void shm_charge_flush(double *pending);
/* The simulated seconds of `op` (0 when it does not touch the segment);
 * exposed for tests and dry runs. */
double shm_charge_seconds(const struct coll_call *c, const struct sched_op *op);
#else
static inline void shm_charge_add(double *pending, const struct coll_call *c,
                                  const struct sched_op *op)
{
    (void)pending, (void)c, (void)op;
}
static inline void shm_charge_flush(double *pending) { (void)pending; }
#endif

#endif
