"""GPU Mesh Kernel: three loops written by the user, the rest generated (GMlib v3's idea).

    pvpython examples/mesh_kernel.py [--mesh data/plate_with_holes.vtu] [--iterations 10]
                                     [--device auto] [--out folder] [--show-source]

1. per cell, the smallest angle of each triangle or quad (a quality measure), reduced to Min;
2. per cell, the barycentre (a scatter), then per point the relaxation of the point towards
   the mean of the barycentres of its cells (the gather): seed 001's scatter/gather pair;
3. per point, a Laplacian smoothing written in four lines, iterated on the device.
Prints what each found and writes the smoothed mesh with the quality array.
"""
import argparse
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

SMALLEST_ANGLE = """// the smallest corner angle of the cell, in degrees
REAL smallest = INFINITY;
for (int k = 0; k < point_count; ++k) {
  const REAL3 a = points_x((k + 1) % point_count) - points_x(k);
  const REAL3 b = points_x((k + point_count - 1) % point_count) - points_x(k);
  smallest = fmin(smallest, acos(clamp(dot(a, b) / (length(a) * length(b)), (REAL)-1, (REAL)1)));
}
result = degrees(smallest);"""

BARYCENTRE = """for (int k = 0; k < point_count; ++k)
  result += points_x(k);
result /= point_count;"""

RELAX_TOWARDS_BARYCENTRES = """REAL3 mean = 0;
for (int k = 0; k < cell_count; ++k)
  mean += cells_Barycentre(k);
result = 0.8 * x + 0.2 * mean / cell_count;"""

LAPLACIAN = """REAL3 mean = 0;
for (int k = 0; k < neighbour_count; ++k)
  mean += neighbours_x(k);
result = x + 0.5 * (mean / neighbour_count - x);"""

parser = argparse.ArgumentParser(description="GPU Mesh Kernel: user-written loops over points and cells")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "plate_with_holes.vtu"))
parser.add_argument("--iterations", type=int, default=10, help="Laplacian iterations (kernel 3)")
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/mesh_kernel)")
parser.add_argument("--show-source", action="store_true", help="print the program generated for kernel 3")
args = parser.parse_args()

gpumesh_plugin.load(globals())
mesh = OpenDataFile(args.mesh)

quality = GPUMeshKernel(Input=mesh, Domain="Cells", Kernel=SMALLEST_ANGLE, ResultArrayName="MinAngle",
                        Reduction="Min", Device=args.device)
result = gpumesh_plugin.fetch(quality, "GPU Mesh Kernel (smallest angle)")
print("1. smallest angle of %d cells of %s on %s: %.3f degrees at worst (compiled: %s)" % (
    result.GetNumberOfCells(), os.path.basename(args.mesh), gpumesh_plugin.field(result, "Device"),
    gpumesh_plugin.field(result, "MinAngle_Min"), bool(gpumesh_plugin.field(result, "KernelCompiled"))))

scatter = GPUMeshKernel(Input=quality, Domain="Cells", Kernel=BARYCENTRE, ResultArrayName="Barycentre",
                        ResultComponents=3, Device=args.device)
gather = GPUMeshKernel(Input=scatter, Kernel=RELAX_TOWARDS_BARYCENTRES, ResultArrayName="Points",
                       ResultComponents=3, InputArrays=["Barycentre"], Device=args.device)
relaxed = gpumesh_plugin.fetch(gather, "GPU Mesh Kernel (scatter/gather)")
print("2. relaxed towards the cell barycentres: %d points, %.3f ms of kernels" % (
    relaxed.GetNumberOfPoints(), gpumesh_plugin.field(relaxed, "KernelTimeMs")))

smoothing = GPUMeshKernel(Input=gather, Kernel=LAPLACIAN, ResultArrayName="Points", ResultComponents=3,
                          Iterations=args.iterations, Device=args.device)
smoothed = gpumesh_plugin.fetch(smoothing, "GPU Mesh Kernel (Laplacian)")
print("3. %d Laplacian iterations written as a kernel: %.3f ms of kernels (%s)" % (
    args.iterations, gpumesh_plugin.field(smoothed, "KernelTimeMs_mesh_kernel"),
    "compiled" if gpumesh_plugin.field(smoothed, "KernelCompiled") else "from the cache"))
if args.show_source:
    print(gpumesh_plugin.field(smoothed, "GeneratedSource"))
print("written:", gpumesh_plugin.save(smoothing, gpumesh_plugin.output_folder(args.out, "mesh_kernel"), "mesh_kernel"))
