// Borrowed arrays describing a mesh in the layout VTK keeps it in (packed xyz points; cells as
// offsets + connectivity, 32- or 64-bit), for DeviceMesh to upload as they are. Nothing here
// owns or copies memory.
#pragma once
#include "gpumesh/mesh/CellKind.h"
#include "gpumesh/runtime/Precision.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpumesh
{

struct PointsView
{
  const void* xyz = nullptr; ///< (count - tailCount) x 3 coordinates: all of them without a tail
  bool isDouble = false;     ///< double coordinates, else float (the tail's too)
  std::int64_t count = 0;    ///< all points, the tail's included
  /// The last tailCount points when they lie elsewhere: a distributed piece's ghost points,
  /// which follow the input's own without a copy of those.
  const void* tailXyz = nullptr;
  std::int64_t tailCount = 0;
  /// Subtracted from every point when double coordinates go to a Single-precision run, so a
  /// mesh far from the origin keeps its shape in float (e.g. the centre of the bounds; under
  /// MPI, of the global bounds). Unused otherwise: the kernels compute relative to a point of
  /// each cell.
  std::array<double, 3> origin{ 0.0, 0.0, 0.0 };

  std::int64_t headCount() const { return count - tailCount; }
  /// Whether a run of `precision` rounds these points to float relative to `origin` (double
  /// points in Single): the one case where `origin` matters.
  bool roundedIn(Precision precision) const { return isDouble && precision == Precision::Single; }
  /// Coordinate c of point p, in double.
  double coordinate(std::int64_t p, int c) const
  {
    const void* values = p < headCount() ? xyz : tailXyz;
    const std::int64_t at = 3 * (p < headCount() ? p : p - headCount()) + c;
    return isDouble ? static_cast<const double*>(values)[at] : static_cast<const float*>(values)[at];
  }
};

/// How the cells of a section get their kind.
enum class SectionLayout
{
  ByTypeCode, ///< one type code per cell, mapped by a CellTypeTable
  Polygons,   ///< 3 points: triangle, 4: quad, more: polygon (vtkPolyData's polys)
  Lines,      ///< 2 points: line, more: polyline (vtkPolyData's lines)
  Strips,     ///< triangle strips (vtkPolyData's strips)
  LeftOut     ///< cells that take part in nothing (vertices): only counted
};

/// Maps per-cell type codes (VTK's cell types, for the VTK adapter) to kinds.
struct CellTypeTable
{
  static constexpr std::int32_t leftOut = 0xff;     ///< the cell takes part in nothing
  static constexpr std::int32_t unsupported = 0xfe; ///< the cell is an error
  /// The corners of this type come in raster order (VTK's pixels, voxels): 2 and 3, 6 and 7
  /// are swapped to make a quad or a hexahedron.
  static constexpr std::int32_t rasterOrder = 0x100;

  /// Entry per code: a CellKind value, leftOut or unsupported, possibly | rasterOrder.
  std::array<std::int32_t, 256> entries;
  /// Names a code in error messages ("VTK_QUADRATIC_TETRA").
  std::function<std::string(int code)> describe;

  CellTypeTable() { entries.fill(unsupported); }
  void set(int code, CellKind kind, bool raster = false)
  {
    entries[code] = static_cast<std::int32_t>(kind) | (raster ? rasterOrder : 0);
  }
};

struct CellSection
{
  SectionLayout layout = SectionLayout::LeftOut;
  std::int64_t cellCount = 0;
  std::int64_t firstCellId = 0;         ///< the id of the section's first cell in the mesh
  const void* offsets = nullptr;        ///< cellCount + 1 entries, offsets[0] = 0
  const void* connectivity = nullptr;   ///< offsets[cellCount] point ids
  bool indices64 = false;               ///< 64-bit offsets and ids, else 32-bit
  const std::uint8_t* typeCodes = nullptr; ///< ByTypeCode: one per cell
  const CellTypeTable* table = nullptr;    ///< ByTypeCode
};

/// A mesh: points, and sections whose cell ids follow each other. A kind of a fixed number of
/// points may come from several sections (a piece's cells, then its ghost cells); one of
/// variable size (polygons, polylines) from one section only.
struct MeshView
{
  PointsView points;
  std::vector<CellSection> sections;
  /// The arrays stay alive and unchanged as long as the DeviceMesh made from this view (and
  /// the run's commands on it): a device that works in host memory (a CPU) then reads them
  /// where they are instead of copying them (DeviceRun::borrow).
  bool readInPlace = false;
  std::int64_t cellCount() const
  {
    std::int64_t total = 0;
    for (const CellSection& section : sections)
      total += section.cellCount;
    return total;
  }
};

} // namespace gpumesh
