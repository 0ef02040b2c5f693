#!/usr/bin/env bash
# Shared-memory copies cost simulated time (runtime/shm_charge.c): SLOAVx on
# 4 nodes x 4 ranks (16-core hosts), 64 KiB blocks, at the default
# COLIBRI_SHM_BANDWIDTH (1e10 B/s) and at 1e9.  Every rank copies its 16
# blocks into the segment and 16 out of it, 2 MiB, so the slower memory must
# add at least 2 MiB x (1/1e9 - 1/1e10) = 1.89 ms; the leader also copies
# the node's aggregated blocks (3 x 16 x 64 KiB each way), so at most
# (2 + 6) MiB x (1/1e9 - 1/1e10) plus 10% may be added.  A direct exchange
# (pairwise) uses no segment: its time must not change.
source "$(dirname "$0")/lib.bash"
export PLATFORM=platforms/cluster-256x16.xml
bench=build-smpi/bin/colibri-bench
[ -x "$bench" ] || { echo "missing $bench: run 'make sim' first"; exit 1; }
time_of() { # bandwidth -> "sloavx pairwise" microseconds
  COLIBRI_SHM_BANDWIDTH=$1 HOSTFILE=platforms/hostfile-4x4.txt smpi_run 16 "$bench" \
    -c alltoallv -a sloavx,pairwise -m 65536 -M 65536 -i 1 -w 0 | awk '$1 == 65536 {print $2, $3}'
}
read -r fast_x fast_p < <(time_of 1e10)
read -r slow_x slow_p < <(time_of 1e9)
echo "sloavx: ${fast_x} us at 1e10 B/s, ${slow_x} us at 1e9; pairwise: ${fast_p}, ${slow_p} us"
awk -v fx="$fast_x" -v sx="$slow_x" -v fp="$fast_p" -v sp="$slow_p" 'BEGIN {
  mib = 1048576; per = 1e6 * (1 / 1e9 - 1 / 1e10)
  lo = 2 * mib * per; hi = 1.1 * 8 * mib * per; d = sx - fx
  if (fx == "" || sx == "") { print "FAIL: no times"; exit 1 }
  if (d < lo || d > hi) { printf "FAIL: slower memory added %.0f us, want %.0f..%.0f\n", d, lo, hi; exit 1 }
  if (fp != sp) { print "FAIL: pairwise changed with the memory bandwidth"; exit 1 }
  printf "ok: +%.0f us (%.0f..%.0f)\n", d, lo, hi }'
