"""A filter's device mesh stays on the device between executions on an unchanged input
(vtkGPUMeshKeptMesh): a property change does not send the mesh again, nor does a second filter
on the same input, and a change of the points or the cells (with Modified(), as VTK requires)
does, with results equal to a fresh computation on a copy of the changed mesh. GPU Longest Edge
Refinement, which modifies its mesh, refines a device copy of the kept one: the same holds for
it, and the kept mesh it leaves behind is the input's still.

    pvpython TestKeptMesh.py
"""
import sys

import numpy as np
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.util import numpy_support as ns
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


def refined(result):
    """What a refinement's output is: its points, cells and cell arrays (not its field data,
    which holds the run's report)."""
    cells = result.GetCells()
    arrays = result.GetCellData()
    return {
        "points": ns.vtk_to_numpy(result.GetPoints().GetData()).copy(),
        "offsets": ns.vtk_to_numpy(cells.GetOffsetsArray()).copy(),
        "connectivity": ns.vtk_to_numpy(cells.GetConnectivityArray()).copy(),
        "types": ns.vtk_to_numpy(result.GetCellTypesArray()).copy(),
        "cell arrays": {arrays.GetArrayName(i): ns.vtk_to_numpy(arrays.GetArray(i)).copy()
                        for i in range(arrays.GetNumberOfArrays())},
    }


def fresh_refinement(grid, **properties):
    """The refinement of a deep copy: another dataset, so a mesh of its own on the device."""
    copy_source = gt.producer(copy_of(grid))
    refinement = simple.GPULongestEdgeRefinement(Input=copy_source, **properties)
    result = gt.fetch(refinement)
    simple.Delete(refinement)
    simple.Delete(copy_source)
    return refined(result)


def same_refinement(result, reference, what):
    values = refined(result)
    for key in ("points", "offsets", "connectivity", "types"):
        check(values[key].shape == reference[key].shape and np.array_equal(values[key], reference[key]),
              "%s: the output's %s differ from a fresh refinement's" % (what, key))
    check(sorted(values["cell arrays"]) == sorted(reference["cell arrays"]),
          "%s: cell arrays %s, a fresh refinement's %s" % (what, sorted(values["cell arrays"]),
                                                          sorted(reference["cell arrays"])))
    for name, array in reference["cell arrays"].items():
        check(name in values["cell arrays"] and np.array_equal(values["cell arrays"][name], array),
              "%s: cell array %s differs from a fresh refinement's" % (what, name))


def check_refinement(name):
    grid = gt.read_vtu(name)
    cells = grid.GetNumberOfCells()
    # Marks spread over the mesh; the mark array is read by every execution (not the mesh).
    marks = (np.arange(cells) * 7919 % 1000) / 1000.0
    dsa.WrapDataObject(grid).CellData.append(marks, "Marks")
    properties = {"MarkArray": ["CELLS", "Marks"], "MarkThreshold": 0.9, "Passes": 1}
    refinement_source = gt.producer(grid)
    refinement = simple.GPULongestEdgeRefinement(Input=refinement_source, **properties)

    def execute(what, reference_properties):
        result = gt.fetch(refinement)
        same_refinement(result, fresh_refinement(grid, **reference_properties), "%s, %s" % (name, what))
        return result, mesh_bytes(result) - marks.nbytes

    first, sent = execute("first execution", properties)
    check(sent > 0, "%s: the refinement's first execution sent no mesh" % name)
    check(first.GetNumberOfCells() > cells, "%s: the first execution refined nothing" % name)

    # Property changes: the same mesh, not sent again, and refined from the input as it is (the
    # kept mesh left as it was by the executions before).
    for change in ({"MarkThreshold": 0.6}, {"Passes": 2}, {"MarkThreshold": 0.9, "Passes": 1}):
        for key, value in change.items():
            setattr(refinement, key, value)
        properties.update(change)
        result, again = execute("after %s" % change, properties)
        check(again < sent / 10, "%s: %s sent %d bytes of mesh again (first: %d)" % (name, change, again, sent))
        if change == {"MarkThreshold": 0.6}:
            check(result.GetNumberOfCells() > first.GetNumberOfCells(), "%s: the lower threshold refined no more" % name)

    # Another filter on the same input: the kept mesh the refinements shared is the input's.
    nd = simple.GPUNeighborDistance(Input=refinement_source)
    distances_after = gt.fetch(nd)
    check(mesh_bytes(distances_after) < sent / 10,
          "%s: Neighbor Distance after the refinement sent %d bytes" % (name, mesh_bytes(distances_after)))
    same(distances(distances_after), fresh_distances(grid), "%s: Neighbor Distance after the refinement" % name)
    simple.Delete(nd)

    # Points moved in place: the mesh goes up again, and the output follows.
    dsa.WrapDataObject(grid).Points[:, 1] *= 1.7
    grid.GetPoints().GetData().Modified()
    refinement_source.GetClientSideObject().Modified()
    moved, resent = execute("after the points moved", properties)
    check(resent >= sent / 2, "%s: moved points: only %d bytes sent (first: %d)" % (name, resent, sent))
    check(not np.array_equal(refined(moved)["points"], refined(first)["points"]),
          "%s: the output's points did not move" % name)
    simple.Delete(refinement)
    simple.Delete(refinement_source)


check_refinement("sphere_surface.vtu")
check_refinement("ball_tets.vtu")
if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("kept meshes: OK")
