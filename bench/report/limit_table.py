#!/usr/bin/env python3
"""Tables of bench/scripts/bench_node_limit.sh: colibri and the MPI's own
reductions on one node against the memory-traffic bound of each size on
this machine (issue #27).  Prints Markdown; with --plot FILE.png also a
figure (needs matplotlib: Debian's python3-matplotlib).

  python3 bench/report/limit_table.py RUNS.csv BOUND.csv [--plot out.png]

RUNS.csv: bench_mpis.sh's rows (mpi, coll, bytes, native_us, colibri_us,
ratio, rep, run); BOUND.csv: kernel-bench -o's rows (bytes, copy_us,
reduce_us: the fastest memcpy of that many bytes and the fastest SUM-double
combine of that many bytes into as many, one core, warm buffers).

The bound at 2 ranks (n bytes of vector; reduce_scatter_block: b bytes of
a rank's block), what the fewest passes over memory cost when every
pass runs at one core's measured speed and the two ranks work at once:
  allreduce  copy(n) + reduce(n/2) + copy(n)  each rank copies its input
             into shared memory once, reduces its half once, copies the
             result out once (issue #27's own definition)
  reduce     reduce(n)  the root combines the whole vector once (the other
             rank's copy-in runs beside it)
  reduce_scatter_block  copy(b) + reduce(b)  each rank publishes the block
             the other owns and reduces its own
It leaves out what crossing between cores costs (on this VM a byte crosses
at 5-15 GB/s against memcpy's 40 GB/s in one core), so no library reaches
it: the column says how far each is from the memory system's limit.
"""
import argparse
import bisect
import csv
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import human_bytes  # noqa: E402

COLLS = ["allreduce", "reduce", "reduce_scatter_block"]


def load_bound(path):
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            rows.append((int(r["bytes"]), float(r["copy_us"]), float(r["reduce_us"])))
    rows.sort()
    return rows


def at(rows, n, col):
    """Time of `n` bytes, linear between the measured sizes around it."""
    if n <= 0:
        return 0.0
    sizes = [r[0] for r in rows]
    i = bisect.bisect_left(sizes, n)
    if i < len(rows) and sizes[i] == n:
        return rows[i][col]
    if i == 0:
        return rows[0][col] * n / sizes[0]
    if i == len(rows):
        return rows[-1][col] * n / sizes[-1]
    (n0, n1), (t0, t1) = (sizes[i - 1], sizes[i]), (rows[i - 1][col], rows[i][col])
    return t0 + (t1 - t0) * (n - n0) / (n1 - n0)


def bound(rows, coll, n):
    copy = lambda b: at(rows, b, 1)  # noqa: E731
    red = lambda b: at(rows, b, 2)  # noqa: E731
    if coll == "allreduce":
        return 2 * copy(n) + red(n // 2)
    if coll == "reduce":
        return red(n)
    if coll == "reduce_scatter_block":
        return copy(n) + red(n)
    return None


def cells_of(path):
    cells = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["coll"] not in COLLS:
                continue
            cells[(row["mpi"], row["coll"], int(row["bytes"]))].append(
                (float(row["native_us"]), float(row["colibri_us"]), float(row["ratio"])))
    return cells


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs")
    ap.add_argument("bound")
    ap.add_argument("--plot")
    a = ap.parse_args()
    rows = load_bound(a.bound)
    cells = cells_of(a.runs)
    series = {}
    for mpi in sorted({k[0] for k in cells}):
        for coll in COLLS:
            sizes = sorted(k[2] for k in cells if k[0] == mpi and k[1] == coll)
            if not sizes:
                continue
            print(f"\n### {mpi} {coll}: µs per call, medians over alternating runs\n")
            print("| bytes | native | colibri | colibri / native | bound | "
                  "native / bound | colibri / bound |")
            print("|---:|---:|---:|---:|---:|---:|---:|")
            pts = []
            for n in sizes:
                v = cells[(mpi, coll, n)]
                nat = statistics.median(x[0] for x in v)
                col = statistics.median(x[1] for x in v)
                r = statistics.median(x[2] for x in v)
                b = bound(rows, coll, n)
                print(f"| {human_bytes(n)} | {nat:.2f} | {col:.2f} | {r:.2f} | {b:.2f} | "
                      f"{nat / b:.1f} | {col / b:.1f} |")
                pts.append((n, nat, col, b))
            series[(mpi, coll)] = pts
    if a.plot:
        plot(series, a.plot)


def plot(series, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"# no matplotlib: {path} not drawn", file=sys.stderr)
        return
    mpis = sorted({k[0] for k in series})
    fig, axes = plt.subplots(len(COLLS), len(mpis), figsize=(4 * len(mpis), 3.2 * len(COLLS)),
                             squeeze=False)
    for j, mpi in enumerate(mpis):
        for i, coll in enumerate(COLLS):
            ax = axes[i][j]
            pts = series.get((mpi, coll))
            if not pts:
                ax.axis("off")
                continue
            xs = [p[0] for p in pts]
            ax.loglog(xs, [p[1] for p in pts], "o-", label="native")
            ax.loglog(xs, [p[2] for p in pts], "s-", label="colibri")
            ax.loglog(xs, [p[3] for p in pts], "k--", label="memory bound")
            ax.set_title(f"{mpi}: {coll}", fontsize=9)
            ax.set_xlabel("bytes")
            ax.set_ylabel("µs")
            ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


if __name__ == "__main__":
    main()
