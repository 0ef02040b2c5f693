/* The C API's catalog listing, last-algorithm query and dry run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../select/select.h"
#include "../runtime/executor.h"
#include "../runtime/native.h"
#include "../runtime/state/node.h"
#include "../runtime/stats.h"

int colibri_catalog_size(void) { return catalog_count; }

int colibri_catalog_get(int index, colibri_algorithm_info *info)
{
    /* one string per set of restrictions (R_BY_NAME is the highest bit):
     * the catalog's size sets no limit (a buffer per entry, 64 of them,
     * left the 65th entry's info unset) */
    static char restr[2 * R_BY_NAME][96];
    if (index < 0 || index >= catalog_count)
        return MPI_ERR_ARG;
    const struct algorithm *a = &catalog[index];
    const unsigned set = a->restrictions & (2 * R_BY_NAME - 1);
    info->coll = a->coll;
    info->collective = colibri_coll_name(a->coll);
    info->name = a->name;
    info->restrictions = catalog_restrictions(a, restr[set], sizeof restr[set]);
    info->cost = a->cost_formula;
    info->nonblocking = !(a->restrictions & R_BLOCKING_ONLY);
    return MPI_SUCCESS;
}

const char *colibri_last_algorithm(MPI_Comm comm, colibri_coll coll)
{
    struct comm_state *cs;
    if ((unsigned)coll >= COLIBRI_NCOLL || !(cs = comm_state_find(comm)))
        return NULL;
    return cs->last[coll];
}

static int64_t *fill_counts(colibri_coll coll, int size, MPI_Count count, const MPI_Count *counts)
{
    if (coll != COLIBRI_REDUCE_SCATTER && coll != COLIBRI_REDUCE_SCATTER_BLOCK)
        return NULL;
    int64_t *c = malloc((size_t)size * sizeof *c);
    if (c)
        for (int i = 0; i < size; i++)
            c[i] = coll == COLIBRI_REDUCE_SCATTER && counts ? counts[i] : count;
    return c;
}

void colibri_tuning_describe(char *buf, size_t len)
{
    if (buf && len)
        select_describe(buf, len);
}

/* The library mpi.h came from, by the macros each one defines (Intel MPI
 * defines MPICH's too: it comes first). */
#if defined(MPI_ABI_VERSION)
#define BUILT_FOR "the MPI standard ABI (any MPI's libmpi_abi.so)"
#elif defined(I_MPI_VERSION)
#define BUILT_FOR "Intel MPI " I_MPI_VERSION
#elif defined(OMPI_MAJOR_VERSION)
#define STR_(x) #x
#define STR(x) STR_(x)
#define BUILT_FOR "Open MPI " STR(OMPI_MAJOR_VERSION) "." STR(OMPI_MINOR_VERSION) "." STR(OMPI_RELEASE_VERSION)
#elif defined(MPICH_VERSION)
#define BUILT_FOR "MPICH " MPICH_VERSION
#else
#define BUILT_FOR "an MPI library"
#endif

void colibri_mpi_describe(char *buf, size_t len)
{
    if (!buf || !len)
        return;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int n = 0;
    /* Allowed before MPI_Init and after MPI_Finalize (MPI-3.1 8.1.1). */
    PMPI_Get_library_version(lib, &n);
    lib[strcspn(lib, "\n")] = '\0';
#ifdef MPI_ABI_VERSION
    snprintf(buf, len, "built for: %s (MPI %d.%d, standard ABI %d.%d)\nruns on: %s\n", BUILT_FOR,
             MPI_VERSION, MPI_SUBVERSION, MPI_ABI_VERSION, MPI_ABI_SUBVERSION, lib);
#else
    snprintf(buf, len, "built for: %s (MPI %d.%d)\nruns on: %s\n", BUILT_FOR, MPI_VERSION,
             MPI_SUBVERSION, lib);
#endif
}

const char *colibri_select(colibri_coll coll, int comm_size, MPI_Count count, int type_size,
                           int commutative)
{
    struct sched_params p = {0};
    p.size = comm_size;
    p.count = count;
    p.elem_size = (size_t)type_size;
    p.commutative = commutative != 0;
    int64_t *c = fill_counts(coll, comm_size, count, NULL); /* count per rank */
    p.counts = c;
    if (!coll_reduces(coll)) { /* data movement: bytes per block (bcast: buffer) */
        p.count = count * type_size;
        p.elem_size = 1;
    }
    if (coll == COLIBRI_GATHERV || coll == COLIBRI_SCATTERV)
        p.count = 0; /* their sizes are the root's alone: selection reads none */
    const struct algorithm *a = select_auto(coll, &p);
    free(c);
    return a ? a->name : "native";
}

int colibri_dry_run(colibri_coll coll, const char *algorithm, int rank, int comm_size, int root,
                    MPI_Count count, const MPI_Count *counts, int type_size, int commutative,
                    int in_place, colibri_cost *cost)
{
    const struct algorithm *a = catalog_find(coll, algorithm);
    if (!a || rank < 0 || rank >= comm_size || (coll == COLIBRI_REDUCE_SCATTER && !counts))
        return MPI_ERR_ARG;
    struct sched_params p = {0};
    p.rank = rank;
    p.size = comm_size;
    p.root = root;
    p.count = count;
    p.elem_size = (size_t)type_size;
    p.commutative = commutative != 0;
    p.in_place = in_place != 0;
    int64_t *c = fill_counts(coll, comm_size, count, counts);
    p.counts = c;
    int64_t *v = NULL;
    size_t unit = (size_t)type_size;
    if (!coll_reduces(coll)) {
        /* Byte units (every data-movement collective); alltoallv: `counts`
         * is this rank's per-peer count, both ways, blocks packed in rank
         * order. */
        if (coll == COLIBRI_ALLTOALLV && !counts)
            return MPI_ERR_ARG;
        p.count = count * type_size;
        p.elem_size = unit = 1;
        if (coll == COLIBRI_ALLTOALLV) {
            if (!(v = malloc((size_t)comm_size * 2 * sizeof *v)))
                return MPI_ERR_NO_MEM;
            for (int j = 0; j < comm_size; j++) {
                v[j] = counts[j] * type_size;
                v[comm_size + j] = j ? v[comm_size + j - 1] + v[j - 1] : 0;
            }
            p.scounts = p.rcounts = v;
            p.sdispls = p.rdispls = v + comm_size;
        }
        /* allgatherv, gatherv, scatterv: `counts` is every rank's block,
         * packed in rank order (as the root's arrays, for the v forms) */
        if (coll == COLIBRI_ALLGATHERV || coll == COLIBRI_GATHERV || coll == COLIBRI_SCATTERV) {
            if (!counts)
                return MPI_ERR_ARG;
            if (!(v = malloc((size_t)comm_size * 2 * sizeof *v)))
                return MPI_ERR_NO_MEM;
            p.count = p.volume_max = 0;
            for (int j = 0; j < comm_size; j++) {
                v[j] = counts[j] * type_size;
                v[comm_size + j] = j ? v[comm_size + j - 1] + v[j - 1] : 0;
                p.count += v[j];
                p.volume_max = v[j] > p.volume_max ? v[j] : p.volume_max;
            }
            if (coll != COLIBRI_ALLGATHERV)
                p.count = v[rank]; /* this rank's own block */
            if (coll == COLIBRI_SCATTERV)
                p.scounts = v, p.sdispls = v + comm_size;
            else
                p.rcounts = v, p.rdispls = v + comm_size;
        }
    }
    if (catalog_violation(a, &p)) {
        free(v);
        free(c);
        return MPI_ERR_ARG;
    }
    struct schedule s;
    sched_init(&s);
    int rc = a->build(&p, &s) != 0 || s.oom ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    /* A dynamic schedule's later rounds depend on what the peers send. */
    if (rc == MPI_SUCCESS && s.resume)
        rc = MPI_ERR_UNSUPPORTED_OPERATION;
    if (rc == MPI_SUCCESS) {
        struct sched_cost sc;
        sched_cost(&s, unit, &sc);
        cost->rounds = sc.rounds;
        cost->msgs_sent = sc.msgs_sent;
        cost->msgs_recvd = sc.msgs_recvd;
        cost->bytes_sent = sc.bytes_sent;
        cost->bytes_recvd = sc.bytes_recvd;
        cost->elems_reduced = sc.elems_reduced;
        cost->elems_copied = sc.elems_copied;
        cost->tmp_bytes = (s.tmp_count[0] + s.tmp_count[1]) * (int64_t)unit;
    }
    sched_free(&s);
    free(v);
    free(c);
    return rc;
}

int colibri_node_layout(MPI_Comm comm, int node_of[], int *n_nodes)
{
    struct comm_state *cs;
    const struct node_layout *l;
    if (comm_passes_through(comm))
        return MPI_ERR_COMM;
    if (!node_of || !n_nodes)
        return MPI_ERR_ARG;
    int rc = comm_state_get(comm, &cs);
    if (rc == MPI_SUCCESS)
        rc = node_layout_get(cs, &l);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int r = 0; r < cs->size; r++)
        node_of[r] = l->node_of[r];
    *n_nodes = l->n_nodes;
    return MPI_SUCCESS;
}
