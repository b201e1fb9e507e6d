"""GPU Longest Edge Refinement on tetrahedra: the CPU reference (tetra_reference.py) cell by
cell, and the invariants of conforming bisection on unstructured tetrahedral meshes (gmsh's
ball, a Delaunay tetrahedralization of random points, a jittered Kuhn grid) with random and
regional marks, in Double and Single precision."""
import unittest
from collections import Counter

import numpy as np
from paraview import simple
from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkPoints
from vtkmodules.vtkCommonDataModel import VTK_TETRA, VTK_TRIANGLE, vtkPolyData, vtkUnstructuredGrid
from vtkmodules.vtkFiltersCore import vtkDelaunay3D

import gpumesh_testing as gt
import tetra_reference

gt.load_plugin()

FACES = tetra_reference.FACES
EDGES = tetra_reference.EDGES


def make_grid(points, tets):
    vtk_points = vtkPoints()
    vtk_points.SetDataTypeToDouble()
    for p in points:
        vtk_points.InsertNextPoint(*p)
    grid = vtkUnstructuredGrid()
    grid.SetPoints(vtk_points)
    for t in tets:
        grid.InsertNextCell(VTK_TETRA, 4, [int(v) for v in t])
    return grid


def arrays(grid):
    points = np.array([grid.GetPoint(i) for i in range(grid.GetNumberOfPoints())]).reshape(-1, 3)
    tets = [tuple(grid.GetCell(c).GetPointIds().GetId(k) for k in range(4)) for c in range(grid.GetNumberOfCells())]
    return points, tets


def volumes(points, tets):
    t = np.asarray(tets, dtype=int).reshape(-1, 4)
    a = points[t[:, 0]]
    return np.einsum("ij,ij->i", points[t[:, 1]] - a, np.cross(points[t[:, 2]] - a, points[t[:, 3]] - a)) / 6.0


def face_uses(tets):
    return Counter(tuple(sorted((t[f[0]], t[f[1]], t[f[2]]))) for t in tets for f in FACES)


def boundary_area(points, uses):
    faces = np.array([f for f, n in uses.items() if n == 1], dtype=int).reshape(-1, 3)
    a = points[faces[:, 0]]
    return 0.5 * np.linalg.norm(np.cross(points[faces[:, 1]] - a, points[faces[:, 2]] - a), axis=1).sum()


def euler(tets):
    vertices = {v for t in tets for v in t}
    edges = {tuple(sorted((t[a], t[b]))) for t in tets for a, b in EDGES}
    return len(vertices) - len(edges) + len(face_uses(tets)) - len(tets)


def smallest_dihedral_degrees(points, tets):
    """The smallest dihedral angle over all tetrahedra, in degrees."""
    t = np.asarray(tets, dtype=int).reshape(-1, 4)
    p = points[t]
    normals = [np.cross(p[:, f[1]] - p[:, f[0]], p[:, f[2]] - p[:, f[0]]) for f in FACES]
    normals = [n / np.linalg.norm(n, axis=1)[:, None] for n in normals]
    smallest = np.pi
    for i in range(4):
        for j in range(i + 1, 4):
            # faces of one orientation: the interior angle is pi minus the normals' angle
            cosine = np.clip(np.einsum("ij,ij->i", normals[i], normals[j]), -1.0, 1.0)
            smallest = min(smallest, float(np.min(np.pi - np.arccos(cosine))))
    return np.degrees(smallest)


def kuhn_grid(n, seed, jitter=0.2):
    """A jittered n^3 grid of cubes, each cut into 6 Kuhn tetrahedra, positive volumes."""
    rng = np.random.default_rng(seed)
    index = lambda i, j, k: (k * (n + 1) + j) * (n + 1) + i
    points = []
    for k in range(n + 1):
        for j in range(n + 1):
            for i in range(n + 1):
                inside = 0 < i < n and 0 < j < n and 0 < k < n
                points.append(np.array([i, j, k], float) + (rng.uniform(-jitter, jitter, 3) if inside else 0.0))
    points = np.array(points)
    tets = []
    for k in range(n):
        for j in range(n):
            for i in range(n):
                for path in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
                    c = [i, j, k]
                    t = [index(*c)]
                    for axis in path:
                        c[axis] += 1
                        t.append(index(*c))
                    if volumes(points, [t])[0] < 0:
                        t[2], t[3] = t[3], t[2]
                    tets.append(tuple(t))
    return points, tets


def delaunay(count, seed):
    """A Delaunay tetrahedralization of random points in the unit cube (with its corners)."""
    rng = np.random.default_rng(seed)
    corners = np.array([[i, j, k] for i in (0, 1) for j in (0, 1) for k in (0, 1)], float)
    points = np.vstack([corners, rng.random((count, 3))])
    vtk_points = vtkPoints()
    vtk_points.SetDataTypeToDouble()
    for p in points:
        vtk_points.InsertNextPoint(*p)
    cloud = vtkPolyData()
    cloud.SetPoints(vtk_points)
    mesher = vtkDelaunay3D()
    mesher.SetInputData(cloud)
    mesher.Update()
    out_points, tets = arrays(mesher.GetOutput())
    tets = [t if v > 0 else (t[0], t[1], t[3], t[2]) for t, v in zip(tets, volumes(out_points, tets))]
    keep = [t for t, v in zip(tets, np.abs(volumes(out_points, tets))) if v > 1e-9]
    return out_points, keep


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


class TetraRefinementTest(unittest.TestCase):
    def check(self, points, tets, marks, passes=1, precision="Double"):
        """Refines on the device, compares with the reference cell by cell, checks the invariants."""
        result = refine_on_device(make_grid(points, tets), marks, Passes=passes, Precision=precision)
        single = precision == "Single"
        ref_points, ref_tets, ref_parent = tetra_reference.refine(
            points, tets, np.asarray(marks) > 0, passes, np.float32 if single else np.float64, shift=single)
        out_points, out_tets = arrays(result)
        self.assertEqual(out_tets, ref_tets)  # cell by cell, index for index
        np.testing.assert_allclose(out_points, ref_points, rtol=0, atol=1e-12)
        parent = gt.cell_array(result, "ParentCellId").astype(int)
        np.testing.assert_array_equal(parent, ref_parent)

        before, after = face_uses(tets), face_uses(out_tets)
        self.assertLessEqual(max(after.values()), 2, "a face shared by more than two tetrahedra")
        self.assertAlmostEqual(boundary_area(out_points, after), boundary_area(points, before),
                               delta=1e-9 * boundary_area(points, before))
        self.assertEqual(euler(out_tets), euler(tets))
        parent_volume = volumes(points, tets)
        child_volume = volumes(out_points, out_tets)
        self.assertTrue(np.all(child_volume * parent_volume[parent] > 0), "a child flipped or flat")
        summed = np.zeros_like(parent_volume)
        np.add.at(summed, parent, child_volume)
        np.testing.assert_allclose(summed, parent_volume, rtol=1e-9)
        self.assertAlmostEqual(child_volume.sum(), parent_volume.sum(), delta=1e-9 * abs(parent_volume.sum()))
        children = Counter(parent)
        for c in np.nonzero(np.asarray(marks) > 0)[0]:
            self.assertGreaterEqual(children[c], 2, "marked cell %d was not split" % c)
        self.assertLessEqual(max(children.values()), 8 ** passes)
        self.assertEqual(gt.field_value(result, "MarkedCells"), int(np.sum(np.asarray(marks) > 0)))
        self.assertEqual(gt.field_value(result, "CreatedCells"), len(out_tets) - len(tets))
        for step in ("1_edge_lengths", "2_closure", "3_counts", "4_prefix_sums", "5_templates"):
            self.assertGreaterEqual(gt.field_value(result, "KernelTimeMs_step_" + step), 0.0)
        return result

    def test_random_marks_on_delaunay_mesh(self):
        points, tets = delaunay(300, 1)
        marks = (np.random.default_rng(2).random(len(tets)) < 0.05).astype(float)
        for precision in ("Double", "Single"):
            with self.subTest(precision=precision):
                self.check(points, tets, marks, precision=precision)

    def test_random_marks_on_gmsh_ball(self):
        points, tets = arrays(gt.read_vtu("ball_tets.vtu"))
        marks = (np.random.default_rng(3).random(len(tets)) < 0.02).astype(float)
        self.check(points, tets, marks)

    def test_regional_marks_on_kuhn_grid_two_passes(self):
        points, tets = kuhn_grid(5, 3)
        centres = np.array([points[list(t)].mean(axis=0) for t in tets])
        marks = (np.linalg.norm(centres - 2.5, axis=1) < 1.2).astype(float)
        for precision in ("Double", "Single"):
            with self.subTest(precision=precision):
                self.check(points, tets, marks, passes=2, precision=precision)

    def test_every_cell_marked(self):
        points, tets = delaunay(60, 4)
        result = self.check(points, tets, np.ones(len(tets)))
        self.assertIn(8, Counter(gt.cell_array(result, "ParentCellId").astype(int)).values())

    def test_renumbered_and_reoriented_input_gives_the_same_tetrahedra(self):
        points, tets = delaunay(200, 5)
        marks = (np.random.default_rng(6).random(len(tets)) < 0.1).astype(float)
        rng = np.random.default_rng(7)
        point_order = rng.permutation(len(points))  # new id -> old id
        new_id = np.empty_like(point_order)
        new_id[point_order] = np.arange(len(points))
        cell_order = rng.permutation(len(tets))
        # Any order of each cell's vertices, half of them of the other orientation.
        reoriented = [tuple(int(new_id[v]) for v in rng.permutation(tets[c])) for c in cell_order]

        def geometry(result, input_tets, input_points):
            """The tetrahedra as sets of corners, and whether each kept its parent's orientation."""
            out_points, out_tets = arrays(result)
            parent = gt.cell_array(result, "ParentCellId").astype(int)
            kept = volumes(out_points, out_tets) * volumes(input_points, input_tets)[parent] > 0
            return sorted(tuple(sorted(tuple(out_points[v]) for v in t)) for t in out_tets), bool(kept.all())

        first = refine_on_device(make_grid(points, tets), marks, Precision="Double")
        second = refine_on_device(make_grid(points[point_order], reoriented), marks[cell_order], Precision="Double")
        first_cells, first_kept = geometry(first, tets, points)
        second_cells, second_kept = geometry(second, reoriented, points[point_order])
        self.assertEqual(first_cells, second_cells)
        self.assertTrue(first_kept and second_kept, "a child lost its parent's orientation")
        self.assertGreater(len(first_cells), len(tets))

    def test_data_is_interpolated_and_copied(self):
        points, tets = kuhn_grid(2, 8)
        grid = make_grid(points, tets)
        heat = vtkDoubleArray()
        heat.SetName("Heat")
        for p in points:
            heat.InsertNextValue(p[0] + 2 * p[1] - p[2])  # linear: exact at midpoints
        grid.GetPointData().AddArray(heat)
        add_cell_array(grid, "Material", np.arange(len(tets)) % 3)
        result = refine_on_device(grid, RefineAll=1)
        out_points, _ = arrays(result)
        np.testing.assert_allclose(np.array([result.GetPointData().GetArray("Heat").GetValue(i) for i in range(result.GetNumberOfPoints())]),
                                   out_points[:, 0] + 2 * out_points[:, 1] - out_points[:, 2], atol=1e-12)
        parent = gt.cell_array(result, "ParentCellId").astype(int)
        np.testing.assert_array_equal(gt.cell_array(result, "Material"), parent % 3)

    def test_quality_after_uniform_passes(self):
        """The smallest dihedral angle stays bounded below over passes (bench_refinement_dolfinx.py
        --quality measures it); here it must not collapse."""
        points, tets = kuhn_grid(2, 9, jitter=0.0)
        start = smallest_dihedral_degrees(points, tets)
        grid = make_grid(points, tets)
        for passes in (1, 3, 5):
            with self.subTest(passes=passes):
                out_points, out_tets = arrays(refine_on_device(grid, RefineAll=1, Passes=passes, Precision="Double"))
                self.assertGreater(smallest_dihedral_degrees(out_points, out_tets), 0.3 * start)

    def expect_error(self, grid, text, **properties):
        with gt.CapturedErrors() as errors:
            result = gt.fetch(simple.GPULongestEdgeRefinement(Input=gt.producer(grid), **properties))
        self.assertIn(text, errors.text)
        self.assertEqual(result.GetNumberOfCells(), 0)

    def test_bad_input(self):
        corner = [(0, 0, 0), (3, 0, 0), (0, 2, 0), (0, 0, 1), (0, 0, -1), (1, 1, 1)]
        mixed = make_grid(corner, [(0, 1, 2, 3)])
        mixed.InsertNextCell(VTK_TRIANGLE, 3, [0, 1, 4])
        self.expect_error(mixed, "Cell 1 is a vtkTriangle in a mesh of vtkTetras", RefineAll=1)
        flat = make_grid(corner[:4] + [(1, 0.5, 0)], [(0, 1, 2, 3), (0, 2, 1, 4)])
        self.expect_error(flat, "Cell 1 is a degenerate tetrahedron", RefineAll=1)
        fan = make_grid(corner, [(0, 1, 2, 3), (0, 2, 1, 4), (0, 2, 1, 5)])
        self.expect_error(fan, "has a face shared by more than two tetrahedra", RefineAll=1)
        seam = make_grid(corner[:5] + [corner[2]], [(0, 1, 2, 3), (0, 5, 1, 4)])
        self.expect_error(seam, "unmerged duplicate points", RefineAll=1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
