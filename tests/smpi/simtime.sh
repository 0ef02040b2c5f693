#!/usr/bin/env bash
# Simulated time, not wall-clock time: on 64 ranks of the 1 us / 100 Gb/s
# cluster, with computation not timed, SMPI's clock is deterministic, so the
# cost model's predictions can be checked exactly:
#   1 MiB:  recursive doubling  6(a + n b)             ~ 509 us
#           Rabenseifner        12 a + 2(63/64) n b    ~ 177 us  (>2x faster)
#   8 B:    recursive doubling  6 a                    ~ 6 us
#           Rabenseifner        12 a                   ~ 12 us   (slower)
# and nothing may beat the lower bound lg p a + 2(p-1)/p n b.
source "$(dirname "$0")/lib.bash"
smpi_build check_scale
status=0
for count in 1 131072; do
  out=$(smpi_run 64 build-smpi/tests/smpi_check_scale "$count" recursive_doubling rabenseifner) || status=1
  echo "$out"
  rd=$(awk '$1=="time" && $2=="recursive_doubling" {print $4}' <<<"$out")
  rab=$(awk '$1=="time" && $2=="rabenseifner" {print $4}' <<<"$out")
  [ -n "$rd" ] && [ -n "$rab" ] || { echo "FAIL: count $count: missing times"; status=1; continue; }
  awk -v c="$count" -v rd="$rd" -v rab="$rab" 'BEGIN {
    a = 1e-6; b = 8e-11; p = 64; n = 8 * c
    bound = 1e6 * (6 * a + 2 * (p - 1) / p * n * b)
    rd_model = 1e6 * 6 * (a + n * b)
    bad = 0
    if (rd < 0.999 * bound || rab < 0.999 * bound) { print "FAIL: below the lower bound " bound " us"; bad = 1 }
    if (rd < 0.95 * rd_model || rd > 1.3 * rd_model) { print "FAIL: recursive doubling " rd " us, model " rd_model " us"; bad = 1 }
    if (c > 1000 && !(rab < rd / 2)) { print "FAIL: at " n " bytes Rabenseifner (" rab " us) is not 2x faster than recursive doubling (" rd " us)"; bad = 1 }
    if (c == 1 && !(rd < rab)) { print "FAIL: at " n " bytes recursive doubling (" rd " us) is not faster than Rabenseifner (" rab " us)"; bad = 1 }
    if (!bad) printf "ok: %d bytes: recursive doubling %.2f us, rabenseifner %.2f us, bound %.2f us\n", n, rd, rab, bound
    exit bad }' || status=1
done
exit $status
