"""GPU Longest Edge Refinement under MPI (2 processes) breaks ties between edges of one length by
global point ids, and uploads them only where they do not increase with the piece's point ids.
Whether an input's ids increase is remembered for its array until the array is modified, so a
re-execution (a property change) does not look at them again; ids changed in place (and marked
Modified(), as VTK requires) are looked at again.

Each process makes one half of a grid of squares cut into triangles (all of a row's triangles
alike: ties everywhere), with global point ids that increase with its point ids. Runs:
  1. the refinement, then a property change and back (a re-execution): uploads B;
  2. the ids reversed in place on both processes (id -> last - id, still one numbering of the
     whole mesh), then a property change and back: must upload B plus the tie ids (8 bytes a
     point, in place of one placeholder value), and give the cells of a new filter on the same
     input.
"""
import sys

from paraview import servermanager
from paraview import simple

import gpumesh_testing as gt

N = 12
PIECE_SCRIPT = """
import gpumesh_slab_pieces as pieces
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline
piece = self.GetOutputInformation(0).Get(vtkStreamingDemandDrivenPipeline.UPDATE_PIECE_NUMBER())
n = {n}
first, last = [(0, n // 2), (n // 2, n)][piece]
self.GetOutput().ShallowCopy(pieces.grid_rows(n, first, last))
"""
# Reverses the source's global ids in place on this process (the source does not execute
# again) and reports how many it changed.
REVERSE_SCRIPT = """
from vtkmodules.vtkCommonCore import vtkIntArray
data = self.GetInputDataObject(0, 0)
ids = data.GetPointData().GetGlobalIds()
for p in range(ids.GetNumberOfTuples()):
    ids.SetValue(p, {last} - ids.GetValue(p))
ids.Modified()
data.Modified()
count = vtkIntArray()
count.SetName("ReversedIds")
count.InsertNextValue(ids.GetNumberOfTuples())
self.GetOutput().GetFieldData().AddArray(count)
"""


def reexecuted(refined, ranks):
    """BytesUploaded per process after a property change and back (the second execution is the
    one measured), and the cells of each piece by their rounded centroids."""
    refined.Passes = 2
    refined.UpdatePipeline()
    refined.Passes = 1
    refined.UpdatePipeline()
    return gt.field_per_process(refined, "BytesUploaded", ranks), cells_of(refined, ranks)


def cells_of(proxy, ranks):
    cells = []
    for rank in range(ranks):
        piece = servermanager.Fetch(proxy, rank)
        xyz = piece.GetPoints().GetData() if piece.GetPoints() else None
        for c in range(piece.GetNumberOfCells()):
            corners = piece.GetCell(c).GetPointIds()
            key = []
            for axis in range(2):
                total = 0.0
                for k in range(corners.GetNumberOfIds()):
                    total += xyz.GetTuple3(corners.GetId(k))[axis]
                key.append(round(total / corners.GetNumberOfIds(), 9))
            cells.append(tuple(key))
    return sorted(cells)


# The Programmable Source's and Filter's scripts run in this script's namespace (pvbatch's
# __main__): the test's own names are kept inside main().
def main():
    ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    if ranks != 2:
        return ["run under mpiexec -np 2 pvbatch (found %d processes)" % ranks]
    failures = []
    source = simple.ProgrammableSource(OutputDataSetType="vtkPolyData", Script=PIECE_SCRIPT.format(n=N))
    source.UpdatePipeline()
    counts = [servermanager.Fetch(source, rank).GetNumberOfPoints() for rank in range(ranks)]
    refined = simple.GPULongestEdgeRefinement(Input=source, RefineAll=1)
    with gt.CapturedErrors() as errors:
        refined.UpdatePipeline()
        increasing, _ = reexecuted(refined, ranks)
        reverser = simple.ProgrammableFilter(Input=source, OutputDataSetType="vtkPolyData",
                                             Script=REVERSE_SCRIPT.format(last=(N + 1) * (N + 1) - 1))
        reverser.UpdatePipeline()
        reversed_counts = gt.field_per_process(reverser, "ReversedIds", ranks)
        reversed_bytes, reversed_cells = reexecuted(refined, ranks)
        fresh = simple.GPULongestEdgeRefinement(Input=source, RefineAll=1)
        fresh.UpdatePipeline()
        fresh_cells = cells_of(fresh, ranks)
    if errors.text.strip():
        failures.append("errors: " + errors.text.strip()[:400])
    if reversed_counts != counts:
        failures.append("ids reversed per process %s, expected %s" % (reversed_counts, counts))
    extra = [r - i for r, i in zip(reversed_bytes, increasing)]
    expected = [8 * (c - 1) for c in counts]
    print("bytes uploaded per process: increasing ids %s, reversed in place %s (expected %s more)"
          % (increasing, reversed_bytes, expected))
    if extra != expected:
        failures.append("re-executed after the ids were reversed in place, the processes uploaded %s bytes more "
                        "than with increasing ids, expected %s (the tie ids)" % (extra, expected))
    if len(reversed_cells) <= 2 * N * N:
        failures.append("the mesh refined to only %d cells" % len(reversed_cells))
    if reversed_cells != fresh_cells:
        failures.append("the re-execution after the ids were reversed gave other cells than a new filter on them")
    return failures


gt.load_plugin()
problems = main()
if problems:
    sys.exit("\n".join(problems))
print("tie ids: uploaded once the ids were reversed in place; the cells of a new filter")
