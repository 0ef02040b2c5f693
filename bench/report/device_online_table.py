#!/usr/bin/env python3
"""Tables of bench/scripts/device_rooted.sh's runs (docs/results/device-online).

Each run folder holds dropin-bench -P CSVs named COLL-npNP-VARIANT-rR.csv
(columns coll,bytes,us,native_us: colibri preloaded and the MPI's own, side
by side in one process).  Variant `old` is the build under test as it
landed (per-call timing of rooted calls), `new` the experimental build; for
the collectives that are not rooted the two builds behave alike and only
`new` ran.  Prints markdown: (1) what a user gets, every collective, 8 and
16 ranks, median over all runs and rounds of colibri/native; (2) the A/B of
the rooted calls, per run.

    python3 bench/report/device_online_table.py docs/results/device-online
"""
import collections
import csv
import glob
import os
import statistics as st
import sys

ROOTED = {"bcast", "reduce", "gather", "scatter"}


def load(folder):
    d = collections.defaultdict(list)
    for f in glob.glob(os.path.join(folder, "*.csv")):
        parts = os.path.basename(f)[:-4].rsplit("-", 3)
        if len(parts) != 4 or not parts[1].startswith("np"):
            continue
        coll, np_, var, _ = parts
        for row in csv.DictReader(open(f)):
            d[(coll, int(np_[2:]), int(row["bytes"]), var)].append(
                (float(row["us"]), float(row["native_us"])))
    return d


def size(b):
    return f"{b // 1024} KiB" if b >= 1024 else f"{b} B"


def main():
    top = sys.argv[1]
    runs = sorted(p for p in glob.glob(os.path.join(top, "run-*")) if os.path.isdir(p))
    data = {os.path.basename(r): load(r) for r in runs}
    # (1) what a user gets: the landed behaviour
    user = collections.defaultdict(list)
    for d in data.values():
        for (coll, np_, b, var), v in d.items():
            want = "old" if coll in ROOTED else "new"
            if var == want:
                user[(coll, np_, b)] += v
    print("**What a user gets, no tuning file** (Open MPI 5.0.11, calls back to back, "
          "colibri preloaded against the MPI's own side by side in one process; "
          "median colibri/native over all runs and rounds, n = their number; "
          "in brackets the medians in us, colibri / native)\n")
    sizes = sorted({k[2] for k in user})
    for np_ in (16, 8):
        print(f"| {np_} ranks | " + " | ".join(size(b) for b in sizes) + " |")
        print("|---|" + "---:|" * len(sizes))
        for coll in sorted({k[0] for k in user if k[1] == np_}):
            cells = []
            for b in sizes:
                v = user.get((coll, np_, b))
                if not v:
                    cells.append("")
                    continue
                r = st.median(a / n for a, n in v)
                mark = " !" if r > 1.05 and st.median(a - n for a, n in v) > 0.05 else ""
                cells.append(f"{r:.2f}{mark} ({st.median(a for a, _ in v):.2f} / "
                             f"{st.median(n for _, n in v):.2f}, n={len(v)})")
            print(f"| {coll} | " + " | ".join(cells) + " |")
        print()
    print("! : more than 5% and more than 0.05 us over native.\n")
    # (2) the rooted A/B
    print("**Rooted calls: per-call timing (`old`) against interval timing (`new`)**, "
          "median colibri/native of each run's rounds; `bar`: a barrier before every call\n")
    for name, d in data.items():
        print(f"{name}:\n")
        vs = [v for v in ("old", "new", "oldbar", "newbar", "node_leader")
              if any(k[3] == v for k in d)]
        print("| collective | ranks | bytes | " + " | ".join(vs) + " |")
        print("|---|---:|---:|" + "---:|" * len(vs))
        for k in sorted({k[:3] for k in d if k[0] in ROOTED}, key=lambda k: (-k[1], k[0], k[2])):
            cells = [f"{st.median(a / n for a, n in d[k + (v,)]):.2f}" if k + (v,) in d else ""
                     for v in vs]
            print(f"| {k[0]} | {k[1]} | {size(k[2])} | " + " | ".join(cells) + " |")
        print()


main()
