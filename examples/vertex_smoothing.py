"""GPU Vertex Smoothing: Laplacian, Taubin or barycentric smoothing with the boundary fixed.

    pvpython examples/vertex_smoothing.py [--mesh data/plate_with_holes.vtu] [--method Taubin]
        [--iterations 20] [--relaxation 0.5] [--boundary Fixed] [--device auto] [--out folder]

Prints how far the points moved (the Displacement point array) and checks that, with the
boundary fixed, no boundary point moved; writes the smoothed mesh.
"""
import argparse
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

parser = argparse.ArgumentParser(description="GPU Vertex Smoothing of a .vtu/.vtp mesh")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "plate_with_holes.vtu"))
parser.add_argument("--method", default="Taubin", choices=["Laplacian", "Taubin", "Barycentric"])
parser.add_argument("--iterations", type=int, default=20)
parser.add_argument("--relaxation", type=float, default=0.5)
parser.add_argument("--boundary", default="Fixed", choices=["Fixed", "Free", "Smooth"])
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/vertex_smoothing)")
args = parser.parse_args()

gpumesh_plugin.load(globals())
if "GPUVertexSmoothing" not in globals():
    raise SystemExit("GPU Vertex Smoothing is not in this build of the plugin (%s)" % gpumesh_plugin.plugin_path())
mesh = OpenDataFile(args.mesh)
smoothed = GPUVertexSmoothing(Input=mesh, Method=args.method, Iterations=args.iterations,
                              RelaxationFactor=args.relaxation, Boundary=args.boundary, Device=args.device)
result = gpumesh_plugin.fetch(smoothed, "GPU Vertex Smoothing")

displacement = result.GetPointData().GetArray("Displacement")
moved = [sum(c * c for c in displacement.GetTuple(i)) ** 0.5 for i in range(displacement.GetNumberOfTuples())]
print("GPU Vertex Smoothing of %s: %s, %d iterations, boundary %s, on %s" % (
    os.path.basename(args.mesh), args.method, args.iterations, args.boundary, gpumesh_plugin.field(result, "Device")))
print("  points moved: %d of %d; largest displacement %.4g, mean %.4g" % (
    sum(1 for m in moved if m > 0), len(moved), max(moved), sum(moved) / len(moved)))

# The boundary: the outer surface of a volume mesh, the boundary edges of a surface mesh.
original = servermanager.Fetch(mesh)
volume = any(original.GetCell(i).GetCellDimension() == 3 for i in range(original.GetNumberOfCells()))
surface = ExtractSurface(Input=mesh)
boundary = surface if volume else FeatureEdges(Input=surface, BoundaryEdges=1, FeatureEdges=0,
                                                NonManifoldEdges=0, ManifoldEdges=0)
boundary.UpdatePipeline()
outline = servermanager.Fetch(boundary)
on_boundary = {outline.GetPoint(i) for i in range(outline.GetNumberOfPoints())}
moved_on_boundary = sum(1 for i in range(original.GetNumberOfPoints()) if moved[i] > 0 and original.GetPoint(i) in on_boundary)
print("  boundary points: %d, of which moved: %d" % (len(on_boundary), moved_on_boundary))
if args.boundary == "Fixed" and moved_on_boundary:
    raise SystemExit("Boundary is Fixed but %d boundary points moved" % moved_on_boundary)
print("written:", gpumesh_plugin.save(smoothed, gpumesh_plugin.output_folder(args.out, "vertex_smoothing"),
                                      "vertex_smoothing"))
