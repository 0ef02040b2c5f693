#!/usr/bin/env bash
# Every catalog algorithm (and auto) of allreduce, reduce, reduce_scatter and
# reduce_scatter_block against serial references under SMPI, at process
# counts that are powers of two, odd, prime and larger (see check_catalog.c).
source "$(dirname "$0")/lib.bash"
smpi_build check_catalog
status=0
for np in 2 3 8 13 64; do
  echo "== p=$np"
  smpi_run "$np" build-smpi/tests/smpi_check_catalog "$@" || status=1
done
exit $status
