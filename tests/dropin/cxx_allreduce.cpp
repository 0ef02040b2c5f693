// A plain C++ MPI program (mpicxx) that knows nothing of colibri: the
// drop-in scripts preload libcolibri.so under it.  MPI_Allreduce on
// std::vector data, in place and not, for a few element types, each result
// checked against a serial computation; with Open MPI's legacy C++ bindings
// also MPI::COMM_WORLD.Allreduce.  Rank 0 prints "calls per rank:
// allreduce=N"; a wrong result makes the exit status nonzero.
#include <mpi.h>

#include <cstdio>
#include <vector>

template <typename T> struct mpi_type;
template <> struct mpi_type<int> { static MPI_Datatype get() { return MPI_INT; } };
template <> struct mpi_type<double> { static MPI_Datatype get() { return MPI_DOUBLE; } };
template <> struct mpi_type<long long> { static MPI_Datatype get() { return MPI_LONG_LONG; } };

static int calls, errors;

template <typename T> static T value(int rank, std::size_t i)
{
    return static_cast<T>(static_cast<long long>((rank + 3) * (i % 1013)) - 700);
}

template <typename T> static void sum(std::size_t n, bool in_place)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    std::vector<T> in(n), out(n);
    for (std::size_t i = 0; i < n; i++)
        (in_place ? out : in)[i] = value<T>(rank, i);
    MPI_Allreduce(in_place ? MPI_IN_PLACE : in.data(), out.data(), static_cast<int>(n),
                  mpi_type<T>::get(), MPI_SUM, MPI_COMM_WORLD);
    calls++;
    for (std::size_t i = 0; i < n; i++) {
        T want = 0;
        for (int r = 0; r < size; r++)
            want += value<T>(r, i);
        if (out[i] != want) {
            std::fprintf(stderr, "rank %d: n=%zu%s: element %zu wrong\n", rank, n,
                         in_place ? " in place" : "", i);
            errors++;
            return;
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (std::size_t n : {1, 100, 5000})
        for (bool in_place : {false, true}) {
            sum<int>(n, in_place);
            sum<double>(n, in_place);
            sum<long long>(n, in_place);
        }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#if defined(OMPI_BUILD_CXX_BINDINGS) && OMPI_BUILD_CXX_BINDINGS
    int one = 1, total = 0;
    MPI::COMM_WORLD.Allreduce(&one, &total, 1, MPI::INT, MPI::SUM);
    calls++;
    if (total != size) {
        std::fprintf(stderr, "rank %d: MPI::COMM_WORLD.Allreduce gave %d\n", rank, total);
        errors++;
    }
#endif
    if (rank == 0)
        std::printf("calls per rank: allreduce=%d\n", calls);
    MPI_Finalize();
    return errors != 0;
}
