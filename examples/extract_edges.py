"""GPU Extract Edges: every edge of a mesh once as a line (ParaView's Extract Edges), or its
boundary and feature edges (ParaView's Feature Edges), matched on the device.

    pvpython examples/extract_edges.py [--mesh data/plate_with_holes.vtu]
        [--selection "All Edges" | "Boundary Edges" | "Feature Edges" | "Boundary and Feature Edges"]
        [--feature-angle 30] [--device auto] [--out folder]

Prints how many edges were selected (and, for all edges, checks Euler's formula on a surface
mesh: points - edges + faces); writes the lines with vtkOriginalPointIds.
"""
import argparse
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

parser = argparse.ArgumentParser(description="GPU Extract Edges of a .vtu/.vtp mesh")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "plate_with_holes.vtu"))
parser.add_argument("--selection", default="All Edges")
parser.add_argument("--feature-angle", type=float, default=30.0)
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/extract_edges)")
args = parser.parse_args()

gpumesh_plugin.load(globals())
mesh = OpenDataFile(args.mesh)
edges = GPUExtractEdges(Input=mesh, Selection=args.selection, FeatureAngle=args.feature_angle,
                        PassThroughPointIds=1, Device=args.device)
result = gpumesh_plugin.fetch(edges, "GPU Extract Edges")
print("GPU Extract Edges (%s) of %s on %s (%.3f ms of kernels): %d edges, %d points" % (
    args.selection, os.path.basename(args.mesh), gpumesh_plugin.field(result, "Device"),
    gpumesh_plugin.field(result, "KernelTimeMs"), result.GetNumberOfCells(), result.GetNumberOfPoints()))
if args.selection == "All Edges":
    info = mesh.GetDataInformation()
    euler = info.GetNumberOfPoints() - result.GetNumberOfCells() + info.GetNumberOfCells()
    print("  points - edges + cells = %d (2 - 2 x genus - boundary loops for a surface)" % euler)
print("written:", gpumesh_plugin.save(edges, gpumesh_plugin.output_folder(args.out, "extract_edges"), "extract_edges"))
