"""Every filter property given a bad value: an error naming the value (and the output empty),
never a value silently clamped; and the device keywords 'cpu' and 'gpu'."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.util.numpy_support import numpy_to_vtk
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray, vtkPolyData

import gpumesh_testing as gt

gt.load_plugin()


def hexagon():
    """Six triangles around an off-centre hub."""
    angles = np.pi * np.arange(6) / 3
    xyz = np.vstack([[0.2, 0.1, 0.0], np.column_stack([np.cos(angles), np.sin(angles), np.zeros(6)])])
    polydata = vtkPolyData()
    polydata.SetPoints(vtkPoints())
    polydata.GetPoints().SetData(numpy_to_vtk(xyz, deep=1))
    triangles = vtkCellArray()
    for k in range(6):
        triangles.InsertNextCell(3, [0, 1 + k, 1 + (k + 1) % 6])
    polydata.SetPolys(triangles)
    return polydata


class BadPropertiesTest(unittest.TestCase):
    def assert_error(self, proxy, *messages):
        with gt.CapturedErrors() as errors:
            result = gt.fetch(proxy)
        for message in messages:
            self.assertIn(message, errors.text)
        self.assertEqual(result.GetNumberOfPoints(), 0)
        self.assertEqual(result.GetNumberOfCells(), 0)

    def smoothing(self, **properties):
        return simple.GPUVertexSmoothing(Input=gt.producer(hexagon()), **properties)

    def test_negative_iterations_are_an_error_not_clamped_to_zero(self):
        self.assert_error(self.smoothing(Iterations=-1), "Iterations must be 0 or more, not -1")
        self.assert_error(self.smoothing(Iterations=-2147483648), "not -2147483648")

    def test_relaxation_factor_outside_0_1_is_an_error_saying_why(self):
        for factor, text in ((1.5, "1.5"), (0.0, "0"), (-0.5, "-0.5"), (1e300, "1e+300")):
            self.assert_error(self.smoothing(RelaxationFactor=factor),
                              "RelaxationFactor must be in (0, 1], not %s: above 1" % text, "can diverge")
        # 1 is allowed: one step puts the hub at the mean of its neighbours.
        hub = np.array(gt.fetch(self.smoothing(Iterations=1, RelaxationFactor=1.0)).GetPoint(0))
        np.testing.assert_allclose(hub, [0, 0, 0], atol=1e-6)

    def test_enumerations_out_of_range_are_errors_not_clamped(self):
        # Set below the Python layer, which offers only the entries of the drop-down (as the
        # GUI does); C++ users call SetMethod(7) and the like directly.
        cases = (
            (simple.GPUVertexSmoothing, "Method", 7, "Method 7 is not one of 0 (Laplacian), 1 (Taubin), 2 (Barycentric)"),
            (simple.GPUVertexSmoothing, "Boundary", -1, "Boundary -1 is not one of 0 (Fixed), 1 (Free), 2 (Smooth)"),
            (simple.GPUCellReduction, "Quantity", 5, "Quantity 5 is not one of 0 (Size), 1 (Area), 2 (Volume), 3 (Length), 4 (Array)"),
        )
        for make, name, value, message in cases:
            proxy = make(Input=gt.producer(hexagon()))
            proxy.SMProxy.GetProperty(name).SetElement(0, value)
            proxy.SMProxy.UpdateVTKObjects()
            self.assert_error(proxy, message)

    def test_passes_below_one_are_an_error(self):
        refinement = simple.GPULongestEdgeRefinement(Input=gt.producer(hexagon()), RefineAll=1, Passes=0)
        self.assert_error(refinement, "Passes must be at least 1 (it is 0)")

    def test_cpu_and_gpu_select_by_device_type(self):
        labels = list(simple.GPUCellReduction(Input=gt.producer(hexagon())).GetProperty("Device").Available)[1:]
        for keyword, kind in (("cpu", "(CPU)"), ("GPU", "(GPU)")):
            reduction = simple.GPUCellReduction(Input=gt.producer(hexagon()), Device=keyword)
            first = [label for label in labels if label.endswith(kind)]
            if first:
                self.assertEqual(gt.field_value(gt.fetch(reduction), "Device"), first[0])
            else:
                self.assert_error(reduction, "No OpenCL device is a %s" % kind[1:4])


if __name__ == "__main__":
    unittest.main(verbosity=2)
