#!/usr/bin/env pvpython
"""Sanity checks of the sample meshes: pvpython check_meshes.py (run in data/)."""
import math
import sys

import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkCommonDataModel import VTK_HEXAHEDRON, VTK_TETRA, VTK_TRIANGLE
from vtkmodules.vtkFiltersCore import vtkFeatureEdges
from vtkmodules.vtkFiltersGeometry import vtkGeometryFilter
from vtkmodules.vtkFiltersVerdict import vtkCellSizeFilter
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

# name, cell type, measure array, expected measure, relative tolerance
CASES = [
    ("plate_with_holes", VTK_TRIANGLE, "Area", 8.0 - math.pi * (0.35**2 + 0.30**2 + 0.40**2), 2e-3),
    ("sphere_surface", VTK_TRIANGLE, "Area", 4.0 * math.pi, 5e-3),
    ("ball_tets", VTK_TETRA, "Volume", 4.0 / 3.0 * math.pi, 2e-2),
    ("hex_block", VTK_HEXAHEDRON, "Volume", 2.0 * 1.5 * 1.0, 1e-12),
]

ok = True
for name, ctype, measure, expected, tol in CASES:
    r = vtkXMLUnstructuredGridReader()
    r.SetFileName(name + ".vtu")
    r.Update()
    ug = r.GetOutput()
    types = set(vtk_to_numpy(ug.GetCellTypesArray()).tolist())
    pts = vtk_to_numpy(ug.GetPoints().GetData())
    conn = vtk_to_numpy(ug.GetCells().GetConnectivityArray())
    ndup = len(pts) - len(np.unique(pts, axis=0))
    nunused = len(pts) - len(np.unique(conn))

    f = vtkCellSizeFilter()
    f.SetInputData(ug)
    f.ComputeVertexCountOff(); f.ComputeLengthOff(); f.ComputeSumOn()
    f.Update()
    size = vtk_to_numpy(f.GetOutput().GetCellData().GetArray(measure))
    total = float(size.sum())

    g = vtkGeometryFilter(); g.SetInputData(ug)
    fe = vtkFeatureEdges(); fe.SetInputConnection(g.GetOutputPort())
    fe.BoundaryEdgesOn(); fe.NonManifoldEdgesOn(); fe.FeatureEdgesOff(); fe.ManifoldEdgesOff()
    fe.Update()
    nopen = fe.GetOutput().GetNumberOfCells()  # boundary + non-manifold edges of the (boundary) surface

    extra = ""
    good = types == {ctype} and ndup == 0 and nunused == 0 and size.min() > 0 \
        and abs(total - expected) <= tol * expected
    if name == "plate_with_holes":
        p = pts[conn.reshape(-1, 3)]
        nz = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])[:, 2]
        extra = f", z-range {np.ptp(pts[:, 2]):.1e}, clockwise tris {(nz <= 0).sum()}"
        good &= bool(np.ptp(pts[:, 2]) == 0 and (nz > 0).all())
    elif name == "sphere_surface":
        p = pts[conn.reshape(-1, 3)]
        n = np.cross(p[:, 1] - p[:, 0], p[:, 2] - p[:, 0])
        inward = int((np.einsum("ij,ij->i", n, p.mean(axis=1)) <= 0).sum())
        rad = np.linalg.norm(pts, axis=1)
        extra = (f", open/non-manifold edges {nopen}, inward tris {inward}, "
                 f"|r-1| max {abs(rad - 1).max():.1e}, Euler V-E+F {len(pts) - len(size) * 3 // 2 + len(size)}")
        good &= nopen == 0 and inward == 0
    else:
        extra = f", open/non-manifold edges of boundary surface {nopen}"
        good &= nopen == 0
    ok &= bool(good)
    print(f"{'OK  ' if good else 'FAIL'} {name}: types {sorted(types)}, {ug.GetNumberOfCells()} cells, "
          f"{ug.GetNumberOfPoints()} points, dup points {ndup}, unused points {nunused}, "
          f"min {measure.lower()} {size.min():.3e}, total {measure.lower()} {total:.6f} "
          f"(expected {expected:.6f}, rel. err {abs(total - expected) / expected:.1e}){extra}")
sys.exit(0 if ok else 1)
