"""GPU Longest Edge Refinement under MPI (2 processes): every process refines the same kind.
Triangles on one process and tetrahedra on the other are an error on both (not a hang, not two
half-refined pieces), and a process without cells follows the others' kind."""
import sys

from paraview import servermanager
from paraview import simple

import gpumesh_testing as gt

# Each process makes its own piece: one triangle, one tetrahedron, or nothing.
PIECE_SCRIPT = """
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import VTK_TETRA, VTK_TRIANGLE
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline
piece = self.GetOutputInformation(0).Get(vtkStreamingDemandDrivenPipeline.UPDATE_PIECE_NUMBER())
kind = {kinds}[piece]
output = self.GetOutput()
points = vtkPoints()
for x, y, z in ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)):
    points.InsertNextPoint(x + 2 * piece, y, z)
output.SetPoints(points)
output.Allocate(1)
if kind == "triangle":
    output.InsertNextCell(VTK_TRIANGLE, 3, [0, 1, 2])
elif kind == "tetra":
    output.InsertNextCell(VTK_TETRA, 4, [0, 1, 2, 3])
"""


def refine(kinds):
    source = simple.ProgrammableSource(OutputDataSetType="vtkUnstructuredGrid",
                                       Script=PIECE_SCRIPT.format(kinds=repr(kinds)))
    refined = simple.GPULongestEdgeRefinement(Input=source, RefineAll=1)
    with gt.CapturedErrors() as errors:
        refined.UpdatePipeline()
        pieces = [servermanager.Fetch(refined, rank) for rank in range(2)]
    return [piece.GetNumberOfCells() for piece in pieces], errors.text


gt.load_plugin()
ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
if ranks != 2:
    sys.exit("run under mpiexec -np 2 pvbatch (found %d processes)" % ranks)
failures = []

cells, errors = refine(["triangle", "tetra"])
print("triangles on process 0, tetrahedra on 1: cells %s, error: %s" % (cells, errors.strip()[:300]))
if cells != [0, 0]:
    failures.append("mixed kinds gave cells %s, expected none on either process" % cells)
if "triangles" not in errors or "tetrahedra" not in errors or "process" not in errors.lower():
    failures.append("mixed kinds: the error does not name both kinds and the processes: %r" % errors[:300])

# One RefineAll pass bisects a lone tetrahedron at its longest edge only once (2 cells), and
# an empty process must run the tetrahedron exchange with the other, not the triangles'.
for kinds, expected in ((["tetra", "none"], [2, 0]), (["none", "tetra"], [0, 2]), (["none", "triangle"], [0, 2])):
    cells, errors = refine(kinds)
    print("%s: cells %s%s" % (kinds, cells, ", errors: " + errors.strip()[:300] if errors.strip() else ""))
    if cells != expected or errors.strip():
        failures.append("%s gave cells %s (expected %s)%s" % (kinds, cells, expected, errors.strip()[:300]))

if failures:
    sys.exit("\n".join(failures))
