"""Under MPI, filters on one input share its kept device mesh: GPU Neighbor Distance builds its
ghosted piece around the input's mesh kept on the device (with the global bounds' centre as the
origin of its description), and GPU Cell Reduction on the same input then reads no mesh again on
any process. With float points the origin plays no part and Cell Reduction does not compute it
(no pass over the points); with double points in Single precision both filters round relative
to the same global centre. A Cell Reduction on another input (a copy) reads its whole mesh: what
this measures can fail.

    GPUMESH_GHOST_LAYER_ON_DEVICE=1 mpiexec -np 2 pvbatch TestDistributedKeptMeshShared.py
"""
import sys

from paraview import servermanager
from paraview import simple

import gpumesh_testing as gt

# Each process makes its own slab of one triangulated plane: x in [rank, rank + 1], the points
# of x = rank + 1 shared with the next slab, float or double.
PIECE_SCRIPT = """
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline
from vtkmodules.vtkFiltersCore import vtkTriangleFilter
from vtkmodules.vtkFiltersSources import vtkPlaneSource
rank = self.GetOutputInformation(0).Get(vtkStreamingDemandDrivenPipeline.UPDATE_PIECE_NUMBER())
plane = vtkPlaneSource()
plane.SetOrigin(rank, 0.0, 0.0)
plane.SetPoint1(rank + 1.0, 0.0, 0.0)
plane.SetPoint2(rank, 2.0, 0.0)
plane.SetResolution(40, 80)
plane.SetOutputPointsPrecision({precision})
triangles = vtkTriangleFilter()
triangles.SetInputConnection(plane.GetOutputPort())
triangles.Update()
self.GetOutput().ShallowCopy(triangles.GetOutput())
"""


# The scripts of Programmable Sources run in pvbatch's __main__ namespace, this script's: they
# import vtkmodules.numpy_interface.algorithms there, whose sum, min, max... replace the builtins
# here. Do not use those names.
def mesh_bytes(proxy, ranks):
    """What each process moved to the device or read where it was."""
    uploaded = gt.field_per_process(proxy, "BytesUploaded", ranks)
    in_place = gt.field_per_process(proxy, "BytesReadInPlace", ranks)
    if None in uploaded or None in in_place:
        raise AssertionError("BytesUploaded or BytesReadInPlace missing on a process: %s, %s" % (uploaded, in_place))
    return [u + p for u, p in zip(uploaded, in_place)]


def main():
    gt.load_plugin()
    ranks = servermanager.vtkProcessModule.GetProcessModule().GetNumberOfLocalPartitions()
    if ranks < 2:
        return ["run under mpiexec with 2 or more processes (found %d)" % ranks]
    failures = []
    for precision, name in ((0, "float"), (1, "double")):  # vtkAlgorithm::SINGLE/DOUBLE_PRECISION
        source = simple.ProgrammableSource(OutputDataSetType="vtkPolyData",
                                           Script=PIECE_SCRIPT.format(precision=precision))
        distances = simple.GPUNeighborDistance(Input=source)
        distances.UpdatePipeline()
        reduction = simple.GPUCellReduction(Input=source)
        reduction.UpdatePipeline()
        shared = mesh_bytes(reduction, ranks)
        # The same slabs as another dataset: nothing kept for it.
        copy = simple.PassArrays(Input=source)
        alone = simple.GPUCellReduction(Input=copy)
        alone.UpdatePipeline()
        whole = mesh_bytes(alone, ranks)
        cells = 0
        for rank in range(ranks):
            cells += servermanager.Fetch(reduction, rank).GetNumberOfCells()
        print("%s points: Cell Reduction after Neighbor Distance read %s bytes per process, on a copy %s; "
              "%d cells in all" % (name, shared, whole, cells))
        for rank in range(ranks):
            if not whole[rank] > 0 or not shared[rank] * 10 < whole[rank]:
                failures.append("%s points, process %d: Cell Reduction read %d bytes after Neighbor Distance on "
                                "the same input, %d on a copy: the kept mesh was not shared"
                                % (name, rank, shared[rank], whole[rank]))
        if cells != ranks * 40 * 80 * 2:
            failures.append("%s points: %d cells in all, expected %d" % (name, cells, ranks * 40 * 80 * 2))
        for proxy in (alone, copy, reduction, distances, source):
            simple.Delete(proxy)
    return failures


# Only a failure exits: pvbatch ends its other processes itself after the script.
problems = main()
if problems:
    sys.exit("\n".join(problems))
