#!/usr/bin/env python3
"""Tables of bench/scripts/device_node.sh (a borrowed multi-core node,
Open MPI 5): the C API's candidates side by side (median over runs of each
one's time, auto/native and best colibri algorithm/native), then the
drop-in runs (plain MPI_* calls, plain against colibri preloaded with no
tuning file: medians of each side and of the run-by-run ratio, '!' where
colibri is above 1.05 and more than 0.05 us slower; the forced node-aware
algorithm beside it where one ran).  Prints Markdown.

Beside the C API's tables, the memory-traffic bound at p ranks of n bytes
(bound.csv: kernel-bench's one-core memcpy and SUM times, interpolated as
limit_table.py does), assuming every core keeps its one-core speed while
all p work at once (the node's shared caches and memory make that
optimistic: it is a floor, not a target):
  allreduce  copy(n) + reduce((p-1)n/p) + copy(n): each rank's input into
             shared memory once, its slice of p inputs reduced once, the
             result copied out once
  reduce     copy(n) + reduce((p-1)n/p) + copy((p-1)n/p): the same, the
             root copying out the slices the others reduced
  reduce_scatter_block  copy((p-1)n/p) + reduce((p-1)n/p): each rank
             publishes the blocks others own and reduces its own

  python3 bench/report/device_table.py docs/results/device-node
"""
import csv
import glob
import os
import statistics as st
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import human_bytes  # noqa: E402
from limit_table import at, load_bound  # noqa: E402


def bound(rows, coll, n, p):
    copy = lambda b: at(rows, b, 1)  # noqa: E731
    red = lambda b: at(rows, b, 2)  # noqa: E731
    rest = n * (p - 1) // p
    if coll == "allreduce":
        return 2 * copy(n) + red(rest)
    if coll == "reduce":
        return copy(n) + red(rest) + copy(rest)
    return copy(rest) + red(rest)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def capi(folder):
    brows = load_bound(f"{folder}/bound.csv") if os.path.exists(f"{folder}/bound.csv") else None
    for coll in ("allreduce", "reduce", "reduce_scatter_block"):
        for np_ in sorted({int(p.split("-np")[1].split("-")[0])
                           for p in glob.glob(f"{folder}/capi-{coll}-np*.csv")}, reverse=True):
            t = defaultdict(list)
            for p in glob.glob(f"{folder}/capi-{coll}-np{np_}-r*.csv"):
                for r in rows(p):
                    t[(int(r["bytes"]), r["alg"])].append(float(r["usec"]))
            algs = sorted({a for _, a in t}, key=lambda a: (a != "native", a != "auto", a))
            print(f"\n**{coll}, {np_} ranks** (us, median of {len(glob.glob(f'{folder}/capi-{coll}-np{np_}-r*.csv'))} runs)\n")
            print("| bytes | " + " | ".join(algs) + " | auto/native | best/native |" +
                  (" bound | auto/bound |" if brows else ""))
            print("|---:|" + "---:|" * (len(algs) + 2 + (2 if brows else 0)))
            for b in sorted({b for b, _ in t}):
                m = {a: st.median(t[(b, a)]) for a in algs if t[(b, a)]}
                best = min(v for a, v in m.items() if a not in ("native", "auto"))
                print(f"| {human_bytes(b)} | " + " | ".join(f"{m[a]:.2f}" for a in algs) +
                      f" | {m['auto'] / m['native']:.2f} | {best / m['native']:.2f} |" +
                      ((f" {bound(brows, coll, b, np_):.2f} | {m['auto'] / bound(brows, coll, b, np_):.1f} |"
                        if b >= brows[0][0] else " | |") if brows else ""))


def dropin(folder):
    keys = sorted({(int(p.split("-np")[1].split("-")[0]), p.split("dropin-")[1].split("-np")[0])
                   for p in glob.glob(f"{folder}/dropin-*-native-r*.csv")}, key=lambda k: -k[0])
    for np_ in sorted({k[0] for k in keys}, reverse=True):
        print(f"\n**Drop-in, {np_} ranks** (us; ratio = median of run-by-run colibri/native)\n")
        print("| collective | bytes | native | colibri | ratio | forced node-aware (ratio) |")
        print("|---|---:|---:|---:|---:|---|")
        for _, coll in [k for k in keys if k[0] == np_]:
            side = {}
            for s in ("native", "colibri"):
                side[s] = [{int(r["bytes"]): float(r["us"]) for r in rows(p)}
                           for p in sorted(glob.glob(f"{folder}/dropin-{coll}-np{np_}-{s}-r*.csv"))]
            forced = {}
            for p in glob.glob(f"{folder}/dropin-{coll}-np{np_}-node_*-r*.csv"):
                alg = p.split(f"-np{np_}-")[1].rsplit("-r", 1)[0]
                forced = {int(r["bytes"]): (alg, float(r["us"])) for r in rows(p)}
            for b in sorted(side["native"][0]):
                n = st.median(r[b] for r in side["native"])
                c = st.median(r[b] for r in side["colibri"])
                ratio = st.median(x[b] / y[b] for x, y in zip(side["colibri"], side["native"]))
                mark = " !" if ratio > 1.05 and c - n > 0.05 else ""
                f = f"{forced[b][0]} {forced[b][1]:.2f} ({forced[b][1] / n:.2f})" if b in forced else ""
                print(f"| {coll} | {human_bytes(b)} | {n:.2f} | {c:.2f} | {ratio:.2f}{mark} | {f} |")


if __name__ == "__main__":
    folder = sys.argv[1] if len(sys.argv) > 1 else "docs/results/device-node"
    capi(folder)
    dropin(folder)
