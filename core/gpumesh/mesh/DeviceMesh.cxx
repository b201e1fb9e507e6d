#include "gpumesh/mesh/DeviceMesh.h"

#include "gpumesh/mesh/UniformCellSize.h"
#include "gpumesh/primitives/Scan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace gpumesh
{

namespace
{
constexpr cl_int noCell = std::numeric_limits<cl_int>::max();

// Element i of a host array of 32- or 64-bit indices.
std::int64_t indexAt(const void* values, bool is64, std::int64_t i)
{
  return is64 ? static_cast<const std::int64_t*>(values)[i] : static_cast<const std::int32_t*>(values)[i];
}

// The message for the first bad cell the classification found, composed on the host from the
// section's own arrays.
std::string describeBadCell(const CellSection& section, int kind, int badWhat, std::int64_t i)
{
  const std::int64_t id = section.firstCellId + i;
  const std::int64_t begin = indexAt(section.offsets, section.indices64, i);
  const std::int64_t n = indexAt(section.offsets, section.indices64, i + 1) - begin;
  const std::string cell = "Cell " + std::to_string(id);
  if (badWhat == 3)
  {
    return cell + ": its offsets (" + std::to_string(begin) + ", " + std::to_string(begin + n) +
      ") do not lie in order inside the cell array's " +
      std::to_string(indexAt(section.offsets, section.indices64, section.cellCount)) + " point ids (a corrupt cell array)";
  }
  if (badWhat == 0)
  {
    const int code = section.typeCodes[i];
    const std::string type = section.table && section.table->describe ? section.table->describe(code)
                                                                       : "type " + std::to_string(code);
    return cell + " is a " + type +
      ", which GPUMesh filters do not handle (supported: lines, polylines, triangles, strips, "
      "quads, pixels, polygons, tetrahedra, hexahedra, voxels, wedges, pyramids)";
  }
  const std::string what = kind >= 0 && kind < cellKindCount ? cellKindName(static_cast<CellKind>(kind)) : "cell";
  if (badWhat == 1)
  {
    return cell + " (" + what + ") has " + std::to_string(n) + " points, which is not valid for its type";
  }
  for (std::int64_t k = begin; k < begin + n; ++k)
  {
    const std::int64_t point = indexAt(section.connectivity, section.indices64, k);
    if (point < 0)
      return cell + " (" + what + ") refers to point " + std::to_string(point) + ", a negative id";
  }
  return cell + " (" + what + ") refers to a point beyond the mesh's points";
}

int layoutCode(SectionLayout layout)
{
  return static_cast<int>(layout);
}
} // namespace

DeviceMesh::DeviceMesh(DeviceRun& run, const MeshView& view, int minimumDimension)
  : PointCount(view.points.count)
  , CellCount(view.cellCount())
{
  checkIndexSpace(PointCount, "points");
  checkIndexSpace(CellCount, "cells");
  uploadPoints(run, view.points, view.readInPlace);
  for (const CellSection& section : view.sections)
  {
    importSection(run, section, minimumDimension, view.readInPlace);
  }
  std::sort(Groups.begin(), Groups.end(),
    [](const DeviceCellGroup& a, const DeviceCellGroup& b) { return a.kind < b.kind; });
  for (std::size_t g = 1; g < Groups.size(); ++g)
  {
    if (Groups[g].kind == Groups[g - 1].kind)
      throw Error(std::string("Cells of kind ") + cellKindName(Groups[g].kind) +
        " come from two sections of the mesh description");
  }
}

void DeviceMesh::uploadPoints(DeviceRun& run, const PointsView& view, bool inPlace)
{
  const auto values = static_cast<std::size_t>(3 * view.count);
  if (view.count == 0)
  {
    Points = run.allocateReal(0, "points");
    return;
  }
  if (view.isDouble && run.precision() == Precision::Single)
  {
    // Rounded to float relative to the origin, so that a mesh far from it keeps its shape.
    Origin = view.origin;
    const auto* xyz = static_cast<const double*>(view.xyz);
    std::vector<float> shifted(values);
    for (std::size_t i = 0; i < values; ++i)
    {
      const double relative = xyz[i] - Origin[i % 3];
      shifted[i] = static_cast<float>(relative);
      if (!std::isfinite(xyz[i]) || std::isinf(shifted[i]))
      {
        throw Error("Point " + std::to_string(i / 3) + " has the coordinate " + formatNumber(xyz[i]) +
          (std::isfinite(xyz[i]) ? ", outside the range of single precision: set Precision to Double"
                                 : ", which is not finite"));
      }
    }
    Points = run.uploadReal(shifted.data(), values, "points");
  }
  else if (view.isDouble)
  {
    const auto* xyz = static_cast<const double*>(view.xyz);
    Points = inPlace ? run.borrowReal(xyz, values, "points") : run.uploadReal(xyz, values, "points");
  }
  else
  {
    const auto* xyz = static_cast<const float*>(view.xyz);
    Points = inPlace ? run.borrowReal(xyz, values, "points") : run.uploadReal(xyz, values, "points");
  }
  auto firstBad = run.allocate<cl_int>(1, "point check");
  run.fill(firstBad, noCell, "point check");
  run.call({ "mesh_import", "check_points" }, static_cast<std::size_t>(view.count), "check points", Points,
    static_cast<cl_int>(view.count), firstBad);
  cl_int bad = noCell;
  run.download(firstBad, &bad, 1, "point check");
  if (bad != noCell)
  {
    std::string xyz;
    for (int c = 0; c < 3; ++c)
    {
      const double value = view.isDouble ? static_cast<const double*>(view.xyz)[3 * bad + c]
                                         : static_cast<const float*>(view.xyz)[3 * bad + c];
      xyz += (c ? ", " : "") + formatNumber(value);
    }
    throw Error("Point " + std::to_string(bad) + " has a non-finite coordinate (" + xyz + ")");
  }
}

void DeviceMesh::importSection(DeviceRun& run, const CellSection& section, int minimumDimension, bool inPlace)
{
  const auto take = [&](const auto* data, std::size_t count, const std::string& what) {
    return inPlace ? run.borrow(data, count, what) : run.upload(data, count, what);
  };
  const std::int64_t cells = section.cellCount;
  if (cells == 0 || section.layout == SectionLayout::LeftOut)
  {
    return;
  }
  if (section.layout == SectionLayout::ByTypeCode && (!section.typeCodes || !section.table))
  {
    throw Error("a mesh section classified by type codes needs its codes and their table");
  }
  const std::int64_t idCount = indexAt(section.offsets, section.indices64, cells);
  checkIndexSpace(idCount, "point ids in one section of cells");
  const auto n = static_cast<std::size_t>(cells);
  const auto ids = static_cast<std::size_t>(idCount);
  // The arrays go up as they are, except 64-bit ones that go through pinned staging (to a
  // GPU): those are narrowed to 32 bits while staged, halving the bytes on the bus (values
  // outside the 32-bit range saturate, and the checks below report them as before).
  // Everything else happens where they are.
  const bool narrowedWhileStaged = section.indices64 && run.staged(ids * sizeof(cl_int));
  const bool ids64 = section.indices64 && !narrowedWhileStaged;
  // Offsets that would be staged and are those of one cell size (checked here on the host)
  // stay here: the kernels compute them (UNIFORM_SIZE, kernels/mesh/mesh_import.cl).
  const std::int64_t uniformSize =
    run.staged((n + 1) * (ids64 ? sizeof(cl_long) : sizeof(cl_int))) ? uniformCellSize(section) : 0;
  std::string options = ids64 ? "-DINDEX=long" : "-DINDEX=int";
  if (uniformSize > 0)
    options += " -DUNIFORM_SIZE=" + std::to_string(uniformSize);
  DeviceBuffer<cl_long> offsets64, connectivity64;
  DeviceBuffer<cl_int> offsets32, connectivity32;
  if (ids64)
  {
    if (uniformSize == 0)
      offsets64 = take(static_cast<const cl_long*>(section.offsets), n + 1, "cell offsets");
    connectivity64 = take(static_cast<const cl_long*>(section.connectivity), ids, "cell connectivity");
  }
  else if (narrowedWhileStaged)
  {
    if (uniformSize == 0)
      offsets32 = run.uploadNarrowed(static_cast<const cl_long*>(section.offsets), n + 1, "cell offsets");
    connectivity32 = run.uploadNarrowed(static_cast<const cl_long*>(section.connectivity), ids, "cell connectivity");
  }
  else
  {
    if (uniformSize == 0)
      offsets32 = take(static_cast<const cl_int*>(section.offsets), n + 1, "cell offsets");
    connectivity32 = take(static_cast<const cl_int*>(section.connectivity), ids, "cell connectivity");
  }
  const cl::Buffer& connectivity = ids64 ? connectivity64.handle() : connectivity32.handle();
  // With a uniform size the kernels never read the offsets: the connectivity stands in.
  const cl::Buffer& offsets = uniformSize > 0 ? connectivity : ids64 ? offsets64.handle() : offsets32.handle();

  DeviceBuffer<cl_uchar> codes;
  DeviceBuffer<cl_int> table;
  if (section.layout == SectionLayout::ByTypeCode)
  {
    codes = take(section.typeCodes, n, "cell types");
    table = run.upload(section.table->entries.data(), section.table->entries.size(), "cell type table");
  }
  else
  {
    codes = run.allocate<cl_uchar>(1, "cell types");
    table = run.allocate<cl_int>(1, "cell type table");
  }
  DeviceBuffer<cl_uchar> kinds = run.allocate<cl_uchar>(n, "cell kinds");
  DeviceBuffer<cl_uint> kindCounts = run.allocate<cl_uint>(cellKindCount, "cell kind counts");
  DeviceBuffer<cl_int> firstBad = run.allocate<cl_int>(4, "cell checks");
  run.fill(kindCounts, cl_uint(0), "cell kind counts");
  run.fill(firstBad, noCell, "cell checks");
  // Whole work-groups: the histogram's barriers need every work-item of a group.
  const std::size_t group = run.device().workGroupSize(64);
  run.call({ "mesh_import", "classify_cells", options }, { (n + group - 1) / group * group, group },
    "classify cells", offsets, connectivity, codes, table, cl_int(layoutCode(section.layout)),
    static_cast<cl_int>(n), static_cast<cl_long>(PointCount), static_cast<cl_long>(idCount), kinds, kindCounts,
    firstBad);

  std::array<cl_int, 4> bad{};
  run.download(firstBad, bad.data(), bad.size(), "cell checks");
  const auto smallest = std::min_element(bad.begin(), bad.end());
  if (*smallest != noCell)
  {
    const int what = static_cast<int>(smallest - bad.begin());
    int badKind = -1;
    if (what == 1 || what == 2)
    {
      // The offending cell's kind, for the message (an error path: read them all back).
      std::vector<cl_uchar> all(n);
      run.download(kinds, all.data(), n, "cell kinds");
      badKind = all[static_cast<std::size_t>(*smallest)] & 0x7f;
    }
    throw Error(describeBadCell(section, badKind, what, *smallest));
  }
  std::array<cl_uint, cellKindCount> counts{};
  run.download(kindCounts, counts.data(), counts.size(), "cell kind counts");

  for (int k = 0; k < cellKindCount; ++k)
  {
    const auto kind = static_cast<CellKind>(k);
    if (counts[k] == 0 || cellDimension(kind) < minimumDimension)
    {
      continue;
    }
    const std::string name = cellKindName(kind);
    DeviceCellGroup cellGroup;
    cellGroup.kind = kind;
    cellGroup.count = counts[k];
    const int fixed = fixedVertexCount(kind);
    const bool raster = section.layout == SectionLayout::ByTypeCode &&
      std::any_of(section.table->entries.begin(), section.table->entries.end(), [&](std::int32_t entry) {
        return (entry & 0xff) == k && (entry & CellTypeTable::rasterOrder);
      });
    if (counts[k] == n && fixed > 0 && !raster)
    {
      // The whole section is of this kind (the common case): its ids as they are, narrowed to
      // 32 bits where they came as 64, and consecutive cell ids.
      if (ids64)
      {
        cellGroup.connectivity = run.allocate<cl_int>(ids, name + " connectivity");
        run.call({ "mesh_import", "narrow_ids", options }, ids, "narrow ids", connectivity64,
          static_cast<cl_ulong>(ids), cellGroup.connectivity);
      }
      else if (inPlace)
      {
        // The group's ids get modified in place (refinement): never the caller's own.
        cellGroup.connectivity = run.allocate<cl_int>(ids, name + " connectivity");
        run.copy(connectivity32, cellGroup.connectivity, ids, name + " connectivity");
      }
      else
      {
        cellGroup.connectivity = std::move(connectivity32);
      }
      cellGroup.cellIds = run.allocate<cl_int>(n, name + " cell ids");
      run.call({ "sequence", "iota" }, n, "cell ids", static_cast<cl_int>(section.firstCellId),
        static_cast<cl_int>(n), cellGroup.cellIds);
      Groups.push_back(std::move(cellGroup));
      continue;
    }
    // Mixed kinds: each cell's place in its group and in its group's connectivity from two
    // prefix sums, then one gather.
    DeviceBuffer<cl_uint> membership = run.allocate<cl_uint>(n, "group membership");
    DeviceBuffer<cl_uint> sizes = run.allocate<cl_uint>(n, "group sizes");
    run.call({ "mesh_import", "kind_membership", options }, n, "group membership", offsets, kinds, cl_int(k),
      static_cast<cl_int>(n), membership, sizes);
    DeviceBuffer<cl_uint> positions = run.allocate<cl_uint>(n + 1, "group positions");
    DeviceBuffer<cl_uint> sizeOffsets = run.allocate<cl_uint>(n + 1, "group offsets");
    exclusiveScan(run, membership, n, positions, name + " cells");
    const std::uint64_t groupIds = exclusiveScan(run, sizes, n, sizeOffsets, name + " point ids");
    cellGroup.connectivity = run.allocate<cl_int>(groupIds, name + " connectivity");
    cellGroup.offsets = run.allocate<cl_int>(fixed > 0 ? 0 : cellGroup.count + 1, name + " offsets");
    cellGroup.cellIds = run.allocate<cl_int>(cellGroup.count, name + " cell ids");
    run.call({ "mesh_import", "gather_kind", options }, n, "gather cells", offsets, connectivity, kinds,
      cl_int(k), static_cast<cl_int>(n), static_cast<cl_int>(section.firstCellId), positions, sizeOffsets,
      static_cast<cl_int>(cellGroup.count), cellGroup.connectivity, cellGroup.offsets, cellGroup.cellIds);
    Groups.push_back(std::move(cellGroup));
  }
}

DeviceMesh::DeviceMesh(DeviceRun& run, RealBuffer points, std::size_t pointCount, CellKind kind,
  DeviceBuffer<cl_int> connectivity, std::size_t cellCount, const std::array<double, 3>& origin)
  : PointCount(static_cast<std::int64_t>(pointCount))
  , CellCount(static_cast<std::int64_t>(cellCount))
  , Points(std::move(points))
  , Origin(origin)
{
  if (fixedVertexCount(kind) < 0 || connectivity.size() != cellCount * static_cast<std::size_t>(fixedVertexCount(kind)))
  {
    throw Error(std::string("a device mesh of ") + cellKindName(kind) + "s needs " +
      std::to_string(fixedVertexCount(kind)) + " point ids per cell");
  }
  DeviceCellGroup group;
  group.kind = kind;
  group.count = cellCount;
  group.connectivity = std::move(connectivity);
  group.cellIds = run.allocate<cl_int>(cellCount, "cell ids");
  run.call({ "sequence", "iota" }, cellCount, "cell ids", cl_int(0), static_cast<cl_int>(cellCount),
    group.cellIds);
  Groups.push_back(std::move(group));
}

DeviceMesh::DeviceMesh(RealBuffer points, std::size_t pointCount, std::vector<DeviceCellGroup> groups,
  std::size_t cellCount, const std::array<double, 3>& origin)
  : PointCount(static_cast<std::int64_t>(pointCount))
  , CellCount(static_cast<std::int64_t>(cellCount))
  , Points(std::move(points))
  , Origin(origin)
  , Groups(std::move(groups))
{
}

const DeviceCellGroup* DeviceMesh::soleFixedSizeGroup() const
{
  // Every way a mesh is made lists a group of every cell in id order (import, renumbering).
  if (Groups.size() != 1 || static_cast<std::int64_t>(Groups.front().count) != CellCount ||
    fixedVertexCount(Groups.front().kind) <= 0)
  {
    return nullptr;
  }
  return &Groups.front();
}

} // namespace gpumesh
