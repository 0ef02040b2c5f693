#!/usr/bin/env bash
# The main job: install what is missing, build colibri for Open MPI and for
# SimGrid SMPI, then show colibri's MPI_Allreduce against the native one
#   1. on real ranks on this machine (Open MPI), and
#   2. on a simulated 1024-rank cluster (100 Gb/s, 1 us) under SMPI.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
make -j2 >/dev/null
make -j2 sim >/dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx
NP=${NP:-2}

echo "== colibri vs native MPI_Allreduce, Open MPI, $NP ranks on this machine (usec per call)"
mpirun --oversubscribe -n "$NP" build/bin/colibri-bench -c allreduce -a auto,native,recursive_doubling,rabenseifner,ring -m 8 -M 16777216

echo
echo "== colibri vs SMPI's built-in MPI_Allreduce, simulated 1024-rank cluster (100 Gb/s, 1 us; simulated usec)"
# One rank per host on a flat 1 us / 100 Gb/s cluster; SMPI's correction
# factors set to 1 so the model is exact.  SMPI's own MPI_Allreduce is the
# "native" column (its default algorithm selection).
smpirun -np 1024 -platform platforms/cluster-1024.xml -hostfile platforms/hostfile-1024.txt \
  --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 --cfg=smpi/allgather:mpich \
  --log=root.thres:warning \
  build-smpi/bin/colibri-bench -c allreduce -a auto,native,recursive_doubling,knomial,rabenseifner \
  -N smpi:default -i 1 -w 0 -m 8 -M 1M -s 8 -L 1e-6,8e-11,0
