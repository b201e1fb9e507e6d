"""GPU Cell Reduction: the size of every cell of a mesh and its Min, Max, Sum, Mean and L2.

    pvpython examples/cell_reduction.py [--mesh data/ball_tets.vtu] [--quantity Volume]
                                        [--device auto] [--out folder]

Prints the reduction (field data) and writes the mesh with its per-cell array.
"""
import argparse
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

parser = argparse.ArgumentParser(description="GPU Cell Reduction of a .vtu/.vtp mesh")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "ball_tets.vtu"))
parser.add_argument("--quantity", default="Volume", choices=["Size", "Area", "Volume", "Length"])
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/cell_reduction)")
args = parser.parse_args()

gpumesh_plugin.load(globals())
mesh = OpenDataFile(args.mesh)
reduction = GPUCellReduction(Input=mesh, Quantity=args.quantity, Device=args.device)
result = gpumesh_plugin.fetch(reduction, "GPU Cell Reduction")

print("GPU Cell Reduction of %s (%s) on %s" % (os.path.basename(args.mesh), args.quantity,
                                                gpumesh_plugin.field(result, "Device")))
for name in ("Count", "Min", "Max", "Sum", "Mean", "L2", "KernelTimeMs"):
    print("  %-12s %.6g" % (name, gpumesh_plugin.field(result, name)))
print("  per-cell array %r: %d values" % (args.quantity, len(gpumesh_plugin.cell_values(result, args.quantity))))
print("written:", gpumesh_plugin.save(reduction, gpumesh_plugin.output_folder(args.out, "cell_reduction"),
                                      "cell_reduction"))
