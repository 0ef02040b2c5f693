#!/usr/bin/env bash
# Scan and exscan on the simulated flat cluster (check_scan.c): every
# algorithm, the model's automatic choice (online selection off) and SMPI's
# own, at 16 ranks (SCAN_RANKS="16 64" for more: 64 ranks take about 4
# minutes of wall time, most of it SMPI's own 1 MiB scan, which sends
# p(p-1)/2 messages); results checked, simulated times printed.
source "$(dirname "$0")/lib.bash"
smpi_build check_scan
for np in ${SCAN_RANKS:-16}; do
  COLIBRI_ONLINE=0 smpi_run "$np" build-smpi/tests/smpi_check_scan
done
