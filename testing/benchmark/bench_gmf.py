"""GMF reading and writing against meshio and against reading the same mesh from a .vtu.

One operation per process, so that every run is fresh; each prints its own time of the
operation alone ("seconds=..."), start-up and the untimed preparation left out:

    python3  bench_gmf.py make DIR N          # DIR/tri.meshb (meshio)
    pvpython bench_gmf.py write-vtu IN OUT    # preparation: the .vtu of the same mesh
    pvpython bench_gmf.py read-gmf FILE       # vtkGMFReader
    pvpython bench_gmf.py write-gmf IN OUT    # vtkGMFWriter (IN read first, untimed)
    pvpython bench_gmf.py read-vtu FILE       # vtkXMLUnstructuredGridReader
    python3  bench_gmf.py meshio-read FILE
    python3  bench_gmf.py meshio-write IN OUT # (IN read first, untimed)

The mesh of `make`: an N x N grid of squares, each split into 2 triangles, with references.
"""
import os
import sys
import time


def load_plugin():
    from paraview import simple
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
    import gpumesh_plugin
    gpumesh_plugin.load(vars(simple))
    return simple


def gmf_reader(path):
    simple = load_plugin()
    # The VTK object behind the proxy: only the reader runs, no ParaView data information.
    return simple.GMFMeshReader(FileName=path).GetClientSideObject()


class Timer:
    """Wall and CPU seconds of the operation alone (CPU time does not count the waits of a busy
    machine; every timed operation here runs on one thread)."""

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu


def report(timer, cells):
    print("seconds=%.4f cpu_seconds=%.4f cells=%d" % (timer.wall, timer.cpu, cells))


def make(directory, n):
    import meshio
    import numpy as np
    os.makedirs(directory, exist_ok=True)
    x, y = np.meshgrid(np.linspace(0, 1, n + 1), np.linspace(0, 1, n + 1))
    points = np.stack([x.ravel(), y.ravel(), np.sin(x.ravel() * 3) * 0.1], axis=1)
    del x, y
    corner = (np.arange(n)[:, None] * (n + 1) + np.arange(n)[None, :]).ravel().astype(np.int32)
    triangles = np.empty((2 * n * n, 3), dtype=np.int32)
    triangles[0::2] = np.stack([corner, corner + 1, corner + n + 2], axis=1)
    triangles[1::2] = np.stack([corner, corner + n + 2, corner + n + 1], axis=1)
    del corner
    mesh = meshio.Mesh(points, [("triangle", triangles)],
                       point_data={"medit:ref": (np.arange(len(points)) % 7).astype(np.int32)},
                       cell_data={"medit:ref": [(np.arange(len(triangles)) % 5).astype(np.int32)]})
    meshio.write(os.path.join(directory, "tri.meshb"), mesh, file_format="medit")


def main():
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "make":
        make(arguments[0], int(arguments[1]))
    elif command == "read-gmf":
        reader = gmf_reader(arguments[0])
        with Timer() as timer:
            reader.Update()
        report(timer, reader.GetOutput().GetNumberOfCells())
    elif command == "write-gmf":
        reader = gmf_reader(arguments[0])
        reader.Update()
        from paraview import servermanager
        core = servermanager.ProxyManager().NewProxy("internal_writers", "GMFWriterCore")
        core.GetProperty("FileName").SetElement(0, arguments[1])
        core.UpdateVTKObjects()
        writer = core.GetClientSideObject()  # vtkGMFWriter itself
        writer.SetInputData(reader.GetOutput())
        with Timer() as timer:
            writer.Write()
        report(timer, reader.GetOutput().GetNumberOfCells())
    elif command == "write-vtu":  # preparation: the .vtu of the same mesh, as ParaView writes it
        from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridWriter
        reader = gmf_reader(arguments[0])
        reader.Update()
        writer = vtkXMLUnstructuredGridWriter()
        writer.SetInputData(reader.GetOutput())
        writer.SetFileName(arguments[1])
        writer.Write()
    elif command == "read-vtu":
        from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader
        reader = vtkXMLUnstructuredGridReader()
        reader.SetFileName(arguments[0])
        with Timer() as timer:
            reader.Update()
        report(timer, reader.GetOutput().GetNumberOfCells())
    elif command == "meshio-read":
        import meshio
        with Timer() as timer:
            mesh = meshio.read(arguments[0], file_format="medit")
        report(timer, sum(len(block.data) for block in mesh.cells))
    elif command == "meshio-write":
        import meshio
        mesh = meshio.read(arguments[0], file_format="medit")
        with Timer() as timer:
            meshio.write(arguments[1], mesh, file_format="medit")
        report(timer, sum(len(block.data) for block in mesh.cells))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
