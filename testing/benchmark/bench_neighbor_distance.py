"""GPU Neighbor Distance end to end against what a ParaView user would write instead: cell
centres from vtkCellCenters and a Python loop over GetCellNeighbors. One run each, same mesh.

    VTK_SMP_BACKEND_IN_USE=STDThread pvpython testing/benchmark/bench_neighbor_distance.py [clscale]
"""
import os
import sys
import time

import numpy as np
from paraview import servermanager, simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonCore import vtkIdList
from vtkmodules.vtkFiltersCore import vtkCellCenters
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
import benchmark_meshes  # noqa: E402
import gpumesh_plugin  # noqa: E402


def python_reference(grid):
    """Mean centroid distance to edge neighbours, the way a pvpython user would compute it."""
    centers = vtkCellCenters()
    centers.SetInputData(grid)
    centers.VertexCellsOff()
    centers.Update()
    xyz = dsa.WrapDataObject(centers.GetOutput()).Points
    edge, found = vtkIdList(), vtkIdList()
    mean = np.full(grid.GetNumberOfCells(), np.nan)
    for c in range(grid.GetNumberOfCells()):
        cell = grid.GetCell(c)
        total, count = 0.0, 0
        for e in range(cell.GetNumberOfEdges()):
            ids = cell.GetEdge(e).GetPointIds()
            edge.Reset()
            edge.InsertNextId(ids.GetId(0))
            edge.InsertNextId(ids.GetId(1))
            grid.GetCellNeighbors(c, edge, found)
            for k in range(found.GetNumberOfIds()):
                total += np.linalg.norm(xyz[found.GetId(k)] - xyz[c])
                count += 1
        if count:
            mean[c] = total / count
    return mean


def main():
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 0.11
    path = benchmark_meshes.plate_triangles(scale)
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    gpumesh_plugin.load(globals())

    # Warm-up on a small mesh: the first run in a process compiles the kernels.
    small = simple.XMLUnstructuredGridReader(FileName=[os.path.join(gpumesh_plugin.DATA, "plate_with_holes.vtu")])
    GPUNeighborDistance(Input=small).UpdatePipeline()  # noqa: F821 (defined by the plugin)

    source = simple.TrivialProducer()
    source.GetClientSideObject().SetOutput(grid)
    gpu = GPUNeighborDistance(Input=source)  # noqa: F821
    start = time.perf_counter()
    gpu.UpdatePipeline()
    gpu_seconds = time.perf_counter() - start
    result = servermanager.Fetch(gpu)
    device = result.GetFieldData().GetAbstractArray("Device").GetValue(0)
    kernel_ms = result.GetFieldData().GetArray("KernelTimeMs").GetValue(0)

    start = time.perf_counter()
    expected = python_reference(grid)
    python_seconds = time.perf_counter() - start

    actual = dsa.WrapDataObject(result).CellData["MeanNeighborDistance"]
    error = np.nanmax(np.abs(np.asarray(actual) - expected))
    print("mesh: %s, %d triangles, %d points" % (os.path.basename(path), grid.GetNumberOfCells(), grid.GetNumberOfPoints()))
    print("GPUMesh GPU Neighbor Distance on %s: %.3f s end to end (kernels %.1f ms)" % (device, gpu_seconds, kernel_ms))
    print("pvpython vtkCellCenters + GetCellNeighbors loop: %.3f s" % python_seconds)
    print("ratio: %.0fx; max |difference| of mean distances: %.2g" % (python_seconds / gpu_seconds, error))


main()
