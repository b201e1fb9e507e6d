"""GPU Longest Edge Refinement with RefineAll on a mesh with and without cell arrays (an int, a
float and a 3-component double): what carrying the parents' cell data to the children costs.

End to end through the VTK filter (VTK dataset in, VTK dataset out: SetInputData and Update,
the output in hand), each run a fresh pvpython process that first refines an identical copy of
the input untimed (kernels compiled, buffers sized), then times a new filter on the input (a
re-execution, as in docs/benchmarks.md). Runs of the cases alternate, so a busy machine weighs
on all of them alike. Prints the median [min, max] of wall and host milliseconds (host: wall
minus the kernels' device time, the filter's HostTimeMs) per case:

    python3 testing/benchmark/bench_refinement_cell_data.py [--triangles 2000000] [--runs 5]
        [--backends Sequential,STDThread] [--out DIR] [--pvpython pvpython] [--phases]

--backends: the vtkSMPTools back-ends to run under (VTK_SMP_BACKEND_IN_USE; a Debian pvpython
runs Sequential unless told otherwise). --out DIR writes every run's record to DIR/runs.jsonl
and the table to DIR/summary.md (DIR is created; choose one outside the checkout). The plugin
is found as the examples find it (GPUMESH_PLUGIN, then this checkout's build tree).
--phases adds the median time of each phase the filter marks in vtkTimerLog ("GPUMesh: ...",
nested phases inside their parents) to the summary, and every run's phases to its record.

One run (what the driver starts; prints one JSON record):

    pvpython testing/benchmark/bench_refinement_cell_data.py run --triangles N --arrays none|three
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ARRAYS = ("none", "three")


def triangle_grid(cells):
    """A vtkPolyData of about `cells` triangles: an n x n grid of jittered squares, double points,
    numbered in row order (as gpumesh-filter-benchmark's `triangles`)."""
    import numpy as np
    from vtkmodules.util import numpy_support as ns
    from vtkmodules.vtkCommonCore import vtkPoints
    from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData

    n = max(1, int(round((cells / 2) ** 0.5)))
    generator = np.random.default_rng(1)
    x, y = np.meshgrid(np.arange(n + 1, dtype=float), np.arange(n + 1, dtype=float))
    inside = (x > 0) & (x < n) & (y > 0) & (y < n)
    x += np.where(inside, generator.uniform(-0.25, 0.25, x.shape), 0.0)
    y += np.where(inside, generator.uniform(-0.25, 0.25, y.shape), 0.0)
    xyz = np.stack([x.ravel(), y.ravel(), np.zeros(x.size)], axis=1)
    corner = (np.arange(n)[:, None] * (n + 1) + np.arange(n)[None, :]).ravel()
    triangles = np.empty((2 * n * n, 3), dtype=np.int64)
    triangles[0::2] = np.stack([corner, corner + 1, corner + n + 2], axis=1)
    triangles[1::2] = np.stack([corner, corner + n + 2, corner + n + 1], axis=1)

    points = vtkPoints()
    points.SetData(ns.numpy_to_vtk(xyz, deep=1))
    polys = vtkCellArray()
    offsets = np.arange(0, 3 * len(triangles) + 1, 3, dtype=np.int64)
    polys.SetData(ns.numpy_to_vtkIdTypeArray(offsets, deep=1),
                  ns.numpy_to_vtkIdTypeArray(triangles.ravel(), deep=1))
    mesh = vtkPolyData()
    mesh.SetPoints(points)
    mesh.SetPolys(polys)
    return mesh


def add_cell_arrays(mesh):
    """The three cell arrays of the 'three' case: int, float, 3-component double."""
    import numpy as np
    from vtkmodules.util import numpy_support as ns

    cells = mesh.GetNumberOfCells()
    ids = np.arange(cells)
    for name, values in (("Region", (ids % 97).astype(np.int32)),
                         ("Quality", (ids * 0.5).astype(np.float32)),
                         ("Direction", np.stack([ids, -ids, 2.0 * ids], axis=1).astype(np.float64))):
        array = ns.numpy_to_vtk(values, deep=1)
        array.SetName(name)
        mesh.GetCellData().AddArray(array)


def phase_times():
    """The phases vtkTimerLog recorded since its last reset, in ms (a phase entered more than
    once: the sum)."""
    from vtkmodules.vtkCommonSystem import vtkTimerLog, vtkTimerLogEntry
    total, open_ = {}, []
    for e in range(vtkTimerLog.GetNumberOfEvents()):
        name, at = vtkTimerLog.GetEventString(e), vtkTimerLog.GetEventWallTime(e)
        if vtkTimerLog.GetEventType(e) == vtkTimerLogEntry.START:
            open_.append((name, at))
        elif vtkTimerLog.GetEventType(e) == vtkTimerLogEntry.END:
            for i in range(len(open_) - 1, -1, -1):
                if open_[i][0] == name:
                    total[name] = total.get(name, 0.0) + 1000.0 * (at - open_[i][1])
                    del open_[i]
                    break
    return total


def run_once(triangles, arrays):
    from paraview import simple
    from vtkmodules.vtkCommonCore import vtkSMPTools
    sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
    import gpumesh_plugin
    gpumesh_plugin.load(vars(simple))

    mesh = triangle_grid(triangles)
    if arrays == "three":
        add_cell_arrays(mesh)
    copy = mesh.NewInstance()
    copy.DeepCopy(mesh)
    empty = simple.TrivialProducer()
    empty.GetClientSideObject().SetOutput(mesh.NewInstance())

    def refinement():
        # The VTK object behind the proxy (made on an empty input): only the filter runs, no
        # ParaView data information.
        proxy = simple.GPULongestEdgeRefinement(Input=empty, RefineAll=1)
        return proxy, proxy.GetClientSideObject()

    # The warm-up's output goes before the timed run, as an output does when its filter runs
    # again: its large buffers are then reused (gpumesh::allocateHostMemory), not fresh pages.
    proxy, warmup = refinement()
    warmup.SetInputData(copy)
    warmup.Update()
    simple.Delete(proxy)
    del proxy, warmup, copy

    _, refine = refinement()
    from vtkmodules.vtkCommonSystem import vtkTimerLog
    vtkTimerLog.SetMaxEntries(10000)
    vtkTimerLog.LoggingOn()
    vtkTimerLog.ResetLog()
    start = time.perf_counter()
    refine.SetInputData(mesh)
    refine.Update()
    wall_ms = 1000.0 * (time.perf_counter() - start)
    vtkTimerLog.LoggingOff()
    output = refine.GetOutput()
    fields = output.GetFieldData()
    if output.GetNumberOfCells() <= mesh.GetNumberOfCells():
        raise SystemExit("the refinement produced no new cells (see the error above)")
    print(json.dumps({
        "arrays": arrays, "backend": vtkSMPTools.GetBackend(), "threads": vtkSMPTools.GetEstimatedNumberOfThreads(),
        "triangles": mesh.GetNumberOfCells(), "output_cells": output.GetNumberOfCells(),
        "output_cell_arrays": output.GetCellData().GetNumberOfArrays(),
        "wall_ms": wall_ms, "host_ms": fields.GetArray("HostTimeMs").GetValue(0),
        "kernel_ms": fields.GetArray("KernelTimeMs").GetValue(0),
        "device": fields.GetAbstractArray("Device").GetValue(0), "phases": phase_times()}))


def summary(values):
    return "%.1f [%.1f, %.1f]" % (statistics.median(values), min(values), max(values))


def drive(options):
    cases = [(backend, arrays) for backend in options.backends.split(",") for arrays in ARRAYS]
    records = []
    raw = None
    if options.out:
        os.makedirs(options.out, exist_ok=True)
        raw = open(os.path.join(options.out, "runs.jsonl"), "w")
    for round_ in range(options.runs):
        for backend, arrays in cases:
            environment = dict(os.environ, VTK_SMP_BACKEND_IN_USE=backend)
            finished = subprocess.run([options.pvpython, os.path.abspath(__file__), "run", "--triangles",
                                       str(options.triangles), "--arrays", arrays],
                                      env=environment, capture_output=True, text=True)
            lines = [line for line in finished.stdout.splitlines() if line.startswith("{")]
            if finished.returncode != 0 or not lines:
                sys.stderr.write(finished.stdout + finished.stderr)
                raise SystemExit("run %d of %s, %s failed" % (round_ + 1, backend, arrays))
            record = json.loads(lines[-1])
            record.update(requested_backend=backend, run=round_ + 1, load_average=os.getloadavg()[0],
                          host=platform.node(), plugin=os.environ.get("GPUMESH_PLUGIN", ""))
            records.append(record)
            if raw:
                raw.write(json.dumps(record) + "\n")
                raw.flush()
            print("run %d, %s, %s arrays: wall %.1f ms, host %.1f ms" % (
                round_ + 1, backend, arrays, record["wall_ms"], record["host_ms"]), flush=True)

    table = ["| Backend | Cell arrays | Wall ms, median [min, max] | Host ms, median [min, max] | "
             "Host ms with / without | Runs |",
             "| --- | --- | ---: | ---: | ---: | ---: |"]
    for backend, arrays in cases:
        mine = [r for r in records if r["requested_backend"] == backend and r["arrays"] == arrays]
        bare = [r["host_ms"] for r in records if r["requested_backend"] == backend and r["arrays"] == "none"]
        ratio = statistics.median(r["host_ms"] for r in mine) / statistics.median(bare)
        table.append("| %s | %s | %s | %s | %.2f | %d |" % (
            backend, arrays, summary([r["wall_ms"] for r in mine]), summary([r["host_ms"] for r in mine]),
            ratio, len(mine)))
    first = records[0]
    if options.phases:
        names = sorted({name for r in records for name in r.get("phases", {}) if name.startswith("GPUMesh: ")})
        table += ["", "| Backend | Cell arrays | " + " | ".join(names) + " |",
                  "| --- | --- |" + " ---: |" * len(names)]
        for backend, arrays in cases:
            mine = [r for r in records if r["requested_backend"] == backend and r["arrays"] == arrays]
            table.append("| %s | %s | " % (backend, arrays) + " | ".join(
                "%.1f" % statistics.median(r["phases"].get(name, 0.0) for r in mine) for name in names) + " |")
    heading = "RefineAll, %d triangles in, %d out, on %s" % (first["triangles"], first["output_cells"], first["device"])
    print("\n" + heading + "\n\n" + "\n".join(table))
    if options.out:
        raw.close()
        with open(os.path.join(options.out, "summary.md"), "w") as out:
            out.write(heading + "\n\n" + "\n".join(table) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", choices=["run"], help="one run (started by the driver)")
    parser.add_argument("--triangles", type=int, default=2000000)
    parser.add_argument("--arrays", choices=ARRAYS, default="none")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--backends", default="Sequential,STDThread")
    parser.add_argument("--out", help="folder for runs.jsonl and summary.md")
    parser.add_argument("--pvpython", default="pvpython")
    parser.add_argument("--phases", action="store_true", help="median time of each vtkTimerLog phase")
    options = parser.parse_args()
    if options.command == "run":
        run_once(options.triangles, options.arrays)
    else:
        drive(options)


if __name__ == "__main__":
    main()
