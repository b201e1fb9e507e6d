"""GPU Cell Reduction against what a ParaView user would run instead: Cell Size
(vtkCellSizeFilter) followed by a Python Calculator-style numpy reduction. Filter execution
times (UpdatePipeline, no delivery to a client), one run each, same mesh, after a warm-up of
each path on a small mesh.

    VTK_SMP_BACKEND_IN_USE=STDThread pvpython testing/benchmark/bench_cell_reduction.py [clscale]
"""
import os
import sys
import time

import numpy as np
from paraview import servermanager, simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
import benchmark_meshes  # noqa: E402
import gpumesh_plugin  # noqa: E402


def cell_size_and_reduce(source):
    """ParaView's Cell Size, then min/max/sum/mean/L2 of the volumes with numpy."""
    sizes = simple.CellSize(Input=source)
    sizes.ComputeVertexCount = 0
    sizes.ComputeLength = 0
    sizes.ComputeArea = 0
    sizes.ComputeVolume = 1
    sizes.UpdatePipeline()
    volume = np.asarray(dsa.WrapDataObject(sizes.GetClientSideObject().GetOutput()).CellData["Volume"])
    return volume.min(), volume.max(), volume.sum(), volume.mean(), np.sqrt((volume ** 2).sum())


def main():
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3
    path = benchmark_meshes.gmsh_mesh("ball_tets", 3, "tetra", scale)
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    gpumesh_plugin.load(globals())

    small = simple.XMLUnstructuredGridReader(FileName=[os.path.join(gpumesh_plugin.DATA, "ball_tets.vtu")])
    GPUCellReduction(Input=small, Quantity="Volume").UpdatePipeline()  # noqa: F821 compiles kernels
    cell_size_and_reduce(small)

    source = simple.TrivialProducer()
    source.GetClientSideObject().SetOutput(grid)
    start = time.perf_counter()
    gpu = GPUCellReduction(Input=source, Quantity="Volume")  # noqa: F821
    gpu.UpdatePipeline()
    gpu_seconds = time.perf_counter() - start
    result = servermanager.Fetch(gpu)
    fields = result.GetFieldData()
    gpu_sum = fields.GetArray("Sum").GetValue(0)

    start = time.perf_counter()
    reference = cell_size_and_reduce(source)
    cpu_seconds = time.perf_counter() - start

    print("mesh: %s, %d tetrahedra, %d points" % (os.path.basename(path), grid.GetNumberOfCells(), grid.GetNumberOfPoints()))
    print("GPUMesh GPU Cell Reduction on %s: %.3f s (kernels %.2f ms)" % (
        fields.GetAbstractArray("Device").GetValue(0), gpu_seconds, fields.GetArray("KernelTimeMs").GetValue(0)))
    print("Cell Size + numpy reduction: %.3f s" % cpu_seconds)
    print("ratio: %.1fx; volume sums %.9g (GPU) and %.9g (double), relative difference %.2g" % (
        cpu_seconds / gpu_seconds, gpu_sum, reference[2], abs(gpu_sum - reference[2]) / reference[2]))


main()
