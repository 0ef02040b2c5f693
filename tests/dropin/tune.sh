#!/usr/bin/env bash
# colibri-tune end to end, at 2 and 4 Open MPI ranks: with fake timings
# (--fake-timings, the test hook: every candidate still runs, but its time
# comes from the file) it writes exactly the expected rules, the same twice;
# automatic selection then follows the file (COLIBRI_STATS names the
# algorithms colibri-bench's auto calls ran, native included); colibri-info
# shows the file and its calibrated model.  Then one real run with a tiny
# budget, which must write a file that loads without a message, and the
# site's default file of an installed copy.  Nothing
# here depends on how fast anything runs.
source "$(dirname "$0")/common.bash"
make -s build/bin/colibri-tune build/bin/colibri-info build/tests/dropin_sized || exit 1

# Times in us: a + b * bytes.  allreduce: recursive doubling wins up to
# 4 KiB, ring from 32 KiB (native never); alltoall: bruck at 8 B, native
# at 64-512 B, pairwise at 4 KiB.
cat >"$OUT/fake" <<'EOF'
allreduce native 10 0.001
allreduce recursive_doubling 2 0.002
allreduce ring 20 0.0002
alltoall native 1 0.001
alltoall bruck 0.5 0.01
alltoall pairwise 2 0.0001
calibrate pingpong_node 0.5 0.0001
calibrate burst 1 0.09
calibrate reduce 2 0.00002
calibrate copy 1 0.00001
EOF

# stats NP SETTING... -- COLL BYTES: the algorithms colibri ran for the
# calls of `sized` (preloaded, COLIBRI_STATS=1), "coll alg" per line
stats() {
  local np=$1 vars=()
  shift
  while [ "$1" != -- ]; do vars+=("$1"); shift; done
  shift
  preloaded openmpi "$np" "${vars[@]}" build/tests/dropin_sized "$@" >&2 ||
    { fail "sized $* failed"; cat "$OUT/err"; }
  awk '$1 == "colibri:" && $4 ~ /^calls=/ { print $2, $3 }' "$OUT/err" | sort -u | xargs
}

for np in 2 4; do
  tune=(mpirun --oversubscribe -n $np build/bin/colibri-tune --fake-timings "$OUT/fake"
        -c allreduce,alltoall --blocking-only -m 8 -M 32K -s 8 --budget 1m)
  echo "+ ${tune[*]}"
  timeout 120 "${tune[@]}" -o "$OUT/t$np" >"$OUT/tune.out" 2>&1 || { fail "colibri-tune np=$np"; cat "$OUT/tune.out"; continue; }
  timeout 120 "${tune[@]}" -o "$OUT/u$np" -q >/dev/null 2>&1 || fail "colibri-tune np=$np (again)"
  cmp -s <(grep -v '^#' "$OUT/t$np") <(grep -v '^#' "$OUT/u$np") ||
    fail "np=$np: two runs with the same fake timings wrote different files"
  expected="allreduce 0 11585 $np $np recursive_doubling ppn=$np nodes=1
allreduce 11586 9223372036854775807 $np $np ring ppn=$np nodes=1 us=26.5536 native_us=42.768
alltoall 0 22 $np $np bruck ppn=$np nodes=1 us=0.58 native_us=1.008
alltoall 23 1448 $np $np native ppn=$np nodes=1
alltoall 1449 9223372036854775807 $np $np pairwise ppn=$np nodes=1 us=2.4096 native_us=5.096"
  got=$(grep -vE '^(#|mpi |shape |model )' "$OUT/t$np")
  [ "$got" = "$expected" ] || { fail "np=$np: rules differ"; diff <(echo "$expected") <(echo "$got"); }
  grep -qx "shape p=$np ppn=$np nodes=1" "$OUT/t$np" || fail "np=$np: no shape line"
  grep -q "^mpi Open MPI" "$OUT/t$np" || fail "np=$np: no mpi line"
  # calibration from the fake samples: 0.5 us + 0.1 ns/B, 90 ns per message
  awk '/^model / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                   ok = v["alpha_node"] > 4.9e-7 && v["alpha_node"] < 5.1e-7 &&
                        v["beta_node"] > 0.99e-10 && v["beta_node"] < 1.01e-10 &&
                        v["o"] > 8.9e-8 && v["o"] < 9.1e-8 && v["gamma"] > 1.9e-11 &&
                        v["gamma"] < 2.1e-11 } END { exit !ok }' "$OUT/t$np" ||
    { fail "np=$np: calibrated model"; grep '^model' "$OUT/t$np"; }
  grep -q "^allreduce .* 8 B .*recursive_doubling .* 0.20$" "$OUT/tune.out" ||
    { fail "np=$np: summary line for allreduce 8 B"; cat "$OUT/tune.out"; }

  # auto follows the file
  f=COLIBRI_TUNING=$OUT/t$np
  for c in "allreduce 64 allreduce recursive_doubling" "allreduce 4096 allreduce recursive_doubling" \
           "allreduce 65536 allreduce ring" "alltoall 8 alltoall bruck" \
           "alltoall 256 alltoall native" "alltoall 8192 alltoall pairwise"; do
    set -- $c
    got=$(stats $np "$f" -- "$1" "$2")
    [ "$got" = "$3 $4" ] || fail "np=$np $1 $2 B: auto ran '$got', the file says '$4'"
  done
  # without the file the model decides (it never picks native)
  got=$(stats $np COLIBRI_TUNING=none -- alltoall 256)
  [[ "$got" != *native* ]] || fail "np=$np: without a file auto ran native"
  COLIBRI_TUNING=$OUT/t$np build/bin/colibri-info --tuning >"$OUT/info"
  grep -q "^tuning: $OUT/t$np (COLIBRI_TUNING): 5 rules in force, 0 lines ignored" "$OUT/info" &&
    grep -q "(calibrated, from the tuning file)" "$OUT/info" ||
    { fail "np=$np: colibri-info --tuning"; cat "$OUT/info"; }
done

# The collectives beyond the reductions and all-to-alls: bcast (binomial
# up to 4 KiB, native above), barrier (dissemination), scan (recursive
# doubling at 8 B, native above), at 2 ranks; auto follows the file.
cat >"$OUT/fake2" <<'EOF2'
bcast native 10 0.001
bcast binomial 2 0.002
bcast scatter_allgather 30 0.003
barrier native 5 0
barrier dissemination 1 0
scan native 3 0.0001
scan recursive_doubling 1 0.01
EOF2
tune=(mpirun --oversubscribe -n 2 build/bin/colibri-tune --fake-timings "$OUT/fake2"
      -c bcast,barrier,scan --blocking-only -m 8 -M 32K -s 8 --budget 1m -o "$OUT/t2b")
echo "+ ${tune[*]}"
timeout 120 "${tune[@]}" >"$OUT/tune.out" 2>&1 || { fail "colibri-tune bcast,barrier,scan"; cat "$OUT/tune.out"; }
got=$(grep -vE '^(#|mpi |shape |model )' "$OUT/t2b" | cut -d' ' -f1-6)
expected="bcast 0 11585 2 2 binomial
bcast 11586 9223372036854775807 2 2 native
barrier 0 9223372036854775807 2 2 dissemination
scan 0 181 2 2 recursive_doubling
scan 182 9223372036854775807 2 2 native"
[ "$got" = "$expected" ] || { fail "bcast,barrier,scan: rules differ"; diff <(echo "$expected") <(echo "$got"); }
for c in "bcast 512 bcast binomial" "bcast 65536 bcast native" "scan 8 scan recursive_doubling" \
         "scan 4096 scan native"; do
  set -- $c
  got=$(stats 2 COLIBRI_TUNING=$OUT/t2b -- "$1" "$2")
  [ "$got" = "$3 $4" ] || fail "$1 $2 B: auto ran '$got', the file says '$4'"
done

# A real run, tiny budget: a file that loads cleanly, native measured.
echo "+ real run"
timeout 120 mpirun --oversubscribe -n 2 build/bin/colibri-tune -c allreduce,reduce_scatter_block \
  -m 8 -M 4K -s 16 --budget 5s -o "$OUT/real" >"$OUT/tune.out" 2>&1 || { fail "real colibri-tune"; cat "$OUT/tune.out"; }
COLIBRI_TUNING=$OUT/real build/bin/colibri-info --tuning >"$OUT/info" 2>&1
grep -q "rules in force, 0 lines ignored" "$OUT/info" && ! grep -q "^colibri:" "$OUT/info" ||
  { fail "the real run's file does not load cleanly"; cat "$OUT/info" "$OUT/real"; }
grep -qE "^ireduce_scatter_block " "$OUT/tune.out" ||
  { fail "the summary of the real run lacks ireduce_scatter_block"; cat "$OUT/tune.out"; }

# The site's default: `make install TUNING=` puts the file where an
# installed library finds it; COLIBRI_TUNING overrides it, "none" turns it off.
make -s install PREFIX="$OUT/prefix" TUNING="$OUT/t2" >/dev/null || fail "make install"
"$OUT/prefix/bin/colibri-info" --tuning >"$OUT/info" 2>&1
grep -q "^tuning: $OUT/prefix/etc/colibri/tuning (the site's default): 5 rules in force" "$OUT/info" ||
  { fail "installed colibri-info does not find the site's default"; cat "$OUT/info"; }
COLIBRI_TUNING=$OUT/t4 "$OUT/prefix/bin/colibri-info" --tuning | grep -q "^tuning: $OUT/t4 (COLIBRI_TUNING)" ||
  fail "COLIBRI_TUNING does not win over the site's default"
COLIBRI_TUNING=none "$OUT/prefix/bin/colibri-info" --tuning | grep -q "^tuning: none" ||
  fail "COLIBRI_TUNING=none does not turn the site's default off"

echo "$((failures == 0 ? 1 : 0)) passed, $failures failed"
[ "$failures" -eq 0 ]
