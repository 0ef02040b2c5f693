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
 * 5e-11, the cost model's default gamma).  Copies between private buffers
 * are not charged: they are the same in every algorithm's baseline and SMPI
 * does not charge the MPI library's own copies either.  Anywhere else the
 * hook compiles to nothing.
 */
#ifndef COLIBRI_SHM_CHARGE_H
#define COLIBRI_SHM_CHARGE_H

#include "call.h"

#ifdef COLIBRI_SMPI
/* Charges the local operation `op` (SOP_COPY or SOP_REDUCE) of call `c` if
 * it touches the shared segment. */
void shm_charge(const struct coll_call *c, const struct sched_op *op);
/* The simulated seconds shm_charge charges for `op` (0 when it does not
 * touch the segment); exposed for tests and dry runs. */
double shm_charge_seconds(const struct coll_call *c, const struct sched_op *op);
#else
static inline void shm_charge(const struct coll_call *c, const struct sched_op *op)
{
    (void)c, (void)op;
}
#endif

#endif
