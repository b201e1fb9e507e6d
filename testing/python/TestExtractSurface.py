"""GPU Extract Surface against vtkDataSetSurfaceFilter (ParaView's Extract Surface): the same
cells (faces in their cell's orientation, 2D cells, lines and vertices) from the same input cells
and points, the input's point and cell data carried, on the sample meshes of every kind and on
hand-made ones (every linear kind, 2D and 3D mixed, a single cell, an empty input)."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonDataModel import (
    VTK_HEXAHEDRON, VTK_LINE, VTK_PIXEL, VTK_POLY_LINE, VTK_POLY_VERTEX, VTK_POLYGON, VTK_POLYHEDRON,
    VTK_PYRAMID, VTK_QUAD, VTK_QUADRATIC_TETRA, VTK_TETRA, VTK_TRIANGLE, VTK_TRIANGLE_STRIP, VTK_VERTEX,
    VTK_VOXEL, VTK_WEDGE, vtkPolyData, vtkUnstructuredGrid)

import gpumesh_testing as gt
from extraction_reference import CUBE, grid_of, ids_of, surface_cells, vtk_surface, with_arrays

gt.load_plugin()

MESHES = ["ball_tets.vtu", "hex_block.vtu", "shell_tets.vtu", "plate_with_holes.vtu", "sphere_surface.vtu"]


def gpu_surface(dataset, **properties):
    source = gt.producer(dataset)
    surface = simple.GPUExtractSurface(Input=source, PassThroughCellIds=1, PassThroughPointIds=1, **properties)
    with gt.CapturedErrors() as errors:
        output = gt.fetch(surface)
    simple.Delete(surface)
    simple.Delete(source)
    return output, errors.text


def mixed_grid():
    """A hexahedron with a pyramid on its top, a wedge on its side x = 1 and a tetrahedron on the
    wedge's bottom (each sharing a face), a quad on the hexahedron's bottom face (kept, as
    vtkDataSetSurfaceFilter keeps it), a triangle, a polygon, a pixel, a strip, lines and
    vertices beside them."""
    return grid_of(CUBE, [
        (VTK_HEXAHEDRON, [0, 1, 2, 3, 4, 5, 6, 7]),
        (VTK_PYRAMID, [4, 5, 6, 7, 8]),
        (VTK_WEDGE, [1, 9, 2, 5, 10, 6]),
        (VTK_TETRA, [1, 2, 9, 11]),
        (VTK_QUAD, [0, 3, 2, 1]),
        (VTK_TRIANGLE, [0, 12, 3]),
        (VTK_POLYGON, [0, 14, 1, 12]),
        (VTK_PIXEL, [12, 0, 13, 3]),
        (VTK_TRIANGLE_STRIP, [12, 0, 13, 3, 14]),
        (VTK_LINE, [8, 10]),
        (VTK_POLY_LINE, [13, 14, 11]),
        (VTK_VERTEX, [8]),
        (VTK_POLY_VERTEX, [11, 13]),
    ])


class ExtractSurfaceTest(unittest.TestCase):
    def assert_like_vtk(self, dataset, reference=None):
        """GPU Extract Surface of `dataset` gives vtkDataSetSurfaceFilter's cells of `reference`
        (the same dataset unless given), and carries the input's points and arrays."""
        dataset = with_arrays(dataset)
        output, errors = gpu_surface(dataset)
        self.assertEqual(errors.strip(), "")
        self.assertTrue(output.IsA("vtkPolyData"))
        expected = vtk_surface(reference if reference is not None else dataset)
        got = surface_cells(output)
        self.assertEqual(got, surface_cells(expected))
        self.assertEqual(output.GetNumberOfPoints(), expected.GetNumberOfPoints())
        if output.GetNumberOfCells() == 0:
            return got
        points = ids_of(output, "vtkOriginalPointIds", True)
        cells = ids_of(output, "vtkOriginalCellIds", False)
        self.assertTrue(np.all(np.diff(points) > 0), "output points in input order, each once")
        source = dsa.WrapDataObject(dataset)
        result = dsa.WrapDataObject(output)
        np.testing.assert_array_equal(np.asarray(result.Points), np.asarray(source.Points)[points])
        np.testing.assert_array_equal(np.asarray(result.PointData["PointValue"]), np.asarray(source.PointData["PointValue"])[points])
        np.testing.assert_array_equal(np.asarray(result.CellData["CellValue"]), np.asarray(source.CellData["CellValue"])[cells])
        self.assertEqual(output.GetPointData().GetScalars().GetName(), "PointValue")
        return got

    def test_sample_meshes(self):
        for name in MESHES:
            with self.subTest(mesh=name):
                grid = gt.read_vtu(name)
                got = self.assert_like_vtk(grid)
                if grid.GetCellType(0) in (VTK_TETRA, VTK_HEXAHEDRON):
                    self.assertLess(len(got), grid.GetNumberOfCells() * 6)
                    self.assertGreater(len(got), 0)

    def test_sample_surfaces_as_polydata(self):
        for name in ("sphere_surface.vtu", "plate_with_holes.vtu"):
            with self.subTest(mesh=name):
                self.assert_like_vtk(gt.as_polydata(gt.read_vtu(name)))

    def test_every_linear_kind_mixed(self):
        self.assert_like_vtk(mixed_grid())

    def test_single_cells(self):
        for cell_type, ids in ((VTK_TETRA, [0, 1, 3, 4]), (VTK_HEXAHEDRON, list(range(8))),
                               (VTK_WEDGE, [0, 1, 3, 4, 5, 7]), (VTK_PYRAMID, [0, 1, 2, 3, 8]),
                               (VTK_TRIANGLE, [0, 1, 2])):
            with self.subTest(cell=cell_type):
                got = self.assert_like_vtk(grid_of(CUBE, [(cell_type, ids)]))
                self.assertGreater(len(got), 0)

    def test_inverted_tetrahedron_keeps_its_own_order(self):
        self.assert_like_vtk(grid_of(CUBE, [(VTK_TETRA, [0, 3, 1, 4]), (VTK_TETRA, [1, 3, 2, 5])]))

    def test_voxel_faces_are_the_hexahedron_faces(self):
        # vtkDataSetSurfaceFilter gives some voxel faces in pixel order (a crossed quadrilateral):
        # the reference is the same cell as a hexahedron.
        voxel = grid_of(CUBE, [(VTK_VOXEL, [0, 1, 3, 2, 4, 5, 7, 6])])
        hexahedron = grid_of(CUBE, [(VTK_HEXAHEDRON, list(range(8)))])
        self.assertEqual(len(self.assert_like_vtk(voxel, with_arrays(hexahedron))), 6)

    def test_empty_inputs(self):
        for dataset in (vtkUnstructuredGrid(), grid_of(CUBE, []), vtkPolyData()):
            with self.subTest(points=dataset.GetNumberOfPoints(), kind=dataset.GetClassName()):
                output, errors = gpu_surface(dataset)
                self.assertEqual(errors.strip(), "")
                self.assertEqual(output.GetNumberOfCells(), 0)
                self.assertEqual(output.GetNumberOfPoints(), 0)

    def test_ids_are_optional(self):
        source = gt.producer(gt.read_vtu("ball_tets.vtu"))
        surface = simple.GPUExtractSurface(Input=source)
        output = gt.fetch(surface)
        self.assertGreater(output.GetNumberOfCells(), 0)
        self.assertIsNone(output.GetPointData().GetArray("vtkOriginalPointIds"))
        self.assertIsNone(output.GetCellData().GetArray("vtkOriginalCellIds"))
        surface.PassThroughPointIds = 1
        output = gt.fetch(surface)
        self.assertIsNotNone(output.GetPointData().GetArray("vtkOriginalPointIds"))
        self.assertIsNone(output.GetCellData().GetArray("vtkOriginalCellIds"))
        self.assertGreater(gt.field_value(output, "KernelTimeMs"), 0.0)
        simple.Delete(surface)
        simple.Delete(source)

    def test_unsupported_cells_are_named(self):
        quadratic = grid_of(CUBE + [(0.5, 0, 0)] * 6, [(VTK_TETRA, [0, 1, 3, 4]),
                                                      (VTK_QUADRATIC_TETRA, [0, 1, 3, 4] + list(range(15, 21)))])
        output, errors = gpu_surface(quadratic)
        self.assertIn("Cell 1 is a vtkQuadraticTetra", errors)
        self.assertEqual(output.GetNumberOfCells(), 0)


if __name__ == "__main__":
    unittest.main()
