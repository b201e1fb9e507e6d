"""GPU Decimation on real surfaces (gmsh meshes, CAD STL tessellations, a torus) beside VTK's
vtkQuadricDecimation at the same reduction: a valid surface (three distinct points per triangle,
no duplicates, manifold and consistently oriented where the input was), the reduction asked
for, the approximation error (symmetric Hausdorff distance and mean distance, sampled on both
surfaces) at most 1.5x VTK's, the genus kept, the same output on every run, data carried, and
bad input named."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkIdTypeArray
from vtkmodules.vtkCommonDataModel import VTK_QUAD, VTK_TRIANGLE, vtkUnstructuredGrid

import gpumesh_testing as gt
from decimation_reference import (approximation_error, as_polydata, edge_uses, euler, stl, torus, triangles_of,
                                  vtk_decimation)

gt.load_plugin()


def gpu_decimation(dataset, **properties):
    source = gt.producer(dataset)
    decimation = simple.GPUDecimation(Input=source, **properties)
    with gt.CapturedErrors() as errors:
        output = gt.fetch(decimation)
    simple.Delete(decimation)
    simple.Delete(source)
    return output, errors.text


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

    def test_global_ids_taken_from_the_surviving_point_and_parent_cell(self):
        sphere = gt.read_vtu("sphere_surface.vtu")
        point_ids = vtkIdTypeArray()
        point_ids.SetName("GlobalIds")
        point_ids.SetNumberOfTuples(sphere.GetNumberOfPoints())
        for i in range(sphere.GetNumberOfPoints()):
            point_ids.SetValue(i, 1000 + 7 * i)
        sphere.GetPointData().SetGlobalIds(point_ids)
        cell_ids = vtkIdTypeArray()
        cell_ids.SetName("CellGlobalIds")
        cell_ids.SetNumberOfTuples(sphere.GetNumberOfCells())
        for c in range(sphere.GetNumberOfCells()):
            cell_ids.SetValue(c, 50000 + 3 * c)
        sphere.GetCellData().SetGlobalIds(cell_ids)
        output, errors = gpu_decimation(sphere, TargetReduction=0.75, PassThroughPointIds=1, PassThroughCellIds=1)
        self.assertEqual(errors, "")
        # Point global ids are never interpolated: each point keeps its surviving input point's.
        original = np.asarray(dsa.WrapDataObject(output).PointData["vtkOriginalPointIds"])
        self.assertIsNotNone(output.GetPointData().GetGlobalIds())
        self.assertEqual(output.GetPointData().GetGlobalIds().GetName(), "GlobalIds")
        out_point_ids = np.asarray(dsa.WrapDataObject(output).PointData["GlobalIds"])
        self.assertTrue(np.array_equal(out_point_ids, 1000 + 7 * original))
        self.assertEqual(len(np.unique(out_point_ids)), output.GetNumberOfPoints())
        # Cell global ids: a surviving triangle keeps its parent's (still unique), still active.
        parents = gt.cell_array(output, "vtkOriginalCellIds")
        self.assertIsNotNone(output.GetCellData().GetGlobalIds())
        out_cell_ids = gt.cell_array(output, "CellGlobalIds")
        self.assertTrue(np.array_equal(out_cell_ids, 50000 + 3 * parents))
        self.assertEqual(len(np.unique(out_cell_ids)), output.GetNumberOfCells())

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

    def test_progress_per_round_and_abort(self):
        sphere = gt.read_vtu("sphere_surface.vtu")
        source = gt.producer(sphere)
        decimation = simple.GPUDecimation(Input=source, TargetReduction=0.9)
        algorithm = decimation.GetClientSideObject()
        seen = []
        abort_above = [None]

        def on_progress(caller, event):
            seen.append(caller.GetProgress())
            if abort_above[0] is not None and seen[-1] > abort_above[0]:
                caller.SetAbortExecute(1)

        algorithm.AddObserver("ProgressEvent", on_progress)
        output = gt.fetch(decimation)
        rounds = int(gt.field_value(output, "Rounds"))
        during = [p for p in seen if 0.1 < p <= 0.8]
        self.assertGreaterEqual(len(during), rounds - 1, seen)  # one per round
        self.assertEqual(during, sorted(during))
        # An abort stops between two rounds: an error, an empty output.
        abort_above[0] = 0.3
        decimation.TargetReduction = 0.8
        del seen[:]
        with gt.CapturedErrors() as errors:
            output = gt.fetch(decimation)
        self.assertIn("Decimation was stopped after ", errors.text)
        self.assertEqual(output.GetNumberOfCells(), 0)
        simple.Delete(decimation)
        simple.Delete(source)

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
