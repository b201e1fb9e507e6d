"""GPU Vertex Smoothing's NonManifoldSmoothing on surfaces with non-manifold edges (three sheets
meeting along a line, a T of sheets, an X of four, two cubes sharing an edge, a hundred sheets
around one spine, whose points have more than 256 neighbours): WindowedSinc against
vtkWindowedSincPolyDataFilter with NonManifoldSmoothing on and off (Double to 1e-12 of the mesh
size, Single to 1e-6, as the other WindowedSinc tests), with boundary and feature options;
Laplacian against the weighted umbrella in numpy; off, the non-manifold points stay."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData
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

    @staticmethod
    def windowed_sinc_reference(dataset, non_manifold, iterations=20, pass_band=0.1):
        """WindowedSinc with Boundary Fixed and no features in numpy: the Chebyshev recurrence of
        TestSmoothingWindowedSinc over the umbrella operator, the non-manifold points' rows
        weighted by their edges' faces (or those points fixed), boundary points fixed."""
        from TestSmoothingWindowedSinc import coefficients
        x0 = points_of(dataset)
        uses = edge_faces(dataset)
        boundary = {a for (a, b), n in uses.items() if n == 1}
        spine = {a for (a, b), n in uses.items() if n > 2}
        rows = {}
        for (a, b), n in uses.items():
            if a in boundary or (a in spine and not non_manifold):
                continue
            rows.setdefault(a, []).append((b, n if a in spine else 1))
        moving = np.array(sorted(rows))
        neighbours = [np.array([b for b, _ in rows[a]]) for a in moving]
        weights = [np.array([w for _, w in rows[a]], dtype=np.float64) for a in moving]

        def laplacian(x):
            step = np.zeros_like(x)
            for a, nb, w in zip(moving, neighbours, weights):
                step[a] = (w[:, None] * x[nb]).sum(axis=0) / w.sum() - x[a]
            return step

        c = coefficients(iterations, pass_band)
        previous, current = x0, x0 + 0.5 * laplacian(x0)
        total = c[0] * previous + c[1] * current
        for k in range(2, iterations + 1):
            previous, current = current, 2 * current - previous + laplacian(current)
            total += c[k] * current
        return total

    def test_a_non_manifold_hub_above_the_long_row_threshold(self):
        def fan_of_sheets(count):
            return meshes.sheets(tuple(360.0 * k / count for k in range(count)), radial=3, along=8, jitter=0.005)

        # The numpy reference is VTK's filter where VTK can be the judge: 30 sheets, whose spine
        # points have at most 30 * 8 = 240 weighted smoothing edges (each edge counted once per
        # face). VTK 9.2 keeps that count in an unsigned char, so above 255 it smooths with part
        # of the stencil or holds the point. VTK's boundary points are held by vertex cells:
        # with NonManifoldSmoothing on, VTK 9.2 smooths boundaries along their edges even with
        # BoundarySmoothing off, where Boundary Fixed holds them.
        small = fan_of_sheets(30)
        boundary = sorted({a for (a, b), n in edge_faces(small).items() if n == 1})
        pinned = vtkPolyData()
        pinned.DeepCopy(small)
        vertices = vtkCellArray()
        for p in boundary:
            vertices.InsertNextCell(1, [p])
        pinned.SetVerts(vertices)
        for nm in (False, True):
            with self.subTest(sheets=30, non_manifold=nm):
                np.testing.assert_allclose(self.windowed_sinc_reference(small, nm),
                                           vtk_windowed_sinc(pinned, nm, boundary=False),
                                           rtol=0, atol=1e-12 * small.GetLength())

        # 100 sheets around one spine: its odd points have 3 neighbours in every sheet, 302 in
        # all, above the vertex tables' long-row threshold (256, VertexTableLayout::longRow), so
        # their weighted rows are summed by a work-group each (relax_long with WEIGHTED).
        sheets = 100
        dataset = fan_of_sheets(sheets)
        xyz = points_of(dataset)
        uses = edge_faces(dataset)
        size = dataset.GetLength()
        degree = {}
        for (a, b) in uses:
            degree[a] = degree.get(a, 0) + 1
        spine = meshes.non_manifold_points(dataset)
        inner = [p for p in spine if all(n != 1 for (a, b), n in uses.items() if a == p)]
        hubs = [p for p in inner if degree[p] > 256]
        self.assertGreaterEqual(len(hubs), 3)
        expected = {nm: self.windowed_sinc_reference(dataset, nm) for nm in (False, True)}
        # The option matters at the hubs.
        self.assertGreater(np.abs(expected[True][hubs] - expected[False][hubs]).max(), 1e-3 * size)
        for nm in (False, True):
            for precision, tolerance in (("Double", 1e-12), ("Single", 1e-6)):
                with self.subTest(sheets=sheets, non_manifold=nm, precision=precision):
                    result = smooth(dataset, Method="WindowedSinc", Iterations=20, PassBand=0.1, Boundary="Fixed",
                                    NonManifoldSmoothing=nm, Precision=precision)
                    self.assertLessEqual(np.abs(result - expected[nm]).max() / size, tolerance)
        # One Laplacian step: the hubs move by the weighted umbrella, each neighbour counted once
        # per face of the edge to it (100 for the spine's edges, 1 for the others).
        on = smooth(dataset, Method="Laplacian", Iterations=1, RelaxationFactor=0.5, Boundary="Fixed",
                    NonManifoldSmoothing=1, Precision="Double")
        for p in hubs:
            neighbours = [(b, n) for (a, b), n in uses.items() if a == p]
            weights = np.array([n for _, n in neighbours], dtype=np.float64)
            self.assertEqual(weights.max(), sheets)
            mean = (weights[:, None] * xyz[[b for b, _ in neighbours]]).sum(axis=0) / weights.sum()
            np.testing.assert_allclose(on[p], xyz[p] + 0.5 * (mean - xyz[p]), rtol=0, atol=1e-14)

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
