#!/usr/bin/env python3
"""Markdown tables of the sparse allreduce or reduce sweep (bench/scripts/bench_sparse.sh).

    bench/report/sparse_tables.py [--update docs/sparse.md] [--plot DIR] CSV...

Per CSV and position pattern (random, clustered): one row per vector size
with colibri's dense algorithm and its time, then for every density the
speed-up of the two forced sparse algorithms and of auto over dense
("recursive doubling (binomial for reduce) / Rabenseifner / auto"), and the native allreduce at d = 100%.  With --update
the tables of each CSV replace what lies between
"<!-- sparse-tables:NAME:begin -->" and "<!-- sparse-tables:NAME:end -->",
NAME the CSV's file name without ".csv"; otherwise they go to stdout.
With --plot, DIR/sparse-NAME.png shows, per position pattern, the
speed-up over dense against the vector size for each density below 100%:
auto as a solid line, the faster forced sparse algorithm dotted.
"""
import argparse
import collections
import csv
import os
import sys


def human(b):
    for unit, f in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= f and b % f == 0:
            return f"{b // f} {unit}"
    return f"{b} B"


def pct(d):
    return f"{float(d) * 100:g}%"


def tables(path):
    t = collections.defaultdict(dict)   # (positions, bytes, density) -> alg -> (usec, ran)
    coll = "allreduce"
    for r in csv.DictReader(open(path)):
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


def plot(path, outdir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
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
    name = os.path.basename(path)[:-4]
    fig.suptitle(f"sparse {'reduce' if name.startswith('reduce') else 'allreduce'}, {name}")
    fig.tight_layout()
    out = os.path.join(outdir, f"sparse-{name}.png")
    fig.savefig(out, dpi=110)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update")
    ap.add_argument("--plot")
    ap.add_argument("csv", nargs="+")
    args = ap.parse_args()
    if args.plot:
        for path in args.csv:
            print("wrote", plot(path, args.plot))
    text = open(args.update).read() if args.update else None
    for path in args.csv:
        md = tables(path)
        if text is None:
            print(md)
            continue
        name = os.path.basename(path)[:-4]
        begin, end = f"<!-- sparse-tables:{name}:begin -->", f"<!-- sparse-tables:{name}:end -->"
        if begin not in text or end not in text:
            sys.exit(f"{args.update} has no '{begin}' ... '{end}' section")
        head, rest = text.split(begin, 1)
        text = head + begin + "\n\n" + md + "\n" + end + rest.split(end, 1)[1]
    if text is not None:
        with open(args.update, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
