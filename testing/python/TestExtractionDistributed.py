"""GPU Extract Surface and GPU Extract Edges under MPI give the serial result: run with
`mpiexec -np N pvbatch` [--layout redistribute|ghost-cells|one-empty].

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
from extraction_reference import ids_of, line_ends, surface_cells, vtk_edges, vtk_feature_edges, vtk_surface

gt.load_plugin()

MESHES = ["ball_tets.vtu", "hex_block.vtu", "shell_tets.vtu", "plate_with_holes.vtu", "sphere_surface.vtu",
          "ball_tets+surface"]
# (filter, mesh, properties): GPUExtractSurface on every mesh, then GPUExtractEdges.
CASES = [("GPUExtractSurface", mesh, {}) for mesh in MESHES] + \
    [("GPUExtractEdges", mesh, {}) for mesh in MESHES] + \
    [("GPUExtractEdges", mesh, {"Selection": selection, "FeatureAngle": angle}) for mesh, selection, angle in (
        ("plate_with_holes.vtu", "Boundary Edges", 30.0),
        ("plate_with_holes.vtu", "Boundary and Feature Edges", 30.0),
        ("sphere_surface.vtu", "Feature Edges", 2.0),
        ("sphere_surface.vtu", "Boundary and Feature Edges", 2.0),
        ("hex_block surface", "Feature Edges", 30.0))]
SELECTIONS = {"Boundary Edges": (1, 0), "Feature Edges": (0, 1), "Boundary and Feature Edges": (1, 1)}


def mesh_file(name, folder):
    """A sample mesh's file, or one written in `folder`: ball_tets with its own surface triangles
    appended (2D and 3D mixed), or hex_block's surface quadrilaterals (folded at its 12 edges)."""
    if name not in ("ball_tets+surface", "hex_block surface"):
        return gt.data_path(name)
    volume = gt.read_vtu("ball_tets.vtu" if name == "ball_tets+surface" else "hex_block.vtu")
    surface = vtk_surface(volume)
    surface.GetPointData().Initialize()
    surface.GetCellData().Initialize()
    append = vtkAppendFilter()
    append.MergePointsOn()
    if name == "ball_tets+surface":
        append.AddInputData(volume)
    append.AddInputData(surface)
    writer = vtkXMLUnstructuredGridWriter()
    writer.SetInputConnection(append.GetOutputPort())
    path = os.path.join(folder, name.replace(" ", "_").replace("+", "_and_") + ".vtu")
    writer.SetFileName(path)
    writer.Write()
    return path


def read(path):
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()


def expected_cells(filter_name, mesh, properties):
    """The serial reference: the surface's cells, or the edges as sorted pairs of input point ids
    (all edges) or of coordinates (vtkFeatureEdges renumbers its points)."""
    if filter_name == "GPUExtractSurface":
        return surface_cells(vtk_surface(mesh))
    selection = properties.get("Selection")
    if selection is None:
        return sorted(line_ends(vtk_edges(mesh)))
    boundary, feature = SELECTIONS[selection]
    surface = vtk_surface(mesh)  # the triangles as a vtkPolyData, input point ids kept
    reference = vtk_feature_edges(surface, boundary, feature, properties["FeatureAngle"])
    xyz = np.asarray(dsa.WrapDataObject(reference).Points)
    return sorted(tuple(sorted((tuple(xyz[a]), tuple(xyz[b])))) for a, b in line_ends(reference))


def piece_cells(filter_name, piece, properties, xyz):
    """A piece's output as expected_cells gives the reference, through the carried PointIds."""
    if filter_name == "GPUExtractSurface":
        return surface_cells(piece, "PointIds", "CellIds")
    ends = line_ends(piece, ids_of(piece, "PointIds", True))
    if properties.get("Selection") is None:
        return ends
    return [tuple(sorted((tuple(xyz[a]), tuple(xyz[b])))) for a, b in ends]


def run_case(filter_name, name, properties, ranks, layout, folder):
    # Every process reads the file (a source fed from process 0 alone would not be distributed).
    path = mesh_file(name, folder)
    mesh = read(path)
    expected = expected_cells(filter_name, mesh, properties)
    xyz = np.asarray(dsa.WrapDataObject(mesh).Points)

    source = simple.XMLUnstructuredGridReader(FileName=[path])
    numbered = simple.GenerateIds(Input=source, PointIdsArrayName="PointIds", CellIdsArrayName="CellIds")
    pieces = simple.RedistributeDataSet(Input=numbered, NumberOfPartitions=ranks - 1 if layout == "one-empty" else 0)
    last = simple.GhostCellsGenerator(Input=pieces) if layout == "ghost-cells" else pieces
    extraction = getattr(simple, filter_name)(Input=last, **properties)
    with gt.CapturedErrors() as errors:
        extraction.UpdatePipeline()
        outputs = [servermanager.Fetch(extraction, rank) for rank in range(ranks)]
    problems = []
    if errors.text.strip():
        problems.append("errors: " + errors.text.strip()[:500])
    got = []
    for rank, piece in enumerate(outputs):
        if piece.GetNumberOfCells() == 0:
            continue  # (an empty piece's arrays do not survive Fetch)
        got += piece_cells(filter_name, piece, properties, xyz)
        points = ids_of(piece, "PointIds", True)
        if not np.array_equal(np.asarray(dsa.WrapDataObject(piece).Points), xyz[points]):
            problems.append("process %d: points differ from the input's" % rank)
        if piece.GetCellData().GetArray("vtkGhostType") is not None and \
                np.any(ids_of(piece, "vtkGhostType", False) != 0):
            problems.append("process %d: ghost cells in the output" % rank)
    got.sort()
    if not expected:
        problems.append("the serial reference is empty: nothing compared")
    if got != expected:
        missing = len(set(expected) - set(got))
        extra = len(got) - len(expected) + missing
        problems.append("%d cells, serial %d (%d of serial's missing, %d others)" % (len(got), len(expected), missing, extra))
    for proxy in [extraction] + ([last] if last is not pieces else []) + [pieces, numbered, source]:
        simple.Delete(proxy)
    cells = [piece.GetNumberOfCells() for piece in outputs]
    print("%s %s %s on %d processes (%s, cells per process %s): %s"
          % (filter_name, name, properties, ranks, layout, cells, "; ".join(problems) or "the serial result"))
    return not problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--layout", default="redistribute", choices=["redistribute", "ghost-cells", "one-empty"])
    layout = parser.parse_args().layout
    ranks = servermanager.ActiveConnection.GetNumberOfDataPartitions()
    with tempfile.TemporaryDirectory() as folder:
        failures = sum(not run_case(*case, ranks, layout, folder) for case in CASES)
    if failures:
        sys.exit("%d of %d cases differ from serial" % (failures, len(CASES)))


if __name__ == "__main__":
    main()
