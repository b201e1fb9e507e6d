"""A GMF mesh through the GPU and back: open a .meshb, refine marked triangles with GPU Longest
Edge Refinement, write the result as .meshb.

    pvpython examples/gmf_refine.py [--mesh data/gmf/plate_with_holes.meshb]
        [--fraction 0.2] [--device auto] [--out folder]

Marks the largest `fraction` of the triangles by area (ParaView's Cell Size), refines them on
the device, and writes <out>/gmf_refine.meshb with the triangles' references (Ref, copied from
each parent) and the parent of each triangle (ParentCellId, in gmf_refine.solb). Vertex
references are not carried: a new vertex has none of its own. Then it reads the file back and
checks the triangle count, the total area and the references.
"""
import argparse
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

parser = argparse.ArgumentParser(description="refine a GMF mesh with GPU Longest Edge Refinement")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "gmf", "plate_with_holes.meshb"))
parser.add_argument("--fraction", type=float, default=0.2, help="fraction of the triangles to mark, largest first")
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/gmf_refine)")
args = parser.parse_args()

gpumesh_plugin.load(globals())
mesh = GMFMeshReader(FileName=args.mesh)
# The refinement takes triangles only: a GMF mesh may also hold edges, corners, ...
triangles = ExtractCellsByType(Input=mesh, CellTypes=["Triangle"])
areas = CellSize(Input=triangles, ComputeVertexCount=0, ComputeLength=0, ComputeVolume=0, ComputeSum=1)
area = sorted(gpumesh_plugin.cell_values(gpumesh_plugin.fetch(areas, "Cell Size"), "Area"))
threshold = area[int((1 - args.fraction) * (len(area) - 1))]
refined = GPULongestEdgeRefinement(Input=areas, MarkArray=["CELLS", "Area"], MarkThreshold=threshold,
                                   Device=args.device)
result = gpumesh_plugin.fetch(refined, "GPU Longest Edge Refinement")
kept = PassArrays(Input=refined, CellDataArrays=["Ref", "ParentCellId"], PointDataArrays=[], FieldDataArrays=[])

folder = gpumesh_plugin.output_folder(args.out, "gmf_refine")
path = os.path.join(folder, "gmf_refine.meshb")
SaveData(path, proxy=kept)

back = gpumesh_plugin.fetch(GMFMeshReader(FileName=path), "GMF Mesh Reader of the written file")
after = gpumesh_plugin.fetch(CellSize(Input=GMFMeshReader(FileName=path), ComputeVertexCount=0,
                                      ComputeLength=0, ComputeVolume=0, ComputeSum=1), "Cell Size of the written file")
print("GPU Longest Edge Refinement of %s on %s" % (os.path.basename(args.mesh), gpumesh_plugin.field(result, "Device")))
print("  %d triangles marked (area > %.4g), %d created: %d -> %d triangles" % (
    gpumesh_plugin.field(result, "MarkedCells"), threshold, gpumesh_plugin.field(result, "CreatedCells"),
    len(area), result.GetNumberOfCells()))
print("  written: %s (%d bytes) and its .solb" % (path, os.path.getsize(path)))
if back.GetNumberOfCells() != result.GetNumberOfCells():
    raise SystemExit("the written file holds %d triangles, the refinement made %d"
                     % (back.GetNumberOfCells(), result.GetNumberOfCells()))
total_before, total_after = sum(area), gpumesh_plugin.field(after, "Area")
print("  total area %.9g before, %.9g in the written file" % (total_before, total_after))
if abs(total_after - total_before) > 1e-9 * abs(total_before):
    raise SystemExit("the total area changed")
references_before = set(gpumesh_plugin.cell_values(gpumesh_plugin.fetch(triangles, "triangles"), "Ref"))
references_after = set(gpumesh_plugin.cell_values(back, "Ref"))
print("  triangle references before %s, after %s" % (sorted(references_before), sorted(references_after)))
if references_before != references_after:
    raise SystemExit("the references changed")
