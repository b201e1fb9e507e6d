"""GPU Vertex Smoothing against VTK's CPU smoothers on a gmsh triangle mesh (one run each).

    pvpython testing/benchmark/bench_smoothing.py [--clscale 0.11] [--iterations 100]

Meshes data/plate_with_holes.geo with gmsh (-clscale 0.11: about 270k triangles), then times
100 iterations of GPUMesh (default device: PoCL on a machine without a GPU; Laplacian, Taubin
and Barycentric, Fixed boundary) against ParaView's Smooth (vtkSmoothPolyDataFilter,
Gauss-Seidel, single-threaded) and vtkWindowedSincPolyDataFilter (vtkSMPTools, with
VTK_SMP_BACKEND_IN_USE=STDThread). Each GPUMesh method runs once untimed first (10 iterations,
enough for the smoother to renumber a scattered mesh as the timed run does), so the timed run
does not include compiling its kernels (the very first run's time is printed too); "kernels s"
is the device time of all its kernels (OpenCL profiling), and each method's kernels are listed
by label after the table (relax: the iterations; renumber..., point keys, radix sort...: the
renumbering for locality). Wall times of Update() / UpdatePipeline() on the same polydata;
nothing is written.
"""
import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("VTK_SMP_BACKEND_IN_USE", "STDThread")  # before VTK's SMP tools start

from paraview import simple  # noqa: E402
from vtkmodules.vtkCommonCore import vtkSMPTools  # noqa: E402
from vtkmodules.vtkFiltersCore import vtkSmoothPolyDataFilter, vtkWindowedSincPolyDataFilter  # noqa: E402
from vtkmodules.vtkFiltersGeometry import vtkGeometryFilter  # noqa: E402
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "examples"))
import gpumesh_plugin  # noqa: E402


def make_mesh(folder, clscale):
    """gmsh -> legacy VTK -> clean .vtu (data/gmsh_to_vtu.py) -> vtkPolyData of triangles."""
    vtk_file, vtu_file = os.path.join(folder, "plate.vtk"), os.path.join(folder, "plate.vtu")
    subprocess.run(["gmsh", os.path.join(ROOT, "data", "plate_with_holes.geo"), "-2", "-clscale", str(clscale),
                    "-format", "vtk", "-bin", "-nt", "1", "-v", "2", "-o", vtk_file], check=True)
    spec = importlib.util.spec_from_file_location("gmsh_to_vtu", os.path.join(ROOT, "data", "gmsh_to_vtu.py"))
    converter = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(converter)
    converter.main(["gmsh_to_vtu.py", vtk_file, vtu_file, "triangle"])
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(vtu_file)
    reader.Update()
    surface = vtkGeometryFilter()
    surface.SetInputData(reader.GetOutput())
    surface.Update()
    return surface.GetOutput()


def timed(update):
    start = time.perf_counter()
    update()
    return time.perf_counter() - start


def field(dataset, name):
    array = dataset.GetFieldData().GetAbstractArray(name)
    return array.GetValue(0) if array.IsA("vtkStringArray") else array.GetTuple1(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clscale", type=float, default=0.11)
    parser.add_argument("--iterations", type=int, default=100)
    args = parser.parse_args()
    gpumesh_plugin.load(vars(simple))

    with tempfile.TemporaryDirectory() as folder:
        mesh = make_mesh(folder, args.clscale)
    n = args.iterations
    print("mesh: %d triangles, %d points (gmsh -clscale %g); %d iterations; vtkSMPTools backend %s, %d threads"
          % (mesh.GetNumberOfCells(), mesh.GetNumberOfPoints(), args.clscale, n,
             vtkSMPTools.GetBackend(), vtkSMPTools.GetEstimatedNumberOfThreads()))

    rows = []
    source = simple.TrivialProducer()
    source.GetClientSideObject().SetOutput(mesh)
    device = None
    gpumesh_laplacian = None
    kernel_labels = {}
    for method in ("Laplacian", "Taubin", "Barycentric"):
        # An untimed run first: it compiles the kernels this method uses (with 10 iterations,
        # those of the renumbering too).
        warm_up = simple.GPUVertexSmoothing(Input=source, Iterations=min(n, 10), Method=method)
        seconds = timed(warm_up.UpdatePipeline)
        if method == "Laplacian":
            rows.append(("GPUMesh first run (%d iterations, compiles kernels)" % min(n, 10), seconds, None))
        gpu = simple.GPUVertexSmoothing(Input=source, Iterations=n, Method=method)
        seconds = timed(gpu.UpdatePipeline)
        result = simple.servermanager.Fetch(gpu)
        device = field(result, "Device")
        rows.append(("GPUMesh %s" % method, seconds, field(result, "KernelTimeMs") / 1e3))
        fields = result.GetFieldData()
        labels = [fields.GetArrayName(i) for i in range(fields.GetNumberOfArrays())]
        kernel_labels[method] = sorted(((field(result, name), name[len("KernelTimeMs_"):]) for name in labels
                                  if name.startswith("KernelTimeMs_")), reverse=True)
        gpumesh_laplacian = gpumesh_laplacian or seconds

    smooth = vtkSmoothPolyDataFilter()
    smooth.SetInputData(mesh)
    smooth.SetNumberOfIterations(n)
    smooth.SetConvergence(0.0)
    smooth.SetRelaxationFactor(0.5)
    rows.append(("ParaView Smooth (vtkSmoothPolyDataFilter)", timed(smooth.Update), None))
    sinc = vtkWindowedSincPolyDataFilter()
    sinc.SetInputData(mesh)
    sinc.SetNumberOfIterations(n)
    sinc.SetPassBand(0.1)
    rows.append(("vtkWindowedSincPolyDataFilter", timed(sinc.Update), None))

    print("GPUMesh device: %s" % device)
    print("%-52s %10s %12s %14s" % ("run", "wall s", "kernels s", "wall / GPUMesh Laplacian"))
    for name, seconds, kernels in rows:
        print("%-52s %10.3f %12s %14.1f" % (name, seconds, "%.3f" % kernels if kernels is not None else "-",
                                            seconds / gpumesh_laplacian))
    for method, timings in kernel_labels.items():
        print("GPUMesh %s kernels (ms): %s" % (method, ", ".join("%s %.1f" % (label, ms) for ms, label in timings
                                                                if ms >= 0.05)))


main()
