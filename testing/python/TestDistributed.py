"""The GPUMesh filters under ParaView's MPI engine give the serial results.

    pvpython TestDistributed.py --reference DIR
        serial runs of every case, written to DIR; then checks that the comparison below
        catches a per-piece result (each half of the mesh filtered on its own);
    mpiexec -np N pvbatch TestDistributed.py --compare DIR
            [--layout redistribute|one-empty|one-process|ghost-cells|reversed-points] [--cases a,b]
        the same cases on N processes, compared with DIR: redistribute = Redistribute DataSet
        over all processes; one-empty = Redistribute DataSet into N - 1 pieces, one process
        left empty; one-process = the reader's own partition of a one-piece file, where
        process 0 holds every cell and the others none; ghost-cells = Redistribute DataSet,
        then a layer of ghost cells on every piece (Ghost Cells Generator), which the filters
        must leave out (their outputs' owned cells are compared); reversed-points =
        Redistribute DataSet, then each piece's points in reverse order, so that global ids
        decrease with the piece's point ids (the refinement must then upload its tie ids, 8
        bytes a point, and only then: checked against the same pieces in their own order).

    pvpython TestDistributed.py --compare DIR --pvserver N [--cases a,b]
        the same through a client: starts `mpiexec -np N pvserver` on a free loopback port,
        connects, compares, disconnects and stops the server (everything bounded in time).

Cells and points are matched through ids generated before the partition (Generate Ids).
Counts must be exact, reductions within 1e-6 relative on every process, distances and points
within 1e-6 of the mesh diagonal.
"""
import argparse
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np
from paraview import servermanager
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonDataModel import vtkDataObject
from vtkmodules.vtkFiltersCore import vtkAppendFilter, vtkExtractCells
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader, vtkXMLUnstructuredGridWriter
from vtkmodules.vtkCommonCore import vtkIdList

import gpumesh_testing as gt

CELL_IDS = "CellIds"
POINT_IDS = "PointIds"
REDUCTION_FIELDS = ("Min", "Max", "Sum", "Mean", "L2", "L1", "Linf")
# Compared exactly, as Count.
EXACT_REDUCTION_FIELDS = ("Count", "L0")

# name: (mesh, filter, properties, what to compare)
CASES = {
    "reduction_plate_size": ("plate_with_holes.vtu", "GPUCellReduction", dict(Quantity="Size"), "reduction"),
    "reduction_ball_volume": ("ball_tets.vtu", "GPUCellReduction", dict(Quantity="Volume"), "reduction"),
    "neighbors_ball": ("ball_tets.vtu", "GPUNeighborDistance", dict(ComputeCentroids=1), "cells"),
    "neighbors_plate": ("plate_with_holes.vtu", "GPUNeighborDistance", {}, "cells"),
    "smoothing_plate_fixed": ("plate_with_holes.vtu", "GPUVertexSmoothing",
                              dict(Method="Laplacian", Boundary="Fixed", Iterations=10), "points"),
    "smoothing_plate_free_taubin": ("plate_with_holes.vtu", "GPUVertexSmoothing",
                                    dict(Method="Taubin", Boundary="Free", Iterations=5), "points"),
    "smoothing_ball_smooth_barycentric": ("ball_tets.vtu", "GPUVertexSmoothing",
                                          dict(Method="Barycentric", Boundary="Smooth", Iterations=5),
                                          "points"),
    # The inversion guard (on by default for tetrahedra) shortens moves in many steps here: its
    # decisions, and the count of shortened moves on every process, must be the serial ones.
    "smoothing_shell_guard_laplacian": ("shell_tets.vtu", "GPUVertexSmoothing",
                                        dict(Method="Laplacian", Boundary="Fixed", Iterations=30), "points"),
    "smoothing_shell_guard_taubin_fraction": ("shell_tets.vtu", "GPUVertexSmoothing",
                                              dict(Method="Taubin", Boundary="Fixed", Iterations=10,
                                                   PreventInversion="On", MinimumVolumeFraction=0.5), "points"),
    # Feature edges (a low FeatureAngle finds some on a sphere): on the boundary faces of a
    # volume, on a closed surface, and on a surface with its boundary edges followed (the holes'
    # outlines, fixed where they turn by more than EdgeAngle).
    "smoothing_ball_features": ("ball_tets.vtu", "GPUVertexSmoothing",
                                dict(Method="Laplacian", Boundary="Smooth", Iterations=10, FeatureEdgeSmoothing=1,
                                     FeatureAngle=8), "points"),
    "smoothing_sphere_features_taubin": ("sphere_surface.vtu", "GPUVertexSmoothing",
                                         dict(Method="Taubin", Boundary="Free", Iterations=5, FeatureEdgeSmoothing=1,
                                              FeatureAngle=5), "points"),
    "smoothing_plate_features_boundary": ("plate_with_holes.vtu", "GPUVertexSmoothing",
                                          dict(Method="Barycentric", Boundary="Smooth", Iterations=10,
                                               FeatureEdgeSmoothing=1, EdgeAngle=12), "points"),
    # WindowedSinc: three states and the weighted sum per point, the sums of the points other
    # processes own exchanged at the end; the gain about the origin or the global bounds' centre.
    "smoothing_sphere_windowed_sinc": ("sphere_surface.vtu", "GPUVertexSmoothing",
                                       dict(Method="WindowedSinc", Boundary="Free", Iterations=20), "points"),
    "smoothing_plate_windowed_sinc_features": ("plate_with_holes.vtu", "GPUVertexSmoothing",
                                               dict(Method="WindowedSinc", Boundary="Smooth", Iterations=15,
                                                    FeatureEdgeSmoothing=1, EdgeAngle=8, NormalizeCoordinates=1),
                                               "points"),
    "smoothing_ball_windowed_sinc": ("ball_tets.vtu", "GPUVertexSmoothing",
                                     dict(Method="WindowedSinc", Boundary="Fixed", Iterations=10, PassBand=0.2,
                                          NormalizeCoordinates=1), "points"),
    # NonManifoldSmoothing: sheets meeting along a line; the weighted rows of the non-manifold
    # points must see every face around them, the ghost layer's too.
    "smoothing_sheets_windowed_sinc_non_manifold": ("nonmanifold_sheets.vtu", "GPUVertexSmoothing",
                                                    dict(Method="WindowedSinc", Boundary="Smooth", Iterations=15,
                                                         NonManifoldSmoothing=1), "points"),
    "smoothing_sheets_laplacian_non_manifold": ("nonmanifold_sheets.vtu", "GPUVertexSmoothing",
                                                dict(Method="Laplacian", Boundary="Fixed", Iterations=10,
                                                     NonManifoldSmoothing=1), "points"),
    "refinement_plate_marked": ("plate_with_holes.vtu", "GPULongestEdgeRefinement",
                                dict(MarkArray=["CELLS", "Size"], MarkThreshold=0.0015), "mesh"),
    "refinement_sphere_all": ("sphere_surface.vtu", "GPULongestEdgeRefinement", dict(RefineAll=1), "mesh"),
    "refinement_ball_marked": ("ball_tets.vtu", "GPULongestEdgeRefinement",
                               dict(MarkArray=["CELLS", "Size"], MarkThreshold=0.0009), "mesh"),
    # Passes > 1: each pass conforms across processes; the new points' global ids and the cut
    # are renewed between passes, and ties between new points go as in serial.
    "refinement_plate_marked_passes2": ("plate_with_holes.vtu", "GPULongestEdgeRefinement",
                                        dict(MarkArray=["CELLS", "Size"], MarkThreshold=0.0015, Passes=2), "mesh"),
    "refinement_plate_marked_passes3": ("plate_with_holes.vtu", "GPULongestEdgeRefinement",
                                        dict(MarkArray=["CELLS", "Size"], MarkThreshold=0.0015, Passes=3), "mesh"),
    "refinement_sphere_all_passes3": ("sphere_surface.vtu", "GPULongestEdgeRefinement",
                                      dict(RefineAll=1, Passes=3), "mesh"),
    "refinement_ball_marked_passes2": ("ball_tets.vtu", "GPULongestEdgeRefinement",
                                       dict(MarkArray=["CELLS", "Size"], MarkThreshold=0.0009, Passes=2), "mesh"),
    "refinement_ball_marked_passes3": ("ball_tets.vtu", "GPULongestEdgeRefinement",
                                       dict(MarkArray=["CELLS", "Size"], MarkThreshold=0.0009, Passes=3), "mesh"),
    "refinement_ball_all_generated_ids": ("ball_tets.vtu", "GPULongestEdgeRefinement", dict(RefineAll=1),
                                          "conforming"),
    # Generated global ids: ties may go another way than in serial, but the pieces conform.
    "refinement_sphere_generated_ids": ("sphere_surface.vtu", "GPULongestEdgeRefinement", dict(RefineAll=1),
                                        "conforming"),
    "refinement_sphere_generated_ids_passes2": ("sphere_surface.vtu", "GPULongestEdgeRefinement",
                                                dict(RefineAll=1, Passes=2), "conforming"),
    # The input's own global point ids (Generate Global Ids after the partition) are used.
    "smoothing_sphere_input_global_ids": ("sphere_surface.vtu", "GPUVertexSmoothing",
                                          dict(Method="Laplacian", Boundary="Fixed", Iterations=8),
                                          "points"),
    # Double points in Single precision: every process must shift them by the serial origin.
    "reduction_plate_size_single": ("plate_with_holes.vtu", "GPUCellReduction",
                                    dict(Quantity="Size", Precision="Single"), "reduction"),
    "smoothing_ball_fixed_single": ("ball_tets.vtu", "GPUVertexSmoothing",
                                    dict(Method="Laplacian", Boundary="Fixed", Iterations=10,
                                         Precision="Single"), "points"),
    "refinement_sphere_all_single": ("sphere_surface.vtu", "GPULongestEdgeRefinement",
                                     dict(RefineAll=1, Precision="Single"), "mesh"),
    # User-written kernels: the neighbours across every face (their global ids summed) and the
    # points joined by an edge and the cells around each point, through the ghost layer.
    "kernel_ball_neighbours": ("ball_tets.vtu", "GPUMeshKernel",
                               dict(Domain="Cells", InputArrays=[CELL_IDS], ResultArrayName="Neighbours",
                                    ResultComponents=2, Reduction="Max",
                                    Kernel="REAL sum = 0;\nfor (int k = 0; k < neighbour_count; ++k)\n"
                                           "  sum += neighbours_CellIds(k);\nresult = (REAL2)(neighbour_count, sum);"),
                               "kernel_cells"),
    # The norm reductions at 1e30 and 1e-30 (zeros where a cell has 3 neighbours): L0 exact.
    "kernel_ball_l0_huge": ("ball_tets.vtu", "GPUMeshKernel",
                            dict(Domain="Cells", ResultArrayName="Huge", Reduction="L0",
                                 Kernel="result = 1e30 * (neighbour_count - 3);"), "kernel_cells"),
    "kernel_ball_l1_tiny": ("ball_tets.vtu", "GPUMeshKernel",
                            dict(Domain="Cells", ResultArrayName="Tiny", Reduction="L1",
                                 Kernel="result = 1e-30 * (neighbour_count - 3);"), "kernel_cells"),
    # Named parameters reach every process's kernel alike.
    "kernel_ball_parameters": ("ball_tets.vtu", "GPUMeshKernel",
                               dict(Domain="Cells", InputArrays=[CELL_IDS], ResultArrayName="Scaled",
                                    Parameters="scale=2.5;shift=-1", Reduction="Sum",
                                    Kernel="result = scale * neighbour_count + shift;"),
                               "kernel_cells"),
    "kernel_plate_relaxation": ("plate_with_holes.vtu", "GPUMeshKernel",
                                dict(ResultArrayName="Points", ResultComponents=3,
                                     Kernel="REAL3 mean = 0;\nfor (int k = 0; k < neighbour_count; ++k)\n"
                                            "  mean += neighbours_x(k);\n"
                                            "result = x + 0.5 * (mean / neighbour_count - x) + 1e-4 * cell_count;"),
                                "points"),
}
WITH_INPUT_GLOBAL_IDS = {"smoothing_sphere_input_global_ids"}
# Refinement breaks exact ties of edge lengths by global point id, a serial run by point id: global
# ids given before the partition (in the serial point order) make the two runs identical, in
# later passes too (new points order as serial numbers them, whatever their global ids).
GLOBAL_IDS_BEFORE_PARTITION = {"refinement_plate_marked", "refinement_sphere_all", "refinement_sphere_all_single",
                               "refinement_ball_marked", "refinement_plate_marked_passes2",
                               "refinement_plate_marked_passes3", "refinement_sphere_all_passes3",
                               "refinement_ball_marked_passes2", "refinement_ball_marked_passes3"}
CELL_ARRAYS = ("MinNeighborDistance", "MaxNeighborDistance", "MeanNeighborDistance", "Centroid")


def diagonal(mesh):
    b = gt.read_vtu(mesh).GetBounds()
    return float(np.linalg.norm([b[1] - b[0], b[3] - b[2], b[5] - b[4]]))


def numbered(source):
    """Point and cell ids of the whole mesh, generated where one process holds it all."""
    return simple.GenerateIds(Input=source, PointIdsArrayName=POINT_IDS, CellIdsArrayName=CELL_IDS)


def apply_filter(source, name, properties, case=None):
    if case in WITH_INPUT_GLOBAL_IDS:
        source = simple.GenerateGlobalIds(Input=source)
    if "MarkArray" in properties:  # marks from the cell sizes
        source = simple.GPUCellReduction(Input=source, Quantity="Size")
    return getattr(simple, name)(Input=source, **properties)


def by_id(dataset, association, ids_name, array_name):
    """{id: value tuple} of an array, and the number of entries (several per id for points
    shared by pieces)."""
    data = dataset.GetCellData() if association == "cells" else dataset.GetPointData()
    ids = np.asarray(dsa.vtkDataArrayToVTKArray(data.GetArray(ids_name)), dtype=np.int64)
    if array_name == "Points":
        values = np.asarray(dsa.vtkDataArrayToVTKArray(dataset.GetPoints().GetData()), dtype=np.float64)
    else:
        array = data.GetArray(array_name)
        if array is None:
            raise AssertionError("%s array %r is missing" % (association, array_name))
        values = np.asarray(dsa.vtkDataArrayToVTKArray(array), dtype=np.float64)
    return ids, values.reshape(len(ids), -1)


def compare_keyed(result, reference, association, ids_name, arrays, tolerance, unique):
    """Problems found comparing `arrays` of result and reference entry by entry, through ids."""
    problems = []
    for name in arrays:
        ref_ids, ref_values = by_id(reference, association, ids_name, name)
        ids, values = by_id(result, association, ids_name, name)
        expected = np.full((ref_ids.max() + 1, ref_values.shape[1]), np.nan)
        expected[ref_ids] = ref_values
        seen = np.bincount(ids, minlength=len(expected))
        missing = np.count_nonzero(seen[ref_ids] == 0)
        if missing:
            problems.append("%d %s missing from the result" % (missing, association))
        if unique and np.any(seen > 1):
            problems.append("%d %s appear more than once" % (np.count_nonzero(seen > 1), association))
        got, want = values, expected[ids]
        both_nan = np.isnan(got) & np.isnan(want)
        difference = np.where(both_nan, 0.0, np.abs(got - want))
        difference = np.where(np.isnan(difference), np.inf, difference)
        bad = np.count_nonzero(np.any(difference > tolerance, axis=1))
        if bad:
            problems.append("%s: %d of %d %s differ (largest difference %.3g, tolerance %.3g)"
                            % (name, bad, len(ids), association, difference.max(), tolerance))
    return problems


def compare_reduction(result_fields, reference_fields):
    problems = []
    for name in EXACT_REDUCTION_FIELDS:
        if int(result_fields[name]) != int(reference_fields[name]):
            problems.append("%s %d, serial %d" % (name, result_fields[name], reference_fields[name]))
    for name in REDUCTION_FIELDS:
        got, want = result_fields[name], reference_fields[name]
        if not abs(got - want) <= 1e-6 * abs(want):
            problems.append("%s %.9g, serial %.9g" % (name, got, want))
    return problems


def merged_triangles(dataset):
    """The cells of `dataset` (triangles or tetrahedra) after merging coincident points: each as
    its sorted corner coordinates, all sorted; and the number of sides (edges of triangles,
    faces of tetrahedra) used by one cell only."""
    points = np.asarray(dsa.vtkDataArrayToVTKArray(dataset.GetPoints().GetData()), dtype=np.float64) \
        if dataset.GetNumberOfPoints() else np.zeros((0, 3))
    _, merged = np.unique(points, axis=0, return_inverse=True)
    merged = merged.reshape(-1)
    ids = vtkIdList()
    triangles, sides = [], {}
    for c in range(dataset.GetNumberOfCells()):
        dataset.GetCellPoints(c, ids)
        corners = [ids.GetId(k) for k in range(ids.GetNumberOfIds())]
        triangles.append(tuple(sorted(tuple(points[p]) for p in corners)))
        local = [(0, 1, 3), (1, 2, 3), (2, 0, 3), (0, 2, 1)] if len(corners) == 4 else \
            [(k, (k + 1) % len(corners)) for k in range(len(corners))]
        for side in local:
            key = tuple(sorted(merged[corners[k]] for k in side))
            sides[key] = sides.get(key, 0) + 1
    return sorted(triangles), sum(1 for uses in sides.values() if uses == 1)


def compare_meshes(result, reference, exact):
    """A refined mesh: appended pieces with coincident points merged must be the serial mesh
    (`exact`), or at least have no more edges used once than it (no cracks between pieces)."""
    got, got_boundary = merged_triangles(result)
    want, want_boundary = merged_triangles(reference)
    problems = []
    if not exact:
        if got_boundary != want_boundary:
            problems.append("%d sides used by one cell, serial %d (cracks between pieces)"
                            % (got_boundary, want_boundary))
        return problems
    if len(got) != len(want):
        problems.append("%d cells, serial %d" % (len(got), len(want)))
    if got_boundary != want_boundary:
        problems.append("%d sides used by one cell, serial %d (cracks between pieces)"
                        % (got_boundary, want_boundary))
    if len(got) == len(want):
        differing = sum(1 for a, b in zip(got, want) if a != b)
        if differing:
            problems.append("%d of %d cells differ from serial" % (differing, len(want)))
    return problems


def fields(dataset):
    return {name: gt.field_value(dataset, name) for name in REDUCTION_FIELDS + EXACT_REDUCTION_FIELDS}


def compare(case, whole, pieces, reference):
    """Problems of a result (`whole`: every piece appended; `pieces`: each process's output)
    against the serial `reference`."""
    mesh, _, properties, kind = CASES[case]
    tolerance = 1e-6 * diagonal(mesh)
    problems = []
    if kind == "reduction":
        for rank, piece in enumerate(pieces):
            problems += ["process %d: %s" % (rank, p) for p in compare_reduction(fields(piece), fields(reference))]
        quantity = properties["Quantity"]
        scale = np.nanmax(np.abs(by_id(reference, "cells", CELL_IDS, quantity)[1]))
        problems += compare_keyed(whole, reference, "cells", CELL_IDS, [quantity], 1e-6 * scale, True)
    elif kind == "cells":
        arrays = [a for a in CELL_ARRAYS if reference.GetCellData().GetArray(a) is not None]
        problems += compare_keyed(whole, reference, "cells", CELL_IDS, arrays, tolerance, True)
        problems += compare_keyed(whole, reference, "cells", CELL_IDS, ["NeighborCount"], 0, True)
    elif kind == "kernel_cells":
        name = properties["ResultArrayName"]
        problems += compare_keyed(whole, reference, "cells", CELL_IDS, [name], tolerance, True)
        field = name + "_" + properties["Reduction"]
        for rank, piece in enumerate(pieces):
            got, want = gt.field_value(piece, field), gt.field_value(reference, field)
            if not abs(got - want) <= 1e-9 * abs(want):
                problems.append("process %d: %s %r, serial %r" % (rank, field, got, want))
    elif kind in ("mesh", "conforming"):
        problems += compare_meshes(whole, reference, exact=kind == "mesh")
        return problems
    else:
        problems += compare_keyed(whole, reference, "points", POINT_IDS, ["Points"], tolerance, False)
        problems += compare_keyed(whole, reference, "cells", CELL_IDS, [CELL_IDS], 0, True)
        # Counts decided on the whole mesh (the inversion guard's) are the serial ones everywhere.
        for field in ("ShortenedMoves", "InversionGuardRounds"):
            if reference.GetFieldData().GetAbstractArray(field) is None:
                continue
            for rank, piece in enumerate(pieces):
                got = piece.GetFieldData().GetAbstractArray(field)
                if got is None or got.GetTuple1(0) != gt.field_value(reference, field):
                    problems.append("process %d: %s %s, serial %d" % (rank, field, got and got.GetTuple1(0),
                                                                     gt.field_value(reference, field)))
    if whole.GetNumberOfCells() != reference.GetNumberOfCells():
        problems.append("%d cells, serial %d" % (whole.GetNumberOfCells(), reference.GetNumberOfCells()))
    return problems


def appended(pieces):
    """The pieces as one unstructured grid, points not merged."""
    append = vtkAppendFilter()
    for piece in pieces:
        append.AddInputData(piece)
    append.Update()
    return append.GetOutput()


def reference_file(folder, case):
    return os.path.join(folder, case + ".vtu")


def write_references(folder, cases):
    os.makedirs(folder, exist_ok=True)
    for case in cases:
        mesh, name, properties, _ = CASES[case]
        reader = simple.XMLUnstructuredGridReader(FileName=[gt.data_path(mesh)])
        result = gt.fetch(apply_filter(numbered(reader), name, properties, case))
        writer = vtkXMLUnstructuredGridWriter()
        writer.SetFileName(reference_file(folder, case))
        writer.SetInputData(result)
        writer.Write()
        check_comparison_catches_per_piece_results(case, result)
    print("references and the per-piece check: %d cases" % len(cases))


def check_comparison_catches_per_piece_results(case, reference):
    """Filters each half of the mesh on its own (what the filters did under MPI before) and
    requires compare() to reject the result."""
    mesh, name, properties, _ = CASES[case]
    reader = simple.XMLUnstructuredGridReader(FileName=[gt.data_path(mesh)])
    whole = gt.fetch(numbered(reader))
    centres = np.array([whole.GetCell(c).GetBounds()[0] for c in range(whole.GetNumberOfCells())])
    cut = np.median(centres)
    halves = []
    for keep in (centres < cut, centres >= cut):
        ids = vtkIdList()
        for c in np.flatnonzero(keep):
            ids.InsertNextId(int(c))
        extract = vtkExtractCells()
        extract.SetInputData(whole)
        extract.SetCellList(ids)
        extract.Update()
        halves.append(gt.fetch(apply_filter(gt.producer(extract.GetOutput()), name, properties, case)))
    problems = compare(case, appended(halves), halves, reference)
    if not problems:
        sys.exit("%s: the comparison accepted a per-piece result" % case)
    print("%s: a per-piece result is rejected (%s)" % (case, problems[0]))


# A Programmable Filter script: the piece's points in reverse order (cells, point arrays and
# global ids follow them), everything else as it was. pvbatch runs it in this script's own
# namespace after `from numpy import *` (numpy's min, max, diagonal, ... over this module's and
# the builtins): restore_globals() undoes that after every update that ran it.
REVERSE_POINTS = """
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkCommonCore import VTK_ID_TYPE, vtkPoints
from vtkmodules.vtkCommonDataModel import vtkCellArray
source = self.GetInput()
target = self.GetOutput()
target.ShallowCopy(source)
n = source.GetNumberOfPoints()
if n > 0:
    points = vtkPoints()
    points.SetData(numpy_to_vtk(vtk_to_numpy(source.GetPoints().GetData())[::-1].copy(), deep=1))
    target.SetPoints(points)
    cells = source.GetCells()
    offsets = vtk_to_numpy(cells.GetOffsetsArray()).astype('int64')
    connectivity = (n - 1 - vtk_to_numpy(cells.GetConnectivityArray()).astype('int64'))
    reversed_cells = vtkCellArray()
    reversed_cells.SetData(numpy_to_vtk(offsets, deep=1, array_type=VTK_ID_TYPE),
                           numpy_to_vtk(connectivity, deep=1, array_type=VTK_ID_TYPE))
    target.SetCells(source.GetCellTypesArray(), reversed_cells)
    target.GetCellData().ShallowCopy(source.GetCellData())
    data = source.GetPointData()
    out = target.GetPointData()
    for i in range(data.GetNumberOfArrays()):
        array = data.GetAbstractArray(i)
        flipped = array.NewInstance()
        flipped.DeepCopy(array)
        for t in range(n):
            flipped.SetTuple(t, n - 1 - t, array)
        out.AddArray(flipped)
    if data.GetGlobalIds():
        out.SetActiveGlobalIds(data.GetGlobalIds().GetName())
"""


CLEAN_GLOBALS = {}


def restore_globals():
    namespace = globals()
    for name in [name for name in namespace if name not in CLEAN_GLOBALS]:
        del namespace[name]
    namespace.update(CLEAN_GLOBALS)


def bytes_uploaded(filtered, ranks):
    filtered.UpdatePipeline()
    uploaded = [gt.field_value(servermanager.Fetch(filtered, rank), "BytesUploaded") for rank in range(ranks)]
    restore_globals()
    return uploaded


def guard_exchange_problems(source, name, properties, case, pieces, ranks):
    """The inversion guard exchanges each step's proposals and each round's halvings, and the
    guarded step needs no exchange of its own: every process's HaloBytesExchanged is (steps +
    guard rounds) times what one step exchanges without the guard."""
    unguarded = apply_filter(source, name, dict(properties, PreventInversion="Off"), case)
    unguarded.UpdatePipeline()
    plain = [int(gt.field_value(servermanager.Fetch(unguarded, rank), "HaloBytesExchanged")) for rank in range(ranks)]
    restore_globals()
    simple.Delete(unguarded)
    steps = properties["Iterations"] * (2 if properties.get("Method") == "Taubin" else 1)
    rounds = int(gt.field_value(pieces[0], "InversionGuardRounds"))
    got = [int(gt.field_value(piece, "HaloBytesExchanged")) for piece in pieces]
    expected = [b // steps * (steps + rounds) for b in plain]
    if rounds == 0 or got != expected:
        return ["halo bytes per process %s with the guard (%d rounds), expected %s: %d steps of %s without it"
                % (got, rounds, expected, steps, [b // steps for b in plain])]
    return []


def run_distributed(folder, layout, cases, reexecute=False):
    CLEAN_GLOBALS.update(globals())
    ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    failures = 0
    for case in cases:
        mesh, name, properties, _ = CASES[case]
        reader = simple.XMLUnstructuredGridReader(FileName=[gt.data_path(mesh)])
        source = numbered(reader)
        if case in GLOBAL_IDS_BEFORE_PARTITION:
            source = simple.GenerateGlobalIds(Input=source)
        if layout == "redistribute":
            source = simple.RedistributeDataSet(Input=source)
        elif layout == "one-empty":
            source = simple.RedistributeDataSet(Input=source, NumberOfPartitions=ranks - 1)
        elif layout == "reversed-points":
            in_order = simple.RedistributeDataSet(Input=source)
            source = simple.ProgrammableFilter(Input=in_order, Script=REVERSE_POINTS)
        elif layout == "ghost-cells":
            # Pieces that carry a ghost layer of their own: the filters leave it out and build
            # theirs; what the output holds for those ghosts is their owners', so compare the
            # owned cells only.
            source = simple.GhostCellsGenerator(Input=simple.RedistributeDataSet(Input=source))
        filtered = apply_filter(source, name, properties, case)
        if reexecute:
            # The compared execution is a re-execution after a property change (another number of
            # passes first): the refinement then refines a copy of the mesh its first execution kept.
            passes = properties.get("Passes", 1)
            filtered.Passes = passes % 3 + 1
            filtered.UpdatePipeline()
            filtered.Passes = passes
        compared = simple.RemoveGhostInformation(Input=filtered) if layout == "ghost-cells" else filtered
        with gt.CapturedErrors() as errors:
            compared.UpdatePipeline()
            pieces = [servermanager.Fetch(compared, rank) for rank in range(ranks)]
        restore_globals()
        # Fetch without a rank gives process 0's piece in pvbatch: append them here.
        whole = appended(pieces)
        reference_reader = vtkXMLUnstructuredGridReader()
        reference_reader.SetFileName(reference_file(folder, case))
        reference_reader.Update()
        problems = compare(case, whole, pieces, reference_reader.GetOutput())
        if errors.text.strip():
            problems.append("errors: " + errors.text.strip()[:500])
        if reexecute and name == "GPULongestEdgeRefinement":
            # The input is the first execution's: its first cut is reused on every process.
            reused = [piece.GetFieldData().GetAbstractArray("FirstCutReused") for piece in pieces]
            reused = [None if array is None else int(array.GetTuple1(0)) for array in reused]
            if reused != [1] * ranks:
                problems.append("FirstCutReused per process %s at the re-execution, expected 1 on every one" % reused)
        if "guard" in case and layout == "redistribute" and not reexecute:
            problems += guard_exchange_problems(source, name, properties, case, pieces, ranks)
        cells = [piece.GetNumberOfCells() for piece in pieces]
        devices = [gt.field_value(piece, "Device") for piece in pieces if piece.GetFieldData().GetAbstractArray("Device")]
        print("%s on %d processes (%s, cells per process %s, devices %s): %s"
              % (case, ranks, layout, cells, sorted(set(devices)), "; ".join(problems) or "serial result"))
        if layout == "reversed-points" and name == "GPULongestEdgeRefinement" and case in GLOBAL_IDS_BEFORE_PARTITION:
            # The same pieces in their own order (global ids increasing): no tie ids uploaded
            # (one placeholder value). Reversed: 8 bytes a point in their place, in the first
            # pass (one pass: nothing else differs; more: each later pass uploads its mesh's).
            plain = apply_filter(in_order, name, properties, case)
            points = [servermanager.Fetch(in_order, rank).GetNumberOfPoints() for rank in range(ranks)]
            extra = [r - p for r, p in zip(bytes_uploaded(filtered, ranks), bytes_uploaded(plain, ranks))]
            expected = [8 * (n - 1) for n in points]
            passes = properties.get("Passes", 1)
            if (passes == 1 and extra != expected) or (passes > 1 and not all(e > x for e, x in zip(extra, expected))):
                failures += 1
                print("%s: bytes uploaded with reversed points minus in order %s, expected %s%s"
                      % (case, extra, "" if passes == 1 else "more than ", expected))
        failures += bool(problems)
    if failures:
        sys.exit("%d of %d cases failed (differ from serial, or see above)" % (failures, len(cases)))


def free_port():
    """A free loopback port below the kernel's ephemeral range (32768 and up), where MPI's own
    connections, opened while pvserver starts, cannot take it first."""
    for _ in range(200):
        port = random.randint(20000, 32000)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    sys.exit("no free loopback port in 20000-32000")


def launcher_environment():
    """This environment without the variables of the MPI singleton pvpython may have started
    (a nested mpiexec refuses to run under them)."""
    inherited = ("OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM")
    return {name: value for name, value in os.environ.items()
            if name in inherited or not name.startswith(("OMPI_", "PMIX_", "OPAL_"))}


def with_pvserver(processes, work):
    """Runs work() connected to `mpiexec -np processes pvserver` on a free loopback port; the
    server is stopped afterwards whatever happens."""
    mpiexec = os.environ.get("GPUMESH_MPIEXEC", "mpiexec")
    log = tempfile.NamedTemporaryFile(mode="w+", prefix="pvserver-", suffix=".log")
    # A port free when probed can be taken before pvserver binds it: try another then.
    for attempt in range(5):
        port = free_port()
        log.seek(0)
        log.truncate()
        server = subprocess.Popen([mpiexec, "--oversubscribe", "-np", str(processes), "pvserver",
                                   "--server-port=%d" % port, "--timeout=10"],
                                  stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                  env=launcher_environment())
        deadline = time.time() + 120
        while "Accepting connection" not in open(log.name).read():
            if server.poll() is not None or time.time() > deadline:
                break
            time.sleep(0.5)
        else:
            break
        text = open(log.name).read()
        stop_server(server)
        if "Address already in use" not in text or attempt == 4:
            sys.exit("pvserver did not start (exit code %s):\n%s" % (server.poll(), text))
    try:
        if not simple.Connect("localhost", port, timeout=60):
            sys.exit("could not connect to pvserver on port %d" % port)
        gt.load_plugin()
        work()
        simple.Disconnect()
        errors = [line for line in open(log.name) if "ERR|" in line]
        if errors:
            sys.exit("pvserver reported errors:\n" + "".join(errors[:10]))
    finally:
        stop_server(server)


def stop_server(server):
    # pvserver ends when its client disconnects; stop it if it does not.
    for stop in (None, signal.SIGTERM, signal.SIGKILL):
        if stop is not None and server.poll() is None:
            os.killpg(server.pid, stop)
        try:
            server.wait(timeout=15)
            return
        except subprocess.TimeoutExpired:
            continue


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference")
    parser.add_argument("--compare")
    parser.add_argument("--layout", default="redistribute",
                        choices=["redistribute", "one-empty", "one-process", "ghost-cells", "reversed-points"])
    parser.add_argument("--pvserver", type=int, help="run through a client connected to N pvservers")
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--reexecute", action="store_true",
                        help="compare a re-execution after a change of Passes (refinement cases)")
    args = parser.parse_args()
    cases = args.cases.split(",") if args.cases else list(CASES)
    if args.reference:
        gt.load_plugin()
        write_references(args.reference, cases)
    elif args.pvserver:
        with_pvserver(args.pvserver, lambda: run_distributed(args.compare, args.layout, cases, args.reexecute))
    else:
        gt.load_plugin()
        run_distributed(args.compare, args.layout, cases, args.reexecute)


if __name__ == "__main__":
    main()
