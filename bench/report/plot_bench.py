#!/usr/bin/env python3
"""Turns colibri-bench CSVs into markdown tables and PNG plots.

    bench/report/plot_bench.py [--update docs/benchmarks.md] [--plots DIR]
                               [CSV ...]
    (default: the CSVs of docs/results/allreduce-smpi/ and allreduce-real/)

One table set and one figure per run (one machine or simulated platform at
one process count: a value of the "run" column of the merged CSVs that
bench/scripts/bench_smpi.sh and bench_real.sh write, or a whole CSV without
that column).  Figures go to DIR, by default beside the CSV they come from
(docs/results/<study>/<run>.png).  With --update, the tables replace what lies between the
"<!-- tables:begin -->" and "<!-- tables:end -->" lines of that file;
otherwise they go to stdout.  Plots need matplotlib (Debian:
python3-matplotlib, which scripts/install-deps.sh installs); without it the
tables are still written.

Columns: "native" (the MPI below) and "smpi:*" / "selector:*" (SMPI built-ins)
are the baselines; "auto" is colibri's own choice, "auto[platform model]" the
same with its cost model given the platform's alpha, beta, gamma; every other
name is a colibri algorithm forced by name.
"""
import argparse
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import fmt, human_bytes, table  # noqa: E402  (bench/report/common.py)
import common  # noqa: E402

BASELINE = re.compile(r"^(native|smpi:|selector:)")


def is_baseline(alg):
    return bool(BASELINE.match(alg))


def is_auto(alg):
    return alg.startswith("auto")


class Data:
    """One run: name (the "run" column, or the file's name), the CSV it
    comes from and its rows."""

    def __init__(self, name, path, rows):
        self.path = path
        self.name = name
        self.t = defaultdict(dict)      # alg -> bytes -> usec
        self.ran = defaultdict(dict)    # alg -> bytes -> algorithm that ran
        self.bound = {}                 # bytes -> usec
        self.p = None
        self.coll = None
        self.plot_path = None           # its figure, once drawn
        for row in rows:
            b = int(row["bytes"])
            self.p = int(row["p"])
            self.coll = row["coll"]
            self.t[row["alg"]][b] = float(row["usec"])
            self.ran[row["alg"]][b] = row.get("ran") or row["alg"]
            if row.get("bound_usec"):
                self.bound[b] = float(row["bound_usec"])
        self.sizes = sorted({b for d in self.t.values() for b in d})
        algs = list(self.t)
        self.autos = sorted((a for a in algs if is_auto(a)), key=lambda a: (a != "auto", a))
        self.colibri = [a for a in algs if not is_auto(a) and not is_baseline(a)]
        self.baselines = [a for a in algs if is_baseline(a)]

    def title(self):
        m = re.match(r"smpi-p(\d+)$", self.name)
        if m:
            return (f"{self.coll}, SimGrid SMPI, {self.p} ranks, flat 1 µs / 100 Gb/s cluster "
                    "(simulated time)")
        m = re.match(r"real-(\w+)-p(\d+)(-oversubscribed)?$", self.name)
        if m:
            over = " OVERSUBSCRIBED on a 2-core machine" if m.group(3) else " (one core each)"
            return f"{self.coll}, {m.group(1)}, {self.p} real processes{over}"
        return f"{self.coll}, {self.name}, p={self.p}"

    def best(self, algs, b):
        cands = [(self.t[a][b], a) for a in algs if b in self.t[a]]
        return min(cands) if cands else (None, None)


def ratio(a, b):
    return f"{a / b:.2f}" if a is not None and b else "–"


def summary_table(d):
    has_bound = bool(d.bound)
    header = ["size"]
    for a in d.autos:
        header += [f"{a} µs", f"{a} picks"]
    header += ["best colibri µs", "best baseline µs"]
    if has_bound:
        header += ["bound µs"]
    header += ["auto / best baseline"]
    if has_bound:
        header += ["auto / bound"]
    rows = []
    for b in d.sizes:
        r = [human_bytes(b)]
        for a in d.autos:
            r += [fmt(d.t[a].get(b)), d.ran[a].get(b, "–")]
        tc, ac = d.best(d.colibri, b)
        tb, ab = d.best(d.baselines, b)
        r += [f"{fmt(tc)} ({ac})" if ac else "–", f"{fmt(tb)} ({ab})" if ab else "–"]
        if has_bound:
            r += [fmt(d.bound.get(b))]
        auto = d.t["auto"].get(b) if "auto" in d.t else None
        r += [ratio(auto, tb)]
        if has_bound:
            r += [ratio(auto, d.bound.get(b))]
        rows.append(r)
    return table(header, rows)


def full_table(d, algs, with_bound):
    header = ["size"] + algs + (["bound"] if with_bound and d.bound else [])
    rows = []
    for b in d.sizes:
        tb, _ = d.best(algs, b)
        r = [human_bytes(b)]
        for a in algs:
            t = d.t[a].get(b)
            r.append(f"**{fmt(t)}**" if t is not None and t == tb else fmt(t))
        if with_bound and d.bound:
            r.append(fmt(d.bound.get(b)))
        rows.append(r)
    return table(header, rows)


def auto_losses(d):
    """Sizes where auto is more than 5% slower than the best baseline."""
    if "auto" not in d.t:
        return []
    out = []
    for b in d.sizes:
        ta = d.t["auto"].get(b)
        tb, ab = d.best(d.baselines, b)
        tc, ac = d.best(d.colibri, b)
        if ta is not None and tb is not None and ta > 1.05 * tb:
            out.append(f"{human_bytes(b)}: auto {fmt(ta)} µs ({d.ran['auto'].get(b)}) vs "
                       f"{ab} {fmt(tb)} µs (×{ta / tb:.2f}); best colibri {ac} {fmt(tc)} µs")
    return out


def source(d):
    """Where a run's numbers are: its CSV, and its run there."""
    return f"`{d.path}`" + (f" (run `{d.name}`)" if os.path.basename(d.path) != d.name + ".csv"
                            else "")


def markdown(datas, update):
    parts = []
    for d in datas:
        parts.append(f"### {d.title()}\n")
        parts.append(f"Source: {source(d)}. Times in µs per call; "
                     "bold = fastest in its row; – = not run.\n")
        if d.plot_path:
            parts.append(f"![{d.name}]({common.relative(d.plot_path, update)})\n")
        parts.append("Summary:\n\n" + summary_table(d) + "\n")
        losses = auto_losses(d)
        if losses:
            parts.append("Where auto is more than 5% slower than the best baseline:\n\n" +
                         "\n".join(f"- {x}" for x in losses) + "\n")
        else:
            parts.append("Auto is within 5% of the best baseline (or faster) at every size.\n")
        parts.append("colibri algorithms (forced by name) and auto:\n\n" +
                     full_table(d, d.autos + d.colibri, True) + "\n")
        if d.baselines:
            parts.append("Baselines:\n\n" + full_table(d, d.baselines, True) + "\n")
    return "\n".join(parts)


def size_axis(ax):
    """Log2 size axis labelled 8 B, 1 KiB, 1 MiB... every fourth power of 2."""
    ax.set_xscale("log", base=2)
    ticks = [1 << k for k in range(3, 31, 3)]
    lo, hi = ax.get_xlim()
    ticks = [t for t in ticks if lo <= t <= hi]
    ax.set_xticks(ticks)
    ax.set_xticklabels([human_bytes(t).replace(" ", "") for t in ticks])
    ax.minorticks_off()


def plot(d, path, plt):
    fig, axes = plt.subplots(1, 2, figsize=(13, 5), sharey=True)
    sizes = d.sizes

    def line(ax, alg, **kw):
        xs = [b for b in sizes if b in d.t[alg]]
        ax.plot(xs, [d.t[alg][b] for b in xs], label=alg, **kw)

    simulated = any(a.startswith(("smpi:", "selector:")) for a in d.baselines)
    for ax, group, name in ((axes[0], d.colibri, "colibri algorithms"),
                            (axes[1], d.baselines,
                             "SMPI built-ins" if simulated else "the MPI library (native)")):
        colors = plt.get_cmap("tab20").colors
        for i, a in enumerate(group):
            line(ax, a, marker=".", linewidth=1, color=colors[i % len(colors)])
        for a in d.autos:
            line(ax, a, color="black", linewidth=2.2,
                 linestyle="-" if a == "auto" else "--")
        if d.bound:
            xs = sorted(d.bound)
            ax.plot(xs, [d.bound[b] for b in xs], color="grey", linestyle=":", linewidth=2,
                    label="α-β bound")
        ax.set_yscale("log")
        size_axis(ax)
        ax.set_xlabel("vector size")
        ax.set_title(name)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    axes[0].set_ylabel("time per call (µs)")
    fig.suptitle(d.title(), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_ratios(datas, path, plt):
    """auto and the best baseline, each divided by the bound, for every
    dataset that has one."""
    withb = [d for d in datas if d.bound and "auto" in d.t]
    if not withb:
        return False
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for i, d in enumerate(withb):
        color = f"C{i}"
        xs = [b for b in d.sizes if b in d.bound and b in d.t["auto"]]
        ax.plot(xs, [d.t["auto"][b] / d.bound[b] for b in xs], color=color, marker=".",
                label=f"auto, p={d.p}")
        xb = [b for b in xs if d.best(d.baselines, b)[0] is not None]
        ax.plot(xb, [d.best(d.baselines, b)[0] / d.bound[b] for b in xb], color=color,
                linestyle="--", label=f"best built-in, p={d.p}")
    ax.axhline(1, color="grey", linestyle=":")
    ax.set_ylim(bottom=0)
    size_axis(ax)
    ax.set_xlabel("vector size")
    ax.set_ylabel("time / α-β lower bound")
    ax.set_title("allreduce under SMPI: distance from the lower bound")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def sort_key(d):
    return (0 if d.name.startswith("smpi") else 1, -d.p if d.name.startswith("smpi") else d.p,
            d.name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv", nargs="*")
    ap.add_argument("--update", help="markdown file whose tables section to replace")
    ap.add_argument("--plots", help="directory for the PNG files (default: beside each CSV)")
    args = ap.parse_args()
    paths = args.csv or common.study_csvs("allreduce-smpi", "allreduce-real")
    if not paths:
        sys.exit("no CSV files")
    datas = sorted((Data(*r) for r in common.runs(paths)), key=sort_key)
    datas = [d for d in datas if d.sizes]

    plt = common.pyplot()
    if plt:
        for d in datas:
            d.plot_path = os.path.join(args.plots or os.path.dirname(d.path), d.name + ".png")
            os.makedirs(os.path.dirname(d.plot_path) or ".", exist_ok=True)
            plot(d, d.plot_path, plt)
        smpi = [d for d in datas if d.bound]
        if smpi:
            plot_ratios(datas, os.path.join(args.plots or os.path.dirname(smpi[0].path),
                                            "smpi-ratio-to-bound.png"), plt)

    md = markdown(datas, args.update)
    common.write_tables(md, args.update)


if __name__ == "__main__":
    main()
