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
# first) replace those of run RUN in MERGED, with RUN in its "run" column.
# Columns are matched by name: a column only the merged file has (one
# derived for older runs) stays empty in the new rows, a new column is added.
merge_run() {
  local merged=$1 run=$2; shift 2
  mkdir -p "$(dirname "$merged")"
  python3 - "$merged" "$run" "$@" <<'PY'
import csv, os, sys
merged, run, pieces = sys.argv[1], sys.argv[2], sys.argv[3:]
cols, rows = [], []
if os.path.exists(merged) and os.path.getsize(merged) > 0:
    with open(merged, newline="") as f:
        r = csv.DictReader(f)
        cols = list(r.fieldnames)
        rows = [x for x in r if x.get("run") != run]
for p in pieces:
    with open(p, newline="") as f:
        r = csv.DictReader(f)
        cols += [c for c in r.fieldnames if c not in cols]
        rows += [dict(x, run=run) for x in r]
if "run" not in cols:
    cols.append("run")
tmp = merged + ".tmp"
with open(tmp, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=cols, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
os.replace(tmp, merged)
PY
}

# dropin_alternate PIECE MPI BUILD: $RUNS runs, each of every collective of $COLLS
# alternating runs of BUILD/bin/dropin-bench over $SIZES, plain
# ("${launch[@]}" ...) and with colibri ("${launch[@]}" "${pre[@]}" ...,
# pre: what puts colibri under the ranks), appended to PIECE as
# mpi,coll,bytes,native_us,colibri_us,ratio,rep (header written first).
# Exits on a failed run.  Pieces in $RUNS_DIR.
# PAIR=1: each run is one process pair instead, dropin-bench -P: colibri
# preloaded, its MPI_ calls and the MPI's own PMPI_ calls timed side by
# side, alternating, in the same processes (rows of MPI), and the same
# plain (no colibri: both sides the MPI's; rows of MPI-null, the noise of
# a difference of nothing), $PAIR_ROUNDS (5) rounds of a loop of each a
# size; then ratio is the median of the rounds' ratios (each round's two
# loops run one after the other), total_ratio all loops' time against
# all loops' (colibri's exploration included) and explored the calls
# colibri explored at that size (-1 without colibri).  Since 2026-11-29
# call by call (dropin-bench -I: bursts of about 1 ms of each side
# interleaved, $PAIR_ROUNDS loops' worth of calls, ratio the median calls'
# ratio, total_ratio the sums'); PAIR_LOOPS=1: loops as before (-P).
dropin_alternate() {
  local piece=$1 mpi=$2 build=$3 coll r pair_mode=-I
  [ -n "${PAIR_LOOPS:-}" ] && pair_mode=-P
  echo "mpi,coll,bytes,native_us,colibri_us,ratio,rep${PAIR:+,total_ratio,explored}" >"$piece"
  # runs outside, collectives inside: a minute in which this VM is slow
  # falls on one run of several collectives, not on every run of one
  for r in $(seq "$RUNS"); do
    echo "== $mpi run $r of $RUNS: $COLLS${PAIR:+ (side by side in one process)}"
    for coll in $COLLS; do
      if [ -n "${PAIR:-}" ]; then
        # shellcheck disable=SC2086
        "${launch[@]}" "${pre[@]}" "$build/bin/dropin-bench" "$pair_mode" -R "${PAIR_ROUNDS:-5}" -c "$coll" $SIZES -o "$RUNS_DIR/c.csv" ||
          { echo "colibri run failed"; exit 1; }
        # shellcheck disable=SC2086
        "${launch[@]}" "$build/bin/dropin-bench" "$pair_mode" -R "${PAIR_ROUNDS:-5}" -c "$coll" $SIZES -o "$RUNS_DIR/n.csv" ||
          { echo "native run failed"; exit 1; }
        # ratio: the median of the rounds' (adjacent loops') ratios;
        # total_ratio: all loops' time, exploration included; explored:
        # colibri's exploring calls at that size (-1: none preloaded)
        local pick='{ printf "%s,%s,%s,%s,%s,%.4f,%d,%.4f,%s\n", m, $1, $2, $4, $3, $5, r, $6, $7 }'
        tail -n +2 "$RUNS_DIR/c.csv" | awk -F, -v m="$mpi" -v r="$r" "$pick" >>"$piece"
        tail -n +2 "$RUNS_DIR/n.csv" | awk -F, -v m="$mpi-null" -v r="$r" "$pick" >>"$piece"
        continue
      fi
      # shellcheck disable=SC2086
      "${launch[@]}" "$build/bin/dropin-bench" -c "$coll" $SIZES -o "$RUNS_DIR/n.csv" ||
        { echo "native run failed"; exit 1; }
      # shellcheck disable=SC2086
      "${launch[@]}" "${pre[@]}" "$build/bin/dropin-bench" -c "$coll" $SIZES -o "$RUNS_DIR/c.csv" ||
        { echo "colibri run failed"; exit 1; }
      paste -d, <(tail -n +2 "$RUNS_DIR/n.csv") <(tail -n +2 "$RUNS_DIR/c.csv") |
        awk -F, -v m="$mpi" -v r="$r" '{ printf "%s,%s,%s,%s,%s,%.4f,%d\n", m, $1, $2, $3, $6, $6 / $3, r }' >>"$piece"
    done
  done
}
