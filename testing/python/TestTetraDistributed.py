"""Under MPI, tetrahedra are refused with a clear error (the closure does not cross processes
for tetrahedra yet), never refined piece by piece into a torn mesh. Run with
mpiexec -np 2 pvbatch (the script runs on process 0; the pieces live on all)."""
import sys

from paraview import servermanager, simple

import gpumesh_testing as gt

gt.load_plugin()
ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
assert ranks > 1, "run under MPI with at least 2 processes"

reader = simple.XMLUnstructuredGridReader(FileName=[gt.data_path("ball_tets.vtu")])
pieces = simple.RedistributeDataSet(Input=reader)
refined = simple.GPULongestEdgeRefinement(Input=pieces, RefineAll=1)
with gt.CapturedErrors() as errors:
    refined.UpdatePipeline()
    cells = [servermanager.Fetch(refined, rank).GetNumberOfCells() for rank in range(ranks)]
expected = "refines tetrahedra on one process only"
if expected not in errors.text or any(cells):
    print("expected an error containing %r and no cells; got cells %s and: %s" % (expected, cells, errors.text))
    sys.exit(1)
print("refused as expected on %d processes" % ranks)
