"""The plugin loads and GPU Cell Reduction runs: under pvpython, pvbatch, and MPI pvbatch."""
import sys

from paraview import servermanager
from paraview import simple

import gpumesh_testing as gt

gt.load_plugin()
reader = simple.XMLUnstructuredGridReader(FileName=[gt.data_path("plate_with_holes.vtu")])
reduction = simple.GPUCellReduction(Input=reader)
reduction.UpdatePipeline()
result = servermanager.Fetch(reduction)
count = int(gt.field_value(result, "Count"))
device = gt.field_value(result, "Device")
cells = reader.GetDataInformation().GetNumberOfCells()
ranks = servermanager.vtkProcessModule.GetProcessModule().GetNumberOfLocalPartitions()
print("ranks=%d cells=%d count=%d device=%s" % (ranks, cells, count, device))
# Fetch returns the reduction of rank 0's piece (results on distributed data are a later
# issue), so on one rank Count is every cell and on several it is part of them.
if ranks == 1 and count != cells:
    sys.exit("Count %d != %d cells" % (count, cells))
if not (0 < count <= cells):
    sys.exit("Count %d outside (0, %d]" % (count, cells))
