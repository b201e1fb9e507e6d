"""Meshes and partitions that stress the distributed path, made by each process itself (inside a
Programmable Source) and by the serial reference alike. Plain VTK and numpy.

    "hub"        the plate with holes and a copy of it far away: process 0 holds a disc at the
                 plate's centre and touches processes 1 and 2 (the rest of the plate, split by
                 angle), which touch each other; process 3 holds the far copy and touches none.
    "book"       three rectangular pages of triangles joined along one edge (the spine: each of
                 its edges has three triangles, on three processes) and a cone of triangles
                 whose apex is the spine's top point (a vertex shared by four processes, joined to
                 the pages by that point alone).
    "pairs"      the plate split in two along x (processes 0 and 1) and the far copy split the
                 same way (processes 2 and 3).
    "pair-alone" the plate split as in "pairs" (processes 0 and 1); processes 2 and 3 empty.
    "fan"        a disc of 10,000 triangles around one hub (a vertex of degree 10,000, on all four
                 processes), split by angle into quarters, its points numbered in a shuffled
                 order: every cell of every piece touches the interface.
    "graded"     a boundary layer: a strip of triangles whose rows grow 15% a row from 1e-5 high
                 (about 1e5 times from the first row to the last), split into four by rows,
                 so that the cuts run between cells of different sizes.
"""
import numpy as np
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData, VTK_TRIANGLE
from vtkmodules.vtkFiltersCore import vtkAppendFilter, vtkExtractCells
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader
from vtkmodules.vtkCommonCore import vtkIdList

CELL_IDS = "CellIds"
POINT_IDS = "PointIds"
LAYOUTS = ("hub", "book", "pairs", "pair-alone", "fan", "graded")


def _numbered(mesh):
    for data, count, name in ((mesh.GetPointData(), mesh.GetNumberOfPoints(), POINT_IDS),
                              (mesh.GetCellData(), mesh.GetNumberOfCells(), CELL_IDS)):
        array = numpy_to_vtk(np.arange(count, dtype=np.int64), deep=1)
        array.SetName(name)
        data.AddArray(array)
    return mesh


def _plate_and_copy(plate_path):
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(plate_path)
    reader.Update()
    plate = reader.GetOutput()
    b = plate.GetBounds()
    copy = type(plate)()
    copy.DeepCopy(plate)
    xyz = np.array(dsa.vtkDataArrayToVTKArray(copy.GetPoints().GetData()), dtype=np.float64)
    xyz[:, 0] += 3.0 * (b[1] - b[0])
    copy.GetPoints().SetData(numpy_to_vtk(xyz, deep=1))
    append = vtkAppendFilter()
    append.AddInputData(plate)
    append.AddInputData(copy)
    append.Update()
    return append.GetOutput(), plate.GetNumberOfCells()


def _triangles(points, triangles):
    polydata = vtkPolyData()
    vtk_points = vtkPoints()
    vtk_points.SetData(numpy_to_vtk(np.asarray(points, dtype=np.float64), deep=1))
    polydata.SetPoints(vtk_points)
    cells = vtkCellArray()
    connectivity = np.asarray(triangles, dtype=np.int64).reshape(-1)
    offsets = np.arange(0, len(connectivity) + 1, 3, dtype=np.int64)
    cells.SetData(numpy_to_vtkIdTypeArray(offsets, deep=1), numpy_to_vtkIdTypeArray(connectivity, deep=1))
    polydata.SetPolys(cells)
    return polydata


def book():
    """The pages and the cone, and the process of each cell (page k: k, cone: 3)."""
    rows, columns = 8, 6  # spine segments, page columns
    points = [(0.0, 0.0, z / rows) for z in range(rows + 1)]  # the spine
    triangles, owner = [], []
    for page in range(3):
        angle = 2.0 * np.pi * page / 3.0 + 0.1
        first = len(points)
        for j in range(rows + 1):
            for i in range(1, columns + 1):
                r = i / columns
                jitter = 0.02 * np.sin(7 * i + 3 * j + page) if 0 < j < rows and i < columns else 0.0
                points.append((r * np.cos(angle + jitter), r * np.sin(angle + jitter), j / rows + jitter))

        def index(i, j):  # column 0 is the spine
            return j if i == 0 else first + j * columns + (i - 1)

        for j in range(rows):
            for i in range(columns):
                a, b, c, d = index(i, j), index(i + 1, j), index(i + 1, j + 1), index(i, j + 1)
                triangles += [(a, b, c), (a, c, d)]
                owner += [page, page]
    apex = rows  # the spine's top point
    first = len(points)
    fan = 12
    for k in range(fan):
        angle = 2.0 * np.pi * k / fan
        points.append((0.5 * np.cos(angle), 0.5 * np.sin(angle), 1.6))
    for k in range(fan):
        triangles.append((apex, first + k, first + (k + 1) % fan))
        owner.append(3)
    return _triangles(points, triangles), np.array(owner)


def fan():
    """The hub's fan with shuffled point ids, and the process of each cell (its quarter)."""
    n = 10000
    angles = 2.0 * np.pi * np.arange(n) / n
    ring = np.column_stack((np.cos(angles), np.sin(angles), 0.05 * np.sin(3.0 * angles)))
    points = np.vstack(([0.0, 0.0, 0.02], ring))
    k = np.arange(n)
    triangles = np.column_stack((np.zeros(n, dtype=np.int64), 1 + k, 1 + (k + 1) % n))
    # Point i becomes point order[i]: ids unrelated to the geometry or the pieces.
    order = np.random.default_rng(7).permutation(n + 1)
    shuffled = np.empty_like(points)
    shuffled[order] = points
    return _triangles(shuffled, order[triangles]), (4 * k) // n


def graded():
    """The graded strip, and the process of each cell (its quarter of the rows)."""
    columns, rows = 40, 83
    y = np.concatenate(([0.0], np.cumsum(1e-5 * 1.15 ** np.arange(rows))))
    x = np.linspace(0.0, 1.0, columns + 1)
    points = [(xi + 0.004 * np.sin(7.0 * xi + 40.0 * yj), yj, 0.0) for yj in y for xi in x]
    triangles, owner = [], []
    for j in range(rows):
        for i in range(columns):
            a, b = j * (columns + 1) + i, j * (columns + 1) + i + 1
            c, d = b + columns + 1, a + columns + 1
            triangles += [(a, b, c), (a, c, d)]
            owner += [4 * j // rows] * 2
    return _triangles(points, triangles), np.array(owner)


def whole_mesh(layout, plate_path):
    """The whole mesh of a layout, numbered, and the process of each of its cells."""
    if layout in ("book", "fan", "graded"):
        mesh, owner = {"book": book, "fan": fan, "graded": graded}[layout]()
        return _numbered(mesh), owner
    mesh, plate_cells = _plate_and_copy(plate_path)
    xyz = np.array(dsa.vtkDataArrayToVTKArray(mesh.GetPoints().GetData()), dtype=np.float64)
    ids = vtkIdList()
    centre = np.empty((mesh.GetNumberOfCells(), 3))
    for c in range(mesh.GetNumberOfCells()):
        mesh.GetCellPoints(c, ids)
        centre[c] = xyz[[ids.GetId(k) for k in range(ids.GetNumberOfIds())]].mean(axis=0)
    in_copy = np.arange(mesh.GetNumberOfCells()) >= plate_cells
    plate_centre = centre[~in_copy].mean(axis=0)
    copy_centre = centre[in_copy].mean(axis=0)
    owner = np.zeros(mesh.GetNumberOfCells(), dtype=np.int64)
    if layout == "hub":
        offset = centre - plate_centre
        radius = np.hypot(offset[:, 0], offset[:, 1])
        disc = radius < 0.35 * radius[~in_copy].max()
        owner[~in_copy] = np.where(disc[~in_copy], 0, np.where(offset[~in_copy, 1] > 0, 1, 2))
        owner[in_copy] = 3
    else:
        owner[~in_copy] = np.where(centre[~in_copy, 0] < plate_centre[0], 0, 1)
        owner[in_copy] = np.where(centre[in_copy, 0] < copy_centre[0], 2, 3) if layout == "pairs" else -1
    keep = owner >= 0
    if not keep.all():
        mesh, owner = _cells(mesh, np.flatnonzero(keep)), owner[keep]
    return _numbered(mesh), owner


def _cells(mesh, cell_ids):
    cells = vtkIdList()
    for c in cell_ids:
        cells.InsertNextId(int(c))
    extract = vtkExtractCells()
    extract.SetInputData(mesh)
    extract.SetCellList(cells)
    extract.Update()
    return extract.GetOutput()


def piece(layout, plate_path, rank):
    """The cells of `rank` (arrays kept, unused points dropped) as an unstructured grid."""
    mesh, owner = whole_mesh(layout, plate_path)
    return _cells(mesh, np.flatnonzero(owner == rank))
