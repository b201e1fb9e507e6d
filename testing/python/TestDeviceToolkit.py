"""The device toolkit (kernels/algorithms/mesh_toolkit.cl, docs/filters.md#device-toolkit) called from
GPU Mesh Kernel: the same values as GPU Cell Reduction and GPU Mesh Quality, which call the same
functions (one home per formula), on gmsh's triangles, tetrahedra and hexahedra, in Double and
Single; the distances and projections against numpy in double."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa

import gpumesh_testing as gt

gt.load_plugin()

HEXAHEDRON_POINTS = "REAL3 p[8];\nfor (int k = 0; k < 8; ++k)\n  p[k] = points_x(k);\n"


def on_cells(dataset, body, precision):
    result = gt.fetch(simple.GPUMeshKernel(Input=gt.producer(dataset), Domain="Cells", Kernel=body,
                                           ResultArrayName="Toolkit", Precision=precision))
    return gt.cell_array(result, "Toolkit")


def cell_reduction(dataset, quantity, precision):
    return gt.cell_array(gt.fetch(simple.GPUCellReduction(Input=gt.producer(dataset), Quantity=quantity,
                                                          Precision=precision)), quantity)


def mesh_quality(dataset, precision, **measures):
    quality = simple.GPUMeshQuality(Input=gt.producer(dataset), Precision=precision)
    for kind, value in measures.items():
        quality.SMProxy.GetProperty(kind + "QualityMeasure").SetElement(0, value)
    quality.SMProxy.UpdateVTKObjects()
    return gt.cell_array(gt.fetch(quality), "Quality")


class DeviceToolkitTest(unittest.TestCase):
    # (mesh, toolkit call, Cell Reduction quantity or Mesh Quality measure by kind and number)
    CASES = [
        ("sphere_surface.vtu", "result = triangle_area(points_x(0), points_x(1), points_x(2));", ("Area",)),
        ("sphere_surface.vtu", "result = quality_tri_radius_ratio(points_x(0), points_x(1), points_x(2));",
         ("Triangle", 2)),
        ("sphere_surface.vtu", "result = quality_tri_minimum_angle(points_x(0), points_x(1), points_x(2));",
         ("Triangle", 6)),
        ("sphere_surface.vtu", "result = quality_tri_area(points_x(0), points_x(1), points_x(2));", ("Triangle", 28)),
        ("ball_tets.vtu", "result = tet_volume(points_x(0), points_x(1), points_x(2), points_x(3));", ("Volume",)),
        ("ball_tets.vtu", "result = quality_tet_volume(points_x(0), points_x(1), points_x(2), points_x(3));",
         ("Tet", 19)),
        ("ball_tets.vtu", "result = quality_tet_radius_ratio(points_x(0), points_x(1), points_x(2), points_x(3));",
         ("Tet", 2)),
        ("ball_tets.vtu", "result = quality_tet_mean_ratio(points_x(0), points_x(1), points_x(2), points_x(3));",
         ("Tet", 33)),
        ("ball_tets.vtu",
         "result = quality_tet_normalized_inradius(points_x(0), points_x(1), points_x(2), points_x(3));",
         ("Tet", 35)),
        ("hex_block.vtu", HEXAHEDRON_POINTS + "result = hex_volume(p);", ("Volume",)),
        ("hex_block.vtu", HEXAHEDRON_POINTS + "result = quality_hex_scaled_jacobian(p);", ("Hex", 10)),
        ("hex_block.vtu", HEXAHEDRON_POINTS + "result = quality_hex_volume(p);", ("Hex", 19)),
    ]

    def test_toolkit_values_equal_the_filters(self):
        for name, body, reference in self.CASES:
            mesh = gt.read_vtu(name)
            for precision in ("Double", "Single"):
                with self.subTest(mesh=name, kernel=body.splitlines()[-1], precision=precision):
                    ours = on_cells(mesh, body, precision)
                    if len(reference) == 1:
                        theirs = cell_reduction(mesh, reference[0], precision)
                    else:
                        theirs = mesh_quality(mesh, precision, **{reference[0]: reference[1]})
                    self.assertEqual(ours.size, mesh.GetNumberOfCells())
                    self.assertTrue(np.all(np.isfinite(ours)))
                    self.assertGreater(np.ptp(ours), 0)  # values that differ from cell to cell
                    # The same function on the same points: the same bits.
                    np.testing.assert_array_equal(ours, theirs)

    def test_distances_and_projections_against_numpy(self):
        mesh = gt.read_vtu("ball_tets.vtu")
        xyz = np.asarray(dsa.WrapDataObject(mesh).Points, dtype=np.float64)
        a, b = np.array([0.1, -0.2, 0.3]), np.array([0.7, 0.4, -0.5])
        n = np.array([1.0, 2.0, 2.0])
        literal = lambda v: "(REAL3)(%r, %r, %r)" % tuple(v)
        line_t = (xyz - a) @ (b - a) / ((b - a) @ (b - a))
        line_projection = a + line_t[:, None] * (b - a)
        plane_distance = (xyz - a) @ n / np.linalg.norm(n)
        plane_projection = xyz - ((xyz - a) @ n / (n @ n))[:, None] * n
        scale = np.ptp(xyz, axis=0).max()
        cases = [
            ("result = point_line_distance(x, %s, %s);" % (literal(a), literal(b)), 1,
             np.linalg.norm(xyz - line_projection, axis=1)),
            ("result = point_line_projection(x, %s, %s);" % (literal(a), literal(b)), 3, line_projection),
            ("result = point_plane_distance(x, %s, %s);" % (literal(a), literal(n)), 1, plane_distance),
            ("result = point_plane_projection(x, %s, %s);" % (literal(a), literal(n)), 3, plane_projection),
            ("result = edge_length(x, %s);" % literal(b), 1, np.linalg.norm(xyz - b, axis=1)),
        ]
        for body, components, expected in cases:
            with self.subTest(kernel=body):
                result = gt.fetch(simple.GPUMeshKernel(Input=gt.producer(mesh), Kernel=body, ResultArrayName="T",
                                                       ResultComponents=components, Precision="Double"))
                array = result.GetPointData().GetArray("T")
                got = np.array([array.GetTuple(i) for i in range(array.GetNumberOfTuples())])
                np.testing.assert_allclose(got.reshape(expected.shape), expected, rtol=0, atol=1e-14 * scale)

    def test_normals_are_unit_and_right_handed(self):
        mesh = gt.read_vtu("sphere_surface.vtu")
        body = "result = triangle_normal(points_x(0), points_x(1), points_x(2));"
        result = gt.fetch(simple.GPUMeshKernel(Input=gt.producer(mesh), Domain="Cells", Kernel=body,
                                               ResultArrayName="N", ResultComponents=3, Precision="Double"))
        normals = gt.cell_array_vectors(result, "N")
        xyz = np.asarray(dsa.WrapDataObject(mesh).Points, dtype=np.float64)
        cells = np.array([[mesh.GetCell(c).GetPointId(k) for k in range(3)] for c in range(mesh.GetNumberOfCells())])
        p = xyz[cells]
        expected = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
        expected /= np.linalg.norm(expected, axis=1)[:, None]
        np.testing.assert_allclose(normals, expected, rtol=0, atol=1e-14)

    def test_a_parameter_may_not_take_a_toolkit_name_the_kernel_calls(self):
        mesh = gt.read_vtu("sphere_surface.vtu")
        with gt.CapturedErrors() as errors:
            result = gt.fetch(simple.GPUMeshKernel(
                Input=gt.producer(mesh), Domain="Cells", Parameters="tet_volume=1",
                Kernel="result = triangle_area(points_x(0), points_x(1), points_x(2));"))
        self.assertIn("Parameter 'tet_volume'", errors.text)
        self.assertEqual(result.GetNumberOfCells(), 0)


if __name__ == "__main__":
    unittest.main()
