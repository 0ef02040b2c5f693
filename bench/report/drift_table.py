#!/usr/bin/env python3
"""The table of bench/scripts/bench_drift.sh: per MPI, collective and size,
the median over the runs of colibri/native (side by side in one process),
one column per library (after, before).  Usage: drift_table.py drift.csv"""
import csv
import statistics
import sys

rows = {}
with open(sys.argv[1], newline="") as f:
    for x in csv.DictReader(f):
        key = (x["mpi"], x["coll"], int(x["bytes"]))
        rows.setdefault(key, {}).setdefault(x["lib"], []).append(float(x["ratio"]))
libs = sorted({l for v in rows.values() for l in v}, reverse=True)
print("| MPI | collective | bytes | " + " | ".join(f"{l}: colibri / native" for l in libs) + " |")
print("|---|---|---:|" + "---:|" * len(libs))
for k in sorted(rows):
    cells = [f"{statistics.median(rows[k][l]):.2f}" if l in rows[k] else "-" for l in libs]
    print(f"| {k[0]} | {k[1]} | {k[2]} | " + " | ".join(cells) + " |")
