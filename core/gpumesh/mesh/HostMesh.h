// A mesh built cell by cell on the host (the core tests, C++ users without VTK), described to
// DeviceMesh as a MeshView. The VTK adapter does not use it: it describes VTK's own arrays.
#pragma once
#include "gpumesh/mesh/MeshView.h"

#include <array>
#include <cstdint>
#include <vector>

namespace gpumesh
{

class HostMesh
{
public:
  /// Copies `count` points of 3 coordinates, keeping their type. Throws gpumesh::Error when
  /// count exceeds 2^31 - 1.
  void setPoints(const double* xyz, std::int64_t count);
  void setPoints(const float* xyz, std::int64_t count);

  /// Declares the number of cells (cell ids range over [0, count)).
  void setCellCount(std::int64_t count);

  /// Adds cell `cellId` of `kind` with `n` point ids; ids must grow from call to call, and
  /// cells never added take part in nothing. Throws gpumesh::Error naming the cell if an id is
  /// out of range or out of order, or the vertex count does not fit the kind.
  void addCell(std::int64_t cellId, CellKind kind, const std::int64_t* pointIds, std::int64_t n);

  std::int64_t pointCount() const { return PointCount; }
  std::int64_t cellCount() const { return CellCount; }
  bool hasDoublePoints() const { return !DoublePoints.empty() || FloatPoints.empty(); }

  /// The mesh as DeviceMesh reads it; valid while this HostMesh lives unchanged. Its origin is
  /// the centre of the points' bounds.
  MeshView view() const;
  operator MeshView() const { return view(); }

private:
  void closeCellsUpTo(std::int64_t cellId) const;

  std::vector<double> DoublePoints;
  std::vector<float> FloatPoints;
  std::int64_t PointCount = 0;
  std::array<double, 3> Centre{ 0.0, 0.0, 0.0 }; ///< of the points' bounds, found once
  std::int64_t CellCount = 0;
  // One section classified by type codes: the code of a cell is its CellKind.
  mutable std::vector<std::int64_t> Offsets{ 0 };
  std::vector<std::int64_t> Connectivity;
  mutable std::vector<std::uint8_t> Codes;
};

} // namespace gpumesh
