#!/usr/bin/env bash
# Scan and exscan on the simulated flat cluster (check_scan.c), then with
# 4 ranks a host and on hosts of 5, 2 and 7 ranks: every
# algorithm, the model's automatic choice (online selection off) and SMPI's
# own, at 16 ranks (SCAN_RANKS="16 64" for more: 64 ranks take about 4
# minutes of wall time, most of it SMPI's own 1 MiB scan, which sends
# p(p-1)/2 messages); results checked, simulated times printed.
source "$(dirname "$0")/lib.bash"
smpi_build check_scan
status=0
for np in ${SCAN_RANKS:-16}; do
  COLIBRI_ONLINE=0 smpi_run "$np" build-smpi/tests/smpi_check_scan || status=1
done
# several ranks a host: node_leader's prefixes through the node segment
# (4 hosts of 4; hosts of 5, 2 and 7), results checked (the automatic
# choice's 25% bound only on the flat cluster above: check_scan.c)
for layout in "4x4 16" "5-2-7 14"; do
  set -- $layout
  echo "== hosts $1, p=$2"
  SCAN_AUTO_CHECK=0 COLIBRI_ONLINE=0 HOSTFILE=platforms/hostfile-$1.txt smpi_run "$2" \
    build-smpi/tests/smpi_check_scan || status=1
done
exit $status
