"""numpy references for GPU Mesh Quality's PointQuality, histograms and BadCellCount, from the
per-cell Quality values and the cells' point ids (shared by the serial and the MPI tests)."""
import numpy as np
from vtkmodules.vtkCommonDataModel import (
    VTK_HEXAHEDRON, VTK_PIXEL, VTK_PYRAMID, VTK_QUAD, VTK_TETRA, VTK_TRIANGLE, VTK_VOXEL, VTK_WEDGE)

# VTK cell type -> the field data array of its kind (pixels and voxels count as quads and hexahedra).
FIELD_OF_TYPE = {
    VTK_TRIANGLE: "Mesh Triangle Quality", VTK_QUAD: "Mesh Quadrilateral Quality",
    VTK_PIXEL: "Mesh Quadrilateral Quality", VTK_TETRA: "Mesh Tetrahedron Quality",
    VTK_PYRAMID: "Mesh Pyramid Quality", VTK_WEDGE: "Mesh Wedge Quality",
    VTK_HEXAHEDRON: "Mesh Hexahedron Quality", VTK_VOXEL: "Mesh Hexahedron Quality"}
# Cells GPU Mesh Quality takes into its mesh (2D and 3D); others take part in no point value.
SURFACE_OR_VOLUME = set(FIELD_OF_TYPE)


def cells_of(dataset):
    """[(cell type, [point ids])] of every cell."""
    out = []
    for c in range(dataset.GetNumberOfCells()):
        cell = dataset.GetCell(c)
        out.append((dataset.GetCellType(c), [cell.GetPointId(k) for k in range(cell.GetNumberOfPoints())]))
    return out


def point_quality(cells, quality, points, how):
    """Minimum, Maximum or Mean of the non-NaN quality of the cells around each point, NaN
    where there is none (only cells of 2D and 3D kinds count)."""
    around = [[] for _ in range(points)]
    for (cell_type, ids), q in zip(cells, quality):
        if np.isnan(q):
            continue
        for p in set(ids):
            around[p].append(q)
    reduce = {"Minimum": min, "Maximum": max, "Mean": lambda v: float(np.mean(v))}[how]
    return np.array([reduce(v) if v else np.nan for v in around])


def histograms(cells, quality, bins):
    """{field name + ' Histogram': counts} of every kind present, as numpy.histogram over the
    kind's [min, max]."""
    by_field = {}
    for (cell_type, _), q in zip(cells, quality):
        if cell_type in FIELD_OF_TYPE and not np.isnan(q):
            by_field.setdefault(FIELD_OF_TYPE[cell_type], []).append(q)
    out = {}
    for field, values in by_field.items():
        values = np.array(values, dtype=np.float64)
        out[field + " Histogram"] = np.histogram(values, bins, range=(values.min(), values.max()))[0]
    return out


def bad_cells(quality, side, threshold):
    values = quality[~np.isnan(quality)]
    return int(np.count_nonzero(values < threshold if side == "Below" else values > threshold))
