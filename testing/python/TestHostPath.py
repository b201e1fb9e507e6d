"""The host path (VTK's arrays described to the device as they are, classified there): the same
mesh as float or double points, 32- or 64-bit cell arrays, a vtkPolyData with vertices,
lines, polygons and strips mixed, and an unstructured grid of mixed kinds give the same
results through every filter, cell by cell, as VTK's own per-cell answers."""
import unittest

import numpy as np
from paraview import simple
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import (VTK_HEXAHEDRON, VTK_PIXEL, VTK_POLYGON, VTK_PYRAMID, VTK_QUAD, VTK_TETRA,
                                           VTK_TRIANGLE, VTK_VERTEX, VTK_VOXEL, VTK_WEDGE, vtkCellArray, vtkPolyData,
                                           vtkUnstructuredGrid)
from vtkmodules.vtkFiltersVerdict import vtkCellSizeFilter

import gpumesh_testing as gt

gt.load_plugin()


def cell_array(cells, bits):
    """A vtkCellArray of `cells` (lists of point ids) in 32- or 64-bit storage."""
    dtype = np.int32 if bits == 32 else np.int64
    offsets = np.concatenate([[0], np.cumsum([len(c) for c in cells])]).astype(dtype)
    connectivity = np.concatenate([np.asarray(c) for c in cells]).astype(dtype) if cells else np.zeros(0, dtype)
    array = vtkCellArray()
    array.SetData(numpy_to_vtk(offsets, deep=1), numpy_to_vtk(connectivity, deep=1))
    assert array.IsStorage64Bit() == (bits == 64)
    return array


def points_of(xyz, dtype):
    points = vtkPoints()
    points.SetData(numpy_to_vtk(np.ascontiguousarray(xyz, dtype=dtype), deep=1))
    return points


def sheet(n=6):
    """A wavy sheet of n x n points, far from the origin."""
    u, v = np.meshgrid(np.arange(n, dtype=float), np.arange(n, dtype=float), indexing="ij")
    return np.stack([500.0 + u, 20.0 + v, 0.1 * np.sin(u + 2 * v)], axis=2).reshape(-1, 3)


def mixed_polydata(dtype, bits, n=6, strips=True):
    """Vertices, lines, triangles, quads, a pentagon and a strip: every polydata section. (Strips
    have no sides: the neighbour and smoothing filters refuse them, so they can be left out.)"""
    at = lambda i, j: i * n + j
    polys = []
    for i in range(n - 1):
        for j in range(n - 2):
            if (i + j) % 3 == 0:
                polys.append([at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)])
            else:
                polys += [[at(i, j), at(i + 1, j), at(i + 1, j + 1)], [at(i, j), at(i + 1, j + 1), at(i, j + 1)]]
    polys.append([at(0, n - 2), at(1, n - 2), at(2, n - 2), at(2, n - 1), at(0, n - 1)])  # a pentagon
    data = vtkPolyData()
    data.SetPoints(points_of(sheet(n), dtype))
    data.SetVerts(cell_array([[0], [7]], bits))
    data.SetLines(cell_array([[0, 1], [1, 2, 3]], bits))
    data.SetPolys(cell_array(polys, bits))
    if strips:
        data.SetStrips(cell_array([[at(3, n - 2), at(3, n - 1), at(4, n - 2), at(4, n - 1)]], bits))
    return data


def mixed_grid(dtype, bits):
    """Every 3D kind VTK has that GPUMesh handles, sharing faces, plus a vertex and a pixel."""
    xyz = [(x, y, z) for z in (0, 1, 2) for y in (0, 1, 2) for x in (0, 1, 2, 3)]
    xyz = 100.0 + np.asarray(xyz, dtype=float) * (1.0, 1.3, 0.7)
    at = lambda x, y, z: (z * 3 + y) * 4 + x
    cells = [
        (VTK_HEXAHEDRON, [at(0, 0, 0), at(1, 0, 0), at(1, 1, 0), at(0, 1, 0), at(0, 0, 1), at(1, 0, 1), at(1, 1, 1), at(0, 1, 1)]),
        (VTK_VOXEL, [at(1, 0, 0), at(2, 0, 0), at(1, 1, 0), at(2, 1, 0), at(1, 0, 1), at(2, 0, 1), at(1, 1, 1), at(2, 1, 1)]),
        (VTK_WEDGE, [at(0, 1, 0), at(1, 1, 0), at(0, 2, 0), at(0, 1, 1), at(1, 1, 1), at(0, 2, 1)]),
        (VTK_PYRAMID, [at(0, 0, 1), at(1, 0, 1), at(1, 1, 1), at(0, 1, 1), at(0, 0, 2)]),
        (VTK_TETRA, [at(2, 0, 0), at(3, 0, 0), at(2, 1, 0), at(2, 0, 1)]),
        (VTK_VERTEX, [at(3, 2, 2)]),
        (VTK_PIXEL, [at(0, 0, 2), at(1, 0, 2), at(0, 1, 2), at(1, 1, 2)]),
        (VTK_QUAD, [at(2, 2, 2), at(3, 2, 2), at(3, 2, 1), at(2, 2, 1)]),
        (VTK_TRIANGLE, [at(1, 2, 2), at(2, 2, 2), at(2, 2, 1)]),
        (VTK_POLYGON, [at(2, 0, 2), at(3, 0, 2), at(3, 1, 2), at(2, 1, 2)]),
    ]
    grid = vtkUnstructuredGrid()
    grid.SetPoints(points_of(xyz, dtype))
    types = numpy_to_vtk(np.array([t for t, _ in cells], dtype=np.uint8), deep=1)
    grid.SetCells(types, cell_array([c for _, c in cells], bits))
    return grid


def run(filter_name, data, **properties):
    return gt.fetch(getattr(simple, filter_name)(Input=gt.producer(data), **properties))


def vtk_sizes(data):
    size = vtkCellSizeFilter()
    size.SetInputData(data)
    size.Update()
    out = size.GetOutput()
    n = data.GetNumberOfCells()
    total = np.zeros(n)
    for name in ("Length", "Area", "Volume"):
        total += vtk_to_numpy(out.GetCellData().GetArray(name))
    return total


class HostPath(unittest.TestCase):
    VARIANTS = [(dtype, bits) for dtype in (np.float32, np.float64) for bits in (32, 64)]

    def same_through_every_variant(self, make, compare):
        """`compare(result, reference)` for each filter result against the float64/64-bit one."""
        reference = {name: run(name, make(np.float64, 64), **props) for name, props in self.FILTERS}
        for dtype, bits in self.VARIANTS:
            for name, props in self.FILTERS:
                with self.subTest(dtype=dtype.__name__, bits=bits, filter=name):
                    compare(name, run(name, make(dtype, bits), **props), reference[name])

    FILTERS = [("GPUCellReduction", {"Quantity": "Size"}), ("GPUNeighborDistance", {"ComputeCentroids": 1}),
               ("GPUVertexSmoothing", {"Boundary": "Free", "Iterations": 3})]

    def compare(self, name, result, reference):
        self.assertEqual(result.GetNumberOfCells(), reference.GetNumberOfCells())
        arrays = {"GPUCellReduction": ["Size"], "GPUNeighborDistance": ["NeighborCount", "MinNeighborDistance",
                  "MaxNeighborDistance", "Centroid"], "GPUVertexSmoothing": ["Displacement"]}[name]
        for array in arrays:
            data = result.GetPointData() if array == "Displacement" else result.GetCellData()
            ref_data = reference.GetPointData() if array == "Displacement" else reference.GetCellData()
            got, expected = vtk_to_numpy(data.GetArray(array)), vtk_to_numpy(ref_data.GetArray(array))
            np.testing.assert_allclose(got, expected, rtol=2e-5, atol=2e-5, equal_nan=True, err_msg=array)

    def test_polydata_with_every_section(self):
        self.same_through_every_variant(lambda dtype, bits: mixed_polydata(dtype, bits, strips=False), self.compare)
        data = mixed_polydata(np.float64, 64)
        size = gt.cell_array(run("GPUCellReduction", data), "Size")
        expected = vtk_sizes(data)
        # Non-planar quads and polygons measure the magnitude of their vector area (docs/filters.md),
        # where VTK's Cell Size sums triangles of a fan.
        xyz = vtk_to_numpy(data.GetPoints().GetData())
        for c in range(data.GetNumberOfCells()):
            ids = [data.GetCell(c).GetPointId(k) for k in range(data.GetCell(c).GetNumberOfPoints())]
            if data.GetCellType(c) in (VTK_QUAD, VTK_POLYGON):
                p = xyz[ids] - xyz[ids].mean(axis=0)
                expected[c] = 0.5 * np.linalg.norm(np.cross(p, np.roll(p, -1, axis=0)).sum(axis=0))
        self.assertTrue(np.all(np.isnan(size[:2])))  # vertices measure nothing
        np.testing.assert_allclose(size[2:], expected[2:], rtol=1e-9)

    def test_unstructured_grid_of_mixed_kinds(self):
        self.same_through_every_variant(mixed_grid, self.compare)
        grid = mixed_grid(np.float64, 32)
        size = gt.cell_array(run("GPUCellReduction", grid), "Size")
        expected = vtk_sizes(grid)
        vertex = 5
        self.assertTrue(np.isnan(size[vertex]))
        others = [c for c in range(len(size)) if c != vertex]
        np.testing.assert_allclose(size[others], expected[others], rtol=1e-9)
        counts = gt.cell_array(run("GPUNeighborDistance", grid), "NeighborCount")
        # The hexahedron shares quad faces with the voxel, the wedge and the pyramid; the
        # tetrahedron's triangle face lies on the voxel's quad face, which is no match.
        self.assertEqual(list(counts[:5]), [3, 1, 1, 1, 0])

    def test_refinement_from_32_and_64_bit_arrays_and_both_precisions(self):
        outputs = []
        for dtype, bits in self.VARIANTS:
            data = vtkPolyData()
            grid = gt.read_vtu("plate_with_holes.vtu")
            xyz = vtk_to_numpy(grid.GetPoints().GetData())
            data.SetPoints(points_of(xyz, dtype))
            data.SetPolys(cell_array(vtk_to_numpy(grid.GetCells().GetConnectivityArray()).reshape(-1, 3).tolist(), bits))
            result = run("GPULongestEdgeRefinement", data, RefineAll=1)
            outputs.append(vtk_to_numpy(result.GetPolys().GetConnectivityArray()))
            self.assertEqual(result.GetPoints().GetData().GetDataType(), data.GetPoints().GetData().GetDataType())
        for dtype_outputs in (outputs[:2], outputs[2:]):  # same precision: identical triangles
            np.testing.assert_array_equal(dtype_outputs[0], dtype_outputs[1])

    def test_bad_cells_are_named(self):
        grid = mixed_grid(np.float64, 64)
        cells = grid.GetCells()
        conn = vtk_to_numpy(cells.GetConnectivityArray())
        conn[3] = 10_000  # cell 0 refers to a point that does not exist
        cells.Modified()
        with gt.CapturedErrors() as errors:
            result = run("GPUCellReduction", grid)
        self.assertEqual(result.GetNumberOfCells(), 0)
        self.assertIn("Cell 0", errors.text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
