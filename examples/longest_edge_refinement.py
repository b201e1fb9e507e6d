"""GPU Longest Edge Refinement: conforming longest-edge bisection of the largest triangles.

    pvpython examples/longest_edge_refinement.py [--mesh data/plate_with_holes.vtu]
        [--threshold AREA | --refine-all] [--passes 1] [--device auto] [--out folder]

Marks the triangles by the Area array of ParaView's own Cell Size filter (by default those
larger than the 80th percentile of the areas), refines them on the device, and writes the
result with ParentCellId. The total area does not change: the script checks it.
"""
import argparse
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

parser = argparse.ArgumentParser(description="GPU Longest Edge Refinement of a triangle mesh")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "plate_with_holes.vtu"))
parser.add_argument("--threshold", type=float, help="refine triangles with a larger area")
parser.add_argument("--refine-all", action="store_true", help="refine every triangle")
parser.add_argument("--passes", type=int, default=1)
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/longest_edge_refinement)")
args = parser.parse_args()

gpumesh_plugin.load(globals())
mesh = OpenDataFile(args.mesh)
areas = CellSize(Input=mesh, ComputeVertexCount=0, ComputeLength=0, ComputeVolume=0, ComputeSum=1)
area = sorted(gpumesh_plugin.cell_values(gpumesh_plugin.fetch(areas, "Cell Size"), "Area"))
threshold = args.threshold if args.threshold is not None else area[int(0.8 * (len(area) - 1))]

refined = GPULongestEdgeRefinement(Input=areas, MarkArray=["CELLS", "Area"], MarkThreshold=threshold,
                                   RefineAll=int(args.refine_all), Passes=args.passes, Device=args.device)
result = gpumesh_plugin.fetch(refined, "GPU Longest Edge Refinement")
after = gpumesh_plugin.fetch(CellSize(Input=refined, ComputeVertexCount=0, ComputeLength=0,
                                      ComputeVolume=0, ComputeSum=1), "Cell Size of the refined mesh")

print("GPU Longest Edge Refinement of %s on %s" % (os.path.basename(args.mesh), gpumesh_plugin.field(result, "Device")))
print("  marked: %s" % ("every triangle" if args.refine_all else "area > %.4g" % threshold))
print("  %d triangles marked, %d created: %d -> %d triangles in %d pass(es)" % (
    gpumesh_plugin.field(result, "MarkedCells"), gpumesh_plugin.field(result, "CreatedCells"),
    len(area), result.GetNumberOfCells(), args.passes))
fields = result.GetFieldData()
steps = sorted(fields.GetArrayName(i) for i in range(fields.GetNumberOfArrays())
               if fields.GetArrayName(i).startswith("KernelTimeMs_step_"))
print("  device time of the seven steps (ms):", ", ".join(
    "%s %.3f" % (name[len("KernelTimeMs_step_"):], gpumesh_plugin.field(result, name)) for name in steps))
total_before, total_after = sum(area), gpumesh_plugin.field(after, "Area")
print("  total area %.9g before, %.9g after" % (total_before, total_after))
if abs(total_after - total_before) > 1e-9 * abs(total_before):
    raise SystemExit("the refinement changed the total area")
print("written:", gpumesh_plugin.save(refined, gpumesh_plugin.output_folder(args.out, "longest_edge_refinement"),
                                      "longest_edge_refinement"))
