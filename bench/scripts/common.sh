# Sourced by the drivers of bench/scripts/ (not run by itself).  A study's
# results live in $OUT (docs/results/<study>/ unless OUT= says otherwise):
# one merged CSV, whose last column "run" tells its runs apart, and
# runs.log, one line per run: when, what, and the command.  Per-run pieces
# (partial CSVs, raw output) go to $RUNS (build/bench-runs/<study>/) and are
# not kept in docs.

# runs_log TEXT...: "<UTC time> TEXT" appended to $OUT/runs.log.
runs_log() {
  mkdir -p "$OUT"
  printf '%s %s\n' "$(date -u +%FT%TZ)" "$*" >>"$OUT/runs.log"
}

# merge_run MERGED RUN PIECE...: the rows of the PIECE CSVs (header line
# first, the same columns in each) replace those of run RUN in MERGED, with
# RUN as their last column.
merge_run() {
  local merged=$1 run=$2 tmp f; shift 2
  tmp=$(mktemp)
  {
    if [ -s "$merged" ]; then
      head -1 "$merged"
      tail -n +2 "$merged" | awk -F, -v r="$run" '$NF != r'
    else
      head -1 "$1" | sed 's/$/,run/'
    fi
    for f; do tail -n +2 "$f" | sed "s/\$/,$run/"; done
  } >"$tmp"
  mkdir -p "$(dirname "$merged")"
  mv "$tmp" "$merged"
}
