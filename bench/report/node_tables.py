#!/usr/bin/env python3
"""Tables (and a plot) of the node-aware reductions study.

SMPI runs (docs/results/node-smpi/node-smpi.csv, bench/scripts/
bench_node_smpi.sh): per collective and process count, per size, colibri's
auto, its node-aware algorithms, the fastest flat colibri algorithm,
the fastest SMPI built-in whose result was right (wrong ones are not
timed), and auto's ratio to each, and a lower bound that counts only the node's port:
ceil(log_17 N) latencies of 1 us (the rounds in which the nodes can
combine when each of a node's 16 ranks receives one message per round:
node_rails' rounds) and the bytes every node must send through
its 100 Gb/s port, 2 n (N-1)/N for allreduce and n (N-1)/N for reduce at
the root's node (no per-message overhead, no work on the node: a bound,
not an estimate).

    bench/report/node_tables.py [--update docs/results/node-smpi/README.md]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import fmt, human_bytes, pyplot, runs, study_csvs, table, write_tables  # noqa: E402

NODE = ("node_leader", "node_split_rail", "node_rails")
ALPHA, BETA, PER_NODE = 1e-6, 8e-11, 16


def port_bound(coll, p, n):
    """Microseconds (see the module's comment)."""
    N = max(1, p // PER_NODE)
    rounds, reach = 0, 1
    while reach < N:
        rounds, reach = rounds + 1, reach * (PER_NODE + 1)
    lat = rounds * ALPHA
    moved = (2 if coll == "allreduce" else 1) * n * (N - 1) / N
    return (lat + moved * BETA) * 1e6


def best(rows, pred):
    cands = [(float(r["usec"]), r["alg"]) for r in rows if pred(r["alg"])]
    return min(cands) if cands else (None, None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--update")
    args = ap.parse_args()
    md, plots = [], []
    for name, _, rows in runs(study_csvs("node-smpi")):
        coll, p = rows[0]["coll"], rows[0]["p"]
        sizes = sorted({int(r["bytes"]) for r in rows})
        out = []
        series = {"auto": [], "best flat": [], "best built-in": []}
        for n in sizes:
            at = [r for r in rows if int(r["bytes"]) == n]
            t = {r["alg"]: float(r["usec"]) for r in at}
            auto = t.get("auto")
            flat, flat_name = best(at, lambda a: a not in NODE and a != "auto" and not a.startswith("smpi:"))
            bi, bi_name = best(at, lambda a: a.startswith("smpi:"))
            out.append([human_bytes(n), fmt(auto), fmt(port_bound(coll, int(p), n)),
                        fmt(t.get("node_leader")), fmt(t.get("node_split_rail")),
                        fmt(t.get("node_rails")),
                        f"{fmt(flat)} ({flat_name})", f"{fmt(bi)} ({bi_name[5:] if bi_name else '–'})",
                        f"{flat / auto:.2f}x" if auto and flat else "–",
                        f"{bi / auto:.2f}x" if auto and bi else "–"])
            series["auto"].append(auto)
            series["best flat"].append(flat)
            series["best built-in"].append(bi)
        md.append(f"**{coll}, {p} ranks** (run `{name}`; simulated µs per call)\n")
        md.append(table(["size", "auto", "port bound", "node_leader", "node_split_rail", "node_rails",
                         "best flat colibri",
                         "best correct SMPI built-in", "flat / auto", "built-in / auto"], out))
        md.append("")
        plots.append((coll, p, sizes, series))
    write_tables("\n".join(md), args.update)
    plt = pyplot()
    if plt and plots:
        fig, axes = plt.subplots(1, len(plots), figsize=(5 * len(plots), 4), squeeze=False)
        for ax, (coll, p, sizes, series) in zip(axes[0], plots):
            for label, ys in series.items():
                ax.loglog(sizes, ys, marker="o", label=label)
            ax.set_title(f"{coll}, {p} ranks (16 per node), SMPI")
            ax.set_xlabel("bytes")
            ax.set_ylabel("simulated µs per call")
            ax.legend()
        fig.tight_layout()
        fig.savefig("docs/results/node-smpi/node-smpi.png", dpi=90)


if __name__ == "__main__":
    main()
