"""GPU Neighbor Distance: for each cell, the distances from its centroid to the centroids of
the cells sharing a face (3D) or an edge (2D) with it.

    pvpython examples/neighbor_distance.py [--mesh data/ball_tets.vtu] [--centroids]
                                           [--device auto] [--out folder]

Prints how many neighbours the cells have and the spread of the distances; writes the mesh
with MinNeighborDistance, MaxNeighborDistance, MeanNeighborDistance and NeighborCount.
"""
import argparse
import collections
import math
import os

from paraview.simple import *  # noqa: F401,F403 (the style of a pvpython script)

import gpumesh_plugin

parser = argparse.ArgumentParser(description="GPU Neighbor Distance of a .vtu/.vtp mesh")
parser.add_argument("--mesh", default=os.path.join(gpumesh_plugin.DATA, "ball_tets.vtu"))
parser.add_argument("--centroids", action="store_true", help="also output the cell array Centroid")
parser.add_argument("--device", default="auto", help="auto, an index, or part of a device name")
parser.add_argument("--out", help="output folder (default build/examples-output/neighbor_distance)")
args = parser.parse_args()

gpumesh_plugin.load(globals())
mesh = OpenDataFile(args.mesh)
distances = GPUNeighborDistance(Input=mesh, ComputeCentroids=int(args.centroids), Device=args.device)
result = gpumesh_plugin.fetch(distances, "GPU Neighbor Distance")

counts = collections.Counter(int(c) for c in gpumesh_plugin.cell_values(result, "NeighborCount"))
means = [d for d in gpumesh_plugin.cell_values(result, "MeanNeighborDistance") if not math.isnan(d)]
print("GPU Neighbor Distance of %s on %s (%.3f ms of kernels)" % (
    os.path.basename(args.mesh), gpumesh_plugin.field(result, "Device"), gpumesh_plugin.field(result, "KernelTimeMs")))
print("  cells by number of neighbours:", ", ".join("%d: %d" % (k, counts[k]) for k in sorted(counts)))
if means:
    print("  MeanNeighborDistance: min %.4g, mean %.4g, max %.4g" % (min(means), sum(means) / len(means), max(means)))
if args.centroids:
    print("  Centroid: %d cells" % len(gpumesh_plugin.cell_values(result, "Centroid")))
print("written:", gpumesh_plugin.save(distances, gpumesh_plugin.output_folder(args.out, "neighbor_distance"),
                                      "neighbor_distance"))
