#!/usr/bin/env pvpython
"""Convert a gmsh legacy-VTK mesh to a clean VTK XML unstructured grid (.vtu).

Usage: pvpython gmsh_to_vtu.py IN.vtk OUT.vtu {triangle|tetra|hexahedron} [--outward]

* keeps ONLY the cells of the requested (linear) type, drops vertex/line/boundary cells;
* merges points with identical coordinates and removes unused points
  (surviving points keep their original relative order, so the output is deterministic);
* orients cells consistently:
    triangle  : counter-clockwise seen from +z (planar meshes), or with --outward
                normals pointing away from the bounding-box centre (closed surfaces);
    tetra     : positive signed volume;
    hexahedron: positive volume (bottom face 0-1-2-3 oriented towards top face 4-5-6-7);
* writes Float64 points, Int64 connectivity, appended raw binary, zlib compressed.
"""
import sys

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk, numpy_to_vtkIdTypeArray, vtk_to_numpy
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import (VTK_HEXAHEDRON, VTK_TETRA, VTK_TRIANGLE,
                                           vtkCellArray, vtkUnstructuredGrid)
from vtkmodules.vtkIOLegacy import vtkUnstructuredGridReader
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridWriter

TYPES = {"triangle": (VTK_TRIANGLE, 3), "tetra": (VTK_TETRA, 4), "hexahedron": (VTK_HEXAHEDRON, 8)}


def main(argv):
    if len(argv) < 4 or argv[3] not in TYPES:
        sys.exit(__doc__)
    src, dst, kind = argv[1], argv[2], argv[3]
    outward = "--outward" in argv[4:]
    vtype, nv = TYPES[kind]

    reader = vtkUnstructuredGridReader()
    reader.SetFileName(src)
    reader.ReadAllScalarsOn()
    reader.Update()
    ug = reader.GetOutput()

    pts = vtk_to_numpy(ug.GetPoints().GetData()).astype(np.float64)
    types = vtk_to_numpy(ug.GetCellTypesArray())
    offs = vtk_to_numpy(ug.GetCells().GetOffsetsArray()).astype(np.int64)
    conn = vtk_to_numpy(ug.GetCells().GetConnectivityArray()).astype(np.int64)

    keep = np.nonzero(types == vtype)[0]
    if keep.size == 0:
        sys.exit(f"{src}: no cells of type {kind}")
    if np.any(offs[keep + 1] - offs[keep] != nv):
        sys.exit(f"{src}: unexpected number of points per {kind}")
    cells = conn[offs[keep][:, None] + np.arange(nv)[None, :]]
    dropped = {int(t): int(c) for t, c in zip(*np.unique(types[types != vtype], return_counts=True))}

    # merge coincident points (exact coordinates), keep first occurrence, preserve order
    _, first, inverse = np.unique(pts, axis=0, return_index=True, return_inverse=True)
    cells = first[inverse.reshape(-1)][cells]
    # drop unused points, renumber in original order
    used = np.unique(cells)
    newid = np.full(len(pts), -1, dtype=np.int64)
    newid[used] = np.arange(used.size)
    pts = pts[used]
    cells = newid[cells]

    # orientation
    p = pts[cells]
    flipped = 0
    if kind == "triangle":
        n = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
        if outward:
            centre = 0.5 * (pts.min(axis=0) + pts.max(axis=0))
            bad = np.einsum("ij,ij->i", n, p.mean(axis=1) - centre) < 0
        else:
            bad = n[:, 2] < 0
        cells[bad] = cells[bad][:, [0, 2, 1]]
    elif kind == "tetra":
        vol = np.einsum("ij,ij->i", np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]), p[:, 3] - p[:, 0])
        bad = vol < 0
        cells[bad] = cells[bad][:, [0, 2, 1, 3]]
    else:  # hexahedron: bottom-face normal must point towards the top face
        n = np.cross(p[:, 2] - p[:, 0], p[:, 3] - p[:, 1])
        bad = np.einsum("ij,ij->i", n, p[:, 4:].mean(axis=1) - p[:, :4].mean(axis=1)) < 0
        cells[bad] = cells[bad][:, [4, 5, 6, 7, 0, 1, 2, 3]]
    flipped = int(bad.sum())

    out = vtkUnstructuredGrid()
    vp = vtkPoints()
    vp.SetData(numpy_to_vtk(np.ascontiguousarray(pts), deep=True))
    out.SetPoints(vp)
    ca = vtkCellArray()
    ca.SetData(numpy_to_vtkIdTypeArray(np.arange(0, cells.size + 1, nv, dtype=np.int64), deep=True),
               numpy_to_vtkIdTypeArray(np.ascontiguousarray(cells.reshape(-1)), deep=True))
    out.SetCells(vtype, ca)

    w = vtkXMLUnstructuredGridWriter()
    w.SetFileName(dst)
    w.SetInputData(out)
    w.SetDataModeToAppended()
    w.EncodeAppendedDataOff()
    w.SetCompressorTypeToZLib()
    w.SetHeaderTypeToUInt64()
    w.SetIdTypeToInt64()
    if not w.Write():
        sys.exit(f"failed to write {dst}")
    print(f"{dst}: {out.GetNumberOfCells()} {kind}, {out.GetNumberOfPoints()} points "
          f"(dropped cells by VTK type {dropped}, {flipped} re-oriented)")


if __name__ == "__main__":
    main(sys.argv)
