#!/usr/bin/env bash
# The whole colibri test suite: builds Open MPI, MPICH and SMPI variants and
# runs every test, then prints "N passed, N failed".
#
# Conventions (a new test needs no edit here):
#   tests/unit/test_*.c   no communication; run once as a single process.
#   tests/mpi/test_*.c    a line "// ranks: 1 2 3 ..." lists the process counts
#                         it runs at under Open MPI (oversubscribed); a line
#                         "// mpich-ranks: 2" adds MPICH runs; a line
#                         "// env-ranks: VAR=value 2 4" adds Open MPI runs at
#                         those process counts with VAR=value in the
#                         environment (one line per variable setting).
#   other MPIs            the libraries of scripts/install-mpis.sh, each
#                         built by tests/lib/mpis.bash's make arguments
#                         (build-ompi5/, build-mpich5/, build-impi/,
#                         build-abi/): a line "// ompi5-ranks: 1 2 3 4"
#                         runs the test at those process counts on Open MPI
#                         5, "// mpich5-ranks:" on MPICH 5, "// impi-ranks:"
#                         on Intel MPI, "// abi-ranks:" the standard-ABI
#                         build on both MPICH 5's and Intel MPI's
#                         libmpi_abi.so; tests/mpis/dropin_c.sh runs the C
#                         drop-in programs on each.  A library that is not
#                         installed is one SKIP with the reason;
#                         tests/mpis/known-failures lists, by test name,
#                         what a library itself gets wrong (still run: SKIP
#                         with the reason while it fails, FAIL once it
#                         passes; documented in docs/mpis.md).  The names
#                         start with the target (ompi5, mpich5, impi,
#                         abi-mpich5, abi-impi): "bash tests/run.sh ompi5";
#                         "bash tests/run.sh mpis" runs the whole section.
#                         COLIBRI_TEST_MPICC=/path/to/mpicc adds the target
#                         "site": that MPI, built into build-site/, with the
#                         tests and launcher of its kind (tests/lib/mpis.bash).
#   tests/docs/*.sh       documentation generated from the code still matches
#                         it (no MPI run); exit 0 = pass.
#   tests/dropin/*.sh     drop-in scenarios; exit 0 = pass.
#   tests/smpi/*.sh       SimGrid SMPI scenarios; exit 0 = pass.
#   sanitizers            build-asan/ (make MPI=asan: AddressSanitizer +
#                         UndefinedBehaviorSanitizer): an MPI test's line
#                         "// asan-ranks: 1 3" runs it at those Open MPI
#                         process counts under the sanitizers, a line
#                         "// asan-env-ranks: VAR=value 2" with VAR=value;
#                         tests/sanitizers/*.sh run there too (the drop-in
#                         programs preloaded with the sanitized library).
#                         Any sanitizer report fails the run.  The section
#                         runs with no filter, or one starting with "asan".
# Each executable exits non-zero on failure; its own "N passed, N failed"
# line is echoed for detail.  Exit status 77 means the test cannot run on
# this machine (it prints a line starting "SKIP: " saying why): counted as
# skipped, neither passed nor failed.  Pass a substring to run only matching tests.
set -u
cd "$(dirname "$0")/.."
FILTER=${1:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI 4.1's AVX op component saturates 8-bit sums (ompi#8045): keep it out
# of the reference paths; colibri's own kernels never use it.
export OMPI_MCA_op=^avx
export OMPI_MCA_rmaps_base_oversubscribe=1
JOBS=${JOBS:-2}
LOG=${TEST_LOG:-build/test-logs}
mkdir -p "$LOG"

passed=0; failed=0; skipped=0; failures=(); skips=()
note() { printf '%s\n' "$*"; }

log_of() { echo "$LOG/$(echo "$1" | tr ' /=' '___').log"; }

# report name, exit status, seconds: counts and prints one result.
report() {
  local name=$1 rc=$2 secs=$3 log; log=$(log_of "$1")
  if [ "$rc" -eq 0 ]; then
    passed=$((passed+1)); note "PASS $name (${secs}s) $(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)"
  elif [ "$rc" -eq 77 ]; then # the test says why it cannot run here
    skipped=$((skipped+1)); skips+=("$name"); note "SKIP $name (${secs}s) $(grep -m1 '^SKIP' "$log")"
  else
    failed=$((failed+1)); failures+=("$name"); note "FAIL $name (${secs}s) — log: $log"; tail -n 15 "$log" | sed 's/^/    /'
  fi
}

run_one() { # name, command...
  local name=$1; shift
  [[ -n "$FILTER" && "$name" != *"$FILTER"* ]] && return
  local start=$SECONDS rc=0
  timeout "${TEST_TIMEOUT:-600}" "$@" >"$(log_of "$name")" 2>&1 || rc=$?
  report "$name" "$rc" $((SECONDS-start))
}

# Tests that use one core each (the unit tests), $JOBS at a time; results
# are printed in the order given.  Arguments: name=command pairs as
# "name" "command" ...
run_parallel() {
  local -a names=() cmds=()
  while [ $# -gt 0 ]; do
    [[ -z "$FILTER" || "$1" == *"$FILTER"* ]] && { names+=("$1"); cmds+=("$2"); }
    shift 2
  done
  local i
  for i in "${!names[@]}"; do
    printf '%s\0%s\0%s\0' "${cmds[$i]}" "$(log_of "${names[$i]}")" "$LOG/rc.$i"
  done | xargs -0 -r -n 3 -P "$JOBS" sh -c 's=$(date +%s); rc=0; timeout "${TEST_TIMEOUT:-600}" $0 >"$1" 2>&1 || rc=$?; echo "$rc $(( $(date +%s) - s ))" >"$2"'
  for i in "${!names[@]}"; do
    local rc=1 secs=0
    read -r rc secs <"$LOG/rc.$i" 2>/dev/null
    rm -f "$LOG/rc.$i"
    report "${names[$i]}" "$rc" "$secs"
  done
}

note "== build"
make -j"$JOBS" >"$LOG/build-openmpi.log" 2>&1 || { note "Open MPI build failed"; tail -30 "$LOG/build-openmpi.log"; echo "0 passed, 1 failed"; exit 1; }
make -j"$JOBS" MPI=mpich >"$LOG/build-mpich.log" 2>&1 || { note "MPICH build failed"; tail -30 "$LOG/build-mpich.log"; echo "0 passed, 1 failed"; exit 1; }
make -j"$JOBS" sim >"$LOG/build-smpi.log" 2>&1 || { note "SMPI build failed"; tail -30 "$LOG/build-smpi.log"; echo "0 passed, 1 failed"; exit 1; }

note "== unit tests (no communication; $JOBS at a time)"
unit=()
for src in tests/unit/test_*.c; do
  t=$(basename "$src" .c)
  unit+=("unit $t" "build/tests/$t")
done
run_parallel "${unit[@]}"

note "== generated documentation"
for s in tests/docs/*.sh; do
  [ -e "$s" ] && run_one "docs $(basename "$s" .sh)" bash "$s"
done

note "== MPI tests (Open MPI, MPICH)"
for src in tests/mpi/test_*.c; do
  t=$(basename "$src" .c)
  for np in $(sed -n 's|^// ranks:||p' "$src"); do
    run_one "openmpi $t np=$np" mpirun --oversubscribe -n "$np" build/tests/$t
  done
  for np in $(sed -n 's|^// mpich-ranks:||p' "$src"); do
    run_one "mpich $t np=$np" mpirun.mpich -n "$np" build-mpich/tests/$t
  done
  # read from fd 3: mpirun forwards stdin to rank 0 and would swallow the
  # lines after the first
  while read -r setting nps <&3; do
    for np in $nps; do
      run_one "openmpi $t $setting np=$np" env "$setting" mpirun --oversubscribe -n "$np" build/tests/$t
    done
  done 3< <(sed -n 's|^// env-ranks:||p' "$src")
done

note "== drop-in"
for s in tests/dropin/*.sh; do
  [ -e "$s" ] && run_one "dropin $(basename "$s" .sh)" bash "$s"
done

note "== other MPI libraries (Open MPI 5, MPICH 5, Intel MPI, standard ABI)"
source tests/lib/mpis.bash
# skip_with NAME REASON: counts NAME as skipped, saying why.
skip_with() {
  [[ -n "$FILTER" && "$1" != *"$FILTER"* ]] && return
  printf 'SKIP: %s\n' "$2" >"$(log_of "$1")"
  report "$1" 77 0
}
# known_failure NAME: the reason NAME is listed in tests/mpis/known-failures
# (a line "NAME  # reason"), or nothing.
known_failure() {
  awk -v n="$1" '{ line = $0; sub(/[ \t]*#.*/, "", line) }
                 line == n { sub(/^[^#]*#[ \t]*/, ""); print; exit }' tests/mpis/known-failures
}
# "mpis" as the filter: this whole section (and nothing else).
section_filter=$FILTER
[[ "$FILTER" == mpis ]] && FILTER=
declare -A built=()
targets=(ompi5 mpich5 impi abi-mpich5 abi-impi)
# any other MPI by its wrapper (tests/lib/mpis.bash): COLIBRI_TEST_MPICC=...
[ -n "${COLIBRI_TEST_MPICC:-}" ] && targets+=(site)
for target in "${targets[@]}"; do
  kind=$(mpi_kind "$target")
  marker=${kind%%-*}-ranks
  bdir=$(mpi_build "$target")
  runs=() # name, np, test
  for src in tests/mpi/test_*.c; do
    t=$(basename "$src" .c)
    for np in $(sed -n "s|^// $marker:||p" "$src"); do
      runs+=("$target $t np=$np" "$np" "$t")
    done
  done
  dropin="$target dropin_c"
  wanted=0
  for ((i = 0; i < ${#runs[@]}; i += 3)); do
    [[ -z "$FILTER" || "${runs[$i]}" == *"$FILTER"* ]] && wanted=1
  done
  [[ -z "$FILTER" || "$dropin" == *"$FILTER"* || "$target" == *"$FILTER"* ]] && wanted=1
  [ "$wanted" -eq 1 ] || continue
  if why=$(mpi_missing "$target"); then
    skip_with "$target" "$why"
    continue
  fi
  if [ -z "${built[$bdir]:-}" ]; then
    start=$SECONDS rc=0
    # shellcheck disable=SC2046
    make -j"$JOBS" $(mpi_make_args "$target") >"$(log_of "$bdir build")" 2>&1 || rc=$?
    built[$bdir]=$rc
    [ "$rc" -eq 0 ] || report "$bdir build" "$rc" $((SECONDS-start))
  fi
  [ "${built[$bdir]}" -eq 0 ] || continue
  section_start=$SECONDS
  for ((i = 0; i < ${#runs[@]}; i += 3)); do
    name=${runs[$i]} np=${runs[$((i + 1))]} t=${runs[$((i + 2))]}
    mpi_launch "$target" "$np"
    if why=$(known_failure "$name") && [ -n "$why" ]; then
      # still run: a listed run that passes (the library was fixed) fails,
      # so that the list cannot go stale
      [[ -n "$FILTER" && "$name" != *"$FILTER"* ]] && continue
      start=$SECONDS rc=0
      timeout "${TEST_TIMEOUT:-600}" "${LAUNCH[@]}" "$bdir/tests/$t" >"$(log_of "$name")" 2>&1 || rc=$?
      if [ "$rc" -eq 0 ]; then
        echo "listed in tests/mpis/known-failures but passes: remove the line" >>"$(log_of "$name")"
        report "$name" 1 $((SECONDS - start))
      else
        skip_with "$name" "known failure of the MPI library (exit $rc): $why (tests/mpis/known-failures)"
      fi
      continue
    fi
    run_one "$name" "${LAUNCH[@]}" "$bdir/tests/$t"
  done
  run_one "$dropin" bash tests/mpis/dropin_c.sh "$target"
  note "   ($target: $((SECONDS - section_start)) s)"
done
FILTER=$section_filter

note "== SimGrid SMPI"
for s in tests/smpi/*.sh; do
  [ -e "$s" ] && run_one "smpi $(basename "$s" .sh)" bash "$s"
done

note "== sanitizers (AddressSanitizer + UBSan, build-asan/)"
# Exit status 1 at the first report (tests/sanitizers/lib.bash); a report
# in the log fails the run even if a launcher lost that status.
run_san() { # name, command...
  local name=$1; shift
  [[ -n "$FILTER" && "$name" != *"$FILTER"* ]] && return
  local start=$SECONDS rc=0
  timeout "${TEST_TIMEOUT:-600}" "$@" >"$(log_of "$name")" 2>&1 || rc=$?
  if [ "$rc" -eq 0 ] && sanitizer_reports "$(log_of "$name")"; then rc=1; fi
  report "$name" "$rc" $((SECONDS-start))
}
# Runs with no filter or one starting with "asan" ("sanitizers": all of it).
if [[ -z "$FILTER" || "$FILTER" == asan* || "$FILTER" == sanitizer* ]]; then
  [[ "$FILTER" == sanitizer* ]] && FILTER=asan
  source tests/sanitizers/lib.bash
  start=$SECONDS rc=0
  make -j"$JOBS" MPI=asan >"$(log_of "asan build")" 2>&1 || rc=$?
  report "asan build" "$rc" $((SECONDS-start))
  if [ "$rc" -eq 0 ]; then
    for src in tests/mpi/test_*.c; do
      t=$(basename "$src" .c)
      for np in $(sed -n 's|^// asan-ranks:||p' "$src"); do
        run_san "asan $t np=$np" mpirun --oversubscribe -n "$np" build-asan/tests/$t
      done
      while read -r setting nps <&3; do
        for np in $nps; do
          run_san "asan $t $setting np=$np" env "$setting" mpirun --oversubscribe -n "$np" build-asan/tests/$t
        done
      done 3< <(sed -n 's|^// asan-env-ranks:||p' "$src")
    done
    run_san "asan unit test_large_counts" build-asan/tests/test_large_counts
    for s in tests/sanitizers/*.sh; do
      [ -e "$s" ] && run_san "asan $(basename "$s" .sh)" bash "$s"
    done
  fi
fi

note ""
if [ ${#failures[@]} -gt 0 ]; then note "failed: ${failures[*]}"; fi
if [ ${#skips[@]} -gt 0 ]; then note "skipped ($skipped, neither passed nor failed): ${skips[*]}"; fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
