#include "gpumesh/mesh/HostMesh.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/IndexSpace.h"

#include <algorithm>
#include <limits>
#include <string>

namespace gpumesh
{

namespace
{
constexpr std::uint8_t leftOutCode = 0xff;

// Code k is CellKind k; leftOutCode is a cell that was never added.
const CellTypeTable& kindCodes()
{
  static const CellTypeTable table = [] {
    CellTypeTable t;
    for (int k = 0; k < cellKindCount; ++k)
      t.set(k, static_cast<CellKind>(k));
    t.entries[leftOutCode] = CellTypeTable::leftOut;
    t.describe = [](int code) { return "cell of code " + std::to_string(code); };
    return t;
  }();
  return table;
}

template <typename Real>
std::array<double, 3> boundsCentre(const std::vector<Real>& xyz)
{
  std::array<double, 3> centre{ 0.0, 0.0, 0.0 };
  for (int c = 0; c < 3; ++c)
  {
    double lower = 0.0, upper = 0.0;
    for (std::size_t i = c; i < xyz.size(); i += 3)
    {
      lower = i == static_cast<std::size_t>(c) ? xyz[i] : std::min<double>(lower, xyz[i]);
      upper = i == static_cast<std::size_t>(c) ? xyz[i] : std::max<double>(upper, xyz[i]);
    }
    centre[c] = 0.5 * (lower + upper);
  }
  return centre;
}
} // namespace

void HostMesh::setPoints(const double* xyz, std::int64_t count)
{
  checkIndexSpace(count, "points");
  DoublePoints.assign(xyz, xyz + 3 * count);
  FloatPoints.clear();
  PointCount = count;
  Centre = boundsCentre(DoublePoints);
}

void HostMesh::setPoints(const float* xyz, std::int64_t count)
{
  checkIndexSpace(count, "points");
  FloatPoints.assign(xyz, xyz + 3 * count);
  DoublePoints.clear();
  PointCount = count;
  Centre = boundsCentre(FloatPoints);
}

void HostMesh::setCellCount(std::int64_t count)
{
  checkIndexSpace(count, "cells");
  CellCount = count;
}

void HostMesh::closeCellsUpTo(std::int64_t cellId) const
{
  while (static_cast<std::int64_t>(Codes.size()) < cellId)
  {
    Codes.push_back(leftOutCode);
    Offsets.push_back(Offsets.back());
  }
}

void HostMesh::addCell(std::int64_t cellId, CellKind kind, const std::int64_t* pointIds, std::int64_t n)
{
  const auto cell = [&] { return "Cell " + std::to_string(cellId) + " (" + cellKindName(kind) + ")"; };
  if (cellId < 0 || cellId >= CellCount)
  {
    throw Error(cell() + " is outside the declared " + std::to_string(CellCount) + " cells");
  }
  if (cellId < static_cast<std::int64_t>(Codes.size()))
  {
    throw Error(cell() + " comes after cell " + std::to_string(Codes.size() - 1) + ": add cells in order");
  }
  const int fixed = fixedVertexCount(kind);
  if ((fixed > 0 && n != fixed) || n < minimumVertexCount(kind))
  {
    throw Error(cell() + " has " + std::to_string(n) + " points, which is not valid for its type");
  }
  for (std::int64_t k = 0; k < n; ++k)
  {
    if (pointIds[k] < 0 || pointIds[k] >= PointCount)
    {
      throw Error(cell() + " refers to point " + std::to_string(pointIds[k]) + ", but the mesh has " +
        std::to_string(PointCount) + " points");
    }
  }
  closeCellsUpTo(cellId);
  Connectivity.insert(Connectivity.end(), pointIds, pointIds + n);
  Offsets.push_back(static_cast<std::int64_t>(Connectivity.size()));
  Codes.push_back(static_cast<std::uint8_t>(kind));
}

MeshView HostMesh::view() const
{
  closeCellsUpTo(CellCount);
  MeshView view;
  view.points.count = PointCount;
  view.points.isDouble = hasDoublePoints();
  view.points.xyz = view.points.isDouble ? static_cast<const void*>(DoublePoints.data())
                                         : static_cast<const void*>(FloatPoints.data());
  view.points.origin = Centre;
  CellSection section;
  section.layout = SectionLayout::ByTypeCode;
  section.cellCount = CellCount;
  section.offsets = Offsets.data();
  section.connectivity = Connectivity.data();
  section.indices64 = true;
  section.typeCodes = Codes.data();
  section.table = &kindCodes();
  view.sections.push_back(section);
  return view;
}

} // namespace gpumesh
