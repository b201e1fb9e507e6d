"""Hostile meshes through the filters: a vertex of degree 10,000 (the hub of a fan of 10,000
triangles inside a ring of 20,000 more), as it comes and randomly renumbered (points and cells
permuted). Each filter gives the same result for the same cell or point either way, its sums
match independent double-precision references, and the refinement stays conforming."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData

import gpumesh_testing as gt

gt.load_plugin()

DEGREE = 10000


def hub_mesh():
    """Points and triangles: the hub (point 0), a ring at radius about 1 fanned from it, and an
    outer ring at radius 1.5 joined to it by a strip. The outer ring is the boundary. Angles and
    the inner ring's radii are jittered, so that smoothing moves its points and no two edges tie
    in length (a tie goes by point ids, which renumbering changes: docs/filters.md, "Tie rule")."""
    rng = np.random.default_rng(10)
    step = 2 * np.pi / DEGREE
    angles = step * (np.arange(DEGREE) + 0.2 * rng.uniform(-1, 1, DEGREE))
    radii = 1 + 0.05 * rng.uniform(-1, 1, DEGREE)
    inner = np.stack([radii * np.cos(angles), radii * np.sin(angles), np.zeros(DEGREE)], 1)
    outer_angles = step * (np.arange(DEGREE) + 0.5 + 0.2 * rng.uniform(-1, 1, DEGREE))
    outer = 1.5 * np.stack([np.cos(outer_angles), np.sin(outer_angles), np.zeros(DEGREE)], 1)
    xyz = np.concatenate([[[0.0, 0.0, 0.0]], inner, outer])
    i = np.arange(DEGREE)
    a, b = 1 + i, 1 + (i + 1) % DEGREE  # inner ring
    c, d = 1 + DEGREE + i, 1 + DEGREE + (i + 1) % DEGREE  # outer ring
    fan = np.stack([np.zeros(DEGREE, int), a, b], 1)
    strip = np.concatenate([np.stack([a, c, b], 1), np.stack([b, c, d], 1)])
    return xyz, np.concatenate([fan, strip])


def polydata(xyz, triangles, marks):
    points = vtkPoints()
    points.SetData(numpy_to_vtk(np.ascontiguousarray(xyz, dtype=np.float64), deep=1))
    cells = vtkCellArray()
    cells.SetData(3, numpy_to_vtk(np.ascontiguousarray(triangles.ravel(), dtype=np.int64), deep=1))
    mesh = vtkPolyData()
    mesh.SetPoints(points)
    mesh.SetPolys(cells)
    array = numpy_to_vtk(np.asarray(marks, dtype=np.float64), deep=1)
    array.SetName("marks")
    mesh.GetCellData().AddArray(array)
    return mesh


def areas(xyz, triangles):
    p = xyz[triangles]
    return 0.5 * np.linalg.norm(np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]), axis=1)


class HubOfDegree10000(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.xyz, cls.triangles = hub_mesh()
        rng = np.random.default_rng(11)
        cls.marks = (rng.random(len(cls.triangles)) < 0.05).astype(float)
        cls.marks[:3] = 1  # triangles at the hub
        # Renumbered: new point new_id[p] is old point p; new cell j is old cell old_cell[j].
        cls.new_id = rng.permutation(len(cls.xyz))
        cls.old_cell = rng.permutation(len(cls.triangles))
        renumbered_xyz = np.empty_like(cls.xyz)
        renumbered_xyz[cls.new_id] = cls.xyz
        cls.meshes = {
            "as it comes": polydata(cls.xyz, cls.triangles, cls.marks),
            "renumbered": polydata(renumbered_xyz, cls.new_id[cls.triangles[cls.old_cell]], cls.marks[cls.old_cell]),
        }

    def run_filter(self, name, make):
        return gt.fetch(make(gt.producer(self.meshes[name])))

    def test_cell_reduction_sums_the_double_reference_either_way(self):
        expected = areas(self.xyz, self.triangles).sum()
        for name in self.meshes:
            result = self.run_filter(name, lambda s: simple.GPUCellReduction(Input=s, Quantity="Area"))
            self.assertAlmostEqual(gt.field_value(result, "Sum") / expected, 1.0, delta=1e-6, msg=name)

    def test_neighbor_distances_are_the_same_per_cell(self):
        results = {name: gt.cell_array(self.run_filter(name, lambda s: simple.GPUNeighborDistance(Input=s)),
                                       "MeanNeighborDistance") for name in self.meshes}
        np.testing.assert_allclose(results["renumbered"], results["as it comes"][self.old_cell], rtol=1e-5, atol=1e-7)
        # The hub's triangles see their two fan neighbours and the strip across the ring.
        self.assertTrue(np.all(np.isfinite(results["as it comes"])))

    def test_smoothing_moves_each_point_the_same(self):
        moved = {}
        for name in self.meshes:
            result = self.run_filter(
                name, lambda s: simple.GPUVertexSmoothing(Input=s, Iterations=5, Method="Laplacian", Boundary="Fixed"))
            moved[name] = vtk_to_numpy(result.GetPoints().GetData()).astype(np.float64)
        np.testing.assert_allclose(moved["renumbered"][self.new_id], moved["as it comes"], rtol=0, atol=1e-6)
        self.assertGreater(np.abs(moved["as it comes"] - self.xyz).max(), 1e-3)
        # The outer ring is the boundary: it stays.
        np.testing.assert_array_equal(moved["as it comes"][1 + DEGREE:], self.xyz[1 + DEGREE:])

    def test_refinement_is_conforming_and_the_same_either_way(self):
        shapes = {}
        for name in self.meshes:
            result = self.run_filter(
                name, lambda s: simple.GPULongestEdgeRefinement(Input=s, MarkArray=["CELLS", "marks"], MarkThreshold=0.5))
            xyz = vtk_to_numpy(result.GetPoints().GetData()).astype(np.float64)
            triangles = vtk_to_numpy(result.GetPolys().GetConnectivityArray()).reshape(-1, 3)
            self.assertGreater(len(triangles), len(self.triangles), name)
            self.assertAlmostEqual(areas(xyz, triangles).sum() / areas(self.xyz, self.triangles).sum(), 1.0,
                                   delta=1e-9, msg=name)
            # Conforming: no edge in more than two triangles, and an edge of one triangle only on
            # the outer ring (a hanging node would leave one inside).
            edges = np.sort(np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]], triangles[:, [2, 0]]]), axis=1)
            unique, counts = np.unique(edges, axis=0, return_counts=True)
            self.assertLessEqual(counts.max(), 2, name)
            radii = np.linalg.norm(xyz[unique[counts == 1]], axis=2)
            np.testing.assert_allclose(radii, 1.5, rtol=1e-3, err_msg=name)
            # The same triangles either way, compared by their corners' coordinates.
            shapes[name] = sorted(tuple(sorted(map(tuple, corners))) for corners in np.round(xyz[triangles], 9))
        self.assertEqual(shapes["renumbered"], shapes["as it comes"])


if __name__ == "__main__":
    unittest.main()
