"""GPU Extract Edges against vtkExtractEdges (ParaView's Extract Edges: every edge once, the cell
data of the lowest cell using it) and vtkFeatureEdges (ParaView's Feature Edges: boundary and
feature edges of 2D cells), on the sample meshes of every kind and on hand-made ones."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonDataModel import (
    VTK_HEXAHEDRON, VTK_LINE, VTK_PIXEL, VTK_POLYGON, VTK_PYRAMID, VTK_QUAD, VTK_TETRA, VTK_TRIANGLE,
    VTK_TRIANGLE_STRIP, VTK_VERTEX, VTK_VOXEL, VTK_WEDGE, vtkPolyData, vtkUnstructuredGrid)

import gpumesh_testing as gt
from extraction_reference import (
    CUBE, grid_of, ids_of, line_ends, vtk_edges, vtk_feature_edges, vtk_surface, with_arrays)

gt.load_plugin()

MESHES = ["ball_tets.vtu", "hex_block.vtu", "shell_tets.vtu", "plate_with_holes.vtu", "sphere_surface.vtu"]
SELECTIONS = {"Boundary Edges": (1, 0), "Feature Edges": (0, 1), "Boundary and Feature Edges": (1, 1)}


def coordinate_edges(polydata):
    """The lines as sorted pairs of point coordinates (vtkFeatureEdges renumbers its points)."""
    xyz = np.asarray(dsa.WrapDataObject(polydata).Points) if polydata.GetNumberOfPoints() else np.zeros((0, 3))
    return sorted(tuple(sorted((tuple(xyz[a]), tuple(xyz[b])))) for a, b in line_ends(polydata))


def gpu_edges(dataset, **properties):
    source = gt.producer(dataset)
    edges = simple.GPUExtractEdges(Input=source, PassThroughCellIds=1, PassThroughPointIds=1, **properties)
    with gt.CapturedErrors() as errors:
        output = gt.fetch(edges)
    simple.Delete(edges)
    simple.Delete(source)
    return output, errors.text


class ExtractEdgesTest(unittest.TestCase):
    def assert_like_extract_edges(self, dataset):
        dataset = with_arrays(dataset)
        output, errors = gpu_edges(dataset)
        self.assertEqual(errors.strip(), "")
        self.assertTrue(output.IsA("vtkPolyData"))
        self.assertEqual(output.GetNumberOfPolys() + output.GetNumberOfVerts(), 0)
        expected = vtk_edges(dataset)
        points = ids_of(output, "vtkOriginalPointIds", True) if output.GetNumberOfPoints() else np.zeros(0, np.int64)
        got = line_ends(output, points)
        self.assertEqual(len(got), len(set(got)), "an edge twice")
        want = line_ends(expected)
        self.assertEqual(sorted(got), sorted(want))
        if not got:
            return got
        # The cell data of the lowest cell using the edge, as vtkExtractEdges gives it.
        mine = dict(zip(got, map(tuple, np.asarray(dsa.WrapDataObject(output).CellData["CellValue"]))))
        theirs = dict(zip(want, map(tuple, np.asarray(dsa.WrapDataObject(expected).CellData["CellValue"]))))
        self.assertEqual(mine, theirs)
        cells = ids_of(output, "vtkOriginalCellIds", False)
        np.testing.assert_array_equal(np.asarray(dsa.WrapDataObject(output).CellData["CellValue"])[:, 0], 3 * cells + 1)
        source = dsa.WrapDataObject(dataset)
        np.testing.assert_array_equal(np.asarray(dsa.WrapDataObject(output).Points), np.asarray(source.Points)[points])
        np.testing.assert_array_equal(np.asarray(dsa.WrapDataObject(output).PointData["PointValue"]),
                                      np.asarray(source.PointData["PointValue"])[points])
        return got

    def test_all_edges_of_sample_meshes(self):
        for name in MESHES:
            with self.subTest(mesh=name):
                self.assertGreater(len(self.assert_like_extract_edges(gt.read_vtu(name))), 0)

    def test_all_edges_of_mixed_cells(self):
        # Every linear kind but strips; the line and vertex have no edges, as in vtkExtractEdges.
        self.assert_like_extract_edges(grid_of(CUBE, [
            (VTK_HEXAHEDRON, [0, 1, 2, 3, 4, 5, 6, 7]), (VTK_PYRAMID, [4, 5, 6, 7, 8]),
            (VTK_WEDGE, [1, 9, 2, 5, 10, 6]), (VTK_TETRA, [1, 2, 9, 11]), (VTK_QUAD, [0, 3, 2, 1]),
            (VTK_TRIANGLE, [0, 12, 3]), (VTK_POLYGON, [0, 14, 1, 12]), (VTK_PIXEL, [12, 0, 13, 3]),
            (VTK_VOXEL, [0, 1, 3, 2, 4, 5, 7, 6]), (VTK_LINE, [8, 10]), (VTK_VERTEX, [8])]))

    def test_single_cells_and_empty_inputs(self):
        for cell_type, ids in ((VTK_TETRA, [0, 1, 3, 4]), (VTK_HEXAHEDRON, list(range(8))), (VTK_TRIANGLE, [0, 1, 2])):
            with self.subTest(cell=cell_type):
                self.assertGreater(len(self.assert_like_extract_edges(grid_of(CUBE, [(cell_type, ids)]))), 0)
        for dataset in (vtkUnstructuredGrid(), grid_of(CUBE, []), vtkPolyData()):
            output, errors = gpu_edges(dataset)
            self.assertEqual(errors.strip(), "")
            self.assertEqual(output.GetNumberOfCells(), 0)

    def test_boundary_and_feature_edges_like_feature_edges(self):
        surfaces = {
            "sphere_surface.vtu": gt.as_polydata(gt.read_vtu("sphere_surface.vtu")),
            "plate_with_holes.vtu": gt.as_polydata(gt.read_vtu("plate_with_holes.vtu")),
            # quadrilaterals: the block's surface, its 12 edges folded at right angles
            "hex_block surface": vtk_surface(gt.read_vtu("hex_block.vtu")),
            "ball_tets surface": vtk_surface(gt.read_vtu("ball_tets.vtu")),
        }
        found = {}
        for name, angle in (("sphere_surface.vtu", 2.0), ("plate_with_holes.vtu", 30.0), ("hex_block surface", 30.0),
                            ("hex_block surface", 95.0), ("ball_tets surface", 3.0)):
            for selection, (boundary, feature) in SELECTIONS.items():
                with self.subTest(mesh=name, selection=selection, angle=angle):
                    output, errors = gpu_edges(surfaces[name], Selection=selection, FeatureAngle=angle)
                    self.assertEqual(errors.strip(), "")
                    got = coordinate_edges(output)
                    self.assertEqual(got, coordinate_edges(vtk_feature_edges(surfaces[name], boundary, feature, angle)))
                    found[name, selection, angle] = len(got)
        # Something to compare: the plate's outline and holes, the block's 12 edges (4 x (10 + 8 +
        # 6) segments, none above 95 degrees), the sphere's and ball's roughest edges.
        self.assertGreater(found["plate_with_holes.vtu", "Boundary Edges", 30.0], 100)
        self.assertEqual(found["plate_with_holes.vtu", "Feature Edges", 30.0], 0)
        self.assertEqual(found["hex_block surface", "Feature Edges", 30.0], 96)
        self.assertEqual(found["hex_block surface", "Feature Edges", 95.0], 0)
        self.assertGreater(found["sphere_surface.vtu", "Feature Edges", 2.0], 10)
        self.assertGreater(found["ball_tets surface", "Feature Edges", 3.0], 10)

    def test_boundary_of_volume_cells_is_an_error(self):
        output, errors = gpu_edges(gt.read_vtu("ball_tets.vtu"), Selection="Boundary Edges")
        self.assertIn("extract its surface first", errors)
        self.assertEqual(output.GetNumberOfCells(), 0)

    def test_strips_are_an_error(self):
        output, errors = gpu_edges(grid_of(CUBE, [(VTK_TRIANGLE_STRIP, [0, 1, 3, 2])]))
        self.assertIn("triangle strips", errors)
        self.assertEqual(output.GetNumberOfCells(), 0)


if __name__ == "__main__":
    unittest.main()
