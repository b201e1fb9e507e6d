"""GPU Cell Reduction against vtkCellSizeFilter and numpy in double precision."""
import math
import unittest

import numpy as np
from paraview import simple
from vtkmodules.vtkCommonCore import vtkDoubleArray, vtkFloatArray, vtkIdList, vtkPoints
from vtkmodules.vtkCommonDataModel import (
    VTK_HEXAHEDRON, VTK_LINE, VTK_PIXEL, VTK_POLYGON, VTK_PYRAMID, VTK_QUAD,
    VTK_QUADRATIC_TRIANGLE, VTK_TETRA, VTK_TRIANGLE, VTK_VERTEX, VTK_VOXEL, VTK_WEDGE,
    vtkUnstructuredGrid)
from vtkmodules.vtkFiltersVerdict import vtkCellSizeFilter

import gpumesh_testing as gt

gt.load_plugin()

RELATIVE = 1e-5


def reference_sizes(dataset):
    """Per-cell signed size in double by vtkCellSizeFilter: length, area or volume by dimension."""
    sizes = vtkCellSizeFilter()
    sizes.SetInputData(dataset)
    sizes.ComputeVertexCountOff()
    sizes.ComputeSumOn()
    sizes.Update()
    out = sizes.GetOutput()
    total = np.zeros(dataset.GetNumberOfCells())
    for name in ("Length", "Area", "Volume"):
        total += gt.cell_array(out, name)
    return total


def reduce_on_device(dataset, **properties):
    reduction = simple.GPUCellReduction(Input=gt.producer(dataset), **properties)
    return gt.fetch(reduction)


class CellReductionTest(unittest.TestCase):
    def assert_statistics(self, result, expected):
        """Field data against numpy statistics of the non-NaN values of `expected`."""
        values = expected[~np.isnan(expected)]
        self.assertEqual(int(gt.field_value(result, "Count")), values.size)
        scale = max(np.abs(values).sum(), 1e-300)
        self.assertLessEqual(abs(gt.field_value(result, "Sum") - values.sum()), RELATIVE * scale)
        self.assertLessEqual(abs(gt.field_value(result, "Mean") - values.mean()), RELATIVE * scale / values.size)
        self.assertLessEqual(abs(gt.field_value(result, "Min") - values.min()), RELATIVE * abs(values.min()))
        self.assertLessEqual(abs(gt.field_value(result, "Max") - values.max()), RELATIVE * abs(values.max()))
        l2 = math.sqrt((values ** 2).sum())
        self.assertLessEqual(abs(gt.field_value(result, "L2") - l2), RELATIVE * l2)
        self.assert_norms(result, values, RELATIVE)

    def assert_norms(self, result, values, relative):
        """L0, L1 and Linf of the field data against numpy (values without NaN)."""
        self.assertEqual(int(gt.field_value(result, "L0")), int(np.count_nonzero(values)))
        l1 = float(np.abs(values).sum())
        self.assertLessEqual(abs(gt.field_value(result, "L1") - l1), relative * l1)
        linf = float(np.abs(values).max()) if values.size else 0.0
        self.assertLessEqual(abs(gt.field_value(result, "Linf") - linf), relative * linf)

    def assert_per_cell(self, actual, expected):
        np.testing.assert_array_equal(np.isnan(actual), np.isnan(expected))
        both = ~np.isnan(expected)
        np.testing.assert_allclose(actual[both], expected[both], rtol=RELATIVE, atol=0)

    def check_mesh(self, name, quantity, array):
        mesh = gt.read_vtu(name)
        expected = reference_sizes(mesh)
        for data in (mesh, gt.as_polydata(mesh) if quantity == "Area" else None):
            if data is None:
                continue
            result = reduce_on_device(data, Quantity=quantity)
            self.assertEqual(result.GetClassName(), data.GetClassName())
            self.assert_per_cell(gt.cell_array(result, array), expected)
            self.assert_statistics(result, expected)
            self.assertEqual(gt.field_value(result, "Quantity"), array)
            self.assertGreaterEqual(gt.field_value(result, "KernelTimeMs"), 0.0)
            # The points and cells went up, or (CPU devices) were read where they are.
            moved = gt.field_value(result, "BytesUploaded") + gt.field_value(result, "BytesReadInPlace")
            self.assertGreaterEqual(moved, data.GetPoints().GetData().GetNumberOfValues() * 4
                                    + data.GetNumberOfCells() * 4)
            self.assertTrue(gt.field_value(result, "Device"))

    def test_triangle_areas_of_gmsh_plate(self):
        self.check_mesh("plate_with_holes.vtu", "Area", "Area")

    def test_tetrahedron_volumes_of_gmsh_ball(self):
        self.check_mesh("ball_tets.vtu", "Volume", "Volume")

    def test_hexahedron_volumes_of_gmsh_block(self):
        self.check_mesh("hex_block.vtu", "Size", "Size")

    def test_sphere_surface_size(self):
        self.check_mesh("sphere_surface.vtu", "Size", "Size")

    def test_mixed_cells(self):
        grid = mixed_grid()
        expected = reference_sizes(grid)
        expected[0] = np.nan  # a vertex has no size: NaN, left out
        result = reduce_on_device(grid)
        self.assert_per_cell(gt.cell_array(result, "Size"), expected)
        self.assert_statistics(result, expected)

        dimension = np.array([grid.GetCell(i).GetCellDimension() for i in range(grid.GetNumberOfCells())])
        for quantity, wanted in (("Length", 1), ("Area", 2), ("Volume", 3)):
            only = np.where(dimension == wanted, expected, np.nan)
            result = reduce_on_device(grid, Quantity=quantity)
            self.assert_per_cell(gt.cell_array(result, quantity), only)
            self.assert_statistics(result, only)

    def test_empty_input(self):
        grid = vtkUnstructuredGrid()
        grid.SetPoints(vtkPoints())
        result = reduce_on_device(grid)
        self.assertEqual(result.GetNumberOfCells(), 0)
        self.assertEqual(gt.field_value(result, "Count"), 0)
        self.assertEqual(gt.field_value(result, "Sum"), 0.0)
        self.assertTrue(math.isnan(gt.field_value(result, "Min")))
        self.assertTrue(math.isnan(gt.field_value(result, "Mean")))
        for norm in ("L0", "L1", "L2", "Linf"):
            self.assertEqual(gt.field_value(result, norm), 0.0, norm)

    def test_norms_at_every_scale(self):
        """L0, L1, L2 and Linf of arrays of 1e-30 .. 1e30 (zeros, NaN, both signs) against numpy,
        in both precisions: no square or sum leaves the range, nothing underflows."""
        grid = gt.read_vtu("ball_tets.vtu")
        n = grid.GetNumberOfCells()
        rng = np.random.default_rng(30)
        for scale in (1e-30, 1e-10, 1.0, 1e10, 1e30):
            values = scale * rng.uniform(-3.0, 3.0, size=n)
            values[::11] = 0.0
            values[5::13] = np.nan
            for precision, relative in (("Double", 1e-13), ("Single", 1e-6)):
                # Single rounds each value to float first: compare with numpy on those values.
                expected = values if precision == "Double" else values.astype(np.float32).astype(np.float64)
                mesh = grid.NewInstance()
                mesh.ShallowCopy(grid)
                add_cell_array(mesh, "Values", values[:, None])
                result = reduce_on_device(mesh, Quantity="Array", InputArray=["CELLS", "Values"],
                                          Precision=precision)
                finite = expected[~np.isnan(expected)]
                self.assertEqual(int(gt.field_value(result, "Count")), finite.size)
                self.assert_norms(result, finite, relative)
                l2 = math.sqrt(float(((finite / scale) ** 2).sum())) * scale
                self.assertLessEqual(abs(gt.field_value(result, "L2") - l2), relative * l2, (scale, precision))

    def test_cell_array_with_nan(self):
        grid = gt.read_vtu("plate_with_holes.vtu")
        rng = np.random.default_rng(5)
        values = rng.normal(size=grid.GetNumberOfCells())
        values[::17] = np.nan
        add_cell_array(grid, "Pressure", values[:, None])
        result = reduce_on_device(grid, Quantity="Array", InputArray=["CELLS", "Pressure"])
        self.assert_statistics(result, values)
        self.assertEqual(gt.field_value(result, "Quantity"), "Pressure")
        # A scalar array is its own quantity: no second array is added.
        self.assertIsNone(gt.cell_array(result, "Pressure_Magnitude"))

    def test_vector_array_by_magnitude(self):
        grid = gt.read_vtu("ball_tets.vtu")
        rng = np.random.default_rng(9)
        vectors = rng.uniform(-2, 2, size=(grid.GetNumberOfCells(), 3))
        add_cell_array(grid, "Velocity", vectors)
        result = reduce_on_device(grid, Quantity="Array", InputArray=["CELLS", "Velocity"])
        magnitude = np.linalg.norm(vectors, axis=1)
        self.assert_per_cell(gt.cell_array(result, "Velocity_Magnitude"), magnitude)
        self.assert_statistics(result, magnitude)

    def test_unknown_array_is_an_error(self):
        grid = gt.read_vtu("plate_with_holes.vtu")
        with gt.CapturedErrors() as errors:
            result = reduce_on_device(grid, Quantity="Array", InputArray=["CELLS", "NoSuchArray"])
        self.assertIn("NoSuchArray", errors.text)
        self.assertEqual(result.GetNumberOfCells(), 0)

    def test_unknown_device_is_an_error(self):
        grid = gt.read_vtu("plate_with_holes.vtu")
        with gt.CapturedErrors() as errors:
            result = reduce_on_device(grid, Device="no-such-device")
        self.assertIn("no-such-device", errors.text)
        self.assertIn("Devices found", errors.text)
        self.assertEqual(result.GetNumberOfCells(), 0)

    def test_device_choices(self):
        reduction = simple.GPUCellReduction(Input=gt.producer(gt.read_vtu("hex_block.vtu")))
        reduction.UpdatePropertyInformation()
        devices = list(reduction.GetProperty("DeviceList"))
        self.assertEqual(devices[0], "auto")
        self.assertTrue(devices[1].startswith("0: "), devices)
        for spec in (devices[1], "0"):
            reduction.Device = spec
            result = gt.fetch(reduction)
            self.assertEqual(gt.field_value(result, "Device"), devices[1])

    def test_unsupported_cell_is_an_error_naming_it(self):
        grid = mixed_grid()
        ids = vtkIdList()
        for i in range(6):
            ids.InsertNextId(i)
        grid.InsertNextCell(VTK_QUADRATIC_TRIANGLE, ids)
        with gt.CapturedErrors() as errors:
            result = reduce_on_device(grid)
        self.assertIn("Cell %d" % (grid.GetNumberOfCells() - 1), errors.text)
        self.assertIn("vtkQuadraticTriangle", errors.text)
        self.assertEqual(result.GetNumberOfCells(), 0)
        # The same cells reduce fine as an array: no geometry is needed.
        add_cell_array(grid, "Ones", np.ones((grid.GetNumberOfCells(), 1)))
        result = reduce_on_device(grid, Quantity="Array", InputArray=["CELLS", "Ones"])
        self.assertEqual(gt.field_value(result, "Sum"), grid.GetNumberOfCells())

    def test_cell_data_and_points_pass_through(self):
        grid = gt.read_vtu("hex_block.vtu")
        add_cell_array(grid, "Tag", np.arange(grid.GetNumberOfCells(), dtype=float)[:, None])
        result = reduce_on_device(grid)
        np.testing.assert_array_equal(gt.cell_array(result, "Tag"), np.arange(grid.GetNumberOfCells()))
        self.assertEqual(result.GetNumberOfPoints(), grid.GetNumberOfPoints())


def add_cell_array(dataset, name, values):
    array = vtkDoubleArray()
    array.SetName(name)
    array.SetNumberOfComponents(values.shape[1])
    array.SetNumberOfTuples(values.shape[0])
    for i, row in enumerate(values):
        array.SetTuple(i, row)
    dataset.GetCellData().AddArray(array)


def mixed_grid():
    """One cell of each supported kind, jittered so no shape is special; all faces planar."""
    rng = np.random.default_rng(1)
    points = vtkPoints()
    points.SetDataTypeToDouble()

    def add(xyz):
        return [points.InsertNextPoint(*p) for p in xyz]

    grid = vtkUnstructuredGrid()
    grid.SetPoints(points)

    def cell(kind, xyz):
        ids = vtkIdList()
        for i in add(xyz):
            ids.InsertNextId(i)
        grid.InsertNextCell(kind, ids)

    j = lambda: rng.uniform(-0.05, 0.05)
    cell(VTK_VERTEX, [(0, 0, 0)])
    cell(VTK_LINE, [(0, 0, 0), (1 + j(), 2, 0.5)])
    cell(VTK_TRIANGLE, [(0, 0, 0), (1 + j(), 0, 0), (0.2, 1 + j(), 0.3)])
    cell(VTK_QUAD, [(0, 0, 0), (2, 0, 0), (2.2, 1, 0), (-0.1, 1.1, 0)])
    cell(VTK_PIXEL, [(0, 0, 1), (2, 0, 1), (0, 3, 1), (2, 3, 1)])
    cell(VTK_POLYGON, [(0, 0, 2), (2, 0, 2), (2, 1, 2), (1, 1, 2), (1, 2, 2), (0, 2, 2)])
    cell(VTK_TETRA, [(0, 0, 0), (1 + j(), 0, 0), (0, 1, 0), (0.1, 0.2, 1 + j())])
    s = 1.3
    cell(VTK_HEXAHEDRON, [(0, 0, 0), (s, 0, 0), (s, s, 0), (0, s, 0), (0, 0, 2), (s, 0, 2), (s, s, 2), (0, s, 2)])
    cell(VTK_VOXEL, [(0, 0, 0), (1, 0, 0), (0, 2, 0), (1, 2, 0), (0, 0, 3), (1, 0, 3), (0, 2, 3), (1, 2, 3)])
    cell(VTK_WEDGE, [(0, 0, 0), (0, 1, 0), (1, 0, 0), (0, 0, 2), (0, 1, 2), (1, 0, 2)])
    cell(VTK_PYRAMID, [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (0.5, 0.7, 1.5)])
    return grid


if __name__ == "__main__":
    unittest.main(verbosity=2)
