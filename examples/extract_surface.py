"""GPU Extract Surface: the boundary of a mesh as polygonal data, its volume cells' faces matched
on the device, as ParaView's Extract Surface gives it for linear cells.

    pvpython examples/extract_surface.py [--mesh data/ball_tets.vtu] [--device auto] [--out folder]

Prints how many faces of each size the surface has and checks it against Extract Surface (the
same number of cells and points); writes the surface with vtkOriginalCellIds and vtkOriginalPointIds.
"""
import argparse
import collections
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

parser = argparse.ArgumentParser(description="GPU Extract Surface of a .vtu/.vtp mesh")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "ball_tets.vtu"))
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/extract_surface)")
args = parser.parse_args()

gpumesh_plugin.load(globals())
mesh = OpenDataFile(args.mesh)
surface = GPUExtractSurface(Input=mesh, PassThroughCellIds=1, PassThroughPointIds=1, Device=args.device)
result = gpumesh_plugin.fetch(surface, "GPU Extract Surface")
sizes = collections.Counter(result.GetCell(c).GetNumberOfPoints() for c in range(result.GetNumberOfCells()))
print("GPU Extract Surface of %s on %s (%.3f ms of kernels): %d cells (%s), %d points" % (
    os.path.basename(args.mesh), gpumesh_plugin.field(result, "Device"), gpumesh_plugin.field(result, "KernelTimeMs"),
    result.GetNumberOfCells(), ", ".join("%d of %d points" % (sizes[k], k) for k in sorted(sizes)),
    result.GetNumberOfPoints()))
reference = ExtractSurface(Input=mesh)
reference.UpdatePipeline()
info = reference.GetDataInformation()
if (info.GetNumberOfCells(), info.GetNumberOfPoints()) != (result.GetNumberOfCells(), result.GetNumberOfPoints()):
    raise SystemExit("Extract Surface gives %d cells and %d points" % (info.GetNumberOfCells(), info.GetNumberOfPoints()))
print("  as ParaView's Extract Surface: %d cells, %d points" % (info.GetNumberOfCells(), info.GetNumberOfPoints()))
print("written:", gpumesh_plugin.save(surface, gpumesh_plugin.output_folder(args.out, "extract_surface"),
                                      "extract_surface"))
