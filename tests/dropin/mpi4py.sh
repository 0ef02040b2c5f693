#!/usr/bin/env bash
# Drop-in under Python: mpi4py (Debian's python3-mpi4py, built on Open MPI)
# with numpy buffers, preloaded into /usr/bin/python3; results right and every
# reduction run by colibri.
source "$(dirname "$0")/common.bash"

if ! /usr/bin/python3 -c 'import mpi4py, numpy' 2>/dev/null; then
  echo "FAIL: /usr/bin/python3 needs python3-mpi4py and python3-numpy"
  exit 1
fi
for np in 1 3; do
  preloaded openmpi "$np" /usr/bin/python3 tests/dropin/mpi4py_reductions.py
  expect_ok $? "$np"
done

finish
