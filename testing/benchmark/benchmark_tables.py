#!/usr/bin/env python3
"""The rows of docs/benchmarks.md, and its plots, from the summaries of run_filter_benchmarks.sh.

    benchmark_tables.py --commit abc1234 [--label re-execution] SUMMARY.json
        [[--label new-input] SUMMARY.json ...] [--plot docs/benchmark_filters.png]

Each summary.json (run_filter_benchmarks.sh --out DIR writes DIR/summary.json) is read with the
--label given before it ("re-execution" for --warmup full, "new input" for --warmup small, by
default taken from the runs' warm-up). Prints one markdown table per filter: the case, the
device, the median wall time with its [min, max] over fresh processes, the device (kernel)
time, a memcpy of the bytes the filter reads and writes on that host (how fast the host's memory
is: host-bound figures move with it from one machine to another), the runs, the commit and the
date. --plot draws the wall times of every case as bars
with their min-max (matplotlib: /usr/bin/python3 on Debian).
"""
import argparse
import json
import sys

FILTERS = {
    "gpu-cell-reduction": "GPU Cell Reduction",
    "gpu-neighbor-distance": "GPU Neighbor Distance",
    "gpu-vertex-smoothing": "GPU Vertex Smoothing (10 iterations)",
    "gpu-refinement-marked": "GPU Longest Edge Refinement",
    "gpu-refinement-all": "GPU Longest Edge Refinement",
    "gpu-kernel-laplacian": "GPU Mesh Kernel (a Laplacian step, 10 iterations)",
    "vtk-cell-size": "VTK's own filters on the CPU (Cell Size; WindowedSinc and Smooth, 10 iterations)",
    "vtk-windowed-sinc": "VTK's own filters on the CPU (Cell Size; WindowedSinc and Smooth, 10 iterations)",
    "vtk-smooth": "VTK's own filters on the CPU (Cell Size; WindowedSinc and Smooth, 10 iterations)",
}
WARMUPS = {"full": "re-execution", "small": "new input", "none": "first run in a fresh process"}


def millions(count):
    return "%gM" % round(count / 1e6, 1) if count >= 1e6 else "%gk" % round(count / 1e3, 1)


def case_name(row, label):
    what = "%s %s, %s points" % (millions(row["input_cells"]), row["mesh"], row["point_type"])
    if row["filter"] == "gpu-refinement-marked":
        what += ", %g%% marked" % (100 * row["marked_fraction"])
    elif row["filter"] == "gpu-refinement-all":
        what += ", RefineAll (%s out)" % millions(row["output_cells"])
    elif row["filter"].startswith("vtk-"):
        what = row["filter"][4:] + ", " + what
    return what + ", " + label


def device_name(row):
    device = row["device"].split(": ", 1)[-1]
    if row["filter"].startswith("vtk-"):
        device = "%s, %d threads" % (row["cpu"], row["smp_threads"])
    return device


def fmt(ms):
    return "%.3g" % ms if ms < 100 else "%.0f" % ms


def load(arguments):
    """[(label, row)] from the command line's alternation of --label and files."""
    cases, label = [], None
    items = iter(arguments)
    for item in items:
        if item == "--label":
            label = next(items)
            continue
        with open(item) as handle:
            for row in json.load(handle):
                if row.get("runs"):
                    cases.append((label or WARMUPS.get(row.get("warmup"), row.get("warmup")), row))
    return cases


def tables(cases, commit):
    by_filter = {}
    for label, row in cases:
        by_filter.setdefault(FILTERS.get(row["filter"], row["filter"]), []).append((label, row))
    out = []
    for title, rows in by_filter.items():
        out.append("| %s | device | wall ms, median [min, max] | kernels ms | host memcpy ms | runs | commit | date |"
                   % title)
        out.append("| --- | --- | ---: | ---: | ---: | ---: | --- | --- |")
        for label, row in rows:
            wall, kernels = row["wall_ms"], row.get("kernel_ms")
            memcpy = row.get("memcpy_ms")
            out.append("| %s | %s | %s [%s, %s] | %s | %s | %d | %s | %s |" % (
                case_name(row, label), device_name(row), fmt(wall["median"]), fmt(wall["min"]),
                fmt(wall["max"]), fmt(kernels["median"]) if kernels and kernels["median"] else "-",
                fmt(memcpy["median"]) if memcpy else "-", row["runs"], commit, row["dates"][0][:10]))
        out.append("")
    return "\n".join(out)


def plot(cases, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [case_name(row, label) for label, row in cases]
    medians = [row["wall_ms"]["median"] for _, row in cases]
    low = [row["wall_ms"]["median"] - row["wall_ms"]["min"] for _, row in cases]
    high = [row["wall_ms"]["max"] - row["wall_ms"]["median"] for _, row in cases]
    colours = ["tab:blue" if label == "re-execution" else "tab:orange" if label == "new input" else "tab:gray"
               for label, _ in cases]
    labels = ["%s: %s" % (FILTERS.get(row["filter"], row["filter"]).split(" (")[0], name)
              for (_, row), name in zip(cases, names)]
    figure, axes = plt.subplots(figsize=(11, 0.32 * len(cases) + 1.2))
    axes.barh(range(len(cases)), medians, xerr=[low, high], color=colours)
    axes.set_yticks(range(len(cases)))
    axes.set_yticklabels(labels, fontsize=7)
    axes.invert_yaxis()
    axes.set_xscale("log")
    axes.set_xlabel("wall time through the VTK filter, ms (median, min-max over fresh processes)")
    devices = sorted({device_name(row) for _, row in cases})
    axes.set_title("; ".join(devices), fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--plot")
    known, rest = parser.parse_known_args()
    cases = load(rest)
    if not cases:
        sys.exit("no runs in " + " ".join(rest))
    print(tables(cases, known.commit))
    if known.plot:
        plot(cases, known.plot)


if __name__ == "__main__":
    main()
