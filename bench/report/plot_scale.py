#!/usr/bin/python3
"""Tables and plot of the alltoallv scale study (bench/scripts/bench_smpi_scale.sh).

    /usr/bin/python3 bench/report/plot_scale.py [docs/results/alltoallv-scale]

Prints one markdown table per (layout, distribution): simulated us per call
of every algorithm at every size, its ratio to the linear floor 2(p-1)o + a
(what 2(p-1) message overheads of 0.5 us cost one rank, plus one latency),
the run's wall time, and what auto picked; writes alltoallv-scale.png (left:
8 B at 1024 and 4096 ranks against the built-ins and the linear floor;
right: colibri's algorithms at 1024 ranks over the block sizes, uniform and
skewed).
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "docs/results/alltoallv-scale"
O, A = 0.5e-6, 1e-6
LAYOUT_P = {"64x16": 1024, "256x16": 4096}


def floor_us(p):
    return (2 * (p - 1) * O + A) * 1e6


rows = list(csv.DictReader(open(os.path.join(OUT, "alltoallv-scale.csv"))))
groups = {}
for r in rows:
    groups.setdefault((r["layout"], r["dist"]), []).append(r)
for (layout, dist), rs in sorted(groups.items(), key=lambda g: (LAYOUT_P[g[0][0]], g[0][1])):
    p = LAYOUT_P[layout]
    print(f"\n{layout} (p = {p}), {dist}; linear floor {floor_us(p):.0f} us\n")
    print("| algorithm | block | µs per call | / linear floor | picks | simulation wall s |")
    print("|---|---:|---:|---:|---|---:|")
    for r in sorted(rs, key=lambda r: (r["alg"], int(r["bytes"]))):
        us = float(r["usec"])
        print(f"| {r['alg']} | {r['bytes']} B | {us:.1f} | {us / floor_us(p):.3f} | "
              f"{r['ran'] if r['alg'] == 'auto' else ''} | {r['wall_s']} |")

fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.5), gridspec_kw={"width_ratios": [3, 2]})
x0 = 0  # the next group's first bar
for layout in ["64x16", "256x16"]:
    rs = [r for r in rows if r["layout"] == layout and r["dist"] == "uniform" and r["bytes"] == "8"]
    rs.sort(key=lambda r: float(r["usec"]))
    if not rs:
        continue
    names = [r["alg"] for r in rs]
    ys = [float(r["usec"]) for r in rs]
    xs = [x0 + j for j in range(len(names))]
    x0 += len(names) + 1
    ax.bar(xs, ys, color=["tab:orange" if n == "auto" else "tab:blue" if n.startswith("sloav")
                          else "tab:gray" for n in names])
    for x, y, n in zip(xs, ys, names):
        ax.text(x, y, f"{n}\n{y:.0f}", ha="center", va="bottom", fontsize=7)
    ax.hlines(floor_us(LAYOUT_P[layout]), xs[0] - 0.5, xs[-1] + 0.5, colors="red",
              linestyles="dashed")
    ax.text(xs[0], floor_us(LAYOUT_P[layout]) * 1.05, f"p={LAYOUT_P[layout]}: linear floor "
            f"{floor_us(LAYOUT_P[layout]):.0f} us", color="red", fontsize=8)
    bar = 0.136 * floor_us(LAYOUT_P[layout])  # the seed's SLOAV-against-linear ratio
    ax.hlines(bar, xs[0] - 0.5, xs[-1] + 0.5, colors="green", linestyles="dotted")
    ax.text(xs[0], bar * 1.05, f"seed's bar 0.136x = {bar:.0f} us", color="green", fontsize=8)
ax.set_yscale("log")
ax.set_ylabel("simulated µs per call (log)")
ax.set_xticks([])
ax.set_title("alltoallv, 8 B blocks, 16 ranks per node, o = 0.5 µs, shared memory charged (SMPI)",
             fontsize=9)
style = {"uniform": "-", "skewed": "--"}
color = {"auto": "tab:orange", "sloav": "tab:gray", "sloavx": "tab:blue"}
for dist in ("uniform", "skewed"):
    for alg in ("sloav", "sloavx", "auto"):
        rs = sorted((r for r in rows if r["layout"] == "64x16" and r["dist"] == dist
                     and r["alg"] == alg), key=lambda r: int(r["bytes"]))
        if rs:
            bx.plot([int(r["bytes"]) for r in rs], [float(r["usec"]) for r in rs],
                    style[dist], marker="x" if alg == "auto" else "o", color=color[alg],
                    markersize=9 if alg == "auto" else 5, label=f"{alg}, {dist}")
bx.set_xscale("log", base=2)
bx.set_yscale("log")
bx.set_xlabel("block bytes (skewed: rank 0's are 100x)")
bx.set_ylabel("simulated µs per call (log)")
bx.set_title("1024 ranks (64 x 16) by block size (auto: on sloavx's line)", fontsize=9)
bx.legend(fontsize=7)
fig.tight_layout()
fig.savefig(os.path.join(OUT, "alltoallv-scale.png"), dpi=110)
print(f"\nwrote {os.path.join(OUT, 'alltoallv-scale.png')}")
