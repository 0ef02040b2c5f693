/*
 * Completion calls that progress colibri's nonblocking and persistent
 * collectives (runtime/operation.c).  The request of such a collective completes only
 * once colibri has run its schedule, so a plain PMPI_Wait on it would wait
 * forever without the progress thread: while any colibri operation is
 * running, each wait polls — one progress pass, then the PMPI_Test form of
 * the call — until it is satisfied.  With nothing running they are the MPI
 * below's calls unchanged.  MPI_Start(all) and MPI_Request_free know
 * colibri's persistent requests.
 */
#include "colibri.h"

#include "../runtime/operation.h"
#include "../runtime/state/engines.h"

int colibri_progress(void)
{
    return nbc_progress();
}

int colibri_progress_hooked(void)
{
    return nbc_mpi_hooked();
}

int colibri_progress_stats(struct colibri_progress_stats *stats)
{
    long long v[4];
    if (!stats)
        return MPI_ERR_ARG;
    engines_stats(v);
    *stats = (struct colibri_progress_stats){v[0], v[1], v[2], v[3]};
    return MPI_SUCCESS;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    if (nbc_busy())
        nbc_wait_alone(*request);
    if (!nbc_busy())
        return PMPI_Wait(request, status);
    for (;;) {
        int flag = 0;
        nbc_progress();
        int rc = PMPI_Test(request, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
    }
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    if (!nbc_busy())
        return PMPI_Waitall(count, requests, statuses);
    for (;;) {
        int flag = 0;
        nbc_progress();
        int rc = PMPI_Testall(count, requests, &flag, statuses);
        if (rc != MPI_SUCCESS || flag)
            return rc;
    }
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    if (!nbc_busy())
        return PMPI_Waitany(count, requests, index, status);
    for (;;) {
        int flag = 0;
        nbc_progress();
        int rc = PMPI_Testany(count, requests, index, &flag, status);
        if (rc != MPI_SUCCESS || flag) /* flag also when no request is active */
            return rc;
    }
}

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    if (!nbc_busy())
        return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
    for (;;) {
        nbc_progress();
        int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
        if (rc != MPI_SUCCESS || *outcount != 0) /* MPI_UNDEFINED: no request active */
            return rc;
    }
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    nbc_progress();
    return PMPI_Test(request, flag, status);
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    nbc_progress();
    return PMPI_Testall(count, requests, flag, statuses);
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    nbc_progress();
    return PMPI_Testany(count, requests, index, flag, status);
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[])
{
    nbc_progress();
    return PMPI_Testsome(incount, requests, outcount, indices, statuses);
}

int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    nbc_progress();
    return PMPI_Request_get_status(request, flag, status);
}

int colibri_start(MPI_Request *request)
{
    int rc;
    return nbc_start(request, &rc) ? rc : PMPI_Start(request);
}

int MPI_Start(MPI_Request *request)
{
    return colibri_start(request);
}

int MPI_Startall(int count, MPI_Request requests[])
{
    for (int i = 0; i < count; i++) {
        int rc = colibri_start(&requests[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int MPI_Request_free(MPI_Request *request)
{
    int rc;
    return nbc_free_persistent(request, &rc) ? rc : PMPI_Request_free(request);
}
