"""Bad input on one process only, under MPI (`mpiexec -np N pvbatch`, N >= 2): a point with a
NaN coordinate, or a cell that refers to a point beyond the piece's points. Neighbor Distance,
Vertex Smoothing and Mesh Kernel build a ghost layer across processes; the bad piece must be
refused before any process enters that exchange, so that every process ends with an error and
an empty output (not a hang, not a crash). With the fault on process 0 its own error (which
this script sees) names the problem; with it on the last process, process 0's names that
process. ctest's time limit fails a hang."""
import sys

from paraview import servermanager
from paraview import simple

import gpumesh_testing as gt

# Each process makes a strip of 8 triangles beside the others'; process `faulty` breaks its own.
PIECE_SCRIPT = """
import math
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import VTK_TRIANGLE
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline
info = self.GetOutputInformation(0)
piece = info.Get(vtkStreamingDemandDrivenPipeline.UPDATE_PIECE_NUMBER())
pieces = info.Get(vtkStreamingDemandDrivenPipeline.UPDATE_NUMBER_OF_PIECES())
output = self.GetOutput()
points = vtkPoints()
for i in range(5):
    for y in (0.0, 1.0):
        points.InsertNextPoint(4 * piece + i, y, 0.0)
fault = {fault!r} if piece == {faulty} % pieces else None
if fault == "nan":
    points.SetPoint(3, math.nan, 1.0, 0.0)
output.SetPoints(points)
output.Allocate(8)
for i in range(4):
    a, b, c, d = 2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1
    output.InsertNextCell(VTK_TRIANGLE, 3, [a, b, c])
    output.InsertNextCell(VTK_TRIANGLE, 3, [a, c, d])
if fault == "bad-id":
    output.InsertNextCell(VTK_TRIANGLE, 3, [0, 1, 10 ** 6])
"""

FILTERS = {
    "Neighbor Distance": lambda source: simple.GPUNeighborDistance(Input=source),
    "Vertex Smoothing": lambda source: simple.GPUVertexSmoothing(Input=source, Iterations=3),
    "Mesh Kernel": lambda source: simple.GPUMeshKernel(Input=source, Domain="Cells", Kernel="result = 1;",
                                                       ResultArrayName="One"),
}
# What the faulty process says.
EXPECTED = {"nan": "non-finite coordinate", "bad-id": "refers to point 1000000"}

gt.load_plugin()
ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
if ranks < 2:
    sys.exit("run under mpiexec -np N pvbatch with N >= 2 (found %d processes)" % ranks)
last = ranks - 1
failures = []
for faulty in (last, 0):
    for fault, message in EXPECTED.items():
        expected = message if faulty == 0 else "Process %d failed" % last
        for name, make in FILTERS.items():
            source = simple.ProgrammableSource(OutputDataSetType="vtkPolyData",
                                               Script=PIECE_SCRIPT.format(fault=fault, faulty=faulty))
            proxy = make(source)
            with gt.CapturedErrors() as errors:
                proxy.UpdatePipeline()
                cells = [servermanager.Fetch(proxy, rank).GetNumberOfCells() for rank in range(ranks)]
            text = errors.text.strip()
            print("%s, %s on process %d of %d: cells %s, process 0 says: %s"
                  % (name, fault, faulty, ranks, cells, text[:200]))
            if any(cells):
                failures.append("%s, %s on %d: output cells %s, expected none on any process"
                                % (name, fault, faulty, cells))
            if expected not in text:
                failures.append("%s, %s on %d: process 0's error lacks %r: %r"
                                % (name, fault, faulty, expected, text[:300]))

# The same pipeline without a fault still runs: nothing was left waiting.
source = simple.ProgrammableSource(OutputDataSetType="vtkPolyData", Script=PIECE_SCRIPT.format(fault=None, faulty=0))
distances = simple.GPUNeighborDistance(Input=source)
with gt.CapturedErrors() as errors:
    distances.UpdatePipeline()
    cells = [servermanager.Fetch(distances, rank).GetNumberOfCells() for rank in range(ranks)]
print("no fault: cells %s%s" % (cells, ", errors: " + errors.text.strip()[:200] if errors.text.strip() else ""))
if cells != [8] * ranks or errors.text.strip():
    failures.append("a good run afterwards gave cells %s and errors %r" % (cells, errors.text.strip()[:300]))

if failures:
    sys.exit("\n".join(failures))
