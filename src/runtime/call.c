/* What every call needs whatever its collective: the MPI name of its form
 * (for errors), and datatype facts the executor needs: extents, and whether
 * plain memory copies are exact for it. */
#include "call.h"

static const char *const fnames[CALL_KINDS][COLIBRI_NCOLL] = {
    {"MPI_Allreduce", "MPI_Reduce", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block",
     "MPI_Alltoall", "MPI_Alltoallv", "MPI_Allgather", "MPI_Bcast", "MPI_Barrier",
     "MPI_Allgatherv", "MPI_Gather", "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv", [COLIBRI_SCAN] = "MPI_Scan", [COLIBRI_EXSCAN] = "MPI_Exscan"},
    {"MPI_Iallreduce", "MPI_Ireduce", "MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block",
     "MPI_Ialltoall", "MPI_Ialltoallv", "MPI_Iallgather", "MPI_Ibcast", "MPI_Ibarrier",
     "MPI_Iallgatherv", "MPI_Igather", "MPI_Igatherv", "MPI_Iscatter", "MPI_Iscatterv", [COLIBRI_SCAN] = "MPI_Iscan", [COLIBRI_EXSCAN] = "MPI_Iexscan"},
    {"MPI_Allreduce_init", "MPI_Reduce_init", "MPI_Reduce_scatter_init",
     "MPI_Reduce_scatter_block_init", "MPI_Alltoall_init", "MPI_Alltoallv_init",
     "MPI_Allgather_init", "MPI_Bcast_init", "MPI_Barrier_init", "MPI_Allgatherv_init",
     "MPI_Gather_init", "MPI_Gatherv_init", "MPI_Scatter_init", "MPI_Scatterv_init", [COLIBRI_SCAN] = "MPI_Scan_init", [COLIBRI_EXSCAN] = "MPI_Exscan_init"}};

const char *coll_fname(colibri_coll coll, enum call_kind kind)
{
    return fnames[kind][coll];
}

int dtinfo_init(MPI_Datatype dt, struct dtinfo *d)
{
    MPI_Aint lb;
    int rc = PMPI_Type_get_extent(dt, &lb, &d->extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_true_extent(dt, &d->true_lb, &d->true_extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_size(dt, &d->size);
    d->contiguous = rc == MPI_SUCCESS && d->true_lb == 0 && (MPI_Aint)d->size == d->extent &&
                    d->extent == d->true_extent;
    return rc;
}
