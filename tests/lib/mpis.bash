# Sourced by tests/run.sh and tests/dropin/common.bash: how to build for and
# launch on the MPI libraries of scripts/install-mpis.sh (Python venvs under
# $COLIBRI_MPI_CACHE, default .cache/mpis) and the standard-ABI build.
#
# Targets (what a test runs under):
#   ompi5        Open MPI 5.0.11, build-ompi5/ (make MPICC=<venv>/bin/mpicc)
#   mpich5       MPICH 5.0.2,     build-mpich5/
#   impi         Intel MPI 2021.19, build-impi/
#   abi-mpich5   build-abi/ (make MPI=abi: mpicc_abi) on MPICH 5's libmpi_abi.so
#   abi-impi     build-abi/ on Intel MPI's libmpi_abi.so (LD_LIBRARY_PATH)
#   site         any other MPI: COLIBRI_TEST_MPICC=/path/to/mpicc (its mpirun
#                beside it, or COLIBRI_TEST_MPIRUN), built into build-site/
#                and launched the way its kind is (scripts/mpi-name.sh: Open
#                MPI, Intel MPI, else MPICH's hydra); its tests are those of
#                that kind's marker line (ompi5-, impi-, mpich5-, abi-ranks)
# Each library's quirks, in one place:
#   Open MPI 5   as root the OMPI_ALLOW_RUN_AS_ROOT{,_CONFIRM}=1 variables
#                still work (no --allow-run-as-root needed); more ranks than
#                cores need --oversubscribe (it then yields); at 2 ranks on
#                2 cores it would busy-poll, and beside colibri's progress
#                thread or another job a run then takes 5-10 times as long:
#                mpi_yield_when_idle=1 always.
#   MPICH 5      busy-polls: at most 2 ranks on this 2-core machine.
#   Intel MPI    the PyPI wrappers need I_MPI_ROOT (no install path in them);
#                its bin/ must come first in PATH, or its mpirun starts
#                Debian MPICH's hydra_pmi_proxy, "detects" a multi-node run
#                and fails in MPI_Init; I_MPI_FABRICS=shm (no libfabric
#                provider on one node); variables for the ranks only (the
#                preloaded library) go through -genv, not the launcher's
#                environment; busy-polls like MPICH: at most 2 ranks.
MPI_CACHE=${COLIBRI_MPI_CACHE:-.cache/mpis}

# mpi_kind TARGET: the target whose launcher and marker line it shares.
mpi_kind() {
  if [ "$1" != site ]; then echo "$1"; return; fi
  case $(sh scripts/mpi-name.sh "$COLIBRI_TEST_MPICC") in
    ompi*) echo ompi5 ;;
    impi) echo impi ;;
    abi) echo abi-mpich5 ;;
    *) echo mpich5 ;;
  esac
}

# mpi_venv TARGET: the venv folder the target's library comes from.
mpi_venv() {
  case $1 in
    site) (cd "$(dirname "$(command -v "$COLIBRI_TEST_MPICC")")/.." && pwd) ;;
    ompi5) echo "$MPI_CACHE/ompi5" ;;
    mpich5 | abi-mpich5) echo "$MPI_CACHE/mpich5" ;;
    impi | abi-impi) echo "$MPI_CACHE/impi" ;;
    *) return 1 ;;
  esac
}

# mpi_build TARGET: the build folder its programs are in.
mpi_build() {
  case $1 in
    abi-*) echo build-abi ;;
    *) echo "build-$1" ;;
  esac
}

# mpi_make_args TARGET: make's arguments that build it.
mpi_make_args() {
  case $1 in
    abi*) echo "MPI=abi MPICC=$MPI_CACHE/mpich5/bin/mpicc_abi" ;;
    site) echo "MPICC=$COLIBRI_TEST_MPICC BUILD=build-site" ;;
    *) echo "MPICC=$(mpi_venv "$1")/bin/mpicc" ;;
  esac
}

# mpi_missing TARGET: prints why the target cannot run here (nothing, status
# 1, when it can).
mpi_missing() {
  if [ "$1" = site ]; then
    [ -n "${COLIBRI_TEST_MPICC:-}" ] && command -v "$COLIBRI_TEST_MPICC" >/dev/null ||
      { echo "COLIBRI_TEST_MPICC (the site's mpicc) is not set or not found"; return 0; }
    return 1
  fi
  local v; v=$(mpi_venv "$1") || { echo "unknown MPI target '$1'"; return 0; }
  [ -x "$v/bin/mpirun" ] || { echo "$v is not installed (bash scripts/install-mpis.sh)"; return 0; }
  case $1 in abi-*) [ -x "$MPI_CACHE/mpich5/bin/mpicc_abi" ] ||
      { echo "$MPI_CACHE/mpich5 is not installed (bash scripts/install-mpis.sh)"; return 0; } ;;
  esac
  return 1
}

# mpi_launch TARGET NP [VAR=VALUE...]: sets the array LAUNCH to the command
# prefix that runs a program on NP ranks of TARGET with VAR=VALUE in the
# ranks' environment (not the launcher's: LD_PRELOAD stays out of mpirun).
mpi_launch() {
  local t=$1 np=$2 v run; shift 2
  v=$(cd "$(mpi_venv "$t")" && pwd)
  run=${COLIBRI_TEST_MPIRUN:-$v/bin/mpirun}
  [ "$t" = site ] || run=$v/bin/mpirun
  case $(mpi_kind "$t") in
    ompi5)
      LAUNCH=(env PATH="$v/bin:$PATH" OMPI_MCA_mpi_yield_when_idle=1 "$run" --oversubscribe -n "$np")
      for kv in "$@"; do LAUNCH+=(-x "$kv"); done ;;
    mpich5 | abi-mpich5)
      LAUNCH=(env PATH="$v/bin:$PATH" "$run" -n "$np")
      for kv in "$@"; do LAUNCH+=(-genv "${kv%%=*}" "${kv#*=}"); done ;;
    impi | abi-impi)
      LAUNCH=(env I_MPI_ROOT="$v" PATH="$v/bin:$PATH" I_MPI_FABRICS=shm)
      [ "$t" = abi-impi ] && LAUNCH+=(LD_LIBRARY_PATH="$v/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
      LAUNCH+=("$run" -n "$np")
      for kv in "$@"; do LAUNCH+=(-genv "${kv%%=*}" "${kv#*=}"); done ;;
  esac
}
