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


PANELS = [  # (title, keyword every operation of the panel contains)
    ("Neighbour distance", "distances"),
    ("Vertex smoothing", "smoothing"),
    ("Longest-edge refinement", "refine"),
]


def panel_of(name):
    if "refine" in name:
        return 2
    if "smoothing" in name:
        return 1
    if "build sides" in name or "distances" in name:
        return 0
    return None


def short(name):
    """The operation without the mesh prefix: 'smoothing Laplacian per iteration (kernels)'."""
    return name.split(": ", 1)[-1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folders", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    loaded = [load(folder) for folder in args.folders]
    meshes = sorted({mesh for _, series in loaded for mesh in series})
    for mesh in meshes:
        figure, axes = plt.subplots(1, 3, figsize=(16, 5.5))
        colors = {}
        for (device, series), style in zip(loaded, ("-", "--")):
            for name, points in sorted(series.get(mesh, {}).items()):
                panel = panel_of(name)
                if panel is None or len(points) < 2:
                    continue
                label = short(name)
                color = colors.setdefault(label, "C%d" % (len(colors) % 10))
                sizes = sorted(points)
                axes[panel].plot(sizes, [points[s] for s in sizes], style, color=color, marker="o",
                                 label=label if style == "-" else None)
        if not any(ax.lines for ax in axes):
            plt.close(figure)
            continue
        for ax, (title, _) in zip(axes, PANELS):
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel("cells")
            ax.set_ylabel("median time (ms)")
            ax.set_title(title)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7, loc="upper left")
        devices = " / ".join("%s: %s" % (style, device.split(": ")[-1]) for (device, _), style in
                             zip(loaded, ("solid", "dashed")))
        figure.suptitle("GPUMesh core, %s meshes (%s)" % (mesh, devices), fontsize=10)
        figure.tight_layout()
        figure.savefig("%s_%s.png" % (args.output, mesh), dpi=90)
        plt.close(figure)
        print("wrote %s_%s.png" % (args.output, mesh))


main()
