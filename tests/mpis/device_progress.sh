#!/usr/bin/env bash
# The progress tests (issue #25) on a real multi-core node with Open MPI 5:
# test_progress at 2, 8 and 16 ranks, and the stress test test_mixed_progress
# at 8 and 16 ranks with and without colibri's progress hook, several seeds
# each.  Not part of make test (it needs 16 cores); run by hand where a
# larger node is available, with .cache/mpis/ompi5 and build-ompi5/ present:
#   bash tests/mpis/device_progress.sh [RUNS]
# Prints one line per run and a summary; exit 0 when every run passed.
set -u
cd "$(dirname "$0")/../.."
RUNS=${1:-3}
V=$PWD/.cache/mpis/ompi5
export PATH="$V/bin:$PATH" OPAL_PREFIX="$V" LD_LIBRARY_PATH="$V/lib:${LD_LIBRARY_PATH:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=build-ompi5/tests
echo "# $(nproc) cores, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg), $("$V/bin/mpirun" --version 2>&1 | head -1)"
pass=0 fail=0
one() { # name, timeout, command...
  local name=$1 t=$2 s=$SECONDS out rc; shift 2
  out=$(timeout "$t" "$@" 2>&1); rc=$?
  if [ $rc -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  echo "$name rc=$rc $((SECONDS - s))s $(echo "$out" | grep -E 'passed|WATCHDOG|not made' | head -3 | tr '\n' ' ')"
  [ $rc -ne 0 ] && echo "$out" | grep -E 'WATCHDOG|^#[0-9]+ .* (at src|in MPI_|in PMPI_)' | head -30
}
for np in 2 8 16; do
  one "test_progress np=$np" 120 mpirun --oversubscribe -n $np $B/test_progress
  one "test_progress COLIBRI_PROGRESS_HOOK=0 np=$np" 120 mpirun --oversubscribe -x COLIBRI_PROGRESS_HOOK=0 -n $np $B/test_progress
done
for np in 8 16; do
  for r in $(seq "$RUNS"); do
    one "mixed np=$np seed0=$((r * 3))" 150 mpirun --oversubscribe -x MIXED_SEED0=$((r * 3)) -x MIXED_WATCHDOG=100 -n $np $B/test_mixed_progress
    one "mixed COLIBRI_PROGRESS_HOOK=0 np=$np seed0=$((r * 3))" 150 mpirun --oversubscribe -x COLIBRI_PROGRESS_HOOK=0 -x MIXED_SEED0=$((r * 3)) -x MIXED_WATCHDOG=100 -n $np $B/test_mixed_progress
  done
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
