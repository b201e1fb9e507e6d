"""GPU Vertex Smoothing with Method='WindowedSinc' against vtkWindowedSincPolyDataFilter on
surfaces (gmsh's sphere and plate with holes, a cube, an L-shaped part and a cylinder from VTK's
sources, two real CAD parts' STL files), with default, pass-band, NormalizeCoordinates, boundary and feature options, in
Double (to 1e-12 of the mesh size) and in Single precision (to 1e-6); on a tetrahedral ball
against the same recurrence in numpy; and its errors."""
import os
import unittest

import numpy as np
from paraview import simple
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkFiltersCore import vtkWindowedSincPolyDataFilter
from vtkmodules.vtkIOGeometry import vtkSTLReader

import gpumesh_testing as gt
import TestSmoothingFeatures as features

gt.load_plugin()


def points_of(dataset):
    return vtk_to_numpy(dataset.GetPoints().GetData()).astype(np.float64)


def vtk_windowed_sinc(dataset, iterations=20, pass_band=0.1, feature=False, feature_angle=45.0, edge_angle=15.0,
                      boundary=True, normalize=False):
    f = vtkWindowedSincPolyDataFilter()
    f.SetInputData(dataset)
    f.SetNumberOfIterations(iterations)
    f.SetPassBand(pass_band)
    f.SetFeatureEdgeSmoothing(feature)
    f.SetFeatureAngle(feature_angle)
    f.SetEdgeAngle(edge_angle)
    f.SetBoundarySmoothing(boundary)
    f.SetNormalizeCoordinates(normalize)
    f.Update()
    return points_of(f.GetOutput())


def windowed_sinc(dataset, precision, iterations=20, pass_band=0.1, feature=False, feature_angle=45.0,
                  edge_angle=15.0, boundary=True, normalize=False):
    proxy = simple.GPUVertexSmoothing(Input=gt.producer(dataset), Method="WindowedSinc", Iterations=iterations,
                                      PassBand=pass_band, FeatureEdgeSmoothing=feature, FeatureAngle=feature_angle,
                                      EdgeAngle=edge_angle, Boundary="Smooth" if boundary else "Fixed",
                                      NormalizeCoordinates=normalize, Precision=precision)
    return gt.fetch(proxy)


def stl(name):
    """A real CAD part's STL tessellation (data/stl/, from trimesh's test models, MIT), its
    coincident points merged by the reader."""
    reader = vtkSTLReader()
    reader.SetFileName(gt.data_path(os.path.join("stl", name)))
    reader.Update()
    return features.with_points(reader.GetOutput(), points_of(reader.GetOutput()))  # double points


def shifted(dataset, offset):
    return features.with_points(dataset, points_of(dataset) + np.asarray(offset))


def coefficients(n, pass_band):
    """Taubin, Zhang and Golub's windowed-sinc coefficients (Hamming window, cut-off moved until
    the filter is 1 at the pass band), written out again for the numpy reference."""
    theta = np.arccos(1 - pass_band / 2)
    window = 0.54 + 0.46 * np.cos(np.arange(n + 1) * np.pi / (n + 1))
    sigma = 0.0
    for _ in range(500):
        c = np.empty(n + 1)
        c[0] = window[0] * (theta + sigma) / np.pi
        i = np.arange(1, n + 1)
        c[1:] = 2 * window[1:] * np.sin(i * (theta + sigma)) / (i * np.pi)
        if n < 2:
            break
        d = np.zeros(n + 1)
        d[n - 2] = 2 * (n - 1) * c[n - 1]
        for k in range(n - 3, -1, -1):
            d[k] = d[k + 2] + 2 * (k + 1) * c[k + 1]
        t = np.cos(np.arange(n + 1) * theta)
        f, slope = c @ t, d @ t
        if abs(f - 1) < 1e-3:
            break
        sigma -= (f - 1) / slope
    return c


class WindowedSincTest(unittest.TestCase):
    CASES = [
        ("sphere", lambda: gt.as_polydata(gt.read_vtu("sphere_surface.vtu")), {}),
        ("sphere degree 5, pass band 0.5", lambda: gt.as_polydata(gt.read_vtu("sphere_surface.vtu")),
         dict(iterations=5, pass_band=0.5)),
        ("sphere far away, normalized", lambda: shifted(gt.as_polydata(gt.read_vtu("sphere_surface.vtu")), (300, -200, 50)),
         dict(normalize=True)),
        ("sphere far away", lambda: shifted(gt.as_polydata(gt.read_vtu("sphere_surface.vtu")), (300, -200, 50)), {}),
        ("plate, boundary smoothed", lambda: gt.as_polydata(gt.read_vtu("plate_with_holes.vtu")), {}),
        ("plate, boundary fixed", lambda: gt.as_polydata(gt.read_vtu("plate_with_holes.vtu")), dict(boundary=False)),
        ("plate, outlines fixed where they turn by more than 8 degrees",
         lambda: gt.as_polydata(gt.read_vtu("plate_with_holes.vtu")), dict(feature=True, edge_angle=8.0)),
        ("cube with features", features.cube, dict(feature=True)),
        ("cube without", features.cube, {}),
        ("L part with features, normalized", features.l_part, dict(feature=True, normalize=True)),
        ("cylinder with features", features.cylinder, dict(feature=True, feature_angle=30.0, edge_angle=5.0)),
        # Real STL tessellations of CAD parts (slivers, fans, a few cracks and non-manifold edges).
        ("featuretype.STL", lambda: stl("featuretype.STL"), {}),
        ("featuretype.STL with features", lambda: stl("featuretype.STL"), dict(feature=True, feature_angle=30.0)),
        ("idler_riser.STL, normalized", lambda: stl("idler_riser.STL"), dict(normalize=True)),
        ("idler_riser.STL with features", lambda: stl("idler_riser.STL"), dict(feature=True)),
    ]

    def test_matches_vtk_windowed_sinc(self):
        for name, make, options in self.CASES:
            dataset = make()
            expected = vtk_windowed_sinc(dataset, **options)
            size = dataset.GetLength()
            self.assertGreater(np.abs(expected - points_of(dataset)).max(), 1e-5 * size, name)
            for precision, tolerance in (("Double", 1e-12), ("Single", 1e-6)):
                with self.subTest(mesh=name, precision=precision):
                    result = windowed_sinc(dataset, precision, **options)
                    difference = np.abs(points_of(result) - expected).max() / size
                    self.assertLessEqual(difference, tolerance)

    def test_corners_scale_by_the_filter_gain_as_in_vtk(self):
        box = features.cube()
        xyz = points_of(box)
        corners = np.all(np.abs(np.abs(xyz) - 0.5) < 1e-12, axis=1)
        result = points_of(windowed_sinc(box, "Double", feature=True))
        gain = coefficients(20, 0.1).sum()
        self.assertLess(abs(gain - 1), 0.01)
        self.assertGreater(abs(gain - 1), 1e-4)
        np.testing.assert_allclose(result[corners], gain * xyz[corners], rtol=1e-13, atol=0)

    def test_tetrahedral_ball_against_the_recurrence_in_numpy(self):
        import TestVertexSmoothing as plain  # its topology helpers
        ball = gt.read_vtu("ball_tets.vtu")
        neighbours, _, _, _, roles = plain.links(ball, "Fixed")
        n = ball.GetNumberOfPoints()
        x0 = points_of(ball)

        def laplacian(x):
            mean, count = plain.mean_over(neighbours, x, n)
            step = mean - x
            step[(roles != 2) | (count == 0)] = 0
            return step

        c = coefficients(10, 0.2)
        previous, current = x0, x0 + 0.5 * laplacian(x0)
        total = c[0] * previous + c[1] * current
        for k in range(2, 11):
            previous, current = current, 2 * current - previous + laplacian(current)
            total += c[k] * current
        result = points_of(windowed_sinc(ball, "Double", iterations=10, pass_band=0.2, boundary=False))
        self.assertGreater(np.abs(total - x0).max(), 1e-3)
        np.testing.assert_allclose(result, total, rtol=0, atol=1e-12 * ball.GetLength())

    def test_errors(self):
        sphere = gt.as_polydata(gt.read_vtu("sphere_surface.vtu"))
        for properties, message in ((dict(PassBand=2.5), "WindowedSinc smoothing needs 0 < PassBand <= 2"),
                                    (dict(PreventInversion="On"), "PreventInversion is not available with the WindowedSinc")):
            with self.subTest(message=message):
                with gt.CapturedErrors() as errors:
                    result = gt.fetch(simple.GPUVertexSmoothing(Input=gt.producer(sphere), Method="WindowedSinc", **properties))
                self.assertIn(message, errors.text)
                self.assertEqual(result.GetNumberOfPoints(), 0)
        # Automatic leaves the guard off for WindowedSinc, on a volume too.
        ball = gt.read_vtu("ball_tets.vtu")
        result = gt.fetch(simple.GPUVertexSmoothing(Input=gt.producer(ball), Method="WindowedSinc"))
        self.assertEqual(result.GetNumberOfPoints(), ball.GetNumberOfPoints())
        self.assertIsNone(result.GetFieldData().GetAbstractArray("ShortenedMoves"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
