"""The GPU filters chained: size the cells, refine the large ones, smooth, size them again.

    pvpython examples/pipeline.py [--mesh data/plate_with_holes.vtu] [--threshold SIZE]
                                  [--iterations 10] [--device auto] [--out folder]
    mpiexec -np 2 pvbatch examples/pipeline.py        (as root: --allow-run-as-root --oversubscribe)

1. GPU Cell Reduction: the per-cell Size array (area of each triangle);
2. GPU Longest Edge Refinement: the cells whose Size is above the threshold (default: 1.25
   times the mean cell size), MarkArray = ['CELLS', 'Size'];
3. GPU Vertex Smoothing with the boundary fixed, if this build of the plugin has it (the step
   is skipped, and says so, otherwise);
4. GPU Cell Reduction again, to check: the refinement keeps the total area and leaves no
   cell larger than max(threshold, largest size / 2).
Totals come from ParaView's data information and Integrate Variables, which span every process.
Prints a short summary and writes the refined and final meshes. Under MPI the cells are
redistributed; reductions, refinement and smoothing span all processes (the refinement
conforms across the cuts); the checks hold piece by piece, so for the whole.
"""
import argparse
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

parser = argparse.ArgumentParser(description="Size, refine, smooth and size again a triangle mesh")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "plate_with_holes.vtu"))
parser.add_argument("--threshold", type=float, help="refine cells with a larger Size")
parser.add_argument("--iterations", type=int, default=10, help="smoothing iterations")
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/pipeline)")
args = parser.parse_args()

gpumesh_plugin.load(globals())
folder = gpumesh_plugin.output_folder(args.out, "pipeline")
mesh = OpenDataFile(args.mesh)
if gpumesh_plugin.ranks() > 1:  # a one-piece file is read by one process: share its cells out
    mesh = RedistributeDataSet(Input=mesh)


def measure(proxy, what):
    """GPU Cell Reduction (Quantity Size) of proxy's output, summed up over every process:
    (the reduction, number of cells, smallest and largest Size, total area)."""
    reduction = GPUCellReduction(Input=proxy, Quantity="Size", Device=args.device)
    reduction.UpdatePipeline()
    if reduction.GetDataInformation().GetNumberOfCells() == 0:
        raise SystemExit("%s produced no output (see the error above)" % what)
    low, high = reduction.CellData["Size"].GetRange(0)  # data information: all processes
    total = gpumesh_plugin.fetch(IntegrateVariables(Input=reduction), "Integrate Variables")  # on process 0
    return (reduction, reduction.GetDataInformation().GetNumberOfCells(), low, high,
            total.GetCellData().GetArray("Area").GetValue(0))


sizes, cells, low, high, area = measure(mesh, "GPU Cell Reduction of the input")
threshold = args.threshold if args.threshold is not None else 1.25 * area / cells

refined = GPULongestEdgeRefinement(Input=sizes, MarkArray=["CELLS", "Size"], MarkThreshold=threshold,
                                   Device=args.device)
device = gpumesh_plugin.field(gpumesh_plugin.fetch(refined, "GPU Longest Edge Refinement"), "Device")
_, refined_cells, _, refined_high, refined_area = measure(refined, "GPU Cell Reduction of the refined mesh")

last, smoothing = refined, "skipped (GPU Vertex Smoothing is not in this build of the plugin)"
if "GPUVertexSmoothing" in globals():
    last = GPUVertexSmoothing(Input=refined, Boundary="Fixed", Iterations=args.iterations, Device=args.device)
    gpumesh_plugin.fetch(last, "GPU Vertex Smoothing")
    smoothing = "%d Laplacian iterations, boundary fixed" % args.iterations
_, final_cells, final_low, final_high, final_area = measure(last, "GPU Cell Reduction of the final mesh")

print("GPUMesh pipeline on %s (%d process(es), device %s)" % (os.path.basename(args.mesh), gpumesh_plugin.ranks(), device))
print("  1. sizes      %d cells, Size %.4g .. %.4g, total %.6g" % (cells, low, high, area))
print("  2. refinement cells with Size > %.4g (1.25 x the mean) refined: %d cells" % (threshold, refined_cells))
print("  3. smoothing  %s" % smoothing)
print("  4. sizes      %d cells, Size %.4g .. %.4g, total %.6g" % (final_cells, final_low, final_high, final_area))
for stem, proxy in (("refined", refined), ("final", last)):
    print("  written: %s" % gpumesh_plugin.save(proxy, folder, "pipeline_" + stem))

limit = max(threshold, high / 2)
problems = []
if abs(refined_area - area) > 1e-6 * area:
    problems.append("the refinement changed the total area: %.9g -> %.9g" % (area, refined_area))
if refined_high > limit * (1 + 1e-6):
    problems.append("a refined cell has Size %.6g > max(threshold, largest / 2) = %.6g" % (refined_high, limit))
if refined_cells <= cells:
    problems.append("the refinement created no cell")
if problems:
    raise SystemExit("check failed: " + "; ".join(problems))
print("  check: the refinement kept the total area; largest cell %.4g <= max(threshold, %.4g / 2)" % (refined_high, high))
