"""A filter after GPU Longest Edge Refinement under MPI (2 processes) gives the serial result.

The input carries global point ids. The refined output must not pass them on interpolated (a
new point's id would be the midpoint of two ids, the id of some other point), so GPU Neighbor
Distance after the refinement matches the processes' points by their coordinates and gets the
result of the whole mesh refined and measured on one process. Each output cell is keyed by its
centroid: the split run's cells (both pieces) and the whole run's must be the same cells with
the same NeighborCount and distances."""
import sys

from paraview import servermanager
from paraview import simple

import gpumesh_testing as gt

# A jittered n x n grid of squares cut into triangles, with global point ids; "split": rows
# [0, n/2) on process 0 and [n/2, n) on process 1 (the cut row on both), "whole": every row on
# process 0 and none on process 1.
PIECE_SCRIPT = """
import gpumesh_slab_pieces as pieces
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline
piece = self.GetOutputInformation(0).Get(vtkStreamingDemandDrivenPipeline.UPDATE_PIECE_NUMBER())
n = {n}
rows = {{"split": [(0, n // 2), (n // 2, n)], "whole": [(0, n), (0, 0)]}}["{mode}"][piece]
self.GetOutput().ShallowCopy(pieces.grid_rows(n, rows[0], rows[1], jitter=True))
"""
ARRAYS = ("NeighborCount", "MinNeighborDistance", "MaxNeighborDistance", "MeanNeighborDistance")


def run(mode, n=14):
    """Per output cell (by its centroid, rounded): the Neighbor Distance arrays after refining
    the mode's pieces, and the global point ids the refined pieces still carry (names)."""
    source = simple.ProgrammableSource(OutputDataSetType="vtkPolyData", Script=PIECE_SCRIPT.format(n=n, mode=mode))
    refined = simple.GPULongestEdgeRefinement(Input=source, RefineAll=1)
    measured = simple.GPUNeighborDistance(Input=refined)
    cells = {}
    carried = []
    with gt.CapturedErrors() as errors:
        measured.UpdatePipeline()
        for rank in range(2):
            piece = servermanager.Fetch(refined, rank)
            ids = piece.GetPointData().GetGlobalIds()
            if ids is not None or piece.GetPointData().GetAbstractArray("GlobalPointIds") is not None:
                carried.append(rank)
            result = servermanager.Fetch(measured, rank)
            xyz = result.GetPoints().GetData() if result.GetPoints() else None
            for c in range(result.GetNumberOfCells()):
                corners = result.GetCell(c).GetPointIds()
                centroid = [0.0, 0.0, 0.0]
                for k in range(corners.GetNumberOfIds()):
                    p = xyz.GetTuple3(corners.GetId(k))
                    centroid = [centroid[axis] + p[axis] / corners.GetNumberOfIds() for axis in range(3)]
                key = tuple(float('%.9f' % value) for value in centroid)
                cells[key] = [result.GetCellData().GetArray(name).GetTuple1(c) for name in ARRAYS]
    for proxy in (measured, refined, source):
        simple.Delete(proxy)
    return cells, carried, errors.text


gt.load_plugin()
ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
if ranks != 2:
    sys.exit("run under mpiexec -np 2 pvbatch (found %d processes)" % ranks)
failures = []
whole, whole_carried, whole_errors = run("whole")
split, split_carried, split_errors = run("split")
print("whole: %d cells, split: %d cells" % (len(whole), len(split)))
for mode, carried, errors in (("whole", whole_carried, whole_errors), ("split", split_carried, split_errors)):
    if errors.strip():
        failures.append("%s: errors: %s" % (mode, errors.strip()[:400]))
    if carried:
        failures.append("%s: the refined pieces of processes %s carry global point ids" % (mode, carried))
if len(whole) <= 2 * 14 * 14:
    failures.append("the whole mesh refined to only %d cells" % len(whole))
if set(whole) != set(split):
    failures.append("the split run's cells differ from the whole run's: %d only split, %d only whole" %
                    (len(set(split) - set(whole)), len(set(whole) - set(split))))
def differs(got, expected):
    """The counts unequal, or a distance off by more than 1e-6 of the larger of 1 and itself
    (plain comparisons: the names any, abs and max may be ParaView's array functions here)."""
    if got[0] != expected[0]:
        return True
    for g, e in zip(got[1:], expected[1:]):
        scale = e if e > 1.0 else (-e if e < -1.0 else 1.0)
        if g - e > 1e-6 * scale or e - g > 1e-6 * scale:
            return True
    return False


wrong = [(key, split[key], whole[key]) for key in sorted(set(whole) & set(split)) if differs(split[key], whole[key])]
if wrong:
    failures.append("%d cells differ from the whole run's, e.g. %s" % (len(wrong), wrong[:3]))
if failures:
    sys.exit("\n".join(failures))
