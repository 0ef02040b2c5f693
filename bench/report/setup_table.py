#!/usr/bin/env python3
"""Markdown tables of docs/setup.md from bench/scripts/setup_smpi.sh's CSV
(docs/results/setup/setup.csv, the default) or setup-bench output lines
(key=value ..., in a text file): per row the times (ms), colibri's share
(time - create - repeat), state and segment bytes, setup calls, and the
lazy/eager ratios of each collective.

    bench/report/setup_table.py [FILE.csv|FILE.txt ...]
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402  (bench/report/common.py)

rows = []
for path in sys.argv[1:] or common.study_csvs("setup"):
    if path.endswith(".csv"):
        rows += list(csv.DictReader(open(path, newline="")))
        continue
    for line in open(path):
        if line.startswith("mode="):
            rows.append(dict(kv.split("=", 1) for kv in line.split()))

print("| first collective | mode | comms | total (ms) | creations alone (ms) | second calls (ms) "
      "| colibri's setup (ms) | state B / comm / rank | segment B / rank | setup calls / rank "
      "| layout calls / rank | sim. wall (s) | sim. peak RSS (GB) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
by = {}
for r in rows:
    t, c, rep = (float(r[k]) * 1e3 for k in ("time_s", "create_s", "repeat_s"))
    r["setup_ms"] = t - c - rep
    by[(r["coll"], r["mode"])] = r
    wall = r.get("wall_s", "-")
    rss = "%.1f" % (int(r["max_rss_kb"]) / 1e6) if "max_rss_kb" in r else "-"
    print("| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %s | %s | %s | %s | %s | %s |" % (
        r["coll"], r["mode"], r["comms"], t, c, rep, r["setup_ms"], r["bytes_per_comm_per_rank"],
        r["shm_bytes_per_rank"], r["setup_calls_per_rank"], r["layout_calls_per_rank"], wall, rss))
print()
for coll in dict.fromkeys(r["coll"] for r in rows):
    e, l = by.get((coll, "eager")), by.get((coll, "lazy"))
    if not e or not l:
        continue
    pct = lambda a, b: "%+.0f%%" % (100 * (float(a) / float(b) - 1)) if float(b) else "n/a"
    print("- %s: total time %s, colibri's setup %s, state bytes %s, segment bytes %s, setup calls %s"
          % (coll, pct(l["time_s"], e["time_s"]), pct(l["setup_ms"], e["setup_ms"]),
             pct(l["bytes_per_comm_per_rank"], e["bytes_per_comm_per_rank"]),
             pct(l["shm_bytes_per_rank"], e["shm_bytes_per_rank"]),
             pct(l["setup_calls_per_rank"], e["setup_calls_per_rank"])))
