"""GPU Decimation under MPI: run with `mpiexec -np N pvbatch` [--layout redistribute|ghost-cells].

Each surface is numbered (Generate Ids: PointIds), redistributed (Redistribute DataSet) and, with
ghost-cells, given a layer of ghost cells (Ghost Cells Generator), which the filter must leave out.
Each process decimates its piece with its interface frozen, so the pieces appended and merged
(points at identical coordinates) must give a conforming surface: every edge on two triangles
(closed surfaces), no crack, the Euler characteristic kept; every point on a cut (held by two
pieces of the input) is in the output unmoved; the reduction is the one asked for."""
import argparse
import sys

import numpy as np
from paraview import servermanager
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkFiltersCore import vtkAppendFilter
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

import gpumesh_testing as gt
from decimation_reference import edge_uses, euler, torus_file, triangles_of

gt.load_plugin()


def merged(pieces):
    append = vtkAppendFilter()
    append.MergePointsOn()
    append.SetTolerance(0.0)
    for piece in pieces:
        if piece.GetNumberOfCells() > 0:
            append.AddInputData(piece)
    append.Update()
    return append.GetOutput()


def run_case(name, path, ranks, layout):
    source = simple.XMLUnstructuredGridReader(FileName=[path])
    numbered = simple.GenerateIds(Input=source, PointIdsArrayName="PointIds", CellIdsArrayName="CellIds")
    pieces = simple.RedistributeDataSet(Input=numbered)
    last = simple.GhostCellsGenerator(Input=pieces) if layout == "ghost-cells" else pieces
    decimation = simple.GPUDecimation(Input=last, TargetReduction=0.8)
    with gt.CapturedErrors() as errors:
        decimation.UpdatePipeline()
        outputs = [servermanager.Fetch(decimation, rank) for rank in range(ranks)]
        inputs = [servermanager.Fetch(pieces, rank) for rank in range(ranks)]
    problems = []
    if errors.text.strip():
        problems.append("errors: " + errors.text.strip()[:500])
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    whole = reader.GetOutput()
    total_in = sum(p.GetNumberOfCells() for p in inputs)
    # The cut: points held by two pieces of the input.
    held = {}
    for rank, piece in enumerate(inputs):
        for pid in set(np.asarray(dsa.WrapDataObject(piece).PointData["PointIds"]).astype(np.int64).tolist()):
            held.setdefault(pid, set()).add(rank)
    cut = {pid for pid, ranks_holding in held.items() if len(ranks_holding) > 1}
    xyz_in = {}
    for piece in inputs:
        ids = np.asarray(dsa.WrapDataObject(piece).PointData["PointIds"]).astype(np.int64)
        for pid, p in zip(ids, np.asarray(dsa.WrapDataObject(piece).Points)):
            xyz_in[int(pid)] = tuple(p)
    found = set()
    for rank, piece in enumerate(outputs):
        if piece.GetNumberOfCells() == 0:
            continue
        ids = np.asarray(dsa.WrapDataObject(piece).PointData["PointIds"])
        xyz = np.asarray(dsa.WrapDataObject(piece).Points)
        for pid, p in zip(ids, xyz):
            if pid == int(pid) and int(pid) in cut and tuple(p) == xyz_in[int(pid)]:
                found.add(int(pid))
        if piece.GetCellData().GetArray("vtkGhostType") is not None:
            problems.append("process %d: a ghost array in the output" % rank)
    if not cut:
        problems.append("no cut between the pieces: nothing distributed")
    if found != cut:
        problems.append("%d of %d cut points moved or went" % (len(cut - found), len(cut)))
    surface = merged(outputs)
    total_out = surface.GetNumberOfCells()
    counts, sums = edge_uses(triangles_of(surface))
    if np.any(counts != 2):
        problems.append("%d edges not on exactly two triangles (cracks or non-manifold)" % int(np.sum(counts != 2)))
    if np.any(sums[counts == 2] != 0):
        problems.append("inconsistent orientation")
    if euler(surface) != euler(whole):
        problems.append("Euler characteristic %d, the input's %d" % (euler(surface), euler(whole)))
    if total_in != whole.GetNumberOfCells():
        problems.append("the pieces hold %d triangles, the mesh %d" % (total_in, whole.GetNumberOfCells()))
    achieved = 1 - total_out / total_in
    reported = [gt.field_value(p, "AchievedReduction") for p in outputs if p.GetNumberOfCells() > 0]
    if abs(achieved - 0.8) > 0.01:
        problems.append("reduction %.4f, not 0.8" % achieved)
    if any(abs(r - achieved) > 1e-12 for r in reported):
        problems.append("AchievedReduction %s, the pieces together %.6f" % (reported, achieved))
    for proxy in [decimation] + ([last] if last is not pieces else []) + [pieces, numbered, source]:
        simple.Delete(proxy)
    print("%s on %d processes (%s): %d -> %d triangles, cut of %d points, per process %s: %s" % (
        name, ranks, layout, total_in, total_out, len(cut), [p.GetNumberOfCells() for p in outputs],
        "; ".join(problems) or "conforming"))
    return not problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--layout", default="redistribute", choices=["redistribute", "ghost-cells"])
    layout = parser.parse_args().layout
    ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    cases = [("sphere_surface.vtu", gt.data_path("sphere_surface.vtu")), ("torus.vtu", torus_file())]
    failures = sum(not run_case(name, path, ranks, layout) for name, path in cases)
    if failures:
        sys.exit("%d of %d cases do not conform" % (failures, len(cases)))


if __name__ == "__main__":
    main()
