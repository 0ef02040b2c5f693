#!/usr/bin/env python3
"""Tables of bench/scripts/bench_mpis.sh: per MPI, size and collective, the
median over alternating runs of the run-by-run ratio colibri/native (no
tuning file), with native's median time; a ratio above 1.05 where colibri
is also more than 0.05 us slower is marked with '!'.  Prints Markdown.

  python3 bench/report/mpis_table.py docs/results/mpis/mpis.csv
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import human_bytes  # noqa: E402

COLLS = ["allreduce", "reduce", "reduce_scatter_block", "alltoall", "alltoallv", "bcast",
         "allgather", "allgatherv", "barrier", "gather", "scatter", "scan", "exscan"]


def main(path):
    cells = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["mpi"], row["coll"], int(row["bytes"]))
            cells[key].append((float(row["native_us"]), float(row["colibri_us"]),
                               float(row["ratio"])))
    mpis = sorted({k[0] for k in cells})
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
                col = statistics.median(x[1] for x in v)
                r = statistics.median(x[2] for x in v)
                mark = "!" if r > 1.05 and col - nat > 0.05 else ""
                out.append(f"{r:.2f}{mark} ({nat:.2f})")
            print(f"| {human_bytes(n)} | " + " | ".join(out) + " |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/results/mpis/mpis.csv")
