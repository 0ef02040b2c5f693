#!/usr/bin/env bash
# The sparse allreduce against the issue's bars, in simulated time (64 ranks,
# 1 MiB of doubles, communication only, so deterministic): with 1% of the
# elements non-zero at random positions the automatic choice must be at
# least 3x faster than colibri's dense algorithm, and on fully dense data
# no more than 3% slower; with 1% clustered (every rank's non-zeros one run
# in a shared window) the automatic choice must be within 5% of the faster
# sparse algorithm (the agreed union estimate tells it that whole partials
# stay small: before it, auto took sparse_rabenseifner at 2x the time of
# sparse_recursive_doubling).  bench/sparse_bench.c checks that every
# algorithm computes the same sum.
source "$(dirname "$0")/lib.bash"
exe=build-smpi/tests/smpi_sparse_bench
if [ ! -x "$exe" ] || [ bench/sparse_bench.c -nt "$exe" ] || [ "$LIB" -nt "$exe" ]; then
  smpicc -std=c11 -O2 -D_GNU_SOURCE -Iinclude bench/sparse_bench.c -o "$exe" \
    -Wl,--whole-archive "$LIB" -Wl,--no-whole-archive -lm
fi
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT
smpi_run 64 "$exe" -m 1048576 -M 1048576 -d 1,0.01 -i 1 -o "$csv"
cat "$csv"
awk -F, '$5 == "random" { t[$4 "," $6] = $8; ran[$4 "," $6] = $7 }
  $5 == "clustered" && $4 == 0.01 { c[$6] = $8; if ($6 == "auto") cran = $7 }
  END {
    bad = 0
    d1 = t["0.01,dense"]; a1 = t["0.01,auto"]; dd = t["1,dense"]; ad = t["1,auto"]
    if (!(d1 > 0 && a1 > 0 && dd > 0 && ad > 0)) { print "FAIL: missing rows"; exit 1 }
    if (!(a1 * 3 <= d1)) { printf "FAIL: 1%%: auto (%s) %.1f us is not 3x faster than dense %.1f us\n", ran["0.01,auto"], a1, d1; bad = 1 }
    if (!(ad <= 1.03 * dd)) { printf "FAIL: dense data: auto %.1f us vs dense %.1f us\n", ad, dd; bad = 1 }
    if (index(ran["0.01,auto"], "sparse") != 1) { print "FAIL: auto ran " ran["0.01,auto"] " at 1%"; bad = 1 }
    ca = c["auto"]; crd = c["sparse-rd"]; crab = c["sparse-rab"]; cbest = crd < crab ? crd : crab
    if (!(ca > 0 && cbest > 0)) { print "FAIL: missing clustered rows"; exit 1 }
    if (!(ca <= 1.05 * cbest)) { printf "FAIL: 1%% clustered: auto (%s) %.1f us, best sparse %.1f us\n", cran, ca, cbest; bad = 1 }
    if (!bad) printf "ok: 1%%: %s %.2fx faster than dense; dense data: auto/dense %.3f; 1%% clustered: %s %.2fx dense\n", ran["0.01,auto"], d1 / a1, ad / dd, cran, t["0.01,dense"] / ca
    exit bad }' "$csv"
