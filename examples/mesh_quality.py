"""GPU Mesh Quality: Verdict's quality measure of every cell, as ParaView's Mesh Quality.

    pvpython examples/mesh_quality.py [--mesh data/ball_tets.vtu] [--tet-measure 'Radius Ratio']
                                      [--triangle-measure 'Radius Ratio'] [--device auto] [--out folder]

Prints the statistics per cell kind (field data, as Mesh Quality writes them: minimum, average,
maximum, variance, count) beside Mesh Quality's, and writes the mesh with its Quality array.
"""
import argparse
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

parser = argparse.ArgumentParser(description="GPU Mesh Quality of a .vtu/.vtp mesh")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "ball_tets.vtu"))
parser.add_argument("--tet-measure", default="Radius Ratio")
parser.add_argument("--triangle-measure", default="Radius Ratio")
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/mesh_quality)")
args = parser.parse_args()

gpumesh_plugin.load(globals())
mesh = OpenDataFile(args.mesh)
settings = dict(TetQualityMeasure=args.tet_measure, TriangleQualityMeasure=args.triangle_measure)
quality = GPUMeshQuality(Input=mesh, Device=args.device, **settings)
result = gpumesh_plugin.fetch(quality, "GPU Mesh Quality")
# The same script with ParaView's own filter: the same properties, the same outputs.
expected = gpumesh_plugin.fetch(MeshQuality(Input=mesh, **settings), "Mesh Quality")

print("GPU Mesh Quality of %s on %s (kernels %.3g ms)" % (
    os.path.basename(args.mesh), gpumesh_plugin.field(result, "Device"), gpumesh_plugin.field(result, "KernelTimeMs")))
for kind in ("Triangle", "Quadrilateral", "Tetrahedron", "Pyramid", "Wedge", "Hexahedron"):
    name = "Mesh %s Quality" % kind
    ours = result.GetFieldData().GetArray(name).GetTuple(0)
    if ours[4] == 0:
        continue
    theirs = expected.GetFieldData().GetArray(name).GetTuple(0)
    print("  %-26s min %.6g  average %.6g  max %.6g  variance %.6g  count %d" % ((name,) + tuple(ours)))
    print("  %-26s min %.6g  average %.6g  max %.6g  variance %.6g  count %d" % (("  (Mesh Quality)",) + tuple(theirs)))
print("written:", gpumesh_plugin.save(quality, gpumesh_plugin.output_folder(args.out, "mesh_quality"),
                                      "mesh_quality"))
