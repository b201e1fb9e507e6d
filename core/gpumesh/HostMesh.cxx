#include "gpumesh/HostMesh.h"

#include "gpumesh/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace gpumesh
{

namespace
{
constexpr std::int64_t maxIndex = std::numeric_limits<std::int32_t>::max();

void checkIndexSpace(std::int64_t count, const std::string& what)
{
  if (count < 0 || count > maxIndex)
  {
    throw Error("The mesh has " + std::to_string(count) + " " + what +
      ", more than the 2^31-1 that the device's 32-bit indices can address");
  }
}
} // namespace

template <typename Real>
void HostMesh::copyPoints(const Real* xyz, std::int64_t count)
{
  checkIndexSpace(count, "points");
  double lower[3] = { 0, 0, 0 };
  double upper[3] = { 0, 0, 0 };
  for (std::int64_t i = 0; i < count; ++i)
  {
    for (int c = 0; c < 3; ++c)
    {
      const double x = static_cast<double>(xyz[3 * i + c]);
      if (!std::isfinite(x))
      {
        throw Error("Point " + std::to_string(i) + " has a non-finite coordinate (" +
          formatNumber(x) + ")");
      }
      lower[c] = i == 0 ? x : std::min(lower[c], x);
      upper[c] = i == 0 ? x : std::max(upper[c], x);
    }
  }
  for (int c = 0; c < 3; ++c)
  {
    Origin[c] = 0.5 * (lower[c] + upper[c]);
  }
  Points.assign(static_cast<std::size_t>(4 * count), 0.0f);
  for (std::int64_t i = 0; i < count; ++i)
  {
    for (int c = 0; c < 3; ++c)
    {
      Points[4 * i + c] = static_cast<float>(static_cast<double>(xyz[3 * i + c]) - Origin[c]);
    }
  }
}

void HostMesh::setPoints(const double* xyz, std::int64_t count)
{
  copyPoints(xyz, count);
}

void HostMesh::setPoints(const float* xyz, std::int64_t count)
{
  copyPoints(xyz, count);
}

void HostMesh::setCellCount(std::int64_t count)
{
  checkIndexSpace(count, "cells");
  CellCount = count;
}

void HostMesh::addCell(std::int64_t cellId, CellKind kind, const std::int64_t* pointIds, std::int64_t n)
{
  // The message is only composed when something is wrong: this runs once per cell.
  const auto cell = [&] { return "Cell " + std::to_string(cellId) + " (" + cellKindName(kind) + ")"; };
  if (cellId < 0 || cellId >= CellCount)
  {
    throw Error(cell() + " is outside the declared " + std::to_string(CellCount) + " cells");
  }
  const int fixed = fixedVertexCount(kind);
  if ((fixed > 0 && n != fixed) || n < minimumVertexCount(kind))
  {
    throw Error(cell() + " has " + std::to_string(n) + " points, which is not valid for its type");
  }
  CellGroup& group = Groups[static_cast<int>(kind)];
  group.kind = kind;
  if (static_cast<std::int64_t>(group.connectivity.size()) + n > maxIndex)
  {
    throw Error(cell() + " makes the " + cellKindName(kind) +
      " connectivity exceed 2^31-1 entries, the limit of the device's 32-bit indices");
  }
  const std::int64_t points = pointCount();
  for (std::int64_t k = 0; k < n; ++k)
  {
    if (pointIds[k] < 0 || pointIds[k] >= points)
    {
      throw Error(cell() + " refers to point " + std::to_string(pointIds[k]) + ", but the mesh has " +
        std::to_string(points) + " points");
    }
    group.connectivity.push_back(static_cast<std::int32_t>(pointIds[k]));
  }
  if (fixed < 0)
  {
    if (group.offsets.empty())
    {
      group.offsets.push_back(0);
    }
    group.offsets.push_back(static_cast<std::int32_t>(group.connectivity.size()));
  }
  group.cellIds.push_back(static_cast<std::int32_t>(cellId));
}

} // namespace gpumesh
