#!/usr/bin/env bash
# Alltoallv at scale as the seed ran it: 1024 ranks as 64 nodes x 16 cores
# (platforms/cluster-256x16.xml: 100 Gb/s, 1 us, a loopback link per node)
# with 0.5 us per-message overheads and shared-memory copies charged, every
# received byte checked (check_exchange.c): SLOAVx and auto (which takes
# SLOAVx here) on uniform and skewed counts (rank 0 sends 100x more), then
# SLOAVx and auto on an uneven layout of 1000 ranks (hosts of 1 to 31
# ranks: auto's agreement between nodes runs over one rail there) with
# random counts and empty ranks; check_predict.c times auto's second call
# against SLOAVx named.  Every pattern, in place too, runs at 16
# ranks in sloavx.sh; a 1000-rank call takes seconds of wall time.  colibri's
# layout exchange uses no MPI_Allgather (layout.sh), but at 1024 ranks of
# 64 x 16 a first node-aware call still simulates several times slower with
# SMPI's default allgather than with MPICH's, inside SMPI's own part of the
# node segment's creation (DEVELOPERS.md): MPICH's keeps this test short.
source "$(dirname "$0")/lib.bash"
smpi_build check_exchange
smpi_build check_predict
export PLATFORM=platforms/cluster-256x16.xml
export SMPI_CFG="--cfg=smpi/allgather:mpich --cfg=smpi/os:0:5e-7:0 --cfg=smpi/or:0:5e-7:0 --cfg=smpi/ois:0:5e-7:0"
export COLIBRI_COST_MODEL=1e-6,8e-11,5e-11,5e-7
status=0
echo "== 64x16, p=1024"
CHECK_PATTERNS=uniform,skewed CHECK_IN_PLACE=0 HOSTFILE=platforms/hostfile-64x16.txt \
  smpi_run 1024 build-smpi/tests/smpi_check_exchange sloavx auto || status=1
echo "== 64x16, p=1024: auto predicts its sizes from the last sloavx call (check_predict.c)"
# online selection off: it times the shape's exploring calls with MPI_Wtime,
# which SMPI charges 10 ns of simulated time each (smpi/wtime), and this
# compares auto's predicted call with a named one to 0.1%
COLIBRI_ONLINE=0 HOSTFILE=platforms/hostfile-64x16.txt smpi_run 1024 build-smpi/tests/smpi_check_predict || status=1
echo "== uneven, p=1000"
CHECK_PATTERNS=random,empty-ranks CHECK_IN_PLACE=0 HOSTFILE=platforms/hostfile-uneven-1000.txt \
  smpi_run 1000 build-smpi/tests/smpi_check_exchange sloavx auto || status=1
exit $status
