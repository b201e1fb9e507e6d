"""What the extraction filters' outputs are compared by: cells as sets of input point ids, with
the input cell each comes from, against vtkDataSetSurfaceFilter (ParaView's Extract Surface);
and the hand-made meshes of their tests."""
import numpy as np
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkIdList, vtkIntArray, vtkPoints
from vtkmodules.vtkCommonDataModel import vtkUnstructuredGrid
from vtkmodules.vtkFiltersCore import vtkExtractEdges, vtkFeatureEdges
from vtkmodules.vtkFiltersGeometry import vtkDataSetSurfaceFilter


def ids_of(dataset, name, at_points):
    data = dataset.GetPointData() if at_points else dataset.GetCellData()
    array = data.GetArray(name)
    if array is None:
        raise AssertionError("%s array %r is missing" % ("point" if at_points else "cell", name))
    return np.asarray(dsa.vtkDataArrayToVTKArray(array), dtype=np.int64)


def rotated(ids):
    """A polygon's ids from its smallest on, in its own direction (orientation kept)."""
    k = ids.index(min(ids))
    return tuple(ids[k:] + ids[:k])


def surface_cells(polydata, point_ids="vtkOriginalPointIds", cell_ids="vtkOriginalCellIds"):
    """Sorted (kind, input cell, input point ids) of every cell of `polydata`, kind 0 verts, 1
    lines, 2 polys; polygons rotated to start at their smallest id (orientation kept). Point and
    cell ids through the arrays named (None: the output's own ids)."""
    points = ids_of(polydata, point_ids, True) if point_ids else None
    cells = ids_of(polydata, cell_ids, False) if cell_ids else None
    result = []
    c = 0
    for kind, array in enumerate((polydata.GetVerts(), polydata.GetLines(), polydata.GetPolys())):
        offsets = np.asarray(dsa.vtkDataArrayToVTKArray(array.GetOffsetsArray()), dtype=np.int64)
        connectivity = np.asarray(dsa.vtkDataArrayToVTKArray(array.GetConnectivityArray()), dtype=np.int64)
        if points is not None:
            connectivity = points[connectivity]
        for k in range(len(offsets) - 1):
            ids = [int(i) for i in connectivity[offsets[k]:offsets[k + 1]]]
            result.append((kind, int(cells[c]) if cells is not None else -1, rotated(ids) if kind == 2 else tuple(ids)))
            c += 1
    if polydata.GetStrips().GetNumberOfCells():
        raise AssertionError("the surface has triangle strips")
    return sorted(result)


def vtk_surface(dataset):
    """vtkDataSetSurfaceFilter's output with both id arrays."""
    surface = vtkDataSetSurfaceFilter()
    surface.SetInputData(dataset)
    surface.PassThroughCellIdsOn()
    surface.PassThroughPointIdsOn()
    surface.Update()
    return surface.GetOutput()


# The cube's corners, then points for the cells around it.
CUBE = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1),
        (0.5, 0.5, 1.8), (2, 0, 0), (2, 0, 1), (2, 1, 0), (-1, 0, 0), (-1, 1, 0), (0.5, -1, 0)]


def grid_of(points, cells):
    grid = vtkUnstructuredGrid()
    xyz = vtkPoints()
    xyz.SetDataTypeToDouble()
    for p in points:
        xyz.InsertNextPoint(p)
    grid.SetPoints(xyz)
    for cell_type, ids in cells:
        id_list = vtkIdList()
        for i in ids:
            id_list.InsertNextId(i)
        grid.InsertNextCell(cell_type, id_list)
    return grid


def with_arrays(dataset):
    """`dataset` with a point array and a two-component cell array whose values name their ids."""
    point_values = vtkDoubleArray()
    point_values.SetName("PointValue")
    for p in range(dataset.GetNumberOfPoints()):
        point_values.InsertNextValue(1.5 * p + 0.25)
    dataset.GetPointData().AddArray(point_values)
    dataset.GetPointData().SetActiveScalars("PointValue")
    cell_values = vtkIntArray()
    cell_values.SetName("CellValue")
    cell_values.SetNumberOfComponents(2)
    for c in range(dataset.GetNumberOfCells()):
        cell_values.InsertNextTuple2(3 * c + 1, -c)
    dataset.GetCellData().AddArray(cell_values)
    return dataset


def line_ends(polydata, point_ids=None):
    """Each line's ends (through `point_ids`, else the output's own ids), smaller first."""
    lines = polydata.GetLines()
    offsets = np.asarray(dsa.vtkDataArrayToVTKArray(lines.GetOffsetsArray()), dtype=np.int64)
    ids = np.asarray(dsa.vtkDataArrayToVTKArray(lines.GetConnectivityArray()), dtype=np.int64)
    if len(offsets) > 1 and not np.all(np.diff(offsets) == 2):
        raise AssertionError("a line of more than two points")
    if point_ids is not None:
        ids = point_ids[ids]
    pairs = ids.reshape(-1, 2)
    return [tuple(sorted(map(int, pair))) for pair in pairs]


def vtk_edges(dataset):
    edges = vtkExtractEdges()
    edges.SetInputData(dataset)
    edges.UseAllPointsOn()  # input point ids kept
    edges.Update()
    return edges.GetOutput()


def vtk_feature_edges(polydata, boundary, feature, angle):
    edges = vtkFeatureEdges()
    edges.SetInputData(polydata)
    edges.SetBoundaryEdges(boundary)
    edges.SetFeatureEdges(feature)
    edges.SetNonManifoldEdges(0)
    edges.SetManifoldEdges(0)
    edges.SetFeatureAngle(angle)
    edges.ColoringOff()
    edges.Update()
    return edges.GetOutput()
