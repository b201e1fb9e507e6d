#include "gpumesh/mesh/DeviceMesh.h"

#include "gpumesh/mesh/UniformCellSize.h"
#include "gpumesh/primitives/Scan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

namespace gpumesh
{

std::string nonFinitePointMessage(std::int64_t point, const std::array<double, 3>& xyz)
{
  return "Point " + std::to_string(point) + " has a non-finite coordinate (" + formatNumber(xyz[0]) + ", " +
    formatNumber(xyz[1]) + ", " + formatNumber(xyz[2]) + ")";
}

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
std::string describeBadCell(const CellSection& section, int kind, int badWhat, std::int64_t i, std::int64_t points)
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
    if (point >= points)
      return cell + " (" + what + ") refers to point " + std::to_string(point) + ", beyond the mesh's " +
        std::to_string(points) + " points";
  }
  return cell + " (" + what + ") refers to a point beyond the mesh's " + std::to_string(points) + " points";
}

int layoutCode(SectionLayout layout)
{
  return static_cast<int>(layout);
}

// Host memory read in place (MeshView::readInPlace), or uploaded.
template <typename T>
DeviceBuffer<T> take(DeviceRun& run, const T* data, std::size_t count, const std::string& what, bool inPlace)
{
  return inPlace ? run.borrow(data, count, what) : run.upload(data, count, what);
}

// A section's offsets and point ids on the device, as kernels/mesh/mesh_import.cl reads them.
struct SectionOnDevice
{
  std::size_t cells = 0;
  std::size_t ids = 0;          // point ids of all its cells
  bool inPlace = false;         // the buffers may be the caller's memory: never modified
  bool ids64 = false;           // 64-bit on the device; else 32-bit, narrowed if they came as 64
  std::int64_t uniformSize = 0; // UNIFORM_SIZE: the offsets stayed on the host
  std::string options;          // INDEX and UNIFORM_SIZE
  DeviceBuffer<cl_long> offsets64, connectivity64;
  DeviceBuffer<cl_int> offsets32, connectivity32;

  const cl::Buffer& connectivity() const { return ids64 ? connectivity64.handle() : connectivity32.handle(); }
  // With a uniform size the kernels never read the offsets: the connectivity stands in.
  const cl::Buffer& offsets() const
  {
    return uniformSize > 0 ? connectivity() : ids64 ? offsets64.handle() : offsets32.handle();
  }
};

SectionOnDevice uploadSection(DeviceRun& run, const CellSection& section, bool inPlace)
{
  SectionOnDevice raw;
  const std::int64_t idCount = indexAt(section.offsets, section.indices64, section.cellCount);
  checkIndexSpace(idCount, "point ids in one section of cells");
  raw.cells = static_cast<std::size_t>(section.cellCount);
  raw.ids = static_cast<std::size_t>(idCount);
  raw.inPlace = inPlace;
  // The arrays go up as they are, except 64-bit ones that go through pinned staging (to a
  // GPU): those are narrowed to 32 bits while staged, halving the bytes on the bus (values
  // outside the 32-bit range saturate, and classifyCells reports them as before).
  // Everything else happens where they are.
  const bool narrowedWhileStaged = section.indices64 && run.staged(raw.ids * sizeof(cl_int));
  raw.ids64 = section.indices64 && !narrowedWhileStaged;
  // Offsets that would be staged and are those of one cell size (checked here on the host)
  // stay here: the kernels compute them (UNIFORM_SIZE, kernels/mesh/mesh_import.cl).
  raw.uniformSize =
    run.staged((raw.cells + 1) * (raw.ids64 ? sizeof(cl_long) : sizeof(cl_int))) ? uniformCellSize(section) : 0;
  raw.options = raw.ids64 ? "-DINDEX=long" : "-DINDEX=int";
  if (raw.uniformSize > 0)
    raw.options += " -DUNIFORM_SIZE=" + std::to_string(raw.uniformSize);
  const bool withOffsets = raw.uniformSize == 0;
  const std::size_t offsetCount = raw.cells + 1;
  if (raw.ids64)
  {
    if (withOffsets)
      raw.offsets64 = take(run, static_cast<const cl_long*>(section.offsets), offsetCount, "cell offsets", inPlace);
    raw.connectivity64 =
      take(run, static_cast<const cl_long*>(section.connectivity), raw.ids, "cell connectivity", inPlace);
  }
  else if (narrowedWhileStaged)
  {
    if (withOffsets)
      raw.offsets32 = run.uploadNarrowed(static_cast<const cl_long*>(section.offsets), offsetCount, "cell offsets");
    raw.connectivity32 =
      run.uploadNarrowed(static_cast<const cl_long*>(section.connectivity), raw.ids, "cell connectivity");
  }
  else
  {
    if (withOffsets)
      raw.offsets32 = take(run, static_cast<const cl_int*>(section.offsets), offsetCount, "cell offsets", inPlace);
    raw.connectivity32 =
      take(run, static_cast<const cl_int*>(section.connectivity), raw.ids, "cell connectivity", inPlace);
  }
  return raw;
}

// Each cell's kind on the device (the low 7 bits of `kinds`), and how many cells of each kind.
struct CellKindCounts
{
  DeviceBuffer<cl_uchar> kinds;
  std::array<cl_uint, cellKindCount> counts{};

  // The kinds with cells, of minimumDimension or more, in CellKind order.
  std::vector<CellKind> present(int minimumDimension) const
  {
    std::vector<CellKind> kindsPresent;
    for (int k = 0; k < cellKindCount; ++k)
    {
      const auto kind = static_cast<CellKind>(k);
      if (counts[k] > 0 && cellDimension(kind) >= minimumDimension)
        kindsPresent.push_back(kind);
    }
    return kindsPresent;
  }
};

// The type codes and their table when the section is classified by codes; else one-entry
// placeholders (the kernel's arguments are the same for every layout).
std::pair<DeviceBuffer<cl_uchar>, DeviceBuffer<cl_int>> uploadTypeCodes(
  DeviceRun& run, const CellSection& section, const SectionOnDevice& raw)
{
  if (section.layout != SectionLayout::ByTypeCode)
    return { run.allocate<cl_uchar>(1, "cell types"), run.allocate<cl_int>(1, "cell type table") };
  return { take(run, section.typeCodes, raw.cells, "cell types", raw.inPlace),
    run.upload(section.table->entries.data(), section.table->entries.size(), "cell type table") };
}

// Throws the message for the first bad cell the classification found, if any: firstBad holds
// the smallest offending cell of each check (classify_cells).
void rejectBadCells(DeviceRun& run, const CellSection& section, const CellKindCounts& classified,
  const DeviceBuffer<cl_int>& firstBad, std::int64_t pointCount)
{
  std::array<cl_int, 4> bad{};
  run.download(firstBad, bad.data(), bad.size(), "cell checks");
  const auto smallest = std::min_element(bad.begin(), bad.end());
  if (*smallest == noCell)
    return;
  const int what = static_cast<int>(smallest - bad.begin());
  int badKind = -1;
  if (what == 1 || what == 2)
  {
    // The offending cell's kind, for the message (an error path: read them all back).
    std::vector<cl_uchar> all(static_cast<std::size_t>(section.cellCount));
    run.download(classified.kinds, all.data(), all.size(), "cell kinds");
    badKind = all[static_cast<std::size_t>(*smallest)] & 0x7f;
  }
  throw Error(describeBadCell(section, badKind, what, *smallest, pointCount));
}

// Every cell's kind and the count of each, every cell checked (its type, its vertex count, its
// point ids) on the device.
CellKindCounts classifyCells(
  DeviceRun& run, const CellSection& section, const SectionOnDevice& raw, std::int64_t pointCount)
{
  const auto [codes, table] = uploadTypeCodes(run, section, raw);
  CellKindCounts classified;
  classified.kinds = run.allocate<cl_uchar>(raw.cells, "cell kinds");
  DeviceBuffer<cl_uint> kindCounts = run.allocate<cl_uint>(cellKindCount, "cell kind counts");
  DeviceBuffer<cl_int> firstBad = run.allocate<cl_int>(4, "cell checks");
  run.fill(kindCounts, cl_uint(0), "cell kind counts");
  run.fill(firstBad, noCell, "cell checks");
  // Whole work-groups: the histogram's barriers need every work-item of a group.
  const std::size_t group = run.device().workGroupSize(64);
  run.call({ "mesh_import", "classify_cells", raw.options }, { (raw.cells + group - 1) / group * group, group },
    "classify cells", raw.offsets(), raw.connectivity(), codes, table, cl_int(layoutCode(section.layout)),
    static_cast<cl_int>(raw.cells), static_cast<cl_long>(pointCount), static_cast<cl_long>(raw.ids),
    classified.kinds, kindCounts, firstBad);
  rejectBadCells(run, section, classified, firstBad, pointCount);
  run.download(kindCounts, classified.counts.data(), classified.counts.size(), "cell kind counts");
  return classified;
}

// Three significant digits, for sizes in a message ("0.001", "5e+19").
std::string roughly(double value)
{
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g", value);
  return text;
}

// Single precision on double points: how much of a cell's size the rounding to float relative
// to the origin may take (2^-24 of its largest coordinate there against 2^-10 of its extent).
constexpr double floatRounding = 0x1p-24;
constexpr double allowedShareOfExtent = 0x1p-10;

// The extent (the largest side of its bounding box) of cell i of the section and the largest
// of its coordinates relative to the origin, in double. The extent comes from the coordinates
// as given: relative to a far origin a small cell's differences would be rounded already.
std::pair<double, double> extentAndReach(const CellSection& section, const PointsView& points, std::int64_t i)
{
  std::array<double, 3> lo, hi;
  lo.fill(std::numeric_limits<double>::infinity());
  hi.fill(-std::numeric_limits<double>::infinity());
  const std::int64_t end = indexAt(section.offsets, section.indices64, i + 1);
  for (std::int64_t k = indexAt(section.offsets, section.indices64, i); k < end; ++k)
  {
    const std::int64_t point = indexAt(section.connectivity, section.indices64, k);
    for (int c = 0; c < 3; ++c)
    {
      lo[c] = std::min(lo[c], points.coordinate(point, c));
      hi[c] = std::max(hi[c], points.coordinate(point, c));
    }
  }
  double extent = 0.0, reach = 0.0;
  for (int c = 0; c < 3; ++c)
  {
    extent = std::max(extent, hi[c] - lo[c]);
    reach = std::max({ reach, std::abs(lo[c] - points.origin[c]), std::abs(hi[c] - points.origin[c]) });
  }
  return { extent, reach };
}

// Throws for the first cell whose size the rounding of its double points to float took, if
// any. The device finds the first candidate on the rounded points (find_rounded_cells, with a
// margin for that rounding); the host decides on the double points from there, so that cells
// degenerate in the input (extent 0 in double too) pass: only then does it look further.
void rejectRoundedCells(DeviceRun& run, const CellSection& section, const SectionOnDevice& raw,
  const CellKindCounts& classified, const PointsView& view, const RealBuffer& points, int minimumDimension)
{
  DeviceBuffer<cl_int> candidate = run.allocate<cl_int>(1, "rounding check");
  run.fill(candidate, noCell, "rounding check");
  run.call({ "mesh_import", "find_rounded_cells", raw.options }, raw.cells, "check rounding", raw.offsets(),
    raw.connectivity(), classified.kinds, points, static_cast<cl_int>(raw.cells), cl_int(minimumDimension),
    candidate);
  cl_int first = noCell;
  run.download(candidate, &first, 1, "rounding check");
  if (first == noCell)
    return;
  std::vector<cl_uchar> kinds(raw.cells);
  run.download(classified.kinds, kinds.data(), kinds.size(), "cell kinds");
  for (std::int64_t i = first; i < section.cellCount; ++i)
  {
    const int kind = kinds[static_cast<std::size_t>(i)] & 0x7f;
    if (kind >= cellKindCount || cellDimension(static_cast<CellKind>(kind)) < minimumDimension)
      continue;
    const auto [extent, reach] = extentAndReach(section, view, i);
    if (extent > 0.0 && reach * floatRounding > extent * allowedShareOfExtent)
    {
      throw Error("Cell " + std::to_string(section.firstCellId + i) + " (" +
        cellKindName(static_cast<CellKind>(kind)) + ") is " + roughly(extent) + " wide at " + roughly(reach) +
        " from the centre of the mesh's bounds, which single precision cannot represent: its coordinates there "
        "round to float by up to " + roughly(reach * floatRounding) +
        ", more than 1/1024 of its size. Set Precision to Double");
    }
  }
}

// Whether the table gives this kind to codes whose corners come in raster order (to be swapped).
bool rasterOrdered(const CellSection& section, CellKind kind)
{
  return section.layout == SectionLayout::ByTypeCode &&
    std::any_of(section.table->entries.begin(), section.table->entries.end(), [&](std::int32_t entry) {
      return (entry & 0xff) == static_cast<int>(kind) && (entry & CellTypeTable::rasterOrder);
    });
}

// The whole section is of one fixed-size kind in its own corner order (the common case): its
// ids as they are, narrowed to 32 bits where they came as 64, and consecutive cell ids.
DeviceCellGroup adoptSection(DeviceRun& run, const CellSection& section, SectionOnDevice& raw, CellKind kind)
{
  const std::string name = cellKindName(kind);
  DeviceCellGroup cellGroup;
  cellGroup.kind = kind;
  cellGroup.count = raw.cells;
  if (raw.ids64)
  {
    cellGroup.connectivity = run.allocate<cl_int>(raw.ids, name + " connectivity");
    run.call({ "mesh_import", "narrow_ids", raw.options }, raw.ids, "narrow ids", raw.connectivity64,
      static_cast<cl_ulong>(raw.ids), cellGroup.connectivity);
  }
  else if (raw.inPlace)
  {
    // The group's ids get modified in place (refinement): never the caller's own.
    cellGroup.connectivity = run.allocate<cl_int>(raw.ids, name + " connectivity");
    run.copy(raw.connectivity32, cellGroup.connectivity, raw.ids, name + " connectivity");
  }
  else
  {
    cellGroup.connectivity = std::move(raw.connectivity32);
  }
  cellGroup.cellIds = run.allocate<cl_int>(raw.cells, name + " cell ids");
  run.call({ "sequence", "iota" }, raw.cells, "cell ids", static_cast<cl_int>(section.firstCellId),
    static_cast<cl_int>(raw.cells), cellGroup.cellIds);
  return cellGroup;
}

// Mixed kinds: each cell's place in the kind's group and in its connectivity from two prefix
// sums, then one gather.
DeviceCellGroup gatherMixed(DeviceRun& run, const CellSection& section, const SectionOnDevice& raw,
  const CellKindCounts& classified, CellKind kind)
{
  const std::string name = cellKindName(kind);
  const std::size_t n = raw.cells;
  const auto k = static_cast<cl_int>(kind);
  DeviceCellGroup cellGroup;
  cellGroup.kind = kind;
  cellGroup.count = classified.counts[static_cast<std::size_t>(kind)];
  DeviceBuffer<cl_uint> membership = run.allocate<cl_uint>(n, "group membership");
  DeviceBuffer<cl_uint> sizes = run.allocate<cl_uint>(n, "group sizes");
  run.call({ "mesh_import", "kind_membership", raw.options }, n, "group membership", raw.offsets(), classified.kinds,
    k, static_cast<cl_int>(n), membership, sizes);
  DeviceBuffer<cl_uint> positions = run.allocate<cl_uint>(n + 1, "group positions");
  DeviceBuffer<cl_uint> sizeOffsets = run.allocate<cl_uint>(n + 1, "group offsets");
  exclusiveScan(run, membership, n, positions, name + " cells");
  const std::uint64_t groupIds = exclusiveScan(run, sizes, n, sizeOffsets, name + " point ids");
  cellGroup.connectivity = run.allocate<cl_int>(groupIds, name + " connectivity");
  cellGroup.offsets = run.allocate<cl_int>(fixedVertexCount(kind) > 0 ? 0 : cellGroup.count + 1, name + " offsets");
  cellGroup.cellIds = run.allocate<cl_int>(cellGroup.count, name + " cell ids");
  run.call({ "mesh_import", "gather_kind", raw.options }, n, "gather cells", raw.offsets(), raw.connectivity(),
    classified.kinds, k, static_cast<cl_int>(n), static_cast<cl_int>(section.firstCellId), positions, sizeOffsets,
    static_cast<cl_int>(cellGroup.count), cellGroup.connectivity, cellGroup.offsets, cellGroup.cellIds);
  return cellGroup;
}

// The group of one kind of the section.
DeviceCellGroup gatherKind(DeviceRun& run, const CellSection& section, SectionOnDevice& raw,
  const CellKindCounts& classified, CellKind kind)
{
  const bool fillsSection = classified.counts[static_cast<std::size_t>(kind)] == raw.cells &&
    fixedVertexCount(kind) > 0 && !rasterOrdered(section, kind);
  return fillsSection ? adoptSection(run, section, raw, kind) : gatherMixed(run, section, raw, classified, kind);
}

// The least device memory an import takes: the points (unless read in place), each cell's
// kind and id, and 32-bit point ids of its group.
std::uint64_t plannedImportBytes(const DeviceRun& run, const MeshView& view)
{
  const bool pointsInPlace = view.readInPlace && view.points.tailCount == 0 && !run.info().isGPU &&
    view.points.isDouble == (run.precision() == Precision::Double);
  std::uint64_t bytes = pointsInPlace ? 0 : 3 * static_cast<std::uint64_t>(view.points.count) * realSize(run.precision());
  if (view.points.tailCount > 0)
    bytes *= 2; // the two parts, uploaded before they are joined
  for (const CellSection& section : view.sections)
  {
    if (section.cellCount == 0 || section.layout == SectionLayout::LeftOut)
      continue;
    // A corrupt last offset is the cell checks' to report: it plans nothing here.
    const auto ids = static_cast<std::uint64_t>(
      std::max<std::int64_t>(0, indexAt(section.offsets, section.indices64, section.cellCount)));
    bytes += ids * sizeof(cl_int) + static_cast<std::uint64_t>(section.cellCount) * (sizeof(cl_int) + 1);
  }
  return bytes;
}
// The view's points on the device in the run's precision (double ones rounded to float relative
// to view.origin in Single), checked finite; errors name them from `firstPoint` on.
RealBuffer pointsOnDevice(DeviceRun& run, const PointsView& view, bool inPlace, std::int64_t firstPoint = 0)
{
  const auto values = static_cast<std::size_t>(3 * view.count);
  if (view.count == 0)
    return run.allocateReal(0, "points");
  const auto headValues = static_cast<std::size_t>(3 * view.headCount());
  RealBuffer points;
  if (view.roundedIn(run.precision()))
  {
    // Rounded to float relative to the origin, so that a mesh far from it keeps its shape.
    std::vector<float> shifted(values);
    for (std::size_t i = 0; i < values; ++i)
    {
      const double value = i < headValues ? static_cast<const double*>(view.xyz)[i]
                                          : static_cast<const double*>(view.tailXyz)[i - headValues];
      const double relative = value - view.origin[i % 3];
      shifted[i] = static_cast<float>(relative);
      if (!std::isfinite(value) || std::isinf(shifted[i]))
      {
        throw Error("Point " + std::to_string(firstPoint + static_cast<std::int64_t>(i / 3)) + " has the coordinate " +
          formatNumber(value) +
          (std::isfinite(value) ? ", outside the range of single precision: set Precision to Double"
                                : ", which is not finite"));
      }
    }
    points = run.uploadReal(shifted.data(), values, "points");
  }
  else
  {
    // The head read in place where it can be (a CPU device, the run's own type); a tail is
    // uploaded and both are copied into one buffer on the device.
    const auto part = [&](const void* xyz, std::size_t count, bool borrowed) {
      if (view.isDouble)
      {
        const auto* real = static_cast<const double*>(xyz);
        return borrowed ? run.borrowReal(real, count, "points") : run.uploadReal(real, count, "points");
      }
      const auto* real = static_cast<const float*>(xyz);
      return borrowed ? run.borrowReal(real, count, "points") : run.uploadReal(real, count, "points");
    };
    if (view.tailCount == 0)
    {
      points = part(view.xyz, values, inPlace);
    }
    else
    {
      const RealBuffer head = part(view.xyz, headValues, inPlace);
      const RealBuffer tail = part(view.tailXyz, values - headValues, false);
      points = run.allocateReal(values, "points");
      run.copyReal(head, points, headValues, "points");
      run.copyReal(tail, points, values - headValues, "points", headValues);
    }
  }
  auto firstBad = run.allocate<cl_int>(1, "point check");
  run.fill(firstBad, noCell, "point check");
  run.call({ "point_checks", "check_points" }, static_cast<std::size_t>(view.count), "check points", points,
    static_cast<cl_int>(view.count), firstBad);
  cl_int bad = noCell;
  run.download(firstBad, &bad, 1, "point check");
  if (bad != noCell)
  {
    std::array<double, 3> xyz;
    for (int c = 0; c < 3; ++c)
    {
      xyz[c] = view.coordinate(bad, c);
    }
    throw Error(nonFinitePointMessage(firstPoint + bad, xyz));
  }
  return points;
}

} // namespace

DeviceMesh::DeviceMesh(DeviceRun& run, const MeshView& view, int minimumDimension)
  : PointCount(view.points.count)
  , CellCount(view.cellCount())
{
  checkIndexSpace(PointCount, "points");
  checkIndexSpace(CellCount, "cells");
  // Before any upload: a mesh the device cannot hold stops here.
  run.requireMemory(plannedImportBytes(run, view),
    "A mesh of " + std::to_string(PointCount) + " points and " + std::to_string(CellCount) + " cells");
  const bool rounded = view.points.roundedIn(run.precision());
  if (rounded)
    Origin = view.points.origin;
  Points = pointsOnDevice(run, view.points, view.readInPlace);
  for (const CellSection& section : view.sections)
  {
    importSection(run, section, minimumDimension, view.readInPlace, rounded ? &view.points : nullptr);
  }
  Groups = mergeGroups(run, std::move(Groups));
}

DeviceMesh::DeviceMesh(
  DeviceRun& run, const DeviceMesh& prefix, const MeshView& view, std::size_t prefixSections, int minimumDimension)
  : PointCount(view.points.count)
  , CellCount(view.cellCount())
  , Origin(prefix.origin())
{
  checkIndexSpace(PointCount, "points");
  checkIndexSpace(CellCount, "cells");
  std::int64_t prefixCells = 0;
  for (std::size_t s = 0; s < prefixSections && s < view.sections.size(); ++s)
    prefixCells += view.sections[s].cellCount;
  const bool rounded = view.points.roundedIn(run.precision());
  if (prefixSections > view.sections.size() || prefix.pointCount() != view.points.headCount() ||
    prefix.cellCount() != prefixCells || (rounded && Origin != view.points.origin))
  {
    throw Error("Internal error: a device mesh extends one that is not the beginning of its description");
  }
  run.requireMemory(plannedImportBytes(run, view),
    "A mesh of " + std::to_string(PointCount) + " points and " + std::to_string(CellCount) + " cells");
  // The prefix's points, then the tail's, uploaded and checked as the constructor above does.
  const auto headValues = static_cast<std::size_t>(3 * prefix.pointCount());
  const auto tailValues = static_cast<std::size_t>(3 * view.points.tailCount);
  Points = run.allocateReal(headValues + tailValues, "points");
  run.copyReal(prefix.points(), Points, headValues, "points");
  if (tailValues > 0)
  {
    PointsView tail;
    tail.xyz = view.points.tailXyz;
    tail.isDouble = view.points.isDouble;
    tail.count = view.points.tailCount;
    tail.origin = view.points.origin;
    const RealBuffer uploaded = pointsOnDevice(run, tail, false, prefix.pointCount());
    run.copyReal(uploaded, Points, tailValues, "points", headValues);
  }
  for (std::size_t s = prefixSections; s < view.sections.size(); ++s)
  {
    importSection(run, view.sections[s], minimumDimension, view.readInPlace, rounded ? &view.points : nullptr);
  }
  // Per kind, the prefix's cells then the rest's, in one new group: the prefix is not modified.
  std::vector<DeviceCellGroup> rest = mergeGroups(run, std::move(Groups));
  Groups.clear();
  for (const DeviceCellGroup& group : prefix.groups())
  {
    const auto same = std::find_if(
      rest.begin(), rest.end(), [&](const DeviceCellGroup& other) { return other.kind == group.kind; });
    if (same == rest.end())
    {
      Groups.push_back(copyGroup(run, group));
      continue;
    }
    Groups.push_back(appendGroup(run, group, *same));
    rest.erase(same);
  }
  for (DeviceCellGroup& group : rest)
    Groups.push_back(std::move(group));
  std::stable_sort(Groups.begin(), Groups.end(),
    [](const DeviceCellGroup& a, const DeviceCellGroup& b) { return a.kind < b.kind; });
}

DeviceCellGroup DeviceMesh::copyGroup(DeviceRun& run, const DeviceCellGroup& group)
{
  DeviceCellGroup copy;
  copy.kind = group.kind;
  copy.count = group.count;
  copy.connectivity = run.allocate<cl_int>(group.connectivity.size(), "cell connectivity");
  run.copy(group.connectivity, copy.connectivity, group.connectivity.size(), "cell connectivity");
  copy.offsets = run.allocate<cl_int>(group.offsets.size(), "cell offsets");
  run.copy(group.offsets, copy.offsets, group.offsets.size(), "cell offsets");
  copy.cellIds = run.allocate<cl_int>(group.cellIds.size(), "cell ids");
  run.copy(group.cellIds, copy.cellIds, group.cellIds.size(), "cell ids");
  return copy;
}

std::vector<DeviceCellGroup> DeviceMesh::mergeGroups(DeviceRun& run, std::vector<DeviceCellGroup> groups)
{
  // Stable: groups of one kind stay in section order, so their cell ids stay ascending.
  std::stable_sort(groups.begin(), groups.end(),
    [](const DeviceCellGroup& a, const DeviceCellGroup& b) { return a.kind < b.kind; });
  std::vector<DeviceCellGroup> merged;
  for (DeviceCellGroup& group : groups)
  {
    if (merged.empty() || merged.back().kind != group.kind)
    {
      merged.push_back(std::move(group));
      continue;
    }
    merged.back() = appendGroup(run, merged.back(), group);
  }
  return merged;
}

DeviceCellGroup DeviceMesh::appendGroup(DeviceRun& run, const DeviceCellGroup& first, const DeviceCellGroup& second)
{
  // Joined by plain copies: variable-size kinds would need their offsets shifted.
  if (fixedVertexCount(first.kind) <= 0)
    throw Error(std::string("Cells of kind ") + cellKindName(first.kind) +
      " come from two sections of the mesh description");
  const auto perCell = static_cast<std::size_t>(fixedVertexCount(first.kind));
  DeviceCellGroup both;
  both.kind = first.kind;
  both.count = first.count + second.count;
  both.connectivity = run.allocate<cl_int>(perCell * both.count, "cell connectivity");
  both.cellIds = run.allocate<cl_int>(both.count, "cell ids");
  run.copy(first.connectivity, both.connectivity, perCell * first.count, "cell connectivity");
  run.copy(second.connectivity, both.connectivity, perCell * second.count, "cell connectivity", perCell * first.count);
  run.copy(first.cellIds, both.cellIds, first.count, "cell ids");
  run.copy(second.cellIds, both.cellIds, second.count, "cell ids", first.count);
  return both;
}

void DeviceMesh::importSection(
  DeviceRun& run, const CellSection& section, int minimumDimension, bool inPlace, const PointsView* rounded)
{
  if (section.cellCount == 0 || section.layout == SectionLayout::LeftOut)
  {
    return;
  }
  if (section.layout == SectionLayout::ByTypeCode && (!section.typeCodes || !section.table))
  {
    throw Error("a mesh section classified by type codes needs its codes and their table");
  }
  SectionOnDevice raw = uploadSection(run, section, inPlace);
  const CellKindCounts kinds = classifyCells(run, section, raw, PointCount);
  if (rounded)
    rejectRoundedCells(run, section, raw, kinds, *rounded, Points, minimumDimension);
  for (CellKind kind : kinds.present(minimumDimension))
  {
    Groups.push_back(gatherKind(run, section, raw, kinds, kind));
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
