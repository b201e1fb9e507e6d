"""GPU Longest Edge Refinement: the CPU reference triangle by triangle, and the invariants of
conforming longest-edge bisection on gmsh meshes (planar and on a sphere)."""
import math
import unittest
from collections import Counter

import numpy as np
from paraview import simple
from vtkmodules.util import numpy_support as ns
from vtkmodules.vtkCommonCore import VTK_FLOAT, vtkDoubleArray, vtkPoints
from vtkmodules.vtkCommonDataModel import VTK_QUAD, VTK_TRIANGLE, vtkCellArray, vtkPolyData, vtkUnstructuredGrid

import gpumesh_testing as gt
import leb_reference

gt.load_plugin()


def arrays(grid):
    points = np.array([grid.GetPoint(i) for i in range(grid.GetNumberOfPoints())])
    triangles = [tuple(grid.GetCell(c).GetPointIds().GetId(k) for k in range(3)) for c in range(grid.GetNumberOfCells())]
    return points, triangles


def make_grid(points, triangles, polydata=False):
    vtk_points = vtkPoints()
    vtk_points.SetDataTypeToDouble()
    for p in points:
        vtk_points.InsertNextPoint(*p)
    grid = vtkPolyData() if polydata else vtkUnstructuredGrid()
    grid.SetPoints(vtk_points)
    if polydata:
        grid.AllocateExact(len(triangles), 3 * len(triangles))
    for t in triangles:
        grid.InsertNextCell(VTK_TRIANGLE, 3, list(t))
    return grid


def add_cell_array(grid, name, values):
    array = vtkDoubleArray()
    array.SetName(name)
    for v in values:
        array.InsertNextValue(v)
    grid.GetCellData().AddArray(array)


def refine_on_device(grid, marks=None, **properties):
    if marks is not None:
        add_cell_array(grid, "Marks", marks)
        properties.setdefault("MarkArray", ["CELLS", "Marks"])
    return gt.fetch(simple.GPULongestEdgeRefinement(Input=gt.producer(grid), **properties))


def triangle_area_vectors(points, triangles):
    t = np.asarray(triangles)
    return 0.5 * np.cross(points[t[:, 1]] - points[t[:, 0]], points[t[:, 2]] - points[t[:, 0]])


def edge_uses(triangles):
    return Counter(tuple(sorted((t[j], t[(j + 1) % 3]))) for t in triangles for j in range(3))


def smallest_angle(points, triangles):
    worst = math.pi
    for t in triangles:
        for j in range(3):
            a, b, c = (points[t[(j + k) % 3]] for k in range(3))
            u, v = b - a, c - a
            cosine = np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v))
            worst = min(worst, math.acos(max(-1.0, min(1.0, cosine))))
    return worst


def geometry_set(points, triangles, oriented=True):
    """Triangles as sets of rounded coordinates (rotation-invariant; orientation optional)."""
    result = set()
    for t in triangles:
        corners = [tuple(np.round(points[v], 9)) for v in t]
        if oriented:
            k = corners.index(min(corners))
            result.add(tuple(corners[k:] + corners[:k]))
        else:
            result.add(tuple(sorted(corners)))
    return result


class LongestEdgeRefinementTest(unittest.TestCase):
    def compare_with_reference(self, grid, marks, passes=1, precision="Auto"):
        result = refine_on_device(grid, marks, Passes=passes, Precision=precision)
        points, triangles = arrays(grid)
        float_points = grid.GetPoints().GetDataType() == VTK_FLOAT
        single = precision == "Single" or (precision == "Auto" and float_points)
        ref_points, ref_triangles, ref_parent = leb_reference.refine(
            points, triangles, np.asarray(marks) > 0, passes, np.float32 if single else np.float64,
            shift=single and not float_points)
        out_points, out_triangles = arrays(result)
        self.assertEqual(out_triangles, ref_triangles)  # triangle by triangle, index for index
        np.testing.assert_allclose(out_points, ref_points, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(gt.cell_array(result, "ParentCellId"), ref_parent)
        return result

    def check_invariants(self, grid, marks, passes=1, precision="Auto"):
        result = self.compare_with_reference(grid, marks, passes, precision)
        points, triangles = arrays(grid)
        out_points, out_triangles = arrays(result)
        before, after = edge_uses(triangles), edge_uses(out_triangles)
        self.assertLessEqual(max(after.values()), 2)
        boundary = lambda pts, uses: sum(np.linalg.norm(pts[a] - pts[b]) for (a, b), n in uses.items() if n == 1)
        self.assertAlmostEqual(boundary(out_points, after), boundary(points, before), delta=1e-9 * boundary(points, before) + 1e-12)
        euler = lambda pts, tris, uses: len({v for t in tris for v in t}) - len(uses) + len(tris)
        self.assertEqual(euler(out_points, out_triangles, after), euler(points, triangles, before))
        parent = gt.cell_array(result, "ParentCellId").astype(int)
        children = Counter(parent)
        for c in np.nonzero(np.asarray(marks) > 0)[0]:
            self.assertGreaterEqual(children[c], 2, "marked cell %d was not split" % c)
        self.assertGreaterEqual(smallest_angle(out_points, out_triangles), 0.5 * smallest_angle(points, triangles) - 1e-12)
        parent_area = triangle_area_vectors(points, triangles)
        child_area = triangle_area_vectors(out_points, out_triangles)
        summed = np.zeros_like(parent_area)
        np.add.at(summed, parent, child_area)
        np.testing.assert_allclose(summed, parent_area, rtol=1e-9, atol=1e-15)  # areas, and orientation
        for child, p in zip(child_area, parent):  # every child keeps its parent's orientation
            self.assertGreater(np.dot(child, parent_area[p]), 0.0)
        total = lambda a: np.linalg.norm(a, axis=1).sum()
        self.assertAlmostEqual(total(child_area), total(parent_area), delta=1e-9 * total(parent_area))
        self.assertEqual(gt.field_value(result, "MarkedCells"), int(np.sum(np.asarray(marks) > 0)))
        self.assertEqual(gt.field_value(result, "CreatedCells"), len(out_triangles) - len(triangles))
        # Step 1 (edge lengths) is computed within step 2, per triangle.
        for step in ("2_longest_edges", "3_dependency_forest", "4_propagation",
                     "5_counts", "6_prefix_sums", "7_templates"):
            self.assertGreaterEqual(gt.field_value(result, "KernelTimeMs_step_" + step), 0.0)
        return result

    def test_random_marks_on_gmsh_plate(self):
        grid = gt.read_vtu("plate_with_holes.vtu")
        marks = (np.random.default_rng(1).random(grid.GetNumberOfCells()) < 0.1).astype(float)
        for precision in ("Auto", "Single", "Double"):
            with self.subTest(precision=precision):
                self.check_invariants(grid, marks, precision=precision)

    def test_regional_marks_on_gmsh_plate_two_passes(self):
        grid = gt.read_vtu("plate_with_holes.vtu")
        points, triangles = arrays(grid)
        centroids = points[np.asarray(triangles)].mean(axis=1)
        marks = (np.hypot(centroids[:, 0] - 1.0, centroids[:, 1] - 1.0) < 0.5).astype(float)
        self.check_invariants(grid, marks, passes=2)

    def test_random_marks_on_sphere(self):
        grid = gt.read_vtu("sphere_surface.vtu")
        marks = (np.random.default_rng(2).random(grid.GetNumberOfCells()) < 0.2).astype(float)
        self.check_invariants(grid, marks)

    def test_refine_all_as_polydata(self):
        polydata = gt.as_polydata(gt.read_vtu("sphere_surface.vtu"))
        result = refine_on_device(polydata, RefineAll=1)
        self.assertEqual(result.GetClassName(), "vtkPolyData")
        self.assertGreaterEqual(result.GetNumberOfCells(), 2 * polydata.GetNumberOfCells())

    def test_same_triangles_when_cells_are_permuted_and_flipped(self):
        for grid in (gt.read_vtu("plate_with_holes.vtu"), equilateral_grid(12)):
            points, triangles = arrays(grid)
            rng = np.random.default_rng(3)
            marks = (rng.random(len(triangles)) < 0.15).astype(float)
            order = rng.permutation(len(triangles))
            flipped = [(t[0], t[2], t[1]) if rng.random() < 0.5 else t for t in (triangles[i] for i in order)]
            first = refine_on_device(make_grid(points, triangles), marks)
            second = refine_on_device(make_grid(points, flipped), marks[order])
            self.assertEqual(geometry_set(*arrays(first), oriented=False), geometry_set(*arrays(second), oriented=False))

    def test_ties_on_a_lattice_of_tall_isosceles_triangles(self):
        grid = tall_lattice(10)  # both legs of every triangle are longest, exactly (squared 10)
        marks = (np.random.default_rng(4).random(grid.GetNumberOfCells()) < 0.2).astype(float)
        self.check_invariants(grid, marks, passes=2)

    def test_thesis_example_through_the_filter(self):
        points = [(0, 3, 0), (15, 0, 0), (0, 16, 0), (25, 14, 0), (10, 24, 0)]
        result = refine_on_device(make_grid(points, [(1, 0, 2), (3, 1, 2), (3, 2, 4)]), [1, 0, 0])
        self.assertEqual(result.GetNumberOfCells(), 7)
        new_points = {tuple(result.GetPoint(i)) for i in range(5, result.GetNumberOfPoints())}
        self.assertEqual(new_points, {(7.5, 8.0, 0.0), (12.5, 15.0, 0.0)})

    def test_point_and_cell_data(self):
        grid = gt.read_vtu("plate_with_holes.vtu")
        x = vtkDoubleArray()
        x.SetName("X")
        for i in range(grid.GetNumberOfPoints()):
            x.InsertNextValue(grid.GetPoint(i)[0])
        grid.GetPointData().AddArray(x)
        add_cell_array(grid, "CellTag", np.arange(grid.GetNumberOfCells(), dtype=float))
        marks = (np.random.default_rng(5).random(grid.GetNumberOfCells()) < 0.1).astype(float)
        result = refine_on_device(grid, marks)
        out_x = np.array([result.GetPointData().GetArray("X").GetValue(i) for i in range(result.GetNumberOfPoints())])
        np.testing.assert_allclose(out_x, [result.GetPoint(i)[0] for i in range(result.GetNumberOfPoints())], atol=1e-12)
        np.testing.assert_array_equal(gt.cell_array(result, "CellTag"), gt.cell_array(result, "ParentCellId"))

    def test_large_arrays_keep_the_input_where_nothing_changed(self):
        # Output arrays of more than 8 MiB take the filter's huge-page, parallel-copy path.
        for point_type, passes in ((np.float32, 1), (np.float64, 2)):
            grid, xyz, triangles = large_triangle_grid(650, point_type)  # 845,000 triangles
            n = len(triangles)
            marks = (np.random.default_rng(6).random(n) < 0.002).astype(float)
            result = refine_on_device(grid, marks, Passes=passes)
            out_xyz = ns.vtk_to_numpy(result.GetPoints().GetData())
            self.assertEqual(out_xyz.dtype, point_type)
            np.testing.assert_array_equal(out_xyz[: len(xyz)], xyz)
            parent = gt.cell_array(result, "ParentCellId").astype(np.int64)
            np.testing.assert_array_equal(gt.cell_array(result, "CellTag"), parent)
            pair = ns.vtk_to_numpy(result.GetCellData().GetArray("Pair"))
            np.testing.assert_array_equal(pair, np.stack([parent, -parent], 1))
            position = ns.vtk_to_numpy(result.GetPointData().GetArray("Position"))
            np.testing.assert_allclose(position, out_xyz, rtol=1e-6 if point_type == np.float32 else 0)
            out_triangles = ns.vtk_to_numpy(result.GetPolys().GetConnectivityArray()).reshape(-1, 3)
            areas = np.linalg.norm(triangle_area_vectors(out_xyz.astype(float), out_triangles), axis=1)
            np.testing.assert_allclose(np.bincount(parent, weights=areas, minlength=n),
                np.linalg.norm(triangle_area_vectors(xyz.astype(float), triangles), axis=1),
                rtol=1e-3 if point_type == np.float32 else 1e-9)  # float midpoints at |x| ~ 650
            if passes == 1:
                # Kept triangles are the input's, except the refined ones (their first child).
                changed = np.flatnonzero((out_triangles[:n] != triangles).any(axis=1))
                np.testing.assert_array_equal(changed, np.unique(parent[n:]))
                np.testing.assert_array_equal(parent[:n], np.arange(n))

    def test_nan_marks_nothing_and_threshold_applies(self):
        grid = gt.read_vtu("plate_with_holes.vtu")
        marks = np.full(grid.GetNumberOfCells(), np.nan)
        marks[:10] = 5.0
        marks[10:20] = 1.0
        result = refine_on_device(grid, marks, MarkThreshold=2.0)
        self.assertEqual(gt.field_value(result, "MarkedCells"), 10)

    def expect_error(self, grid, text, **properties):
        with gt.CapturedErrors() as errors:
            result = gt.fetch(simple.GPULongestEdgeRefinement(Input=gt.producer(grid), **properties))
        self.assertIn(text, errors.text)
        self.assertEqual(result.GetNumberOfCells(), 0)

    def test_bad_input(self):
        quads = make_grid([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)], [(0, 1, 2)])
        quads.InsertNextCell(VTK_QUAD, 4, [0, 1, 2, 3])
        self.expect_error(quads, "Cell 1 is a vtkQuad", RefineAll=1)
        fan = make_grid([(0, 0, 0), (1, 0, 0), (0.5, 1, 0), (0.5, -1, 0), (0.5, 0, 1)], [(0, 1, 2), (1, 0, 3), (0, 1, 4)])
        self.expect_error(fan, "Cell 0 has an edge shared by more than two triangles", RefineAll=1)
        flat = make_grid([(0, 0, 0), (1, 0, 0), (0, 1, 0), (2, 0, 0)], [(0, 1, 2), (0, 1, 3)])
        self.expect_error(flat, "Cell 1 is degenerate", RefineAll=1)
        seam = make_grid([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)], [(0, 1, 2), (3, 5, 4)])
        self.expect_error(seam, "unmerged duplicate points", RefineAll=1)
        self.expect_error(gt.read_vtu("plate_with_holes.vtu"), "no cell array named 'Missing' to use as Mark Array", MarkArray=["CELLS", "Missing"])


def large_triangle_grid(n, point_type):
    """A jittered n x n grid of squares split into triangles as vtkPolyData with VTK's default
    64-bit cell arrays, a cell array CellTag (the cell id), a two-component cell array Pair
    (id, -id) and a point array Position (the coordinates as doubles)."""
    rng = np.random.default_rng(7)
    x, y = np.meshgrid(np.arange(n + 1.0), np.arange(n + 1.0))
    xyz = np.stack([x.ravel() + 0.3 * rng.random(x.size), y.ravel() + 0.3 * rng.random(x.size),
        0.1 * rng.random(x.size)], 1).astype(point_type)
    i, j = np.meshgrid(np.arange(n), np.arange(n))
    a = (j * (n + 1) + i).ravel()
    triangles = np.concatenate([np.stack([a, a + 1, a + n + 2], 1), np.stack([a, a + n + 2, a + n + 1], 1)])
    polydata = vtkPolyData()
    points = vtkPoints()
    points.SetData(ns.numpy_to_vtk(xyz, deep=1))
    polydata.SetPoints(points)
    cells = vtkCellArray()
    cells.SetData(ns.numpy_to_vtkIdTypeArray(np.arange(0, 3 * len(triangles) + 1, 3), deep=1),
        ns.numpy_to_vtkIdTypeArray(triangles.ravel().astype(np.int64), deep=1))
    polydata.SetPolys(cells)
    for name, values, data in (("CellTag", np.arange(len(triangles), dtype=float), polydata.GetCellData()),
            ("Pair", np.stack([np.arange(len(triangles)), -np.arange(len(triangles))], 1).astype(np.int32),
                polydata.GetCellData()),
            ("Position", xyz.astype(float), polydata.GetPointData())):
        array = ns.numpy_to_vtk(values, deep=1)
        array.SetName(name)
        data.AddArray(array)
    return polydata, xyz, triangles


def tall_lattice(n):
    """Rows 3 apart, points 2 apart, odd rows shifted by 1: triangles of base 2 and legs
    sqrt(10), so every triangle's two longest edges tie exactly in any precision."""
    points = [(2 * i + (j % 2), 3 * j, 0.0) for j in range(n + 1) for i in range(n + 1)]
    at = lambda i, j: j * (n + 1) + i
    triangles = []
    for j in range(n):
        for i in range(n):
            if j % 2 == 0:
                triangles += [(at(i, j), at(i + 1, j), at(i, j + 1)), (at(i + 1, j), at(i + 1, j + 1), at(i, j + 1))]
            else:
                triangles += [(at(i, j), at(i + 1, j), at(i + 1, j + 1)), (at(i, j), at(i + 1, j + 1), at(i, j + 1))]
    return make_grid(points, triangles)


def equilateral_grid(n):
    points = [(i + 0.5 * j, j * math.sqrt(3) / 2, 0.0) for j in range(n + 1) for i in range(n + 1)]
    at = lambda i, j: j * (n + 1) + i
    triangles = []
    for j in range(n):
        for i in range(n):
            triangles += [(at(i, j), at(i + 1, j), at(i, j + 1)), (at(i + 1, j), at(i + 1, j + 1), at(i, j + 1))]
    return make_grid(points, triangles)


if __name__ == "__main__":
    unittest.main(verbosity=2)
