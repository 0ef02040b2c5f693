/*
 * Drop-in layer, Fortran side.  An MPI's Fortran bindings may call PMPI_*
 * directly, and then a preloaded C MPI_Allreduce never sees a Fortran
 * program's collectives: the Fortran entry points themselves are replaced
 * here.  Each one translates the Fortran arguments (handles, sentinel
 * buffers, ierror) and calls the C entry point of mpi_c.c.
 *  - Open MPI: mpif.h, `use mpi` and `use mpi_f08` all end in PMPI_*, so every
 *    reduction and MPI_Finalize is replaced.
 *  - MPICH: its bindings call the C MPI_* (replaced by mpi_c.c) except the
 *    mpi_f08 MPI_Finalize, which calls PMPI_Finalize and would skip the
 *    COLIBRI_STATS report.
 */
#include <stdbool.h>
#include <stdlib.h>

#include <mpi.h>

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "MPI_Fint is not a C int");

/* mpi_f08's ierror is optional: the bindings then pass NULL. */
static void set_ierror(MPI_Fint *ierror, int rc)
{
    if (ierror)
        *ierror = rc;
}

#ifdef OPEN_MPI

/* Fortran's MPI_IN_PLACE and MPI_BOTTOM are common blocks whose symbol name
 * follows the Fortran compiler's mangling; Open MPI exports the one(s) it was
 * built for.  Weak references: the absent ones are NULL.  When the program
 * itself defines the common block, these resolve to its copy, the address
 * that it passes. */
#define WEAK __attribute__((weak))
extern char mpi_fortran_in_place WEAK, mpi_fortran_in_place_ WEAK, mpi_fortran_in_place__ WEAK,
    MPI_FORTRAN_IN_PLACE WEAK;
extern char mpi_fortran_bottom WEAK, mpi_fortran_bottom_ WEAK, mpi_fortran_bottom__ WEAK,
    MPI_FORTRAN_BOTTOM WEAK;

static int is_fortran_in_place(const void *p)
{
    return p == &mpi_fortran_in_place || p == &mpi_fortran_in_place_ ||
           p == &mpi_fortran_in_place__ || p == &MPI_FORTRAN_IN_PLACE;
}

static int is_fortran_bottom(const void *p)
{
    return p == &mpi_fortran_bottom || p == &mpi_fortran_bottom_ || p == &mpi_fortran_bottom__ ||
           p == &MPI_FORTRAN_BOTTOM;
}

/* NULL (an absent symbol) is never a Fortran argument's address, so the
 * comparisons above cannot misfire on it. */
static const void *c_sendbuf(const void *p)
{
    return is_fortran_in_place(p) ? MPI_IN_PLACE : is_fortran_bottom(p) ? MPI_BOTTOM : p;
}

static void *c_recvbuf(void *p) { return is_fortran_bottom(p) ? MPI_BOTTOM : p; }

#define ALLREDUCE_PARAMS                                                               \
    (const void *sendbuf, void *recvbuf, const MPI_Fint *count, const MPI_Fint *datatype, \
     const MPI_Fint *op, const MPI_Fint *comm, MPI_Fint *ierror)
#define REDUCE_PARAMS                                                                  \
    (const void *sendbuf, void *recvbuf, const MPI_Fint *count, const MPI_Fint *datatype, \
     const MPI_Fint *op, const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *ierror)
#define REDUCE_SCATTER_PARAMS                                                               \
    (const void *sendbuf, void *recvbuf, const MPI_Fint *recvcounts, const MPI_Fint *datatype, \
     const MPI_Fint *op, const MPI_Fint *comm, MPI_Fint *ierror)

/* Every Fortran mangling of one entry point: `name_` (gfortran's) is the
 * definition, the others are aliases of it.  ompi_<name>_f is the internal
 * symbol that Open MPI's mpi_f08 module calls. */
#define FORTRAN_ALIASES(name, NAME, params)                            \
    void mpi_##name params __attribute__((alias("mpi_" #name "_")));   \
    void mpi_##name##__ params __attribute__((alias("mpi_" #name "_"))); \
    void MPI_##NAME params __attribute__((alias("mpi_" #name "_")));   \
    void ompi_##name##_f params __attribute__((alias("mpi_" #name "_")));

void mpi_allreduce_ ALLREDUCE_PARAMS
{
    set_ierror(ierror, MPI_Allreduce(c_sendbuf(sendbuf), c_recvbuf(recvbuf), *count,
                                     PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op),
                                     PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(allreduce, ALLREDUCE, ALLREDUCE_PARAMS)

void mpi_reduce_ REDUCE_PARAMS
{
    set_ierror(ierror, MPI_Reduce(c_sendbuf(sendbuf), c_recvbuf(recvbuf), *count,
                                  PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), *root,
                                  PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(reduce, REDUCE, REDUCE_PARAMS)

/* Same arguments as allreduce, `count` being the per-rank recvcount. */
void mpi_reduce_scatter_block_ ALLREDUCE_PARAMS
{
    set_ierror(ierror, MPI_Reduce_scatter_block(c_sendbuf(sendbuf), c_recvbuf(recvbuf), *count,
                                                PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op),
                                                PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(reduce_scatter_block, REDUCE_SCATTER_BLOCK, ALLREDUCE_PARAMS)

void mpi_reduce_scatter_ REDUCE_SCATTER_PARAMS
{
    set_ierror(ierror, MPI_Reduce_scatter(c_sendbuf(sendbuf), c_recvbuf(recvbuf), recvcounts,
                                          PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op),
                                          PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(reduce_scatter, REDUCE_SCATTER, REDUCE_SCATTER_PARAMS)

#define ALLTOALL_PARAMS                                                                      \
    (const void *sendbuf, const MPI_Fint *sendcount, const MPI_Fint *sendtype, void *recvbuf, \
     const MPI_Fint *recvcount, const MPI_Fint *recvtype, const MPI_Fint *comm, MPI_Fint *ierror)
#define ALLTOALLV_PARAMS                                                                     \
    (const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Fint *sdispls,               \
     const MPI_Fint *sendtype, void *recvbuf, const MPI_Fint *recvcounts,                    \
     const MPI_Fint *rdispls, const MPI_Fint *recvtype, const MPI_Fint *comm, MPI_Fint *ierror)

void mpi_alltoall_ ALLTOALL_PARAMS
{
    set_ierror(ierror, MPI_Alltoall(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                    c_recvbuf(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                                    PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(alltoall, ALLTOALL, ALLTOALL_PARAMS)

void mpi_alltoallv_ ALLTOALLV_PARAMS
{
    set_ierror(ierror, MPI_Alltoallv(c_sendbuf(sendbuf), sendcounts, sdispls,
                                     PMPI_Type_f2c(*sendtype), c_recvbuf(recvbuf), recvcounts,
                                     rdispls, PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(alltoallv, ALLTOALLV, ALLTOALLV_PARAMS)

/* Same arguments as alltoall. */
void mpi_allgather_ ALLTOALL_PARAMS
{
    set_ierror(ierror, MPI_Allgather(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                     c_recvbuf(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                                     PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(allgather, ALLGATHER, ALLTOALL_PARAMS)

#define ALLGATHERV_PARAMS                                                                    \
    (const void *sendbuf, const MPI_Fint *sendcount, const MPI_Fint *sendtype, void *recvbuf, \
     const MPI_Fint *recvcounts, const MPI_Fint *displs, const MPI_Fint *recvtype,           \
     const MPI_Fint *comm, MPI_Fint *ierror)
void mpi_allgatherv_ ALLGATHERV_PARAMS
{
    set_ierror(ierror, MPI_Allgatherv(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                      c_recvbuf(recvbuf), recvcounts, displs,
                                      PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(allgatherv, ALLGATHERV, ALLGATHERV_PARAMS)

#define BCAST_PARAMS                                                                   \
    (void *buffer, const MPI_Fint *count, const MPI_Fint *datatype, const MPI_Fint *root, \
     const MPI_Fint *comm, MPI_Fint *ierror)
void mpi_bcast_ BCAST_PARAMS
{
    set_ierror(ierror, MPI_Bcast(c_recvbuf(buffer), *count, PMPI_Type_f2c(*datatype), *root,
                                 PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(bcast, BCAST, BCAST_PARAMS)

void mpi_barrier_(const MPI_Fint *comm, MPI_Fint *ierror)
{
    set_ierror(ierror, MPI_Barrier(PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(barrier, BARRIER, (const MPI_Fint *comm, MPI_Fint *ierror))

/*
 * Nonblocking collectives.  The request goes back to Fortran as its handle;
 * Open MPI's Fortran wait and test calls would then PMPI_Wait on it and
 * never progress colibri's schedule, so they are replaced too (below).
 */
#define REQUEST_OUT(request, ierror, call)                                  \
    do {                                                                    \
        MPI_Request c_request = MPI_REQUEST_NULL;                           \
        int rc_ = call;                                                     \
        if (rc_ == MPI_SUCCESS)                                             \
            *(request) = PMPI_Request_c2f(c_request);                       \
        set_ierror(ierror, rc_);                                            \
    } while (0)

#define IALLREDUCE_PARAMS                                                              \
    (const void *sendbuf, void *recvbuf, const MPI_Fint *count, const MPI_Fint *datatype, \
     const MPI_Fint *op, const MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror)
#define IREDUCE_PARAMS                                                                 \
    (const void *sendbuf, void *recvbuf, const MPI_Fint *count, const MPI_Fint *datatype, \
     const MPI_Fint *op, const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *request,   \
     MPI_Fint *ierror)
#define IREDUCE_SCATTER_PARAMS                                                              \
    (const void *sendbuf, void *recvbuf, const MPI_Fint *recvcounts, const MPI_Fint *datatype, \
     const MPI_Fint *op, const MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror)
#define IALLTOALL_PARAMS                                                                     \
    (const void *sendbuf, const MPI_Fint *sendcount, const MPI_Fint *sendtype, void *recvbuf, \
     const MPI_Fint *recvcount, const MPI_Fint *recvtype, const MPI_Fint *comm,              \
     MPI_Fint *request, MPI_Fint *ierror)
#define IALLTOALLV_PARAMS                                                                    \
    (const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Fint *sdispls,               \
     const MPI_Fint *sendtype, void *recvbuf, const MPI_Fint *recvcounts,                    \
     const MPI_Fint *rdispls, const MPI_Fint *recvtype, const MPI_Fint *comm,                \
     MPI_Fint *request, MPI_Fint *ierror)

void mpi_iallreduce_ IALLREDUCE_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Iallreduce(c_sendbuf(sendbuf), c_recvbuf(recvbuf), *count,
                               PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm),
                               &c_request));
}
FORTRAN_ALIASES(iallreduce, IALLREDUCE, IALLREDUCE_PARAMS)

void mpi_ireduce_ IREDUCE_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Ireduce(c_sendbuf(sendbuf), c_recvbuf(recvbuf), *count,
                            PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), *root,
                            PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(ireduce, IREDUCE, IREDUCE_PARAMS)

void mpi_ireduce_scatter_block_ IALLREDUCE_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Ireduce_scatter_block(c_sendbuf(sendbuf), c_recvbuf(recvbuf), *count,
                                          PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op),
                                          PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(ireduce_scatter_block, IREDUCE_SCATTER_BLOCK, IALLREDUCE_PARAMS)

void mpi_ireduce_scatter_ IREDUCE_SCATTER_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Ireduce_scatter(c_sendbuf(sendbuf), c_recvbuf(recvbuf), recvcounts,
                                    PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op),
                                    PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(ireduce_scatter, IREDUCE_SCATTER, IREDUCE_SCATTER_PARAMS)

void mpi_ialltoall_ IALLTOALL_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Ialltoall(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                              c_recvbuf(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                              PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(ialltoall, IALLTOALL, IALLTOALL_PARAMS)

void mpi_ialltoallv_ IALLTOALLV_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Ialltoallv(c_sendbuf(sendbuf), sendcounts, sdispls, PMPI_Type_f2c(*sendtype),
                               c_recvbuf(recvbuf), recvcounts, rdispls, PMPI_Type_f2c(*recvtype),
                               PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(ialltoallv, IALLTOALLV, IALLTOALLV_PARAMS)

void mpi_iallgather_ IALLTOALL_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Iallgather(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                               c_recvbuf(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                               PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(iallgather, IALLGATHER, IALLTOALL_PARAMS)

#define IALLGATHERV_PARAMS                                                                   \
    (const void *sendbuf, const MPI_Fint *sendcount, const MPI_Fint *sendtype, void *recvbuf, \
     const MPI_Fint *recvcounts, const MPI_Fint *displs, const MPI_Fint *recvtype,           \
     const MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror)
void mpi_iallgatherv_ IALLGATHERV_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Iallgatherv(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                c_recvbuf(recvbuf), recvcounts, displs, PMPI_Type_f2c(*recvtype),
                                PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(iallgatherv, IALLGATHERV, IALLGATHERV_PARAMS)

#define IBCAST_PARAMS                                                                  \
    (void *buffer, const MPI_Fint *count, const MPI_Fint *datatype, const MPI_Fint *root, \
     const MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror)
void mpi_ibcast_ IBCAST_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Ibcast(c_recvbuf(buffer), *count, PMPI_Type_f2c(*datatype), *root,
                           PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(ibcast, IBCAST, IBCAST_PARAMS)

void mpi_ibarrier_(const MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror)
{
    REQUEST_OUT(request, ierror, MPI_Ibarrier(PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(ibarrier, IBARRIER, (const MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror))

/* The prefix reductions: allreduce's arguments. */
void mpi_scan_ ALLREDUCE_PARAMS
{
    set_ierror(ierror, MPI_Scan(c_sendbuf(sendbuf), c_recvbuf(recvbuf), *count,
                                PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(scan, SCAN, ALLREDUCE_PARAMS)

void mpi_exscan_ ALLREDUCE_PARAMS
{
    set_ierror(ierror, MPI_Exscan(c_sendbuf(sendbuf), c_recvbuf(recvbuf), *count,
                                  PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op),
                                  PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(exscan, EXSCAN, ALLREDUCE_PARAMS)

void mpi_iscan_ IALLREDUCE_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Iscan(c_sendbuf(sendbuf), c_recvbuf(recvbuf), *count, PMPI_Type_f2c(*datatype),
                          PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(iscan, ISCAN, IALLREDUCE_PARAMS)

void mpi_iexscan_ IALLREDUCE_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Iexscan(c_sendbuf(sendbuf), c_recvbuf(recvbuf), *count,
                            PMPI_Type_f2c(*datatype), PMPI_Op_f2c(*op), PMPI_Comm_f2c(*comm),
                            &c_request));
}
FORTRAN_ALIASES(iexscan, IEXSCAN, IALLREDUCE_PARAMS)

/*
 * Gather, gatherv, scatter and scatterv, blocking and nonblocking.  A
 * scatter's recvbuf may be MPI_IN_PLACE at the root: it is translated as a
 * send buffer is.
 */
#define GATHER_PARAMS                                                                        \
    (const void *sendbuf, const MPI_Fint *sendcount, const MPI_Fint *sendtype, void *recvbuf, \
     const MPI_Fint *recvcount, const MPI_Fint *recvtype, const MPI_Fint *root,              \
     const MPI_Fint *comm, MPI_Fint *ierror)
#define GATHERV_PARAMS                                                                       \
    (const void *sendbuf, const MPI_Fint *sendcount, const MPI_Fint *sendtype, void *recvbuf, \
     const MPI_Fint *recvcounts, const MPI_Fint *displs, const MPI_Fint *recvtype,           \
     const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *ierror)
#define SCATTERV_PARAMS                                                                      \
    (const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Fint *displs,                \
     const MPI_Fint *sendtype, void *recvbuf, const MPI_Fint *recvcount,                     \
     const MPI_Fint *recvtype, const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *ierror)
#define IGATHER_PARAMS                                                                       \
    (const void *sendbuf, const MPI_Fint *sendcount, const MPI_Fint *sendtype, void *recvbuf, \
     const MPI_Fint *recvcount, const MPI_Fint *recvtype, const MPI_Fint *root,              \
     const MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror)
#define IGATHERV_PARAMS                                                                      \
    (const void *sendbuf, const MPI_Fint *sendcount, const MPI_Fint *sendtype, void *recvbuf, \
     const MPI_Fint *recvcounts, const MPI_Fint *displs, const MPI_Fint *recvtype,           \
     const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierror)
#define ISCATTERV_PARAMS                                                                     \
    (const void *sendbuf, const MPI_Fint *sendcounts, const MPI_Fint *displs,                \
     const MPI_Fint *sendtype, void *recvbuf, const MPI_Fint *recvcount,                     \
     const MPI_Fint *recvtype, const MPI_Fint *root, const MPI_Fint *comm, MPI_Fint *request, \
     MPI_Fint *ierror)

static void *c_inplace_recvbuf(void *p) { return (void *)c_sendbuf(p); }

void mpi_gather_ GATHER_PARAMS
{
    set_ierror(ierror, MPI_Gather(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                  c_recvbuf(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype), *root,
                                  PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(gather, GATHER, GATHER_PARAMS)

void mpi_gatherv_ GATHERV_PARAMS
{
    set_ierror(ierror, MPI_Gatherv(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                   c_recvbuf(recvbuf), recvcounts, displs,
                                   PMPI_Type_f2c(*recvtype), *root, PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(gatherv, GATHERV, GATHERV_PARAMS)

/* Same arguments as gather. */
void mpi_scatter_ GATHER_PARAMS
{
    set_ierror(ierror, MPI_Scatter(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                                   c_inplace_recvbuf(recvbuf), *recvcount,
                                   PMPI_Type_f2c(*recvtype), *root, PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(scatter, SCATTER, GATHER_PARAMS)

void mpi_scatterv_ SCATTERV_PARAMS
{
    set_ierror(ierror, MPI_Scatterv(c_sendbuf(sendbuf), sendcounts, displs,
                                    PMPI_Type_f2c(*sendtype), c_inplace_recvbuf(recvbuf),
                                    *recvcount, PMPI_Type_f2c(*recvtype), *root,
                                    PMPI_Comm_f2c(*comm)));
}
FORTRAN_ALIASES(scatterv, SCATTERV, SCATTERV_PARAMS)

void mpi_igather_ IGATHER_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Igather(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                            c_recvbuf(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype), *root,
                            PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(igather, IGATHER, IGATHER_PARAMS)

void mpi_igatherv_ IGATHERV_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Igatherv(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                             c_recvbuf(recvbuf), recvcounts, displs, PMPI_Type_f2c(*recvtype),
                             *root, PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(igatherv, IGATHERV, IGATHERV_PARAMS)

/* Same arguments as igather. */
void mpi_iscatter_ IGATHER_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Iscatter(c_sendbuf(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                             c_inplace_recvbuf(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                             *root, PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(iscatter, ISCATTER, IGATHER_PARAMS)

void mpi_iscatterv_ ISCATTERV_PARAMS
{
    REQUEST_OUT(request, ierror,
                MPI_Iscatterv(c_sendbuf(sendbuf), sendcounts, displs, PMPI_Type_f2c(*sendtype),
                              c_inplace_recvbuf(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                              *root, PMPI_Comm_f2c(*comm), &c_request));
}
FORTRAN_ALIASES(iscatterv, ISCATTERV, ISCATTERV_PARAMS)

/*
 * The wait and test calls, through the C ones of requests.c: Fortran
 * request handles and statuses converted both ways (Open MPI's own Fortran
 * bindings do the same conversions, then call PMPI_*).  Fortran indices
 * count from 1; a Fortran LOGICAL true is 1 with the compilers Open MPI
 * supports here.
 */
enum { F_STATUS_INTS = sizeof(MPI_Status) / sizeof(MPI_Fint), INLINE_REQS = 32 };

struct c_requests {
    MPI_Request *r, inline_r[INLINE_REQS];
    MPI_Status *st, inline_st[INLINE_REQS];
};

/* Copies n Fortran handles in; false when out of memory. */
static bool requests_in(struct c_requests *c, int n, const MPI_Fint *f)
{
    c->r = c->inline_r, c->st = c->inline_st;
    if (n > INLINE_REQS) {
        c->r = malloc((size_t)n * sizeof *c->r);
        c->st = malloc((size_t)n * sizeof *c->st);
        if (!c->r || !c->st) {
            free(c->r), free(c->st);
            return false;
        }
    }
    for (int i = 0; i < n; i++)
        c->r[i] = PMPI_Request_f2c(f[i]);
    return true;
}

/* Copies the handles back out (freed ones are now MPI_REQUEST_NULL), and
 * the first n_st statuses unless they are ignored. */
static void requests_out(struct c_requests *c, int n, MPI_Fint *f, MPI_Fint *f_st, int n_st)
{
    for (int i = 0; i < n; i++)
        f[i] = PMPI_Request_c2f(c->r[i]);
    if (f_st != MPI_F_STATUSES_IGNORE)
        for (int i = 0; i < n_st; i++)
            PMPI_Status_c2f(&c->st[i], f_st + (size_t)i * F_STATUS_INTS);
    if (c->r != c->inline_r)
        free(c->r), free(c->st);
}

static void status_out(const MPI_Status *st, MPI_Fint *f_st)
{
    if (f_st != MPI_F_STATUS_IGNORE)
        PMPI_Status_c2f(st, f_st);
}

#define NO_MEMORY(ierror) set_ierror(ierror, MPI_ERR_NO_MEM)

/* Open MPI's mpi_f08 module reaches the test calls through their Fortran
 * profiling names (pmpi_test_, ...), not through ompi_test_f as it does for
 * the others: those names must lead here too, or an mpi_f08 program that
 * polls a colibri request with MPI_Test would poll forever. */
#define F08_TEST_ALIAS(name, params) \
    void pmpi_##name##_ params __attribute__((alias("mpi_" #name "_")));

void mpi_wait_(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierror)
{
    MPI_Request r = PMPI_Request_f2c(*request);
    MPI_Status st;
    int rc = MPI_Wait(&r, &st);
    *request = PMPI_Request_c2f(r);
    if (rc == MPI_SUCCESS)
        status_out(&st, status);
    set_ierror(ierror, rc);
}
FORTRAN_ALIASES(wait, WAIT, (MPI_Fint * request, MPI_Fint *status, MPI_Fint *ierror))

void mpi_test_(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror)
{
    MPI_Request r = PMPI_Request_f2c(*request);
    MPI_Status st;
    int done = 0, rc = MPI_Test(&r, &done, &st);
    *request = PMPI_Request_c2f(r);
    *flag = done != 0;
    if (rc == MPI_SUCCESS && done)
        status_out(&st, status);
    set_ierror(ierror, rc);
}
FORTRAN_ALIASES(test, TEST, (MPI_Fint * request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror))
F08_TEST_ALIAS(test, (MPI_Fint * request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierror))

/* Waitall (flag NULL) and Testall. */
static void all(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses,
                MPI_Fint *ierror)
{
    struct c_requests c;
    if (!requests_in(&c, *count, requests))
        return NO_MEMORY(ierror);
    int done = 1, rc = flag ? MPI_Testall(*count, c.r, &done, c.st) : MPI_Waitall(*count, c.r, c.st);
    if (flag)
        *flag = done != 0;
    requests_out(&c, *count, requests, statuses,
                 (rc == MPI_SUCCESS && done) || rc == MPI_ERR_IN_STATUS ? *count : 0);
    set_ierror(ierror, rc);
}

#define WAITALL_PARAMS (const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierror)
void mpi_waitall_ WAITALL_PARAMS { all(count, requests, NULL, statuses, ierror); }
FORTRAN_ALIASES(waitall, WAITALL, WAITALL_PARAMS)

#define TESTALL_PARAMS                                                             \
    (const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses, \
     MPI_Fint *ierror)
void mpi_testall_ TESTALL_PARAMS { all(count, requests, flag, statuses, ierror); }
FORTRAN_ALIASES(testall, TESTALL, TESTALL_PARAMS)
F08_TEST_ALIAS(testall, TESTALL_PARAMS)

/* Waitany (flag NULL) and Testany; the index counts from 1. */
static void any(const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                MPI_Fint *status, MPI_Fint *ierror)
{
    struct c_requests c;
    if (!requests_in(&c, *count, requests))
        return NO_MEMORY(ierror);
    int i = MPI_UNDEFINED, done = 1;
    int rc = flag ? MPI_Testany(*count, c.r, &i, &done, &c.st[0])
                  : MPI_Waitany(*count, c.r, &i, &c.st[0]);
    *index = i == MPI_UNDEFINED ? i : i + 1;
    if (flag)
        *flag = done != 0;
    if (rc == MPI_SUCCESS && done)
        status_out(&c.st[0], status);
    requests_out(&c, *count, requests, MPI_F_STATUSES_IGNORE, 0);
    set_ierror(ierror, rc);
}

#define WAITANY_PARAMS                                                            \
    (const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status, \
     MPI_Fint *ierror)
void mpi_waitany_ WAITANY_PARAMS { any(count, requests, index, NULL, status, ierror); }
FORTRAN_ALIASES(waitany, WAITANY, WAITANY_PARAMS)

#define TESTANY_PARAMS                                                               \
    (const MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,      \
     MPI_Fint *status, MPI_Fint *ierror)
void mpi_testany_ TESTANY_PARAMS { any(count, requests, index, flag, status, ierror); }
FORTRAN_ALIASES(testany, TESTANY, TESTANY_PARAMS)
F08_TEST_ALIAS(testany, TESTANY_PARAMS)

#define SOME_PARAMS                                                                      \
    (const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices, \
     MPI_Fint *statuses, MPI_Fint *ierror)
/* Waitsome and Testsome: the statuses come in the order of indices. */
static void some(int (*call)(int, MPI_Request[], int *, int[], MPI_Status[]),
                 const MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                 MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierror)
{
    struct c_requests c;
    int *idx = malloc((size_t)(*incount > 0 ? *incount : 1) * sizeof *idx);
    if (!idx || !requests_in(&c, *incount, requests)) {
        free(idx);
        return NO_MEMORY(ierror);
    }
    int out = 0, rc = call(*incount, c.r, &out, idx, c.st);
    *outcount = out;
    const int n_out = rc == MPI_SUCCESS && out != MPI_UNDEFINED ? out : 0;
    for (int k = 0; k < n_out; k++)
        indices[k] = idx[k] + 1;
    requests_out(&c, *incount, requests, statuses, rc == MPI_ERR_IN_STATUS ? out : n_out);
    free(idx);
    set_ierror(ierror, rc);
}

void mpi_waitsome_ SOME_PARAMS { some(MPI_Waitsome, incount, requests, outcount, indices, statuses, ierror); }
FORTRAN_ALIASES(waitsome, WAITSOME, SOME_PARAMS)

void mpi_testsome_ SOME_PARAMS { some(MPI_Testsome, incount, requests, outcount, indices, statuses, ierror); }
FORTRAN_ALIASES(testsome, TESTSOME, SOME_PARAMS)
F08_TEST_ALIAS(testsome, SOME_PARAMS)

/* Through MPI_Finalize, which prints COLIBRI_STATS. */
/* Handle frees: a handle a colibri operation still uses is freed when it
 * ends (mpi_c.c, handles.h); Open MPI's bindings would call PMPI_*_free. */
void mpi_op_free_(MPI_Fint *op, MPI_Fint *ierror)
{
    MPI_Op c = MPI_Op_f2c(*op);
    int rc = MPI_Op_free(&c);
    if (rc == MPI_SUCCESS)
        *op = MPI_Op_c2f(c);
    set_ierror(ierror, rc);
}
FORTRAN_ALIASES(op_free, OP_FREE, (MPI_Fint * op, MPI_Fint *ierror))

void mpi_type_free_(MPI_Fint *datatype, MPI_Fint *ierror)
{
    MPI_Datatype c = MPI_Type_f2c(*datatype);
    int rc = MPI_Type_free(&c);
    if (rc == MPI_SUCCESS)
        *datatype = MPI_Type_c2f(c);
    set_ierror(ierror, rc);
}
FORTRAN_ALIASES(type_free, TYPE_FREE, (MPI_Fint * datatype, MPI_Fint *ierror))

void mpi_finalize_(MPI_Fint *ierror) { set_ierror(ierror, MPI_Finalize()); }
FORTRAN_ALIASES(finalize, FINALIZE, (MPI_Fint * ierror))

#elif defined(MPICH)

void mpi_finalize_f08_(MPI_Fint *ierror) { set_ierror(ierror, MPI_Finalize()); }

#endif
