#!/usr/bin/env python3
"""The rows of docs/benchmarks.md, and its plots, from the summaries of run_filter_benchmarks.sh.

    benchmark_tables.py --commit abc1234 [--label re-execution] [--run-commit def5678] SUMMARY.json
        [[--label new-input] SUMMARY.json ...] [--plot docs/benchmark_filters.png]

Each summary.json (run_filter_benchmarks.sh --out DIR writes DIR/summary.json) is read with the
--label given just before it (by default from the runs' warm-up: "re-execution" for --warmup
full, "new input" for --warmup small) and the last --run-commit before it (else --commit: the
commit of the build that ran). Prints one markdown table per filter: the case, the
device, the median wall time with its [min, max] over fresh processes, the device (kernel)
time, a memcpy of the bytes the filter reads and writes on that host (how fast the host's memory
is: host-bound figures move with it from one machine to another), the runs, the commit and the
date. --plot draws the wall times of every case as bars
with their min-max (matplotlib: /usr/bin/python3 on Debian).
"""
import argparse
import json
import sys

# The table each filter's rows go to: GPUMesh's filter, and VTK's own filter for the same job.
FILTERS = {
    "gpu-cell-reduction": "GPU Cell Reduction",
    "vtk-cell-size": "GPU Cell Reduction",
    "gpu-neighbor-distance": "GPU Neighbor Distance",
    "gpu-vertex-smoothing": "GPU Vertex Smoothing",
    "vtk-windowed-sinc": "GPU Vertex Smoothing",
    "vtk-smooth": "GPU Vertex Smoothing",
    "gpu-refinement-marked": "GPU Longest Edge Refinement",
    "gpu-refinement-all": "GPU Longest Edge Refinement",
    "gpu-kernel-laplacian": "GPU Mesh Kernel",
}
VTK_NAMES = {"vtk-cell-size": "VTK's Cell Size", "vtk-windowed-sinc": "VTK's WindowedSinc, 10 iterations",
             "vtk-smooth": "VTK's Smooth, 10 iterations"}
GPU_NAMES = {"gpu-vertex-smoothing": "Laplacian, 10 iterations", "gpu-kernel-laplacian": "a Laplacian step, 10 iterations"}
WARMUPS = {"full": "re-execution", "small": "new input", "none": "first run in a fresh process"}


def millions(count):
    return "%gM" % round(count / 1e6, 1) if count >= 1e6 else "%gk" % round(count / 1e3, 1)


def case_name(row, label):
    what = "%s %s, %s points" % (millions(row["input_cells"]), row["mesh"], row["point_type"])
    if row["filter"] == "gpu-refinement-marked":
        what += ", %g%% marked" % (100 * row["marked_fraction"])
    elif row["filter"] == "gpu-refinement-all":
        what += ", RefineAll (%s out)" % millions(row["output_cells"])
    elif row["filter"] in GPU_NAMES:
        what += ", " + GPU_NAMES[row["filter"]]
    elif row["filter"] in VTK_NAMES:
        what = VTK_NAMES[row["filter"]] + ": " + what
    return what + ", " + label


def device_name(row):
    device = row["device"].split(": ", 1)[-1]
    if row["filter"].startswith("vtk-"):
        device = "%s, %d threads" % (row["cpu"], row["smp_threads"])
    elif device.startswith("pthread-"):  # PoCL's CPU device: say how many cores it had
        device = "PoCL, %s, %d threads" % (device[len("pthread-"):].replace(" (CPU)", ""), row["hardware_threads"])
    return device


def fmt(ms):
    return "%.3g" % ms if ms < 100 else "%.0f" % ms


def load(arguments):
    """[(label, row, commit)] from the files of the command line, each with the --label and
    --run-commit given before it (a commit given once holds for the files after it)."""
    cases, label, commit = [], None, None
    items = iter(arguments)
    for item in items:
        if item == "--label":
            label = next(items)
            continue
        if item == "--run-commit":
            commit = next(items)
            continue
        with open(item) as handle:
            for row in json.load(handle):
                if row.get("runs"):
                    cases.append((label or WARMUPS.get(row.get("warmup"), row.get("warmup")), row, commit))
        label = None
    return cases


def sections(cases, commit):
    """{title: markdown table} in the order the filters come."""
    by_filter = {}
    for label, row, run_commit in cases:
        by_filter.setdefault(FILTERS.get(row["filter"], row["filter"]), []).append((label, row, run_commit or commit))
    out = {}
    for title, rows in by_filter.items():
        lines = ["| Case | Device | Wall ms, median [min, max] | Kernel ms | Host memcpy ms | Runs | Commit | Date |",
                 "| --- | --- | ---: | ---: | ---: | ---: | --- | --- |"]
        for label, row, run_commit in rows:
            wall, kernels = row["wall_ms"], row.get("kernel_ms")
            memcpy = row.get("memcpy_ms")
            lines.append("| %s | %s | %s [%s, %s] | %s | %s | %d | %s | %s |" % (
                case_name(row, label), device_name(row), fmt(wall["median"]), fmt(wall["min"]),
                fmt(wall["max"]), fmt(kernels["median"]) if kernels and kernels["median"] else "-",
                fmt(memcpy["median"]) if memcpy else "-", row["runs"], run_commit, row["dates"][0][:10]))
        out[title] = "\n".join(lines)
    return out


def plot(cases, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [case_name(row, label) for label, row, _ in cases]
    medians = [row["wall_ms"]["median"] for _, row, _ in cases]
    low = [row["wall_ms"]["median"] - row["wall_ms"]["min"] for _, row, _ in cases]
    high = [row["wall_ms"]["max"] - row["wall_ms"]["median"] for _, row, _ in cases]
    colours = ["tab:gray" if row["filter"].startswith("vtk-") else "tab:blue" if label == "re-execution"
               else "tab:orange" for label, row, _ in cases]
    labels = [name if row["filter"].startswith("vtk-") else "%s: %s" % (FILTERS.get(row["filter"]), name)
              for (_, row, _), name in zip(cases, names)]
    figure, axes = plt.subplots(figsize=(11, 0.32 * len(cases) + 1.2))
    axes.barh(range(len(cases)), medians, xerr=[low, high], color=colours)
    axes.set_yticks(range(len(cases)))
    axes.set_yticklabels(labels, fontsize=7)
    axes.invert_yaxis()
    axes.set_xscale("log")
    axes.set_xlabel("wall time through the VTK filter, ms (median, min-max over fresh processes)")
    devices = sorted({device_name(row) for _, row, _ in cases})
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
    for title, table in sections(cases, known.commit).items():
        print("### %s\n\n%s\n" % (title, table))
    if known.plot:
        plot(cases, known.plot)


if __name__ == "__main__":
    main()
