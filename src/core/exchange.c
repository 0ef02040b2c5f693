/*
 * The C API's data-movement collectives (alltoall, alltoallv), which the
 * interposed MPI_* entry points also call: check, select, present the user's
 * buffers as bytes, build the schedule, run it.
 *
 * Schedules of these collectives work in bytes of packed data (schedule.h).
 * A contiguous user datatype is used in place; a non-contiguous one is packed
 * into a staging area first (send side, or the in-place input) and the
 * receive side is unpacked from one at the end, block by block, so only the
 * type map's bytes are ever read or written.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../select/select.h"
#include "config.h"
#include "native.h"
#include "node.h"
#include "runtime.h"
#include "validate.h"

static const char *fname(colibri_coll coll)
{
    return coll == COLIBRI_ALLTOALL ? "MPI_Alltoall" : "MPI_Alltoallv";
}

/* One side (send or receive) of the call, in elements of its datatype. */
struct side {
    const void *buf;
    const int64_t *counts, *displs; /* alltoallv; NULL for alltoall */
    int64_t count;                  /* alltoall: elements per block */
    MPI_Datatype dt;
    struct dtinfo dti;
};

static int64_t side_count(const struct side *s, int j)
{
    return s->counts ? s->counts[j] : s->count;
}

static int64_t side_displ(const struct side *s, int j)
{
    return s->counts ? s->displs[j] : (int64_t)j * s->count;
}

static int check_side(const struct side *s, int size, const char *what, char *msg, size_t len)
{
    if (s->dt == MPI_DATATYPE_NULL) {
        snprintf(msg, len, "%stype is MPI_DATATYPE_NULL", what);
        return MPI_ERR_TYPE;
    }
    if (!s->counts && s->count < 0) {
        snprintf(msg, len, "%scount is negative (%lld)", what, (long long)s->count);
        return MPI_ERR_COUNT;
    }
    int64_t total = 0;
    for (int j = 0; s->counts && j < size; j++) {
        if (s->counts[j] < 0) {
            snprintf(msg, len, "%scounts[%d] is negative (%lld)", what, j, (long long)s->counts[j]);
            return MPI_ERR_COUNT;
        }
        total += s->counts[j];
    }
    if (!s->counts)
        total = s->count * size;
    MPI_Aint lb = 0, extent = 0;
    if (s->buf == NULL && total > 0 && PMPI_Type_get_true_extent(s->dt, &lb, &extent) == MPI_SUCCESS &&
        lb == 0) {
        snprintf(msg, len, "%sbuf is NULL with %lld elements to %s", what, (long long)total,
                 what[0] == 's' ? "send" : "receive");
        return MPI_ERR_BUFFER;
    }
    return MPI_SUCCESS;
}

static int validate(colibri_coll coll, const struct side *snd, const struct side *rcv,
                    bool in_place, int size, char *msg, size_t len)
{
    if (rcv->buf == MPI_IN_PLACE) {
        snprintf(msg, len, "recvbuf is MPI_IN_PLACE");
        return MPI_ERR_BUFFER;
    }
    if (coll == COLIBRI_ALLTOALLV && ((!in_place && (!snd->counts || !snd->displs)) ||
                                      !rcv->counts || !rcv->displs)) {
        snprintf(msg, len, "a count or displacement array is NULL");
        return MPI_ERR_ARG;
    }
    int rc = in_place ? MPI_SUCCESS : check_side(snd, size, "send", msg, len);
    if (rc == MPI_SUCCESS)
        rc = check_side(rcv, size, "recv", msg, len);
    if (rc != MPI_SUCCESS)
        return rc;
    if (coll == COLIBRI_ALLTOALL && !in_place) {
        int64_t sb = snd->count * snd->dti.size, rb = rcv->count * rcv->dti.size;
        if (sb != rb) {
            /* Every pair exchanges one block: unequal signatures are
             * erroneous, and colibri's block arithmetic relies on them. */
            snprintf(msg, len, "send blocks are %lld bytes but receive blocks %lld bytes",
                     (long long)sb, (long long)rb);
            return MPI_ERR_TRUNCATE;
        }
    }
    if (!in_place && snd->buf == rcv->buf && snd->buf != NULL) {
        int64_t any = 0;
        for (int j = 0; j < size && !any; j++)
            any = side_count(snd, j) | side_count(rcv, j);
        if (any) {
            snprintf(msg, len, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
            return MPI_ERR_BUFFER;
        }
    }
    return MPI_SUCCESS;
}

/* A side's bytes: the user's memory when its type is contiguous, else a
 * staging area holding block j's packed bytes at byte offset displs[j] x
 * type size.  `base` is where byte offset 0 lies. */
struct view {
    char *base;
    void *stage; /* allocation to free, NULL when the user's memory is used */
};

static int pack_block(const struct side *s, int j, char *base, bool unpack, MPI_Comm comm)
{
    int64_t n = side_count(s, j), done = 0;
    char *user = (char *)s->buf + side_displ(s, j) * s->dti.extent;
    char *packed = base + side_displ(s, j) * s->dti.size;
    /* PMPI_Pack takes int counts: go a chunk of elements at a time. */
    int64_t chunk = s->dti.size > 0 ? INT_MAX / s->dti.size : n;
    if (chunk < 1)
        chunk = 1;
    while (done < n) {
        int k = (int)(n - done < chunk ? n - done : chunk), pos = 0, bytes = k * s->dti.size;
        char *u = user + done * s->dti.extent, *pk = packed + done * s->dti.size;
        int rc = unpack ? PMPI_Unpack(pk, bytes, &pos, u, k, s->dt, comm)
                        : PMPI_Pack(u, k, s->dt, pk, bytes, &pos, comm);
        if (rc != MPI_SUCCESS)
            return rc;
        done += k;
    }
    return MPI_SUCCESS;
}

static int view_open(const struct side *s, int size, bool fill, struct view *v, MPI_Comm comm)
{
    v->stage = NULL;
    if (s->dti.contiguous) {
        v->base = (char *)s->buf;
        return MPI_SUCCESS;
    }
    int64_t lo = 0, hi = 0;
    for (int j = 0; j < size; j++) {
        int64_t a = side_displ(s, j) * s->dti.size, b = a + side_count(s, j) * s->dti.size;
        if (side_count(s, j) == 0)
            continue;
        lo = a < lo ? a : lo;
        hi = b > hi ? b : hi;
    }
    v->stage = malloc(hi > lo ? (size_t)(hi - lo) : 1);
    if (!v->stage)
        return MPI_ERR_NO_MEM;
    v->base = (char *)v->stage - lo;
    for (int j = 0; fill && j < size; j++) {
        int rc = pack_block(s, j, v->base, false, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int view_close(const struct side *s, int size, struct view *v, bool drain, MPI_Comm comm)
{
    int rc = MPI_SUCCESS;
    for (int j = 0; v->stage && drain && j < size && rc == MPI_SUCCESS; j++)
        rc = pack_block(s, j, v->base, true, comm);
    free(v->stage);
    v->stage = NULL;
    return rc;
}

/* alltoallv's automatic choice must be the same on every rank, and one rank
 * sending megabytes makes the call large for all: agree on the largest block
 * with one small allreduce (only when selecting automatically). */
static int global_max_block(struct comm_state *cs, const int64_t *sc, const int64_t *rc, int size,
                            int64_t *out)
{
    int64_t m = 0;
    for (int j = 0; j < size; j++) {
        m = sc[j] > m ? sc[j] : m;
        m = rc[j] > m ? rc[j] : m;
    }
    *out = m;
    return exec_agree_max(cs, MPI_INT64_T, out);
}

static bool wants_auto(colibri_coll coll, const char *requested)
{
    const char *name = requested ? requested : config_get()->algorithm[coll];
    return !name || !*name || strcmp(name, "auto") == 0;
}

static int run(struct exchange_args *a, const char *requested)
{
    const char *fn = fname(a->coll);
    if (comm_passes_through(a->comm))
        return native_exchange(a);

    int rank, size;
    PMPI_Comm_rank(a->comm, &rank);
    PMPI_Comm_size(a->comm, &size);
    bool in_place = a->sendbuf == MPI_IN_PLACE;
    struct side rcv = {a->recvbuf, a->recvcounts, a->rdispls, a->recvcount, a->recvtype, {0}};
    struct side snd = in_place ? rcv
                               : (struct side){a->sendbuf, a->sendcounts, a->sdispls, a->sendcount,
                                               a->sendtype, {0}};
    char msg[640];
    int rc = MPI_SUCCESS;
    if (rcv.dt != MPI_DATATYPE_NULL)
        rc = dtinfo_init(rcv.dt, &rcv.dti);
    if (rc == MPI_SUCCESS && !in_place && snd.dt != MPI_DATATYPE_NULL)
        rc = dtinfo_init(snd.dt, &snd.dti);
    if (in_place)
        snd = rcv;
    if (rc == MPI_SUCCESS)
        rc = validate(a->coll, &snd, &rcv, in_place, size, msg, sizeof msg);
    else
        snprintf(msg, sizeof msg, "invalid datatype");
    if (rc != MPI_SUCCESS)
        return raise_error(a->comm, fn, rc, msg);

    /* Byte counts and offsets of both sides, as the schedules see them. */
    int64_t *bytes = NULL;
    struct coll_call c;
    memset(&c, 0, sizeof c);
    c.coll = a->coll;
    c.sp.rank = rank;
    c.sp.size = size;
    c.sp.elem_size = 1;
    c.sp.in_place = in_place;
    c.sp.radix = (int)config_get()->radix;
    c.sp.count = rcv.count * rcv.dti.size;
    if (a->coll == COLIBRI_ALLTOALLV) {
        if (!(bytes = malloc((size_t)size * 4 * sizeof *bytes)))
            return raise_error(a->comm, fn, MPI_ERR_NO_MEM, "out of memory");
        int64_t *sc = bytes, *sd = bytes + size, *rcn = bytes + 2 * size, *rd = bytes + 3 * size;
        for (int j = 0; j < size; j++) {
            sc[j] = snd.counts[j] * snd.dti.size;
            sd[j] = snd.displs[j] * snd.dti.size;
            rcn[j] = rcv.counts[j] * rcv.dti.size;
            rd[j] = rcv.displs[j] * rcv.dti.size;
        }
        c.sp.scounts = sc, c.sp.sdispls = sd, c.sp.rcounts = rcn, c.sp.rdispls = rd;
        c.sp.count = 0;
    }

    rc = comm_state_get(a->comm, &c.cs);
    if (rc != MPI_SUCCESS) {
        free(bytes);
        return raise_error(a->comm, fn, rc, "could not set up the communicator");
    }
    if (a->coll == COLIBRI_ALLTOALLV && wants_auto(a->coll, requested)) {
        rc = global_max_block(c.cs, c.sp.scounts, c.sp.rcounts, size, &c.sp.count);
        if (rc != MPI_SUCCESS) {
            free(bytes);
            return raise_error(a->comm, fn, rc, "communication failed inside the collective");
        }
    }

    /* Node-aware algorithms need the node layout (computed once per
     * communicator); automatic selection considers them only for alltoallv. */
    const struct algorithm *named = NULL;
    if (!wants_auto(a->coll, requested)) {
        const char *name = requested ? requested : config_get()->algorithm[a->coll];
        named = catalog_find(a->coll, name);
    }
    if ((named && (named->restrictions & R_NODE_AWARE)) ||
        (!named && a->coll == COLIBRI_ALLTOALLV && wants_auto(a->coll, requested))) {
        rc = node_layout_get(c.cs, &c.sp.layout);
        if (rc != MPI_SUCCESS) {
            free(bytes);
            return raise_error(a->comm, fn, rc, "could not determine the node layout");
        }
    }

    const struct algorithm *alg;
    rc = select_algorithm(a->coll, &c.sp, requested, &alg, msg, sizeof msg);
    if (rc != MPI_SUCCESS || !alg) {
        free(bytes);
        if (rc != MPI_SUCCESS)
            return raise_error(a->comm, fn, rc, msg);
        c.cs->last[a->coll] = "native";
        stats_count(NULL, a->coll);
        return native_exchange(a);
    }

    if (alg->restrictions & R_NODE_AWARE) {
        rc = node_segment_attach(&c);
        if (rc != MPI_SUCCESS) {
            free(bytes);
            return raise_error(a->comm, fn, rc, "could not attach the node's shared segment");
        }
    }
    c.dt = MPI_BYTE;
    c.dti = (struct dtinfo){1, 0, 1, 1, true};
    struct view sv = {0}, rv = {0};
    rc = view_open(&rcv, size, in_place, &rv, a->comm);
    if (rc == MPI_SUCCESS && !in_place)
        rc = view_open(&snd, size, true, &sv, a->comm);
    c.sendbuf = in_place ? rv.base : sv.base;
    c.recvbuf = rv.base;
    struct schedule *s = NULL;
    if (rc == MPI_SUCCESS)
        s = comm_cached_schedule(c.cs, a->coll, alg, &c.sp);
    if (rc == MPI_SUCCESS)
        rc = s ? exec_run(&c, s) : MPI_ERR_NO_MEM;
    int rc2 = view_close(&rcv, size, &rv, rc == MPI_SUCCESS, a->comm);
    view_close(&snd, size, &sv, false, a->comm);
    rc = rc != MPI_SUCCESS ? rc : rc2;
    free(bytes);
    if (rc != MPI_SUCCESS)
        return raise_error(a->comm, fn, rc, "communication failed inside the collective");
    c.cs->last[a->coll] = alg->name;
    stats_count(alg, a->coll);
    return MPI_SUCCESS;
}

int colibri_alltoall(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     const char *algorithm)
{
    struct exchange_args a = {COLIBRI_ALLTOALL, sendbuf, sendcount, NULL, NULL, sendtype,
                              recvbuf, recvcount, NULL, NULL, recvtype, comm};
    return run(&a, algorithm);
}

int colibri_alltoallv(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      const char *algorithm)
{
    _Static_assert(sizeof(MPI_Aint) == sizeof(int64_t), "MPI_Aint is not 64-bit");
    struct exchange_args a = {COLIBRI_ALLTOALLV,
                              sendbuf,
                              0,
                              (const int64_t *)sendcounts,
                              (const int64_t *)sdispls,
                              sendtype,
                              recvbuf,
                              0,
                              (const int64_t *)recvcounts,
                              (const int64_t *)rdispls,
                              recvtype,
                              comm};
    return run(&a, algorithm);
}
