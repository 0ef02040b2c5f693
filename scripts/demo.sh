#!/usr/bin/env bash
# The main job: install what is missing, build colibri for Open MPI and for
# SimGrid SMPI, then show colibri's MPI_Allreduce
#   1. against Open MPI's on real ranks on this machine, and
#   2. against the fastest of SMPI's built-in allreduce algorithms, and a
#      lower bound, on a simulated 1024-rank cluster (100 Gb/s, 1 us).
# The simulated part is four 1024-rank simulations: 323 s of CPU (one
# core), measured as 821 s of wall time on 2 cores shared with other builds.
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
echo "== colibri vs SMPI's best built-in MPI_Allreduce, simulated 1024-rank cluster (100 Gb/s, 1 us; simulated usec per repeated call)"
# One rank per host on a flat 1 us / 100 Gb/s cluster (platforms/cluster-1024.xml);
# SMPI's correction factors set to 1 and computation not timed, so the
# simulated times are deterministic and exact.  SMPI's collectives keep
# their defaults: colibri's setup needs no --cfg=smpi/allgather.
#
# "best built-in": SMPI's allreduce run with each of BUILTINS (one
# simulation each) and the fastest per size shown by name.  These are the
# built-ins that were fastest at some size of 8 B - 1 MiB on this platform
# in the full sweep (bench/scripts/bench_smpi.sh, docs/benchmarks.md);
# SMPI's default (reduce then broadcast, 340x colibri at 256 KiB) is no
# contender, smp_rsag* are wrong on short vectors and rab1/rab2 never
# finish (DEVELOPERS.md).
#
# Repeated calls: every size's first call (checked, not timed: it builds
# colibri's state) and WARMUP more are excluded, then the mean of ITERS
# calls is shown (one is enough: the simulated clock is deterministic).  Automatic selection probes a vector of 8 KiB or more
# for sparsity at its second call of that shape, then reuses the estimate
# for 32 calls and more: the warm-up call holds the probe, as a
# long-running application amortises it.  colibri's named algorithms:
# bench/scripts/bench_smpi.sh.
#
# "bound": a lower bound no algorithm can beat on this platform.  A host
# sends and receives on its own full-duplex link, to and from any number
# of peers at once (they share its 12.5 GB/s), and a message takes
# a = 1 us of latency end to end plus its bytes at b = 0.08 ns/B.  Every
# rank must learn, for each of the n bytes of its vector, the sum of the
# other ranks' values: at least n bytes reach it, through its one link,
# the first no earlier than a.  So no call ends before a + n b.  There is
# no lg p latency term: with many messages in flight at once a rank hears
# from all others in one latency (a single-port bound, ceil(lg p) a +
# 2 (p-1)/p n b, is what auto's k-nomial beats at short sizes).
BUILTINS=${BUILTINS:-"rdb rab mvapich2"}
WARMUP=${WARMUP:-1} ITERS=${ITERS:-1}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sim() { # name, colibri-bench options...: one simulation, its CSV in $tmp/name.csv
  local name=$1; shift
  smpirun -np 1024 -platform platforms/cluster-1024.xml -hostfile platforms/hostfile-1024.txt \
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
    "$@" --log=root.thres:warning >"$tmp/$name.log" 2>&1 || { cat "$tmp/$name.log"; exit 1; }
}
bench=(build-smpi/bin/colibri-bench -c allreduce -m 8 -M 1M -s 8 -w "$WARMUP" -i "$ITERS" -q)
sim colibri "${bench[@]}" -a auto -o "$tmp/colibri.csv"
for b in $BUILTINS; do
  sim "$b" --cfg=smpi/allreduce:"$b" "${bench[@]}" -a native -N "$b" -o "$tmp/$b.csv"
done
awk -F, -v builtins="$BUILTINS" '
  FNR == 1 { next }
  $2 == "auto" { auto[$4] = $5; pick[$4] = $7; sizes[$4] = 1; next }
  FILENAME ~ /colibri.csv$/ { next }
  !($4 in best) || $5 < best[$4] { best[$4] = $5; who[$4] = $2 }
  END {
    a = 1e-6; b = 8e-11
    printf "%10s %10s %-20s %10s %-10s %9s %10s\n", "bytes", "auto", "auto picks", "built-in", "(best of)", "auto/best", "bound"
    n = 0; for (s in sizes) order[n++] = s + 0
    for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
    for (i = 0; i < n; i++) {
      s = order[i]
      printf "%10d %10.2f %-20s %10.2f %-10s %8.2fx %10.2f\n", s, auto[s], pick[s], best[s], who[s], auto[s] / best[s], 1e6 * (a + s * b)
    }
    printf "(built-ins tried: %s; usec, mean of a repeated call; bound: a + n b, see scripts/demo.sh)\n", builtins
  }' "$tmp/colibri.csv" $(for b in $BUILTINS; do echo "$tmp/$b.csv"; done)
