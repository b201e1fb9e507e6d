"""Shared by the GPU Decimation tests: test surfaces, validity counts, and the approximation error
of a decimated surface (symmetric Hausdorff and mean distance, sampled on both surfaces)."""
import math
import os
import tempfile

import numpy as np
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonCore import vtkPoints, mutable
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkGenericCell, vtkPolyData, vtkStaticCellLocator
from vtkmodules.vtkFiltersCore import vtkAppendFilter, vtkQuadricDecimation
from vtkmodules.vtkFiltersGeometry import vtkGeometryFilter
from vtkmodules.vtkIOGeometry import vtkSTLReader
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridWriter

import gpumesh_testing as gt


def surface_of(grid):
    """An unstructured grid of triangles as a vtkPolyData (points and arrays as they are)."""
    geometry = vtkGeometryFilter()
    geometry.SetInputData(grid)
    geometry.MergingOff()
    geometry.Update()
    return geometry.GetOutput()


def stl(name):
    reader = vtkSTLReader()
    reader.SetFileName(gt.data_path("stl/" + name))
    reader.MergingOn()
    reader.Update()
    return reader.GetOutput()


def torus(nu=96, nv=32, r=1.0, a=0.35):
    points = vtkPoints()
    points.SetDataTypeToDouble()
    for j in range(nv):
        for i in range(nu):
            u, v = 2 * math.pi * i / nu, 2 * math.pi * j / nv
            points.InsertNextPoint((r + a * math.cos(v)) * math.cos(u), (r + a * math.cos(v)) * math.sin(u),
                                   a * math.sin(v))
    cells = vtkCellArray()
    ident = lambda i, j: (j % nv) * nu + (i % nu)
    for j in range(nv):
        for i in range(nu):
            cells.InsertNextCell(3, [ident(i, j), ident(i + 1, j), ident(i + 1, j + 1)])
            cells.InsertNextCell(3, [ident(i, j), ident(i + 1, j + 1), ident(i, j + 1)])
    poly = vtkPolyData()
    poly.SetPoints(points)
    poly.SetPolys(cells)
    return poly


def torus_file():
    """torus() as an unstructured grid in a .vtu file (for readers that feed every process)."""
    append = vtkAppendFilter()
    append.AddInputData(torus())
    writer = vtkXMLUnstructuredGridWriter()
    writer.SetInputConnection(append.GetOutputPort())
    path = os.path.join(tempfile.gettempdir(), "gpumesh_decimation_torus_%d.vtu" % os.getpid())
    writer.SetFileName(path)
    writer.Write()
    return path


def triangles_of(dataset):
    cells = dataset.GetPolys() if dataset.IsA("vtkPolyData") else dataset.GetCells()
    ids = np.asarray(dsa.vtkDataArrayToVTKArray(cells.GetConnectivityArray()), dtype=np.int64)
    return ids.reshape(-1, 3)


def edge_uses(triangles):
    """Per undirected edge: (number of triangles, sum of directions: 0 when consistently oriented)."""
    a = triangles.reshape(-1)
    b = np.roll(triangles, -1, axis=1).reshape(-1)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    keys = lo * (triangles.max() + 1) + hi
    direction = np.where(a < b, 1, -1)
    unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=direction)
    return counts, sums


def euler(dataset):
    triangles = triangles_of(dataset)
    counts, _ = edge_uses(triangles)
    used = np.unique(triangles).size
    return used - counts.size + triangles.shape[0]


def sample_surface(dataset, count, seed):
    """Points of the surface: its vertices, and `count` points spread by area (seeded)."""
    xyz = np.asarray(dsa.WrapDataObject(dataset).Points, dtype=np.float64)
    tri = triangles_of(dataset)
    p0, p1, p2 = xyz[tri[:, 0]], xyz[tri[:, 1]], xyz[tri[:, 2]]
    area = 0.5 * np.linalg.norm(np.cross(p1 - p0, p2 - p0), axis=1)
    rng = np.random.default_rng(seed)
    chosen = rng.choice(tri.shape[0], size=count, p=area / area.sum())
    r1, r2 = rng.random(count), rng.random(count)
    s = np.sqrt(r1)
    samples = ((1 - s)[:, None] * p0[chosen] + (s * (1 - r2))[:, None] * p1[chosen] + (s * r2)[:, None] * p2[chosen])
    return np.vstack([xyz[np.unique(tri)], samples])


def distances(points, dataset):
    locator = vtkStaticCellLocator()
    locator.SetDataSet(dataset)
    locator.BuildLocator()
    closest = [0.0, 0.0, 0.0]
    cell = vtkGenericCell()
    cell_id, sub_id, d2 = mutable(0), mutable(0), mutable(0.0)
    out = np.empty(len(points))
    for i, p in enumerate(points):
        locator.FindClosestPoint(p, closest, cell, cell_id, sub_id, d2)
        out[i] = math.sqrt(float(d2))
    return out


def approximation_error(original, decimated, count=20000):
    """(symmetric Hausdorff distance, mean distance), both ways sampled."""
    forward = distances(sample_surface(original, count, 1), decimated)
    backward = distances(sample_surface(decimated, count, 2), original)
    return max(forward.max(), backward.max()), 0.5 * (forward.mean() + backward.mean())


def vtk_decimation(poly, reduction):
    decimate = vtkQuadricDecimation()
    decimate.SetInputData(poly)
    decimate.SetTargetReduction(reduction)
    decimate.Update()
    return decimate.GetOutput()


def as_polydata(dataset):
    if dataset.IsA("vtkPolyData"):
        return dataset
    return surface_of(dataset)
