/* Datatype facts the executor needs: extents, and whether plain memory
 * copies are exact for it. */
#include "call.h"

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
