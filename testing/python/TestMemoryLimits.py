"""A device's memory limits (PoCL under POCL_MEMORY_LIMIT=1: 1 GiB of global memory, 256 MiB at
most in one buffer): a buffer over the largest allocation, read in place or not, and a run that
would hold more than the global memory are errors naming the buffer or the mesh, its size, the
device's global memory and largest allocation, and what to do; never a bare OpenCL status or a
run that carries on. Each case runs in a fresh pvpython with the limit set."""
import os
import shutil
import subprocess
import unittest

CHILD = r"""
import sys
import numpy as np
from paraview import simple
from vtkmodules.util.numpy_support import numpy_to_vtk
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import VTK_TRIANGLE, vtkCellArray, vtkUnstructuredGrid
import gpumesh_testing as gt
gt.load_plugin()

def grid_of(points, triangles):
    grid = vtkUnstructuredGrid()
    xyz = vtkPoints()
    xyz.SetData(numpy_to_vtk(points, deep=1))
    grid.SetPoints(xyz)
    cells = vtkCellArray()
    cells.SetData(numpy_to_vtk(np.arange(0, 3 * len(triangles) + 1, 3, dtype=np.int64), deep=1),
                  numpy_to_vtk(triangles.ravel(), deep=1))
    grid.SetCells(VTK_TRIANGLE, cells)
    return grid

case = sys.argv[1]
if case == "points":
    # 12M double points (288 MB), read in place: over the 256 MiB of one buffer.
    points = np.zeros((12_000_000, 3))
    points[1, 0] = points[2, 1] = 1.0
    grid, name, properties = grid_of(points, np.array([(0, 1, 2)], dtype=np.int64)), "GPUCellReduction", {}
else:
    # A strip of 2 x 3M triangles: each buffer fits in 256 MiB, all of them together not in 1 GiB
    # (WindowedSinc's four states of 16 bytes per point beside the neighbour table).
    n = 3_000_000
    x = np.arange(n + 1, dtype=np.float64)
    points = np.concatenate([np.column_stack([x, np.zeros_like(x), np.zeros_like(x)]),
                             np.column_stack([x, np.ones_like(x), np.zeros_like(x)])])
    i = np.arange(n, dtype=np.int64)
    triangles = np.concatenate([np.column_stack([i, i + 1, i + n + 1]), np.column_stack([i, i + n + 1, i + n + 2])])
    grid, name, properties = grid_of(points, triangles), "GPUVertexSmoothing", {"Iterations": 1, "Method": "WindowedSinc"}
with gt.CapturedErrors() as errors:
    result = gt.fetch(getattr(simple, name)(Input=gt.producer(grid), Device="cpu", **properties))
print("CELLS", result.GetNumberOfCells())
print("ERRORS", errors.text)
"""


def run_child(case):
    environment = dict(os.environ, POCL_MEMORY_LIMIT="1")
    environment.pop("GPUMESH_DEVICE", None)
    done = subprocess.run([shutil.which("pvpython") or "pvpython", "-c", CHILD, case], env=environment,
                          capture_output=True, text=True, timeout=240)
    if done.returncode:
        raise AssertionError("pvpython failed:\n" + done.stdout + done.stderr)
    return done.stdout


class MemoryLimits(unittest.TestCase):
    LIMITS = ("1073741824 bytes (1 GiB) of global memory", "268435456 bytes (256 MiB) in one buffer",
              "Use a smaller mesh", "choose another device")

    def check(self, output, words):
        self.assertIn("CELLS 0", output)
        for word in words + self.LIMITS:
            self.assertIn(word, output)

    def test_a_buffer_read_in_place_over_the_largest_allocation(self):
        self.check(run_child("points"), ("'points' needs 288000000 bytes", "more than its largest allocation"))

    def test_a_run_over_the_global_memory(self):
        self.check(run_child("strip"), ("more than its global memory leaves", "this process holds"))


if __name__ == "__main__":
    unittest.main()
