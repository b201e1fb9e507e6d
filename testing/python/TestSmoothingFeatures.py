"""GPU Vertex Smoothing with FeatureEdgeSmoothing: a cube, a cylinder and an L-shaped part
(surfaces), and a hexahedral block (a volume, on its boundary surface) keep their corners exactly
and their feature points on their feature lines, with every method; the points that do not move
are those vtkSmoothPolyDataFilter fixes with the same angles."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkPolyData
from vtkmodules.vtkFiltersCore import vtkCleanPolyData, vtkSmoothPolyDataFilter, vtkTriangleFilter
from vtkmodules.vtkFiltersModeling import vtkLinearExtrusionFilter, vtkLinearSubdivisionFilter
from vtkmodules.vtkFiltersSources import vtkCubeSource, vtkCylinderSource
from vtkmodules.vtkCommonDataModel import vtkCellArray

import gpumesh_testing as gt

gt.load_plugin()

METHODS = ("Laplacian", "Taubin", "Barycentric")


def points_of(dataset):
    return vtk_to_numpy(dataset.GetPoints().GetData()).astype(np.float64)


def with_points(dataset, xyz):
    copy = dataset.NewInstance()
    copy.DeepCopy(dataset)
    points = vtkPoints()
    points.SetData(numpy_to_vtk(np.ascontiguousarray(xyz, dtype=np.float64), deep=1))
    copy.SetPoints(points)
    return copy


def surface(algorithm, levels=2):
    """The output of `algorithm` with coincident points merged, triangulated and subdivided
    `levels` times (points on the edges and inside the faces)."""
    clean = vtkCleanPolyData()
    clean.SetInputConnection(algorithm.GetOutputPort())
    triangles = vtkTriangleFilter()
    triangles.SetInputConnection(clean.GetOutputPort())
    subdivide = vtkLinearSubdivisionFilter()
    subdivide.SetInputConnection(triangles.GetOutputPort())
    subdivide.SetNumberOfSubdivisions(levels)
    subdivide.Update()
    result = vtkPolyData()
    result.ShallowCopy(subdivide.GetOutput())
    points = vtkPoints()
    points.SetData(numpy_to_vtk(points_of(result), deep=1))  # double points
    result.SetPoints(points)
    return result


def cube():
    source = vtkCubeSource()
    return surface(source, 3)


def cylinder():
    source = vtkCylinderSource()
    source.SetResolution(36)  # the rims turn by 10 degrees at their points: below EdgeAngle
    source.SetHeight(1.0)
    return surface(source, 2)


def l_part():
    """An L-shaped profile extruded: convex and concave (270 degree) feature edges."""
    outline = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    polygon = vtkPolyData()
    points = vtkPoints()
    for x, y in outline:
        points.InsertNextPoint(x, y, 0)
    polygon.SetPoints(points)
    cells = vtkCellArray()
    cells.InsertNextCell(len(outline), list(range(len(outline))))
    polygon.SetPolys(cells)
    extrude = vtkLinearExtrusionFilter()
    extrude.SetInputData(polygon)
    extrude.SetExtrusionTypeToVectorExtrusion()
    extrude.SetVector(0, 0, 1)
    extrude.CappingOn()
    return surface(extrude, 3)


def smooth(dataset, **properties):
    return gt.fetch(simple.GPUVertexSmoothing(Input=gt.producer(dataset), **properties))


def vtk_fixed(dataset, feature_angle=45.0, edge_angle=15.0):
    """The points vtkSmoothPolyDataFilter leaves where they are with feature edges on."""
    vtk_smoother = vtkSmoothPolyDataFilter()
    vtk_smoother.SetInputData(dataset)
    vtk_smoother.SetNumberOfIterations(20)
    vtk_smoother.SetFeatureEdgeSmoothing(1)
    vtk_smoother.SetFeatureAngle(feature_angle)
    vtk_smoother.SetEdgeAngle(edge_angle)
    vtk_smoother.SetBoundarySmoothing(1)
    vtk_smoother.Update()
    return np.all(points_of(vtk_smoother.GetOutput()) == points_of(dataset), axis=1), vtk_smoother.GetOutput()


def jitter_within_faces(xyz, bounds_planes, seed=5, amount=0.02):
    """Moves each point at random along the coordinates in which it lies on no bounding plane:
    points inside a face stay in its plane, points on an edge on its line, corners stay."""
    rng = np.random.default_rng(seed)
    moved = xyz.copy()
    for axis in range(3):
        free = np.ones(len(xyz), bool)
        for plane in bounds_planes[axis]:
            free &= np.abs(xyz[:, axis] - plane) > 1e-9
        moved[free, axis] += rng.uniform(-amount, amount, np.count_nonzero(free))
    return moved


def on_planes(xyz, planes):
    """Per point: how many of the axis-aligned planes (axis, value) hold it (within 1e-6)."""
    return sum((np.abs(xyz[:, axis] - value) < 1e-6).astype(int) for axis, value in planes)


class FeatureEdgeTest(unittest.TestCase):
    def check_box(self, dataset, planes, faces_kept=True, **properties):
        """Corners (on three planes) exactly still, edge points (two planes) and, `faces_kept`,
        face points (one) still on theirs, for every method; without features the corners
        move."""
        xyz = points_of(dataset)
        holds = on_planes(xyz, planes)
        corners = holds >= 3
        self.assertGreater(np.count_nonzero(corners), 0)
        for method in METHODS:
            with self.subTest(method=method):
                result = points_of(smooth(dataset, Method=method, FeatureEdgeSmoothing=1, Iterations=20, **properties))
                np.testing.assert_array_equal(result[corners], xyz[corners])
                kept = on_planes(result, planes)
                edges = holds == 2
                np.testing.assert_array_equal(kept[edges], holds[edges])  # on both planes of its edge
                if faces_kept:
                    np.testing.assert_array_less(holds - 1, kept)
                moved = np.linalg.norm(result - xyz, axis=1) > 0
                self.assertGreater(np.count_nonzero(moved & (holds == 2)), 0, "no edge point moved along its edge")
                plain = points_of(smooth(dataset, Method=method, Iterations=20, **properties))
                self.assertGreater(np.abs(plain[corners] - xyz[corners]).max(), 1e-3, "corners move without features")

    def test_cube_keeps_corners_and_edges_with_every_method(self):
        box = cube()
        planes = [(axis, value) for axis in range(3) for value in (-0.5, 0.5)]
        jittered = with_points(box, jitter_within_faces(points_of(box), [(-0.5, 0.5)] * 3))
        self.check_box(jittered, planes, Boundary="Free")

    def test_l_part_keeps_convex_and_concave_edges(self):
        part = l_part()
        xyz = points_of(part)
        # The concave edge x = y = 1 and the convex one x = y = 0, 0 < z < 1; the corners of the caps.
        concave = (xyz[:, 0] == 1) & (xyz[:, 1] == 1) & (xyz[:, 2] > 0) & (xyz[:, 2] < 1)
        convex = (xyz[:, 0] == 0) & (xyz[:, 1] == 0) & (xyz[:, 2] > 0) & (xyz[:, 2] < 1)
        outline = np.array([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)], float)
        corners = np.zeros(len(xyz), bool)
        for x, y in outline:
            corners |= (xyz[:, 0] == x) & (xyz[:, 1] == y) & ((xyz[:, 2] == 0) | (xyz[:, 2] == 1))
        self.assertEqual(np.count_nonzero(corners), 12)
        self.assertGreater(np.count_nonzero(concave), 3)
        shaken = xyz.copy()
        shaken[concave | convex, 2] += 0.2 * (np.random.default_rng(4).random(np.count_nonzero(concave | convex)) - 0.5) / 8
        shaken = with_points(part, shaken)
        for method in METHODS:
            with self.subTest(method=method):
                result = points_of(smooth(shaken, Method=method, FeatureEdgeSmoothing=1, Iterations=20, Boundary="Free"))
                np.testing.assert_array_equal(result[corners], xyz[corners])
                for line, (x, y) in ((concave, (1, 1)), (convex, (0, 0))):
                    np.testing.assert_allclose(result[line, 0], x, rtol=0, atol=1e-6)
                    np.testing.assert_allclose(result[line, 1], y, rtol=0, atol=1e-6)
                    self.assertGreater(np.abs(result[line, 2] - points_of(shaken)[line, 2]).max(), 1e-3)
                plain = points_of(smooth(shaken, Method=method, Iterations=20, Boundary="Free"))
                self.assertGreater(np.abs(plain[concave, :2] - 1).max(), 1e-3, "the concave edge moves without features")

    def test_fixed_points_are_those_of_vtk_smooth_poly_data(self):
        """Every point shaken by 1e-5 (angles move by less than 0.1 degree), so that none of
        those that may move sits exactly where its step would put it: the points left exactly
        where they are, by VTK and by the filter, are the fixed ones."""
        rng = np.random.default_rng(6)
        for name, dataset in (("cube", cube()), ("cylinder", cylinder()), ("l_part", l_part())):
            dataset = with_points(dataset, points_of(dataset) + rng.uniform(-1e-5, 1e-5, (dataset.GetNumberOfPoints(), 3)))
            for feature_angle, edge_angle in ((45.0, 15.0), (30.0, 5.0)):
                with self.subTest(mesh=name, feature_angle=feature_angle, edge_angle=edge_angle):
                    fixed, _ = vtk_fixed(dataset, feature_angle, edge_angle)
                    result = smooth(dataset, FeatureEdgeSmoothing=1, FeatureAngle=feature_angle,
                                    EdgeAngle=edge_angle, Iterations=20, Boundary="Smooth")
                    still = np.all(points_of(result) == points_of(dataset), axis=1)
                    if name != "cylinder" or edge_angle < 10:  # the rims turn by 10 degrees
                        self.assertGreater(np.count_nonzero(fixed), 7)
                    np.testing.assert_array_equal(still, fixed)

    def test_cylinder_rims_stay_in_their_planes(self):
        tube = cylinder()
        xyz = points_of(tube)
        rim = np.abs(np.abs(xyz[:, 1]) - 0.5) < 1e-9
        radius = np.hypot(xyz[:, 0], xyz[:, 2])
        rim &= np.abs(radius - radius.max()) < 1e-6
        for method in METHODS:
            with self.subTest(method=method):
                result = points_of(smooth(tube, Method=method, FeatureEdgeSmoothing=1, Iterations=10, Boundary="Free"))
                np.testing.assert_allclose(result[rim, 1], xyz[rim, 1], rtol=0, atol=1e-6)
                plain = points_of(smooth(tube, Method=method, Iterations=10, Boundary="Free"))
                self.assertGreater(np.abs(plain[rim, 1] - xyz[rim, 1]).max(), 1e-3)

    def test_volume_mesh_keeps_its_boundary_features(self):
        block = gt.read_vtu("hex_block.vtu")  # 2 x 1.5 x 1
        xyz = points_of(block)
        lo, hi = xyz.min(axis=0), xyz.max(axis=0)
        planes = [(axis, value) for axis in range(3) for value in (lo[axis], hi[axis])]
        jittered = with_points(block, jitter_within_faces(xyz, [(lo[a], hi[a]) for a in range(3)], amount=0.03))
        for boundary in ("Smooth", "Free"):  # Free: the faces' points move as the inner ones do
            with self.subTest(boundary=boundary):
                self.check_box(jittered, planes, faces_kept=boundary == "Smooth", Boundary=boundary)

    def test_two_runs_are_bitwise_equal(self):
        box = cube()
        jittered = with_points(box, jitter_within_faces(points_of(box), [(-0.5, 0.5)] * 3))
        first = smooth(jittered, Method="Taubin", FeatureEdgeSmoothing=1, Boundary="Free")
        second = smooth(jittered, Method="Taubin", FeatureEdgeSmoothing=1, Boundary="Free")
        np.testing.assert_array_equal(points_of(first), points_of(second))

    def test_angles_outside_the_range_are_errors(self):
        for name, value in (("FeatureAngle", 200.0), ("EdgeAngle", -1.0)):
            with self.subTest(name=name):
                with gt.CapturedErrors() as errors:
                    result = smooth(cube(), FeatureEdgeSmoothing=1, **{name: value})
                self.assertIn("%s must be in [0, 180]" % name, errors.text)
                self.assertEqual(result.GetNumberOfPoints(), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
