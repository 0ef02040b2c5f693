#!/usr/bin/env python3
"""Tables of bench/scripts/bench_imb.sh's imb.csv: per MPI, IMB benchmark
and message size, the median over runs of native's and colibri's time
(IMB's t_avg; IMB-NBC's t_pure, and t_ovrl as NAME:ovrl) and the median of
the run-by-run ratio colibri/native.  Writes tables.md beside the CSV (every
size) and prints the summary: per benchmark the ratios' range over size
bands, and the sizes where colibri is behind by more than 5% and 0.05 us
(issue #28's bar).

    python3 bench/report/imb_table.py docs/results/imb/imb.csv
"""
import csv
import os
import statistics
import sys
from collections import defaultdict

BANDS = [(0, 0, "0 B"), (1, 256, "1-256 B"), (512, 8192, "512 B-8 KiB"),
         (16384, 262144, "16-256 KiB"), (524288, 1 << 40, "512 KiB-4 MiB")]
MPI_NAMES = {"impi": "Intel MPI 2021.19", "mpich5": "MPICH 5.0.2", "mpich": "MPICH 4.0 (Debian)"}


def size_label(b):
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return f"{b >> 20} MiB"
    if b >= 1024 and b % 1024 == 0:
        return f"{b >> 10} KiB"
    return f"{b} B"


def load(path):
    t = defaultdict(lambda: defaultdict(dict))  # (mpi, bench, bytes) -> run -> variant -> us
    for r in csv.DictReader(open(path)):
        t[(r["mpi"], r["bench"], int(r["bytes"]))][r["run"]][r["variant"]] = float(r["t_us"])
    rows = {}
    for key, runs in t.items():
        pairs = [(v["native"], v["colibri"]) for v in runs.values() if "native" in v and "colibri" in v]
        if not pairs:
            continue
        nat = statistics.median(p[0] for p in pairs)
        col = statistics.median(p[1] for p in pairs)
        ratio = statistics.median(p[1] / p[0] if p[0] > 0 else (1.0 if p[1] == 0 else float("inf"))
                                  for p in pairs)
        rows[key] = (nat, col, ratio, len(pairs))
    return rows


def behind(nat, col, ratio):
    return ratio > 1.05 and col - nat > 0.05


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "docs/results/imb/imb.csv"
    rows = load(path)
    mpis = [m for m in MPI_NAMES if any(k[0] == m for k in rows)]
    benches = []
    for k in sorted(rows, key=lambda k: k[1]):
        if k[1] not in benches:
            benches.append(k[1])
    # keep IMB's order where known
    order = ["Allreduce", "Reduce", "Reduce_scatter", "Reduce_scatter_block", "Allgather",
             "Allgatherv", "Gather", "Gatherv", "Scatter", "Scatterv", "Alltoall", "Alltoallv",
             "Bcast", "Barrier"]
    rank = {b: i for i, b in enumerate(order)}
    benches.sort(key=lambda b: (rank.get(b.lstrip("I").split(":")[0].capitalize()
                                         if b.startswith("I") else b, 99), b))
    out = []
    out.append("| benchmark | " + " | ".join(f"{MPI_NAMES[m]}" for m in mpis) + " |")
    out.append("|---|" + "---|" * len(mpis))
    slow = []
    for b in benches:
        cells = []
        for m in mpis:
            parts = []
            for lo, hi, name in BANDS:
                rs = [v[2] for k, v in rows.items() if k[0] == m and k[1] == b and lo <= k[2] <= hi]
                if rs:
                    parts.append(f"{name}: {min(rs):.2f}" + (f"-{max(rs):.2f}" if len(rs) > 1 else ""))
            cells.append("<br>".join(parts) if parts else "-")
            for k, v in sorted(rows.items(), key=lambda kv: kv[0][2]):
                if k[0] == m and k[1] == b and behind(*v[:3]):
                    slow.append((m, b, k[2], v))
        out.append(f"| {b} | " + " | ".join(cells) + " |")
    summary = "\n".join(out)
    print("Median colibri/native by size band (IMB t_avg; IMB-NBC t_pure):\n")
    print(summary)
    print("\nBehind native by more than 5% and 0.05 us:")
    for m, b, size, (nat, col, ratio, n) in slow:
        print(f"- {MPI_NAMES[m]} {b} {size_label(size)}: {col:.2f} us vs {nat:.2f} ({ratio:.2f}x, {n} runs)")
    if not slow:
        print("- none")
    # every size
    full = ["# IMB under colibri: every size\n",
            f"From `{os.path.basename(path)}` (bench/report/imb_table.py): per size the medians "
            "over runs of native's and colibri's time (us) and of the run-by-run ratio "
            "colibri/native; **bold**: behind by more than 5% and 0.05 us.\n"]
    for m in mpis:
        full.append(f"\n## {MPI_NAMES[m]}\n")
        for b in benches:
            ks = sorted(k for k in rows if k[0] == m and k[1] == b)
            if not ks:
                continue
            full.append(f"\n### {b}\n\n| bytes | native us | colibri us | ratio |\n|---:|---:|---:|---:|")
            for k in ks:
                nat, col, ratio, n = rows[k]
                r = f"{ratio:.2f}"
                if behind(nat, col, ratio):
                    r = f"**{r}**"
                full.append(f"| {size_label(k[2])} | {nat:.2f} | {col:.2f} | {r} |")
    full.append("\n## Summary\n\n" + summary + "\n")
    with open(os.path.join(os.path.dirname(path) or ".", "tables.md"), "w") as f:
        f.write("\n".join(full) + "\n")


if __name__ == "__main__":
    main()
