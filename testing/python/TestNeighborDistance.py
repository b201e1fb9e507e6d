"""GPU Neighbor Distance against a double-precision Python reference and VTK's GetCellNeighbors."""
import math
import unittest
from collections import defaultdict

import numpy as np
from paraview import simple
from vtkmodules.vtkCommonCore import vtkIdList, vtkPoints
from vtkmodules.vtkCommonDataModel import (
    VTK_HEXAHEDRON, VTK_PYRAMID, VTK_QUADRATIC_TRIANGLE, VTK_TETRA, VTK_TRIANGLE,
    VTK_TRIANGLE_STRIP, vtkUnstructuredGrid)
from vtkmodules.vtkFiltersCore import vtkAppendFilter

import gpumesh_testing as gt

gt.load_plugin()


def cell_points(grid, c):
    ids = grid.GetCell(c).GetPointIds()
    return [ids.GetId(k) for k in range(ids.GetNumberOfIds())]


def sides(grid, c):
    """Point-id sets of the sides of cell c: edges of 2D cells, faces of 3D cells."""
    cell = grid.GetCell(c)
    dimension = cell.GetCellDimension()
    if dimension == 2:
        count, get = cell.GetNumberOfEdges(), cell.GetEdge
    elif dimension == 3:
        count, get = cell.GetNumberOfFaces(), cell.GetFace
    else:
        return []
    result = []
    for k in range(count):
        side = get(k)  # VTK reuses this object: read it before the next call
        result.append(tuple(sorted(side.GetPointId(i) for i in range(side.GetNumberOfPoints()))))
    return result


def reference(grid):
    """Per cell: neighbour list (once per shared side) and centroid, in double."""
    points = np.array([grid.GetPoint(i) for i in range(grid.GetNumberOfPoints())])
    cells_of_side = defaultdict(list)
    all_sides = [sides(grid, c) for c in range(grid.GetNumberOfCells())]
    for c, cell_sides in enumerate(all_sides):
        for side in cell_sides:
            cells_of_side[side].append(c)
    centroids = np.array([points[cell_points(grid, c)].mean(axis=0) for c in range(grid.GetNumberOfCells())])
    neighbours = [[o for side in cell_sides for o in cells_of_side[side] if o != c]
                  for c, cell_sides in enumerate(all_sides)]
    return neighbours, centroids


def run_filter(dataset, **properties):
    return gt.fetch(simple.GPUNeighborDistance(Input=gt.producer(dataset), **properties))


def mesh_size(grid):
    b = grid.GetBounds()
    return math.sqrt((b[1] - b[0]) ** 2 + (b[3] - b[2]) ** 2 + (b[5] - b[4]) ** 2)


class NeighborDistanceTest(unittest.TestCase):
    def check(self, grid):
        result = run_filter(grid, ComputeCentroids=1)
        self.assertEqual(result.GetNumberOfCells(), grid.GetNumberOfCells())
        neighbours, centroids = reference(grid)
        tolerance = 1e-5 * mesh_size(grid)
        count = gt.cell_array(result, "NeighborCount")
        np.testing.assert_array_equal(count, [len(n) for n in neighbours])
        distances = [np.linalg.norm(centroids[n] - centroids[c], axis=1) if n else np.array([])
                     for c, n in enumerate(neighbours)]
        for name, statistic in (("MinNeighborDistance", np.min), ("MaxNeighborDistance", np.max),
                                ("MeanNeighborDistance", np.mean)):
            actual = gt.cell_array(result, name)
            expected = np.array([statistic(d) if d.size else np.nan for d in distances])
            np.testing.assert_array_equal(np.isnan(actual), np.isnan(expected), err_msg=name)
            ok = ~np.isnan(expected)
            np.testing.assert_allclose(actual[ok], expected[ok], rtol=0, atol=tolerance, err_msg=name)
        np.testing.assert_allclose(gt.cell_array_vectors(result, "Centroid"), centroids, rtol=0, atol=tolerance)
        return result, neighbours

    def check_against_vtk(self, grid, neighbours):
        """On conforming meshes VTK's GetCellNeighbors finds the same cells, side by side."""
        ids, found = vtkIdList(), vtkIdList()
        for c in range(grid.GetNumberOfCells()):
            vtk_neighbours = []
            for side in sides(grid, c):
                ids.Reset()
                for p in side:
                    ids.InsertNextId(p)
                grid.GetCellNeighbors(c, ids, found)
                vtk_neighbours += [found.GetId(k) for k in range(found.GetNumberOfIds())]
            self.assertEqual(sorted(vtk_neighbours), sorted(neighbours[c]), "cell %d" % c)

    def test_gmsh_triangles(self):
        grid = gt.read_vtu("plate_with_holes.vtu")
        _, neighbours = self.check(grid)
        self.check_against_vtk(grid, neighbours)

    def test_gmsh_tetrahedra(self):
        grid = gt.read_vtu("ball_tets.vtu")
        _, neighbours = self.check(grid)
        self.check_against_vtk(grid, neighbours)

    def test_hexahedral_block(self):
        grid = gt.read_vtu("hex_block.vtu")
        _, neighbours = self.check(grid)
        self.check_against_vtk(grid, neighbours)

    def test_closed_surface_as_polydata(self):
        polydata = gt.as_polydata(gt.read_vtu("sphere_surface.vtu"))
        result = run_filter(polydata)
        self.assertEqual(result.GetClassName(), "vtkPolyData")
        np.testing.assert_array_equal(gt.cell_array(result, "NeighborCount"), 3)

    def test_mixed_tetrahedra_pyramids_hexahedra(self):
        grid = mixed_grid()
        _, neighbours = self.check(grid)
        kinds = [grid.GetCellType(c) for c in range(grid.GetNumberOfCells())]
        self.assertEqual(set(kinds), {VTK_HEXAHEDRON, VTK_PYRAMID, VTK_TETRA})
        # Pyramids touch hexahedra through quad faces, and tetrahedra through triangle faces.
        pairs = {(kinds[c], kinds[o]) for c, n in enumerate(neighbours) for o in n}
        self.assertIn((VTK_PYRAMID, VTK_HEXAHEDRON), pairs)
        self.assertIn((VTK_PYRAMID, VTK_TETRA), pairs)
        self.assertNotIn((VTK_TETRA, VTK_HEXAHEDRON), pairs)  # a quad face never matches triangles

    def test_two_disconnected_components(self):
        first = gt.read_vtu("hex_block.vtu")
        second = gt.read_vtu("ball_tets.vtu")
        append = vtkAppendFilter()
        append.AddInputData(first)
        append.AddInputData(second)
        append.MergePointsOff()
        append.Update()
        self.check(append.GetOutput())

    def test_non_manifold_fan(self):
        grid = triangles([(0, 0, 0), (1, 0, 0), (0.5, 1, 0), (0.5, -1, 0), (0.5, 0, 1)],
                         [(0, 1, 2), (1, 0, 3), (0, 1, 4)])
        result, neighbours = self.check(grid)
        np.testing.assert_array_equal(gt.cell_array(result, "NeighborCount"), [2, 2, 2])

    def test_single_cell(self):
        grid = triangles([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2)])
        result, _ = self.check(grid)
        self.assertEqual(gt.cell_array(result, "NeighborCount")[0], 0)
        self.assertTrue(math.isnan(gt.cell_array(result, "MeanNeighborDistance")[0]))

    def test_triangle_strip_is_an_error(self):
        grid = triangles([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)], [])
        grid.InsertNextCell(VTK_TRIANGLE_STRIP, 4, [0, 1, 2, 3])
        with gt.CapturedErrors() as errors:
            result = run_filter(grid)
        self.assertIn("triangle strips", errors.text)
        self.assertEqual(result.GetNumberOfCells(), 0)

    def test_quadratic_cell_is_an_error_naming_it(self):
        grid = triangles([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0.5, 0, 0), (0.5, 0.5, 0), (0, 0.5, 0)], [(0, 1, 2)])
        grid.InsertNextCell(VTK_QUADRATIC_TRIANGLE, 6, list(range(6)))
        with gt.CapturedErrors() as errors:
            result = run_filter(grid)
        self.assertIn("Cell 1 is a vtkQuadraticTriangle, which GPUMesh filters do not handle", errors.text)
        self.assertEqual(result.GetNumberOfCells(), 0)


def triangles(xyz, cells):
    points = vtkPoints()
    for p in xyz:
        points.InsertNextPoint(*p)
    grid = vtkUnstructuredGrid()
    grid.SetPoints(points)
    for c in cells:
        grid.InsertNextCell(VTK_TRIANGLE, 3, list(c))
    return grid


def mixed_grid():
    """Three hexahedra in a row; the middle one split into six pyramids around its centre, and
    one of those pyramids split into two tetrahedra. Jittered points."""
    rng = np.random.default_rng(4)
    points = vtkPoints()
    points.SetDataTypeToDouble()
    index = {}

    def point(x, y, z):
        if (x, y, z) not in index:
            jitter = rng.uniform(-0.05, 0.05, 3) if 0 < x < 3 else np.zeros(3)
            index[(x, y, z)] = points.InsertNextPoint(x + jitter[0], y + jitter[1], z + jitter[2])
        return index[(x, y, z)]

    def hexahedron(x):
        return [point(x, 0, 0), point(x + 1, 0, 0), point(x + 1, 1, 0), point(x, 1, 0),
                point(x, 0, 1), point(x + 1, 0, 1), point(x + 1, 1, 1), point(x, 1, 1)]

    grid = vtkUnstructuredGrid()
    grid.SetPoints(points)
    grid.InsertNextCell(VTK_HEXAHEDRON, 8, hexahedron(0))
    grid.InsertNextCell(VTK_HEXAHEDRON, 8, hexahedron(2))
    v = hexahedron(1)
    centre = points.InsertNextPoint(1.5, 0.5, 0.5)
    # Outward hexahedron faces, reversed so each pyramid base points at the centre.
    faces = [(0, 4, 7, 3), (1, 2, 6, 5), (0, 1, 5, 4), (3, 7, 6, 2), (0, 3, 2, 1), (4, 5, 6, 7)]
    for k, face in enumerate(faces):
        base = [v[i] for i in reversed(face)]
        if k == 2:  # split into two tetrahedra along a diagonal of the base
            grid.InsertNextCell(VTK_TETRA, 4, [base[0], base[1], base[2], centre])
            grid.InsertNextCell(VTK_TETRA, 4, [base[0], base[2], base[3], centre])
        else:
            grid.InsertNextCell(VTK_PYRAMID, 5, base + [centre])
    return grid


if __name__ == "__main__":
    unittest.main(verbosity=2)
