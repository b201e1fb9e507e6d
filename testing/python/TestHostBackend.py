"""The filters' host loops run multi-threaded in a user's default set-up: a pvpython from Debian
runs vtkSMPTools on its Sequential backend unless VTK_SMP_BACKEND_IN_USE says otherwise, and
the filters then use STDThread for their own loops (field data HostBackend, HostThreads); a
backend the user chose is kept. Under MPI the processes of a node share its cores instead of
each starting a thread per core: their host loops take a share of the threads, and a CPU
OpenCL device they share is divided into parts, one per process (DeviceComputeUnits,
DeviceFirstComputeUnit), unless the user set the thread counts. Each case runs in a fresh
pvpython (or mpiexec pvbatch)."""
import os
import shutil
import subprocess
import sys
import tempfile
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


# Every process's piece of a sphere (a source that makes pieces) through one filter.
MPI_CHILD = r"""
from paraview import servermanager, simple
import gpumesh_testing as gt
gt.load_plugin()
reduction = simple.GPUCellReduction(Input=simple.Triangulate(Input=simple.Sphere(ThetaResolution=64, PhiResolution=64)))
reduction.UpdatePipeline()
for rank in range(servermanager.ActiveConnection.GetNumberOfDataPartitions()):
    fields = servermanager.Fetch(reduction, rank).GetFieldData()
    print("rank", rank, fields.GetAbstractArray("HostBackend").GetValue(0), int(fields.GetArray("HostThreads").GetTuple1(0)),
          int(fields.GetArray("DeviceFirstComputeUnit").GetTuple1(0)), int(fields.GetArray("DeviceComputeUnits").GetTuple1(0)),
          fields.GetAbstractArray("Device").GetValue(0).replace(" ", "_"))
"""


def run_mpi_child(processes, max_threads=None, pocl_threads=None):
    # Without the variables of an MPI singleton this pvpython may have started (a nested
    # mpiexec refuses to run under them).
    environment = {name: value for name, value in os.environ.items()
                   if name in ("OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM")
                   or not name.startswith(("OMPI_", "PMIX_", "OPAL_"))}
    environment.pop("VTK_SMP_BACKEND_IN_USE", None)
    environment.pop("VTK_SMP_MAX_THREADS", None)
    environment.pop("POCL_MAX_PTHREAD_COUNT", None)
    environment.pop("POCL_CPU_MAX_CU_COUNT", None)
    environment.pop("GPUMESH_DEVICE", None)
    if max_threads:
        environment["VTK_SMP_MAX_THREADS"] = str(max_threads)
    if pocl_threads:
        environment["POCL_MAX_PTHREAD_COUNT"] = str(pocl_threads)
    with tempfile.NamedTemporaryFile("w", suffix=".py") as script:
        script.write(MPI_CHILD)
        script.flush()
        done = subprocess.run([os.environ.get("GPUMESH_MPIEXEC", "mpiexec"), "--oversubscribe", "-np", str(processes),
                               shutil.which("pvbatch") or "pvbatch", script.name],
                              env=environment, capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise AssertionError("mpiexec pvbatch failed:\n" + done.stdout + done.stderr)
    return [line.split() for line in done.stdout.splitlines() if line.startswith("rank")]


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

    def test_processes_of_one_node_share_its_cores(self):
        cores = os.cpu_count()
        rows = run_mpi_child(2)
        self.assertEqual(len(rows), 2)
        for _, rank, backend, threads, *_ in rows:
            self.assertEqual((backend, int(threads)), ("STDThread", max(1, cores // 2)), "rank " + rank)
        # A number the user gives stays (here every core, where the share would be half).
        for _, rank, backend, threads, *_ in run_mpi_child(2, max_threads=cores):
            self.assertEqual(int(threads), cores, "rank " + rank)

    def test_processes_of_one_node_take_disjoint_parts_of_the_cpu_device(self):
        # PoCL's device has a compute unit per hardware thread unless told otherwise.
        cores = os.cpu_count()
        self.assertGreaterEqual(cores, 2, "the test needs at least 2 cores")
        parts = sorted((int(first), int(count), device) for _, _, _, _, first, count, device in run_mpi_child(2))
        self.assertEqual(len(parts), 2)
        (first0, count0, device0), (first1, count1, device1) = parts
        self.assertEqual((first0, first1, count0 + count1), (0, count0, cores), parts)
        self.assertEqual(abs(count0 - count1), cores % 2, parts)
        for first, count, device in parts:
            self.assertIn("compute_unit", device, "the Device field names the part")
        # Every process the whole device the user sized through PoCL's own variable.
        for _, rank, _, _, first, count, device in run_mpi_child(2, pocl_threads=1):
            self.assertEqual((int(first), int(count)), (0, 1), "rank " + rank)
            self.assertNotIn("compute_unit", device, "rank " + rank)

    def test_a_chosen_backend_is_kept(self):
        for name, backend, threads in run_child("Sequential"):
            self.assertEqual((backend, int(threads)), ("Sequential", 1), name)


if __name__ == "__main__":
    unittest.main()
