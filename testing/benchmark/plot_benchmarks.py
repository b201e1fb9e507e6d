"""Plots of device time against mesh size from the JSON files of run_suite.sh.

    /usr/bin/python3 testing/benchmark/plot_benchmarks.py <results folder> [<second folder>] -o <png prefix>

Each JSON file is named <mesh>_<size>.json; every operation measured at several sizes of
one mesh becomes a line (a second folder, e.g. PoCL, is drawn dashed on the same axes).
"""
import argparse
import glob
import json
import os
import re
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(folder):
    series = defaultdict(lambda: defaultdict(dict))  # mesh -> operation -> size -> ms
    device = ""
    for path in glob.glob(os.path.join(folder, "*.json")):
        match = re.match(r"(.+)_(\d+)\.json$", os.path.basename(path))
        if not match:
            continue
        mesh, size = match.group(1), int(match.group(2))
        with open(path) as handle:
            data = json.load(handle)
        device = data["device"]
        for result in data["results"]:
            name = re.sub(r"\d{6,} ", "", result["operation"])  # drop sizes inside names
            if "copy" in name:
                continue
            series[mesh][name][size] = result["median_ms"]
    return device, series


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folders", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    loaded = [load(folder) for folder in args.folders]
    meshes = sorted({mesh for _, series in loaded for mesh in series})
    for mesh in meshes:
        figure, axes = plt.subplots(figsize=(9, 6))
        for (device, series), style in zip(loaded, ("-", "--")):
            for name, points in sorted(series.get(mesh, {}).items()):
                if len(points) < 2:
                    continue
                sizes = sorted(points)
                axes.plot(sizes, [points[s] for s in sizes], style, marker="o", label="%s [%s]" % (name, device.split(": ")[-1]))
        if not axes.lines:
            plt.close(figure)
            continue
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("cells")
        axes.set_ylabel("median time (ms)")
        axes.set_title("GPUMesh core: %s" % mesh)
        axes.grid(True, which="both", alpha=0.3)
        axes.legend(fontsize=6, loc="upper left")
        figure.tight_layout()
        figure.savefig("%s_%s.png" % (args.output, mesh), dpi=110)
        plt.close(figure)
        print("wrote %s_%s.png" % (args.output, mesh))


main()
