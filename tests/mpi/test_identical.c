// ranks: 1 2 3 4 5 6 7 8
// mpich-ranks: 2
// ompi5-ranks: 1 2 3 4
// mpich5-ranks: 1 2
// impi-ranks: 1 2
// abi-ranks: 1 2
// asan-ranks: 3
// env-ranks: COLIBRI_ONLINE_FAKE=random:3,calls=2,window=1 2 3 4
/*
 * Every rank receives bitwise the same allreduce result (MPI-4 6.9.1; MPICH
 * and Open MPI both had bugs here: mpich#6538, ompi#11721).  Every
 * allreduce algorithm of the catalog, forced by name (k-nomial at several
 * radices), blocking and nonblocking, on data whose sum depends on the
 * order of the additions in its last bits: doubles and floats of magnitudes
 * 2^-40 .. 2^40 with both signs, MPI_SUM and a commutative user-defined sum
 * (which colibri reduces through MPI_Reduce_local); counts 1 .. 1000 on the
 * world and on a split communicator.  Each rank compares its result with
 * rank 0's, byte for byte.  The values are not checked (test_matrix does
 * that against a serial reference): only that all ranks agree.
 */
#include <math.h>

#include "harness.h"

static void user_sum_double(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((double *)inout)[i] += ((const double *)in)[i];
}

static void user_sum_float(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((float *)inout)[i] += ((const float *)in)[i];
}

static double value(uint64_t seed, int rank, int64_t i)
{
    uint64_t h = h_mix(seed ^ h_mix((uint64_t)rank * 0x100000001b3ull + (uint64_t)i));
    const double m = 1.0 + (double)(h >> 11) / 9007199254740992.0; /* [1, 2) */
    const int e = (int)(h % 81) - 40;
    return (h >> 7 & 1 ? -1 : 1) * ldexp(m, e);
}

/* One case: runs it, compares with rank 0's result, records it. */
static void one(MPI_Comm comm, const char *alg, int radix, MPI_Datatype dt, MPI_Op op,
                const char *opname, int64_t n, bool nonblocking, uint64_t seed)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const size_t es = dt == MPI_DOUBLE ? sizeof(double) : sizeof(float);
    char *in = malloc((size_t)n * es + 1), *out = malloc((size_t)n * es + 1),
         *ref = malloc((size_t)n * es + 1);
    for (int64_t i = 0; i < n; i++) {
        double v = value(seed, rank, i);
        if (dt == MPI_DOUBLE)
            ((double *)in)[i] = v;
        else
            ((float *)in)[i] = (float)v;
    }
    int rc;
    if (nonblocking) {
        MPI_Request req;
        rc = colibri_iallreduce(in, out, n, dt, op, comm, alg, &req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        rc = colibri_allreduce(in, out, n, dt, op, comm, alg);
    }
    memcpy(ref, out, (size_t)n * es);
    PMPI_Bcast(ref, (int)((size_t)n * es), MPI_BYTE, 0, comm);
    int64_t first = -1;
    for (int64_t i = 0; rc == MPI_SUCCESS && first < 0 && i < n; i++)
        if (memcmp(out + i * es, ref + i * es, es) != 0)
            first = i;
    h_record(comm, rc == MPI_SUCCESS && first < 0,
             "%s%s radix %d, %s %s, p=%d, n=%lld: %s (element %lld)", nonblocking ? "i" : "",
             alg, radix, dt == MPI_DOUBLE ? "MPI_DOUBLE" : "MPI_FLOAT", opname, size,
             (long long)n, rc != MPI_SUCCESS ? "call failed" : "differs from rank 0's result",
             (long long)first);
    free(in);
    free(out);
    free(ref);
}

static void sweep(MPI_Comm comm, MPI_Op user_double, MPI_Op user_float)
{
    int size;
    MPI_Comm_size(comm, &size);
    const bool pow2 = (size & (size - 1)) == 0;
    const int64_t counts[] = {1, 7, 64, 1000, 5 * (int64_t)size + 3};
    for (int i = 0; i < colibri_catalog_size(); i++) {
        colibri_algorithm_info a;
        if (colibri_catalog_get(i, &a) != MPI_SUCCESS || a.coll != COLIBRI_ALLREDUCE)
            continue;
        if (strstr(a.restrictions, "power-of-two") && !pow2)
            continue;
        const bool sparse = strstr(a.restrictions, "neutral-element") != NULL;
        const int radices[] = {0, 2, 3, 5, 8};
        const int nradix = strcmp(a.name, "knomial") == 0 ? 5 : 1;
        for (int r = 0; r < nradix; r++) {
            char v[16];
            snprintf(v, sizeof v, "%d", radices[r]);
            setenv("COLIBRI_RADIX", v, 1);
            colibri_config_reload();
            for (int c = 0; c < 5; c++)
                for (int nb = 0; nb < 2; nb++) {
                    uint64_t seed = (uint64_t)(i * 131 + r * 17 + c * 3 + nb);
                    one(comm, a.name, radices[r], MPI_DOUBLE, MPI_SUM, "MPI_SUM", counts[c], nb,
                        seed);
                    one(comm, a.name, radices[r], MPI_FLOAT, MPI_SUM, "MPI_SUM", counts[c], nb,
                        seed + 7);
                    if (sparse)
                        continue; /* user ops have no neutral element: not for sparse */
                    one(comm, a.name, radices[r], MPI_DOUBLE, user_double, "user sum", counts[c],
                        nb, seed + 11);
                    one(comm, a.name, radices[r], MPI_FLOAT, user_float, "user sum", counts[c],
                        nb, seed + 13);
                }
        }
        unsetenv("COLIBRI_RADIX");
        colibri_config_reload();
    }
    /* Automatic selection, each shape called 8 times in a row: online
     * selection explores and decides on them (with the env-ranks line's
     * fake timings, differently at every few calls) */
    for (int c = 0; c < 5; c++)
        for (int rep = 0; rep < 8; rep++) {
            const uint64_t seed = (uint64_t)(9000 + c * 16 + rep);
            one(comm, "auto", 0, MPI_DOUBLE, MPI_SUM, "MPI_SUM", counts[c], false, seed);
            one(comm, "auto", 0, MPI_FLOAT, user_float, "user sum", counts[c], false, seed + 7);
        }
}

int main(int argc, char **argv)
{
    h_init(&argc, &argv);
    MPI_Op user_double, user_float;
    MPI_Op_create(user_sum_double, 1, &user_double);
    MPI_Op_create(user_sum_float, 1, &user_float);
    sweep(MPI_COMM_WORLD, user_double, user_float);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 3 == 0, -rank, &sub);
    sweep(sub, user_double, user_float);
    h_flush(); /* its tally is on sub */
    MPI_Comm_free(&sub);
    MPI_Op_free(&user_double);
    MPI_Op_free(&user_float);
    return h_finish();
}
