"""GPU Vertex Smoothing against a double-precision numpy statement of its formulas, VTK's
vtkConstrainedSmoothingFilter and vtkMassProperties."""
import math
import unittest
from collections import defaultdict

import numpy as np
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkFloatArray, vtkPoints, vtkStringArray
from vtkmodules.vtkCommonDataModel import (
    VTK_LINE, VTK_QUAD, VTK_TRIANGLE, VTK_TRIANGLE_STRIP, VTK_VERTEX, vtkCellArray, vtkPolyData,
    vtkUnstructuredGrid)
from vtkmodules.vtkFiltersCore import vtkConstrainedSmoothingFilter, vtkMassProperties

import gpumesh_testing as gt

gt.load_plugin()

RELATIVE = 1e-5  # of the mesh size (bounding-box diagonal)


# ---------------------------------------------------------------------------------------------
# The reference: the formulas in double precision, from VTK's own edges and faces.

def cell_ids(dataset, c):
    ids = dataset.GetCell(c).GetPointIds()
    return [ids.GetId(k) for k in range(ids.GetNumberOfIds())]


def topology(dataset):
    """Edges, balls and sides of the 2D and 3D cells (lines and vertices take no part)."""
    edges, cells, sides = set(), [], []
    for c in range(dataset.GetNumberOfCells()):
        cell = dataset.GetCell(c)
        dimension = cell.GetCellDimension()
        if dimension < 2:
            continue
        cells.append((c, cell_ids(dataset, c)))
        for k in range(cell.GetNumberOfEdges()):
            edge = cell.GetEdge(k)
            a, b = edge.GetPointId(0), edge.GetPointId(1)
            if a != b:
                edges.add((min(a, b), max(a, b)))
        if dimension == 2:
            ids = cells[-1][1]
            sides += [[ids[k], ids[(k + 1) % len(ids)]] for k in range(len(ids))]
        else:
            for k in range(cell.GetNumberOfFaces()):
                face = cell.GetFace(k)
                sides.append([face.GetPointId(i) for i in range(face.GetNumberOfPoints())])
    return edges, cells, sides


def links(dataset, boundary, pinned=None):
    """Neighbour pairs, ball pairs, boundary-neighbour pairs (both directions) and roles
    (0 pinned, 1 on the boundary, 2 interior)."""
    n = dataset.GetNumberOfPoints()
    edges, cells, sides = topology(dataset)
    uses = defaultdict(int)
    for side in sides:
        uses[tuple(sorted(side))] += 1
    roles = np.full(n, 2)
    boundary_edges = set()
    for side in sides:
        count = uses[tuple(sorted(side))]
        if count == 1:
            pairs = [(side[0], side[1])] if len(side) == 2 else [(side[k], side[(k + 1) % len(side)]) for k in range(len(side))]
            boundary_edges.update((min(a, b), max(a, b)) for a, b in pairs if a != b)
        if boundary == "Free" or count == 2:
            continue
        role = 0 if count > 2 or boundary == "Fixed" else 1
        for v in side:
            roles[v] = min(roles[v], role)
    if pinned is not None:
        roles[pinned] = 0

    def both_ways(pairs):
        pairs = np.array(sorted(pairs), dtype=np.int64).reshape(-1, 2)
        return np.concatenate([pairs, pairs[:, ::-1]])

    ball = np.array(sorted({(v, c) for c, ids in cells for v in ids}), dtype=np.int64).reshape(-1, 2)
    return both_ways(edges), ball, both_ways(boundary_edges), cells, roles


def mean_over(rows, sources, n):
    """Per vertex: the mean of sources[rows[:, 1]] over its rows, and how many there are."""
    sums = np.zeros((n, 3))
    np.add.at(sums, rows[:, 0], sources[rows[:, 1]])
    counts = np.bincount(rows[:, 0], minlength=n).astype(float)
    return sums / np.maximum(counts, 1)[:, None], counts


def reference(dataset, iterations=10, lam=0.5, method="Laplacian", pass_band=0.1, boundary="Fixed", pinned=None):
    n = dataset.GetNumberOfPoints()
    neighbours, ball, boundary_neighbours, cells, roles = links(dataset, boundary, pinned)
    x = points_of(dataset)

    def step(x, factor):
        new = x.copy()
        if method == "Barycentric":
            barycentres = np.zeros((dataset.GetNumberOfCells(), 3))
            for c, ids in cells:
                barycentres[c] = x[ids].mean(axis=0)
            mean, count = mean_over(ball, barycentres, n)
        else:
            mean, count = mean_over(neighbours, x, n)
        move = (roles == 2) & (count > 0)
        new[move] = x[move] + factor * (mean[move] - x[move])
        mean, count = mean_over(boundary_neighbours, x, n)
        move = (roles == 1) & (count > 0)
        new[move] = x[move] + factor * (mean[move] - x[move])
        return new

    mu = 1.0 / (pass_band - 1.0 / lam)
    for _ in range(iterations):
        x = step(x, lam)
        if method == "Taubin":
            x = step(x, mu)
    return x


# ---------------------------------------------------------------------------------------------
# Data and helpers

def points_of(dataset):
    return vtk_to_numpy(dataset.GetPoints().GetData()).astype(np.float64)


def mesh_size(dataset):
    b = dataset.GetBounds()
    return math.sqrt((b[1] - b[0]) ** 2 + (b[3] - b[2]) ** 2 + (b[5] - b[4]) ** 2)


def with_points(dataset, xyz, dtype=np.float64):
    copy = dataset.NewInstance()
    copy.DeepCopy(dataset)
    points = vtkPoints()
    points.SetData(numpy_to_vtk(np.ascontiguousarray(xyz, dtype=dtype), deep=1))
    copy.SetPoints(points)
    return copy


def jittered(dataset, fraction=0.2, seed=1):
    """Every point moved at random by up to `fraction` of the mean edge length."""
    edges, _, _ = topology(dataset)
    xyz = points_of(dataset)
    pairs = np.array(sorted(edges))
    length = np.linalg.norm(xyz[pairs[:, 0]] - xyz[pairs[:, 1]], axis=1).mean()
    rng = np.random.default_rng(seed)
    return with_points(dataset, xyz + rng.uniform(-fraction, fraction, xyz.shape) * length)




def smooth(dataset, **properties):
    return gt.fetch(simple.GPUVertexSmoothing(Input=gt.producer(dataset), **properties))


def fan(rim, hub=(0.3, 0.2, 0.1)):
    """A disc of `rim` triangles around one off-centre hub of degree `rim`."""
    angles = 2 * np.pi * np.arange(rim) / rim
    xyz = np.vstack([hub, np.column_stack([np.cos(angles), np.sin(angles), 0.05 * (np.arange(rim) % 3)])])
    polydata = vtkPolyData()
    polydata.SetPoints(vtkPoints())
    polydata.GetPoints().SetData(numpy_to_vtk(xyz, deep=1))
    triangles = vtkCellArray()
    for k in range(rim):
        triangles.InsertNextCell(3, [0, 1 + k, 1 + (k + 1) % rim])
    polydata.SetPolys(triangles)
    return polydata


def volume(polydata):
    mass = vtkMassProperties()
    mass.SetInputData(polydata)
    mass.Update()
    return mass.GetVolume()


class VertexSmoothingTest(unittest.TestCase):
    def assert_matches_reference(self, dataset, pinned=None, **properties):
        # The reference states the unguarded formulas: the inversion guard (on by default for 3D
        # cells, and shortening moves on these jittered meshes) is TestSmoothingGuard's.
        result = smooth(dataset, PreventInversion="Off", **properties)
        self.assertEqual(result.GetClassName(), dataset.GetClassName())
        self.assertEqual(result.GetNumberOfCells(), dataset.GetNumberOfCells())
        expected = reference(dataset, pinned=pinned, **{
            {"Iterations": "iterations", "RelaxationFactor": "lam", "Method": "method",
             "PassBand": "pass_band", "Boundary": "boundary"}[k]: v
            for k, v in properties.items() if k != "FixedPointsArray"})
        actual = points_of(result)
        scale = mesh_size(dataset)
        self.assertGreater(np.abs(expected - points_of(dataset)).max(), 1e-3 * scale, "the reference did not move")
        self.assertLessEqual(np.abs(actual - expected).max(), RELATIVE * scale)
        displacement = vtk_to_numpy(result.GetPointData().GetArray("Displacement"))
        np.testing.assert_allclose(displacement, actual - points_of(dataset), rtol=0, atol=1e-12 * scale)
        return result

    def check_every_method(self, dataset, boundary):
        for method in ("Laplacian", "Taubin", "Barycentric"):
            with self.subTest(method=method, boundary=boundary):
                self.assert_matches_reference(dataset, Method=method, Boundary=boundary)

    def test_plate_with_holes_fixed(self):
        self.check_every_method(jittered(gt.read_vtu("plate_with_holes.vtu")), "Fixed")

    def test_plate_with_holes_smooth_boundary(self):
        plate = jittered(gt.read_vtu("plate_with_holes.vtu"))
        self.check_every_method(plate, "Smooth")
        result = smooth(plate, Boundary="Smooth")
        z = points_of(result)[:, 2]  # jitter is 3D; smoothing along the boundary flattens it
        self.assertLess(np.abs(z).max(), np.abs(points_of(plate)[:, 2]).max())

    def test_sphere_surface_free(self):
        sphere = jittered(gt.as_polydata(gt.read_vtu("sphere_surface.vtu")))
        self.check_every_method(sphere, "Free")

    def test_ball_of_tetrahedra_fixed(self):
        ball = jittered(gt.read_vtu("ball_tets.vtu"))
        self.check_every_method(ball, "Fixed")
        self.assert_matches_reference(ball, Method="Barycentric", Boundary="Smooth", Iterations=3)

    def test_hexahedral_block_fixed(self):
        self.check_every_method(jittered(gt.read_vtu("hex_block.vtu")), "Fixed")

    def test_laplacian_free_matches_vtk_constrained_smoothing(self):
        # vtkConstrainedSmoothingFilter runs N-1 Jacobi umbrella steps when asked for N
        # (SETUP.md): ask it for k+1, with a constraint distance that never binds.
        for dataset in (jittered(gt.as_polydata(gt.read_vtu("sphere_surface.vtu"))), jittered(gt.read_vtu("ball_tets.vtu"))):
            for k in (1, 10):
                vtk_smoother = vtkConstrainedSmoothingFilter()
                vtk_smoother.SetInputData(dataset)
                vtk_smoother.SetNumberOfIterations(k + 1)
                vtk_smoother.SetRelaxationFactor(0.3)
                vtk_smoother.SetConstraintStrategyToConstraintDistance()
                vtk_smoother.SetConstraintDistance(1e3 * mesh_size(dataset))
                vtk_smoother.Update()
                expected = points_of(vtk_smoother.GetOutput())
                actual = points_of(smooth(dataset, Iterations=k, RelaxationFactor=0.3, Boundary="Free",
                                          PreventInversion="Off"))
                self.assertGreater(np.abs(expected - points_of(dataset)).max(), 1e-3 * mesh_size(dataset))
                self.assertLessEqual(np.abs(actual - expected).max(), RELATIVE * mesh_size(dataset))

    def test_taubin_keeps_the_volume_of_a_noisy_sphere(self):
        sphere = gt.as_polydata(gt.read_vtu("sphere_surface.vtu"))
        xyz = points_of(sphere)
        rng = np.random.default_rng(2)
        noisy = with_points(sphere, xyz * (1 + 0.03 * rng.standard_normal(len(xyz)))[:, None])
        before = volume(noisy)
        taubin = smooth(noisy, Method="Taubin", Iterations=10, Boundary="Free")
        laplacian = smooth(noisy, Method="Laplacian", Iterations=10, Boundary="Free")
        self.assertLess(abs(volume(taubin) / before - 1), 0.01)
        self.assertLess(volume(laplacian) / before, 0.97)
        # And Taubin did smooth: the spread of the radii (the noise) is at least halved.
        radii = lambda d: np.linalg.norm(points_of(d), axis=1)
        self.assertLess(radii(taubin).std(), 0.5 * radii(noisy).std())

    def test_vertex_of_degree_1200(self):
        disc = fan(1200)
        for boundary in ("Free", "Fixed"):
            for method in ("Laplacian", "Barycentric"):
                with self.subTest(boundary=boundary, method=method):
                    result = self.assert_matches_reference(disc, Method=method, Boundary=boundary, Iterations=3)
                    expected = reference(disc, iterations=3, method=method, boundary=boundary)
                    np.testing.assert_allclose(points_of(result)[0], expected[0], rtol=0, atol=1e-6)
        # One Laplacian step with lambda 1 puts the hub at the mean of its 1200 neighbours.
        hub = points_of(smooth(disc, Iterations=1, RelaxationFactor=1.0))[0]
        np.testing.assert_allclose(hub, points_of(disc)[1:].mean(axis=0), rtol=0, atol=1e-6)

    def test_zero_iterations_returns_the_input_points(self):
        for dtype in (np.float64, np.float32):
            plate = jittered(gt.read_vtu("plate_with_holes.vtu"))
            plate = with_points(plate, points_of(plate), dtype)
            result = smooth(plate, Iterations=0, Boundary="Free")
            original = vtk_to_numpy(plate.GetPoints().GetData())
            output = vtk_to_numpy(result.GetPoints().GetData())
            self.assertEqual(output.dtype, original.dtype)
            np.testing.assert_array_equal(output, original)
            np.testing.assert_array_equal(vtk_to_numpy(result.GetPointData().GetArray("Displacement")), 0)

    def test_points_keep_their_precision_and_fixed_points_are_exact(self):
        plate = jittered(gt.read_vtu("plate_with_holes.vtu"))
        _, _, _, _, roles = links(plate, "Fixed")
        for dtype in (np.float64, np.float32):
            data = with_points(plate, points_of(plate), dtype)
            result = smooth(data)
            original = vtk_to_numpy(data.GetPoints().GetData())
            output = vtk_to_numpy(result.GetPoints().GetData())
            self.assertEqual(output.dtype, original.dtype)
            self.assertEqual(result.GetPointData().GetArray("Displacement").GetDataType(),
                             data.GetPoints().GetDataType())
            np.testing.assert_array_equal(output[roles == 0], original[roles == 0])
            self.assertTrue((output[roles == 2] != original[roles == 2]).any())

    def test_point_data_passes_through(self):
        plate = jittered(gt.read_vtu("plate_with_holes.vtu"))
        n = plate.GetNumberOfPoints()
        scalars = numpy_to_vtk(np.arange(n, dtype=np.float64), deep=1)
        scalars.SetName("Index")
        vectors = numpy_to_vtk(np.random.default_rng(3).random((n, 3)), deep=1)
        vectors.SetName("Velocity")
        names = vtkStringArray()
        names.SetName("Label")
        for i in range(n):
            names.InsertNextValue("p%d" % i)
        for array in (scalars, vectors, names):
            plate.GetPointData().AddArray(array)
        result = smooth(plate)
        for name in ("Index", "Velocity"):
            np.testing.assert_array_equal(vtk_to_numpy(result.GetPointData().GetArray(name)),
                                          vtk_to_numpy(plate.GetPointData().GetArray(name)))
        self.assertEqual(result.GetPointData().GetAbstractArray("Label").GetValue(7), "p7")
        self.assertEqual(result.GetCellData().GetNumberOfArrays(), plate.GetCellData().GetNumberOfArrays())

    def test_fixed_points_array_pins_points(self):
        sphere = jittered(gt.as_polydata(gt.read_vtu("sphere_surface.vtu")))
        n = sphere.GetNumberOfPoints()
        flags = (np.arange(n) % 4 == 0).astype(np.int32)
        array = numpy_to_vtk(flags, deep=1)
        array.SetName("Pinned")
        sphere.GetPointData().AddArray(array)
        result = self.assert_matches_reference(sphere, pinned=flags != 0, FixedPointsArray="Pinned", Boundary="Free")
        np.testing.assert_array_equal(points_of(result)[flags != 0], points_of(sphere)[flags != 0])
        # None (the GUI's "no array" entry) pins nothing.
        free = smooth(sphere, FixedPointsArray="None", Boundary="Free")
        self.assertTrue((points_of(free)[flags != 0] != points_of(sphere)[flags != 0]).any())

    def test_only_vertices_and_lines_pass_through(self):
        polydata = vtkPolyData()
        points = vtkPoints()
        points.SetDataTypeToDouble()
        for p in ((0, 0, 0), (1, 0.5, 0), (2, 0, 0), (3, 1, 0), (4, 4, 4)):
            points.InsertNextPoint(*p)
        polydata.SetPoints(points)
        polydata.SetVerts(vtkCellArray())
        polydata.GetVerts().InsertNextCell(1, [4])
        polydata.SetLines(vtkCellArray())
        polydata.GetLines().InsertNextCell(2, [0, 1])
        polydata.GetLines().InsertNextCell(3, [1, 2, 3])
        for dataset in (polydata, as_unstructured(polydata)):
            result = smooth(dataset, Boundary="Free", Method="Barycentric")
            self.assertEqual(result.GetNumberOfCells(), 3)
            np.testing.assert_array_equal(points_of(result), points_of(dataset))
            np.testing.assert_array_equal(vtk_to_numpy(result.GetPointData().GetArray("Displacement")), 0)

    def test_lines_beside_triangles_do_not_join_the_smoothing(self):
        disc = fan(12)
        disc.SetLines(vtkCellArray())
        disc.GetLines().InsertNextCell(2, [0, 5])  # a hub-rim line: not an extra neighbour
        result = smooth(disc, Boundary="Free", Iterations=2)
        expected = reference(fan(12), iterations=2, boundary="Free")
        np.testing.assert_allclose(points_of(result), expected, rtol=0, atol=1e-6)

    def test_two_runs_are_bitwise_equal(self):
        ball = jittered(gt.read_vtu("ball_tets.vtu"))
        for method in ("Laplacian", "Taubin", "Barycentric"):
            first = points_of(smooth(ball, Method=method, Boundary="Smooth", Iterations=20))
            second = points_of(smooth(ball, Method=method, Boundary="Smooth", Iterations=20))
            np.testing.assert_array_equal(first, second)

    def test_polydata_and_unstructured_grid_agree(self):
        sphere = jittered(gt.as_polydata(gt.read_vtu("sphere_surface.vtu")))
        from_polydata = smooth(sphere, Boundary="Free")
        from_grid = smooth(as_unstructured(sphere), Boundary="Free")
        self.assertEqual(from_polydata.GetClassName(), "vtkPolyData")
        self.assertEqual(from_grid.GetClassName(), "vtkUnstructuredGrid")
        np.testing.assert_array_equal(points_of(from_polydata), points_of(from_grid))

    def test_quads_and_polygons_of_polydata(self):
        # A 6 x 5 grid of quads with one row replaced by pentagons (quad + a mid-edge point).
        nx, ny = 6, 5
        rng = np.random.default_rng(5)
        xyz = [(i + rng.uniform(-0.2, 0.2), j + rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2))
               for j in range(ny + 1) for i in range(nx + 1)]
        polys = vtkCellArray()
        for j in range(ny):
            for i in range(nx):
                a = j * (nx + 1) + i
                quad = [a, a + 1, a + nx + 2, a + nx + 1]
                if j == 2:
                    xyz.append(tuple((np.array(xyz[a]) + np.array(xyz[a + 1])) / 2 + [0, -0.1, 0.1]))
                    quad = [a, len(xyz) - 1, a + 1, a + nx + 2, a + nx + 1]
                polys.InsertNextCell(len(quad), quad)
        polydata = vtkPolyData()
        polydata.SetPoints(vtkPoints())
        polydata.GetPoints().SetData(numpy_to_vtk(np.array(xyz), deep=1))
        polydata.SetPolys(polys)
        for boundary in ("Fixed", "Free", "Smooth"):
            self.check_every_method(polydata, boundary)

    def test_timings_in_field_data(self):
        result = smooth(gt.read_vtu("hex_block.vtu"))
        self.assertTrue(gt.field_value(result, "Device"))
        self.assertGreater(gt.field_value(result, "KernelTimeMs"), 0.0)
        self.assertGreater(gt.field_value(result, "KernelTimeMs_relax"), 0.0)
        self.assertGreater(gt.field_value(result, "BytesDownloaded"), 0)
        # Wall time minus kernel time: the host always does some of the work.
        self.assertGreater(gt.field_value(result, "HostTimeMs"), 0.0)
        # The points went up and the smoothed ones came down: both copies took device time,
        # which is part of the host's share.
        upload, download = gt.field_value(result, "UploadTimeMs"), gt.field_value(result, "DownloadTimeMs")
        self.assertGreater(upload, 0.0)
        self.assertGreater(download, 0.0)
        self.assertLess(upload + download, gt.field_value(result, "HostTimeMs"))

    # -- bad input ------------------------------------------------------------------------------

    def assert_error(self, dataset, message, **properties):
        with gt.CapturedErrors() as errors:
            result = smooth(dataset, **properties)
        self.assertIn(message, errors.text)
        self.assertEqual(result.GetNumberOfPoints(), 0)
        self.assertEqual(result.GetNumberOfCells(), 0)

    def test_nan_coordinate_is_an_error_naming_the_point(self):
        plate = gt.read_vtu("plate_with_holes.vtu")
        xyz = points_of(plate)
        xyz[17, 1] = np.nan
        self.assert_error(with_points(plate, xyz), "Point 17 has a non-finite coordinate")

    def test_missing_fixed_points_array_is_an_error_naming_it(self):
        plate = gt.read_vtu("plate_with_holes.vtu")
        self.assert_error(plate, "FixedPointsArray 'Nope' is not a point array of the input", FixedPointsArray="Nope")

    def test_taubin_pass_band_out_of_range_is_an_error(self):
        plate = gt.read_vtu("plate_with_holes.vtu")
        self.assert_error(plate, "0 < PassBand < 1/RelaxationFactor", Method="Taubin", PassBand=3.0)

    def test_triangle_strips_are_an_error(self):
        polydata = fan(6)
        strips = vtkCellArray()
        strips.InsertNextCell(4, [1, 2, 3, 4])
        polydata.SetStrips(strips)
        self.assert_error(polydata, "triangle strips")


def as_unstructured(polydata):
    grid = vtkUnstructuredGrid()
    grid.SetPoints(polydata.GetPoints())
    for c in range(polydata.GetNumberOfCells()):
        grid.InsertNextCell(polydata.GetCellType(c), polydata.GetCell(c).GetPointIds())
    grid.GetPointData().ShallowCopy(polydata.GetPointData())
    return grid


if __name__ == "__main__":
    unittest.main(verbosity=2)
