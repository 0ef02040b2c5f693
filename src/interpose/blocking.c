/*
 * Blocking point-to-point calls of the application while colibri
 * operations run, on an MPI that does not call colibri's engine from its
 * own progress loop (runtime/state/engines.c: MPICH, Intel MPI,
 * the standard-ABI build).  A rank blocked in MPI_Recv for a message that
 * its peer sends only after that peer's MPI_Wait on a colibri collective
 * returns would never advance its own part of that collective: each would
 * wait for the other.  So, while colibri operations run, these calls are
 * their nonblocking forms waited for with both engines turning
 * (engines_wait), with the same matching, statuses and errors.  Otherwise,
 * and on MPIs with the hook, they are the MPI's calls unchanged: one
 * atomic load more.
 *
 * Point-to-point may change form per rank (a blocking receive matches a
 * nonblocking send).  Blocking collectives may not (a blocking and a
 * nonblocking collective do not match, MPI-4.1 6.12), so the native ones
 * are left as they are: docs/nonblocking.md says what that means.
 */
#include <stdlib.h>
#include <string.h>

#include "../runtime/state/engines.h"

static bool poll_instead(void)
{
    return engines_colibri_busy() && !engines_hooked();
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    if (!poll_instead())
        return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
    MPI_Request r;
    int rc = PMPI_Irecv(buf, count, datatype, source, tag, comm, &r);
    return rc != MPI_SUCCESS ? rc : engines_wait(&r, status);
}

/* The sends: the same mode, nonblocking. */
#define SEND_AS(name, iname)                                                                   \
    int name(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,             \
             MPI_Comm comm)                                                                    \
    {                                                                                          \
        if (!poll_instead())                                                                   \
            return P##name(buf, count, datatype, dest, tag, comm);                             \
        MPI_Request r;                                                                         \
        int rc = P##iname(buf, count, datatype, dest, tag, comm, &r);                          \
        return rc != MPI_SUCCESS ? rc : engines_wait(&r, MPI_STATUS_IGNORE);                   \
    }
SEND_AS(MPI_Send, MPI_Isend)
SEND_AS(MPI_Ssend, MPI_Issend)
SEND_AS(MPI_Rsend, MPI_Irsend)

/* Both requests to their end; the receive's status is the call's. */
static int wait_pair(MPI_Request *recv, MPI_Request *send, MPI_Status *status)
{
    int rc = engines_wait(recv, status);
    int rc2 = engines_wait(send, MPI_STATUS_IGNORE);
    return rc != MPI_SUCCESS ? rc : rc2;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status)
{
    if (!poll_instead())
        return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int rc = PMPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, &r[0]);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, &r[1]);
    if (rc != MPI_SUCCESS) {
        if (r[0] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&r[0]);
            PMPI_Request_free(&r[0]);
        }
        return rc;
    }
    return wait_pair(&r[0], &r[1], status);
}

/* The message is received into a copy of the buffer's span (the same
 * layout, so the datatype applies to it as to the buffer), sent from the
 * buffer, and the span copied back once both are done: elements the
 * message does not reach keep their values, as with the MPI's call. */
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    if (!poll_instead())
        return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                     status);
    MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    int rc = PMPI_Type_get_extent(datatype, &lb, &extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_true_extent(datatype, &true_lb, &true_extent);
    if (rc != MPI_SUCCESS) /* an invalid datatype: the MPI's own error */
        return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                     status);
    /* a zero-count message is still a message to wait for (and a negative
     * count is the MPI's error, from its MPI_Irecv) */
    const size_t span =
        count > 0 ? (size_t)true_extent + (size_t)(count - 1) * (size_t)extent : 0;
    char *copy = malloc(span ? span : 1);
    if (!copy)
        return MPI_ERR_NO_MEM;
    memcpy(copy, (char *)buf + true_lb, span);
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    rc = PMPI_Irecv(copy - true_lb, count, datatype, source, recvtag, comm, &r[0]);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Isend(buf, count, datatype, dest, sendtag, comm, &r[1]);
    if (rc == MPI_SUCCESS)
        rc = wait_pair(&r[0], &r[1], status);
    else if (r[0] != MPI_REQUEST_NULL) {
        PMPI_Cancel(&r[0]);
        PMPI_Request_free(&r[0]);
    }
    if (rc == MPI_SUCCESS)
        memcpy((char *)buf + true_lb, copy, span);
    free(copy);
    return rc;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    if (!poll_instead())
        return PMPI_Probe(source, tag, comm, status);
    for (;;) {
        int flag = 0;
        int rc = PMPI_Iprobe(source, tag, comm, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        engines_colibri_turn();
    }
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    if (!poll_instead())
        return PMPI_Mprobe(source, tag, comm, message, status);
    for (;;) {
        int flag = 0;
        int rc = PMPI_Improbe(source, tag, comm, &flag, message, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        engines_colibri_turn();
    }
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
              MPI_Status *status)
{
    if (!poll_instead())
        return PMPI_Mrecv(buf, count, datatype, message, status);
    MPI_Request r;
    int rc = PMPI_Imrecv(buf, count, datatype, message, &r);
    return rc != MPI_SUCCESS ? rc : engines_wait(&r, status);
}
