#!/usr/bin/env python3
"""Plots the JSON of `ak bench --json FILE`: one PNG per group of ops, in docs/benchmarks/.

    build/bin/ak bench --ops all --json bench.json
    scripts/plot_bench.py bench.json                 # docs/benchmarks/bench_<group>.png
    scripts/plot_bench.py bench.json --out /tmp/plots
    scripts/plot_bench.py bench.json --table         # the same rows as a Markdown table
    scripts/plot_bench.py new.json --table --before old.json   # and ak's time before over now

Each PNG has one panel per op: for every (dtype, n) case a group of bars, one per peer, whose
height is the peer's time over ak's (the median of the per-pair ratios of the run; above 1 ak
is faster), on a log scale, and the fraction of the measured memory bandwidth that ak reached
written over each case. A run with `--vs-defaults` also gives bench_tuned.png: ak's time without
its autotune cache over its time with it, for every case. Needs python3 and matplotlib (Debian:
python3-matplotlib).
"""

import argparse
import json
import math
import os
import sys
from collections import OrderedDict

GROUPS = OrderedDict(
    [
        ("reduce", ["reduce", "mapreduce", "minimum", "count", "any", "all"]),
        ("elementwise", ["map", "broadcast", "accumulate"]),
        ("sort", ["sort", "sort_custom", "sort_custom_unstable", "sort_struct"]),
        ("sort_keys", ["sortperm", "sort_by_key", "searchsorted"]),
        ("dims", ["sum_dims0", "sum_dims1"]),
        (
            "select",
            ["findall", "copy_if", "partition", "unique", "run_length_encode", "findmin", "histogram"],
        ),
        (
            "keyed",
            ["reduce_by_key", "accumulate_by_key", "segmented_reduce", "merge", "partialsort"],
        ),
        ("segmented", ["sort_rows", "sort_tiny_rows"]),
    ]
)
PEER_ORDER = [
    "std::execution::par",
    "tbb",
    "ips4o",
    "boost::block_indirect_sort",
    "boost::parallel_stable_sort",
    "pdqsort",
    "vqsort (highway)",
    "vqsort halves + merge",
    "thrust (tbb)",
]


def size_text(n):
    m, e = n, 0
    while m >= 10 and m % 10 == 0:
        m //= 10
        e += 1
    return f"{m}e{e}" if n >= 1000 and m < 10 else str(n)


def load(path):
    with open(path) as f:
        rows = json.load(f)
    if not isinstance(rows, list):
        sys.exit(f"{path}: expected a list of rows, as `ak bench --json` writes")
    for r in rows:
        for key in ("op", "dtype", "n", "impl", "median_s"):
            if key not in r:
                sys.exit(f"{path}: a row without {key!r}: {r}")
        # A case of `--dist` is an op of its own here ("sort exponential"), as in the bench's table.
        if "dist" in r:
            r["op"] = f'{r["op"]} {r["dist"]}'
    return rows


def cases_of(rows, op):
    """(dtype, n) -> {"ak": row, peer: row} for one op, in the order of the file."""
    cases = OrderedDict()
    for r in rows:
        if r["op"] == op and r["impl"] != "bandwidth":
            cases.setdefault((r["dtype"], r["n"]), {})[r["impl"]] = r
    return cases


def ratio(peer_row, ak_row):
    if "ratio" in peer_row:
        return peer_row["ratio"]
    return peer_row["median_s"] / ak_row["median_s"]


def plot_group(plt, group, ops, rows, out_dir):
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    ops = [op for op in ops if cases_of(rows, op)]
    if not ops:
        return None
    height = 3.6 * len(ops) + 0.5
    fig, axes = plt.subplots(len(ops), 1, figsize=(11, height), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, op in zip(axes[:, 0], ops):
        cases = cases_of(rows, op)
        peers = [p for p in PEER_ORDER if any(p in c for c in cases.values())]
        peers += sorted({p for c in cases.values() for p in c} - set(peers) - {"ak"})
        width = 0.8 / max(1, len(peers))
        labels = []
        labelled = set()
        lowest = 1.0
        for i, ((dtype, n), c) in enumerate(cases.items()):
            labels.append(f"{dtype}\nn={size_text(n)}")
            ak = c.get("ak")
            if ak is None:
                continue
            top = 1.0
            for k, p in enumerate(peers):
                if p not in c:
                    continue
                v = ratio(c[p], ak)
                x = i - 0.4 + width * (k + 0.5)
                ax.bar(x, v, width, color=colours[k % len(colours)], label=None if p in labelled else p)
                labelled.add(p)
                top = max(top, v)
                lowest = min(lowest, v)
            if "bw_fraction" in ak:
                ax.annotate(f"ak {100 * ak['bw_fraction']:.0f}% bw", (i, top),
                            textcoords="offset points", xytext=(0, 4), ha="center", fontsize=8)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=8)
        ax.set_ylabel("peer time / ak time")
        ax.set_title(f"{op}: above 1, ak is faster")
        handles, names = ax.get_legend_handles_labels()
        if handles:
            ax.legend(handles, names, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        lo, hi = ax.get_ylim()
        lo, hi = min(0.5, lowest / 1.5), max(hi, 2.0) * 1.3
        ax.set_ylim(lo, hi)
        # Ticks at 1-2-5 steps, written plainly.
        ticks = [m * 10.0**e for e in range(-3, 4) for m in (1, 2, 5)]
        ax.yaxis.set_major_locator(FixedLocator([t for t in ticks if lo <= t <= hi]))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
    threads = next((r.get("threads") for r in rows if "threads" in r), None)
    bw = {r["op"]: r["gb_s"] for r in rows if r["impl"] == "bandwidth" and "gb_s" in r}
    subtitle = []
    if threads:
        subtitle.append(f"{threads} threads")
    if bw:
        subtitle.append(", ".join(f"{k} {v:.1f} GB/s" for k, v in sorted(bw.items())))
    fig.suptitle(f"ak bench: {group}" + (f" ({'; '.join(subtitle)})" if subtitle else ""))
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / height))  # room for the title
    path = os.path.join(out_dir, f"bench_{group}.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_tuned(plt, rows, out_dir):
    """bench_tuned.png: for every case of a run with `ak bench --vs-defaults`, ak's time with the
    backend's defaults over its time with the autotune cache (above 1 the tuning helps)."""
    bars = []
    for r in rows:
        if r["impl"] != "ak (defaults)":
            continue
        ak = next((a for a in rows if a["impl"] == "ak" and a["op"] == r["op"]
                   and a["dtype"] == r["dtype"] and a["n"] == r["n"]), None)
        if ak is not None:
            bars.append((f"{r['op']}\n{r['dtype']}", ratio(r, ak)))
    if not bars:
        return None
    fig, ax = plt.subplots(figsize=(max(8, 0.42 * len(bars) + 2), 4.6))
    values = [b[1] for b in bars]
    colours = ["tab:green" if v >= 1.1 else "tab:grey" if v >= 0.97 else "tab:red" for v in values]
    ax.bar(range(len(bars)), values, color=colours)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([b[0] for b in bars], fontsize=6, rotation=90)
    ax.set_ylabel("time with defaults / time tuned")
    ax.set_ylim(min(0.8, min(values) - 0.05), max(1.6, max(values) + 0.1))
    ax.set_title("ak bench --vs-defaults: the autotune cache of `ak tune` against the defaults "
                 "(green: 1.1x or more)", fontsize=9)
    fig.tight_layout()
    path = os.path.join(out_dir, "bench_tuned.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def markdown_table(rows, before=None):
    """The rows as the Markdown table of docs/benchmarks: ak's median time and %bw, and each
    peer's time over ak's, for every (op, dtype, n) in the order of the file. With `before` (the
    rows of an earlier run), a column "ak before" gives ak's time there over ak's time here."""
    earlier = {}
    for r in before or []:
        if r["impl"] == "ak":
            earlier[(r["op"], r["dtype"], r["n"])] = r
    cases = OrderedDict()
    for r in rows:
        if r["impl"] != "bandwidth":
            cases.setdefault((r["op"], r["dtype"], r["n"]), {})[r["impl"]] = r
    peers = [p for p in ["ak (defaults)"] + PEER_ORDER
             if any(p in c for c in cases.values())]
    peers += sorted({p for c in cases.values() for p in c} - set(peers) - {"ak"})
    first = ["ak before"] if before is not None else []
    lines = ["| op | dtype | n | ak | ak %bw | " + " | ".join(first + peers) + " |",
             "|---" * (5 + len(first) + len(peers)) + "|"]
    for (op, dtype, n), c in cases.items():
        ak = c.get("ak")
        if ak is None:
            continue
        t = ak["median_s"]
        time = f"{t * 1e3:.2f} ms" if t < 1 else f"{t:.2f} s"
        bw = f"{100 * ak['bw_fraction']:.0f}%" if "bw_fraction" in ak else ""
        cells = [f"{ratio(c[p], ak):.2f}" if p in c else "" for p in peers]
        if before is not None:
            old = earlier.get((op, dtype, n))
            cells.insert(0, f"{ratio(old, ak):.2f}" if old else "")
        lines.append(f"| {op} | {dtype} | {size_text(n)} | {time} | {bw} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", help="the file `ak bench --json FILE` wrote")
    ap.add_argument("--out", default=os.path.join(here, "..", "docs", "benchmarks"),
                    help="folder for the PNGs (default: docs/benchmarks)")
    ap.add_argument("--table", action="store_true",
                    help="print the Markdown table of the rows instead of drawing")
    ap.add_argument("--before", metavar="JSON",
                    help="with --table: a column of ak's time in this earlier run over its time now")
    args = ap.parse_args()
    if args.before and not args.table:
        sys.exit("--before goes with --table")
    if args.table:
        print(markdown_table(load(args.json), load(args.before) if args.before else None))
        return
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        # Debian's python3-matplotlib belongs to the system python; another python3 (a virtual
        # environment, pyenv) may come first on PATH.
        system = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system) and os.path.exists(system):
            os.execv(system, [system] + sys.argv)
        sys.exit("plot_bench.py needs matplotlib (Debian: apt-get install python3-matplotlib)")
    rows = load(args.json)
    os.makedirs(args.out, exist_ok=True)
    written = []
    known = {op for ops in GROUPS.values() for op in ops}
    groups = OrderedDict(GROUPS)
    extra = sorted({r["op"] for r in rows if r["impl"] != "bandwidth"} - known)
    if extra:
        groups["other"] = extra
    for group, ops in groups.items():
        path = plot_group(plt, group, ops, rows, args.out)
        if path:
            written.append(path)
    path = plot_tuned(plt, rows, args.out)
    if path:
        written.append(path)
    if not written:
        sys.exit(f"{args.json}: no rows to plot")
    for p in written:
        print(os.path.normpath(p))


if __name__ == "__main__":
    main()
