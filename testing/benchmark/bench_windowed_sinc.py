"""GPU Vertex Smoothing's WindowedSinc against vtkWindowedSincPolyDataFilter, fresh processes.

    python3 testing/benchmark/bench_windowed_sinc.py [--triangles 1000000] [--iterations 20]
        [--runs 5] [--threads 2] [--plugin build/lib/paraview-5.11/plugins/GPUMesh/GPUMesh.so]

Each run is a fresh pvpython process that builds a UV sphere of about --triangles triangles
(vtkSphereSource, two poles of degree = its theta resolution: hubs), then times one Update():
VTK's filter with VTK_SMP_BACKEND_IN_USE=STDThread and VTK_SMP_MAX_THREADS=--threads, or the
plugin's GPU Vertex Smoothing (Method WindowedSinc, Boundary Smooth, default device) on a
TrivialProducer of the same polydata, UpdatePipeline() timed: a VTK dataset in, a new one out. The plugin's
programs come from its cache (one untimed run first fills it). Prints each run and the
median [min, max] of each side, and their ratio.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

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


def run(side, args):
    env = dict(os.environ, GPUMESH_PLUGIN=os.path.abspath(args.plugin), VTK_SMP_BACKEND_IN_USE="STDThread",
               VTK_SMP_MAX_THREADS=str(args.threads))
    out = subprocess.run(["pvpython", "-c", CHILD, str(args.triangles), str(args.iterations), side], env=env,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--triangles", type=int, default=1000000)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--plugin", default="build/lib/paraview-5.11/plugins/GPUMesh/GPUMesh.so")
    args = parser.parse_args()
    run("gpumesh", args)  # fills the program cache
    times = {"vtk": [], "gpumesh": []}
    for r in range(args.runs):
        for side in times:
            result = run(side, args)
            times[side].append(1000 * result["seconds"])
            print("run %d %-8s %8.1f ms (%d triangles)" % (r, side, times[side][-1], result["triangles"]), flush=True)
    for side, values in times.items():
        print("%-8s median %.1f ms [%.1f, %.1f]" % (side, statistics.median(values), min(values), max(values)))
    print("ratio (VTK / GPU Vertex Smoothing, medians): %.2f"
          % (statistics.median(times["vtk"]) / statistics.median(times["gpumesh"])))


if __name__ == "__main__":
    sys.exit(main())
