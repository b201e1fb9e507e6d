"""A filter's device mesh stays on the device between executions on an unchanged input
(vtkGPUMeshKeptMesh): a property change does not send the mesh again, nor does a second filter
on the same input, and a change of the points or the cells (with Modified(), as VTK requires)
does, with results equal to a fresh computation on a copy of the changed mesh.

    pvpython TestKeptMesh.py
"""
import sys

import numpy as np
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonDataModel import vtkUnstructuredGrid

import gpumesh_testing as gt

DISTANCES = ("MinNeighborDistance", "MaxNeighborDistance", "MeanNeighborDistance")
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)


def mesh_bytes(result):
    """What the run moved to the device or read where it was: the mesh and any array."""
    return gt.field_value(result, "BytesUploaded") + gt.field_value(result, "BytesReadInPlace")


def copy_of(grid):
    copy = vtkUnstructuredGrid()
    copy.DeepCopy(grid)
    return copy


def distances(result):
    return {name: gt.cell_array(result, name) for name in DISTANCES}


def fresh_distances(grid):
    """Neighbor Distance on a deep copy: another dataset, so a mesh of its own on the device."""
    source = gt.producer(copy_of(grid))
    nd = simple.GPUNeighborDistance(Input=source)
    result = gt.fetch(nd)
    simple.Delete(nd)
    simple.Delete(source)
    return distances(result)


def same(values, reference, what):
    for name in DISTANCES:
        check(np.array_equal(values[name], reference[name]), "%s: %s differs from a fresh computation" % (what, name))


gt.load_plugin()
grid = gt.read_vtu("ball_tets.vtu")
source = gt.producer(grid)
nd = simple.GPUNeighborDistance(Input=source, ComputeCentroids=0)
first = gt.fetch(nd)
sent = mesh_bytes(first)
check(sent > 0, "the first execution sent no mesh")
same(distances(first), fresh_distances(grid), "first execution")

# A property change: the same mesh, not sent again.
nd.ComputeCentroids = 1
second = gt.fetch(nd)
check(mesh_bytes(second) < sent / 10, "a property change sent %d bytes again (first: %d)" % (mesh_bytes(second), sent))
check(gt.cell_array_vectors(second, "Centroid").shape == (grid.GetNumberOfCells(), 3), "no centroids after the change")
same(distances(second), fresh_distances(grid), "after a property change")

# A second filter on the same input shares the mesh.
reduction = simple.GPUCellReduction(Input=source)
reduced = gt.fetch(reduction)
check(mesh_bytes(reduced) < sent / 10, "a second filter on the same input sent %d bytes" % mesh_bytes(reduced))
simple.Delete(reduction)

# Points moved in place: the mesh goes up again, and the distances follow.
points = dsa.WrapDataObject(grid).Points
points[:, 0] *= 1.5
grid.GetPoints().GetData().Modified()
source.GetClientSideObject().Modified()
moved = gt.fetch(nd)
check(mesh_bytes(moved) >= sent / 2, "moved points: only %d bytes sent (first: %d)" % (mesh_bytes(moved), sent))
same(distances(moved), fresh_distances(grid), "after the points moved")
check(not np.array_equal(distances(moved)["MaxNeighborDistance"], distances(second)["MaxNeighborDistance"]),
      "the distances did not change with the points")

# Cells changed in place: cell 0 takes another cell's first point.
connectivity = grid.GetCells().GetConnectivityArray()
last = grid.GetCells().GetOffsetsArray().GetValue(grid.GetNumberOfCells() - 1)
connectivity.SetValue(0, connectivity.GetValue(last))
connectivity.Modified()
source.GetClientSideObject().Modified()
rewired = gt.fetch(nd)
check(mesh_bytes(rewired) >= sent / 2, "changed cells: only %d bytes sent (first: %d)" % (mesh_bytes(rewired), sent))
same(distances(rewired), fresh_distances(grid), "after the cells changed")

simple.Delete(nd)
simple.Delete(source)
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("kept meshes: OK")
