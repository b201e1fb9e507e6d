#!/usr/bin/env python3
"""GPU Longest Edge Refinement against DOLFINx's refinement (dolfinx.mesh.refine, Plaza's
algorithm; Debian's python3-dolfinx 0.5.2, a benchmark dependency only) on the same mesh with
the same marks: for DOLFINx, the longest edge of each marked cell, so both start from the same
marked edges. Each timing is a fresh process; the refinement alone is timed inside it (ours: the
VTK filter end to end, a vtkUnstructuredGrid in and out, after a warm-up on a small mesh of the
same kind that builds the OpenCL programs; DOLFINx: refine(), the marked edges computed before
the timer). Also the quality: the smallest dihedral angle (tetrahedra) or angle
(triangles) after 1, 5 and 10 uniform passes, both tools from the same small mesh.

    /usr/bin/python3 bench_refinement_dolfinx.py --plugin build/lib/paraview-5.11/plugins/GPUMesh/GPUMesh.so \\
        [--runs 5] [--cells 1000000] [--kinds tetrahedra,triangles] [--fractions 0.001,1] [--quality]

Meshes: a jittered grid of cubes cut into 6 Kuhn tetrahedra each, or of squares cut into 2
triangles each (interior points moved by up to 0.2 of the spacing, seed 1); marks: cells whose
uniform random number (seed 2) is below the fraction. Prints one JSON line per run and a
markdown table of medians (min-max).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def kuhn_tetrahedra(n, seed=1, jitter=0.2):
    rng = np.random.default_rng(seed)
    i, j, k = np.meshgrid(np.arange(n + 1), np.arange(n + 1), np.arange(n + 1), indexing="ij")
    points = np.stack([i.ravel(order="F"), j.ravel(order="F"), k.ravel(order="F")], axis=1).astype(float)
    inside = np.all((points > 0) & (points < n), axis=1)
    points[inside] += rng.uniform(-jitter, jitter, (int(inside.sum()), 3))
    index = lambda a, b, c: (c * (n + 1) + b) * (n + 1) + a
    a, b, c = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    a, b, c = a.ravel(order="F"), b.ravel(order="F"), c.ravel(order="F")
    cells = []
    for path in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        corner = [a.copy(), b.copy(), c.copy()]
        tet = [index(*corner)]
        for axis in path:
            corner[axis] = corner[axis] + 1
            tet.append(index(*corner))
        cells.append(np.stack(tet, axis=1))
    cells = np.stack(cells, axis=1).reshape(-1, 4)
    p = points[cells]
    volume = np.einsum("ij,ij->i", p[:, 1] - p[:, 0], np.cross(p[:, 2] - p[:, 0], p[:, 3] - p[:, 0]))
    cells[volume < 0] = cells[volume < 0][:, [0, 1, 3, 2]]
    return points, cells.astype(np.int64)


def jittered_triangles(n, seed=1, jitter=0.2):
    rng = np.random.default_rng(seed)
    i, j = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    points = np.stack([i.ravel(order="F"), j.ravel(order="F"), np.zeros(i.size)], axis=1).astype(float)
    inside = np.all((points[:, :2] > 0) & (points[:, :2] < n), axis=1)
    points[inside, :2] += rng.uniform(-jitter, jitter, (int(inside.sum()), 2))
    index = lambda a, b: b * (n + 1) + a
    a, b = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    a, b = a.ravel(order="F"), b.ravel(order="F")
    first = np.stack([index(a, b), index(a + 1, b), index(a + 1, b + 1)], axis=1)
    second = np.stack([index(a, b), index(a + 1, b + 1), index(a, b + 1)], axis=1)
    return points, np.stack([first, second], axis=1).reshape(-1, 3).astype(np.int64)


def make_mesh(kind, cells, path):
    if kind == "tetrahedra":
        points, connectivity = kuhn_tetrahedra(max(1, round((cells / 6) ** (1 / 3))))
    else:
        points, connectivity = jittered_triangles(max(1, round((cells / 2) ** 0.5)))
    np.savez(path, points=points, cells=connectivity)


def marks_of(count, fraction):
    return np.random.default_rng(2).random(count) < fraction


def smallest_angle_degrees(points, cells):
    """Tetrahedra: the smallest dihedral angle; triangles: the smallest angle."""
    p = points[cells]
    if cells.shape[1] == 3:
        smallest = np.pi
        for k in range(3):
            u, v = p[:, (k + 1) % 3] - p[:, k], p[:, (k + 2) % 3] - p[:, k]
            cosine = np.einsum("ij,ij->i", u, v) / (np.linalg.norm(u, axis=1) * np.linalg.norm(v, axis=1))
            smallest = min(smallest, float(np.arccos(np.clip(cosine, -1, 1)).min()))
        return np.degrees(smallest)
    faces = [(0, 1, 3), (1, 2, 3), (2, 0, 3), (0, 2, 1)]
    normals = []
    for f in faces:
        n = np.cross(p[:, f[1]] - p[:, f[0]], p[:, f[2]] - p[:, f[0]])
        normals.append(n / np.linalg.norm(n, axis=1)[:, None])
    smallest = np.pi
    for a in range(4):
        for b in range(a + 1, 4):
            cosine = np.clip(np.einsum("ij,ij->i", normals[a], normals[b]), -1, 1)
            smallest = min(smallest, float((np.pi - np.arccos(cosine)).min()))
    return np.degrees(smallest)


# ---- GPUMesh (runs under pvpython) ------------------------------------------------------------

def run_gpumesh(mesh_path, fraction, passes, plugin, quality):
    from paraview import simple
    from vtkmodules.util import numpy_support
    from vtkmodules.vtkCommonCore import vtkPoints
    from vtkmodules.vtkCommonDataModel import VTK_TETRA, VTK_TRIANGLE, vtkCellArray, vtkUnstructuredGrid
    simple.LoadPlugin(plugin, remote=False, ns=vars(simple))

    def refinement(points, cells):
        grid = vtkUnstructuredGrid()
        vtk_points = vtkPoints()
        vtk_points.SetData(numpy_support.numpy_to_vtk(points, deep=1))
        grid.SetPoints(vtk_points)
        cell_array = vtkCellArray()
        cell_array.SetData(
            numpy_support.numpy_to_vtkIdTypeArray(np.arange(0, per_cell * (len(cells) + 1), per_cell), deep=1),
            numpy_support.numpy_to_vtkIdTypeArray(cells.ravel(), deep=1))
        grid.SetCells(VTK_TETRA if per_cell == 4 else VTK_TRIANGLE, cell_array)
        marks = numpy_support.numpy_to_vtk(marks_of(len(cells), fraction).astype(np.float64), deep=1)
        marks.SetName("Mark")
        grid.GetCellData().AddArray(marks)
        source = simple.TrivialProducer()
        source.GetClientSideObject().SetOutput(grid)
        source.UpdatePipeline()
        properties = dict(RefineAll=1) if fraction >= 1 else dict(MarkArray=["CELLS", "Mark"])
        return simple.GPULongestEdgeRefinement(Input=source, Passes=passes, Precision="Double", **properties)

    data = np.load(mesh_path)
    points, cells = data["points"], data["cells"]
    per_cell = cells.shape[1]
    # Warm-up on a small mesh of the same kind (20,000 cells: enough for every multi-level path,
    # e.g. scans of more than one chunk): the OpenCL programs are built outside the timer.
    small = kuhn_tetrahedra(15) if per_cell == 4 else jittered_triangles(100)
    refinement(*small).UpdatePipeline()
    refine = refinement(points, cells)
    start = time.perf_counter()
    refine.UpdatePipeline()
    seconds = time.perf_counter() - start
    output = refine.GetClientSideObject().GetOutputDataObject(0)
    result = {"cells_out": output.GetNumberOfCells(), "seconds": seconds,
              "device": output.GetFieldData().GetAbstractArray("Device").GetValue(0)}
    if quality:
        out_points = numpy_support.vtk_to_numpy(output.GetPoints().GetData()).astype(np.float64)
        out_cells = numpy_support.vtk_to_numpy(output.GetCells().GetConnectivityArray()).reshape(-1, per_cell)
        result["smallest_angle"] = smallest_angle_degrees(out_points, out_cells)
    return result


# ---- DOLFINx (runs under /usr/bin/python3) -----------------------------------------------------

def longest_edges(mesh, marked_cells):
    dim = mesh.topology.dim
    mesh.topology.create_connectivity(dim, 1)
    mesh.topology.create_connectivity(1, 0)
    cell_edges = mesh.topology.connectivity(dim, 1)
    edges = np.array([cell_edges.links(c) for c in marked_cells], dtype=np.int32).reshape(len(marked_cells), -1)
    # Topology vertex -> geometry node (P1: the same local order in both per cell).
    cell_vertices = mesh.topology.connectivity(dim, 0).array.reshape(-1, dim + 1)
    node = np.empty(cell_vertices.max() + 1, dtype=np.int64)
    node[cell_vertices.ravel()] = mesh.geometry.dofmap.array.reshape(-1, dim + 1).ravel()
    ends = node[mesh.topology.connectivity(1, 0).array.reshape(-1, 2)[edges]]
    x = mesh.geometry.x
    length = np.linalg.norm(x[ends[..., 1]] - x[ends[..., 0]], axis=-1)
    return np.unique(edges[np.arange(len(edges)), np.argmax(length, axis=1)]).astype(np.int32)


def run_dolfinx(mesh_path, fraction, passes, quality):
    import dolfinx.mesh
    import ufl
    from mpi4py import MPI
    data = np.load(mesh_path)
    points, cells = data["points"], data["cells"]
    shape = ufl.tetrahedron if cells.shape[1] == 4 else ufl.triangle
    gdim = 3 if cells.shape[1] == 4 else 2
    domain = ufl.Mesh(ufl.VectorElement("Lagrange", shape, 1))
    mesh = dolfinx.mesh.create_mesh(MPI.COMM_WORLD, cells, points[:, :gdim].copy(), domain)
    original = np.asarray(mesh.topology.original_cell_index)
    marked = marks_of(len(cells), fraction)[original]
    seconds = 0.0
    for _ in range(passes):
        # Uniform passes mark every cell again; a marked fraction is one pass.
        edges = longest_edges(mesh, np.nonzero(marked)[0] if fraction < 1 else np.arange(len(marked)))
        start = time.perf_counter()
        mesh = dolfinx.mesh.refine(mesh, edges, redistribute=False)
        seconds += time.perf_counter() - start
        marked = np.ones(mesh.topology.index_map(mesh.topology.dim).size_local, dtype=bool)
    count = mesh.topology.index_map(mesh.topology.dim).size_local
    result = {"cells_out": int(count), "seconds": seconds}
    if quality:
        x = mesh.geometry.x
        geometry = mesh.geometry.dofmap.array.reshape(count, -1)
        pts = x if gdim == 3 else np.column_stack([x[:, :2], np.zeros(len(x))])
        result["smallest_angle"] = smallest_angle_degrees(pts, geometry)
    return result


# ---- Driver --------------------------------------------------------------------------------------

def fresh_run(tool, mesh_path, fraction, passes, plugin, quality):
    script = os.path.abspath(__file__)
    interpreter = ["pvpython"] if tool == "gpumesh" else ["/usr/bin/python3"]
    command = interpreter + [script, "--tool", tool, "--mesh", mesh_path, "--fraction", str(fraction),
                             "--passes", str(passes), "--plugin", plugin] + (["--quality"] if quality else [])
    done = subprocess.run(command, capture_output=True, text=True)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError("%s failed (exit %d): %s" % (" ".join(command), done.returncode, done.stderr[-2000:]))
    return json.loads(lines[-1])


def spread(values):
    return "%.3g (%.3g-%.3g)" % (statistics.median(values), min(values), max(values))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tool", choices=["gpumesh", "dolfinx"], help="(internal) one run in this process")
    parser.add_argument("--mesh")
    parser.add_argument("--fraction", type=float, default=0.001)
    parser.add_argument("--passes", type=int, default=1)
    parser.add_argument("--plugin", default="build/lib/paraview-5.11/plugins/GPUMesh/GPUMesh.so")
    parser.add_argument("--quality", action="store_true")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cells", type=int, default=1000000)
    parser.add_argument("--kinds", default="tetrahedra,triangles")
    parser.add_argument("--fractions", default="0.001,1")
    args = parser.parse_args()
    plugin = os.path.abspath(args.plugin)
    if args.tool:
        run = run_gpumesh if args.tool == "gpumesh" else run_dolfinx
        extra = (plugin,) if args.tool == "gpumesh" else ()
        print(json.dumps(run(args.mesh, args.fraction, args.passes, *extra, args.quality)), flush=True)
        return 0
    folder = tempfile.mkdtemp(prefix="gpumesh-dolfinx-")
    rows = []
    if args.quality:
        print("| mesh | passes | tool | cells out | smallest angle (deg) |")
        print("| --- | ---: | --- | ---: | ---: |")
        for kind in args.kinds.split(","):
            path = os.path.join(folder, "quality_%s.npz" % kind)
            make_mesh(kind, 48 if kind == "tetrahedra" else 32, path)
            start = smallest_angle_degrees(np.load(path)["points"], np.load(path)["cells"])
            print("| %s | 0 | - | %d | %.2f |" % (kind, len(np.load(path)["cells"]), start))
            for passes in (1, 5, 10):
                for tool in ("gpumesh", "dolfinx"):
                    r = fresh_run(tool, path, 1.0, passes, plugin, True)
                    print("| %s | %d | %s | %d | %.2f |" % (kind, passes, tool, r["cells_out"], r["smallest_angle"]),
                          flush=True)
        return 0
    for kind in args.kinds.split(","):
        path = os.path.join(folder, "%s.npz" % kind)
        make_mesh(kind, args.cells, path)
        cells_in = len(np.load(path)["cells"])
        for fraction in (float(f) for f in args.fractions.split(",")):
            times = {}
            for tool in ("gpumesh", "dolfinx"):
                results = []
                for _ in range(args.runs):
                    r = fresh_run(tool, path, fraction, 1, plugin, False)
                    r.update(tool=tool, kind=kind, cells_in=cells_in, fraction=fraction)
                    print(json.dumps(r), flush=True)
                    results.append(r)
                times[tool] = [r["seconds"] for r in results]
                rows.append((kind, cells_in, fraction, tool, results[0]["cells_out"], times[tool],
                             results[0].get("device", "CPU (DOLFINx, 1 process)")))
            rows.append((kind, cells_in, fraction, "ratio", None,
                          [statistics.median(times["dolfinx"]) / statistics.median(times["gpumesh"])], None))
    print("\n| mesh | cells in | marked | tool | cells out | seconds, median (min-max) | device |")
    print("| --- | ---: | ---: | --- | ---: | ---: | --- |")
    for kind, cells_in, fraction, tool, cells_out, times, device in rows:
        if tool == "ratio":
            print("| %s | %d | %g%% | DOLFINx / GPUMesh | | %.2fx | |" % (kind, cells_in, 100 * fraction, times[0]))
        else:
            print("| %s | %d | %g%% | %s | %d | %s | %s |" % (kind, cells_in, 100 * fraction, tool, cells_out,
                                                             spread(times), device))
    return 0


if __name__ == "__main__":
    sys.exit(main())
