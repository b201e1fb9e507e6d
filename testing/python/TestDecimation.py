"""GPU Decimation on real surfaces (gmsh meshes, CAD STL tessellations, a torus) beside VTK's
vtkQuadricDecimation at the same reduction: a valid surface (three distinct points per triangle,
no duplicates, manifold and consistently oriented where the input was), the reduction asked
for, the approximation error (symmetric Hausdorff distance and mean distance, sampled on both
surfaces) at most 1.5x VTK's, the genus kept, the same output on every run, data carried, and
bad input named."""
import math
import unittest

import numpy as np
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkPoints, mutable
from vtkmodules.vtkCommonDataModel import (VTK_QUAD, VTK_TRIANGLE, vtkCellArray, vtkGenericCell, vtkPolyData,
                                           vtkStaticCellLocator, vtkUnstructuredGrid)
from vtkmodules.vtkFiltersCore import vtkCleanPolyData, vtkQuadricDecimation, vtkTriangleFilter
from vtkmodules.vtkFiltersGeometry import vtkGeometryFilter
from vtkmodules.vtkIOGeometry import vtkSTLReader

import gpumesh_testing as gt

gt.load_plugin()


def surface_of(grid):
    """An unstructured grid of triangles as a vtkPolyData (points and arrays as they are)."""
    geometry = vtkGeometryFilter()
    geometry.SetInputData(grid)
    geometry.MergingOff()
    geometry.Update()
    return geometry.GetOutput()


def stl(name):
    reader = vtkSTLReader()
    reader.SetFileName(gt.data_path("stl/" + name))
    reader.MergingOn()
    reader.Update()
    return reader.GetOutput()


def torus(nu=96, nv=32, r=1.0, a=0.35):
    points = vtkPoints()
    points.SetDataTypeToDouble()
    for j in range(nv):
        for i in range(nu):
            u, v = 2 * math.pi * i / nu, 2 * math.pi * j / nv
            points.InsertNextPoint((r + a * math.cos(v)) * math.cos(u), (r + a * math.cos(v)) * math.sin(u),
                                   a * math.sin(v))
    cells = vtkCellArray()
    ident = lambda i, j: (j % nv) * nu + (i % nu)
    for j in range(nv):
        for i in range(nu):
            cells.InsertNextCell(3, [ident(i, j), ident(i + 1, j), ident(i + 1, j + 1)])
            cells.InsertNextCell(3, [ident(i, j), ident(i + 1, j + 1), ident(i, j + 1)])
    poly = vtkPolyData()
    poly.SetPoints(points)
    poly.SetPolys(cells)
    return poly


def triangles_of(dataset):
    cells = dataset.GetPolys() if dataset.IsA("vtkPolyData") else dataset.GetCells()
    ids = np.asarray(dsa.vtkDataArrayToVTKArray(cells.GetConnectivityArray()), dtype=np.int64)
    return ids.reshape(-1, 3)


def edge_uses(triangles):
    """Per undirected edge: (number of triangles, sum of directions: 0 when consistently oriented)."""
    a = triangles.reshape(-1)
    b = np.roll(triangles, -1, axis=1).reshape(-1)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    keys = lo * (triangles.max() + 1) + hi
    direction = np.where(a < b, 1, -1)
    unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=direction)
    return counts, sums


def euler(dataset):
    triangles = triangles_of(dataset)
    counts, _ = edge_uses(triangles)
    used = np.unique(triangles).size
    return used - counts.size + triangles.shape[0]


def sample_surface(dataset, count, seed):
    """Points of the surface: its vertices, and `count` points spread by area (seeded)."""
    xyz = np.asarray(dsa.WrapDataObject(dataset).Points, dtype=np.float64)
    tri = triangles_of(dataset)
    p0, p1, p2 = xyz[tri[:, 0]], xyz[tri[:, 1]], xyz[tri[:, 2]]
    area = 0.5 * np.linalg.norm(np.cross(p1 - p0, p2 - p0), axis=1)
    rng = np.random.default_rng(seed)
    chosen = rng.choice(tri.shape[0], size=count, p=area / area.sum())
    r1, r2 = rng.random(count), rng.random(count)
    s = np.sqrt(r1)
    samples = ((1 - s)[:, None] * p0[chosen] + (s * (1 - r2))[:, None] * p1[chosen] + (s * r2)[:, None] * p2[chosen])
    return np.vstack([xyz[np.unique(tri)], samples])


def distances(points, dataset):
    locator = vtkStaticCellLocator()
    locator.SetDataSet(dataset)
    locator.BuildLocator()
    closest = [0.0, 0.0, 0.0]
    cell = vtkGenericCell()
    cell_id, sub_id, d2 = mutable(0), mutable(0), mutable(0.0)
    out = np.empty(len(points))
    for i, p in enumerate(points):
        locator.FindClosestPoint(p, closest, cell, cell_id, sub_id, d2)
        out[i] = math.sqrt(float(d2))
    return out


def approximation_error(original, decimated, count=20000):
    """(symmetric Hausdorff distance, mean distance), both ways sampled."""
    forward = distances(sample_surface(original, count, 1), decimated)
    backward = distances(sample_surface(decimated, count, 2), original)
    return max(forward.max(), backward.max()), 0.5 * (forward.mean() + backward.mean())


def vtk_decimation(poly, reduction):
    decimate = vtkQuadricDecimation()
    decimate.SetInputData(poly)
    decimate.SetTargetReduction(reduction)
    decimate.Update()
    return decimate.GetOutput()


def gpu_decimation(dataset, **properties):
    source = gt.producer(dataset)
    decimation = simple.GPUDecimation(Input=source, **properties)
    with gt.CapturedErrors() as errors:
        output = gt.fetch(decimation)
    simple.Delete(decimation)
    simple.Delete(source)
    return output, errors.text


def as_polydata(dataset):
    if dataset.IsA("vtkPolyData"):
        return dataset
    return surface_of(dataset)


class DecimationTest(unittest.TestCase):
    def assert_valid(self, output, input_dataset):
        tri = triangles_of(output)
        self.assertGreater(tri.shape[0], 0)
        self.assertTrue(np.all((tri[:, 0] != tri[:, 1]) & (tri[:, 1] != tri[:, 2]) & (tri[:, 2] != tri[:, 0])))
        self.assertEqual(np.unique(np.sort(tri, axis=1), axis=0).shape[0], tri.shape[0], "duplicate triangles")
        in_counts, _ = edge_uses(triangles_of(input_dataset))
        counts, sums = edge_uses(tri)
        if in_counts.max() <= 2:
            self.assertLessEqual(counts.max(), 2, "non-manifold edge")
            self.assertTrue(np.all(sums[counts == 2] == 0), "inconsistent orientation")
        self.assertEqual(np.unique(tri).size, output.GetNumberOfPoints(), "unused points")

    def compare_with_vtk(self, name, dataset, reduction=0.8, **properties):
        output, errors = gpu_decimation(dataset, TargetReduction=reduction, **properties)
        self.assertEqual(errors, "", name)
        self.assert_valid(output, dataset)
        n_in = dataset.GetNumberOfCells()
        n_out = output.GetNumberOfCells()
        achieved = gt.field_value(output, "AchievedReduction")
        self.assertAlmostEqual(achieved, 1 - n_out / n_in, places=12)
        self.assertEqual(gt.field_value(output, "TrianglesIn"), n_in)
        self.assertEqual(gt.field_value(output, "TrianglesOut"), n_out)
        self.assertGreater(gt.field_value(output, "Rounds"), 1)
        self.assertLessEqual(abs(achieved - reduction), 0.01, name)
        poly = as_polydata(dataset)
        reference = vtk_decimation(poly, achieved)
        ours = approximation_error(poly, as_polydata(output))
        theirs = approximation_error(poly, reference)
        print("%s: %d -> %d triangles (VTK %d); Hausdorff %.4g (VTK %.4g), mean %.4g (VTK %.4g), %d rounds" % (
            name, n_in, n_out, reference.GetNumberOfCells(), ours[0], theirs[0], ours[1], theirs[1],
            gt.field_value(output, "Rounds")))
        self.assertLessEqual(ours[0], 1.5 * theirs[0], name + ": Hausdorff distance")
        self.assertLessEqual(ours[1], 1.5 * theirs[1], name + ": mean distance")
        return output

    def test_sphere_surface(self):
        output = self.compare_with_vtk("sphere_surface", gt.read_vtu("sphere_surface.vtu"))
        self.assertEqual(euler(output), 2)
        self.assertTrue(output.IsA("vtkUnstructuredGrid"))

    def test_plate_with_holes(self):
        plate = gt.read_vtu("plate_with_holes.vtu")
        output = self.compare_with_vtk("plate_with_holes", plate, PreserveBoundary=1)
        self.assertEqual(euler(output), euler(plate))
        # Flat: every point stays in the plane z = 0, every triangle faces +z.
        xyz = np.asarray(dsa.WrapDataObject(output).Points)
        self.assertLess(np.abs(xyz[:, 2]).max(), 1e-12)
        tri = triangles_of(output)
        normal = np.cross(xyz[tri[:, 1]] - xyz[tri[:, 0]], xyz[tri[:, 2]] - xyz[tri[:, 0]])
        self.assertTrue(np.all(normal[:, 2] > 0))

    def test_stl_surfaces(self):
        for name in ["featuretype.STL", "idler_riser.STL"]:
            self.compare_with_vtk(name, stl(name), reduction=0.7)

    def test_torus_keeps_genus_one(self):
        surface = torus()
        output = self.compare_with_vtk("torus", surface, reduction=0.9, PreserveTopology=1)
        self.assertEqual(euler(output), 0)
        self.assertTrue(output.IsA("vtkPolyData"))

    def test_same_output_every_run_and_data_carried(self):
        sphere = gt.read_vtu("sphere_surface.vtu")
        xyz = np.asarray(dsa.WrapDataObject(sphere).Points)
        height = vtkDoubleArray()
        height.SetName("height")
        height.SetNumberOfTuples(sphere.GetNumberOfPoints())
        for i in range(sphere.GetNumberOfPoints()):
            height.SetValue(i, 3 * xyz[i, 2] + 1)
        sphere.GetPointData().AddArray(height)
        cell_ids = vtkDoubleArray()
        cell_ids.SetName("cellvalue")
        cell_ids.SetNumberOfTuples(sphere.GetNumberOfCells())
        for c in range(sphere.GetNumberOfCells()):
            cell_ids.SetValue(c, 10.0 * c)
        sphere.GetCellData().AddArray(cell_ids)
        first, _ = gpu_decimation(sphere, TargetReduction=0.75, PassThroughPointIds=1, PassThroughCellIds=1)
        second, _ = gpu_decimation(sphere, TargetReduction=0.75, PassThroughPointIds=1, PassThroughCellIds=1)
        self.assertTrue(np.array_equal(triangles_of(first), triangles_of(second)))
        out_xyz = np.asarray(dsa.WrapDataObject(first).Points)
        self.assertTrue(np.array_equal(out_xyz, np.asarray(dsa.WrapDataObject(second).Points)))
        # Cell data from the parent; point data linear in z, so interpolated it stays within
        # the surface's change of z (float rounding aside) when the point moved along its edge.
        parents = gt.cell_array(first, "vtkOriginalCellIds")
        self.assertTrue(np.array_equal(gt.cell_array(first, "cellvalue"), 10.0 * parents))
        original = np.asarray(dsa.WrapDataObject(first).PointData["vtkOriginalPointIds"])
        carried = np.asarray(dsa.WrapDataObject(first).PointData["height"])
        self.assertEqual(len(carried), first.GetNumberOfPoints())
        unmoved = np.all(out_xyz == xyz[original], axis=1)
        self.assertTrue(np.array_equal(carried[unmoved], 3 * xyz[original[unmoved], 2] + 1))
        self.assertLess(np.abs(carried - (3 * out_xyz[:, 2] + 1)).max(), 0.3)

    def test_target_count_and_warning_when_constrained(self):
        sphere = gt.read_vtu("sphere_surface.vtu")
        output, errors = gpu_decimation(sphere, TargetCount=500)
        self.assertEqual(errors, "")
        self.assertIn(output.GetNumberOfCells(), (499, 500))
        # A tiny Maximum Error stops it early, with a warning saying so.
        output, errors = gpu_decimation(sphere, TargetReduction=0.9, MaximumError=1e-9)
        self.assertIn("short of its target", errors)
        self.assertIn("Maximum Error", errors)
        self.assertGreater(output.GetNumberOfCells(), 380)

    def test_bad_input_is_named(self):
        sphere = gt.read_vtu("sphere_surface.vtu")
        output, errors = gpu_decimation(sphere, TargetReduction=1.0)
        self.assertIn("Target Reduction 1 is outside [0, 1)", errors)
        self.assertEqual(output.GetNumberOfCells(), 0)
        output, errors = gpu_decimation(sphere, TargetReduction=-0.1)
        self.assertIn("outside [0, 1)", errors)
        # A quad among the triangles.
        grid = vtkUnstructuredGrid()
        grid.DeepCopy(sphere)
        grid.InsertNextCell(VTK_QUAD, 4, [0, 1, 2, 3])
        output, errors = gpu_decimation(grid)
        self.assertIn("Cell %d is a" % sphere.GetNumberOfCells(), errors)
        self.assertIn("triangles only", errors)
        # A repeated point, and a non-finite point.
        grid = vtkUnstructuredGrid()
        grid.DeepCopy(sphere)
        grid.InsertNextCell(VTK_TRIANGLE, 3, [5, 5, 7])
        output, errors = gpu_decimation(grid)
        self.assertIn("Triangle %d repeats a point" % sphere.GetNumberOfCells(), errors)
        grid = vtkUnstructuredGrid()
        grid.DeepCopy(sphere)
        grid.GetPoints().SetPoint(3, float("nan"), 0, 0)
        output, errors = gpu_decimation(grid)
        self.assertIn("Point 3 has a non-finite coordinate", errors)
        self.assertEqual(output.GetNumberOfCells(), 0)


if __name__ == "__main__":
    unittest.main()
