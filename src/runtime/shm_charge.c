/* Simulated time for shared-segment copies and reductions (shm_charge.h). */
#include "shm_charge.h"

#ifdef COLIBRI_SMPI
#include <simgrid/host.h>

#include "../config/config.h"

double shm_charge_seconds(const struct coll_call *c, const struct sched_op *op)
{
    if (op->src_buf != BUF_SHM && op->dst_buf != BUF_SHM)
        return 0.0;
    if (op->kind != SOP_COPY && op->kind != SOP_REDUCE)
        return 0.0;
    const struct config *cfg = config_get();
    /* offsets and counts are in elements of the call's datatype (bytes for
     * alltoall(v), whose datatype is MPI_BYTE) */
    const double bytes = (double)op->count * (double)c->dti.size;
    double t = bytes / cfg->shm_bandwidth;
    if (op->kind == SOP_REDUCE)
        t += bytes * cfg->shm_gamma;
    return t;
}

void shm_charge_add(double *pending, const struct coll_call *c, const struct sched_op *op)
{
    *pending += shm_charge_seconds(c, op);
}

void shm_charge_flush(double *pending)
{
    /* Flops at this host's own speed, so that the time is charged whatever
     * the platform: smpi_execute(t) would scale t by smpi/host-speed (20
     * kf/s by default) against the host's speed, and skips anything under
     * smpi/cpu-threshold (1 us). */
    if (*pending > 0.0)
        smpi_execute_flops(*pending * sg_host_get_speed(sg_host_self()));
    *pending = 0.0;
}
#else
/* ISO C wants a translation unit to declare something. */
typedef int shm_charge_unused;
#endif
