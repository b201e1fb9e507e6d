"""GPU Vertex Smoothing's WindowedSinc against vtkWindowedSincPolyDataFilter, fresh processes.

    python3 testing/benchmark/bench_windowed_sinc.py [--triangles 1000000] [--iterations 20]
        [--runs 5] [--threads 2] [--plugin [NAME=]build/lib/paraview-5.11/plugins/GPUMesh/GPUMesh.so ...]
        [--out results.jsonl]

Each run is a fresh pvpython process that builds a UV sphere of about --triangles triangles
(vtkSphereSource, two poles of degree = its theta resolution: hubs), then times one Update():
VTK's filter with VTK_SMP_BACKEND_IN_USE=STDThread and VTK_SMP_MAX_THREADS=--threads, or the
plugin's GPU Vertex Smoothing (Method WindowedSinc, Boundary Smooth, default device) on a
TrivialProducer of the same polydata, UpdatePipeline() timed: a VTK dataset in, a new one out. The plugin's
programs come from its cache (one untimed run first fills it). Several --plugin (builds to
compare, NAME=PATH; each process gets the libraries beside its plugin first on its library
path) run interleaved with VTK's, a process of each in turn, so that the machine's load falls on
all alike; each build then has a program cache folder of its own (GPUMESH_CACHE_DIR, a copy of
the default one), so that neither loads the programs the other remembered needing. Prints each
run with the 1-minute load average, the median [min, max] of each side, each plugin's ratio to
VTK, and, with several plugins, each one's time over the first one's round by round (median
[min, max] of the per-round ratios, robust to a load that changes between rounds); --out
appends every run as a JSON line.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import json, math, os, sys, time
from vtkmodules.vtkFiltersSources import vtkSphereSource
triangles, iterations, side = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
theta = int(round(math.sqrt(triangles)))
sphere = vtkSphereSource()
sphere.SetThetaResolution(theta)
sphere.SetPhiResolution(triangles // (2 * theta) + 2)
sphere.Update()
mesh = sphere.GetOutput()
if side == "vtk":
    from vtkmodules.vtkFiltersCore import vtkWindowedSincPolyDataFilter
    f = vtkWindowedSincPolyDataFilter()
    f.SetNumberOfIterations(iterations)
else:
    from paraview import simple
    simple.LoadPlugin(os.environ["GPUMESH_PLUGIN"], remote=False, ns=vars(simple))
    source = simple.TrivialProducer()
    source.GetClientSideObject().SetOutput(mesh)
    proxy = simple.GPUVertexSmoothing(Input=source, Method="WindowedSinc", Iterations=iterations, Boundary="Smooth")
    f = None
if f is not None:
    f.SetInputData(mesh)
    start = time.perf_counter()
    f.Update()
    output = f.GetOutput()
else:
    start = time.perf_counter()
    proxy.UpdatePipeline()
    output = proxy.GetClientSideObject().GetOutputDataObject(0)
elapsed = time.perf_counter() - start
print(json.dumps({"seconds": elapsed, "triangles": mesh.GetNumberOfCells(), "points": output.GetNumberOfPoints()}))
"""


def plugin_sides(args):
    """{name: plugin path} from --plugin NAME=PATH or PATH (named gpumesh, gpumesh2, ...)."""
    sides = {}
    for k, spec in enumerate(args.plugin or ["build/lib/paraview-5.11/plugins/GPUMesh/GPUMesh.so"]):
        name, _, path = spec.rpartition("=")
        sides[name or ("gpumesh" if k == 0 else "gpumesh%d" % (k + 1))] = os.path.abspath(path)
    return sides


def run(side, args, plugin=None, cache=None):
    env = dict(os.environ, VTK_SMP_BACKEND_IN_USE="STDThread", VTK_SMP_MAX_THREADS=str(args.threads))
    if cache:
        env["GPUMESH_CACHE_DIR"] = cache
    if plugin:
        # The build's own libraries before anything its RUNPATH names (another build's).
        libraries = [os.path.dirname(plugin), os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(plugin))))]
        env["GPUMESH_PLUGIN"] = plugin
        env["LD_LIBRARY_PATH"] = ":".join(libraries + [p for p in [os.environ.get("LD_LIBRARY_PATH")] if p])
    out = subprocess.run(["pvpython", "-c", CHILD, str(args.triangles), str(args.iterations), "vtk" if plugin is None else "gpumesh"],
                         env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--triangles", type=int, default=1000000)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--plugin", action="append", help="[NAME=]path of a GPUMesh.so; repeat to compare builds")
    parser.add_argument("--out", help="append every run to this JSON-lines file")
    args = parser.parse_args()
    plugins = plugin_sides(args)
    caches = {}
    if len(plugins) > 1:
        root = tempfile.mkdtemp(prefix="gpumesh-bench-caches-")
        default = os.environ.get("GPUMESH_CACHE_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "gpumesh")
        for name in plugins:
            caches[name] = os.path.join(root, name)
            if os.path.isdir(default):
                shutil.copytree(default, caches[name])
    for name, plugin in plugins.items():
        run("gpumesh", args, plugin, caches.get(name))  # fills the program cache
    sides = dict(vtk=None, **plugins)
    times = {side: [] for side in sides}
    loads = []
    for r in range(args.runs):
        for side, plugin in sides.items():
            load = load_average()
            loads.append(load)
            result = run(side, args, plugin, caches.get(side))
            times[side].append(1000 * result["seconds"])
            print("run %d %-12s %8.1f ms (%d triangles, load %.2f)" % (r, side, times[side][-1], result["triangles"], load),
                  flush=True)
            if args.out:
                with open(args.out, "a") as out:
                    out.write(json.dumps(dict(result, side=side, plugin=plugin, run=r, load_average=load,
                                              threads=args.threads, iterations=args.iterations)) + "\n")
    for side, values in times.items():
        print("%-12s median %.1f ms [%.1f, %.1f]" % (side, statistics.median(values), min(values), max(values)))
    for side in plugins:
        print("ratio (VTK / %s, medians): %.2f" % (side, statistics.median(times["vtk"]) / statistics.median(times[side])))
    first = next(iter(plugins))
    for side in list(plugins)[1:]:
        ratios = [t / b for t, b in zip(times[side], times[first])]
        print("%s / %s, round by round: median %.3f [%.3f, %.3f]" % (side, first, statistics.median(ratios), min(ratios), max(ratios)))
    print("load average %.2f to %.2f" % (min(loads), max(loads)))
    if caches:
        shutil.rmtree(os.path.dirname(next(iter(caches.values()))), True)


if __name__ == "__main__":
    sys.exit(main())
