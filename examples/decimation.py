"""GPU Decimation: quadric edge collapse of a triangle surface on the device (as ParaView's
Quadric Decimation), in parallel rounds of independent collapses.

    pvpython examples/decimation.py [--mesh data/sphere_surface.vtu] [--reduction 0.9]
        [--preserve-boundary] [--preserve-features] [--feature-angle 30] [--device auto] [--out folder]

Prints the triangles in and out, the rounds and the largest quadric error; writes the decimated
surface with vtkOriginalPointIds and vtkOriginalCellIds.
"""
import argparse
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

parser = argparse.ArgumentParser(description="GPU Decimation of a .vtu/.vtp/.stl triangle surface")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "sphere_surface.vtu"))
parser.add_argument("--reduction", type=float, default=0.9, help="fraction of the triangles to remove")
parser.add_argument("--preserve-boundary", action="store_true")
parser.add_argument("--preserve-features", action="store_true")
parser.add_argument("--feature-angle", type=float, default=30.0)
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/decimation)")
args = parser.parse_args()

gpumesh_plugin.load(globals())
mesh = OpenDataFile(args.mesh)
decimated = GPUDecimation(Input=mesh, TargetReduction=args.reduction, PreserveBoundary=int(args.preserve_boundary),
                          PreserveFeatures=int(args.preserve_features), FeatureAngle=args.feature_angle,
                          PassThroughPointIds=1, PassThroughCellIds=1, Device=args.device)
result = gpumesh_plugin.fetch(decimated, "GPU Decimation")
print("GPU Decimation of %s on %s (%.3f ms of kernels): %d -> %d triangles (reduction %.4f) in %d rounds, "
      "largest quadric error %.3g" % (
          os.path.basename(args.mesh), gpumesh_plugin.field(result, "Device"),
          gpumesh_plugin.field(result, "KernelTimeMs"), gpumesh_plugin.field(result, "TrianglesIn"),
          gpumesh_plugin.field(result, "TrianglesOut"), gpumesh_plugin.field(result, "AchievedReduction"),
          gpumesh_plugin.field(result, "Rounds"), gpumesh_plugin.field(result, "LargestQuadricError")))
print("written:", gpumesh_plugin.save(decimated, gpumesh_plugin.output_folder(args.out, "decimation"), "decimation"))
