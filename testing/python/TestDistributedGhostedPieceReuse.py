"""GPU Neighbor Distance and GPU Vertex Smoothing under MPI keep their ghosted piece between
executions: changing a property reuses it, a change of the input on one process rebuilds it on
every process, and every result is the serial one.

    pvpython TestDistributedGhostedPieceReuse.py --reference DIR
        serial runs of every case and property set, on the mesh as read and on the mesh whose
        last slab (of 2 and of 3) was moved, written to DIR;
    mpiexec -np N pvbatch TestDistributedGhostedPieceReuse.py --compare DIR [--layout slabs|one-empty]
        each process makes its own slab of the mesh (slabs = one per process; one-empty = process
        1 holds nothing, the others a slab each). The filter runs four times: properties A, B,
        then, after the last slab's process moved some of its points in place (the others'
        inputs untouched), A and B again. Expected: the piece built, reused, rebuilt on every
        process, reused (field data GhostedPieceReused on every process, the information
        property GhostedPieceBuildCount on process 0), and each result equal to the serial one
        on the mesh as it was then.

The moved points are used by cells of the last slab only, so the whole mesh stays one mesh, and
the ghost layers of the other processes see them move: a process that kept its old piece would
give values that differ from serial (or wait forever in a build the others skipped).
"""
import argparse
import os
import sys

from paraview import servermanager
from paraview import simple
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader, vtkXMLUnstructuredGridWriter

import gpumesh_slab_pieces as pieces
import gpumesh_testing as gt
import TestDistributed as distributed

# name: (mesh, filter, properties A, properties B, input global ids, arrays compared by id)
CASES = {
    "neighbors_ball": ("ball_tets.vtu", "GPUNeighborDistance", dict(ComputeCentroids=0),
                       dict(ComputeCentroids=1), False, "cells"),
    "smoothing_plate": ("plate_with_holes.vtu", "GPUVertexSmoothing",
                        dict(Method="Laplacian", Boundary="Fixed", Iterations=10),
                        dict(Method="Laplacian", Boundary="Fixed", Iterations=4), True, "points"),
}
# (properties, mesh moved, piece reused, builds so far)
RUNS = (("A", False, 0, 1), ("B", False, 1, 1), ("A", True, 0, 2), ("B", True, 1, 2))
DISTANCES = ("MinNeighborDistance", "MaxNeighborDistance", "MeanNeighborDistance")

PIECE_SCRIPT = """
import gpumesh_slab_pieces as pieces
from vtkmodules.vtkCommonCore import vtkIntArray
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline
rank = self.GetOutputInformation(0).Get(vtkStreamingDemandDrivenPipeline.UPDATE_PIECE_NUMBER())
holders = {holders!r}
output = self.GetOutput()
if rank in holders:
    mesh = pieces.numbered_mesh({path!r}, {global_ids!r})
    output.ShallowCopy(pieces.slab_piece(mesh, len(holders), holders.index(rank)))
pieces.executions += 1
executions = vtkIntArray()
executions.SetName("SourceExecutions")
executions.InsertNextValue(pieces.executions)
output.GetFieldData().AddArray(executions)
"""

# Moves, on the last slab's process only, points of its input in place (the source's output,
# which the filter reads too): the source does not execute again.
MOVE_SCRIPT = """
import gpumesh_slab_pieces as pieces
from vtkmodules.vtkCommonCore import vtkIntArray
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline
rank = self.GetOutputInformation(0).Get(vtkStreamingDemandDrivenPipeline.UPDATE_PIECE_NUMBER())
moved = 0
if rank == {target}:
    ids = pieces.last_slab_only_points(pieces.numbered_mesh({path!r}), {slabs})
    moved = pieces.move_points_in_place(self.GetInputDataObject(0, 0), ids)
count = vtkIntArray()
count.SetName("MovedPoints")
count.InsertNextValue(moved)
self.GetOutput().GetFieldData().AddArray(count)
"""


def reference_file(folder, case, properties, moved_slabs):
    state = "moved%d" % moved_slabs if moved_slabs else "original"
    return os.path.join(folder, "%s_%s_%s.vtu" % (case, properties, state))


def write_references(folder):
    """Serial runs (one process holds the whole mesh): the values every distributed run must
    give. A serial run keeps no ghosted piece (it needs none)."""
    os.makedirs(folder, exist_ok=True)
    for case, (mesh_name, name, first, second, _, _) in CASES.items():
        for moved_slabs in (0, 2, 3):
            mesh = pieces.numbered_mesh(gt.data_path(mesh_name))
            if moved_slabs:
                pieces.move_points_in_place(mesh, pieces.last_slab_only_points(mesh, moved_slabs))
            for label, properties in (("A", first), ("B", second)):
                result = gt.fetch(getattr(simple, name)(Input=gt.producer(mesh), **properties))
                if result.GetFieldData().GetAbstractArray("GhostedPieceReused") is not None:
                    sys.exit("%s: a serial run reports a ghosted piece" % case)
                writer = vtkXMLUnstructuredGridWriter()
                writer.SetFileName(reference_file(folder, case, label, moved_slabs))
                writer.SetInputData(result)
                writer.Write()
    print("serial references written to %s" % folder)


def read(path):
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()


def compare(case, whole, reference):
    mesh_name, _, _, _, _, kind = CASES[case]
    tolerance = 1e-6 * distributed.diagonal(mesh_name)
    if kind == "cells":
        arrays = [a for a in DISTANCES + ("Centroid",) if reference.GetCellData().GetArray(a) is not None]
        problems = distributed.compare_keyed(whole, reference, "cells", pieces.CELL_IDS, arrays, tolerance, True)
        problems += distributed.compare_keyed(whole, reference, "cells", pieces.CELL_IDS, ["NeighborCount"], 0, True)
        if (whole.GetCellData().GetArray("Centroid") is None) != (reference.GetCellData().GetArray("Centroid") is None):
            problems.append("Centroid present in one of result and serial only")
    else:
        problems = distributed.compare_keyed(whole, reference, "points", pieces.POINT_IDS, ["Points"], tolerance, False)
        problems += distributed.compare_keyed(whole, reference, "cells", pieces.CELL_IDS, [pieces.CELL_IDS], 0, True)
    if whole.GetNumberOfCells() != reference.GetNumberOfCells():
        problems.append("%d cells, serial %d" % (whole.GetNumberOfCells(), reference.GetNumberOfCells()))
    return problems


def field_per_process(proxy, name, ranks):
    """A one-value field data array of every process's piece (None where it is missing)."""
    values = []
    for rank in range(ranks):
        array = servermanager.Fetch(proxy, rank).GetFieldData().GetAbstractArray(name)
        values.append(None if array is None else int(array.GetTuple1(0)))
    return values


# The scripts of Programmable Sources and Filters run in pvbatch's __main__ namespace, which is
# this script's: they import vtkmodules.numpy_interface.algorithms there, whose any, all, min,
# max, sum, abs... then replace the builtins in this file. Do not use those names here.
def run_case(case, folder, layout, ranks):
    mesh_name, name, first, second, global_ids, _ = CASES[case]
    holders = [rank for rank in range(ranks) if not (layout == "one-empty" and rank == 1)]
    slabs = len(holders)
    path = gt.data_path(mesh_name)
    source = simple.ProgrammableSource(OutputDataSetType="vtkUnstructuredGrid",
                                       Script=PIECE_SCRIPT.format(holders=holders, path=path, global_ids=global_ids))
    filtered = getattr(simple, name)(Input=source)
    problems = []
    reported = 0
    mesh_moved = False
    for label, moved, reused, builds in RUNS:
        if moved and not mesh_moved:
            mesh_moved = True
            mover = simple.ProgrammableFilter(Input=source, OutputDataSetType="vtkUnstructuredGrid",
                                              Script=MOVE_SCRIPT.format(target=holders[-1], path=path, slabs=slabs))
            executions = field_per_process(source, "SourceExecutions", ranks)
            mover.UpdatePipeline()
            counts = field_per_process(mover, "MovedPoints", ranks)
            elsewhere = [counts[r] for r in range(ranks) if r != holders[-1] and counts[r] != 0]
            if not counts[holders[-1]] or elsewhere:
                problems.append("moved points per process %s: expected some on process %d only"
                                % (counts, holders[-1]))
            if field_per_process(source, "SourceExecutions", ranks) != executions:
                problems.append("the source executed again (the change must be in place)")
            simple.Delete(mover)
        for key, value in (first if label == "A" else second).items():
            setattr(filtered, key, value)
        with gt.CapturedErrors() as errors:
            filtered.UpdatePipeline()
            outputs = [servermanager.Fetch(filtered, rank) for rank in range(ranks)]
        run = "run %s%s" % (label, " after the move" if moved else "")
        if errors.text.strip():
            problems.append("%s: errors: %s" % (run, errors.text.strip()[:500]))
        flags = field_per_process(filtered, "GhostedPieceReused", ranks)
        if flags != [reused] * ranks:
            problems.append("%s: GhostedPieceReused per process %s, expected %s" % (run, flags, [reused] * ranks))
        filtered.UpdatePropertyInformation()
        count = filtered.GetProperty("GhostedPieceBuildCount")[0]
        if count != builds:
            problems.append("%s: GhostedPieceBuildCount %d, expected %d" % (run, count, builds))
        reference = read(reference_file(folder, case, label, slabs if moved else 0))
        problems += ["%s: %s" % (run, p) for p in compare(case, distributed.appended(outputs), reference)]
        print("%s on %d processes (%s, cells per process %s), %s: reused %s, builds %d; %s"
              % (case, ranks, layout, [o.GetNumberOfCells() for o in outputs], run, flags, count,
                 "; ".join(problems[reported:]) or "serial result"))
        reported = len(problems)
    simple.Delete(filtered)
    simple.Delete(source)
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference")
    parser.add_argument("--compare")
    parser.add_argument("--layout", default="slabs", choices=["slabs", "one-empty"])
    args = parser.parse_args()
    gt.load_plugin()
    if args.reference:
        write_references(args.reference)
        return
    ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    if ranks not in (2, 3) or (args.layout == "one-empty" and ranks != 3):
        sys.exit("run under mpiexec -np 2 or 3 pvbatch (one-empty: 3); found %d processes" % ranks)
    failures = []
    for case in CASES:
        failures += ["%s: %s" % (case, p) for p in run_case(case, args.compare, args.layout, ranks)]
    if failures:
        sys.exit("\n".join(failures))


if __name__ == "__main__":
    main()
