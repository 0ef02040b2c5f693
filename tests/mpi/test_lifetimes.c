// ranks: 1 2 3 4 5 8
// mpich-ranks: 2
// ompi5-ranks: 1 2 3 4
// mpich5-ranks: 1 2
// impi-ranks: 1 2
// abi-ranks: 1 2
// env-ranks: COLIBRI_PROGRESS_THREAD=1 3
// asan-ranks: 1 3
// env-ranks: COLIBRI_ONLINE_FAKE=random:5,calls=2,window=1 3
/*
 * Handles freed right after a nonblocking or persistent collective starts
 * (legal: MPI keeps them alive until the operation completes, MPI-4 2.5.1,
 * 6.4.4, 7.4.3).  Every nonblocking reduction (scans too) and all-to-all colibri
 * intercepts, and the persistent form of each (colibri_*_init), on a
 * duplicated communicator with a user-defined operation and a derived
 * datatype: the program frees the operation, the datatype and the
 * communicator before it waits, and the result must still be right.  Each
 * case runs an algorithm of colibri's (colibri_last_algorithm is checked
 * not to be "native" where one applies).  Run under AddressSanitizer by
 * the sanitizer job; without it, a use after free shows as a crash or a
 * wrong result.
 */
#include "harness.h"

/* A pair of ints summed elementwise, in a type with a gap (a resized
 * contiguous of 2 ints with extent 3 ints), reduced by a user op. */
static void pair_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const int *a = in;
    int *b = inout;
    for (int i = 0; i < *len; i++) {
        b[3 * i] += a[3 * i];
        b[3 * i + 1] += a[3 * i + 1];
    }
}

static MPI_Datatype pair_type(void)
{
    MPI_Datatype c, r;
    MPI_Type_contiguous(2, MPI_INT, &c);
    MPI_Type_create_resized(c, 0, 3 * sizeof(int), &r);
    MPI_Type_free(&c);
    MPI_Type_commit(&r);
    return r;
}

static int in_val(int rank, int i, int f) { return (rank + 1) * 1000 + 10 * i + f; }

/* Sum over ranks of in_val(rank, i, f). */
static int sum_val(int size, int i, int f)
{
    int s = 0;
    for (int r = 0; r < size; r++)
        s += in_val(r, i, f);
    return s;
}

enum { N = 12 };

static bool check_pairs(const int *buf, int n, int size, int first)
{
    for (int i = 0; i < n; i++)
        for (int f = 0; f < 2; f++)
            if (buf[3 * i + f] != sum_val(size, first + i, f))
                return false;
    return true;
}

/* What a case does: start the collective (nonblocking or persistent) on
 * comm with op and type, leaving the request in *req; then check. */
enum coll {
    ALLREDUCE,
    REDUCE,
    REDUCE_SCATTER_BLOCK,
    REDUCE_SCATTER,
    SCAN,
    EXSCAN,
    ALLTOALL,
    ALLTOALLV,
    NCOLL
};
static const char *const names[NCOLL] = {"allreduce",      "reduce", "reduce_scatter_block",
                                         "reduce_scatter", "scan",   "exscan",
                                         "alltoall",       "alltoallv"};
static const colibri_coll colls[NCOLL] = {
    COLIBRI_ALLREDUCE, COLIBRI_REDUCE, COLIBRI_REDUCE_SCATTER_BLOCK, COLIBRI_REDUCE_SCATTER,
    COLIBRI_SCAN,      COLIBRI_EXSCAN, COLIBRI_ALLTOALL,             COLIBRI_ALLTOALLV};

static int start(enum coll c, bool persistent, const int *in, int *out, int *counts, int *displs,
                 MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    int size;
    MPI_Comm_size(comm, &size);
    MPI_Count cc[64];
    MPI_Aint cd[64];
    for (int r = 0; r < size; r++)
        cc[r] = counts[r], cd[r] = displs[r];
    switch (c) {
    case ALLREDUCE:
        return persistent ? colibri_allreduce_init(in, out, N, t, op, comm, NULL, req)
                          : MPI_Iallreduce(in, out, N, t, op, comm, req);
    case REDUCE:
        return persistent ? colibri_reduce_init(in, out, N, t, op, size - 1, comm, NULL, req)
                          : MPI_Ireduce(in, out, N, t, op, size - 1, comm, req);
    case REDUCE_SCATTER_BLOCK:
        return persistent ? colibri_reduce_scatter_block_init(in, out, 2, t, op, comm, NULL, req)
                          : MPI_Ireduce_scatter_block(in, out, 2, t, op, comm, req);
    case REDUCE_SCATTER:
        return persistent ? colibri_reduce_scatter_init(in, out, cc, t, op, comm, NULL, req)
                          : MPI_Ireduce_scatter(in, out, counts, t, op, comm, req);
    case SCAN:
        return persistent ? colibri_scan_init(in, out, N, t, op, comm, NULL, req)
                          : MPI_Iscan(in, out, N, t, op, comm, req);
    case EXSCAN:
        return persistent ? colibri_exscan_init(in, out, N, t, op, comm, NULL, req)
                          : MPI_Iexscan(in, out, N, t, op, comm, req);
    case ALLTOALL:
        return persistent ? colibri_alltoall_init(in, 2, t, out, 2, t, comm, NULL, req)
                          : MPI_Ialltoall(in, 2, t, out, 2, t, comm, req);
    case ALLTOALLV:
        return persistent ? colibri_alltoallv_init(in, cc, cd, t, out, cc, cd, t, comm, NULL, req)
                          : MPI_Ialltoallv(in, counts, displs, t, out, counts, displs, t, comm, req);
    default:
        return MPI_ERR_ARG;
    }
}

static void one(enum coll c, bool persistent)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Op op;
    MPI_Op_create(pair_sum, 1, &op);
    MPI_Datatype t = pair_type();
    const int elems = c >= ALLTOALL ? 2 * size : (c == REDUCE_SCATTER_BLOCK ? 2 * size : N);
    /* room for the largest input: reduce_scatter's blocks of 1..3 pairs */
    const size_t room = 3 * ((size_t)N + 3 * (size_t)size) + 3;
    int *in = calloc(room, sizeof(int)), *out = calloc(room, sizeof(int));
    int counts[64], displs[64];
    for (int r = 0; r < size; r++)
        counts[r] = c == REDUCE_SCATTER ? 1 + r % 3 : 2, displs[r] = 2 * r;
    int total = 0;
    for (int r = 0; r < size; r++)
        total += c == REDUCE_SCATTER ? counts[r] : 0;
    if (c == REDUCE_SCATTER) {
        displs[0] = 0;
        for (int r = 1; r < size; r++)
            displs[r] = displs[r - 1] + counts[r - 1];
    }
    const int n_in = c == REDUCE_SCATTER ? total : elems;
    for (int i = 0; i < n_in; i++)
        for (int f = 0; f < 2; f++)
            in[3 * i + f] = in_val(rank, i, f);
    MPI_Request req;
    int rc = start(c, persistent, in, out, counts, displs, t, op, comm, &req);
    const char *ran = colibri_last_algorithm(comm, colls[c]);
    char ran_name[64];
    snprintf(ran_name, sizeof ran_name, "%s", ran ? ran : "(none)");
    /* The program lets go of everything it gave the call. */
    MPI_Op_free(&op);
    MPI_Type_free(&t);
    MPI_Comm_free(&comm);
    bool ok = rc == MPI_SUCCESS && op == MPI_OP_NULL && t == MPI_DATATYPE_NULL &&
              comm == MPI_COMM_NULL;
    for (int run = 0; ok && run < (persistent ? 2 : 1); run++) {
        if (persistent) {
            memset(out, 0, room * sizeof(int));
            ok = MPI_Start(&req) == MPI_SUCCESS;
        }
        ok = ok && MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS;
        if (!ok)
            break;
        switch (c) {
        case ALLREDUCE:
            ok = check_pairs(out, N, size, 0);
            break;
        case REDUCE:
            ok = rank != size - 1 || check_pairs(out, N, size, 0);
            break;
        case REDUCE_SCATTER_BLOCK:
            ok = check_pairs(out, 2, size, 2 * rank);
            break;
        case REDUCE_SCATTER:
            ok = check_pairs(out, counts[rank], size, displs[rank]);
            break;
        case SCAN: /* ranks 0..rank */
            ok = check_pairs(out, N, rank + 1, 0);
            break;
        case EXSCAN: /* ranks 0..rank-1; rank 0's output untouched */
            for (int i = 0; ok && rank == 0 && i < 3 * N; i++)
                ok = out[i] == 0;
            ok = ok && (rank == 0 || check_pairs(out, N, rank, 0));
            break;
        default: /* block j of rank r's output came from rank j's block r */
            for (int j = 0; ok && j < size; j++)
                for (int e = 0; e < 2; e++)
                    for (int f = 0; f < 2; f++)
                        ok &= out[3 * (2 * j + e) + f] == in_val(j, 2 * rank + e, f);
        }
    }
    if (persistent && req != MPI_REQUEST_NULL)
        MPI_Request_free(&req);
    /* colibri ran it, not the MPI below (every collective here has an
     * algorithm for a commutative user op on a derived type) */
    const bool colibri = strcmp(ran_name, "native") != 0 &&
                         /* automatic MPI_Ialltoallv chooses after its prelude */
                         (strcmp(ran_name, "(none)") != 0 || (c == ALLTOALLV && !persistent));
    h_record(MPI_COMM_WORLD, ok && colibri, "%s %s with its op, type and communicator freed: %s (ran %s)",
             persistent ? "persistent" : "nonblocking", names[c],
             ok ? "ran natively" : "wrong result or error", ran_name);
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    h_init(&argc, &argv);
    for (int rep = 0; rep < 3; rep++)
        for (int c = 0; c < NCOLL; c++)
            for (int p = 0; p < 2; p++)
                one((enum coll)c, p);
    return h_finish();
}
