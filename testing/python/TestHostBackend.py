"""The filters' host loops run multi-threaded in a user's default set-up: a pvpython from Debian
runs vtkSMPTools on its Sequential backend unless VTK_SMP_BACKEND_IN_USE says otherwise, and
the filters then use STDThread for their own loops (field data HostBackend, HostThreads); a
backend the user chose is kept. Each case runs in a fresh pvpython."""
import os
import shutil
import subprocess
import sys
import unittest

CHILD = r"""
from paraview import simple
import gpumesh_testing as gt
gt.load_plugin()
triangles = simple.Triangulate(Input=simple.Sphere())
for name in ("GPUCellReduction", "GPUNeighborDistance", "GPUVertexSmoothing"):
    fields = gt.fetch(getattr(simple, name)(Input=triangles)).GetFieldData()
    print(name, fields.GetAbstractArray("HostBackend").GetValue(0), int(fields.GetArray("HostThreads").GetTuple1(0)))
"""


def run_child(backend):
    environment = dict(os.environ)
    environment.pop("VTK_SMP_BACKEND_IN_USE", None)
    if backend:
        environment["VTK_SMP_BACKEND_IN_USE"] = backend
    done = subprocess.run([shutil.which("pvpython") or "pvpython", "-c", CHILD], env=environment, capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise AssertionError("pvpython failed:\n" + done.stdout + done.stderr)
    return [line.split() for line in done.stdout.splitlines() if line.startswith("GPU")]


class HostBackend(unittest.TestCase):
    def test_default_set_up_runs_host_loops_on_threads(self):
        rows = run_child(None)
        self.assertEqual(len(rows), 3)
        for name, backend, threads in rows:
            self.assertEqual(backend, "STDThread", name)
            self.assertGreaterEqual(int(threads), 1, name)

    def test_a_chosen_backend_is_kept(self):
        for name, backend, threads in run_child("Sequential"):
            self.assertEqual((backend, int(threads)), ("Sequential", 1), name)


if __name__ == "__main__":
    unittest.main()
