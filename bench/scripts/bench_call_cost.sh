#!/usr/bin/env bash
# The per-call cost of a short reduction, blocking against nonblocking,
# colibri against the MPI below (Open MPI), side by side:
#  - instructions per call on 1 rank (callgrind, counted inside
#    MPI_Allreduce, or MPI_Iallreduce + MPI_Wait): deterministic, the
#    software path alone;
#  - microseconds per call on 1 and 2 ranks (call-cost-bench, fastest of
#    -R repetitions).
# Output: docs/data/nonblocking/call-cost.txt (and on stdout).
set -eu
cd "$(dirname "$0")/../.."
make -s build/lib/libcolibri.so build/bin/call-cost-bench
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_op=^avx
lib=$PWD/build/lib/libcolibri.so bin=build/bin/call-cost-bench
out=docs/data/nonblocking/call-cost.txt
mkdir -p "$(dirname "$out")"
calls=10000
instructions() { # native|colibri blocking|nonblocking
  local p=P env=(env)
  [ "$1" = colibri ] && p= env=(env LD_PRELOAD="$lib")
  local t=(--toggle-collect=${p}MPI_Allreduce)
  [ "$2" = nonblocking ] && t=(--toggle-collect=${p}MPI_Iallreduce --toggle-collect=${p}MPI_Wait)
  local f; f=$(mktemp)
  mpirun -n 1 "${env[@]}" valgrind --tool=callgrind "${t[@]}" --callgrind-out-file="$f" \
    "$bin" -i $((calls / 10)) -R 10 -m "$2" >/dev/null 2>&1
  echo $(( $(awk '/^summary/ {print $2}' "$f") / calls ))
  rm -f "$f"
}
{
  echo "# $(date -u +%FT%TZ) $(uname -n), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), Open MPI $(ompi_info --version 2>/dev/null | head -1 | awk '{print $NF}')"
  if command -v valgrind >/dev/null; then
    echo "# instructions per call, 1 rank, 8 bytes (callgrind)"
    for impl in native colibri; do
      echo "$impl blocking=$(instructions $impl blocking) nonblocking=$(instructions $impl nonblocking)"
    done
  fi
  echo "# microseconds per call, 8 bytes (fastest repetition; arguments: ${*:-none})"
  for np in 1 2; do
    echo "native  $(mpirun -n $np $bin "$@")"
    echo "colibri $(LD_PRELOAD=$lib mpirun -n $np $bin "$@")"
  done
} | tee "$out"
