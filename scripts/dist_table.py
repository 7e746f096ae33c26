#!/usr/bin/env python3
"""The table of docs/distributed.md from `ak dist-bench` JSON: rows of one or more files
(dist_1.json ... dist_4.json, or docs/benchmarks/dist_cpu.json, which holds them together) at one
size per rank, sort and cumsum side by side.

usage: scripts/dist_table.py FILE... [--n 1000000]
       scripts/dist_table.py FILE... --merge OUT.json   (the rows of the files in one file)
"""
import argparse
import json
import sys

DISTS = ["uniform", "all-equal", "two-values", "sorted", "reversed", "root-dup", "one-rank"]


def rows_of(paths):
    rows = []
    for p in paths:
        with open(p) as f:
            rows += json.load(f)["rows"]
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--n", type=int, default=1000000, help="elements per rank of the table")
    ap.add_argument("--merge", help="write the files' rows together to this file instead")
    ap.add_argument("--note", action="append", default=[], help="KEY=VALUE for --merge")
    a = ap.parse_args()
    rows = rows_of(a.files)
    if a.merge:
        out = {"format": "ak-dist-bench-1"}
        for kv in a.note:
            k, _, v = kv.partition("=")
            out[k] = v
        out["rows"] = rows
        with open(a.merge, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        return 0

    def get(op, d, p):
        for r in rows:
            if r["op"] == op and r["dist"] == d and r["ranks"] == p and r["n_per_rank"] == a.n:
                return r
        return None

    ranks = sorted({r["ranks"] for r in rows})
    print("| input | ranks | rounds | collectives | bytes / element size (exchange) "
          "| (all collectives) | largest share | sort ms | cumsum ms | checked |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for d in DISTS:
        for p in ranks:
            s, c = get("sort", d, p), get("cumsum", d, p)
            if s is None or c is None:
                continue
            ok = s.get("checked_right", True) and c.get("checked_right", True)
            print(f"| {d} | {p} | {s['rounds']} | {s['collectives']} "
                  f"| {s['exchange_bytes_per_element_over_size']:.3f} "
                  f"| {s['all_bytes_per_element_over_size']:.3f} | {s['max_share']:.3f} "
                  f"| {s['seconds']['total'] * 1e3:.1f} | {c['seconds']['total'] * 1e3:.1f} "
                  f"| {'right' if ok else 'WRONG'} |")
    sorts = [r for r in rows if r["op"] == "sort"]
    print(f"\nAll rows: largest share at most {max(r['max_share'] for r in sorts):.3f}; bytes per "
          f"element over the element size at most {max(r['all_bytes_per_element_over_size'] for r in sorts):.3f}; "
          f"at most {max(r['rounds'] for r in sorts)} rounds and "
          f"{max(r['collectives'] for r in sorts)} collectives (sort), "
          f"{max(r['collectives'] for r in rows if r['op'] == 'cumsum')} (cumsum).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
