# What the scripts for a borrowed multi-core node share (device_node.sh,
# device_ab.sh, device_overhead.sh): Open MPI 5 from .cache/mpis/ompi5 on
# PATH wherever the checkout lies (OPAL_PREFIX), no COLIBRI_* setting
# inherited, and steps inside a time budget.  Source it from the
# repository root after setting OUT (and BUDGET, seconds; default 400).
V=$PWD/.cache/mpis/ompi5
export PATH="$V/bin:$PATH" OPAL_PREFIX="$V" LD_LIBRARY_PATH="$V/lib:${LD_LIBRARY_PATH:-}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_osc=^ucx OMPI_MCA_op=^avx
unset $(compgen -e | grep '^COLIBRI_')
BUDGET=${BUDGET:-400}
mkdir -p "$OUT"
log=$OUT/log.txt
: >"$log"
t0=$SECONDS
say() { echo "$*" | tee -a "$log"; }
# step NAME TIMEOUT CMD...: run CMD into the log unless the budget is spent
step() {
  local name=$1 t=$2
  shift 2
  if [ $((SECONDS - t0)) -ge "$BUDGET" ]; then
    say "== skipped $name (budget of $BUDGET s spent)"
    return 1
  fi
  say "== $name (at $((SECONDS - t0)) s)"
  timeout "$t" "$@" >>"$log" 2>&1
  local rc=$?
  [ $rc -eq 0 ] || say "   rc=$rc"
  return $rc
}
