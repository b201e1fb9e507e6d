"""GPU Vertex Smoothing's NonManifoldSmoothing on surfaces with non-manifold edges (three sheets
meeting along a line, a T of sheets, an X of four, two cubes sharing an edge): WindowedSinc
against vtkWindowedSincPolyDataFilter with NonManifoldSmoothing on and off (Double to 1e-12 of
the mesh size, Single to 1e-6, as the other WindowedSinc tests), with boundary and feature
options; Laplacian against the weighted umbrella in numpy; off, the non-manifold points stay."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkFiltersCore import vtkWindowedSincPolyDataFilter

import gpumesh_testing as gt
import nonmanifold_meshes as meshes

gt.load_plugin()


def points_of(dataset):
    return vtk_to_numpy(dataset.GetPoints().GetData()).astype(np.float64)


def vtk_windowed_sinc(dataset, non_manifold, boundary, feature=False, iterations=20, pass_band=0.1):
    f = vtkWindowedSincPolyDataFilter()
    f.SetInputData(dataset)
    f.SetNumberOfIterations(iterations)
    f.SetPassBand(pass_band)
    f.SetBoundarySmoothing(boundary)
    f.SetFeatureEdgeSmoothing(feature)
    f.SetNonManifoldSmoothing(non_manifold)
    f.Update()
    return points_of(f.GetOutput())


def smooth(dataset, **properties):
    return points_of(gt.fetch(simple.GPUVertexSmoothing(Input=gt.producer(dataset), **properties)))


def edge_faces(dataset):
    """{(a, b): faces of edge a-b} for every ordered pair of an edge."""
    uses = {}
    for c in range(dataset.GetNumberOfCells()):
        ids = [dataset.GetCell(c).GetPointId(k) for k in range(3)]
        for k in range(3):
            a, b = ids[k], ids[(k + 1) % 3]
            for key in ((a, b), (b, a)):
                uses[key] = uses.get(key, 0) + 1
    return uses


class NonManifoldSmoothingTest(unittest.TestCase):
    CASES = [
        ("Y of three sheets", lambda: meshes.sheets((0, 120, 240)), dict(boundary=True)),
        ("T of sheets", lambda: meshes.sheets((0, 90, 180)), dict(boundary=True)),
        ("X of four sheets", lambda: meshes.sheets((0, 90, 180, 270)), dict(boundary=True)),
        ("Y of sheets, features", lambda: meshes.sheets((0, 120, 240)), dict(boundary=True, feature=True)),
        ("two cubes sharing an edge", meshes.two_cubes, dict(boundary=False)),
        ("two cubes sharing an edge, boundary smoothed", meshes.two_cubes, dict(boundary=True)),
        ("two cubes sharing an edge, features", meshes.two_cubes, dict(boundary=True, feature=True)),
    ]

    def test_windowed_sinc_matches_vtk_on_and_off(self):
        for name, make, options in self.CASES:
            dataset = make()
            size = dataset.GetLength()
            spine = meshes.non_manifold_points(dataset)
            self.assertGreater(len(spine), 4, name)
            expected = {nm: vtk_windowed_sinc(dataset, nm, **options) for nm in (False, True)}
            # The option matters on these meshes: the non-manifold points go elsewhere.
            self.assertGreater(np.abs(expected[True][spine] - expected[False][spine]).max(), 1e-3 * size, name)
            for nm in (False, True):
                for precision, tolerance in (("Double", 1e-12), ("Single", 1e-6)):
                    with self.subTest(mesh=name, non_manifold=nm, precision=precision):
                        result = smooth(dataset, Method="WindowedSinc", Iterations=20, PassBand=0.1,
                                        Boundary="Smooth" if options["boundary"] else "Fixed",
                                        FeatureEdgeSmoothing=options.get("feature", False),
                                        NonManifoldSmoothing=nm, Precision=precision)
                        self.assertLessEqual(np.abs(result - expected[nm]).max() / size, tolerance)

    def test_laplacian_moves_non_manifold_points_by_the_weighted_umbrella(self):
        dataset = meshes.sheets((0, 90, 180, 270))
        xyz = points_of(dataset)
        uses = edge_faces(dataset)
        spine = meshes.non_manifold_points(dataset)
        # The spine's ends have boundary edges: they stay; its inner points move.
        inner = [p for p in spine if all(n != 1 for (a, b), n in uses.items() if a == p)]
        ends = sorted(set(spine) - set(inner))
        self.assertEqual(len(ends), 2)
        on = smooth(dataset, Method="Laplacian", Iterations=1, RelaxationFactor=0.5, Boundary="Fixed",
                    NonManifoldSmoothing=1, Precision="Double")
        off = smooth(dataset, Method="Laplacian", Iterations=1, RelaxationFactor=0.5, Boundary="Fixed",
                     Precision="Double")
        for p in inner:
            neighbours = [(b, n) for (a, b), n in uses.items() if a == p]
            weights = np.array([n for _, n in neighbours], dtype=np.float64)
            mean = (weights[:, None] * xyz[[b for b, _ in neighbours]]).sum(axis=0) / weights.sum()
            np.testing.assert_allclose(on[p], xyz[p] + 0.5 * (mean - xyz[p]), rtol=0, atol=1e-14)
            # not the plain mean of the neighbours: the weights matter here
            plain = xyz[[b for b, _ in neighbours]].mean(axis=0)
            self.assertGreater(np.abs(on[p] - (xyz[p] + 0.5 * (plain - xyz[p]))).max(), 1e-4)
        np.testing.assert_array_equal(on[ends], xyz[ends])
        np.testing.assert_array_equal(off[spine], xyz[spine])

    def test_every_method_keeps_points_with_boundary_or_feature_edges_and_moves_the_others(self):
        dataset = meshes.two_cubes()
        xyz = points_of(dataset)
        spine = meshes.non_manifold_points(dataset)
        # Inside the shared edge (z strictly between 0 and 1): no feature edge at those points
        # (the shared edge is non-manifold, not a feature); its ends are corners of both cubes.
        inner = [p for p in spine if 0.1 < xyz[p, 2] < 0.9]
        ends = sorted(set(spine) - set(inner))
        for method in ("Laplacian", "Taubin", "Barycentric"):
            with self.subTest(method=method):
                on = smooth(dataset, Method=method, Iterations=3, Boundary="Fixed", NonManifoldSmoothing=1,
                            FeatureEdgeSmoothing=1, Precision="Double")
                off = smooth(dataset, Method=method, Iterations=3, Boundary="Fixed", FeatureEdgeSmoothing=1,
                             Precision="Double")
                self.assertGreater(np.abs(on[inner] - xyz[inner]).min(), 1e-6)
                np.testing.assert_array_equal(off[spine], xyz[spine])
                np.testing.assert_array_equal(on[ends], xyz[ends])  # corners: feature edges there


if __name__ == "__main__":
    unittest.main()
