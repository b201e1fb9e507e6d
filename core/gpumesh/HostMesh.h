// A mesh described on the host, ready for upload: what an adapter (e.g. the VTK one) fills.
#pragma once
#include "gpumesh/CellKind.h"

#include <array>
#include <cstdint>
#include <vector>

namespace gpumesh
{

/// The cells of one kind. Fixed-size kinds store fixedVertexCount(kind) ids per cell;
/// variable-size kinds also store offsets (count + 1 entries, starting at 0).
struct CellGroup
{
  CellKind kind = CellKind::Line;
  std::vector<std::int32_t> connectivity;
  std::vector<std::int32_t> offsets;
  std::vector<std::int32_t> cellIds; ///< the id of each cell in the adapter's numbering
  std::size_t size() const { return cellIds.size(); }
};

/// Points are kept relative to `origin()`, the centre of their bounds, in float: translation
/// does not change lengths, areas or volumes, and small cells far from the origin keep their
/// accuracy in single precision. Every index is checked to fit the device's 32-bit ints.
class HostMesh
{
public:
  /// Copies `count` points of 3 coordinates. Throws gpumesh::Error naming the first point
  /// with a NaN or infinite coordinate, or when count exceeds 2^31 - 1.
  void setPoints(const double* xyz, std::int64_t count);
  void setPoints(const float* xyz, std::int64_t count);

  /// Makes setPoints use `origin` instead of the centre of the points' bounds: the pieces of a
  /// distributed mesh share one origin so that each cell is computed as it is in serial.
  void setOrigin(const std::array<double, 3>& origin);

  /// Declares the number of cells of the source mesh (cell ids range over [0, count)).
  void setCellCount(std::int64_t count);

  /// Adds cell `cellId` of `kind` with `n` point ids. Throws gpumesh::Error naming the cell if
  /// an id is out of range, the vertex count does not fit the kind, or the id space overflows.
  void addCell(std::int64_t cellId, CellKind kind, const std::int64_t* pointIds, std::int64_t n);

  std::int64_t pointCount() const { return static_cast<std::int64_t>(Points.size() / 4); }
  std::int64_t cellCount() const { return CellCount; }
  const std::array<double, 3>& origin() const { return Origin; }
  /// x, y, z, 0 per point, relative to origin().
  const std::vector<float>& points() const { return Points; }
  const CellGroup& group(CellKind kind) const { return Groups[static_cast<int>(kind)]; }

private:
  template <typename Real>
  void copyPoints(const Real* xyz, std::int64_t count);

  std::vector<float> Points;
  std::array<double, 3> Origin{ 0.0, 0.0, 0.0 };
  bool OriginGiven = false;
  std::int64_t CellCount = 0;
  std::array<CellGroup, cellKindCount> Groups;
};

} // namespace gpumesh
