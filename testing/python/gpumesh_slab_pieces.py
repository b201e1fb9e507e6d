"""A mesh cut into slabs along x, one per process, made by each process itself (inside a
Programmable Source), and an in-place change of the last slab's points that keeps the whole
mesh consistent: only points no other slab uses move. Also rows of a grid of triangles with
global point ids (grid_rows), a process's piece made from nothing. Plain VTK and numpy, so that the
pipeline scripts of every process can import it; the serial references use the same functions.
"""
import numpy as np
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.util.numpy_support import numpy_to_vtk
from vtkmodules.vtkCommonCore import VTK_ID_TYPE, vtkIdList, vtkIdTypeArray, vtkPoints
from vtkmodules.vtkCommonDataModel import VTK_TRIANGLE, vtkPolyData
from vtkmodules.vtkFiltersCore import vtkExtractCells
from vtkmodules.vtkFiltersGeometry import vtkGeometryFilter
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

CELL_IDS = "CellIds"
POINT_IDS = "PointIds"

# Programmable Source executions in this process (a script records them in the field data, so
# that a test can tell an in-place change from a re-execution).
executions = 0


def numbered_mesh(path, global_ids=None):
    """The mesh of a .vtu file with the point and cell arrays PointIds and CellIds, and with
    global_ids "vtkIdType" or "int64" the point ids as global ids of that type (numpy's int64
    becomes a vtkLongArray or vtkLongLongArray, not a vtkIdTypeArray)."""
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    mesh = reader.GetOutput()
    for data, count, name in ((mesh.GetPointData(), mesh.GetNumberOfPoints(), POINT_IDS),
                              (mesh.GetCellData(), mesh.GetNumberOfCells(), CELL_IDS)):
        array = numpy_to_vtk(np.arange(count, dtype=np.int64), deep=1)
        array.SetName(name)
        data.AddArray(array)
    if global_ids:
        ids = numpy_to_vtk(np.arange(mesh.GetNumberOfPoints(), dtype=np.int64), deep=1,
                           array_type=VTK_ID_TYPE if global_ids == "vtkIdType" else None)
        ids.SetName("GlobalPointIds")
        mesh.GetPointData().SetGlobalIds(ids)
    return mesh


def cell_slabs(mesh, slabs):
    """The slab of every cell: its vertex-mean x among `slabs` quantiles."""
    points = np.asarray(dsa.vtkDataArrayToVTKArray(mesh.GetPoints().GetData()), dtype=np.float64)
    ids = vtkIdList()
    centre_x = np.empty(mesh.GetNumberOfCells())
    for c in range(mesh.GetNumberOfCells()):
        mesh.GetCellPoints(c, ids)
        centre_x[c] = np.mean([points[ids.GetId(k), 0] for k in range(ids.GetNumberOfIds())])
    edges = np.quantile(centre_x, [k / slabs for k in range(1, slabs)])
    return np.searchsorted(edges, centre_x, side="right")


def as_polydata(grid):
    """The surface cells of an unstructured grid as a vtkPolyData, arrays kept, points unmerged."""
    surface = vtkGeometryFilter()
    surface.SetInputData(grid)
    surface.MergingOff()
    surface.Update()
    return surface.GetOutput()


def slab_piece(mesh, slabs, slab):
    """The cells of one slab (all of the mesh's arrays kept, unused points dropped), of the
    mesh's type."""
    cells = vtkIdList()
    for c in np.flatnonzero(cell_slabs(mesh, slabs) == slab):
        cells.InsertNextId(int(c))
    extract = vtkExtractCells()
    extract.SetInputData(mesh)
    extract.SetCellList(cells)
    extract.Update()
    return as_polydata(extract.GetOutput()) if mesh.IsA("vtkPolyData") else extract.GetOutput()


def last_slab_only_points(mesh, slabs):
    """The PointIds of the points that only cells of the last slab use: moving them changes the
    last slab's piece alone, and the ghost layers of its neighbours."""
    in_last = cell_slabs(mesh, slabs) == slabs - 1
    used_elsewhere = np.zeros(mesh.GetNumberOfPoints(), dtype=bool)
    used_by_last = np.zeros(mesh.GetNumberOfPoints(), dtype=bool)
    ids = vtkIdList()
    for c in range(mesh.GetNumberOfCells()):
        mesh.GetCellPoints(c, ids)
        corners = [ids.GetId(k) for k in range(ids.GetNumberOfIds())]
        (used_by_last if in_last[c] else used_elsewhere)[corners] = True
    point_ids = np.asarray(dsa.vtkDataArrayToVTKArray(mesh.GetPointData().GetArray(POINT_IDS)))
    return point_ids[used_by_last & ~used_elsewhere]


def move_points_in_place(dataset, moved_ids):
    """Moves the points of `dataset` whose PointIds are in `moved_ids` by a smooth field (a few
    tenths of an edge on the sample meshes), in place, and marks the points Modified()."""
    point_ids = np.asarray(dsa.vtkDataArrayToVTKArray(dataset.GetPointData().GetArray(POINT_IDS)))
    coordinates = dsa.vtkDataArrayToVTKArray(dataset.GetPoints().GetData())  # a view
    moved = np.flatnonzero(np.isin(point_ids, moved_ids))
    xyz = np.asarray(coordinates[moved], dtype=np.float64)
    shift = 0.01 * np.stack([np.sin(5 * xyz[:, 0] + 3 * xyz[:, 1]), np.cos(4 * xyz[:, 1] + 2 * xyz[:, 2]),
                             np.sin(3 * xyz[:, 2] + xyz[:, 0])], axis=1)
    coordinates[moved] = xyz + shift
    dataset.GetPoints().Modified()
    return len(moved)


def grid_rows(n, first, last, jitter=False):
    """Rows [first, last) of an n x n grid of unit squares, each cut into two triangles, as
    vtkPolyData with double points (rows first to last: a cut row is in both pieces) and global
    point ids j * (n + 1) + i; no points when last <= first. `jitter` moves the interior points
    by fixed amounts, so that no two triangles are alike; without it every edge has its twins."""
    output = vtkPolyData()
    points = vtkPoints()
    points.SetDataTypeToDouble()
    ids = vtkIdTypeArray()
    ids.SetName("GlobalPointIds")
    rows = last - first if last > first else 0
    for j in range(first, first + rows + 1 if rows else first):
        for i in range(n + 1):
            inside = jitter and 0 < i < n and 0 < j < n
            points.InsertNextPoint(i + (0.21 * ((7 * i + 3 * j) % 5) - 0.4 if inside else 0.0),
                                   j + (0.17 * ((5 * i + 11 * j) % 7) - 0.5 if inside else 0.0), 0.0)
            ids.InsertNextValue(j * (n + 1) + i)
    output.SetPoints(points)
    output.GetPointData().SetGlobalIds(ids)
    output.Allocate(2 * n * rows)
    for j in range(rows):
        for i in range(n):
            a, b = j * (n + 1) + i, j * (n + 1) + i + 1
            c, d = b + n + 1, a + n + 1
            output.InsertNextCell(VTK_TRIANGLE, 3, [a, b, c])
            output.InsertNextCell(VTK_TRIANGLE, 3, [a, c, d])
    return output
