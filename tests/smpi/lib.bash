# Shared by tests/smpi/*.sh (sourced; not a test itself).  Compiles an SMPI
# test program against build-smpi/lib/libcolibri.a and runs it on the
# 1024-host flat cluster of platforms/ (1 us, 100 Gb/s end to end).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
LIB=build-smpi/lib/libcolibri.a
[ -f "$LIB" ] || { echo "missing $LIB: run 'make sim' first"; exit 1; }
mkdir -p build-smpi/tests

# smpi_build NAME: tests/smpi/NAME.c -> build-smpi/tests/smpi_NAME
smpi_build() {
  local src=tests/smpi/$1.c exe=build-smpi/tests/smpi_$1
  if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ] || [ tests/smpi/smpi_errors.h -nt "$exe" ] || [ tests/smpi/smpi_check.h -nt "$exe" ] || [ "$LIB" -nt "$exe" ] || [ include/colibri.h -nt "$exe" ]; then
    # SMPI's MPI_* are weak symbols: only a whole-archive link lets colibri's win.
    smpicc -std=c11 -O2 -Wall -Wextra -Werror -Iinclude "$src" -o "$exe" \
      -Wl,--whole-archive "$LIB" -Wl,--no-whole-archive -lm
  fi
}

# smpi_run NP EXE ARGS...: simulated times are deterministic (computation is
# not timed) and follow the platform's latency and bandwidth exactly (SMPI's
# message-size correction factors set to 1).  One rank per host unless
# HOSTFILE names another placement (lines "host:ranks", hosts node-0..1023).
# SMPI_CFG adds SMPI options; PLATFORM names another platform (default
# platforms/cluster-1024.xml).  SMPI's own collectives keep their default
# algorithms: colibri's setup uses none whose default is slow to simulate
# (its layout exchange has its own allgather, tests/smpi/layout.sh).
smpi_run() {
  local np=$1; shift
  smpirun -np "$np" -platform "${PLATFORM:-platforms/cluster-1024.xml}" -hostfile "${HOSTFILE:-platforms/hostfile-1024.txt}" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
    --log=root.thres:warning ${SMPI_CFG:-} "$@"
}
