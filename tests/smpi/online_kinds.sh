#!/usr/bin/env bash
# Online selection explores every kind of candidate (check_online_kinds.c):
# 64 ranks as 8 nodes x 8 on the sparse seed's DDR cluster (a 20 Gb/s port
# per node, 0.3 us per message), 8 MiB allreduce on 1% non-zeros and on
# dense data, no parameters typed.
source "$(dirname "$0")/lib.bash"
smpi_build check_online_kinds
PLATFORM=platforms/cluster-8x8-ddr.xml HOSTFILE=platforms/hostfile-8x8.txt \
  SMPI_CFG="--cfg=smpi/os:0:0.3e-6 --cfg=smpi/or:0:0.3e-6 --cfg=smpi/ois:0:0.3e-6" \
  smpi_run 64 build-smpi/tests/smpi_check_online_kinds
