#!/usr/bin/env python3
"""colibri-tune's measurements (its --csv file: coll,bytes,candidate,us,winner)
as one panel per collective: each candidate's time against size, native
bold, the winner of each size marked.  Needs matplotlib (Debian's
/usr/bin/python3 has it).

  /usr/bin/python3 bench/report/plot_tune.py tune.csv tune.png
"""
import csv
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import pyplot  # noqa: E402


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = defaultdict(lambda: defaultdict(list))
    winners = defaultdict(list)
    with open(sys.argv[1], newline="") as f:
        for r in csv.DictReader(f):
            data[r["coll"]][r["candidate"]].append((int(r["bytes"]), float(r["us"])))
            if r["winner"] == "1":
                winners[r["coll"]].append((int(r["bytes"]), float(r["us"])))
    plt = pyplot()
    if not plt:
        sys.exit(1)
    colls = list(data)
    cols = 2
    rows = (len(colls) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(12, 4 * rows), squeeze=False)
    for ax, coll in zip(axes.flat, colls):
        for cand, pts in sorted(data[coll].items()):
            pts.sort()
            native = cand == "native"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=cand,
                    lw=2.5 if native else 0.8, color="black" if native else None)
        w = sorted(winners[coll])
        ax.scatter([p[0] for p in w], [p[1] for p in w], marker="o", s=18, color="red",
                   zorder=5, label="winner")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(coll)
        ax.set_xlabel("bytes")
        ax.set_ylabel("µs per call (median)")
        ax.legend(fontsize=6, ncol=2)
    for ax in list(axes.flat)[len(colls):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=80)


if __name__ == "__main__":
    main()
