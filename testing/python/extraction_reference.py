"""What GPU Extract Surface's output is compared by: its cells as sets of input point ids, with
the input cell each comes from, against vtkDataSetSurfaceFilter (ParaView's Extract Surface)."""
import numpy as np
from vtkmodules.numpy_interface import dataset_adapter as dsa
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
