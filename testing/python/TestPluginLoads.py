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
# Fetch returns process 0's piece, whose field data holds the reduction over all processes.
if count != cells:
    sys.exit("Count %d != %d cells" % (count, cells))
