#!/usr/bin/env python3
"""Tables of docs/results/tune/ from tune.csv (bench/scripts/bench_tune.sh):
per MPI, collective and size, the median over alternating runs of native's
time, colibri's with the tuning file, and of the run-by-run ratio
colibri/native, with what the tuning file chose there; flags the sizes
where colibri is slower than the target allows (median ratio > 1.05 and
more than 0.05 us slower).  Also writes tune-summary.csv.

  python3 bench/report/tune_table.py [--update docs/results/tune/README.md]
"""
import argparse
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import RESULTS, human_bytes, table, write_tables  # noqa: E402

STUDY = os.path.join(RESULTS, "tune")


def rules(path):
    """[(coll, lo, hi, label)] of a tuning file's rules for blocking calls."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            t = line.split("#")[0].split()
            if len(t) < 6 or t[0] in ("mpi", "shape", "model") or t[0].startswith("i"):
                continue
            kv = dict(x.split("=", 1) for x in t[6:] if "=" in x)
            label = t[5] + (f":{kv['radix']}" if "radix" in kv else "") + \
                (f"@{kv['segment']}" if "segment" in kv else "")
            out.append((t[0], int(t[1]), int(t[2]), label))
    return out


def choice(rs, coll, nbytes):
    for c, lo, hi, label in rs:
        if c == coll and lo <= nbytes <= hi:
            return label
    return "(model)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--update", help="markdown file whose tables section to replace")
    args = ap.parse_args()
    groups = {}
    with open(os.path.join(STUDY, "tune.csv"), newline="") as f:
        for r in csv.DictReader(f):
            groups.setdefault((r["mpi"], r["coll"], int(r["bytes"])), []).append(r)
    summary = []
    for (mpi, coll, nbytes), rows in sorted(groups.items()):
        n = statistics.median(float(r["native_us"]) for r in rows)
        c = statistics.median(float(r["colibri_us"]) for r in rows)
        ratio = statistics.median(float(r["ratio"]) for r in rows)
        summary.append((mpi, coll, nbytes, n, c, ratio, len(rows)))
    with open(os.path.join(STUDY, "tune-summary.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["mpi", "coll", "bytes", "native_us", "colibri_us", "ratio", "runs", "choice"])
        for mpi, coll, nbytes, n, c, ratio, k in summary:
            ch = choice(rules(os.path.join(STUDY, f"{mpi}-p2.tuning")), coll, nbytes)
            w.writerow([mpi, coll, nbytes, f"{n:.4f}", f"{c:.4f}", f"{ratio:.4f}", k, ch])
    md = []
    for mpi in sorted({s[0] for s in summary}):
        rs = rules(os.path.join(STUDY, f"{mpi}-p2.tuning"))
        colls = [c for c in ("allreduce", "reduce", "reduce_scatter_block", "alltoall", "alltoallv")
                 if any(s[0] == mpi and s[1] == c for s in summary)]
        sizes = sorted({s[2] for s in summary if s[0] == mpi and s[1] == "allreduce"} |
                       {s[2] for s in summary if s[0] == mpi})
        by = {(s[1], s[2]): s for s in summary if s[0] == mpi}
        bad = [s for s in summary if s[0] == mpi and s[5] > 1.05 and s[4] - s[3] > 0.05]
        best = min((s[5] for s in summary if s[0] == mpi), default=1)
        md.append(f"### {mpi}, 2 ranks\n")
        md.append(f"Median colibri/native ratio per size (median µs of native → colibri, "
                  f"the file's choice); {len(bad)} of {len(by)} cells over the target "
                  f"(ratio > 1.05 and > 0.05 µs slower){': ' if bad else ''}"
                  + ", ".join(f"{b[1]} {human_bytes(b[2])} ({b[5]:.2f})" for b in bad)
                  + f"; fastest cell {best:.2f}.\n")
        body = []
        for nbytes in sizes:
            row = [human_bytes(nbytes)]
            for coll in colls:
                s = by.get((coll, nbytes))
                if not s:
                    row.append("")
                    continue
                flag = " **!**" if s[5] > 1.05 and s[4] - s[3] > 0.05 else ""
                row.append(f"{s[5]:.2f}{flag} ({s[3]:.3g} → {s[4]:.3g}, "
                           f"{choice(rs, coll, nbytes)})")
            body.append(row)
        md.append(table(["size"] + colls, body) + "\n")
    write_tables("\n".join(md), args.update)


if __name__ == "__main__":
    main()
