"""GPU Mesh Quality beyond Mesh Quality: PointQuality (Minimum, Maximum, Mean of the cells
around each point), the per-kind histograms (Bins) and BadCellCount, against numpy computed
from the filter's own Quality array (and vtkMeshQuality's within 1e-6), on gmsh meshes and a
mixed mesh with cells that have no measure."""
import unittest

import numpy as np
from paraview import simple

import gpumesh_testing as gt
from quality_extras_reference import FIELD_OF_TYPE, bad_cells, cells_of, histograms, point_quality
from TestMeshQuality import hand_made_cells, reference

gt.load_plugin()

MESHES = ("ball_tets.vtu", "plate_with_holes.vtu", "hex_block.vtu", "sphere_surface.vtu")


def run(dataset, **properties):
    quality = simple.GPUMeshQuality(Input=gt.producer(dataset), **properties)
    with gt.CapturedErrors() as errors:
        result = gt.fetch(quality)
    simple.Delete(quality)
    return result, errors.text


def point_array(dataset, name):
    array = dataset.GetPointData().GetArray(name)
    if array is None:
        raise AssertionError("point array %r is missing" % name)
    return np.array([array.GetTuple1(i) for i in range(array.GetNumberOfTuples())])


def field_counts(dataset, name):
    array = dataset.GetFieldData().GetArray(name)
    if array is None:
        raise AssertionError("field data %r is missing" % name)
    return np.array([int(array.GetTuple1(i)) for i in range(array.GetNumberOfTuples())])


class MeshQualityExtras(unittest.TestCase):
    def test_point_quality_is_the_min_max_mean_of_the_cells_around(self):
        for name in MESHES + ("hand made",):
            mesh = hand_made_cells() if name == "hand made" else gt.read_vtu(name)
            cells = cells_of(mesh)
            vtk_quality = gt.cell_array(reference(mesh), "Quality")
            for how in ("Minimum", "Maximum", "Mean"):
                with self.subTest(mesh=name, how=how):
                    result, errors = run(mesh, PointQuality=how)
                    self.assertEqual(errors.strip(), "")
                    got = point_array(result, "PointQuality")
                    quality = gt.cell_array(result, "Quality")
                    want = point_quality(cells, quality, mesh.GetNumberOfPoints(), how)
                    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
                    both = ~np.isnan(want)
                    if how == "Mean":
                        np.testing.assert_allclose(got[both], want[both], rtol=1e-14, atol=0)
                    else:
                        np.testing.assert_array_equal(got[both], want[both])
                    # and from vtkMeshQuality's values, within the filter's bound
                    vtk_want = point_quality(cells, vtk_quality, mesh.GetNumberOfPoints(), how)
                    np.testing.assert_allclose(got[both], vtk_want[both], rtol=1e-6, atol=1e-12)

    def test_histograms_are_numpy_s(self):
        for name in MESHES + ("hand made",):
            mesh = hand_made_cells() if name == "hand made" else gt.read_vtu(name)
            cells = cells_of(mesh)
            for bins in (1, 7, 64):
                with self.subTest(mesh=name, bins=bins):
                    result, errors = run(mesh, Bins=bins)
                    self.assertEqual(errors.strip(), "")
                    want = histograms(cells, gt.cell_array(result, "Quality"), bins)
                    for field in sorted(set(FIELD_OF_TYPE.values())):
                        got = field_counts(result, field + " Histogram")
                        self.assertEqual(len(got), bins, field)
                        np.testing.assert_array_equal(got, want.get(field + " Histogram", np.zeros(bins)),
                                                      err_msg=field)

    def test_one_value_range_goes_to_the_middle_bin(self):
        """All cubes of hex_block have one quality: numpy widens the range by 0.5 each side."""
        mesh = gt.read_vtu("hex_block.vtu")
        result, _ = run(mesh, Bins=5, HexQualityMeasure="Volume")
        quality = gt.cell_array(result, "Quality")
        counts = field_counts(result, "Mesh Hexahedron Quality Histogram")
        self.assertEqual(counts.sum(), np.count_nonzero(~np.isnan(quality)))
        np.testing.assert_array_equal(counts, np.histogram(quality, 5, range=(quality.min(), quality.max()))[0])

    def test_bad_cell_count_below_and_above(self):
        for name in MESHES + ("hand made",):
            mesh = hand_made_cells() if name == "hand made" else gt.read_vtu(name)
            result, _ = run(mesh)
            quality = gt.cell_array(result, "Quality")
            finite = quality[~np.isnan(quality)]
            for side in ("Below", "Above"):
                for threshold in (float(np.median(finite)), float(finite.min()), float(finite.max())):
                    with self.subTest(mesh=name, side=side, threshold=threshold):
                        got, errors = run(mesh, BadCellSide=side, BadCellThreshold=threshold)
                        self.assertEqual(errors.strip(), "")
                        self.assertEqual(int(gt.field_value(got, "BadCellCount")),
                                         bad_cells(quality, side, threshold))

    def test_off_by_default(self):
        result, _ = run(gt.read_vtu("ball_tets.vtu"))
        self.assertIsNone(result.GetPointData().GetArray("PointQuality"))
        self.assertIsNone(result.GetFieldData().GetArray("BadCellCount"))
        self.assertIsNone(result.GetFieldData().GetArray("Mesh Tetrahedron Quality Histogram"))

    def test_negative_bins_is_an_error(self):
        quality = simple.GPUMeshQuality(Input=gt.producer(gt.read_vtu("ball_tets.vtu")))
        quality.SMProxy.GetProperty("Bins").SetElement(0, -3)
        quality.SMProxy.UpdateVTKObjects()
        with gt.CapturedErrors() as errors:
            result = gt.fetch(quality)
        self.assertIn("Bins -3 is negative", errors.text)
        self.assertEqual(result.GetNumberOfCells(), 0)
        simple.Delete(quality)


if __name__ == "__main__":
    unittest.main()
