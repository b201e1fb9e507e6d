"""Programs kept between sessions: a second fresh pvpython loads every program of its filters
from the binary cache (field data ProgramsFromBinaryCache, none built) and gives the same
results; GPUMESH_PROGRAM_CACHE=0, a damaged cache and an unwritable folder build from source
without error. A first use with an empty cache folder builds, before the filter runs, every
program it needs from the filter's first-use list (vtkGPUMeshFirstUsePrograms: none built on
demand). Each session is a fresh pvpython with its own GPUMESH_CACHE_DIR."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

CHILD = r"""
import json
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
import gpumesh_testing as gt
gt.load_plugin()
triangles = simple.Triangulate(Input=simple.Sphere(ThetaResolution=24, PhiResolution=24))
rows = {}
for name in ("GPUCellReduction", "GPUNeighborDistance", "GPUVertexSmoothing"):
    output = gt.fetch(getattr(simple, name)(Input=triangles))
    fields = output.GetFieldData()
    rows[name] = {
        "built": gt.field_value(output, "ProgramsBuilt"),
        "loaded": gt.field_value(output, "ProgramsFromBinaryCache"),
        "on_demand": gt.field_value(output, "ProgramsBuiltOnDemand"),
        "ms": gt.field_value(output, "ProgramBuildTimeMs"),
        "points": dsa.WrapDataObject(output).Points.ravel().tolist(),
        "cells": [dsa.WrapDataObject(output).CellData[i].ravel().tolist()
                  for i in range(output.GetCellData().GetNumberOfArrays())],
    }
print("ROWS " + json.dumps(rows))
"""


def session(cache, **variables):
    """One fresh pvpython's rows, by filter."""
    environment = dict(os.environ, GPUMESH_CACHE_DIR=cache)
    environment.pop("GPUMESH_PROGRAM_CACHE", None)
    environment.update(variables)
    done = subprocess.run([shutil.which("pvpython") or "pvpython", "-c", CHILD], env=environment,
                          capture_output=True, text=True, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("ROWS ")]
    if done.returncode or not lines:
        raise AssertionError("pvpython failed:\n" + done.stdout + done.stderr)
    return json.loads(lines[-1][len("ROWS "):])


def binaries(folder):
    return [os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".bin")]


class ProgramCache(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="gpumesh-program-cache-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.cache = os.path.join(self.folder, "cache")

    def assertSameResults(self, first, second):
        for name in first:
            self.assertEqual(first[name]["points"], second[name]["points"], name)
            self.assertEqual(first[name]["cells"], second[name]["cells"], name)

    def test_second_session_loads_programs_and_gives_the_same_results(self):
        cold = session(self.cache)
        self.assertGreater(cold["GPUCellReduction"]["built"], 0)
        for name, row in cold.items():
            self.assertEqual(row["loaded"], 0, name)
            self.assertGreaterEqual(row["ms"], 0.0, name)
            # The first-use list of this device's kind held every program the filter asked for.
            self.assertEqual(row["on_demand"], 0, name)
        self.assertTrue(binaries(self.cache))
        warm = session(self.cache)
        for name, row in warm.items():
            self.assertEqual(row["built"], 0, name)
            self.assertEqual(row["on_demand"], 0, name)
            # What the filter asked for; the first-use list may hold more (other cell kinds').
            self.assertGreater(row["loaded"], 0, name)
            self.assertLessEqual(row["loaded"], cold[name]["built"], name)
        self.assertSameResults(cold, warm)

    def test_turned_off_builds_from_source_and_writes_nothing(self):
        rows = session(self.cache, GPUMESH_PROGRAM_CACHE="0")
        self.assertGreater(rows["GPUCellReduction"]["built"], 0)
        self.assertFalse(os.path.exists(self.cache))
        self.assertEqual(session(self.cache, GPUMESH_PROGRAM_CACHE="0")["GPUCellReduction"]["loaded"], 0)

    def test_damaged_cache_and_unwritable_folder_build_from_source(self):
        reference = session(self.cache)
        for index, path in enumerate(sorted(binaries(self.cache))):
            with open(path, "r+b") as damaged:
                if index % 2:
                    damaged.truncate(os.path.getsize(path) // 3)
                else:
                    damaged.seek(os.path.getsize(path) // 2)
                    damaged.write(b"\xff" * 64)
        rebuilt = session(self.cache)
        for name, row in rebuilt.items():
            self.assertEqual(row["loaded"], 0, name)
            self.assertGreater(row["built"], 0, name)
        self.assertSameResults(reference, rebuilt)

        # A folder below a plain file can be neither created nor written, even by root.
        blocker = os.path.join(self.folder, "file")
        with open(blocker, "w") as out:
            out.write("not a folder")
        unwritable = session(os.path.join(blocker, "cache"))
        self.assertGreater(unwritable["GPUCellReduction"]["built"], 0)
        self.assertSameResults(reference, unwritable)


if __name__ == "__main__":
    unittest.main()
