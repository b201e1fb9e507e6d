"""GPU Mesh Quality's PointQuality, histograms and BadCellCount under MPI equal the serial
result: run with `mpiexec -np N pvbatch`.

Each mesh is numbered (Generate Ids), redistributed (Redistribute DataSet) and given a layer of
ghost cells (Ghost Cells Generator). The reference is computed with numpy from the Quality of
the cells each process owns, gathered by their ids into the whole mesh (those equal serial
values: TestMeshQualityDistributed.py), and the whole mesh's connectivity: every process must
report the whole mesh's histograms and BadCellCount exactly, and every point used by a cell the
process owns must have the minimum or maximum of the cells around it exactly (the mean within
1e-14), including points on the cuts, whose cells lie on several processes."""
import sys

import numpy as np
from paraview import servermanager
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonDataModel import vtkDataSetAttributes

import gpumesh_testing as gt
from quality_extras_reference import FIELD_OF_TYPE, bad_cells, cells_of, histograms, point_quality

gt.load_plugin()

BINS = 8
# mesh, {property: value}
CASES = [
    ("ball_tets.vtu", {"TetQualityMeasure": "Radius Ratio"}),
    ("sphere_surface.vtu", {"TriangleQualityMeasure": "Aspect Ratio"}),
    ("plate_with_holes.vtu", {"TriangleQualityMeasure": "Shape and Size"}),
]


def ints(piece, name, at_points=False):
    data = piece.GetPointData() if at_points else piece.GetCellData()
    return np.asarray(dsa.vtkDataArrayToVTKArray(data.GetArray(name)), dtype=np.int64)


def owned_cells(piece):
    ghosts = piece.GetCellData().GetArray(vtkDataSetAttributes.GhostArrayName())
    if ghosts is None:
        return np.ones(piece.GetNumberOfCells(), dtype=bool)
    flags = np.asarray(dsa.vtkDataArrayToVTKArray(ghosts))
    return (flags & vtkDataSetAttributes.DUPLICATECELL) == 0


def run_case(mesh, chosen, ranks):
    whole = gt.read_vtu(mesh)
    cells = cells_of(whole)
    reader = simple.XMLUnstructuredGridReader(FileName=[gt.data_path(mesh)])
    numbered = simple.GenerateIds(Input=reader, PointIdsArrayName="PointIds", CellIdsArrayName="CellIds")
    pieces = simple.RedistributeDataSet(Input=numbered)
    ghosted = simple.GhostCellsGenerator(Input=pieces)
    quality = simple.GPUMeshQuality(Input=ghosted, Bins=BINS, BadCellSide="Above", **chosen)
    problems = []
    ghosts = 0
    for how in ("Maximum", "Minimum", "Mean"):
        quality.PointQuality = how
        with gt.CapturedErrors() as errors:
            quality.UpdatePipeline()
            outputs = [servermanager.Fetch(quality, rank) for rank in range(ranks)]
        if errors.text.strip():
            problems.append("errors: " + errors.text.strip()[:500])
            break
        # The whole mesh's cell values from the owned cells of every piece.
        values = np.full(whole.GetNumberOfCells(), np.nan)
        for piece in outputs:
            if piece.GetNumberOfCells() == 0:
                continue
            owned = owned_cells(piece)
            ghosts += int(np.count_nonzero(~owned))
            values[ints(piece, "CellIds")[owned]] = gt.cell_array(piece, "Quality")[owned]
        want_points = point_quality(cells, values, whole.GetNumberOfPoints(), how)
        want_histograms = histograms(cells, values, BINS)
        threshold = float(quality.BadCellThreshold)
        for rank, piece in enumerate(outputs):
            for field in sorted(set(FIELD_OF_TYPE.values())):
                array = piece.GetFieldData().GetArray(field + " Histogram")
                got = np.array([int(array.GetTuple1(i)) for i in range(array.GetNumberOfTuples())])
                want = want_histograms.get(field + " Histogram", np.zeros(BINS, dtype=np.int64))
                if not np.array_equal(got, want):
                    problems.append("process %d: %s histogram %s, serial %s" % (rank, field, got, want))
            got_bad = int(piece.GetFieldData().GetArray("BadCellCount").GetTuple1(0))
            if got_bad != bad_cells(values, "Above", threshold):
                problems.append("process %d: BadCellCount %d, serial %d" % (rank, got_bad, bad_cells(values, "Above", threshold)))
            if piece.GetNumberOfCells() == 0:
                continue
            # Points used by owned cells: the serial value; the others NaN.
            used = np.zeros(piece.GetNumberOfPoints(), dtype=bool)
            owned = owned_cells(piece)
            for c in np.flatnonzero(owned):
                cell = piece.GetCell(int(c))
                for k in range(cell.GetNumberOfPoints()):
                    used[cell.GetPointId(k)] = True
            got = np.array([piece.GetPointData().GetArray("PointQuality").GetTuple1(i)
                            for i in range(piece.GetNumberOfPoints())])
            want = want_points[ints(piece, "PointIds", at_points=True)]
            if np.any(~np.isnan(got[~used])):
                problems.append("process %d: %s values at points no owned cell uses" % (rank, how))
            g, w = got[used], want[used]
            same = (np.isnan(g) & np.isnan(w)) | (g == w) if how != "Mean" else \
                (np.isnan(g) & np.isnan(w)) | (np.abs(g - w) <= 1e-14 * np.abs(w))
            if not np.all(same):
                problems.append("process %d: %s PointQuality differs from serial at %d of %d points"
                                % (rank, how, np.count_nonzero(~same), len(g)))
        # The next pass counts cells above the median.
        finite = values[~np.isnan(values)]
        quality.BadCellThreshold = float(np.median(finite))
    for proxy in (quality, ghosted, pieces, numbered, reader):
        simple.Delete(proxy)
    print("%s %s on %d processes (%d ghost cells seen): %s"
          % (mesh, chosen, ranks, ghosts, "; ".join(problems) or "serial result"))
    return not problems, ghosts


def main():
    ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    results = [run_case(mesh, chosen, ranks) for mesh, chosen in CASES]
    if ranks > 1 and not any(ghosts for _, ghosts in results):
        sys.exit("no case had ghost cells: nothing tested that they are left out")
    failures = sum(not passed for passed, _ in results)
    if failures:
        sys.exit("%d of %d cases differ from serial" % (failures, len(CASES)))


if __name__ == "__main__":
    main()
