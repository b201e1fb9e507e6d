"""GPU Mesh Quality against vtkMeshQuality (ParaView's Mesh Quality) in double precision: every
implemented measure per cell within 1e-6 relative on gmsh meshes and on hand-made degenerate,
inverted and tiny cells (Verdict's sentinels and clamping included), the field data of every
kind, the properties and defaults of Mesh Quality, and the errors for measures not implemented
or not offered."""
import os
import subprocess
import tempfile
import unittest

import numpy as np
from paraview import simple
from vtkmodules.vtkCommonCore import vtkIdList, vtkPoints
from vtkmodules.vtkCommonDataModel import (
    VTK_HEXAHEDRON, VTK_LINE, VTK_POLYGON, VTK_PYRAMID, VTK_QUAD, VTK_TETRA, VTK_TRIANGLE, VTK_VERTEX,
    VTK_WEDGE, vtkUnstructuredGrid)  # noqa: F401
from vtkmodules.vtkFiltersExtraction import vtkExtractCellsByType
from vtkmodules.vtkFiltersVerdict import vtkMeshQuality
from vtkmodules.vtkIOLegacy import vtkUnstructuredGridReader

import gpumesh_testing as gt

gt.load_plugin()

RELATIVE = 1e-6
KINDS = ("Triangle", "Quad", "Tet", "Pyramid", "Wedge", "Hex")
FIELDS = ("Mesh Triangle Quality", "Mesh Quadrilateral Quality", "Mesh Tetrahedron Quality",
          "Mesh Pyramid Quality", "Mesh Wedge Quality", "Mesh Hexahedron Quality")
# What GPU Mesh Quality implements (docs/filters.md lists the same).
IMPLEMENTED = {"Triangle": 15, "Quad": 23, "Tet": 20, "Pyramid": 5, "Wedge": 11, "Hex": 21}
# gmsh: a plate with a hole extruded in 3 layers of prisms (VTK wedges).
PRISMS_GEO = """SetFactory("OpenCASCADE");
Rectangle(1) = {0, 0, 0, 2, 1};
Disk(2) = {1.0, 0.5, 0, 0.3};
BooleanDifference{ Surface{1}; Delete; }{ Surface{2}; Delete; }
Mesh.MeshSizeMin = 0.15;
Mesh.MeshSizeMax = 0.15;
Extrude {0, 0, 0.4} { Surface{1}; Layers{3}; Recombine; }
"""


def measures(kind):
    """{ParaView label: value} of Mesh Quality's <kind>QualityMeasure."""
    domain = simple.MeshQuality(Input=simple.Sphere()).SMProxy.GetProperty(kind + "QualityMeasure").GetDomain("enum")
    return {domain.GetEntryText(i): domain.GetEntryValue(i) for i in range(domain.GetNumberOfEntries())}


def reference(dataset, **values):
    """vtkMeshQuality's output with the measures given as {kind: value} (ParaView's defaults
    otherwise). ParaView's wedge "Shape" is value 14, which vtkMeshQuality does not know for
    wedges (it warns and computes Edge Ratio): GPU Mesh Quality computes the wedge shape, 13."""
    quality = vtkMeshQuality()
    quality.SetInputData(dataset)
    chosen = dict(Triangle=2, Quad=0, Tet=2, Pyramid=13, Wedge=0, Hex=5)
    chosen.update(values)
    if chosen["Wedge"] == 14:
        chosen["Wedge"] = 13
    for kind in KINDS:
        getattr(quality, "Set%sQualityMeasure" % kind)(chosen[kind])
    quality.Update()
    return quality.GetOutput()


def on_device(dataset, **values):
    """GPU Mesh Quality's output (Precision Double, its default) with the measures as values."""
    quality = simple.GPUMeshQuality(Input=gt.producer(dataset))
    for kind, value in values.items():
        # By value, as vtkMeshQuality takes it (a value outside the enumeration included).
        quality.SMProxy.GetProperty(kind + "QualityMeasure").SetElement(0, value)
    quality.SMProxy.UpdateVTKObjects()
    with gt.CapturedErrors() as errors:
        result = gt.fetch(quality)
    simple.Delete(quality)
    return result, errors.text


def field_tuple(dataset, name):
    array = dataset.GetFieldData().GetArray(name)
    if array is None:
        raise AssertionError("field data %r is missing" % name)
    return np.array(array.GetTuple(0))


def gmsh_cells(geo, dimension, cell_type, options=()):
    """The cells of `cell_type` gmsh makes of `geo` (a file, or the text of one)."""
    with tempfile.TemporaryDirectory() as folder:
        if "\n" in geo:
            with open(os.path.join(folder, "mesh.geo"), "w") as f:
                f.write(geo)
            geo = os.path.join(folder, "mesh.geo")
        path = os.path.join(folder, "mesh.vtk")
        subprocess.run(["gmsh", geo, "-%d" % dimension] + list(options) +
                       ["-format", "vtk", "-nt", "1", "-v", "0", "-o", path], check=True)
        reader = vtkUnstructuredGridReader()
        reader.SetFileName(path)
        reader.Update()
    cells = vtkExtractCellsByType()
    cells.SetInputData(reader.GetOutput())
    cells.AddCellType(cell_type)
    cells.Update()
    return cells.GetOutput()


def gmsh_quads(geo):
    """The quads gmsh makes of data/<geo>.geo with recombination (planar on the plate, slightly
    warped on the sphere)."""
    return gmsh_cells(gt.data_path(geo + ".geo"), 2, VTK_QUAD, ("-setnumber", "Mesh.RecombineAll", "1"))


def split_hexahedra(dataset, into):
    """Each hexahedron of `dataset` as 6 pyramids (its faces, apex at its centre; the bottom
    three with the base towards the apex, the top three the other way: inverted), or as 2 wedges."""
    points = vtkPoints()
    points.SetDataTypeToDouble()
    points.DeepCopy(dataset.GetPoints())
    grid = vtkUnstructuredGrid()
    grid.SetPoints(points)
    ids = vtkIdList()
    for c in range(dataset.GetNumberOfCells()):
        dataset.GetCellPoints(c, ids)
        h = [ids.GetId(k) for k in range(8)]
        if into == "pyramids":
            centre = points.InsertNextPoint(*np.mean([points.GetPoint(k) for k in h], axis=0))
            for base in ((0, 1, 2, 3), (0, 4, 5, 1), (1, 5, 6, 2), (2, 6, 7, 3), (3, 7, 4, 0), (4, 5, 6, 7)):
                grid.InsertNextCell(VTK_PYRAMID, 5, [h[k] for k in base] + [centre])
        else:
            for wedge in ((0, 1, 2, 4, 5, 6), (0, 2, 3, 4, 6, 7)):
                grid.InsertNextCell(VTK_WEDGE, 6, [h[k] for k in wedge])
    return grid


def hand_made(kind, cells):
    points = vtkPoints()
    points.SetDataTypeToDouble()
    grid = vtkUnstructuredGrid()
    grid.SetPoints(points)
    for corners in cells:
        ids = vtkIdList()
        for corner in corners:
            ids.InsertNextId(points.InsertNextPoint(*corner))
        grid.InsertNextCell(kind, ids)
    return grid


def hand_made_pyramids():
    """Pyramids at their limits: half an octahedron, tall, leaning, flat (apex in the base plane),
    inverted (apex below), a base corner repeated, all corners equal, tiny, far."""
    a = np.sqrt(2) / 2
    base = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
    return hand_made(VTK_PYRAMID, [
        base + [(0.5, 0.5, a)],
        base + [(0.5, 0.5, 5)],
        base + [(1.5, 1.2, 0.5)],
        base + [(0.5, 0.5, 0)],
        base + [(0.5, 0.5, -0.7)],
        [(0, 0, 0), (1, 0, 0), (1, 0, 0), (0, 1, 0), (0.3, 0.3, 1)],
        [(1, 1, 1)] * 5,
        [tuple(1e-11 * np.array(c)) for c in base + [(0.5, 0.5, a)]],
        [tuple(np.array(c) + 1e6) for c in base + [(0.5, 0.5, a)]],
    ])


def hand_made_wedges():
    """Wedges at their limits: right unit wedge, equilateral prism, twisted, sheared, inverted
    (top and bottom swapped), flat, a collapsed edge, all corners equal, tiny, far."""
    h = np.sqrt(3) / 2
    right = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (0, 1, 1)]
    equilateral = [(0, 0, 0), (1, 0, 0), (0.5, h, 0), (0, 0, 1), (1, 0, 1), (0.5, h, 1)]
    return hand_made(VTK_WEDGE, [
        right,
        equilateral,
        equilateral[:3] + [(0.2, -0.1, 1), (1.1, 0.2, 1), (0.4, 0.9, 1)],
        equilateral[:3] + [tuple(np.array(c) + (0.8, 0, 0)) for c in equilateral[3:]],
        right[3:] + right[:3],
        [(x, y, 0) for x, y, _ in right],
        right[:3] + [(0, 0, 1), (0, 0, 1), (0, 1, 1)],
        [(2, 2, 2)] * 6,
        [tuple(1e-11 * np.array(c)) for c in right],
        [tuple(np.array(c) + 1e6) for c in equilateral],
    ])


def hand_made_quads():
    """Quads at their limits: square, rectangle, rhombus, trapezoid, non-convex, bow-tie,
    clockwise, warped, collapsed (last two corners equal: Verdict measures the triangle), with a
    zero edge, all corners equal, tiny, far from the origin."""
    points = vtkPoints()
    points.SetDataTypeToDouble()
    grid = vtkUnstructuredGrid()
    grid.SetPoints(points)
    quads = [
        [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)],
        [(0, 0, 0), (3, 0, 0), (3, 1, 0), (0, 1, 0)],
        [(0, 0, 0), (1, 0, 0), (1.5, 0.8, 0), (0.5, 0.8, 0)],
        [(0, 0, 0), (4, 0, 0), (3, 1, 0), (1, 1, 0)],
        [(0, 0, 0), (2, 0, 0), (0.5, 0.5, 0), (0, 2, 0)],          # non-convex
        [(0, 0, 0), (1, 1, 0), (1, 0, 0), (0, 1, 0)],              # bow-tie
        [(0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 0)],              # clockwise
        [(0, 0, 0), (1, 0, 0), (1, 1, 0.5), (0, 1, 0)],            # warped
        [(0, 0, 0), (1, 0, 0), (0.5, 1, 0), (0.5, 1, 0)],          # collapsed
        [(0, 0, 0), (0, 0, 0), (1, 1, 0), (0, 1, 0)],              # zero edge
        [(3, 3, 3), (3, 3, 3), (3, 3, 3), (3, 3, 3)],              # all equal
        [(0, 0, 0), (1e-16, 0, 0), (1e-16, 1e-16, 0), (0, 1e-16, 0)],  # area below 1e-30
        [(1e6, 1e6, 1e6), (1e6 + 1, 1e6, 1e6), (1e6 + 1, 1e6 + 2, 1e6), (1e6, 1e6 + 2, 1e6 + 0.1)],
    ]
    for corners in quads:
        ids = vtkIdList()
        for corner in corners:
            ids.InsertNextId(points.InsertNextPoint(*corner))
        grid.InsertNextCell(VTK_QUAD, ids)
    return grid


def perturbed(dataset, fraction, seed=7):
    """A copy of `dataset` whose points moved at random by up to `fraction` of the shortest edge
    of its bounding box / 10 in each direction (hex_block: skewed, tapered, warped hexahedra)."""
    copy = vtkUnstructuredGrid()
    copy.DeepCopy(dataset)
    points = copy.GetPoints()
    b = dataset.GetBounds()
    step = min(b[1] - b[0], b[3] - b[2], b[5] - b[4]) / 10
    rng = np.random.default_rng(seed)
    for i in range(points.GetNumberOfPoints()):
        x = np.array(points.GetPoint(i)) + rng.uniform(-fraction, fraction, 3) * step
        points.SetPoint(i, *x)
    return copy


def hand_made_hexahedra():
    """Hexahedra at their limits: unit cube, box, sheared, tapered, twisted, inverted (top and
    bottom swapped), collapsed to a wedge (two top corners equal), flat, all corners equal, tiny,
    far from the origin."""
    points = vtkPoints()
    points.SetDataTypeToDouble()
    grid = vtkUnstructuredGrid()
    grid.SetPoints(points)
    cube = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]

    def moved(f):
        return [f(np.array(c, dtype=float)) for c in cube]

    hexahedra = [
        cube,
        moved(lambda c: c * (3, 1, 0.5)),
        moved(lambda c: c + (0.6 * c[2], 0, 0)),                              # sheared
        moved(lambda c: c * (1 - 0.5 * c[2], 1 - 0.5 * c[2], 1)),             # tapered
        moved(lambda c: c + (0.3 * c[2] * (c[1] - 0.5), -0.3 * c[2] * (c[0] - 0.5), 0)),  # twisted
        cube[4:] + cube[:4],                                                  # inverted
        cube[:6] + [cube[5], cube[4]],                                        # collapsed to a wedge
        moved(lambda c: c * (1, 1, 0)),                                       # flat
        [(2, 2, 2)] * 8,
        moved(lambda c: c * 1e-11),                                           # volume below 1e-30
        moved(lambda c: c * (1, 2, 3) + 1e6),                                 # far
    ]
    for corners in hexahedra:
        ids = vtkIdList()
        for corner in corners:
            ids.InsertNextId(points.InsertNextPoint(*corner))
        grid.InsertNextCell(VTK_HEXAHEDRON, ids)
    return grid


def hand_made_cells():
    """Triangles and tetrahedra at their limits, with a vertex, a line and a polygon (no measure):
    regular, right, obtuse, inverted, flat, with two or all corners coincident, needles, slivers,
    caps, cells so small that their areas and volumes fall below VERDICT_DBL_MIN (1e-30) and
    cells far from the origin."""
    points = vtkPoints()
    points.SetDataTypeToDouble()
    grid = vtkUnstructuredGrid()
    grid.SetPoints(points)

    def add(kind, corners):
        ids = vtkIdList()
        for corner in corners:
            ids.InsertNextId(points.InsertNextPoint(*corner))
        grid.InsertNextCell(kind, ids)

    h = np.sqrt(3) / 2
    triangles = [
        [(0, 0, 0), (1, 0, 0), (0.5, h, 0)],          # equilateral
        [(0, 0, 0), (1, 0, 0), (0, 1, 0)],            # right
        [(0, 0, 0), (4, 0, 0), (2, 0.1, 0)],          # obtuse, flat-ish
        [(0, 0, 0), (0.5, h, 0), (1, 0, 0)],          # clockwise
        [(0, 0, 0), (1, 0, 0), (2, 0, 0)],            # flat
        [(0, 0, 0), (0, 0, 0), (1, 0, 0)],            # two corners coincide
        [(1, 1, 1), (1, 1, 1), (1, 1, 1)],            # all coincide
        [(0, 0, 0), (1e-16, 0, 0), (0, 1e-16, 0)],    # area below 1e-30
        [(0, 0, 0), (1e-14, 0, 0), (0, 1e-14, 1e-15)],  # area 5e-29, just above
        [(1e6, 1e6, 0), (1e6 + 1, 1e6, 0), (1e6, 1e6 + 2, 0.5)],  # far from the origin
        [(0, 0, 0), (1e3, 0, 0), (0, 1e-3, 0)],       # needle
    ]
    for t in triangles:
        add(VTK_TRIANGLE, t)
    regular = [(0, 0, 0), (1, 0, 0), (0.5, h, 0), (0.5, h / 3, np.sqrt(2.0 / 3.0))]
    tetrahedra = [
        regular,
        [regular[0], regular[2], regular[1], regular[3]],            # inverted
        [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)],                  # right corner
        [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)],                  # flat
        [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0.3, 0.3, 1e-9)],           # cap
        [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 1e-3)],               # sliver
        [(0, 0, 0), (0, 0, 0), (0, 1, 0), (0, 0, 1)],                  # two corners coincide
        [(2, 2, 2), (2, 2, 2), (2, 2, 2), (2, 2, 2)],                  # all coincide
        [(0, 0, 0), (1e-11, 0, 0), (0, 1e-11, 0), (0, 0, 1e-11)],      # volume below 1e-30
        [(0, 0, 0), (100, 0, 0), (0, 0.01, 0), (0, 0, 0.01)],          # needle
        [(5e5, 5e5, 5e5), (5e5 + 1, 5e5, 5e5), (5e5, 5e5 + 1, 5e5), (5e5, 5e5, 5e5 + 2)],  # far
    ]
    for t in tetrahedra:
        add(VTK_TETRA, t)
    add(VTK_VERTEX, [(0, 0, 0)])
    add(VTK_LINE, [(0, 0, 0), (1, 2, 3)])
    add(VTK_POLYGON, [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0.5, 1.5, 0), (0, 1, 0)])
    return grid


class MeshQualityTest(unittest.TestCase):
    def assert_close(self, got, want, what, scale=None):
        """Within RELATIVE of `want`; values that cancel to near 0 within 1e-12 of `scale`."""
        got, want = np.atleast_1d(got), np.atleast_1d(want)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=what + ": NaN where")
        both = ~np.isnan(want)
        if scale is None:
            scale = np.max(np.abs(want[both]), initial=0.0)
        np.testing.assert_allclose(got[both], want[both], rtol=RELATIVE, atol=1e-12 * min(scale, 1e12),
                                   err_msg=what)

    def assert_like_vtk(self, dataset, what, **values):
        result, errors = on_device(dataset, **values)
        self.assertEqual(errors.strip(), "", what)
        expected = reference(dataset, **values)
        self.assert_close(gt.cell_array(result, "Quality"), gt.cell_array(expected, "Quality"), what + " Quality")
        for name in FIELDS:
            got, want = field_tuple(result, name), field_tuple(expected, name)
            self.assertEqual(got[4], want[4], "%s %s count" % (what, name))
            self.assert_close(got[[0, 1, 2]], want[[0, 1, 2]], "%s %s min, average, max" % (what, name))
            # The variance is a difference of sums of squares: it cancels to 1e-16 of them.
            self.assert_close(got[3], want[3], "%s %s variance" % (what, name),
                              scale=max(1.0, want[1] ** 2 if np.isfinite(want[1]) else 1.0) * 1e4)
        return result

    def test_every_triangle_measure_on_gmsh_meshes(self):
        for mesh in ("plate_with_holes.vtu", "sphere_surface.vtu"):
            dataset = gt.read_vtu(mesh)
            for label, value in measures("Triangle").items():
                with self.subTest(mesh=mesh, measure=label):
                    self.assert_like_vtk(dataset, "%s %s" % (mesh, label), Triangle=value)

    def test_every_tetrahedron_measure_on_a_gmsh_mesh(self):
        dataset = gt.read_vtu("ball_tets.vtu")
        for label, value in measures("Tet").items():
            with self.subTest(measure=label):
                self.assert_like_vtk(dataset, "ball_tets.vtu " + label, Tet=value)

    def test_every_quad_measure_on_gmsh_meshes_and_hand_made_quads(self):
        for name, dataset in (("plate quads", gmsh_quads("plate_with_holes")),
                              ("sphere quads", gmsh_quads("sphere_surface")),
                              ("hand-made quads", hand_made_quads())):
            self.assertGreater(dataset.GetNumberOfCells(), 10, name)
            for label, value in measures("Quad").items():
                with self.subTest(mesh=name, measure=label):
                    self.assert_like_vtk(dataset, "%s %s" % (name, label), Quad=value)

    def test_every_hexahedron_measure_on_gmsh_and_hand_made_hexahedra(self):
        block = gt.read_vtu("hex_block.vtu")
        for name, dataset in (("hex_block.vtu", block), ("perturbed hex_block", perturbed(block, 0.3)),
                              ("hand-made hexahedra", hand_made_hexahedra())):
            for label, value in measures("Hex").items():
                with self.subTest(mesh=name, measure=label):
                    self.assert_like_vtk(dataset, "%s %s" % (name, label), Hex=value)

    def test_every_pyramid_measure_on_split_gmsh_hexahedra_and_hand_made_pyramids(self):
        block = perturbed(gt.read_vtu("hex_block.vtu"), 0.3)
        for name, dataset in (("pyramids of the perturbed hex_block", split_hexahedra(block, "pyramids")),
                              ("hand-made pyramids", hand_made_pyramids())):
            for label, value in measures("Pyramid").items():
                with self.subTest(mesh=name, measure=label):
                    self.assert_like_vtk(dataset, "%s %s" % (name, label), Pyramid=value)

    def test_every_wedge_measure_on_gmsh_prisms_and_hand_made_wedges(self):
        block = perturbed(gt.read_vtu("hex_block.vtu"), 0.3)
        prisms = gmsh_cells(PRISMS_GEO, 3, VTK_WEDGE)
        self.assertGreater(prisms.GetNumberOfCells(), 100)
        for name, dataset in (("gmsh prisms", prisms), ("wedges of the perturbed hex_block", split_hexahedra(block, "wedges")),
                              ("hand-made wedges", hand_made_wedges())):
            for label, value in measures("Wedge").items():
                with self.subTest(mesh=name, measure=label):
                    self.assert_like_vtk(dataset, "%s %s" % (name, label), Wedge=value)

    def test_wedge_shape_is_the_shape(self):
        """ParaView 5.11's Mesh Quality offers wedge "Shape" as value 14, which vtkMeshQuality
        computes as Edge Ratio (with a warning); GPU Mesh Quality computes Verdict's wedge shape."""
        self.assertEqual(measures("Wedge")["Shape"], 14)
        wedges = hand_made_wedges()
        result, _ = on_device(wedges, Wedge=14)
        shape, _ = on_device(wedges, Wedge=13)
        np.testing.assert_array_equal(gt.cell_array(result, "Quality"), gt.cell_array(shape, "Quality"))
        self.assertAlmostEqual(gt.cell_array(result, "Quality")[1], 1.0, places=12)  # equilateral prism

    def test_pixels_and_voxels_are_quads_and_hexahedra(self):
        """vtkMeshQuality gives pixels and voxels NaN; here they are measured as the quad and the
        hexahedron they are (corners reordered) and counted with them."""
        from vtkmodules.vtkCommonDataModel import VTK_PIXEL, VTK_VOXEL
        x, y, z = 2.0, 1.0, 0.5
        pixel = [(0, 0, 0), (x, 0, 0), (0, y, 0), (x, y, 0)]
        quad = [pixel[0], pixel[1], pixel[3], pixel[2]]
        voxel = [(i * x, j * y, k * z) for k in (0, 1) for j in (0, 1) for i in (0, 1)]
        hexahedron = [voxel[0], voxel[1], voxel[3], voxel[2], voxel[4], voxel[5], voxel[7], voxel[6]]
        grid = hand_made(VTK_PIXEL, [pixel])
        ids = vtkIdList()
        for kind, corners in ((VTK_QUAD, quad), (VTK_VOXEL, voxel), (VTK_HEXAHEDRON, hexahedron)):
            ids.Reset()
            for corner in corners:
                ids.InsertNextId(grid.GetPoints().InsertNextPoint(*corner))
            grid.InsertNextCell(kind, ids)
        for quad_measure, hex_measure in ((measures("Quad")["Jacobian"], measures("Hex")["Jacobian"]),
                                          (measures("Quad")["Edge Ratio"], measures("Hex")["Edge Ratio"])):
            result, errors = on_device(grid, Quad=quad_measure, Hex=hex_measure)
            self.assertEqual(errors.strip(), "")
            quality = gt.cell_array(result, "Quality")
            self.assertEqual(quality[0], quality[1], "pixel as its quad")
            self.assertEqual(quality[2], quality[3], "voxel as its hexahedron")
            self.assertEqual(field_tuple(result, "Mesh Quadrilateral Quality")[4], 2)
            self.assertEqual(field_tuple(result, "Mesh Hexahedron Quality")[4], 2)
        self.assertAlmostEqual(quality[0], 2.0)  # edge ratio of the 2 x 1 rectangle
        expected = gt.cell_array(reference(grid), "Quality")
        self.assertTrue(np.isnan(expected[0]) and np.isnan(expected[2]), "vtkMeshQuality: NaN")

    def test_degenerate_inverted_and_tiny_cells(self):
        dataset = hand_made_cells()
        triangles, tetrahedra = measures("Triangle"), measures("Tet")
        for label, value in triangles.items():
            with self.subTest(triangle_measure=label):
                result = self.assert_like_vtk(dataset, "hand-made cells, triangles " + label, Triangle=value)
                quality = gt.cell_array(result, "Quality")
                self.assertTrue(np.all(np.isnan(quality[-3:])), "vertex, line and polygon: NaN")
        for label, value in tetrahedra.items():
            with self.subTest(tet_measure=label):
                self.assert_like_vtk(dataset, "hand-made cells, tetrahedra " + label, Tet=value)

    def test_sentinels_are_verdicts(self):
        """A few sentinels written out, so that a change of both sides cannot pass unseen."""
        result, _ = on_device(hand_made_cells(), Triangle=measures("Triangle")["Aspect Ratio"],
                              Tet=measures("Tet")["Aspect Ratio"])
        quality = gt.cell_array(result, "Quality")
        self.assertAlmostEqual(quality[0], 1.0, places=12)       # equilateral
        self.assertEqual(quality[4], 1e30)                       # flat triangle: VERDICT_DBL_MAX
        self.assertEqual(quality[7], 1e30)                       # area below 1e-30
        self.assertAlmostEqual(quality[11], 1.0, places=12)      # regular tetrahedron
        self.assertAlmostEqual(quality[12], 1.0, places=12)      # inverted: |det|, still 1
        self.assertEqual(quality[14], 1e30)                      # flat tetrahedron

    def test_quality_array_and_fields(self):
        result, _ = on_device(gt.read_vtu("plate_with_holes.vtu"))
        array = result.GetCellData().GetArray("Quality")
        self.assertEqual(array.GetDataTypeAsString(), "double")
        self.assertEqual(result.GetCellData().GetScalars().GetName(), "Quality")
        for name in FIELDS:
            array = result.GetFieldData().GetArray(name)
            self.assertEqual((array.GetNumberOfTuples(), array.GetNumberOfComponents()), (1, 5), name)
        self.assertEqual(list(field_tuple(result, "Mesh Tetrahedron Quality")), [0.0] * 5)
        self.assertEqual(gt.field_value(result, "Precision"), "Double")

    def test_float_points_run_in_double_by_default(self):
        sphere = simple.Sphere(ThetaResolution=32, PhiResolution=32)
        result = gt.fetch(simple.GPUMeshQuality(Input=sphere))
        self.assertEqual(gt.field_value(result, "Precision"), "Double")
        self.assertEqual(result.GetCellData().GetArray("Quality").GetDataTypeAsString(), "double")
        expected = reference(gt.fetch(sphere))
        self.assert_close(gt.cell_array(result, "Quality"), gt.cell_array(expected, "Quality"), "float points")

    def test_properties_and_defaults_are_mesh_quality_s(self):
        source = simple.Sphere()
        ours, theirs = simple.GPUMeshQuality(Input=source), simple.MeshQuality(Input=source)
        for kind in KINDS:
            name = kind + "QualityMeasure"
            self.assertEqual(ours.GetPropertyValue(name), theirs.GetPropertyValue(name), name)
            self.assertEqual(list(ours.GetProperty(name).Available), list(dict.fromkeys(theirs.GetProperty(name).Available)), name)
        # A script written for Mesh Quality runs unchanged.
        settings = dict(TriangleQualityMeasure="Shape and Size", TetQualityMeasure="Mean Ratio",
                        QuadQualityMeasure="Area", HexQualityMeasure="Volume")
        reader = simple.XMLUnstructuredGridReader(FileName=[gt.data_path("sphere_surface.vtu")])
        mine = gt.fetch(simple.GPUMeshQuality(Input=reader, **settings))
        expected = gt.fetch(simple.MeshQuality(Input=reader, **settings))
        self.assert_close(gt.cell_array(mine, "Quality"), gt.cell_array(expected, "Quality"), "script")
        self.assert_close(field_tuple(mine, FIELDS[0]), field_tuple(expected, FIELDS[0]), "script fields")

    def test_every_measure_of_mesh_quality_is_implemented(self):
        """Every (kind, measure) ParaView's Mesh Quality offers runs without error (the core's
        refusal of a measure a kind does not have, naming it, is testing/core/TestMeshQuality.cxx)."""
        cells = {"Triangle": hand_made_cells(), "Quad": hand_made_quads(), "Tet": hand_made_cells(),
                 "Pyramid": hand_made_pyramids(), "Wedge": hand_made_wedges(), "Hex": hand_made_hexahedra()}
        count = 0
        for kind, dataset in cells.items():
            for label, value in measures(kind).items():
                result, errors = on_device(dataset, **{kind: value})
                self.assertEqual(errors.strip(), "", "%s %s" % (kind, label))
                count += 1
        self.assertEqual(count, sum(IMPLEMENTED.values()))

    def test_a_measure_mesh_quality_does_not_offer_is_an_error(self):
        result, errors = on_device(gt.read_vtu("plate_with_holes.vtu"), Triangle=16)
        self.assertEqual(result.GetNumberOfCells(), 0)
        self.assertIn("TriangleQualityMeasure 16 is not a measure Mesh Quality offers for triangle cells", errors)

    def test_single_precision_is_within_its_documented_bound(self):
        """Precision Single: within 1e-5 relative plus 1e-5 of the mesh's largest value of
        vtkMeshQuality's double values, for every measure (docs/filters.md)."""
        meshes = {"Triangle": gt.read_vtu("plate_with_holes.vtu"), "Tet": gt.read_vtu("ball_tets.vtu"),
                  "Quad": gmsh_quads("plate_with_holes"), "Hex": perturbed(gt.read_vtu("hex_block.vtu"), 0.3)}
        for kind, dataset in meshes.items():
            for label, value in measures(kind).items():
                with self.subTest(kind=kind, measure=label):
                    quality = simple.GPUMeshQuality(Input=gt.producer(dataset), Precision="Single")
                    quality.SMProxy.GetProperty(kind + "QualityMeasure").SetElement(0, value)
                    quality.SMProxy.UpdateVTKObjects()
                    single = gt.cell_array(gt.fetch(quality), "Quality")
                    simple.Delete(quality)
                    expected = gt.cell_array(reference(dataset, **{kind: value}), "Quality")
                    scale = np.nanmax(np.abs(expected))
                    np.testing.assert_allclose(single, expected, rtol=1e-5, atol=1e-5 * scale)

if __name__ == "__main__":
    unittest.main(verbosity=2)
