"""What the report generators of bench/report/ share: reading a study's CSVs
run by run, number and size formats, markdown tables, replacing a marked
section of a markdown file, and matplotlib when it is there.

A study's merged CSV (docs/results/<study>/<study>.csv, written by the
drivers of bench/scripts/) holds many runs, told apart by its "run"
column; a CSV without that column is one run named after its file.
"""
import csv
import glob
import os
import sys
from collections import OrderedDict

RESULTS = "docs/results"


def study_csvs(*studies):
    """Every CSV of the given studies' folders under docs/results/."""
    return sorted(p for s in studies for p in glob.glob(os.path.join(RESULTS, s, "*.csv")))


def runs(paths):
    """[(name, path, rows)]: each CSV's rows (dicts) grouped by their "run"
    column, in order of appearance; a file without it is one run named
    after the file."""
    out = []
    for path in paths:
        groups = OrderedDict()
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                name = row.get("run") or os.path.splitext(os.path.basename(path))[0]
                groups.setdefault(name, []).append(row)
        out += [(name, path, rows) for name, rows in groups.items()]
    return out


def human_bytes(n):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale} {unit}"
    return f"{n} B"


def fmt(t):
    if t is None:
        return "–"
    return f"{t:.1f}" if t >= 10 else f"{t:.2f}"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---:" if i else "---" for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def replace_section(text, begin, end, md, where):
    """text with what lies between the begin and end markers replaced by md."""
    if begin not in text or end not in text:
        sys.exit(f"{where} has no '{begin}' ... '{end}' section")
    head, rest = text.split(begin, 1)
    return head + begin + "\n\n" + md + "\n" + end + rest.split(end, 1)[1]


def update_file(path, begin, end, md):
    with open(path) as f:
        text = f.read()
    text = replace_section(text, begin, end, md, path)
    with open(path, "w") as f:
        f.write(text)


def write_tables(md, update):
    """md on stdout, or, with update, between the "<!-- tables:begin -->" and
    "<!-- tables:end -->" lines of that markdown file."""
    if update:
        update_file(update, "<!-- tables:begin -->", "<!-- tables:end -->", md)
    else:
        print(md)


def pyplot():
    """matplotlib.pyplot for files (Agg), or None, said once, without it."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        print("matplotlib is missing (apt install python3-matplotlib or pip install "
              "matplotlib): writing tables only", file=sys.stderr)
        return None


def relative(path, update):
    """path as the markdown file being written (or the current folder)
    names it."""
    base = os.path.dirname(os.path.abspath(update)) if update else os.getcwd()
    return os.path.relpath(os.path.abspath(path), base)
