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

/* Through MPI_Finalize, which prints COLIBRI_STATS. */
void mpi_finalize_(MPI_Fint *ierror) { set_ierror(ierror, MPI_Finalize()); }
FORTRAN_ALIASES(finalize, FINALIZE, (MPI_Fint * ierror))

#elif defined(MPICH)

void mpi_finalize_f08_(MPI_Fint *ierror) { set_ierror(ierror, MPI_Finalize()); }

#endif
