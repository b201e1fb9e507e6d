"""GMF under pvbatch and MPI: the reader gives the whole mesh once (on the first process), and
the writer gathers the pieces of a distributed mesh into one file."""
import os
import sys
import tempfile

from paraview import servermanager
from paraview import simple

import gpumesh_testing as gt

gt.load_plugin()
controller = servermanager.vtkProcessModule.GetProcessModule().GetGlobalController()
rank, ranks = controller.GetLocalProcessId(), controller.GetNumberOfProcesses()

mesh = gt.data_path(os.path.join("gmf", "every_kind.mesh"))
reader = simple.GMFMeshReader(FileName=mesh)
reader.UpdatePipeline()
cells = reader.GetDataInformation().GetNumberOfCells()
if cells != 13:
    sys.exit("the reader gave %d cells over %d processes, every_kind.mesh has 13" % (cells, ranks))

sphere = simple.Sphere(ThetaResolution=32, PhiResolution=32)
sphere.UpdatePipeline()
total = sphere.GetDataInformation().GetNumberOfCells()
directory = tempfile.gettempdir() if ranks == 1 else "/tmp"
path = os.path.join(directory, "gpumesh-gmf-parallel-%d.meshb" % os.getppid())
simple.SaveData(path, proxy=sphere)
back = simple.GMFMeshReader(FileName=path)
back.UpdatePipeline()
written = back.GetDataInformation().GetNumberOfCells()
print("ranks=%d sphere cells=%d written=%d" % (ranks, total, written))
if rank == 0:
    for name in (path, path.replace(".meshb", ".solb")):
        if os.path.exists(name):
            os.remove(name)
if written != total:
    sys.exit("wrote %d cells of the %d of the distributed sphere" % (written, total))
