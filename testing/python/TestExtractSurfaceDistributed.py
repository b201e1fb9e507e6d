"""GPU Extract Surface under MPI gives the serial boundary: run with `mpiexec -np N pvbatch`
[--layout redistribute|ghost-cells|one-empty].

Each mesh is numbered (Generate Ids), redistributed over the processes (Redistribute DataSet;
one-empty: into N - 1 pieces, one process left without cells) and, with ghost-cells, given a
layer of ghost cells of its own (Ghost Cells Generator), which the filter must leave out. The
pieces' outputs together must be vtkDataSetSurfaceFilter's surface of the whole mesh, each cell
once: faces on the cuts between processes are inner. Cells are compared by the input's point ids
(the PointIds array carried as point data) in their orientation and the input cell they come
from (CellIds), and every output point must have its input point's coordinates."""
import argparse
import os
import sys
import tempfile

import numpy as np
from paraview import servermanager
from paraview import simple
from vtkmodules.numpy_interface import dataset_adapter as dsa
from vtkmodules.vtkFiltersCore import vtkAppendFilter
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader, vtkXMLUnstructuredGridWriter

import gpumesh_testing as gt
from extraction_reference import ids_of, surface_cells, vtk_surface

gt.load_plugin()

MESHES = ["ball_tets.vtu", "hex_block.vtu", "shell_tets.vtu", "plate_with_holes.vtu", "sphere_surface.vtu",
          "ball_tets+surface"]


def mesh_file(name, folder):
    """A sample mesh's file, or one written in `folder` of ball_tets with its own surface
    triangles appended (2D and 3D mixed)."""
    if name != "ball_tets+surface":
        return gt.data_path(name)
    ball = gt.read_vtu("ball_tets.vtu")
    surface = vtk_surface(ball)
    surface.GetPointData().Initialize()
    surface.GetCellData().Initialize()
    append = vtkAppendFilter()
    append.MergePointsOn()
    append.AddInputData(ball)
    append.AddInputData(surface)
    writer = vtkXMLUnstructuredGridWriter()
    writer.SetInputConnection(append.GetOutputPort())
    path = os.path.join(folder, "ball_tets_and_surface.vtu")
    writer.SetFileName(path)
    writer.Write()
    return path


def read(path):
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()


def run_case(name, ranks, layout, folder):
    # Every process reads the file (a source fed from process 0 alone would not be distributed).
    path = mesh_file(name, folder)
    mesh = read(path)
    expected = surface_cells(vtk_surface(mesh))
    xyz = np.asarray(dsa.WrapDataObject(mesh).Points)

    source = simple.XMLUnstructuredGridReader(FileName=[path])
    numbered = simple.GenerateIds(Input=source, PointIdsArrayName="PointIds", CellIdsArrayName="CellIds")
    pieces = simple.RedistributeDataSet(Input=numbered, NumberOfPartitions=ranks - 1 if layout == "one-empty" else 0)
    last = simple.GhostCellsGenerator(Input=pieces) if layout == "ghost-cells" else pieces
    surface = simple.GPUExtractSurface(Input=last)
    with gt.CapturedErrors() as errors:
        surface.UpdatePipeline()
        outputs = [servermanager.Fetch(surface, rank) for rank in range(ranks)]
    problems = []
    if errors.text.strip():
        problems.append("errors: " + errors.text.strip()[:500])
    got = []
    for rank, piece in enumerate(outputs):
        if piece.GetNumberOfCells() == 0:
            continue  # (an empty piece's arrays do not survive Fetch)
        got += surface_cells(piece, "PointIds", "CellIds")
        points = ids_of(piece, "PointIds", True)
        if not np.array_equal(np.asarray(dsa.WrapDataObject(piece).Points), xyz[points]):
            problems.append("process %d: points differ from the input's" % rank)
        if piece.GetCellData().GetArray("vtkGhostType") is not None and \
                np.any(ids_of(piece, "vtkGhostType", False) != 0):
            problems.append("process %d: ghost cells in the output" % rank)
    got.sort()
    if got != expected:
        missing = len(set(expected) - set(got))
        extra = len(got) - len(expected) + missing
        problems.append("%d cells, serial %d (%d of serial's missing, %d others)" % (len(got), len(expected), missing, extra))
    for proxy in [surface] + ([last] if last is not pieces else []) + [pieces, numbered, source]:
        simple.Delete(proxy)
    cells = [piece.GetNumberOfCells() for piece in outputs]
    print("%s on %d processes (%s, cells per process %s): %s"
          % (name, ranks, layout, cells, "; ".join(problems) or "the serial surface"))
    return not problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--layout", default="redistribute", choices=["redistribute", "ghost-cells", "one-empty"])
    layout = parser.parse_args().layout
    ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    with tempfile.TemporaryDirectory() as folder:
        failures = sum(not run_case(name, ranks, layout, folder) for name in MESHES)
    if failures:
        sys.exit("%d of %d meshes differ from serial" % (failures, len(MESHES)))


if __name__ == "__main__":
    main()
