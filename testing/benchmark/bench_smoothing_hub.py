#!/usr/bin/env python3
"""Smoothing with a hub (docs/benchmarks.md, "The core alone"): gpumesh-benchmark --smoothing-hub
in --runs fresh processes. Prints, per method, the kernel time per iteration on the grid beside
a strip and beside a fan of --hub-degree triangles (median [min, max] over the processes), and
the ratio with the hub / without (median [min, max] of each process's own ratio, which a
shared machine's load disturbs less), as rows of the docs' table.

  bench_smoothing_hub.py --binary build/bin/gpumesh-benchmark --device cpu --triangles 2000000 \\
      [--runs 5] [--repeat 10] [--hub-degree 16384] [--commit C] [--date D] [--out DIR]
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

METHODS = ["Laplacian", "Taubin", "Barycentric"]


def spread(values, digits=3):
    return f"{statistics.median(values):.{digits}g} [{min(values):.{digits}g}, {max(values):.{digits}g}]"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--device", default="auto")
    parser.add_argument("--triangles", type=int, default=2000000)
    parser.add_argument("--hub-degree", type=int, default=16384)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--commit", default=None)
    parser.add_argument("--date", default=datetime.date.today().isoformat())
    parser.add_argument("--out", default=None, help="folder for each process's JSON and text (default: a temporary one)")
    args = parser.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="gpumesh-smoothing-hub-")
    os.makedirs(out, exist_ok=True)
    commit = args.commit
    if commit is None:
        try:
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                    check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            commit = "COMMIT"

    times = {}  # (method, hub) -> per-process ms
    device = None
    for run in range(1, args.runs + 1):
        json_path = os.path.join(out, f"smoothing-hub-{run}.json")
        with open(os.path.join(out, f"smoothing-hub-{run}.txt"), "w") as text:
            subprocess.run([args.binary, "--device", args.device, "--repeat", str(args.repeat), "--reduce-size", "0",
                            "--smoothing-hub", str(args.triangles), "--hub-degree", str(args.hub_degree),
                            "--json", json_path], stdout=text, check=True)
        with open(json_path) as f:
            result = json.load(f)
        device = result["device"]
        for row in result["results"]:
            name = row["operation"]
            if not name.startswith("smoothing hub:"):
                continue
            method = next(m for m in METHODS if f": {m} per iteration" in name)
            times.setdefault((method, "a vertex of degree" in name), []).append(row["median_ms"])
        print(f"process {run} of {args.runs} done", file=sys.stderr)

    size = f"{args.triangles / 1e6:g}M triangles"
    print(f"device: {device}; JSON and text of each process in {out}")
    print("| Case | Device | Kernel ms per iteration, median [min, max] | With the hub / without | Runs | Commit | Date |")
    print("| --- | --- | ---: | ---: | ---: | --- | --- |")
    for method in METHODS:
        without, hub = times[(method, False)], times[(method, True)]
        ratios = [h / w for h, w in zip(hub, without)]
        print(f"| {size}, {method}, no high degree | {device} | {spread(without)} | - | {len(without)} | {commit} | {args.date} |")
        print(f"| {size}, {method}, a vertex of degree {args.hub_degree} | {device} | {spread(hub)} | "
              f"{spread(ratios)} | {len(hub)} | {commit} | {args.date} |")


if __name__ == "__main__":
    main()
