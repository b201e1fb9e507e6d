"""GPU Vertex Smoothing's inversion guard (PreventInversion, MinimumVolumeFraction): on a
jittered mesh near a concave boundary (gpumesh_shell.py), where plain smoothing inverts cells,
the guarded smoothing inverts none, keeps every step's guarantee, counts the moves it shortened,
and is deterministic; where nothing would invert it changes nothing."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.util.numpy_support import vtk_to_numpy

import gpumesh_shell
import gpumesh_testing as gt

gt.load_plugin()


def points_of(dataset):
    return vtk_to_numpy(dataset.GetPoints().GetData()).astype(np.float64)


def cells_of(dataset):
    connectivity = vtk_to_numpy(dataset.GetCells().GetConnectivityArray()).astype(np.int64)
    offsets = vtk_to_numpy(dataset.GetCells().GetOffsetsArray()).astype(np.int64)
    return connectivity.reshape(len(offsets) - 1, -1)  # one kind, one size


def hexahedron_volumes(p):
    """Exact volumes of trilinear hexahedra (p: cells x 8 x 3, VTK order): 2x2x2 Gauss points."""
    volume = np.zeros(len(p))
    for r in (0.5 - 0.5 / np.sqrt(3), 0.5 + 0.5 / np.sqrt(3)):
        for s in (0.5 - 0.5 / np.sqrt(3), 0.5 + 0.5 / np.sqrt(3)):
            for t in (0.5 - 0.5 / np.sqrt(3), 0.5 + 0.5 / np.sqrt(3)):
                dr = (1 - s) * (1 - t) * (p[:, 1] - p[:, 0]) + s * (1 - t) * (p[:, 2] - p[:, 3]) + \
                    (1 - s) * t * (p[:, 5] - p[:, 4]) + s * t * (p[:, 6] - p[:, 7])
                ds = (1 - r) * (1 - t) * (p[:, 3] - p[:, 0]) + r * (1 - t) * (p[:, 2] - p[:, 1]) + \
                    (1 - r) * t * (p[:, 7] - p[:, 4]) + r * t * (p[:, 6] - p[:, 5])
                dt = (1 - r) * (1 - s) * (p[:, 4] - p[:, 0]) + r * (1 - s) * (p[:, 5] - p[:, 1]) + \
                    r * s * (p[:, 6] - p[:, 2]) + (1 - r) * s * (p[:, 7] - p[:, 3])
                volume += np.einsum("ij,ij->i", dr, np.cross(ds, dt))
    return volume / 8


def signed_measures(xyz, cells):
    """What the guard keeps: signed volumes of tetrahedra and hexahedra, or the z component of
    the vector area of 2D cells in the plane z = 0."""
    if np.all(xyz[:, 2] == 0):
        return sum(np.cross(xyz[cells[:, k]] - xyz[cells[:, 0]], xyz[cells[:, k + 1]] - xyz[cells[:, 0]])[:, 2]
                   for k in range(1, cells.shape[1] - 1)) / 2
    if cells.shape[1] == 8:
        return hexahedron_volumes(xyz[cells])
    a, b, c, d = (xyz[cells[:, m]] for m in range(4))
    return np.einsum("ij,ij->i", b - a, np.cross(c - a, d - a)) / 6


def smooth(dataset, **properties):
    return gt.fetch(simple.GPUVertexSmoothing(Input=gt.producer(dataset), **properties))


def inverted(dataset, result):
    """Cells whose signed measure changed sign (or vanished) from the input to the result."""
    before = signed_measures(points_of(dataset), cells_of(dataset))
    after = signed_measures(points_of(result), cells_of(dataset))
    return int(np.count_nonzero(np.sign(after) != np.sign(before)))


class InversionGuardTest(unittest.TestCase):
    def setUp(self):
        self.shell = gpumesh_shell.shell("tetra")
        xyz = points_of(self.shell)
        self.assertTrue(np.all(signed_measures(xyz, cells_of(self.shell)) > 0), "the input has inverted cells")

    def test_plain_smoothing_inverts_and_the_guard_does_not(self):
        for method in ("Laplacian", "Taubin", "Barycentric"):
            with self.subTest(method=method):
                plain = smooth(self.shell, Method=method, Iterations=100, PreventInversion="Off")
                guarded = smooth(self.shell, Method=method, Iterations=100)  # Automatic: on for tetrahedra
                if method == "Laplacian":
                    self.assertGreater(inverted(self.shell, plain), 50)
                self.assertEqual(inverted(self.shell, guarded), 0)
                self.assertGreater(gt.field_value(guarded, "ShortenedMoves"), 0)
                self.assertGreater(gt.field_value(guarded, "InversionGuardRounds"), 0)
                # The guard shortened moves, it did not stop the smoothing.
                moved = np.linalg.norm(points_of(guarded) - points_of(self.shell), axis=1) > 0
                moved_plain = np.linalg.norm(points_of(plain) - points_of(self.shell), axis=1) > 0
                self.assertGreater(np.count_nonzero(moved), 0.9 * np.count_nonzero(moved_plain))

    def test_every_step_keeps_the_minimum_volume_fraction(self):
        for fraction in (0.1, 0.5):
            previous = signed_measures(points_of(self.shell), cells_of(self.shell))
            for k in range(1, 7):
                with self.subTest(fraction=fraction, step=k):
                    result = smooth(self.shell, Iterations=k, PreventInversion="On", MinimumVolumeFraction=fraction)
                    now = signed_measures(points_of(result), cells_of(self.shell))
                    # Checked per tetrahedron in double; the device computes in single precision.
                    self.assertTrue(np.all(now >= fraction * previous - 1e-5 * np.abs(previous)),
                                    "step %d: smallest ratio %.4g" % (k, np.min(now / previous)))
                    previous = now

    def test_guard_and_feature_edges_together(self):
        """The shell's rims are features: with the boundary smoothed along its surface, the guard
        still keeps every tetrahedron, and the rims' points stay in their planes."""
        xyz = points_of(self.shell)
        rims = (np.abs(xyz[:, 2]) < 1e-12) | (np.abs(xyz[:, 2] - 0.6) < 1e-12)
        rims &= np.abs(np.hypot(xyz[:, 0], xyz[:, 1]) - 1.0) < 1e-9
        result = smooth(self.shell, Boundary="Smooth", FeatureEdgeSmoothing=1, Iterations=60)
        self.assertEqual(inverted(self.shell, result), 0)
        self.assertGreater(gt.field_value(result, "ShortenedMoves"), 0)
        np.testing.assert_allclose(points_of(result)[rims, 2], xyz[rims, 2], rtol=0, atol=1e-6)

    def test_two_runs_are_bitwise_equal(self):
        first = smooth(self.shell, Method="Taubin", Iterations=30)
        second = smooth(self.shell, Method="Taubin", Iterations=30)
        np.testing.assert_array_equal(points_of(first), points_of(second))
        self.assertEqual(gt.field_value(first, "ShortenedMoves"), gt.field_value(second, "ShortenedMoves"))
        self.assertGreater(gt.field_value(first, "ShortenedMoves"), 0)

    def test_hexahedra_and_two_dimensional_cells(self):
        for kind, check_plain in (("hexahedron", True), ("triangle", True), ("quad", True)):
            with self.subTest(kind=kind):
                mesh = gpumesh_shell.shell(kind)
                self.assertTrue(np.all(signed_measures(points_of(mesh), cells_of(mesh)) > 0))
                plain = smooth(mesh, Iterations=60, PreventInversion="Off")
                guarded = smooth(mesh, Iterations=60, PreventInversion="On")
                if check_plain:
                    self.assertGreater(inverted(mesh, plain), 0)
                self.assertEqual(inverted(mesh, guarded), 0)
                if check_plain:
                    self.assertGreater(gt.field_value(guarded, "ShortenedMoves"), 0)

    def test_automatic_is_on_for_3d_cells_only(self):
        plate = gt.read_vtu("plate_with_holes.vtu")
        self.assertIsNone(smooth(plate).GetFieldData().GetAbstractArray("ShortenedMoves"))
        self.assertIsNotNone(smooth(plate, PreventInversion="On").GetFieldData().GetAbstractArray("ShortenedMoves"))
        ball = gt.read_vtu("ball_tets.vtu")
        self.assertIsNotNone(smooth(ball).GetFieldData().GetAbstractArray("ShortenedMoves"))
        self.assertIsNone(smooth(ball, PreventInversion="Off").GetFieldData().GetAbstractArray("ShortenedMoves"))

    def test_nothing_changes_where_nothing_would_invert(self):
        ball = gt.read_vtu("ball_tets.vtu")
        for method in ("Laplacian", "Barycentric"):
            with self.subTest(method=method):
                guarded = smooth(ball, Method=method, Iterations=20, PreventInversion="On")
                self.assertEqual(gt.field_value(guarded, "ShortenedMoves"), 0)
                plain = smooth(ball, Method=method, Iterations=20, PreventInversion="Off")
                np.testing.assert_array_equal(points_of(guarded), points_of(plain))

    def test_fraction_outside_zero_one_is_an_error(self):
        with gt.CapturedErrors() as errors:
            result = smooth(self.shell, PreventInversion="On", MinimumVolumeFraction=1.5)
        self.assertIn("MinimumVolumeFraction must be in [0, 1]", errors.text)
        self.assertEqual(result.GetNumberOfPoints(), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
