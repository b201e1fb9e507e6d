"""Hostile and careless GMF input: the reader and writer never crash, hang or lie.

One test per problem found; the malformed files are the small fixtures of testing/gmf/fixtures
(written by testing/gmf/make_fixtures.py). Every bad file is an error (vtkErrorMacro) naming
the keyword and the position, and the output is empty; a failed write leaves the files that
were there. The sanitizer build (testing/gmf/gmf_replay.cxx, ctest label gmf-sanitizer) reads
the same fixtures and thousands of mutations of them.
"""
import os
import resource
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import time
import unittest

import numpy as np
from paraview import servermanager
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonCore import vtkIdList, vtkIntArray, vtkPoints, vtkTypeInt64Array
from vtkmodules.vtkCommonDataModel import (VTK_HEXAHEDRON, VTK_LINE, VTK_TETRA, VTK_TRIANGLE,
                                           VTK_VERTEX, vtkUnstructuredGrid)

import gpumesh_testing as gt

gt.load_plugin()

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gmf", "fixtures")
EVERY_KIND = gt.data_path(os.path.join("gmf", "every_kind.mesh"))


def fixture(name):
    return os.path.join(FIXTURES, name)


read = gt.read_gmf
write = gt.save


def array_names(data):
    return sorted(data.GetArrayName(i) for i in range(data.GetNumberOfArrays()))


class Directory(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gmf-hostile-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def assertReadFails(self, path, *fragments, solution=""):
        with gt.CapturedErrors() as errors:
            grid = read(path, solution)
        self.assertEqual((grid.GetNumberOfPoints(), grid.GetNumberOfCells()), (0, 0), errors.text)
        self.assertIn("ERROR", errors.text)
        for fragment in fragments:
            self.assertIn(fragment, errors.text)
        return errors.text


class HostileFiles(Directory):
    def test_repeated_dimension(self):
        """Lines indexed with one Dimension were decoded with the last one: 3 then 2 wrote 1.5x
        past the coordinate buffer (and past a solution's arrays), 2 then 3 gave garbage."""
        self.assertReadFails(fixture("dimension_3_then_2.mesh"), "dimension_3_then_2.mesh, line 9:",
                             "Dimension appears twice (first at line 2)")
        self.assertReadFails(fixture("dimension_2_then_3.mesh"), "line 8:", "Dimension appears twice")
        self.assertReadFails(fixture("dimension_3_then_2.meshb"), "byte 144:",
                             "Dimension appears twice (first at byte 8)")
        self.assertReadFails(fixture("dimension_3_then_2_solution.mesh"),
                             "dimension_3_then_2_solution.sol, line 9:", "Dimension appears twice")
        # The same for the version, which sets the size of integers and reals.
        self.assertReadFails(fixture("version_twice.mesh"), "line 8:",
                             "MeshVersionFormatted appears twice (first at line 1)")

    def test_solution_fields_bounded_by_the_files(self):
        """500 matrix fields at one edge, each a cell array over all 5,001 cells: 180 MB asked
        for by 20 KB of files. Refused before anything is allocated, naming the keyword."""
        text = self.assertReadFails(fixture("solution_fields_at_one_edge.mesh"),
                                    "solution_fields_at_one_edge.sol, line 3: SolAtEdges:",
                                    "500 fields", "5001 cells", "180036000 bytes")
        self.assertIn("64 bytes per byte", text)

    def test_allocation_failure_is_an_error(self):
        """An allocation that fails (here: under an address-space limit) is an error naming the
        keyword, not an abort or a write through a null pointer."""
        mesh = fixture("solution_fields_at_one_edge.mesh")
        solution = fixture(os.path.join("memory", "solution_fields_within_bounds.sol"))
        # The fields need 61 MB, within the reader's bound; the limit leaves 8 MiB more than the
        # process's address space now.
        reader = simple.GMFMeshReader(FileName=mesh, SolutionFileName=solution)
        with open("/proc/self/status") as f:
            size = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
        limits = resource.getrlimit(resource.RLIMIT_AS)
        with gt.CapturedErrors() as errors:
            resource.setrlimit(resource.RLIMIT_AS, (size + (8 << 20), limits[1]))
            try:
                reader.UpdatePipeline()
            finally:
                resource.setrlimit(resource.RLIMIT_AS, limits)
        grid = servermanager.Fetch(reader)
        simple.Delete(reader)
        self.assertEqual((grid.GetNumberOfPoints(), grid.GetNumberOfCells()), (0, 0), errors.text)
        self.assertIn("solution_fields_within_bounds.sol, line 3: SolAtEdges: cannot allocate", errors.text)
        # Without the limit the same files are read.
        self.assertEqual(len(array_names(read(mesh, solution).GetCellData())), 171)  # Ref and 170 fields

    def test_section_longer_than_its_keyword(self):
        """A section claiming more lines than lie before the next keyword: the next keyword's
        header was decoded as data (binary) or misreported (text)."""
        self.assertReadFails(fixture("section_longer_than_keyword.meshb"), "byte 28:",
                             "Vertices declares 4 lines of 28 bytes", "next keyword at byte 116",
                             "room for 3 lines")
        self.assertReadFails(fixture("section_longer_than_keyword.mesh"), "line 12: truncated Corners",
                             "found RequiredVertices in line 3")

    def test_references_beyond_32_bits(self):
        """Versions 1 to 3 hold 32-bit references: a larger one was silently truncated."""
        self.assertReadFails(fixture("reference_beyond_32_bits_vertex_v2.mesh"), "Vertices line 2 of 3 (line 6)",
                             "4294967297 needs 64 bits, which only version 4 has (this file is version 2)")
        self.assertReadFails(fixture("reference_beyond_32_bits_triangle_v2.mesh"), "Triangles line 1 of 1 (line 10)",
                             "-4294967296 needs 64 bits")
        grid = read(fixture("reference_beyond_32_bits_vertex_v4.mesh"))
        refs = grid.GetPointData().GetArray("Ref")
        self.assertEqual([refs.GetTuple1(i) for i in range(3)], [0, 4294967297, 0])

    def test_utf8_byte_order_mark(self):
        """A UTF-8 byte order mark before MeshVersionFormatted is skipped (it was taken for an
        unknown word, and the file reported as having no version)."""
        grid = read(fixture("byte_order_mark.mesh"))
        self.assertEqual((grid.GetNumberOfPoints(), grid.GetNumberOfCells()), (3, 1))
        np.testing.assert_array_equal(dsa.WrapDataObject(grid).PointData["Ref"], [1, 2, 3])
        self.assertEqual(grid.GetCellData().GetArray("Ref").GetTuple1(0), 7)

    def test_fifo_beside_the_mesh(self):
        """A FIFO named <mesh>.sol hung the reader in open(). It is not read (a warning says
        so); named as the solution file it is an error. A helper process unblocks a reader
        that hangs after 20 s, so that the test fails instead of hanging."""
        mesh = self.path("every_kind.mesh")
        shutil.copy(EVERY_KIND, mesh)
        fifo = self.path("every_kind.sol")
        os.mkfifo(fifo)
        unblock = ("import os, sys, time\ntime.sleep(20)\n"
                   "try:\n    os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK))\n"
                   "except OSError:\n    sys.exit(0)\nsys.exit(3)\n")
        python = shutil.which("python3") or sys.executable
        for solution in ("", fifo):
            with self.subTest(solution=solution):
                helper = subprocess.Popen([python, "-c", unblock, fifo])
                try:
                    start = time.monotonic()
                    with gt.CapturedErrors() as errors:
                        grid = read(mesh, solution)
                    elapsed = time.monotonic() - start
                finally:
                    helper.kill()
                    code = helper.wait()
                self.assertNotEqual(code, 3, "the reader blocked opening the FIFO")
                self.assertLess(elapsed, 15)
                self.assertIn("every_kind.sol", errors.text)
                self.assertIn("not a regular file", errors.text)
                if solution:
                    self.assertIn("ERROR", errors.text)
                    self.assertEqual(grid.GetNumberOfCells(), 0)
                else:
                    self.assertIn("Warning", errors.text)
                    self.assertEqual(grid.GetNumberOfCells(), 13)
                    self.assertEqual(array_names(grid.GetPointData()), ["Ref"])

    def test_unsupported_binary_version_is_claimed(self):
        """A .meshb of version 5 was not claimed (ParaView: "No reader found"); the reader takes
        it and names the version."""
        proxy = simple.OpenDataFile(fixture("version_5.meshb"))
        self.assertIsNotNone(proxy)
        self.assertEqual(proxy.GetXMLName(), "GMFReader")
        simple.Delete(proxy)
        self.assertReadFails(fixture("version_5.meshb"), "version_5.meshb, byte 4: unknown version 5")


def grid_of(cells, point_count=4):
    """A vtkUnstructuredGrid of `point_count` points and cells [(VTK type, [point ids])]."""
    grid = vtkUnstructuredGrid()
    points = vtkPoints()
    points.SetDataTypeToDouble()
    for p in range(point_count):
        points.InsertNextPoint(p % 2, (p // 2) % 2, p // 4)
    grid.SetPoints(points)
    grid.Allocate(len(cells))
    for cell_type, ids in cells:
        id_list = vtkIdList()
        for i in ids:
            id_list.InsertNextId(i)
        grid.InsertNextCell(cell_type, id_list)
    return grid


class HostileWriterInput(Directory):
    def assertWriteFails(self, dataset, name, *fragments, **properties):
        path = self.path(name)
        before = sorted(os.listdir(self.dir))
        with gt.CapturedErrors() as errors:
            write(dataset, path, **properties)
        self.assertIn("ERROR", errors.text)
        for fragment in fragments:
            self.assertIn(fragment, errors.text)
        self.assertEqual(sorted(os.listdir(self.dir)), before, "a failed write changed the directory")
        return errors.text

    def test_cells_whose_point_count_does_not_fit_their_type(self):
        """A hexahedron with 3 ids, a triangle with 2, a line with 1, a tetrahedron or a vertex
        with 0: the writer read (and, for ridges, wrote) past the cell's ids."""
        cases = [(VTK_HEXAHEDRON, [0, 1, 2], "vtkHexahedron with 3 points (a hexahedron has 8)"),
                 (VTK_TRIANGLE, [0, 1], "vtkTriangle with 2 points (a triangle has 3)"),
                 (VTK_LINE, [0], "vtkLine with 1 points (a line has 2)"),
                 (VTK_TETRA, [], "vtkTetra with 0 points (a tetrahedron has 4)"),
                 (VTK_VERTEX, [], "vtkVertex with 0 points (a vertex has 1)")]
        for cell_type, ids, message in cases:
            for name in ("cells.mesh", "cells.meshb"):
                with self.subTest(cell_type=cell_type, file=name):
                    grid = grid_of([(VTK_TRIANGLE, [0, 1, 2]), (cell_type, ids)])
                    self.assertWriteFails(grid, name, "cell 1 is a " + message)
        # A ridge (line cell with GMFKeyword 14) of one point.
        grid = grid_of([(VTK_LINE, [0, 1]), (VTK_LINE, [0])])
        keywords = vtkIntArray()
        keywords.SetName("GMFKeyword")
        for value in (5, 14):
            keywords.InsertNextValue(value)
        grid.GetCellData().AddArray(keywords)
        self.assertWriteFails(grid, "ridge.mesh", "cell 1 is a vtkLine with 1 points (a line has 2)")

    def test_unknown_cell_type_ids(self):
        """Cell types 82 and above indexed a fixed table of the writer (a write out of bounds)."""
        for cell_type in (82, 90, 255):
            with self.subTest(cell_type=cell_type):
                grid = grid_of([(VTK_TRIANGLE, [0, 1, 2]), (cell_type, [0, 1, 2])])
                self.assertWriteFails(grid, "unknown.mesh", "cell 1 has the cell type %d" % cell_type,
                                      "no VTK cell type")

    def test_point_ids_out_of_range(self):
        """A point id of -1 or past the last point was written as garbage (0, or a vertex the
        file does not have)."""
        for ids, message in (([0, 1, -1], "refers to point -1"), ([0, 1, 4], "refers to point 4")):
            for name in ("ids.mesh", "ids.meshb"):
                with self.subTest(ids=ids, file=name):
                    grid = grid_of([(VTK_TETRA, [0, 1, 2, 3]), (VTK_TRIANGLE, ids)])
                    self.assertWriteFails(grid, name, "cell 1 (a vtkTriangle) " + message,
                                          "the input has 4 points")

    def test_arrays_shorter_than_the_data(self):
        """A point or cell array with fewer tuples than points or cells was read past its end."""
        for where in ("point", "cell"):
            with self.subTest(where=where):
                grid = grid_of([(VTK_TETRA, [0, 1, 2, 3]), (VTK_TRIANGLE, [0, 1, 2])])
                for name in ("Ref", "Pressure"):
                    values = vtkIntArray()
                    values.SetName(name)
                    values.InsertNextValue(1)
                    getattr(grid, "GetPointData" if where == "point" else "GetCellData")().AddArray(values)
                self.assertWriteFails(grid, "short.mesh", "the %s array Ref has 1 tuples for" % where)

    def test_failed_write_keeps_the_old_file(self):
        """An error found while writing truncated the existing file (a valid .meshb became 0
        bytes): the files are written under temporary names and renamed when complete."""
        source = read(EVERY_KIND)
        for name in ("kept.meshb", "kept.mesh"):
            with self.subTest(file=name):
                path = self.path(name)
                write(source, path)
                solution = path.replace(".mesh", ".sol")
                originals = {}
                for p in (path, solution):
                    with open(p, "rb") as f:
                        originals[p] = f.read()
                os.chmod(path, 0o640)
                # A point reference of 2^40 cannot be written in version 2: found on the 12th vertex.
                bad = vtkUnstructuredGrid()
                bad.DeepCopy(source)
                refs = vtkTypeInt64Array()
                refs.SetName("Ref")
                for p in range(bad.GetNumberOfPoints()):
                    refs.InsertNextValue(1 << 40 if p == 11 else p)
                bad.GetPointData().AddArray(refs)
                self.assertWriteFails(bad, name, "Vertices", "the integer 1099511627776 needs 64 bits",
                                      Version=2)
                for p, data in originals.items():
                    with open(p, "rb") as f:
                        self.assertEqual(f.read(), data, p)
                # A successful write keeps the file's permissions.
                write(source, path, Version=4)
                self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o640)
                os.remove(path)
                os.remove(solution)

    def test_saving_without_fields_removes_the_old_solution(self):
        """Saving again without fields left the old .solb beside the mesh, which the reader then
        attached to the new mesh."""
        source = read(EVERY_KIND)
        bare = vtkUnstructuredGrid()
        bare.DeepCopy(source)
        for data in (bare.GetPointData(), bare.GetCellData()):
            for name in array_names(data):
                if name.startswith("SolAt"):
                    data.RemoveArray(name)
        for name, properties in (("a.meshb", {}), ("b.mesh", {}), ("c.meshb", {"WriteSolution": 0})):
            with self.subTest(file=name, **properties):
                path = self.path(name)
                solution = os.path.splitext(path)[0] + (".solb" if name.endswith("b") else ".sol")
                write(source, path)
                self.assertTrue(os.path.exists(solution))
                write(source if properties else bare, path, **properties)
                self.assertFalse(os.path.exists(solution), "the old solution is still beside the mesh")
                grid = read(path)
                self.assertEqual(array_names(grid.GetPointData()), ["Ref"])
                self.assertEqual(array_names(grid.GetCellData()), ["GMFKeyword", "Ref"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
