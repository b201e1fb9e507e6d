"""GPU Mesh Kernel: seed 001's examples written as kernels, against double-precision numpy
references and the built-in GPU filters and vtkMeshQuality; errors; the program cache."""
import math
import os
import unittest

import numpy as np
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonCore import vtkDoubleArray
from vtkmodules.vtkFiltersVerdict import vtkMeshQuality

import gpumesh_testing as gt

gt.load_plugin()

BARYCENTRE = """// the mean of the cell's points
for (int k = 0; k < point_count; ++k)
  result += points_x(k);
result /= point_count;"""

LARGEST_NEIGHBOUR_DISTANCE = """result = NAN;
for (int k = 0; k < neighbour_count; ++k)
  result = fmax(result, distance(Barycentre, neighbours_Barycentre(k)));"""

RELAX_TOWARDS_BARYCENTRES = """REAL3 mean = 0;
for (int k = 0; k < cell_count; ++k)
  mean += cells_Barycentre(k);
mean /= cell_count;
result = x + 0.5 * (mean - x);"""

SMALLEST_ANGLE = """REAL smallest = INFINITY;
for (int k = 0; k < point_count; ++k) {
  const REAL3 a = points_x((k + 1) % point_count) - points_x(k);
  const REAL3 b = points_x((k + point_count - 1) % point_count) - points_x(k);
  smallest = fmin(smallest, acos(clamp(dot(a, b) / (length(a) * length(b)), (REAL)-1, (REAL)1)));
}
result = degrees(smallest);"""


def points_of(dataset):
    return np.asarray(dsa.WrapDataObject(dataset).Points, dtype=np.float64)


def cells_of(dataset):
    return [[dataset.GetCell(c).GetPointId(k) for k in range(dataset.GetCell(c).GetNumberOfPoints())]
            for c in range(dataset.GetNumberOfCells())]


def point_array(dataset, name):
    array = dataset.GetPointData().GetArray(name)
    if array is None:
        raise AssertionError("point array %r is missing" % name)
    return np.array([array.GetTuple(i) for i in range(array.GetNumberOfTuples())], dtype=np.float64)


def kernel(source, **properties):
    properties.setdefault("Precision", "Double")
    return simple.GPUMeshKernel(Input=source, **properties)


class MeshKernel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.surface = gt.as_polydata(gt.read_vtu("sphere_surface.vtu"))
        cls.source = gt.producer(cls.surface)
        cls.xyz = points_of(cls.surface)
        cls.cells = cells_of(cls.surface)
        cls.barycentres = np.array([cls.xyz[c].mean(axis=0) for c in cls.cells])

    def barycentre_filter(self):
        return kernel(self.source, Domain="Cells", Kernel=BARYCENTRE, ResultArrayName="Barycentre",
                      ResultComponents=3)

    def test_points_move_along_a_direction(self):
        """Seed 001, 2.3: VerCrd = VerCrd + VerVitesse * VerDirection, three iterations."""
        surface = self.surface.NewInstance()
        surface.DeepCopy(self.surface)
        n = surface.GetNumberOfPoints()
        speed = 0.01 * (np.arange(n) % 5)
        direction = np.column_stack([np.ones(n), np.arange(n) % 3, -np.ones(n)])
        for name, values in (("speed", speed), ("direction", direction)):
            array = dsa.numpyTovtkDataArray(values, name)
            surface.GetPointData().AddArray(array)
        moved = gt.fetch(kernel(gt.producer(surface), Kernel="result = x + speed * direction;",
                                ResultArrayName="Points", ResultComponents=3,
                                InputArrays=["speed", "direction"], Iterations=3))
        expected = self.xyz + 3 * speed[:, None] * direction
        np.testing.assert_allclose(points_of(moved), expected, rtol=0, atol=1e-12)

    def test_single_precision_coordinates_keep_their_place(self):
        """Double points in a Single run are shifted to the centre of their bounds on the device
        and back in double: an identity kernel returns them within float rounding of the mesh size."""
        far = self.surface.NewInstance()
        far.DeepCopy(self.surface)
        shifted = self.xyz + np.array([1e4, -2e4, 3e4])
        far.GetPoints().SetData(dsa.numpyTovtkDataArray(shifted))
        result = gt.fetch(simple.GPUMeshKernel(Input=gt.producer(far), Kernel="result = x;", ResultArrayName="Points",
                                               ResultComponents=3, Precision="Single"))
        self.assertEqual(gt.field_value(result, "Precision"), "Single")
        np.testing.assert_allclose(points_of(result), shifted, rtol=0, atol=2e-7 * 4)

    def test_coordinates_keep_the_points_type(self):
        """New coordinates are float for float points and double otherwise, whatever the run's
        precision; an identity kernel gives float points back bit for bit."""
        for points_type, precision, expected_type in (("float32", "Single", "vtkFloatArray"),
                                                      ("float32", "Double", "vtkFloatArray"),
                                                      ("float64", "Single", "vtkDoubleArray"),
                                                      ("float64", "Double", "vtkDoubleArray")):
            with self.subTest(points=points_type, precision=precision):
                typed = self.surface.NewInstance()
                typed.DeepCopy(self.surface)
                xyz = self.xyz.astype(points_type)
                typed.GetPoints().SetData(dsa.numpyTovtkDataArray(xyz))
                result = gt.fetch(simple.GPUMeshKernel(Input=gt.producer(typed), Kernel="result = x;",
                                                       ResultArrayName="Points", ResultComponents=3,
                                                       Precision=precision))
                self.assertEqual(result.GetPoints().GetData().GetClassName(), expected_type)
                if points_type == "float32":
                    np.testing.assert_array_equal(points_of(result), xyz.astype(np.float64))

    def test_coordinates_that_are_not_finite_or_beyond_the_points_type_are_refused(self):
        """New coordinates are checked as every filter checks its input's: a NaN or infinite one,
        or one beyond float's range for float points (1e300 from a Double run), is an error
        naming the point and the value, never inf in the output."""
        def marked(dtype, point):
            surface = self.surface.NewInstance()
            surface.DeepCopy(self.surface)
            surface.GetPoints().SetData(dsa.numpyTovtkDataArray(self.xyz.astype(dtype)))
            mark = np.zeros(surface.GetNumberOfPoints())
            mark[point] = 1
            surface.GetPointData().AddArray(dsa.numpyTovtkDataArray(mark, "mark"))
            return gt.producer(surface)

        def writing(value):
            return dict(Kernel="result = x;\nif (mark > 0) result.y = %s;" % value, InputArrays=["mark"],
                        ResultArrayName="Points", ResultComponents=3)

        text = self.failing("Point 7", source=marked(np.float32, 7), **writing("1e300"))
        self.assertIn("1e+300", text)
        self.assertIn("float", text)
        # Double points hold 1e300.
        result = gt.fetch(kernel(marked(np.float64, 7), **writing("1e300")))
        self.assertEqual(points_of(result)[7, 1], 1e300)
        for value, shown in (("NAN", "nan"), ("INFINITY", "inf"), ("-INFINITY", "-inf")):
            with self.subTest(value=value):
                text = self.failing("Point 5", source=marked(np.float64, 5), **writing(value))
                self.assertIn(shown, text)
        # Other results may hold NaN (a cell without neighbours) and are not checked.
        result = gt.fetch(kernel(self.source, Kernel="result = NAN;"))
        self.assertTrue(np.isnan(point_array(result, "Result")).all())

    def test_triangle_barycentres(self):
        """Seed 001, 2.4, downward link."""
        result = gt.fetch(self.barycentre_filter())
        np.testing.assert_allclose(gt.cell_array_vectors(result, "Barycentre"), self.barycentres, rtol=0, atol=1e-12)

    def test_largest_distance_to_neighbours_equals_neighbor_distance(self):
        """Seed 001, 2.4, transverse link: chained after the barycentres, with its Max reduction."""
        distance = kernel(self.barycentre_filter(), Domain="Cells", Kernel=LARGEST_NEIGHBOUR_DISTANCE,
                          ResultArrayName="Distance", InputArrays=["Barycentre"], Reduction="Max")
        ours = gt.fetch(distance)
        builtin = gt.fetch(simple.GPUNeighborDistance(Input=self.source, Precision="Double"))
        expected = gt.cell_array(builtin, "MaxNeighborDistance")
        np.testing.assert_allclose(gt.cell_array(ours, "Distance"), expected, rtol=1e-12, atol=1e-14)
        self.assertAlmostEqual(gt.field_value(ours, "Distance_Max"), float(np.nanmax(expected)), places=12)

    def test_scatter_gather_relaxation_equals_barycentric_smoothing(self):
        """Seed 001, 2.5: a scatter (barycentres) and a gather (relaxation) as two chained filters."""
        for chained in (1, 2):
            source, builtin_input = self.source, self.source
            for _ in range(chained):
                scatter = kernel(source, Domain="Cells", Kernel=BARYCENTRE, ResultArrayName="Barycentre",
                                 ResultComponents=3)
                source = kernel(scatter, Kernel=RELAX_TOWARDS_BARYCENTRES, ResultArrayName="Points",
                                ResultComponents=3, InputArrays=["Barycentre"])
            ours = points_of(gt.fetch(source))
            builtin = points_of(gt.fetch(simple.GPUVertexSmoothing(
                Input=builtin_input, Method="Barycentric", Boundary="Free", Iterations=chained,
                RelaxationFactor=0.5, Precision="Double")))
            size = np.ptp(self.xyz, axis=0).max()
            np.testing.assert_allclose(ours, builtin, rtol=0, atol=1e-12 * size)
            # and in single precision, within float rounding
            scatter = simple.GPUMeshKernel(Input=self.source, Domain="Cells", Kernel=BARYCENTRE,
                                           ResultArrayName="Barycentre", ResultComponents=3, Precision="Single")
            gather = simple.GPUMeshKernel(Input=scatter, Kernel=RELAX_TOWARDS_BARYCENTRES, ResultArrayName="Points",
                                          ResultComponents=3, InputArrays=["Barycentre"], Precision="Single")
            single = points_of(gt.fetch(gather))
            reference = points_of(gt.fetch(simple.GPUVertexSmoothing(
                Input=self.source, Method="Barycentric", Boundary="Free", Iterations=1, RelaxationFactor=0.5,
                Precision="Single")))
            np.testing.assert_allclose(single, reference, rtol=0, atol=1e-6 * size)

    def test_smallest_angle_equals_mesh_quality(self):
        quality = vtkMeshQuality()
        quality.SetInputData(self.surface)
        quality.SetTriangleQualityMeasureToMinAngle()
        quality.Update()
        expected = gt.cell_array(quality.GetOutput(), "Quality")
        result = gt.fetch(kernel(self.source, Domain="Cells", Kernel=SMALLEST_ANGLE, ResultArrayName="MinAngle",
                                 Reduction="Min"))
        np.testing.assert_allclose(gt.cell_array(result, "MinAngle"), expected, rtol=0, atol=1e-9)
        self.assertAlmostEqual(gt.field_value(result, "MinAngle_Min"), float(expected.min()), places=9)

    def test_norm_reductions_at_every_scale(self):
        """Reduction L0, L1 and Linf (and L2) of a cell result against numpy at 1e-30 .. 1e30."""
        n = len(self.cells)
        rng = np.random.default_rng(31)
        for scale in (1e-30, 1.0, 1e30):
            values = scale * rng.uniform(-3.0, 3.0, size=n)
            values[::7] = 0.0
            values[3::17] = np.nan
            surface = self.surface.NewInstance()
            surface.DeepCopy(self.surface)
            array = vtkDoubleArray()
            array.SetName("Pressure")
            for v in values:
                array.InsertNextValue(v)
            surface.GetCellData().AddArray(array)
            finite = values[~np.isnan(values)]
            expected = {"L0": float(np.count_nonzero(finite)), "L1": float(np.abs(finite).sum()),
                        "Linf": float(np.abs(finite).max()),
                        "L2": scale * math.sqrt(float(((finite / scale) ** 2).sum()))}
            for reduction, value in expected.items():
                result = gt.fetch(kernel(gt.producer(surface), Domain="Cells", Kernel="result = Pressure;",
                                         ResultArrayName="R", InputArrays=["Pressure"], Reduction=reduction))
                self.assertLessEqual(abs(gt.field_value(result, "R_" + reduction) - value), 1e-13 * value,
                                     (scale, reduction))

    def test_links_have_their_true_length(self):
        """Each point's cells and edge neighbours, against a numpy count of the same links."""
        result = gt.fetch(kernel(self.source, Kernel="result = (REAL2)(cell_count, neighbour_count);",
                                 ResultArrayName="Degrees", ResultComponents=2))
        n = len(self.xyz)
        cells_around = np.zeros(n)
        neighbours = [set() for _ in range(n)]
        for cell in self.cells:
            for k, p in enumerate(cell):
                cells_around[p] += 1
                neighbours[p].update((cell[k - 1], cell[(k + 1) % len(cell)]))
        degrees = point_array(result, "Degrees")
        np.testing.assert_array_equal(degrees[:, 0], cells_around)
        np.testing.assert_array_equal(degrees[:, 1], [len(s) for s in neighbours])

    def test_program_cache_on_reapply(self):
        body = "result = length(x) * 0.375; // cache test"
        proxy = kernel(self.source, Kernel=body, ResultArrayName="R")
        first = gt.fetch(proxy)
        proxy.Iterations = 2  # any change re-executes the filter with the same text
        second = gt.fetch(proxy)
        self.assertEqual(gt.field_value(first, "KernelCompiled"), 1)
        self.assertGreater(gt.field_value(first, "KernelCompileTimeMs"), 0)
        self.assertEqual(gt.field_value(second, "KernelCompiled"), 0)
        self.assertEqual(gt.field_value(second, "KernelCompileTimeMs"), 0)
        np.testing.assert_allclose(point_array(second, "R")[:, 0],
                                   np.linalg.norm(self.xyz, axis=1) * 0.375, rtol=1e-12)
        source = gt.field_value(second, "GeneratedSource")
        self.assertIn('#line 1 "Kernel"\n' + body, source)
        proxy.UpdatePropertyInformation()
        self.assertEqual(proxy.GetProperty("GeneratedSource").GetData(), source)

    def failing(self, expected, source=None, **properties):
        proxy = kernel(source or self.source, **properties)
        with gt.CapturedErrors() as errors:
            result = gt.fetch(proxy)
        self.assertEqual(result.GetNumberOfPoints(), 0, errors.text)
        self.assertIn(expected, errors.text)
        simple.Delete(proxy)
        return errors.text

    def test_compile_error_names_the_users_line(self):
        text = self.failing("line 3, column 14: error:", Kernel="REAL a = 1;\n\nresult = a + missing_name;")
        self.assertIn("missing_name", text)

    def test_bad_inputs(self):
        self.failing("InputArrays names 'Pressure', which the input does not have",
                     Kernel="result = Pressure;", InputArrays=["Pressure"])
        barycentres = self.barycentre_filter()
        self.failing("is an input cell array of 3 components, but the Kernel writes a point array",
                     source=barycentres, Kernel="result = 1;", ResultArrayName="Barycentre",
                     InputArrays=["Barycentre"])
        self.failing("a link the Cells domain does not have", Domain="Cells", Kernel="result = cell_count;")
        self.failing("a link the Points domain does not have", Kernel="result = points_x(0).x;")
        self.failing("'Barycentre' is a cell array and neighbours_ reads point arrays", source=barycentres,
                     Kernel="result = neighbours_Barycentre(0).x;", InputArrays=["Barycentre"])
        self.failing("needs Domain Points and ResultComponents 3", Domain="Cells", Kernel="result = 1;",
                     ResultArrayName="Points")
        self.failing("The Kernel is empty", Kernel="  ")
        self.failing("ResultComponents must be 1 to 9", Kernel="result = 1;", ResultComponents=12)
        self.failing("Iterations must be 1 or more", Kernel="result = 1;", Iterations=0)
        self.failing("Domain 4 is not one of 0 (Points), 1 (Cells)", Kernel="result = 1;", Domain=4)

    def test_parameters_are_variables_of_the_kernel(self):
        """Parameters 'alpha=2.71828;beta=-0.25' are const REAL alpha and beta: the numpy result."""
        proxy = kernel(self.source, Kernel="result = alpha * length(x) + beta; // two parameters",
                       Parameters="alpha=2.71828; beta=-0.25")
        result = gt.fetch(proxy)
        np.testing.assert_allclose(point_array(result, "Result")[:, 0],
                                   2.71828 * np.linalg.norm(self.xyz, axis=1) - 0.25, rtol=1e-12)
        source = gt.field_value(result, "GeneratedSource")
        self.assertIn("const REAL alpha = mk_parameters[0]; const REAL beta = mk_parameters[1];", source)
        self.assertNotIn("2.71828", source)
        simple.Delete(proxy)
        # The cells' template too; a line break ends an entry like ';'.
        cells = kernel(self.source, Domain="Cells", Kernel="result = scale * point_count + shift;",
                       Parameters="scale=-1.5e-1\n shift = 4 ;")
        np.testing.assert_allclose(gt.cell_array(gt.fetch(cells), "Result"),
                                   [-0.15 * len(c) + 4 for c in self.cells], rtol=1e-12)
        simple.Delete(cells)

    def test_a_new_parameter_value_reuses_the_compiled_program(self):
        """A new value is a new kernel argument, not a new program: KernelCompiled 0 and the new
        values; a new set of names is a new program (compiled)."""
        body = "result = alpha * length(x) + beta; // values change"
        proxy = kernel(self.source, Kernel=body, Parameters="alpha=1;beta=0")
        first = gt.fetch(proxy)
        self.assertEqual(gt.field_value(first, "KernelCompiled"), 1)
        norms = np.linalg.norm(self.xyz, axis=1)
        np.testing.assert_allclose(point_array(first, "Result")[:, 0], norms, rtol=1e-12)
        for alpha, beta in ((-3.0, 0.5), (0.125, 7.0)):
            proxy.Parameters = "alpha=%r;beta=%r" % (alpha, beta)
            result = gt.fetch(proxy)
            self.assertEqual(gt.field_value(result, "KernelCompiled"), 0)
            np.testing.assert_allclose(point_array(result, "Result")[:, 0], alpha * norms + beta, rtol=1e-12)
        proxy.Parameters = "alpha=2;beta=1;unused=4"
        result = gt.fetch(proxy)
        self.assertEqual(gt.field_value(result, "KernelCompiled"), 1)
        np.testing.assert_allclose(point_array(result, "Result")[:, 0], 2 * norms + 1, rtol=1e-12)
        simple.Delete(proxy)

    def test_bad_parameters_are_errors_naming_the_entry(self):
        body = "result = 1;"
        self.failing("Parameters entry 'a-b=1': 'a-b' is not a C identifier", Kernel=body, Parameters="dt=1;a-b=1")
        self.failing("Parameters entry '2x=1': '2x' is not a C identifier", Kernel=body, Parameters="2x=1")
        self.failing("Parameters entry 'dt=2': 'dt' is given twice", Kernel=body, Parameters="dt=1;dt=2")
        self.failing("Parameters entry 'alpha=abc': 'abc' is not a number", Kernel=body, Parameters="alpha=abc")
        self.failing("Parameters entry 'alpha=': '' is not a number", Kernel=body, Parameters="alpha=")
        self.failing("Parameters entry 'alpha=1.5x': '1.5x' is not a number", Kernel=body, Parameters="alpha=1.5x")
        self.failing("Parameters entry 'alpha=inf': 'inf' is not a finite number", Kernel=body, Parameters="alpha=inf")
        self.failing("Parameters entry 'alpha=nan': 'nan' is not a finite number", Kernel=body, Parameters="alpha=nan")
        self.failing("Parameters entry 'alpha' is not name=value", Kernel=body, Parameters="alpha")
        self.failing("Parameter 'x' is a variable the Kernel already has", Kernel=body, Parameters="x=1")
        self.failing("Parameter 'neighbour_count' is a variable the Kernel already has", Kernel=body,
                     Parameters="neighbour_count=1")
        self.failing("Parameter 'float' is a keyword or type of OpenCL C", Kernel=body, Parameters="float=1")
        self.failing("Parameter 'point_at' is a name the generated program already defines or uses", Kernel=body,
                     Parameters="point_at=1")
        self.failing("Parameter 'CELL_QUAD' is a name the generated program already defines or uses",
                     Domain="Cells", Kernel=body, Parameters="CELL_QUAD=1")
        self.failing("Parameter 'cell_row' is a name the generated program already defines or uses", Kernel=body,
                     Parameters="cell_row=1")
        self.failing("Parameter 'mk_scale' starts with mk_ or MK_", Kernel=body, Parameters="mk_scale=1")
        barycentres = self.barycentre_filter()
        self.failing("Parameter 'Barycentre' is also the variable of an input array", source=barycentres,
                     Domain="Cells", Kernel=body, InputArrays=["Barycentre"], Parameters="Barycentre=1")
        self.failing("Parameter 'big' = 1e+300 is beyond the range of float", Kernel=body, Parameters="big=1e300",
                     Precision="Single")

    def test_a_private_array_too_large_for_a_work_item_is_refused(self):
        """REAL a[10000] built, then crashed its work-group and the process (a shared pvserver)
        on launch: arrays over 16 KiB per work-item are refused, naming the array and its line."""
        text = self.failing("'a' (line 2) alone takes 80000 bytes",
                            Kernel="// a table per point\nREAL a[10000];\n"
                                   "for (int k = 0; k < 10000; ++k) a[k] = k * x.x;\nresult = a[id % 10000];")
        self.assertIn("more than the 16384 bytes (16 KiB) a work-item may hold", text)

    def test_an_index_out_of_range_is_an_error_naming_the_line(self):
        """Reading past a point's neighbours and writing past result's components read and wrote
        outside the device's buffers: checked by default, each is an error naming the line."""
        self.failing("line 3 reads or writes out of range: neighbours_x(k) with k = ",
                     Kernel="REAL3 s = 0;\nfor (int k = 0; k <= neighbour_count; ++k)\n"
                            "  s += neighbours_x(k);\nresult = s.x;")
        self.failing("line 2 reads or writes out of range: result[c] with c = 7, outside 0 to 5",
                     Kernel="result[0] = 1;\nresult[id % 2 + 7] = 2;", ResultComponents=6)
        # In range, the checks change nothing; off, the program has none.
        body = "REAL3 s = 0;\nfor (int k = 0; k < neighbour_count; ++k)\n  s += neighbours_x(k);\nresult = s.x;"
        checked = gt.fetch(kernel(self.source, Kernel=body))
        unchecked_proxy = kernel(self.source, Kernel=body, CheckIndices=0)
        unchecked = gt.fetch(unchecked_proxy)
        np.testing.assert_array_equal(point_array(checked, "Result"), point_array(unchecked, "Result"))
        self.assertIn("#define MK_CHECKED 0", gt.field_value(unchecked, "GeneratedSource"))
        simple.Delete(unchecked_proxy)

    def test_an_abort_stops_between_slices_of_one_iteration(self):
        """One long iteration runs in slices of work-items (here made small through
        GPUMESH_KERNEL_SLICE): progress is reported between them, and an abort stops the run
        there with an empty output, where it used to wait for the whole iteration."""
        os.environ["GPUMESH_KERNEL_SLICE"] = "64"
        try:
            proxy = kernel(self.source, Kernel="result = length(x) * 0.625; // sliced")
            algorithm = proxy.GetClientSideObject()
            seen = []

            def on_progress(caller, event):
                seen.append(caller.GetProgress())
                if seen[-1] > 0.2:
                    caller.SetAbortExecute(1)

            algorithm.AddObserver("ProgressEvent", on_progress)
            with gt.CapturedErrors() as errors:
                result = gt.fetch(proxy)
            self.assertIn("The GPU Mesh Kernel was aborted during iteration 1 of 1; the output is empty",
                          errors.text)
            self.assertEqual(result.GetNumberOfPoints(), 0)
            during = [p for p in seen if 0.2 < p < 1.0]
            self.assertEqual(len(during), 1, seen)
            self.assertLess(during[0], 0.9, seen)
            simple.Delete(proxy)

            # Unaborted, the sliced run gives the values of one launch.
            proxy = kernel(self.source, Kernel="result = length(x) * 0.625; // sliced")
            np.testing.assert_allclose(point_array(gt.fetch(proxy), "Result")[:, 0],
                                       np.linalg.norm(self.xyz, axis=1) * 0.625, rtol=1e-12)
            simple.Delete(proxy)
        finally:
            del os.environ["GPUMESH_KERNEL_SLICE"]


if __name__ == "__main__":
    unittest.main(verbosity=2)
