#!/bin/bash
# ab.sh RUNS "coll bytes" ...: alternating native / base / new, 2 ranks, Open MPI 4.1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx
unset $(compgen -e | grep '^COLIBRI_')
runs=$1; shift
# BASELIB: the library before the change (built from f888a0e), NEWLIB: after
B=${BASELIB:?} N=${NEWLIB:?}
for cb in "$@"; do
  for r in $(seq $runs); do
    n=$(mpirun -n 2 ${PERCALL:-./percall} $cb 20000 5 | awk '{print $3}')
    b=$(mpirun -n 2 -x LD_PRELOAD=$B -x COLIBRI_TUNING=none ${PERCALL:-./percall} $cb 20000 5 | awk '{print $3}')
    c=$(mpirun -n 2 -x LD_PRELOAD=$N -x COLIBRI_TUNING=none ${PERCALL:-./percall} $cb 20000 5 | awk '{print $3}')
    echo "$cb $r native=$n base=$b new=$c"
  done
done
