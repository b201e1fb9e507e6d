"""A mesh near a concave boundary, where plain Laplacian smoothing inverts cells: the thick
cylindrical shell r0 <= r <= r1 around a hole of radius r0, its layers graded from a thin first
layer at the hole (geometric growth), the interior points jittered. Laplacian smoothing pulls
each point towards the mean of its neighbours, which around the hole lies nearer to the axis
than the point: the thin first layer is crossed within a few steps.

    pvpython gpumesh_shell.py OUT.vtu     writes the tetrahedral shell (data/shell_tets.vtu)
"""
import sys

import numpy as np
from vtkmodules.util.numpy_support import numpy_to_vtk
from vtkmodules.vtkCommonCore import vtkPoints
from vtkmodules.vtkCommonDataModel import (
    VTK_HEXAHEDRON, VTK_QUAD, VTK_TETRA, VTK_TRIANGLE, vtkCellArray, vtkUnstructuredGrid)

# The hexahedron corners (i, j, k offsets, VTK order) and its split into 6 tetrahedra around the
# diagonal 0-6 (Kuhn), which neighbouring hexahedra split alike on their common faces.
CORNERS = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
KUHN = [(1, 2), (2, 3), (3, 7), (7, 4), (4, 5), (5, 1)]


def shell(kind="tetra", layers=6, around=24, rows=4, r0=1.0, first=0.02, growth=1.5, height=0.6,
          jitter=0.3, seed=3):
    """An unstructured grid of tetrahedra, hexahedra, or (kind 'triangle'/'quad', rows ignored)
    the annulus in the plane z = 0. Interior points move at random by up to `jitter` of the
    radial size of their layer, in every direction; every cell keeps a positive volume
    (triangles and quads: counter-clockwise seen from +z)."""
    planar = kind in ("triangle", "quad")
    rows = 0 if planar else rows
    radii = [r0]
    step = first
    for _ in range(layers):
        radii.append(radii[-1] + step)
        step *= growth
    radii = np.array(radii)
    angles = 2 * np.pi * np.arange(around) / around
    heights = np.linspace(0.0, height, rows + 1)
    R, T, Z = np.meshgrid(radii, angles, heights, indexing="ij")
    xyz = np.column_stack([(R * np.cos(T)).ravel(), (R * np.sin(T)).ravel(), Z.ravel()])

    def index(i, j, k):
        return (i * around + j % around) * (rows + 1) + k

    ring = np.repeat(np.arange(layers + 1), around * (rows + 1))
    level = np.tile(np.arange(rows + 1), (layers + 1) * around)
    boundary = (ring == 0) | (ring == layers)
    if not planar:
        boundary |= (level == 0) | (level == rows)
    spacing = np.append(np.diff(radii), step)[ring]
    rng = np.random.default_rng(seed)
    moved = xyz + rng.uniform(-jitter, jitter, xyz.shape) * spacing[:, None]
    if planar:
        moved[:, 2] = 0.0
    xyz[~boundary] = moved[~boundary]

    cells = []
    for i in range(layers):
        for j in range(around):
            if planar:
                quad = [index(i, j, 0), index(i + 1, j, 0), index(i + 1, j + 1, 0), index(i, j + 1, 0)]
                cells += [quad] if kind == "quad" else [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]]
                continue
            for k in range(rows):
                c = [index(i + a, j + b, k + e) for a, b, e in CORNERS]
                if kind == "hexahedron":
                    cells.append(c)
                else:
                    cells += [[c[0], c[p], c[q], c[6]] for p, q in KUHN]
    cells = np.array(cells)
    if kind == "tetra":
        a, b, c, d = (xyz[cells[:, m]] for m in range(4))
        flip = np.einsum("ij,ij->i", b - a, np.cross(c - a, d - a)) < 0
        cells[flip] = cells[flip][:, [0, 2, 1, 3]]
    cell_type = {"tetra": VTK_TETRA, "hexahedron": VTK_HEXAHEDRON, "triangle": VTK_TRIANGLE, "quad": VTK_QUAD}[kind]
    grid = vtkUnstructuredGrid()
    points = vtkPoints()
    points.SetData(numpy_to_vtk(np.ascontiguousarray(xyz), deep=1))
    grid.SetPoints(points)
    array = vtkCellArray()
    for cell in cells:
        array.InsertNextCell(len(cell), [int(v) for v in cell])
    grid.SetCells(cell_type, array)
    return grid


if __name__ == "__main__":
    from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridWriter
    writer = vtkXMLUnstructuredGridWriter()
    writer.SetFileName(sys.argv[1])
    writer.SetInputData(shell())
    writer.SetDataModeToAppended()
    writer.SetCompressorTypeToZLib()
    writer.Write()
