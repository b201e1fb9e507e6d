"""The distributed path on partitions that stress it (gpumesh_partition_pieces.py): a process that
touches every other process of its mesh and one that touches none, an interface made of
non-manifold edges and of a point shared by four processes, a vertex of degree 10,000 shared by
four processes in a mesh with shuffled point ids, a graded boundary layer cut between cells of
different sizes, and the bytes the smoothing halo exchanges per step, which must not grow with
processes that are not neighbours.

    pvpython TestDistributedPartitions.py --reference DIR
        serial runs of every case (one process holds the whole mesh), written to DIR;
    mpiexec -np 4 pvbatch TestDistributedPartitions.py --compare DIR
        each process makes its own piece; every result must be the serial one (values by
        PointIds/CellIds within 1e-6 of the mesh diagonal, counts exact, refined pieces
        without cracks), and each of processes 0 and 1 must exchange exactly as many halo bytes
        when processes 2 and 3 smooth a mesh of their own ("pairs") as when they hold nothing
        ("pair-alone").
"""
import argparse
import os
import sys

import numpy as np
from paraview import servermanager
from paraview import simple
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader, vtkXMLUnstructuredGridWriter

import gpumesh_partition_pieces as partitions
import gpumesh_testing as gt
import TestDistributed as distributed

PLATE = "plate_with_holes.vtu"
RELAXATION = ("REAL3 mean = 0;\nfor (int k = 0; k < neighbour_count; ++k)\n  mean += neighbours_x(k);\n"
              "result = x + 0.5 * (mean / neighbour_count - x);")
NEIGHBOURS = ("REAL sum = 0;\nfor (int k = 0; k < neighbour_count; ++k)\n  sum += neighbours_CellIds(k);\n"
              "result = (REAL2)(neighbour_count, sum);")
SMOOTHING = dict(Method="Laplacian", Boundary="Fixed", Iterations=6)
# name: (layout, filter, properties, what to compare)
CASES = {
    "hub_neighbors": ("hub", "GPUNeighborDistance", dict(ComputeCentroids=1), "cells"),
    "hub_smoothing": ("hub", "GPUVertexSmoothing", SMOOTHING, "points"),
    "hub_kernel_relaxation": ("hub", "GPUMeshKernel", dict(ResultArrayName="Points", ResultComponents=3,
                                                           Kernel=RELAXATION), "points"),
    "hub_refinement_all": ("hub", "GPULongestEdgeRefinement", dict(RefineAll=1), "conforming"),
    "book_neighbors": ("book", "GPUNeighborDistance", dict(ComputeCentroids=1), "cells"),
    "book_smoothing": ("book", "GPUVertexSmoothing", dict(Method="Laplacian", Boundary="Free", Iterations=6),
                       "points"),
    "book_kernel_neighbours": ("book", "GPUMeshKernel",
                               dict(Domain="Cells", InputArrays=[partitions.CELL_IDS], ResultArrayName="Neighbours",
                                    ResultComponents=2, Kernel=NEIGHBOURS), "kernel_cells"),
    "book_kernel_relaxation": ("book", "GPUMeshKernel", dict(ResultArrayName="Points", ResultComponents=3,
                                                             Kernel=RELAXATION), "points"),
    # A vertex of degree 10,000 on all four processes, shuffled point ids.
    "fan_neighbors": ("fan", "GPUNeighborDistance", dict(ComputeCentroids=1), "cells"),
    "fan_smoothing": ("fan", "GPUVertexSmoothing", dict(Method="Laplacian", Boundary="Free", Iterations=4),
                      "points"),
    # A boundary layer whose cuts run between cells of different sizes.
    "graded_neighbors": ("graded", "GPUNeighborDistance", dict(ComputeCentroids=1), "cells"),
    "graded_smoothing": ("graded", "GPUVertexSmoothing", SMOOTHING, "points"),
    "graded_refinement_all": ("graded", "GPULongestEdgeRefinement", dict(RefineAll=1), "conforming"),
    "pairs_smoothing": ("pairs", "GPUVertexSmoothing", SMOOTHING, "points"),
    "pair-alone_smoothing": ("pair-alone", "GPUVertexSmoothing", SMOOTHING, "points"),
}
CELL_ARRAYS = ("MinNeighborDistance", "MaxNeighborDistance", "MeanNeighborDistance", "Centroid")

PIECE_SCRIPT = """
import gpumesh_partition_pieces as partitions
from vtkmodules.vtkCommonExecutionModel import vtkStreamingDemandDrivenPipeline
rank = self.GetOutputInformation(0).Get(vtkStreamingDemandDrivenPipeline.UPDATE_PIECE_NUMBER())
self.GetOutput().ShallowCopy(partitions.piece({layout!r}, {path!r}, rank))
"""


# The scripts of Programmable Sources run in pvbatch's __main__ namespace, which is this script's:
# they import vtkmodules.numpy_interface.algorithms there, whose names (diagonal, area, sum, min,
# max...) then replace this file's. Do not use those names here.
def reference_file(folder, case):
    return os.path.join(folder, case + ".vtu")


def mesh_diagonal(mesh):
    b = mesh.GetBounds()
    return float(np.linalg.norm([b[1] - b[0], b[3] - b[2], b[5] - b[4]]))


def write_references(folder):
    os.makedirs(folder, exist_ok=True)
    for case, (layout, name, properties, _) in CASES.items():
        mesh, _ = partitions.whole_mesh(layout, gt.data_path(PLATE))
        result = gt.fetch(getattr(simple, name)(Input=gt.producer(mesh), **properties))
        writer = vtkXMLUnstructuredGridWriter()
        writer.SetFileName(reference_file(folder, case))
        writer.SetInputData(distributed.appended([result]))
        if not writer.Write():
            sys.exit("could not write %s" % writer.GetFileName())
    print("serial references written to %s" % folder)


def compare(case, whole, reference):
    layout, _, properties, kind = CASES[case]
    tolerance = 1e-6 * mesh_diagonal(reference)
    problems = []
    if kind == "cells":
        arrays = [a for a in CELL_ARRAYS if reference.GetCellData().GetArray(a) is not None]
        problems += distributed.compare_keyed(whole, reference, "cells", partitions.CELL_IDS, arrays, tolerance, True)
        problems += distributed.compare_keyed(whole, reference, "cells", partitions.CELL_IDS, ["NeighborCount"], 0,
                                              True)
    elif kind == "kernel_cells":
        problems += distributed.compare_keyed(whole, reference, "cells", partitions.CELL_IDS,
                                              [properties["ResultArrayName"]], 1e-9, True)
    elif kind == "conforming":
        problems += distributed.compare_meshes(whole, reference, exact=False)
        if whole.GetNumberOfCells() != reference.GetNumberOfCells():
            problems.append("%d cells, serial %d" % (whole.GetNumberOfCells(), reference.GetNumberOfCells()))
        return problems
    else:
        problems += distributed.compare_keyed(whole, reference, "points", partitions.POINT_IDS, ["Points"], tolerance,
                                              False)
    if whole.GetNumberOfCells() != reference.GetNumberOfCells():
        problems.append("%d cells, serial %d" % (whole.GetNumberOfCells(), reference.GetNumberOfCells()))
    return problems


def run_distributed(folder):
    ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    if ranks != 4:
        sys.exit("run this test on 4 processes (it runs on %d)" % ranks)
    failures = 0
    halo_bytes = {}
    for case, (layout, name, properties, _) in CASES.items():
        source = simple.ProgrammableSource(OutputDataSetType="vtkUnstructuredGrid",
                                           Script=PIECE_SCRIPT.format(layout=layout, path=gt.data_path(PLATE)))
        filtered = getattr(simple, name)(Input=source, **properties)
        with gt.CapturedErrors() as errors:
            filtered.UpdatePipeline()
            pieces = [servermanager.Fetch(filtered, rank) for rank in range(ranks)]
        reader = vtkXMLUnstructuredGridReader()
        reader.SetFileName(reference_file(folder, case))
        reader.Update()
        problems = compare(case, distributed.appended(pieces), reader.GetOutput())
        if errors.text.strip():
            problems.append("errors: " + errors.text.strip()[:500])
        if name == "GPUVertexSmoothing":
            halo_bytes[layout] = [gt.field_value(piece, "HaloBytesExchanged") for piece in pieces]
        cells = [piece.GetNumberOfCells() for piece in pieces]
        print("%s (cells per process %s): %s" % (case, cells, "; ".join(problems) or "serial result"))
        failures += bool(problems)
        simple.Delete(filtered)
        simple.Delete(source)
    # Processes 0 and 1 smooth the same pieces in both layouts: what 2 and 3 do elsewhere must
    # not reach them.
    pairs, alone = halo_bytes["pairs"], halo_bytes["pair-alone"]
    print("halo bytes per process: pairs %s, pair-alone %s" % (pairs, alone))
    if not (pairs[0] > 0 and pairs[:2] == alone[:2] and pairs[2] > 0 and alone[2:] == [0, 0]):
        print("halo bytes of processes 0 and 1 depend on processes that are not their neighbours")
        failures += 1
    if failures:
        sys.exit("%d checks failed" % failures)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference")
    parser.add_argument("--compare")
    args = parser.parse_args()
    gt.load_plugin()
    if args.reference:
        write_references(args.reference)
    else:
        run_distributed(args.compare)


if __name__ == "__main__":
    main()
