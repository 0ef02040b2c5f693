#!/usr/bin/env python3
"""Turns the alltoall(v) SMPI CSVs into docs/results/alltoall-smpi/README.md tables
and PNG plots.

    bench/report/plot_alltoall.py [--update docs/results/alltoall-smpi/README.md]
                             [--plots DIR] [--data docs/results/alltoall-smpi]

Reads the CSVs of --data: the merged file bench/scripts/bench_smpi_alltoall.sh
writes there (alltoall-smpi.csv, one run per layout and collective:
1024x1-alltoall, 64x16-alltoallv-skewed, ...; or one such CSV per run), and
its runs.log for the runs that failed or ran out of time.  Plots go to DIR,
by default --data.  Tables and plots per run come from plot_bench.py (same
CSV format, same columns); this adds what the alltoall issue asks about: the ratio of auto to
the best SMPI built-in per size, SLOAV against linear at 8 B (the bar:
<= 0.136) and SLOAVx against SLOAV with 16 ranks per host.  With --update the
tables replace what lies between "<!-- tables:begin -->" and
"<!-- tables:end -->"; otherwise they go to stdout.
"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402  (bench/report/common.py)
import plot_bench as pb  # noqa: E402  (a sibling script, not a package)
from common import fmt, human_bytes, table  # noqa: E402

SLOAV_BAR = 0.136


def layout_words(layout):
    """'64x16' -> '64 hosts x 16 ranks'."""
    m = re.match(r"(\d+)x(\d+)$", layout)
    if not m:
        return layout
    hosts, per = int(m.group(1)), int(m.group(2))
    return f"{hosts} host{'s' * (hosts > 1)} x {per} rank{'s' * (per > 1)}"


class Data(pb.Data):
    def __init__(self, name, path, rows):
        super().__init__(name, path, rows)
        m = re.match(r"(\d+x\d+)-(.*)$", self.name)
        self.layout = m.group(1) if m else "?"

    def title(self):
        return (f"{self.coll}, SimGrid SMPI, {self.p} ranks as "
                f"{layout_words(self.layout)}, 1 µs / 100 Gb/s cluster "
                "(simulated time)")


def ratio_cell(num, den, bar=None):
    if num is None or not den:
        return "–"
    r = num / den
    if bar is None:
        return f"{r:.3f}"
    return f"{r:.3f} ({'meets' if r <= bar else 'misses'} ≤ {bar})"


def issue_table(datas):
    """The issue's two questions, at every size of every alltoallv file."""
    rows = []
    for d, b in ((d, b) for d in datas if d.coll.startswith("alltoallv") for b in d.sizes):
        t = {a: d.t[a].get(b) for a in ("linear", "sloav", "sloavx", "auto")}
        tb, ab = d.best(d.baselines, b)
        rows.append([d.layout, d.coll.split(":", 1)[-1], human_bytes(b),
                     fmt(t["linear"]), fmt(t["sloav"]), fmt(t["sloavx"]),
                     ratio_cell(t["sloav"], t["linear"], SLOAV_BAR),
                     ratio_cell(t["sloavx"], t["sloav"]),
                     f"{fmt(t['auto'])} ({d.ran['auto'].get(b, '–')})"
                     if t["auto"] is not None else "–",
                     f"{fmt(tb)} ({ab})" if ab else "–",
                     ratio_cell(t["auto"], tb)])
    return table(["layout", "sizes", "block", "linear µs", "sloav µs", "sloavx µs",
                     "sloav / linear", "sloavx / sloav", "auto µs (picks)",
                     "best built-in µs", "auto / best built-in"], rows)


def auto_table(d):
    rows = []
    for b in d.sizes:
        ta = d.t["auto"].get(b) if "auto" in d.t else None
        tc, ac = d.best(d.colibri, b)
        tb, ab = d.best(d.baselines, b)
        rows.append([human_bytes(b),
                     f"{fmt(ta)} ({d.ran['auto'].get(b, '–')})" if ta is not None else "–",
                     f"{fmt(tc)} ({ac})" if ac else "–",
                     f"{fmt(tb)} ({ab})" if ab else "–",
                     fmt(d.bound.get(b)), ratio_cell(ta, tb), ratio_cell(ta, d.bound.get(b))])
    return table(["block", "auto µs (picks)", "best colibri µs", "best built-in µs",
                     "bound µs", "auto / best built-in", "auto / bound"], rows)


def failed_runs(log):
    if not os.path.exists(log):
        return []
    with open(log) as f:
        return [line.rstrip() for line in f if re.search(r"FAILED|TIMEOUT", line)]


def bar_plot(d, path, plt):
    """Every algorithm's time at the smallest block, colibri and built-ins
    side by side (a sweep of one or two sizes makes poor lines)."""
    b = d.sizes[0]
    algs = sorted((a for a in d.t if b in d.t[a]), key=lambda a: d.t[a][b])
    colors = ["black" if pb.is_auto(a) else "C1" if pb.is_baseline(a) else "C0" for a in algs]
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(algs) + 1.5))
    ax.barh(range(len(algs)), [d.t[a][b] for a in algs], color=colors)
    ax.set_yticks(range(len(algs)))
    ax.set_yticklabels(algs, fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    if b in d.bound:
        ax.axvline(d.bound[b], color="grey", linestyle=":", label="α-β bound")
        ax.legend(fontsize=8)
    ax.set_xlabel(f"time per call at {human_bytes(b)} blocks (µs); blue colibri, "
                  "orange SMPI built-in, black auto")
    ax.set_title(d.title(), fontsize=9)
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def markdown(datas, update, log):
    parts = ["### The issue's bar\n",
             "SLOAV against linear alltoallv (bar: ≤ 0.136 at 8 B on 1024 ranks), SLOAVx "
             "against SLOAV (bar: below 1 with 16 ranks per host), and auto against the best "
             "SMPI built-in, at every block size of each alltoallv run.\n",
             issue_table(datas) + "\n"]
    for d in datas:
        parts.append(f"### {d.title()}\n")
        parts.append(f"Source: {pb.source(d)}. Times in µs per call; bold = fastest in its "
                     "row; – = not run (or not finished).\n")
        if d.plot_path:
            parts.append(f"![{d.name}]({common.relative(d.plot_path, update)})\n")
        parts.append("auto against the best colibri algorithm and the best built-in:\n\n" +
                     auto_table(d) + "\n")
        parts.append("Every algorithm (colibri forced by name, auto, SMPI built-ins):\n\n" +
                     pb.full_table(d, d.autos + d.colibri + d.baselines, True) + "\n")
    bad = failed_runs(log)
    parts.append("### Runs that failed or ran out of time\n")
    parts.append("\n".join(f"- `{x}`" for x in bad) + "\n" if bad else "None.\n")
    return "\n".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--update", help="markdown file whose tables section to replace")
    ap.add_argument("--plots", help="directory for the PNG files (default: --data)")
    ap.add_argument("--data", default=os.path.join(common.RESULTS, "alltoall-smpi"))
    args = ap.parse_args()
    paths = sorted(glob.glob(os.path.join(args.data, "*.csv")))
    datas = [d for d in (Data(*r) for r in common.runs(paths)) if d.sizes]
    if not datas:
        sys.exit(f"no CSVs in {args.data} (run bench/scripts/bench_smpi_alltoall.sh)")
    # alltoallv before alltoall, uniform before skewed, larger p first, one
    # rank per host before several.
    datas.sort(key=lambda d: (not d.coll.startswith("alltoallv"), d.coll != "alltoallv:uniform",
                              d.coll, -d.p, not d.layout.endswith("x1")))
    plt = common.pyplot()
    if plt:
        plots = args.plots or args.data
        os.makedirs(plots, exist_ok=True)
        for d in datas:
            d.plot_path = os.path.join(plots, f"alltoall-{d.name}.png")
            if len(d.sizes) >= 3:
                pb.plot(d, d.plot_path, plt)
            else:
                bar_plot(d, d.plot_path, plt)
    md = markdown(datas, args.update, os.path.join(args.data, "runs.log"))
    common.write_tables(md, args.update)


if __name__ == "__main__":
    main()
