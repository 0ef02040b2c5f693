#!/usr/bin/env python3
"""Tables of bench/scripts/bench_mpis.sh: per MPI, size and collective, the
median over alternating runs of the run-by-run ratio colibri/native (no
tuning file), with native's median time; a ratio above 1.05 where colibri
is also more than 0.05 us slower (the ratio's excess times native's
median time) is marked with '!'.  Under each table: how many cells are
marked and, for runs of dropin-bench -P, the same count over all calls
(exploration included) and the calls colibri explored a size.  Prints
Markdown.  Several files: their runs pooled (each cell the median over
all of them).

  python3 bench/report/mpis_table.py docs/results/mpis/mpis.csv
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import human_bytes  # noqa: E402

COLLS = ["allreduce", "reduce", "reduce_scatter_block", "reduce_scatter", "alltoall", "alltoallv", "bcast",
         "allgather", "allgatherv", "barrier", "gather", "scatter", "scan", "exscan"]


def main(paths):
    cells = defaultdict(list)
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            rows += list(csv.DictReader(f))
    for row in rows:
        key = (row["mpi"], row["coll"], int(row["bytes"]))
        total = row.get("total_ratio") or ""
        explored = row.get("explored") or ""
        cells[key].append((float(row["native_us"]), float(row["colibri_us"]),
                           float(row["ratio"]), float(total) if total else None,
                           int(explored) if explored else None))
    mpis = sorted({k[0] for k in cells})
    marked = defaultdict(int)
    for mpi in mpis:
        colls = [c for c in COLLS if any(k[0] == mpi and k[1] == c for k in cells)]
        sizes = sorted({k[2] for k in cells if k[0] == mpi})
        print(f"\n### {mpi}: colibri / native, median of run-by-run ratios "
              f"(native µs in brackets)\n")
        print("| bytes | " + " | ".join(colls) + " |")
        print("|---:|" + "---:|" * len(colls))
        for n in sizes:
            out = []
            for c in colls:
                v = cells.get((mpi, c, n))
                if not v:
                    out.append("")
                    continue
                nat = statistics.median(x[0] for x in v)
                r = statistics.median(x[2] for x in v)
                mark = "!" if r > 1.05 and (r - 1) * nat > 0.05 else ""
                out.append(f"{r:.2f}{mark} ({nat:.2f})")
                marked[mpi] += bool(mark)
            print(f"| {human_bytes(n)} | " + " | ".join(out) + " |")
        summary(mpi, colls, sizes, cells, marked[mpi])


def summary(mpi, colls, sizes, cells, marked):
    """One line under a table: its marked cells and, where the runs give
    them (dropin-bench -P's total_ratio and explored), the same over all
    calls, exploration included, and what colibri explored."""
    totals, explored = [], []
    for c in colls:
        for n in sizes:
            v = cells.get((mpi, c, n))
            if not v:
                continue
            nat = statistics.median(x[0] for x in v)
            t = [x[3] for x in v if x[3] is not None]
            if t:
                r = statistics.median(t)
                totals.append(r > 1.05 and (r - 1) * nat > 0.05)
            e = [x[4] for x in v if x[4] is not None and x[4] >= 0]
            if e:
                explored.append(statistics.median(e))
    line = f"\n{marked} cells marked"
    if totals:
        line += (f"; over all calls, exploration included (total_ratio): "
                 f"{sum(totals)} of {len(totals)}")
    if explored:
        line += (f"; calls explored at a size (median over runs): "
                 f"{min(explored):.0f}-{max(explored):.0f}, "
                 f"median {statistics.median(explored):.0f}")
    print(line + ".")


if __name__ == "__main__":
    main(sys.argv[1:] or ["docs/results/mpis/mpis.csv"])
