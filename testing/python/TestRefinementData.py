"""GPU Longest Edge Refinement carries the input's data to the refined mesh: every child cell has
its parent's values in every cell array (int, float, 3-component double with component names,
strings), the parent found independently of the filter (the input cell holding the child's
centroid); every new point has VTK's interpolation half-way between the ends of the input edge it
splits (vtkAbstractArray::InterpolateTuple at t = 0.5 on the input's arrays: integers rounded,
strings included), except the ids VTK leaves out of new tuples (global ids; pedigree ids of
points). Triangles and tetrahedra; RefineAll, a few marks and two passes (cells of a
later pass gathered from the input, points of a later pass interpolated from new points); both
vtkSMPTools back-ends a pvpython may run. A larger mesh carries cell arrays of every tuple size
the gather copies as bytes (1 to 32 bytes and an odd 10) through several blocks and threads."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.util import numpy_support as ns
from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkIntArray, vtkPoints, vtkSMPTools, vtkStringArray
from vtkmodules.vtkCommonDataModel import VTK_TETRA, VTK_TRIANGLE, vtkPolyData, vtkStaticCellLocator, vtkUnstructuredGrid

import gpumesh_testing as gt

gt.load_plugin()

CELL_ARRAYS = ("Region", "Quality", "Direction", "Label")
POINT_ARRAYS = ("Height", "Level", "Flow", "Tag")


def triangle_grid(n):
    """An n x n grid of 3:4 rectangles cut into right triangles (one longest edge each), on
    dyadic coordinates, so that midpoints, and linear fields at them, are exact."""
    index = lambda i, j: j * (n + 1) + i
    points = [(0.75 * i, 1.0 * j, 0.0) for j in range(n + 1) for i in range(n + 1)]
    cells = []
    for j in range(n):
        for i in range(n):
            cells.append((index(i, j), index(i + 1, j), index(i + 1, j + 1)))
            cells.append((index(i, j), index(i + 1, j + 1), index(i, j + 1)))
    return points, cells


def tetrahedron_grid(n):
    """An n^3 grid of 1 x 0.75 x 0.625 boxes, each cut into the 6 Kuhn tetrahedra."""
    index = lambda i, j, k: (k * (n + 1) + j) * (n + 1) + i
    points = [(1.0 * i, 0.75 * j, 0.625 * k) for k in range(n + 1) for j in range(n + 1) for i in range(n + 1)]
    cells = []
    for k in range(n):
        for j in range(n):
            for i in range(n):
                for path in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
                    corner = [i, j, k]
                    tet = [index(*corner)]
                    for axis in path:
                        corner[axis] += 1
                        tet.append(index(*corner))
                    cells.append(tuple(tet))
    return points, cells


def make_mesh(points, cells, kind, polydata=False):
    """The mesh with the cell and point arrays under test, each value different per cell (point)."""
    vtk_points = vtkPoints()
    vtk_points.SetDataTypeToDouble()
    vtk_points.SetData(ns.numpy_to_vtk(np.asarray(points, dtype=np.float64), deep=1))
    mesh = vtkPolyData() if polydata else vtkUnstructuredGrid()
    mesh.SetPoints(vtk_points)
    mesh.AllocateExact(len(cells), len(cells[0]) * len(cells))
    for cell in cells:
        mesh.InsertNextCell(kind, len(cell), [int(v) for v in cell])

    ids = np.arange(len(cells))
    region = ns.numpy_to_vtk((7 * ids - 1000).astype(np.int32), deep=1)
    quality = ns.numpy_to_vtk((0.25 * ids + 0.125).astype(np.float32), deep=1)
    direction = ns.numpy_to_vtk(np.stack([ids, -ids, ids / 3.0], axis=1).astype(np.float64), deep=1)
    for component, name in enumerate(("Along", "Across", "Up")):
        direction.SetComponentName(component, name)
    label = vtkStringArray()
    for c in ids:
        label.InsertNextValue("cell %d" % c)
    for array, name in ((region, "Region"), (quality, "Quality"), (direction, "Direction"), (label, "Label")):
        array.SetName(name)
        mesh.GetCellData().AddArray(array)
    mesh.GetCellData().SetActiveScalars("Region")

    xyz = np.asarray(points, dtype=np.float64)
    # Height: linear in the coordinates with small dyadic coefficients, so a midpoint of
    # midpoints (a later pass) is exact too; Level: integers with odd sums (rounded halves).
    height = ns.numpy_to_vtk(2.0 * xyz[:, 0] - 3.0 * xyz[:, 1] + 0.5 * xyz[:, 2], deep=1)
    level = vtkIntArray()
    flow = vtkDoubleArray()
    flow.SetNumberOfComponents(2)
    tag = vtkStringArray()
    for p in range(len(points)):
        level.InsertNextValue((p * 37) % 11 - 5)
        flow.InsertNextTuple2(p / 7.0, -p * 1e10)
        tag.InsertNextValue("point %d" % p)
    for array, name in ((height, "Height"), (level, "Level"), (flow, "Flow"), (tag, "Tag")):
        array.SetName(name)
        mesh.GetPointData().AddArray(array)
    mesh.GetPointData().SetActiveScalars("Height")
    return mesh


def values(array, tuple_id):
    if isinstance(array, vtkStringArray):
        return array.GetValue(tuple_id)
    return array.GetTuple(tuple_id)


def centroids(mesh):
    points = ns.vtk_to_numpy(mesh.GetPoints().GetData())
    size = mesh.GetCell(0).GetNumberOfPoints()
    cells = np.array([[mesh.GetCell(c).GetPointId(k) for k in range(size)] for c in range(mesh.GetNumberOfCells())])
    return points[cells].mean(axis=1)


def parents_by_containment(mesh, refined):
    """For each refined cell, the input cell that holds its centroid (children lie inside their
    parent, and a child's centroid strictly inside it)."""
    locator = vtkStaticCellLocator()
    locator.SetDataSet(mesh)
    locator.BuildLocator()
    return np.array([locator.FindCell(tuple(c)) for c in centroids(refined)])


def split_edges(mesh):
    """Each edge of the input by the coordinates of its midpoint."""
    points = ns.vtk_to_numpy(mesh.GetPoints().GetData())
    edges = {}
    for c in range(mesh.GetNumberOfCells()):
        ids = [mesh.GetCell(c).GetPointId(k) for k in range(mesh.GetCell(c).GetNumberOfPoints())]
        for a in ids:
            for b in ids:
                if a < b:
                    edges[tuple(0.5 * (points[a] + points[b]))] = (a, b)
    return edges


class RefinementDataTest(unittest.TestCase):
    def refine(self, mesh, backend, **properties):
        self.assertTrue(vtkSMPTools.SetBackend(backend))
        try:
            return gt.fetch(simple.GPULongestEdgeRefinement(Input=gt.producer(mesh), **properties))
        finally:
            vtkSMPTools.SetBackend("Sequential")

    def check_cells(self, mesh, refined):
        parent = parents_by_containment(mesh, refined)
        self.assertTrue((parent >= 0).all(), "a child outside every input cell")
        np.testing.assert_array_equal(gt.cell_array(refined, "ParentCellId"), parent)
        for name in CELL_ARRAYS:
            source, result = mesh.GetCellData().GetAbstractArray(name), refined.GetCellData().GetAbstractArray(name)
            self.assertIsNotNone(result, name)
            self.assertEqual((result.GetDataType(), result.GetNumberOfComponents(), result.GetNumberOfTuples()),
                             (source.GetDataType(), source.GetNumberOfComponents(), refined.GetNumberOfCells()), name)
            wrong = [c for c in range(refined.GetNumberOfCells()) if values(result, c) != values(source, parent[c])]
            self.assertEqual(wrong, [], "%s: children without their parent's value" % name)
        self.assertEqual(refined.GetCellData().GetScalars().GetName(), "Region")
        direction = refined.GetCellData().GetArray("Direction")
        self.assertEqual([direction.GetComponentName(k) for k in range(3)], ["Along", "Across", "Up"])

    def check_points(self, mesh, refined, passes):
        old = mesh.GetNumberOfPoints()
        points = ns.vtk_to_numpy(refined.GetPoints().GetData())
        np.testing.assert_array_equal(points[:old], ns.vtk_to_numpy(mesh.GetPoints().GetData()))
        for name in POINT_ARRAYS:
            source, result = mesh.GetPointData().GetAbstractArray(name), refined.GetPointData().GetAbstractArray(name)
            self.assertIsNotNone(result, name)
            self.assertEqual((result.GetDataType(), result.GetNumberOfComponents(), result.GetNumberOfTuples()),
                             (source.GetDataType(), source.GetNumberOfComponents(), refined.GetNumberOfPoints()), name)
            self.assertEqual([values(result, p) for p in range(old)], [values(source, p) for p in range(old)], name)
        self.assertEqual(refined.GetPointData().GetScalars().GetName(), "Height")
        # Height is linear: at every new point, of any pass, its value at the point.
        expected = 2.0 * points[:, 0] - 3.0 * points[:, 1] + 0.5 * points[:, 2]
        np.testing.assert_array_equal(ns.vtk_to_numpy(refined.GetPointData().GetArray("Height")), expected)
        if passes > 1:
            return
        # One pass: every new point splits an input edge; VTK's interpolation on the input's arrays.
        edges = split_edges(mesh)
        for name in POINT_ARRAYS:
            source, result = mesh.GetPointData().GetAbstractArray(name), refined.GetPointData().GetAbstractArray(name)
            reference = source.NewInstance()
            reference.SetNumberOfComponents(source.GetNumberOfComponents())
            reference.SetNumberOfTuples(1)
            wrong = []
            for p in range(old, refined.GetNumberOfPoints()):
                a, b = edges[tuple(points[p])]
                reference.InterpolateTuple(0, a, source, b, source, 0.5)
                if values(result, p) != values(reference, 0):
                    wrong.append((p, values(result, p), values(reference, 0)))
            self.assertEqual(wrong[:5], [], "%s: new points unlike VTK's interpolation" % name)

    def check(self, points, cells, kind, **properties):
        for polydata in ((False, True) if kind == VTK_TRIANGLE else (False,)):
            mesh = make_mesh(points, cells, kind, polydata)
            for backend in ("Sequential", "STDThread"):
                with self.subTest(polydata=polydata, backend=backend, **properties):
                    refined = self.refine(mesh, backend, **properties)
                    self.assertGreater(refined.GetNumberOfCells(), mesh.GetNumberOfCells())
                    self.check_cells(mesh, refined)
                    self.check_points(mesh, refined, properties.get("Passes", 1))

    def test_triangles(self):
        points, cells = triangle_grid(24)
        self.check(points, cells, VTK_TRIANGLE, RefineAll=1)
        self.check(points, cells, VTK_TRIANGLE, RefineAll=1, Passes=2)
        self.check(points, cells, VTK_TRIANGLE, MarkArray=["CELLS", "Region"], MarkThreshold=6250.0)

    def test_tuples_of_every_size_through_several_blocks(self):
        points, cells = triangle_grid(60)  # 7200 triangles, about 16000 after RefineAll: 4 blocks
        mesh = make_mesh(points, cells, VTK_TRIANGLE, polydata=True)
        ids = np.arange(len(cells))
        kinds = {"Byte": (ids % 251).astype(np.uint8), "Short": (ids - 5000).astype(np.int16),
                 "Wide": (ids * 3_000_000_007).astype(np.int64),
                 "Flags": np.stack([(ids + k) % 65521 for k in range(5)], axis=1).astype(np.uint16),
                 "Colour": np.stack([ids * 0.5 + k for k in range(4)], axis=1).astype(np.float32),
                 "Frame": np.stack([ids * 0.25 - k for k in range(4)], axis=1).astype(np.float64)}
        for name, numbers in kinds.items():
            array = ns.numpy_to_vtk(numbers, deep=1)
            array.SetName(name)
            mesh.GetCellData().AddArray(array)
        for backend in ("Sequential", "STDThread"):
            with self.subTest(backend=backend):
                refined = self.refine(mesh, backend, RefineAll=1)
                parent = parents_by_containment(mesh, refined)
                np.testing.assert_array_equal(gt.cell_array(refined, "ParentCellId"), parent)
                for name, numbers in kinds.items():
                    result = ns.vtk_to_numpy(refined.GetCellData().GetArray(name))
                    self.assertEqual(result.dtype, numbers.dtype, name)
                    np.testing.assert_array_equal(result, numbers[parent], name)

    def test_tetrahedra(self):
        points, cells = tetrahedron_grid(5)
        self.check(points, cells, VTK_TETRA, RefineAll=1)
        self.check(points, cells, VTK_TETRA, RefineAll=1, Passes=2)
        self.check(points, cells, VTK_TETRA, MarkArray=["CELLS", "Region"], MarkThreshold=3700.0)

    def test_ids_are_left_out_as_vtk_leaves_them(self):
        """Global and pedigree point ids, and global cell ids, are labels: VTK's copies and
        interpolations leave them out of new tuples, and so does the refinement (a midpoint of
        two global ids would name another point, one global id on two children another cell);
        a cell's pedigree id is copied to its children, as VTK copies it. Refining nothing keeps
        them all."""
        for kind, (points, cells) in ((VTK_TRIANGLE, triangle_grid(6)), (VTK_TETRA, tetrahedron_grid(2))):
            mesh = make_mesh(points, cells, kind)
            labels = {}
            for data, count, name, setter in (
                    (mesh.GetPointData(), len(points), "PointGlobal", "SetGlobalIds"),
                    (mesh.GetPointData(), len(points), "PointPedigree", "SetPedigreeIds"),
                    (mesh.GetCellData(), len(cells), "CellGlobal", "SetGlobalIds"),
                    (mesh.GetCellData(), len(cells), "CellPedigree", "SetPedigreeIds")):
                array = ns.numpy_to_vtk(np.arange(count, dtype=np.int64) * 10 + 7, deep=1,
                                        array_type=ns.get_vtk_array_type(np.int64))
                array.SetName(name)
                getattr(data, setter)(array)
                labels[name] = array
            for backend in ("Sequential", "STDThread"):
                with self.subTest(kind=kind, backend=backend):
                    refined = self.refine(mesh, backend, RefineAll=1)
                    self.assertGreater(refined.GetNumberOfCells(), mesh.GetNumberOfCells())
                    for name in ("PointGlobal", "PointPedigree"):
                        self.assertIsNone(refined.GetPointData().GetAbstractArray(name), name)
                    self.assertIsNone(refined.GetPointData().GetGlobalIds())
                    self.assertIsNone(refined.GetCellData().GetAbstractArray("CellGlobal"))
                    self.assertIsNone(refined.GetCellData().GetGlobalIds())
                    parent = parents_by_containment(mesh, refined)
                    np.testing.assert_array_equal(gt.cell_array(refined, "CellPedigree"), parent * 10 + 7)
                    for name in POINT_ARRAYS:
                        self.assertIsNotNone(refined.GetPointData().GetAbstractArray(name), name)
                    for name in CELL_ARRAYS:
                        self.assertIsNotNone(refined.GetCellData().GetAbstractArray(name), name)
                    unrefined = self.refine(mesh, backend, MarkArray=["CELLS", "Region"], MarkThreshold=1e9)
                    self.assertEqual(unrefined.GetNumberOfCells(), mesh.GetNumberOfCells())
                    for data, name in ((unrefined.GetPointData(), "PointGlobal"),
                                       (unrefined.GetPointData(), "PointPedigree"),
                                       (unrefined.GetCellData(), "CellGlobal")):
                        np.testing.assert_array_equal(ns.vtk_to_numpy(data.GetAbstractArray(name)),
                                                      ns.vtk_to_numpy(labels[name]), name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
