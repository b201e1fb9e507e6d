// Length, area and volume of every cell, computed on the device.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

namespace gpumesh
{

enum class Measure
{
  Size,   ///< each cell by its dimension: length (1D), area (2D), volume (3D)
  Area,   ///< 2D cells only
  Volume, ///< 3D cells only
  Length  ///< 1D cells only
};

/// Whether `measure` gives a value for cells of `kind`.
bool measureApplies(Measure measure, CellKind kind);

/// One REAL per cell of the mesh (indexed by cell id), computed relative to each cell's first
/// point in the run's precision: lengths of lines and polylines; areas
/// of triangles, strips, quads and polygons (non-planar quads and polygons: the magnitude of
/// the vector area); signed volumes of tetrahedra, hexahedra, wedges and pyramids (exact for
/// their trilinear shapes; negative for inverted cells). NaN where the measure does not apply
/// and for cells that are not in the mesh's groups (such as vertices). Throws gpumesh::Error
/// naming the first cell whose measure is outside the range of the run's precision (it would
/// be 0 or infinite), suggesting Double for a Single run.
RealBuffer computeCellMeasures(DeviceRun& run, const DeviceMesh& mesh, Measure measure);

} // namespace gpumesh
