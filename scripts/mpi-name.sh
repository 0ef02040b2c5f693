#!/bin/sh
# mpi-name.sh MPICC: a short name for the MPI library behind the compiler
# wrapper MPICC, read from the macros its mpi.h defines (no program is run):
#   abi      the MPI-5 standard ABI (MPI_ABI_VERSION; mpicc_abi)
#   impi     Intel MPI (I_MPI_VERSION; checked before MPICH, which it derives from)
#   ompiN    Open MPI N.x (OMPI_MAJOR_VERSION)
#   mpichN   MPICH N.x and derivatives (MPICH_VERSION)
#   mpi      anything else
# The Makefile builds `make MPICC=...` into build-<name>/.
cc=${1:?usage: mpi-name.sh MPICC}
# Intel MPI's PyPI wrappers need I_MPI_ROOT (no installation path in them).
if [ -z "${I_MPI_ROOT:-}" ]; then
  d=$(dirname "$(command -v "$cc" || echo "$cc")")
  [ -e "$d/impi_info" ] && I_MPI_ROOT=$(cd "$d/.." && pwd) && export I_MPI_ROOT
fi
macros=$(printf '#include <mpi.h>\n' | $cc -E -dM -x c - 2>/dev/null) || { echo unknown; exit 1; }
val() { printf '%s\n' "$macros" | sed -n "s/^#define $1 \"*\\([0-9]*\\).*/\\1/p" | head -n 1; }
if [ -n "$(val MPI_ABI_VERSION)" ]; then echo abi
elif [ -n "$(val I_MPI_VERSION)" ]; then echo impi
elif [ -n "$(val OMPI_MAJOR_VERSION)" ]; then echo "ompi$(val OMPI_MAJOR_VERSION)"
elif [ -n "$(val MPICH_VERSION)" ]; then echo "mpich$(val MPICH_VERSION)"
else echo mpi
fi
