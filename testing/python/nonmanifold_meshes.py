"""Surfaces with non-manifold edges, for the NonManifoldSmoothing tests: sheets meeting along a
line (a Y of three, a T, an X of four) and two cubes sharing an edge, their points jittered so
that smoothing moves them. `python3 nonmanifold_meshes.py OUT.vtu` (pvpython) writes the Y of
sheets as an unstructured grid: data/nonmanifold_sheets.vtu, which the MPI tests read."""
import sys

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
from vtkmodules.vtkFiltersCore import vtkAppendPolyData, vtkCleanPolyData, vtkTriangleFilter
from vtkmodules.vtkFiltersModeling import vtkLinearSubdivisionFilter
from vtkmodules.vtkFiltersSources import vtkCubeSource


def polydata(xyz, triangles):
    dataset = vtkPolyData()
    points = vtkPoints()
    points.SetData(numpy_to_vtk(np.ascontiguousarray(xyz, dtype=np.float64), deep=1))
    dataset.SetPoints(points)
    cells = vtkCellArray()
    for t in triangles:
        cells.InsertNextCell(3, [int(i) for i in t])
    dataset.SetPolys(cells)
    return dataset


def jittered(xyz, amount, seed):
    rng = np.random.default_rng(seed)
    return xyz + rng.uniform(-amount, amount, xyz.shape)


def sheets(angles_degrees, radial=5, along=8, jitter=0.03, seed=11):
    """Half-planes at the given angles around the z axis, meeting along its segment z in
    [-1, 1] (`along` edges, shared by every sheet: non-manifold with 3 or more sheets), each
    `radial` cells wide, triangulated with alternating diagonals."""
    xyz = [(0.0, 0.0, -1.0 + 2.0 * j / along) for j in range(along + 1)]
    triangles = []
    for angle in np.radians(angles_degrees):
        index = {}
        for i in range(radial + 1):
            for j in range(along + 1):
                if i == 0:
                    index[i, j] = j
                else:
                    r = i / radial
                    index[i, j] = len(xyz)
                    xyz.append((r * np.cos(angle), r * np.sin(angle), -1.0 + 2.0 * j / along))
        for i in range(radial):
            for j in range(along):
                a, b, c, d = index[i, j], index[i + 1, j], index[i + 1, j + 1], index[i, j + 1]
                if (i + j) % 2:
                    triangles += [(a, b, c), (a, c, d)]
                else:
                    triangles += [(a, b, d), (b, c, d)]
    return polydata(jittered(np.array(xyz), jitter, seed), triangles)


def two_cubes(levels=2, jitter=0.02, seed=7):
    """Two closed cube surfaces sharing the edge x = y = 1 (4 faces at each of its edges),
    subdivided `levels` times."""
    append = vtkAppendPolyData()
    for centre in ((0.5, 0.5, 0.5), (1.5, 1.5, 0.5)):
        cube = vtkCubeSource()
        cube.SetCenter(*centre)
        triangles = vtkTriangleFilter()
        triangles.SetInputConnection(cube.GetOutputPort())
        subdivide = vtkLinearSubdivisionFilter()
        subdivide.SetInputConnection(triangles.GetOutputPort())
        subdivide.SetNumberOfSubdivisions(levels)
        append.AddInputConnection(subdivide.GetOutputPort())
    clean = vtkCleanPolyData()  # merges the cubes' points on the shared edge (and each cube's own)
    clean.SetInputConnection(append.GetOutputPort())
    clean.Update()
    result = vtkPolyData()
    result.DeepCopy(clean.GetOutput())
    xyz = vtk_to_numpy(result.GetPoints().GetData()).astype(np.float64)
    points = vtkPoints()
    points.SetData(numpy_to_vtk(jittered(xyz, jitter, seed), deep=1))
    result.SetPoints(points)
    return result


def non_manifold_points(dataset):
    """Ids of the points of edges used by more than two cells."""
    uses = {}
    for c in range(dataset.GetNumberOfCells()):
        ids = [dataset.GetCell(c).GetPointId(k) for k in range(dataset.GetCell(c).GetNumberOfPoints())]
        for k in range(len(ids)):
            edge = tuple(sorted((ids[k], ids[(k + 1) % len(ids)])))
            uses[edge] = uses.get(edge, 0) + 1
    return sorted({p for edge, n in uses.items() if n > 2 for p in edge})


if __name__ == "__main__":
    from vtkmodules.vtkFiltersCore import vtkAppendFilter
    from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridWriter

    grid = vtkAppendFilter()
    grid.AddInputData(sheets((0, 120, 240), radial=8, along=16))
    grid.Update()
    writer = vtkXMLUnstructuredGridWriter()
    writer.SetFileName(sys.argv[1])
    writer.SetInputData(grid.GetOutput())
    writer.Write()
