"""GPU Mesh Quality under MPI gives the serial result: run with `mpiexec -np N pvbatch`
[--layout redistribute|one-empty] (one-empty: Redistribute DataSet into N - 1 pieces, one
process left without cells).

Each mesh is numbered (Generate Ids), redistributed over the processes (Redistribute DataSet)
and given a layer of ghost cells (Ghost Cells Generator: the tetrahedra and the sphere get
some, the flat plate none). Every process must report the field
data of the whole mesh, ghost cells left out (the counts are exact), equal to vtkMeshQuality on
the whole mesh within 1e-6 relative; every cell of every piece, ghost cells included, must have
vtkMeshQuality's value. The measures include those relative to the average cell size, which
must be the whole mesh's."""
import argparse
import sys

import numpy as np
from paraview import servermanager
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkCommonDataModel import vtkDataSetAttributes

import gpumesh_testing as gt
from TestMeshQuality import FIELDS, field_tuple, measures, reference

gt.load_plugin()

CELL_IDS = "CellIds"
# mesh, {kind: measure label}
CASES = [
    ("ball_tets.vtu", {"Tet": "Relative Size Squared"}),
    ("hex_block.vtu", {"Hex": "Shape and Size"}),
    ("ball_tets.vtu", {"Tet": "Radius Ratio"}),
    ("plate_with_holes.vtu", {"Triangle": "Shape and Size"}),
    ("sphere_surface.vtu", {"Triangle": "Aspect Ratio"}),
]


def close(got, want, relative=1e-6, absolute=1e-300):
    return (np.isnan(got) and np.isnan(want)) or abs(got - want) <= relative * abs(want) + absolute


def run_case(mesh, chosen, ranks, layout):
    values = {kind: measures(kind)[label] for kind, label in chosen.items()}
    expected = reference(gt.read_vtu(mesh), **values)
    expected_quality = gt.cell_array(expected, "Quality")

    reader = simple.XMLUnstructuredGridReader(FileName=[gt.data_path(mesh)])
    numbered = simple.GenerateIds(Input=reader, PointIdsArrayName="PointIds", CellIdsArrayName=CELL_IDS)
    pieces = simple.RedistributeDataSet(Input=numbered, NumberOfPartitions=ranks - 1 if layout == "one-empty" else 0)
    ghosted = simple.GhostCellsGenerator(Input=pieces)
    quality = simple.GPUMeshQuality(Input=ghosted, **{kind + "QualityMeasure": label for kind, label in chosen.items()})
    with gt.CapturedErrors() as errors:
        quality.UpdatePipeline()
        outputs = [servermanager.Fetch(quality, rank) for rank in range(ranks)]
    problems = []
    if errors.text.strip():
        problems.append("errors: " + errors.text.strip()[:500])
    ghosts = 0
    for rank, piece in enumerate(outputs):
        ghost_array = piece.GetCellData().GetArray(vtkDataSetAttributes.GhostArrayName())
        if ghost_array is not None:
            flags = np.asarray(dsa.vtkDataArrayToVTKArray(ghost_array))
            ghosts += int(np.count_nonzero(flags & vtkDataSetAttributes.DUPLICATECELL))
        for name in FIELDS:
            got, want = field_tuple(piece, name), field_tuple(expected, name)
            if got[4] != want[4]:
                problems.append("process %d: %s count %d, serial %d" % (rank, name, got[4], want[4]))
            # The variance is a difference of sums of squares: it cancels to 1e-16 of them.
            cancelled = 1e-12 * max(1.0, want[1] ** 2)
            for k, what in enumerate(("minimum", "average", "maximum", "variance")):
                if not close(got[k], want[k], 1e-6, cancelled if k == 3 else 1e-300):
                    problems.append("process %d: %s %s %.12g, serial %.12g" % (rank, name, what, got[k], want[k]))
        if piece.GetNumberOfCells() == 0:
            continue  # (an empty piece's arrays do not survive Fetch)
        if piece.GetCellData().GetArray("Quality") is None:
            problems.append("process %d: no Quality array" % rank)
            continue
        ids = np.asarray(dsa.vtkDataArrayToVTKArray(piece.GetCellData().GetArray(CELL_IDS)), dtype=np.int64)
        got = gt.cell_array(piece, "Quality")
        want = expected_quality[ids]
        bad = np.count_nonzero(~np.isclose(got, want, rtol=1e-6, atol=0, equal_nan=True))
        if bad:
            problems.append("process %d: %d of %d cells differ from serial" % (rank, bad, len(ids)))
    for proxy in (quality, ghosted, pieces, numbered, reader):
        simple.Delete(proxy)
    cells = [piece.GetNumberOfCells() for piece in outputs]
    print("%s %s on %d processes (%s, cells per process %s, %d ghost cells): %s"
          % (mesh, chosen, ranks, layout, cells, ghosts, "; ".join(problems) or "serial result"))
    return not problems, ghosts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--layout", default="redistribute", choices=["redistribute", "one-empty"])
    layout = parser.parse_args().layout
    ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    results = [run_case(mesh, chosen, ranks, layout) for mesh, chosen in CASES]
    failures = sum(not passed for passed, _ in results)
    if ranks > 1 and not any(ghosts for _, ghosts in results):
        sys.exit("no case had ghost cells: nothing tested that they are left out")
    if failures:
        sys.exit("%d of %d cases differ from serial" % (failures, len(CASES)))


if __name__ == "__main__":
    main()
