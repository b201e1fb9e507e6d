"""Precision (issue: exact on graded and extreme meshes): every filter on boundary-layer meshes
graded 1e3, 1e5 and 1e6 far from the origin, triangles and tetrahedra, against independent
references in extended precision (numpy's longdouble), measured relative to each cell's or
point's own size; and meshes and arrays scaled from 1e-30 to 1e30: exact up to scale, or an
error naming the problem and suggesting Double."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkFloatArray, vtkPoints
from vtkmodules.vtkCommonDataModel import VTK_TETRA, VTK_TRIANGLE, vtkCellArray, vtkUnstructuredGrid

import gpumesh_testing as gt

gt.load_plugin()
LD = np.longdouble


def boundary_layer(grading, tetrahedra=False, dtype=np.float64, offset=(1000.0, 1000.0, 0.0), columns=8, layers=14):
    """A wall-resolved block: first layer 1e-6 thick, each layer thicker by a constant ratio so
    that the last is `grading` times the first; columns 0.01 wide. Quads split in 2 triangles,
    or hexahedra (two cells deep) split in 6 tetrahedra (Kuhn, conforming)."""
    ratio = grading ** (1.0 / (layers - 1))
    y = np.concatenate([[0.0], np.cumsum(1e-6 * ratio ** np.arange(layers))])
    x = 0.01 * np.arange(columns + 1)
    z = 0.01 * np.arange(3) if tetrahedra else np.zeros(1)
    X, Y, Z = np.meshgrid(x, y, z, indexing="ij")
    points = np.stack([X.ravel() + offset[0], Y.ravel() + offset[1], Z.ravel() + offset[2]], axis=1).astype(dtype)
    index = lambda i, j, k: (i * len(y) + j) * len(z) + k
    cells = []
    for i in range(columns):
        for j in range(layers):
            if not tetrahedra:
                a, b, c, d = index(i, j, 0), index(i + 1, j, 0), index(i + 1, j + 1, 0), index(i, j + 1, 0)
                cells += [(a, b, c), (a, c, d)]
                continue
            for k in range(len(z) - 1):
                v = [index(i + (n & 1), j + ((n >> 1) & 1), k + ((n >> 2) & 1)) for n in range(8)]
                for path in ((1, 3), (1, 5), (2, 3), (2, 6), (4, 5), (4, 6)):  # Kuhn: 0 -> ... -> 7
                    cells.append((v[0], v[path[0]], v[path[0] | path[1]], v[7]))
    return points, np.array(cells)


def make_grid(points, cells):
    grid = vtkUnstructuredGrid()
    vtk_points = vtkPoints()
    vtk_points.SetData(numpy_to_vtk(np.ascontiguousarray(points), deep=1))
    grid.SetPoints(vtk_points)
    n = cells.shape[1]
    cell_array = vtkCellArray()
    offsets = numpy_to_vtk(np.arange(0, n * len(cells) + 1, n, dtype=np.int64), deep=1)
    connectivity = numpy_to_vtk(cells.ravel().astype(np.int64), deep=1)
    cell_array.SetData(offsets, connectivity)
    grid.SetCells(VTK_TRIANGLE if n == 3 else VTK_TETRA, cell_array)
    return grid


def run(filter_name, grid, **properties):
    return gt.fetch(getattr(simple, filter_name)(Input=gt.producer(grid), **properties))


def measures(points, cells):
    p = points.astype(LD)
    a = p[cells[:, 0]]
    if cells.shape[1] == 3:
        cross = np.cross(p[cells[:, 1]] - a, p[cells[:, 2]] - a)
        return 0.5 * np.sqrt((cross * cross).sum(axis=1))
    d = p[cells[:, 1:]] - a[:, None, :]
    return np.einsum("ij,ij->i", d[:, 0], np.cross(d[:, 1], d[:, 2])) / 6


def sides(cells):
    """Each side (edge of a triangle, face of a tetrahedron) as a sorted tuple -> its cells."""
    n = cells.shape[1]
    local = [(0, 1), (1, 2), (2, 0)] if n == 3 else [(0, 1, 3), (1, 2, 3), (2, 0, 3), (0, 2, 1)]
    result = {}
    for c, cell in enumerate(cells):
        for side in local:
            result.setdefault(tuple(sorted(cell[list(side)])), []).append(c)
    return result


def edges(cells):
    n = cells.shape[1]
    pairs = [(0, 1), (1, 2), (2, 0)] if n == 3 else [(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)]
    return {tuple(sorted((cell[a], cell[b]))) for cell in cells for a, b in pairs}


def cell_diameters(points, cells):
    """Each cell's own size: its longest edge."""
    p = points.astype(np.float64)
    n = cells.shape[1]
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    return np.max([np.linalg.norm(p[cells[:, a]] - p[cells[:, b]], axis=1) for a, b in pairs], axis=0)


class Graded(unittest.TestCase):
    GRADINGS = (1e3, 1e5, 1e6)
    # Double: within 1e-9 of each cell's (point's) own size. Single on float points: within
    # 1e-5 (a few float roundings of the cell's own differences; docs/filters.md's documented bound).
    CASES = (("Double", np.float64, 1e-9), ("Single", np.float32, 1e-5))

    def cases(self):
        for grading in self.GRADINGS:
            for tetrahedra in (False, True):
                for precision, dtype, tolerance in self.CASES:
                    # Float points cannot hold 1e-6 steps at 1000: their wall is at y = 0 instead.
                    offset = (1000.0, 1000.0, 0.0) if dtype == np.float64 else (1000.0, 0.0, 0.0)
                    points, cells = boundary_layer(grading, tetrahedra, dtype, offset)
                    yield dict(grading=grading, tetrahedra=tetrahedra, precision=precision), points, cells, precision, tolerance

    def test_cell_sizes(self):
        for case, points, cells, precision, tolerance in self.cases():
          with self.subTest(**case):
            result = run("GPUCellReduction", make_grid(points, cells), Precision=precision)
            self.assertEqual(gt.field_value(result, "Precision"), precision)
            got = gt.cell_array(result, "Size").astype(LD)
            expected = measures(points, cells)
            error = np.abs(got - expected) / np.abs(expected)
            self.assertLess(float(error.max()), tolerance)
            self.assertLess(abs(gt.field_value(result, "Sum") - float(expected.sum())), tolerance * float(np.abs(expected).sum()))

    def test_neighbor_distances(self):
        for case, points, cells, precision, tolerance in self.cases():
          with self.subTest(**case):
            result = run("GPUNeighborDistance", make_grid(points, cells), Precision=precision)
            centroids = points.astype(LD)[cells].mean(axis=1)
            lo = np.full(len(cells), np.inf, dtype=LD)
            hi = np.zeros(len(cells), dtype=LD)
            for owners in sides(cells).values():
                if len(owners) == 2:
                    a, b = owners
                    d = np.sqrt(((centroids[a] - centroids[b]) ** 2).sum())
                    for c in owners:
                        lo[c], hi[c] = min(lo[c], d), max(hi[c], d)
            size = cell_diameters(points, cells)
            for name, expected in (("MinNeighborDistance", lo), ("MaxNeighborDistance", hi)):
                got = gt.cell_array(result, name).astype(LD)
                self.assertLess(float((np.abs(got - expected) / size).max()), tolerance, name)

    def test_laplacian_smoothing(self):
        for case, points, cells, precision, tolerance in self.cases():
          with self.subTest(**case):
            grid = make_grid(points, cells)
            result = run("GPUVertexSmoothing", grid, Iterations=3, RelaxationFactor=0.5, Boundary="Free",
                         Precision=precision)
            neighbours = [[] for _ in range(len(points))]
            lengths = [[] for _ in range(len(points))]
            for a, b in edges(cells):
                neighbours[a].append(b)
                neighbours[b].append(a)
                length = float(np.linalg.norm(points[a].astype(np.float64) - points[b]))
                lengths[a].append(length)
                lengths[b].append(length)
            x = points.astype(LD)
            for _ in range(3):
                x = np.array([x[v] + LD(0.5) * (x[nb].mean(axis=0) - x[v]) for v, nb in enumerate(neighbours)])
            got = vtk_to_numpy(result.GetPoints().GetData())
            self.assertEqual(result.GetPoints().GetData().GetDataType(), grid.GetPoints().GetData().GetDataType())
            # An output point cannot be finer than its own type's spacing at its coordinates
            # (6e-5 for float at 1000); beyond that, the tolerance of the local edge.
            local = np.array([np.mean(l) for l in lengths])
            allowed = np.spacing(np.abs(got)).astype(LD) + tolerance * local[:, None]
            self.assertTrue(np.all(np.abs(got.astype(LD) - x) <= allowed),
                            float((np.abs(got.astype(LD) - x) / allowed).max()))

    def test_refinement_matches_the_reference_in_the_run_precision(self):
        import leb_reference
        for grading in self.GRADINGS:
            for precision, dtype, _ in self.CASES:
                offset = (1000.0, 1000.0, 0.0) if dtype == np.float64 else (1000.0, 0.0, 0.0)
                points, cells = boundary_layer(grading, False, dtype, offset)
                grid = make_grid(points, cells)
                marks = (np.random.default_rng(5).random(len(cells)) < 0.2).astype(float)
                array = vtkDoubleArray()
                array.SetName("Marks")
                for m in marks:
                    array.InsertNextValue(m)
                grid.GetCellData().AddArray(array)
                with self.subTest(grading=grading, precision=precision):
                    result = run("GPULongestEdgeRefinement", grid, MarkArray=["CELLS", "Marks"], Precision=precision)
                    _, ref_triangles, _ = leb_reference.refine(points, [tuple(c) for c in cells], marks > 0, 1, dtype)
                    out = vtk_to_numpy(result.GetCells().GetConnectivityArray()).reshape(-1, 3)
                    self.assertEqual([tuple(int(v) for v in t) for t in out], ref_triangles)


class FarFromTheCentre(unittest.TestCase):
    """Single rounds double points to float relative to the centre of their bounds: a cell too
    small for float at its distance from the centre is an error naming it, never areas of 0 or
    centroids 1e12 off; cells that float holds there, and cells degenerate in the input, run."""

    def two_triangles(self, far, size):
        points = np.array([(0, 0, 0), (1e-3, 0, 0), (0, 1e-3, 0),
                           (far, 0, 0), (far + size, 0, 0), (far, size, 0)], dtype=np.float64)
        return make_grid(points, np.array([(0, 1, 2), (3, 4, 5)]))

    def test_cells_lost_to_rounding_are_an_error(self):
        grid = self.two_triangles(1e20, 1e5)
        for name in ("GPUCellReduction", "GPUNeighborDistance", "GPUVertexSmoothing"):
            with self.subTest(filter=name):
                with gt.CapturedErrors() as errors:
                    result = run(name, grid, Precision="Single")
                self.assertEqual(result.GetNumberOfCells(), 0)
                for word in ("Cell 0", "single precision", "Precision to Double"):
                    self.assertIn(word, errors.text)
        # Double keeps both (as far as double points hold them: 1e20 + 1e5 is 1e20 + 98304).
        sizes = gt.cell_array(run("GPUCellReduction", grid, Precision="Double"), "Size")
        points = vtk_to_numpy(grid.GetPoints().GetData())
        np.testing.assert_allclose(sizes, measures(points, np.array([(0, 1, 2), (3, 4, 5)])).astype(np.float64),
                                   rtol=1e-12)

    def test_cells_float_holds_there_run(self):
        # 1e-3 at 1 from the centre: float rounds it by 6e-5 of its size there.
        sizes = gt.cell_array(run("GPUCellReduction", self.two_triangles(1.0, 1.0), Precision="Single"), "Size")
        np.testing.assert_allclose(sizes, [5e-7, 0.5], rtol=1e-3)
        # A mesh far from the origin but small around its own centre: as in Double.
        points, cells = boundary_layer(1e3, False, np.float64, (1e12, -1e12, 1e12))
        result = run("GPUCellReduction", make_grid(points, cells), Precision="Single")
        np.testing.assert_allclose(gt.cell_array(result, "Size"), measures(points, cells).astype(np.float64),
                                   rtol=1e-3)

    def test_degenerate_cells_are_not_a_precision_error(self):
        points = np.array([(0, 0, 0), (1, 0, 0), (0, 1, 0), (5, 5, 0)], dtype=np.float64)
        result = run("GPUCellReduction", make_grid(points, np.array([(0, 1, 2), (3, 3, 3)])), Precision="Single")
        np.testing.assert_array_equal(gt.cell_array(result, "Size"), [0.5, 0.0])


class Scaled(unittest.TestCase):
    """A small graded mesh scaled by 1e-30 ... 1e30: double kernels are exact up to scale; float
    kernels either are too or refuse, naming the cell or value and suggesting Double."""
    SCALES = (1e-30, 1e-25, 1e-20, 1e-10, 1e10, 1e20, 1e25, 1e30)

    def setUp(self):
        self.points, self.cells = boundary_layer(1e2, False, np.float64, (3.0, 1.0, 0.0), columns=4, layers=5)

    def expect_error(self, filter_name, grid, words, **properties):
        with gt.CapturedErrors() as errors:
            result = run(filter_name, grid, **properties)
        self.assertEqual(result.GetNumberOfCells(), 0)
        for word in words:
            self.assertIn(word, errors.text)

    def single_or_error(self, filter_name, grid, check, **properties):
        """Single precision gives a checked result or an error suggesting Double; returns which."""
        with gt.CapturedErrors() as errors:
            result = run(filter_name, grid, Precision="Single", **properties)
        if result.GetNumberOfCells() == 0:
            self.assertIn("Double", errors.text)
            return "error"
        check(result)
        return "result"

    def test_areas_exact_up_to_scale_or_an_error(self):
        outcomes = {}
        for scale in self.SCALES:
            scaled = self.points * scale
            with self.subTest(scale=scale, precision="Auto"):
                got = gt.cell_array(run("GPUCellReduction", make_grid(scaled, self.cells)), "Size")
                np.testing.assert_allclose(got, measures(scaled, self.cells).astype(np.float64), rtol=1e-12)
            with self.subTest(scale=scale, precision="Single"):
                floats = scaled.astype(np.float32)
                expected = measures(floats, self.cells).astype(np.float64)
                check = lambda r: np.testing.assert_allclose(gt.cell_array(r, "Size"), expected, rtol=1e-5)
                outcomes[scale] = self.single_or_error("GPUCellReduction", make_grid(floats, self.cells), check)
        # Areas of 1e-60 or 1e60 do not exist in float; 1e-20 or 1e20 do.
        self.assertEqual(outcomes[1e-30], "error")
        self.assertEqual(outcomes[1e30], "error")
        self.assertEqual(outcomes[1e10], "result")

    def test_l2_of_huge_and_tiny_values(self):
        for value in (1e30, 1e-30, 1e300, 1e-300):
            for array_type in (vtkFloatArray, vtkDoubleArray):
                if array_type is vtkFloatArray and not 1e-37 < value < 1e37:
                    continue
                grid = make_grid(self.points, self.cells)
                array = array_type()
                array.SetName("Big")
                for c in range(len(self.cells)):
                    array.InsertNextValue(value * (1 + c % 3))
                grid.GetCellData().AddArray(array)
                expected = value * np.sqrt(sum((1 + c % 3) ** 2 for c in range(len(self.cells))))
                with self.subTest(value=value, array=array_type.__name__):
                    result = run("GPUCellReduction", grid, Quantity="Array", InputArray=["CELLS", "Big"])
                    self.assertAlmostEqual(gt.field_value(result, "L2") / expected, 1.0, delta=1e-6)
                    if value > 1e37:
                        self.expect_error("GPUCellReduction", grid, ["Big", "1e+300", "Double"], Quantity="Array",
                                          InputArray=["CELLS", "Big"], Precision="Single")

    def test_refinement_same_triangles_at_any_scale_in_double(self):
        marks = (np.random.default_rng(6).random(len(self.cells)) < 0.3).astype(float)

        def refined(scale, **properties):
            grid = make_grid(self.points * scale, self.cells)
            array = vtkDoubleArray()
            array.SetName("Marks")
            for m in marks:
                array.InsertNextValue(m)
            grid.GetCellData().AddArray(array)
            return grid, run("GPULongestEdgeRefinement", grid, MarkArray=["CELLS", "Marks"], **properties)

        _, base = refined(1.0)
        expected = vtk_to_numpy(base.GetCells().GetConnectivityArray())
        for scale in self.SCALES:
            with self.subTest(scale=scale):
                grid, result = refined(scale)
                np.testing.assert_array_equal(vtk_to_numpy(result.GetCells().GetConnectivityArray()), expected)
        # Squared lengths of 1e-60 or 1e60 do not exist in float: an error, not other triangles.
        for scale in (1e-30, 1e30):
            grid, _ = refined(scale)
            self.expect_error("GPULongestEdgeRefinement", grid, ["Cell ", "Double"], MarkArray=["CELLS", "Marks"],
                              Precision="Single")

    def test_smoothing_beyond_float_range(self):
        for scale in (1e39, 1e-39):
            grid = make_grid(self.points * scale, self.cells)
            with self.subTest(scale=scale):
                base = vtk_to_numpy(run("GPUVertexSmoothing", make_grid(self.points, self.cells), Boundary="Free")
                                    .GetPoints().GetData())
                got = vtk_to_numpy(run("GPUVertexSmoothing", grid, Boundary="Free").GetPoints().GetData())
                self.assertTrue(np.all(np.isfinite(got)))
                np.testing.assert_allclose(got / scale, base, rtol=1e-12, atol=1e-12)
        # In Single the points are rounded relative to the centre of their bounds: 1e39 is
        # beyond float, but this mesh's extent is not, so it smooths too (to float accuracy).
        got = vtk_to_numpy(run("GPUVertexSmoothing", make_grid(self.points * 1e39, self.cells), Boundary="Free",
                               Precision="Single").GetPoints().GetData())
        self.assertTrue(np.all(np.isfinite(got)))
        np.testing.assert_allclose(got / 1e39, base, rtol=1e-6)
        # A single point beyond float's range from the others cannot be represented: an error.
        far = self.points.copy()
        far[0] = (1e39, 0.0, 0.0)
        self.expect_error("GPUVertexSmoothing", make_grid(far, self.cells), ["Point 0", "Double"], Precision="Single")

    def test_bad_precision_value_is_an_error(self):
        grid = make_grid(self.points, self.cells)
        proxy = simple.GPUCellReduction(Input=gt.producer(grid))
        proxy.GetProperty("Precision").SetData(7)
        with gt.CapturedErrors() as errors:
            result = gt.fetch(proxy)
        self.assertEqual(result.GetNumberOfCells(), 0)
        self.assertIn("Precision 7 is not one of", errors.text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
