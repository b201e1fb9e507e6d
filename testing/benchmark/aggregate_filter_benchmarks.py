#!/usr/bin/env python3
"""Aggregates the JSON lines of gpumesh-filter-benchmark (one per run, as collected by
run_filter_benchmarks.sh) into one row per (filter, mesh, cells, marked fraction): median, min
and max of each timing (and of each step's device time, kernel_ms_<step>), as a markdown table
and as JSON.

    aggregate_filter_benchmarks.py runs.jsonl [--markdown summary.md] [--json summary.json]

Host time is wall - kernel time; its ratio to a memcpy of the bytes the filter must read and
write (measured in the same process) is the figure the targets are set on (<= 4).
Lines with an "error" field count as failed runs.
"""
import argparse
import json
import statistics
import sys

TIMINGS = ["wall_ms", "kernel_ms", "step_kernel_ms", "host_ms", "filter_host_ms", "memcpy_ms", "host_over_memcpy",
           "generation_ms", "warmup_wall_ms", "load_average"]


def spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def aggregate(lines):
    groups = {}
    for line in lines:
        key = (line["filter"], line["mesh"], line["cells_requested"], line.get("marked_fraction"))
        groups.setdefault(key, []).append(line)
    rows = []
    for (filter_name, mesh, cells, fraction), runs in groups.items():
        good = [r for r in runs if "error" not in r]
        row = {"filter": filter_name, "mesh": mesh, "cells_requested": cells, "marked_fraction": fraction,
               "runs": len(good), "failed": len(runs) - len(good),
               "errors": sorted({r["error"] for r in runs if "error" in r})}
        if good:
            first = good[0]
            for field in ["input_points", "input_cells", "output_points", "output_cells", "point_type",
                          "id_bits", "device", "smp_backend", "smp_threads", "cpu", "hardware_threads",
                          "warmup", "bytes_read", "bytes_written", "bytes_uploaded", "bytes_downloaded"]:
                row[field] = first.get(field)
            row["dates"] = [min(r["date"] for r in good), max(r["date"] for r in good)]
            for field in TIMINGS:
                row[field] = spread([r.get(field) for r in good])
            steps = sorted({k for r in good for k in r if k.startswith("kernel_ms_")})
            row["steps"] = {k[len("kernel_ms_"):]: spread([r.get(k) for r in good]) for k in steps}
        rows.append(row)
    return rows


def figure_text(value):
    if value >= 100:
        return "%.0f" % value
    if value >= 10:
        return "%.1f" % value
    return "%.3g" % value


def milliseconds(figure, spread_shown=True):
    if figure is None:
        return "-"
    text = figure_text(figure["median"])
    if spread_shown:
        text += " (%s-%s)" % (figure_text(figure["min"]), figure_text(figure["max"]))
    return text


def markdown(rows):
    good = [r for r in rows if r["runs"]]
    out = []
    devices = sorted({r["device"] for r in good if r.get("device")})
    cpus = sorted({"%s, %s hardware threads, VTK SMP %s with %s threads" % (
        r["cpu"], r["hardware_threads"], r["smp_backend"], r["smp_threads"]) for r in good})
    dates = sorted({d[:10] for r in good for d in r["dates"]})
    loads = [r["load_average"][k] for r in good if r.get("load_average") for k in ("min", "max")]
    out.append("Devices: %s. Host: %s. Dates: %s. Load average (1 min) at the runs' end: %s." % (
        "; ".join(devices) or "-", "; ".join(cpus) or "-", ", ".join(dates) or "-",
        "%.1f-%.1f" % (min(loads), max(loads)) if loads else "not recorded"))
    out.append("Median of the runs (min-max) in milliseconds, every run a fresh process, after a "
               "warm-up run in that process (full: the same filter on an identical input). "
               "host = wall - kernels; memcpy = one memcpy of the bytes read + written.")
    out.append("")
    out.append("| filter | mesh | cells in | cells out | runs | warm-up | wall ms | kernels ms | host ms "
               "| MB read + written | memcpy ms | host / memcpy |")
    out.append("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        if not r["runs"]:
            out.append("| %s | %s | %s | - | 0 (%d failed) | - | - | - | - | - | - | - |" % (
                r["filter"], r["mesh"], r["cells_requested"], r["failed"]))
            continue
        runs = "%d" % r["runs"] + (" (%d failed)" % r["failed"] if r["failed"] else "")
        ratio = r["host_over_memcpy"]
        out.append("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %.1f + %.1f | %s | %s |" % (
            r["filter"] + (" (%g%%)" % (100 * r["marked_fraction"]) if r.get("marked_fraction") else ""), r["mesh"], r["input_cells"], r["output_cells"], runs, r["warmup"],
            milliseconds(r["wall_ms"]),
            milliseconds(r["kernel_ms"], False) if r["filter_host_ms"] else "-",
            milliseconds(r["host_ms"]),
            r["bytes_read"] / 1e6, r["bytes_written"] / 1e6, milliseconds(r["memcpy_ms"], False),
            "%.1f" % ratio["median"] if ratio else "-"))
    steps = [r for r in good if r.get("step_kernel_ms")]
    if steps:
        out.append("")
        out.append("Device time of one iteration's step kernels (iterated filters), ms: " + "; ".join(
            "%s on %s: %s" % (r["filter"], r["mesh"], milliseconds(r["step_kernel_ms"])) for r in steps))
    stepped = [r for r in good if r.get("steps") and r["filter"].startswith("gpu-refinement")]
    if stepped:
        out.append("")
        out.append("Device time per step (median ms) of the refinement runs:")
        out.append("")
        for r in stepped:
            fraction = " (%g%% marked)" % (100 * r["marked_fraction"]) if r.get("marked_fraction") else ""
            out.append("- %s on %s, %d cells%s: %s" % (r["filter"], r["mesh"], r["input_cells"], fraction, ", ".join(
                "%s %s" % (name, figure_text(f["median"])) for name, f in r["steps"].items() if f)))
    errors = [(r["filter"], r["mesh"], e) for r in rows for e in r["errors"]]
    if errors:
        out.append("")
        out.append("Failed runs:")
        out.extend("- %s on %s: %s" % error for error in errors)
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", help="JSON lines of gpumesh-filter-benchmark")
    parser.add_argument("--markdown", help="write the table here (default: standard output)")
    parser.add_argument("--json", help="write the aggregated rows here")
    args = parser.parse_args()
    with open(args.runs) as runs:
        lines = [json.loads(text) for text in runs if text.strip()]
    rows = aggregate(lines)
    table = markdown(rows)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(table)
    else:
        sys.stdout.write(table)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
