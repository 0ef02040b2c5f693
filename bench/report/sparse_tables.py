#!/usr/bin/env python3
"""Markdown tables of the sparse allreduce or reduce sweep (bench/scripts/bench_sparse.sh).

    bench/report/sparse_tables.py [--update docs/results/sparse/README.md] [--plot [DIR]] [CSV...]
    (default: the CSVs of docs/results/sparse/)

Per run (a value of the "run" column of docs/results/sparse/sparse.csv,
which bench/scripts/bench_sparse.sh writes, or a whole CSV without that
column) and position pattern (random, clustered): one row per vector size
with colibri's dense algorithm and its time, then for every density the
speed-up of the two forced sparse algorithms and of auto over dense
("recursive doubling (binomial for reduce) / Rabenseifner / auto"), and the native allreduce at d = 100%.  With --update
the tables of each run replace what lies between
"<!-- sparse-tables:NAME:begin -->" and "<!-- sparse-tables:NAME:end -->",
NAME the run (a CSV's file name without ".csv"); otherwise they go to stdout.
With --plot, DIR/sparse-NAME.png (DIR by default the CSV's folder) shows, per position pattern, the
speed-up over dense against the vector size for each density below 100%:
auto as a solid line, the faster forced sparse algorithm dotted.
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402  (bench/report/common.py)
from common import human_bytes as human  # noqa: E402


def pct(d):
    return f"{float(d) * 100:g}%"


def tables(rows):
    t = collections.defaultdict(dict)   # (positions, bytes, density) -> alg -> (usec, ran)
    coll = "allreduce"
    for r in rows:
        t[(r["positions"], int(r["bytes"]), r["density"])][r["alg"]] = (float(r["usec"]), r["ran"])
        coll = r.get("coll", coll)
    first = "sparse_binomial" if coll == "reduce" else "sparse_recursive_doubling"
    out = []
    for pos in sorted({k[0] for k in t}, key=lambda x: x != "random"):
        dens = sorted({k[2] for k in t if k[0] == pos}, key=float, reverse=True)
        sizes = sorted({k[1] for k in t if k[0] == pos})
        out.append(f"{pos} positions: dense time (µs) and speed-up over it of "
                   f"{first} / sparse_rabenseifner / auto\n")
        out.append("| size | dense alg | dense µs | " + " | ".join(f"d={pct(d)}" for d in dens) +
                   f" | native {coll} µs (d=100%) |")
        out.append("|---" * (len(dens) + 4) + "|")
        for b in sizes:
            ref = next((t[(pos, b, d)]["dense"] for d in dens if "dense" in t[(pos, b, d)]), None)
            if not ref:
                continue
            cells = []
            for d in dens:
                row = t.get((pos, b, d), {})
                dense = row.get("dense", ref)[0]
                cells.append(" / ".join(f"{dense / row[a][0]:.2f}" if a in row else "–"
                                        for a in ("sparse-rd", "sparse-rab", "auto")))
            # the sweep runs d = 100% once (its positions do not matter)
            nat = next((t[k]["native"] for k in ((pos, b, "1"), ("random", b, "1"))
                        if "native" in t.get(k, {})), None)
            out.append(f"| {human(b)} | {ref[1]} | {ref[0]:.1f} | " + " | ".join(cells) +
                       (f" | {nat[0]:.1f} |" if nat else " | – |"))
        out.append("")
    return "\n".join(out)


def plot(name, rows, outdir, plt):
    t = collections.defaultdict(dict)
    for r in rows:
        t[(r["positions"], int(r["bytes"]), r["density"])][r["alg"]] = float(r["usec"])
    pats = sorted({k[0] for k in t}, key=lambda x: x != "random")
    fig, axes = plt.subplots(1, len(pats), figsize=(6 * len(pats), 4.2), sharey=True, squeeze=False)
    for ax, pos in zip(axes[0], pats):
        dens = sorted({k[2] for k in t if k[0] == pos and float(k[2]) < 1}, key=float, reverse=True)
        for i, d in enumerate(dens):
            rows = sorted((b, v) for (q, b, dd), v in t.items() if q == pos and dd == d and "dense" in v)
            xs = [b for b, _ in rows]
            color = f"C{i}"
            ax.plot(xs, [v["dense"] / v["auto"] for _, v in rows], "-o", color=color, ms=3,
                    label=f"d={pct(d)} auto")
            ax.plot(xs, [v["dense"] / min(v["sparse-rd"], v["sparse-rab"]) for _, v in rows], ":",
                    color=color, label=f"d={pct(d)} best sparse")
        ax.axhline(1, color="grey", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("vector bytes")
        ax.set_title(f"{pos} positions")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("speed-up over colibri dense")
    axes[0][-1].legend(fontsize=7, ncol=2)
    fig.suptitle(f"sparse {'reduce' if name.startswith('reduce') else 'allreduce'}, {name}")
    fig.tight_layout()
    out = os.path.join(outdir, f"sparse-{name}.png")
    fig.savefig(out, dpi=110)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update")
    ap.add_argument("--plot", nargs="?", const="", metavar="DIR",
                    help="write plots (to DIR; by default beside each CSV)")
    ap.add_argument("csv", nargs="*")
    args = ap.parse_args()
    runs = common.runs(args.csv or common.study_csvs("sparse"))
    if not runs:
        sys.exit("no CSV files")
    if args.plot is not None:
        plt = common.pyplot()
        for name, path, rows in runs if plt else []:
            print("wrote", plot(name, rows, args.plot or os.path.dirname(path), plt))
    text = open(args.update).read() if args.update else None
    for name, _, rows in runs:
        md = tables(rows)
        if text is None:
            print(md)
            continue
        text = common.replace_section(text, f"<!-- sparse-tables:{name}:begin -->",
                                      f"<!-- sparse-tables:{name}:end -->", md, args.update)
    if text is not None:
        with open(args.update, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
