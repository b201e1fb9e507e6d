"""The GMF reader and writer (GMF Mesh Reader, GMF Mesh Writer; vtkGMFReader, vtkGMFWriter).

- data/gmf/every_kind.mesh (hand-written: every element kind, refs, corners, a ridge) and its
  every_kind.sol (scalar, vector and symmetric-matrix fields) read as written there;
- round trips, text and binary, every version, and binary files in the other byte order:
  equal cell by cell and value by value;
- files written by meshio (Debian's python3-meshio, "medit" format) read equal to what meshio
  holds, and ours read by meshio equal to what we wrote;
- bad files: clear errors naming the keyword and the position, an empty output.
"""
import os
import shutil
import struct
import tempfile
import unittest

import meshio
import numpy as np
from paraview import servermanager
from paraview import simple
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import (VTK_HEXAHEDRON, VTK_LINE, VTK_PYRAMID, VTK_QUAD, VTK_TETRA,
                                           VTK_TRIANGLE, VTK_VERTEX, VTK_WEDGE, vtkPolyData,
                                           vtkUnstructuredGrid)
from vtkmodules.vtkFiltersGeneral import vtkCellValidator
from vtkmodules.numpy_interface import dataset_adapter as dsa

import gpumesh_testing as gt
import gpumesh_xml

gt.load_plugin()

EVERY_KIND = gt.data_path(os.path.join("gmf", "every_kind.mesh"))
IO_XML = os.path.join(os.path.dirname(gpumesh_xml.XML_PATH), "GPUMeshIO.xml")

# GMF's prism numbers its bottom triangle the other way round from VTK's wedge.
PRISM_TO_WEDGE = [0, 2, 1, 3, 5, 4]
MESHIO_TYPES = {VTK_LINE: "line", VTK_TRIANGLE: "triangle", VTK_QUAD: "quad", VTK_TETRA: "tetra",
                VTK_PYRAMID: "pyramid", VTK_WEDGE: "wedge", VTK_HEXAHEDRON: "hexahedron"}


read = gt.read_gmf
write = gt.save


def cells(grid):
    """[(VTK type, (point ids))] of every cell, in order."""
    result = []
    for c in range(grid.GetNumberOfCells()):
        ids = grid.GetCell(c).GetPointIds()
        result.append((grid.GetCellType(c), tuple(ids.GetId(i) for i in range(ids.GetNumberOfIds()))))
    return result


def points(grid):
    return dsa.WrapDataObject(grid).Points.copy()


def array(data, name):
    a = data.GetArray(name)
    if a is None:
        raise AssertionError("array %r is missing" % name)
    return np.array([a.GetTuple(i) for i in range(a.GetNumberOfTuples())], dtype=np.float64)


def array_names(data):
    return sorted(data.GetArrayName(i) for i in range(data.GetNumberOfArrays()))


def swap_byte_order(data):
    """The little-endian binary GMF file `data` written in big-endian byte order. Walks the
    keywords with the layout of libMeshb's documentation (independent of the C++ reader)."""
    integers = {4: 1, 5: 3, 6: 4, 7: 5, 8: 5, 9: 7, 10: 9, 49: 6, 13: 1, 14: 1}
    solutions = {62, 63, 64, 65, 66, 67, 68, 26}
    out = bytearray()

    def word(offset, size, kind="i"):
        fmt = {("i", 4): "i", ("i", 8): "q", ("r", 4): "f", ("r", 8): "d"}[(kind, size)]
        value = struct.unpack_from("<" + fmt, data, offset)[0]
        out.extend(struct.pack(">" + fmt, value))
        return value

    version = struct.unpack_from("<i", data, 4)[0]
    real, integer, position = (4 if version == 1 else 8), (8 if version == 4 else 4), (8 if version >= 3 else 4)
    word(0, 4)
    word(4, 4)
    offset, dimension = 8, 0
    while offset < len(data):
        code = word(offset, 4)
        word(offset + 4, position)
        offset += 4 + position
        if code == 54:
            break
        if code == 3:
            dimension = word(offset, 4)
            offset += 4
            continue
        lines = word(offset, integer)
        offset += integer
        reals, ints = 0, integers.get(code, 0)
        if code == 4:
            reals = dimension
        if code in solutions:
            types = [word(offset + 4 * (1 + i), 4) for i in range(word(offset, 4))]
            offset += 4 * (1 + len(types))
            reals = sum({1: 1, 2: dimension, 3: dimension * (dimension + 1) // 2, 4: dimension ** 2}[t] for t in types)
        for _ in range(lines):
            for _ in range(reals):
                word(offset, real, "r")
                offset += real
            for _ in range(ints):
                word(offset, integer)
                offset += integer
    return bytes(out)


def keyword_offsets(data):
    """{keyword code: byte offset} of a little-endian binary GMF file, by its next positions."""
    version = struct.unpack_from("<i", data, 4)[0]
    position = "<q" if version >= 3 else "<i"
    offsets, offset = {}, 8
    while offset:
        code = struct.unpack_from("<i", data, offset)[0]
        offsets[code] = offset
        offset = struct.unpack_from(position, data, offset + 4)[0]
    return offsets


class Directory(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gmf-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def assertGridsEqual(self, expected, actual, single=False):
        """Cell by cell, value by value; `single`: reals went through 32 bits."""
        self.assertEqual(cells(expected), cells(actual))
        expected_points = points(expected)
        if single:
            expected_points = expected_points.astype(np.float32).astype(np.float64)
        np.testing.assert_array_equal(expected_points, points(actual))
        for data in ("GetPointData", "GetCellData"):
            want, got = getattr(expected, data)(), getattr(actual, data)()
            self.assertEqual(array_names(want), array_names(got), data)
            for name in array_names(want):
                values = array(want, name)
                if single and name not in ("Ref", "GMFKeyword"):
                    values = values.astype(np.float32).astype(np.float64)
                np.testing.assert_array_equal(values, array(got, name), err_msg="%s %s" % (data, name))


class HandWrittenMesh(unittest.TestCase):
    """every_kind.mesh and every_kind.sol hold what the files say, in VTK's conventions."""

    @classmethod
    def setUpClass(cls):
        cls.grid = read(EVERY_KIND)

    def test_points_and_vertex_references(self):
        self.assertEqual(self.grid.GetNumberOfPoints(), 12)
        np.testing.assert_array_equal(points(self.grid)[8], [0.5, 0.5, 1.5])
        np.testing.assert_array_equal(array(self.grid.GetPointData(), "Ref")[:, 0],
                                      [1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 6, 7])

    def test_cells_in_kind_order_with_references(self):
        expected = [
            (VTK_LINE, (0, 1), 30), (VTK_LINE, (1, 2), 31), (VTK_LINE, (2, 3), 32),
            (VTK_TRIANGLE, (0, 1, 2), 20), (VTK_TRIANGLE, (0, 2, 3), 21),
            (VTK_QUAD, (4, 5, 6, 7), 22),
            (VTK_TETRA, (0, 11, 1, 4), 13),
            (VTK_PYRAMID, (4, 5, 6, 7, 8), 11),
            (VTK_WEDGE, (1, 2, 9, 5, 6, 10), 12),  # GMF 2 10 3 6 11 7, bottom reversed
            (VTK_HEXAHEDRON, (0, 1, 2, 3, 4, 5, 6, 7), 10),
            (VTK_VERTEX, (0,), 0), (VTK_VERTEX, (8,), 0),
            (VTK_LINE, (1, 2), 0),  # the ridge: edge 2
        ]
        self.assertEqual(cells(self.grid), [(t, p) for t, p, _ in expected])
        np.testing.assert_array_equal(array(self.grid.GetCellData(), "Ref")[:, 0], [r for _, _, r in expected])
        np.testing.assert_array_equal(array(self.grid.GetCellData(), "GMFKeyword")[:, 0],
                                      [5, 5, 5, 6, 6, 7, 8, 49, 9, 10, 13, 13, 14])

    def test_volume_cells_are_valid_in_vtk(self):
        """vtkCellValidator checks each cell's faces point outwards: the vertex orders match VTK's."""
        validator = vtkCellValidator()
        validator.SetInputData(self.grid)
        validator.Update()
        state = array(validator.GetOutput().GetCellData(), "ValidityState")[:, 0]
        for c in range(self.grid.GetNumberOfCells()):
            if self.grid.GetCellType(c) in (VTK_TETRA, VTK_PYRAMID, VTK_WEDGE, VTK_HEXAHEDRON):
                self.assertEqual(state[c], 0, "cell %d (type %d)" % (c, self.grid.GetCellType(c)))

    def test_skipped_keywords_are_listed(self):
        names = self.grid.GetFieldData().GetAbstractArray("SkippedKeywords")
        self.assertEqual([names.GetValue(i) for i in range(names.GetNumberOfValues())], ["RequiredVertices"])

    def test_solution_fields(self):
        point_data = self.grid.GetPointData()
        self.assertEqual(array_names(point_data), ["Ref", "SolAtVertices_1", "SolAtVertices_2", "SolAtVertices_3"])
        i = np.arange(1, 13, dtype=np.float64)
        np.testing.assert_array_equal(array(point_data, "SolAtVertices_1")[:, 0], i)
        vectors = np.stack([i, 0 * i, 0 * i], axis=1)
        vectors[11, 2] = -0.5
        np.testing.assert_array_equal(array(point_data, "SolAtVertices_2"), vectors)
        tensors = 10 * i[:, None] + np.arange(1, 7)[None, :]
        np.testing.assert_array_equal(array(point_data, "SolAtVertices_3"), tensors)
        tet = array(self.grid.GetCellData(), "SolAtTetrahedra")[:, 0]
        hexa = array(self.grid.GetCellData(), "SolAtHexahedra")[:, 0]
        self.assertEqual(tet[6], -3.25)
        self.assertEqual(hexa[9], 1e-300)
        self.assertTrue(np.isnan(np.delete(tet, 6)).all())
        self.assertTrue(np.isnan(np.delete(hexa, 9)).all())

    def test_solution_file_can_be_chosen_or_absent(self):
        with tempfile.TemporaryDirectory() as directory:
            alone = os.path.join(directory, "alone.mesh")
            shutil.copy(EVERY_KIND, alone)
            grid = read(alone)
            self.assertEqual(array_names(grid.GetPointData()), ["Ref"])
            chosen = read(alone, solution=EVERY_KIND.replace(".mesh", ".sol"))
            self.assertIn("SolAtVertices_3", array_names(chosen.GetPointData()))

    def test_opened_by_extension(self):
        for name in ("every_kind.mesh", "plate_with_holes.meshb"):
            proxy = simple.OpenDataFile(gt.data_path(os.path.join("gmf", name)))
            self.assertEqual(proxy.GetXMLName(), "GMFReader", name)
            simple.Delete(proxy)


class RoundTrips(Directory):
    """Write then read: text and binary, every version, both byte orders."""

    @classmethod
    def setUpClass(cls):
        cls.source = read(EVERY_KIND)

    def test_every_version_text_and_binary(self):
        for version in (1, 2, 3, 4):
            for extension in ("mesh", "meshb"):
                with self.subTest(version=version, extension=extension):
                    path = self.path("v%d.%s" % (version, extension))
                    write(self.source, path, Version=version)
                    if extension == "meshb":
                        with open(path, "rb") as f:
                            self.assertEqual(struct.unpack("<ii", f.read(8)), (1, version))
                    else:
                        with open(path) as f:
                            self.assertEqual(f.readline().split(), ["MeshVersionFormatted", str(version)])
                    self.assertTrue(os.path.exists(path.replace(".mesh", ".sol")))
                    self.assertGridsEqual(self.source, read(path), single=(version == 1))

    def test_other_byte_order(self):
        for version in (1, 2, 3, 4):
            with self.subTest(version=version):
                native = self.path("native%d.meshb" % version)
                write(self.source, native, Version=version)
                swapped = self.path("swapped%d.meshb" % version)
                for suffix in (".meshb", ".solb"):
                    with open(native.replace(".meshb", suffix), "rb") as f:
                        data = swap_byte_order(f.read())
                    self.assertEqual(data[:4], b"\x00\x00\x00\x01")
                    with open(swapped.replace(".meshb", suffix), "wb") as f:
                        f.write(data)
                self.assertGridsEqual(read(native), read(swapped))

    def test_automatic_version(self):
        path = self.path("auto.meshb")
        write(self.source, path)
        with open(path, "rb") as f:
            self.assertEqual(struct.unpack("<ii", f.read(8)), (1, 2))  # double points
        self.assertGridsEqual(self.source, read(path))

    def test_polydata_and_dimension_two(self):
        plane = simple.Plane(XResolution=3, YResolution=2)
        triangles = simple.Triangulate(Input=plane)
        surface = servermanager.Fetch(triangles)
        simple.Delete(triangles)
        simple.Delete(plane)
        surface.GetPointData().Initialize()
        path = self.path("plane.mesh")
        write(surface, path, Dimension=2)
        with open(path) as f:
            self.assertIn("Dimension 2", f.read())
        back = read(path)
        self.assertEqual([(VTK_TRIANGLE, p) for t, p in cells(surface)], cells(back))
        np.testing.assert_array_equal(points(surface).astype(np.float32), points(back))


class Meshio(Directory):
    """Files written by meshio read back equal to what meshio holds, and ours read by meshio."""

    def meshio_mesh(self, dtype=np.float64, cell_dtype=np.int64):
        rng = np.random.default_rng(7)
        pts = rng.random((40, 3)).astype(dtype)
        blocks = [("line", 2, 3), ("triangle", 3, 5), ("quad", 4, 2), ("tetra", 4, 4),
                  ("pyramid", 5, 2), ("wedge", 6, 3), ("hexahedron", 8, 2)]
        cell_blocks = [(name, rng.integers(0, 40, (count, n)).astype(cell_dtype)) for name, n, count in blocks]
        refs = [rng.integers(-5, 100, count).astype(cell_dtype) for _, _, count in blocks]
        return meshio.Mesh(pts, cell_blocks, point_data={"medit:ref": rng.integers(0, 9, 40).astype(cell_dtype)},
                           cell_data={"medit:ref": refs})

    def assertSameAsMeshio(self, mesh, grid):
        np.testing.assert_array_equal(mesh.points.astype(np.float64), points(grid))
        np.testing.assert_array_equal(mesh.point_data["medit:ref"], array(grid.GetPointData(), "Ref")[:, 0])
        ours = cells(grid)
        refs = array(grid.GetCellData(), "Ref")[:, 0]
        by_type = {}
        for (cell_type, ids), ref in zip(ours, refs):
            by_type.setdefault(MESHIO_TYPES[cell_type], []).append((ids, ref))
        self.assertEqual(sorted(by_type), sorted(block.type for block in mesh.cells))
        for block, block_refs in zip(mesh.cells, mesh.cell_data["medit:ref"]):
            data = block.data[:, PRISM_TO_WEDGE] if block.type == "wedge" else block.data
            self.assertEqual([ids for ids, _ in by_type[block.type]], [tuple(row) for row in data.tolist()], block.type)
            np.testing.assert_array_equal([ref for _, ref in by_type[block.type]], block_refs, block.type)

    def test_meshio_files_read_equal(self):
        cases = [("text_v2.mesh", np.float64, np.int64), ("text_v1.mesh", np.float32, np.int64),
                 ("binary_v3.meshb", np.float64, np.int32), ("binary_v4.meshb", np.float64, np.int64)]
        for name, dtype, cell_dtype in cases:
            with self.subTest(file=name):
                mesh = self.meshio_mesh(dtype, cell_dtype)
                path = self.path(name)
                meshio.write(path, mesh, file_format="medit")
                self.assertSameAsMeshio(mesh, read(path))

    def test_ours_read_by_meshio(self):
        source = read(EVERY_KIND)
        source.GetPointData().RemoveArray("SolAtVertices_1")
        # meshio reads text versions 1 and 2 only; binary all four.
        for name, version in (("ours1.mesh", 1), ("ours2.mesh", 2), ("ours1.meshb", 1), ("ours2.meshb", 2),
                              ("ours3.meshb", 3), ("ours4.meshb", 4)):
            with self.subTest(file=name):
                path = self.path(name)
                write(source, path, Version=version, WriteSolution=0)
                mesh = meshio.read(path, file_format="medit")
                volume = vtkUnstructuredGrid()
                volume.DeepCopy(source)
                # meshio drops corners and ridges: compare the elements (the first 10 cells).
                kept = vtkUnstructuredGrid()
                kept.SetPoints(volume.GetPoints())
                kept.GetPointData().AddArray(volume.GetPointData().GetArray("Ref"))
                ref = volume.GetCellData().GetArray("Ref")
                kept_refs = ref.NewInstance()
                kept_refs.SetName("Ref")
                for c in range(10):
                    kept.InsertNextCell(volume.GetCellType(c), volume.GetCell(c).GetPointIds())
                    kept_refs.InsertNextTuple1(ref.GetTuple1(c))
                kept.GetCellData().AddArray(kept_refs)
                if version == 1:
                    mesh.points = mesh.points.astype(np.float64)
                self.assertSameAsMeshio(mesh, kept)


class BadFiles(Directory):
    """Each bad file is an error naming the keyword and the position; the output is empty."""

    def assertReadFails(self, path, *fragments, solution=""):
        with gt.CapturedErrors() as errors:
            grid = read(path, solution)
        self.assertEqual(grid.GetNumberOfPoints(), 0)
        self.assertEqual(grid.GetNumberOfCells(), 0)
        for fragment in fragments:
            self.assertIn(fragment, errors.text)
        return errors.text

    def text_mesh(self, name, body, version=2):
        path = self.path(name)
        with open(path, "w") as f:
            f.write("MeshVersionFormatted %d\nDimension 3\nVertices\n3\n0 0 0 0\n1 0 0 0\n0 1 0 0\n%s\nEnd\n"
                    % (version, body))
        return path

    def binary_copy(self, name, version=2):
        path = self.path(name)
        write(read(EVERY_KIND), path, Version=version, WriteSolution=0)
        with open(path, "rb") as f:
            return path, bytearray(f.read())

    def test_truncated_binary(self):
        for version in (1, 4):
            with self.subTest(version=version):
                path, data = self.binary_copy("cut%d.meshb" % version, version)
                # Cut inside the Tetrahedra: the keywords before it are whole.
                tetrahedra = keyword_offsets(data)[8]
                with open(path, "wb") as f:
                    f.write(data[:tetrahedra + 30])
                self.assertReadFails(path, "truncated", "Tetrahedra", "byte ")

    def test_truncated_text(self):
        path = self.text_mesh("cut.mesh", "Triangles\n2\n1 2 3 0\n1 2")
        self.assertReadFails(path, "line 12: truncated Triangles", "2 lines of 4 values", "found End in line 2")

    def test_unknown_version(self):
        path, data = self.binary_copy("v7.meshb")
        data[4:8] = struct.pack("<i", 7)
        with open(path, "wb") as f:
            f.write(data)
        self.assertReadFails(path, "unknown version 7", "byte 4")
        self.assertReadFails(self.text_mesh("v9.mesh", "", version=9), "unknown version 9", "line 1")

    def test_element_with_a_missing_vertex(self):
        path = self.text_mesh("missing.mesh", "Triangles\n2\n1 2 3 0\n1 2 4 0")
        self.assertReadFails(path, "Triangles line 2 of 2", "(line 11)", "vertex 4 does not exist", "3 Vertices")
        path = self.text_mesh("ridge.mesh", "Edges\n1\n1 2 0\nRidges\n1\n2")
        self.assertReadFails(path, "Ridges line 1 of 1", "edge 2 does not exist", "1 Edges")
        binary, data = self.binary_copy("missing.meshb", 4)
        hexahedra = keyword_offsets(data)[10]  # code, next position, count, then the lines
        data[hexahedra + 4 + 8 + 8: hexahedra + 4 + 8 + 16] = struct.pack("<q", 13)
        with open(binary, "wb") as f:
            f.write(data)
        self.assertReadFails(binary, "Hexahedra line 1 of 1", "byte %d" % (hexahedra + 20), "vertex 13 does not exist")

    def test_solution_count_mismatch(self):
        mesh = self.text_mesh("counted.mesh", "Triangles\n1\n1 2 3 0")
        with open(self.path("counted.sol"), "w") as f:
            f.write("MeshVersionFormatted 2\nDimension 3\nSolAtVertices\n2\n1 1\n0.5\n0.25\nEnd\n")
        self.assertReadFails(mesh, "counted.sol", "SolAtVertices has 2 lines, the mesh has 3 Vertices", "line 3")
        with open(self.path("counted.sol"), "w") as f:
            f.write("MeshVersionFormatted 2\nDimension 3\nSolAtTriangles\n2\n1 1\n0.5\n0.25\nEnd\n")
        self.assertReadFails(mesh, "SolAtTriangles has 2 lines, the mesh has 1 Triangles")

    def test_next_keyword_outside_the_file(self):
        path, data = self.binary_copy("jump.meshb", 3)
        data[12:20] = struct.pack("<q", len(data) + 100)  # the Dimension keyword's next position
        with open(path, "wb") as f:
            f.write(data)
        self.assertReadFails(path, "Dimension", "byte 12", "outside the file")

    def test_not_a_number(self):
        path = self.text_mesh("word.mesh", "Triangles\n1\n1 2 x 0")
        self.assertReadFails(path, "Triangles line 1 of 1", "expected an integer, found 'x'")

    def test_writer_rejects_cells_gmf_cannot_hold(self):
        polygon = vtkPolyData()
        pts = vtkPoints()
        for x, y in ((0, 0), (1, 0), (2, 1), (1, 2), (0, 1)):
            pts.InsertNextPoint(x, y, 0)
        polygon.SetPoints(pts)
        polygon.Allocate(1)
        polygon.InsertNextCell(7, 5, list(range(5)))  # VTK_POLYGON
        with gt.CapturedErrors() as errors:
            write(polygon, self.path("polygon.mesh"))
        self.assertIn("cell 0 is a vtkPolygon", errors.text)


class Documentation(unittest.TestCase):
    def test_every_property_is_documented(self):
        proxies = gpumesh_xml.all_proxies(IO_XML)
        self.assertEqual(sorted(name for _, name, _ in proxies), ["GMFReader"])
        import xml.etree.ElementTree as ElementTree
        root = ElementTree.parse(IO_XML).getroot()
        for proxy in [p for group in root.findall("ProxyGroup") for p in group]:
            self.assertIsNotNone(proxy.find("Documentation"), proxy.get("name"))
            for p in proxy:
                if p.tag.endswith("Property"):
                    with self.subTest(proxy=proxy.get("name"), property=p.get("name")):
                        documentation = p.find("Documentation")
                        self.assertTrue(documentation is not None and documentation.text.strip())

    def test_factories(self):
        import xml.etree.ElementTree as ElementTree
        root = ElementTree.parse(IO_XML).getroot()
        reader = root.find(".//ReaderFactory")
        writer = root.find(".//WriterFactory")
        self.assertEqual((reader.get("extensions"), reader.get("file_description")), ("mesh meshb", "GMF mesh"))
        self.assertEqual((writer.get("extensions"), writer.get("file_description")), ("mesh meshb", "GMF mesh"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
