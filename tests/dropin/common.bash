# Sourced by the drop-in scripts (not a test itself: run.sh runs *.sh only).
# Every run preloads libcolibri.so with COLIBRI_STATS=1, the way a user would
# (LD_PRELOAD=... mpirun ...), and keeps the outputs apart: the programs print
# "calls per rank: <collective>=<n> ..." on stdout, colibri its statistics on
# stderr.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_op=^avx # ompi#8045: Open MPI's AVX 8-bit sums saturate
# Only what a script sets may steer colibri (algorithms, fallback, cost model).
unset $(compgen -e | grep '^COLIBRI_' | grep -vE '^COLIBRI_(MPI_CACHE|TEST_MPICC|TEST_MPIRUN)$') # but not where the MPIs are (tests/lib/mpis.bash)
source tests/lib/mpis.bash
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# build EXE COMPILER ARGS...: compiles into EXE (replaced whole, so that
# concurrent runs of a script never execute a half-written file).
build() {
  local exe=$1
  shift
  mkdir -p "$(dirname "$exe")"
  "$@" -o "$exe.$$" && mv -f "$exe.$$" "$exe" || {
    rm -f "$exe.$$"
    fail "could not build $exe"
    return 1
  }
}

# preloaded MPI NP [VAR=VALUE...] PROGRAM [ARGS...], MPI being openmpi,
# mpich or a target of tests/lib/mpis.bash (ompi5, mpich5, impi,
# abi-mpich5, abi-impi): runs PROGRAM on NP ranks with that MPI's
# libcolibri.so preloaded, stdout to $OUT/out and stderr to $OUT/err;
# returns the launcher's status.
preloaded() {
  local mpi=$1 np=$2 vars=()
  shift 2
  while [[ $1 == *=* ]]; do vars+=("$1"); shift; done
  if [ "$mpi" != openmpi ] && [ "$mpi" != mpich ]; then
    # the variables reach the ranks only (the launcher is not preloaded)
    mpi_launch "$mpi" "$np" LD_PRELOAD="$PWD/$(mpi_build "$mpi")/lib/libcolibri.so" COLIBRI_STATS=1 "${vars[@]}"
    echo "+ $mpi np=$np ${vars[*]:+${vars[*]} }$*"
    timeout 60 "${LAUNCH[@]}" "$@" >"$OUT/out" 2>"$OUT/err"
    return
  fi
  local launch=(mpirun --oversubscribe -n "$np") lib=$PWD/build/lib/libcolibri.so
  if [ "$mpi" = mpich ]; then
    launch=(mpirun.mpich -n "$np") lib=$PWD/build-mpich/lib/libcolibri.so
  fi
  echo "+ $mpi np=$np ${vars[*]:+${vars[*]} }$*"
  timeout 60 env LD_PRELOAD="$lib" COLIBRI_STATS=1 "${vars[@]}" "${launch[@]}" "$@" \
    >"$OUT/out" 2>"$OUT/err"
}

# expect_stats NP [ALLREDUCE_ALGORITHM]: after a successful run on NP ranks,
# colibri's statistics must account for every call in the program's "calls
# per rank:" line: per collective, lines exactly "colibri: <collective>
# <algorithm> calls=<n>" whose n add up to NP times the per-rank count (and
# online selection's "colibri: online ..." lines).  The allreduce lines must
# name ALLREDUCE_ALGORITHM when given; otherwise no line may say "native"
# (colibri itself must have run) unless online selection explored there.
expect_stats() {
  local np=$1 want=${2:-} line
  line=$(grep -m1 '^calls per rank: ' "$OUT/out") || {
    fail "the program printed no 'calls per rank:' line"
    cat "$OUT/out" "$OUT/err"
    return
  }
  if grep '^colibri: ' "$OUT/err" | grep -vE '^colibri: online [a-z_]+ (explored calls=[0-9]+ decisions=[0-9]+ extra_us=-?[0-9]+\.[0-9]|settled [a-z0-9_]+ shapes=[0-9]+)$' |
     grep -vqE '^colibri: [a-z_]+ [a-z0-9_]+ calls=[0-9]+$'; then
    fail "unexpected colibri lines:"
    grep '^colibri: ' "$OUT/err"
  fi
  local kv coll n got algs
  for kv in ${line#calls per rank: }; do
    coll=${kv%%=*} n=${kv#*=}
    got=$(awk -v c="$coll" '$1 == "colibri:" && $2 == c { sub("calls=", "", $4); s += $4 }
                            END { print s + 0 }' "$OUT/err")
    [ "$got" -eq $((np * n)) ] || fail "$coll: colibri counted $got calls, the program made $((np * n))"
    algs=$(awk -v c="$coll" '$1 == "colibri:" && $2 == c { print $3 }' "$OUT/err" | sort -u | xargs)
    if [ "$coll" = allreduce ] && [ -n "$want" ]; then
      [ "$algs" = "$want" ] || fail "allreduce ran '$algs', not '$want'"
    elif [[ " $algs " == *" native "* ]] && ! grep -q "^colibri: online $coll explored" "$OUT/err" &&
         [ "$coll" != gatherv ] && [ "$coll" != scatterv ]; then
      # (online selection may run the MPI below while it explores; automatic
      # gatherv and scatterv go below: their algorithm runs by name only)
      fail "$coll went to the MPI below (native)"
    fi
  done
}

# expect_ok STATUS NP [ALLREDUCE_ALGORITHM]: the run exited with STATUS 0 and
# expect_stats NP [ALLREDUCE_ALGORITHM] holds.
expect_ok() {
  if [ "$1" -ne 0 ]; then
    fail "exit status $1"
    tail -n 20 "$OUT/out" "$OUT/err"
    return
  fi
  shift
  expect_stats "$@"
}

finish() {
  if [ "$failures" -ne 0 ]; then
    echo "$failures failures"
    exit 1
  fi
  echo "all passed"
}
