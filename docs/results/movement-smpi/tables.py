#!/usr/bin/env python3
"""Markdown tables from raw/ (bench_node_movement_smpi.sh's outputs): per
collective and size, colibri's algorithms, auto and its choice, SMPI's
built-ins, the best of each, and auto / the best built-in (us, simulated).

    python3 docs/results/movement-smpi/tables.py [TAG]   TAG: p1024 (default), p1024-flat
"""
import glob
import os
import sys

raw = os.path.join(os.path.dirname(os.path.abspath(__file__)), "raw")
tag = sys.argv[1] if len(sys.argv) > 1 else "p1024"
for coll in ["gather", "scatter", "scan", "exscan", "allgatherv", "gatherv", "scatterv"]:
    files = sorted(f for f in glob.glob(os.path.join(raw, f"{coll}-{tag}-*.txt"))
                   if "flat" in tag or "-flat-" not in os.path.basename(f))
    rows = {}
    for f in files:
        for line in open(f):
            c, alg, size, us = line.strip().split(",")
            rows.setdefault(int(size), {})[alg] = float(us)
    if not rows:
        continue
    if not any(not a.startswith("smpi:") for r in rows.values() for a in r):
        print(f"\n### {coll} ({tag}): SMPI built-ins only\n")
    print(f"\n### {coll} ({tag})\n")
    print("| bytes | colibri | auto (choice) | SMPI built-ins | best colibri | best built-in | auto / best built-in |")
    print("|---:|---|---|---|---|---|---:|")
    for size in sorted(rows):
        r = {a: t for a, t in rows[size].items() if t >= 0}
        ours = {a: t for a, t in r.items() if not a.startswith(("auto=", "smpi:"))}
        auto = [(a[5:], t) for a, t in r.items() if a.startswith("auto=")]
        smpi = {a[5:]: t for a, t in r.items() if a.startswith("smpi:")}
        fmt = lambda d: ", ".join(f"{a} {t:.2f}" for a, t in sorted(d.items(), key=lambda x: x[1]))
        bo = min(ours.items(), key=lambda x: x[1]) if ours else ("-", 0)
        bs = min(smpi.items(), key=lambda x: x[1]) if smpi else None
        a = auto[0] if auto else None
        ratio = f"{a[1] / bs[1]:.3f}" if a and bs and bs[1] > 0 else "-"
        print(f"| {size} | {fmt(ours) or '-'} | {f'{a[1]:.2f} ({a[0]})' if a else '-'} | {fmt(smpi) or '-'} | "
              f"{f'{bo[0]} {bo[1]:.2f}' if ours else '-'} | "
              f"{(bs[0] + ' ' + format(bs[1], '.2f')) if bs else '-'} | {ratio} |")
