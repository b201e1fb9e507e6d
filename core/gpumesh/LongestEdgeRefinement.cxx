#include "gpumesh/LongestEdgeRefinement.h"

#include "gpumesh/CellEntities.h"
#include "gpumesh/Scan.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace gpumesh
{

namespace
{
constexpr const char* program = "refinement";
using Label = DeviceRun::ScopedLabel;

// One refinement pass over the triangles of `mesh`.
struct Pass
{
  std::size_t pointCount = 0;
  std::size_t triangleCount = 0;
  DeviceBuffer<cl_float4> points;
  DeviceBuffer<cl_int> triangles;
  DeviceBuffer<cl_int> parent;
  DeviceBuffer<cl_int> marked; ///< the children of this pass's marked triangles
  std::size_t markedCount = 0;
  std::size_t newPointCount = 0;
  DeviceBuffer<cl_int2> pointParents;
};

template <typename T>
void copyBuffer(DeviceRun& run, const DeviceBuffer<T>& from, DeviceBuffer<T>& to, std::size_t count,
  const std::string& what)
{
  if (count)
  {
    check(run.device().queue().enqueueCopyBuffer(from.handle(), to.handle(), 0, 0, count * sizeof(T)),
      "copying the " + what);
  }
}

std::array<cl_int, 3> downloadFlags(DeviceRun& run, const DeviceBuffer<cl_int>& flags)
{
  std::array<cl_int, 3> host{};
  run.download(flags, host.data(), 3, "validation flags");
  return host;
}

// Coincident points on the boundary mean unmerged duplicates that cut the mesh along a seam.
void checkSeams(DeviceRun& run, const DeviceMesh& mesh, const DeviceCellGroup& triangles,
  const CellEntities& edges)
{
  const Label label(run, "validation");
  const auto count = static_cast<cl_int>(triangles.count);
  std::size_t capacity = 4096;
  std::vector<cl_int> list;
  for (int attempt = 0; attempt < 2; ++attempt)
  {
    auto deviceList = run.allocate<cl_int>(capacity, "boundary points");
    auto size = run.allocate<cl_int>(1, "boundary point count");
    run.fill(size, cl_int(0), "boundary point count");
    cl::Kernel kernel = run.kernel(program, "boundary_points");
    run.setArguments(kernel, triangles.connectivity, edges.slotRun(), count,
      static_cast<cl_int>(capacity), deviceList, size);
    run.launch(kernel, triangles.count, "boundary points");
    cl_int found = 0;
    run.download(size, &found, 1, "boundary point count");
    if (static_cast<std::size_t>(found) <= capacity)
    {
      list.resize(static_cast<std::size_t>(found));
      run.download(deviceList, list.data(), list.size(), "boundary points");
      break;
    }
    capacity = static_cast<std::size_t>(found);
  }
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
  if (list.size() < 2)
  {
    return;
  }
  // Only the boundary points' coordinates come back to the host.
  auto ids = run.upload(list.data(), list.size(), "boundary points");
  auto gathered = run.allocate<cl_float4>(list.size(), "boundary coordinates");
  cl::Kernel gather = run.kernel(program, "gather_points");
  run.setArguments(gather, mesh.points(), ids, static_cast<cl_int>(list.size()), gathered);
  run.launch(gather, list.size(), "gather points");
  std::vector<cl_float4> xyz(list.size());
  run.download(gathered, xyz.data(), xyz.size(), "boundary coordinates");
  std::vector<std::size_t> order(list.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  const auto key = [&](std::size_t i) { return std::array<float, 3>{ xyz[i].s[0], xyz[i].s[1], xyz[i].s[2] }; };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  for (std::size_t k = 1; k < order.size(); ++k)
  {
    if (key(order[k]) == key(order[k - 1]))
    {
      const cl_int a = list[order[k]], b = list[order[k - 1]];
      throw Error("Points " + std::to_string(std::min(a, b)) + " and " + std::to_string(std::max(a, b)) +
        " are distinct but coincide on the boundary: unmerged duplicate points cut the mesh "
        "along a seam (merge them first, e.g. with Clean or Merge Points)");
    }
  }
}

Pass refinePass(DeviceRun& run, DeviceMesh& mesh, const DeviceBuffer<cl_int>& marked,
  std::size_t markedCount, const DeviceBuffer<cl_int>& parentIn, bool checkForSeams)
{
  const DeviceCellGroup& triangles = mesh.groups().front();
  const std::size_t count = triangles.count;
  const auto n = static_cast<cl_int>(count);
  const auto oldPoints = static_cast<std::size_t>(mesh.pointCount());

  std::optional<CellEntities> edges;
  {
    const Label label(run, "edge extraction");
    edges.emplace(run, mesh, EntityType::Sides);
  }
  const std::size_t edgeCount = edges->entityCount();
  const auto e = static_cast<cl_int>(edgeCount);
  const DeviceBuffer<cl_int>& slotEdge = edges->slotEntity();

  DeviceBuffer<cl_float> length2 = run.allocate<cl_float>(edgeCount, "edge lengths");
  {
    const Label label(run, "step 1 edge lengths");
    cl::Kernel kernel = run.kernel(program, "edge_lengths");
    run.setArguments(kernel, mesh.points(), edges->entityVertices(), e, length2);
    run.launch(kernel, edgeCount, "edge lengths");
  }
  {
    const Label label(run, "validation");
    auto flags = run.allocate<cl_int>(3, "validation flags");
    run.fill(flags, std::numeric_limits<cl_int>::max(), "validation flags");
    cl::Kernel kernel = run.kernel(program, "validate_triangles");
    run.setArguments(kernel, mesh.points(), triangles.connectivity, slotEdge, edges->slotRun(), length2, n, flags);
    run.launch(kernel, count, "validate");
    const auto bad = downloadFlags(run, flags);
    if (bad[1] != std::numeric_limits<cl_int>::max())
    {
      throw Error("Cell " + std::to_string(bad[1]) +
        " has an edge shared by more than two triangles (non-manifold): longest-edge "
        "bisection needs a manifold surface");
    }
    if (bad[0] != std::numeric_limits<cl_int>::max())
    {
      throw Error("Cell " + std::to_string(bad[0]) +
        " is degenerate (a zero-length edge or zero area): remove or repair it before refining");
    }
    if (checkForSeams)
    {
      checkSeams(run, mesh, triangles, *edges);
    }
  }

  DeviceBuffer<cl_uchar> longest = run.allocate<cl_uchar>(count, "longest edges");
  {
    const Label label(run, "step 2 longest edges");
    cl::Kernel kernel = run.kernel(program, "longest_edges");
    run.setArguments(kernel, slotEdge, length2, edges->entityVertices(), n, longest);
    run.launch(kernel, count, "longest edges");
  }

  // Steps 3-5 and 7 touch only the marked triangles and what their refinement reaches.
  DeviceBuffer<cl_uint> divide = run.allocate<cl_uint>(edgeCount, "division marks");
  DeviceBuffer<cl_int> divided = run.allocate<cl_int>(edgeCount, "divided edges");
  // Counts that kernels append to, each read back once.
  DeviceBuffer<cl_int> dividedCounter = run.allocate<cl_int>(1, "divided edge count");
  DeviceBuffer<cl_int> affectedCounter = run.allocate<cl_int>(1, "affected triangle count");
  DeviceBuffer<cl_int> markedCounter = run.allocate<cl_int>(1, "next mark count");
  DeviceBuffer<cl_uchar> isMarked = run.allocate<cl_uchar>(count, "marked flags");
  {
    const Label label(run, "step 3 dependency forest");
    run.fill(divide, cl_uint(0), "division marks");
    run.fill(dividedCounter, cl_int(0), "counters");
    run.fill(affectedCounter, cl_int(0), "counters");
    run.fill(markedCounter, cl_int(0), "counters");
    run.fill(isMarked, cl_uchar(0), "marked flags");
    cl::Kernel kernel = run.kernel(program, "dependency_roots");
    run.setArguments(kernel, marked, static_cast<cl_int>(markedCount), slotEdge, longest, divide,
      divided, dividedCounter, isMarked);
    run.launch(kernel, markedCount, "dependency roots");
  }
  cl_int dividedCount = 0;
  {
    const Label label(run, "step 4 propagation");
    cl_int roots = 0;
    run.download(dividedCounter, &roots, 1, "roots");
    cl::Kernel kernel = run.kernel(program, "propagate");
    run.setArguments(kernel, roots, edges->neighbor(), slotEdge, longest, divide, divided, dividedCounter);
    run.launch(kernel, static_cast<std::size_t>(roots), "propagate");
    run.download(dividedCounter, &dividedCount, 1, "divided edges");
  }
  DeviceBuffer<cl_uint> extraChildren = run.allocate<cl_uint>(count, "children counts");
  DeviceBuffer<cl_int> affected = run.allocate<cl_int>(std::min<std::size_t>(count, 2 * static_cast<std::size_t>(dividedCount)), "affected triangles");
  {
    const Label label(run, "step 5 counts");
    run.fill(extraChildren, cl_uint(0), "children counts");
    cl::Kernel kernel = run.kernel(program, "count_children");
    run.setArguments(kernel, divided, dividedCount, edges->neighbor(), extraChildren, affected,
      affectedCounter);
    run.launch(kernel, static_cast<std::size_t>(dividedCount), "count children");
  }

  Pass pass;
  DeviceBuffer<cl_uint> childOffsets = run.allocate<cl_uint>(count + 1, "child offsets");
  DeviceBuffer<cl_uint> pointOffsets = run.allocate<cl_uint>(edgeCount + 1, "new point offsets");
  std::size_t appendedCount = 0;
  {
    const Label label(run, "step 6 prefix sums");
    appendedCount = exclusiveScan(run, extraChildren, count, childOffsets, "refined triangles");
    pass.newPointCount = exclusiveScan(run, divide, edgeCount, pointOffsets, "new points");
  }
  pass.triangleCount = count + appendedCount;
  pass.pointCount = oldPoints + pass.newPointCount;
  if (pass.pointCount > static_cast<std::size_t>(std::numeric_limits<cl_int>::max()) ||
    3 * pass.triangleCount > static_cast<std::size_t>(std::numeric_limits<cl_int>::max()))
  {
    throw Error("The refined mesh would have " + std::to_string(pass.pointCount) + " points and " +
      std::to_string(pass.triangleCount) + " triangles, beyond the device's 32-bit indices");
  }

  // Allocated once, from the prefix sums.
  pass.points = run.allocate<cl_float4>(pass.pointCount, "refined points");
  pass.triangles = run.allocate<cl_int>(3 * pass.triangleCount, "refined triangles");
  pass.parent = run.allocate<cl_int>(pass.triangleCount, "parent cells");
  pass.pointParents = run.allocate<cl_int2>(pass.newPointCount, "point parents");
  {
    const Label label(run, "step 7 templates");
    copyBuffer(run, mesh.points(), pass.points, oldPoints, "points");
    copyBuffer(run, triangles.connectivity, pass.triangles, 3 * count, "triangles");
    copyBuffer(run, parentIn, pass.parent, count, "parents");
    cl::Kernel points = run.kernel(program, "new_points");
    run.setArguments(points, mesh.points(), edges->entityVertices(), divided, dividedCount, slotEdge,
      pointOffsets, static_cast<cl_int>(oldPoints), pass.points, pass.pointParents);
    run.launch(points, static_cast<std::size_t>(dividedCount), "new points");

    cl_int affectedCount = 0;
    run.download(affectedCounter, &affectedCount, 1, "affected triangles");
    auto flags = run.allocate<cl_int>(3, "template flags");
    run.fill(flags, std::numeric_limits<cl_int>::max(), "template flags");
    pass.marked = run.allocate<cl_int>(4 * markedCount, "next marks");
    cl::Kernel templates = run.kernel(program, "apply_templates");
    run.setArguments(templates, affected, affectedCount, triangles.connectivity, slotEdge, longest,
      divide, pointOffsets, childOffsets, isMarked, parentIn, n, static_cast<cl_int>(oldPoints),
      pass.triangles, pass.parent, pass.marked, markedCounter, flags);
    run.launch(templates, static_cast<std::size_t>(affectedCount), "templates");
    const auto bad = downloadFlags(run, flags);
    if (bad[2] != std::numeric_limits<cl_int>::max())
    {
      throw Error("Internal error: cell " + std::to_string(bad[2]) +
        " has a bisected edge but an intact longest edge; no mesh was written");
    }
    cl_int nextMarked = 0;
    run.download(markedCounter, &nextMarked, 1, "next marks");
    pass.markedCount = static_cast<std::size_t>(nextMarked);
  }
  return pass;
}
} // namespace

RefinedTriangles refineLongestEdges(
  DeviceRun& run, DeviceMesh mesh, const std::vector<cl_int>& marked, int passes)
{
  if (passes < 1)
  {
    throw Error("Passes must be at least 1 (got " + std::to_string(passes) + ")");
  }
  if (mesh.groups().size() > 1 || (!mesh.groups().empty() && mesh.groups().front().kind != CellKind::Triangle) ||
    (!mesh.groups().empty() && static_cast<std::int64_t>(mesh.groups().front().count) != mesh.cellCount()))
  {
    throw Error("Longest-edge refinement needs a mesh of triangles only");
  }
  const auto count = static_cast<std::size_t>(mesh.cellCount());
  std::vector<cl_int> roots(marked);
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  if (!roots.empty() && (roots.front() < 0 || static_cast<std::size_t>(roots.back()) >= count))
  {
    throw Error("Marked triangle " + std::to_string(roots.front() < 0 ? roots.front() : roots.back()) +
      " is outside the mesh's " + std::to_string(count) + " triangles");
  }
  RefinedTriangles result;
  result.markedCount = roots.size();
  if (count == 0)
  {
    result.pointCount = static_cast<std::size_t>(mesh.pointCount());
    result.points = mesh.takePoints();
    return result;
  }

  DeviceBuffer<cl_int> markedOnDevice = run.upload(roots.data(), roots.size(), "marked triangles");
  std::size_t markedCount = roots.size();
  DeviceBuffer<cl_int> parent = run.allocate<cl_int>(count, "parent cells");
  cl::Kernel iota = run.kernel("sequence", "iota");
  run.setArguments(iota, static_cast<cl_int>(count), parent);
  run.launch(iota, count, "parent cells");

  std::vector<DeviceBuffer<cl_int2>> parentsPerPass;
  std::vector<std::size_t> newPointsPerPass;
  Pass pass;
  for (int p = 0; p < passes; ++p)
  {
    pass = refinePass(run, mesh, markedOnDevice, markedCount, parent, p == 0);
    parentsPerPass.push_back(std::move(pass.pointParents));
    newPointsPerPass.push_back(pass.newPointCount);
    markedOnDevice = std::move(pass.marked);
    markedCount = pass.markedCount;
    parent = std::move(pass.parent);
    if (p + 1 < passes)
    {
      mesh = DeviceMesh(run, std::move(pass.points), pass.pointCount, CellKind::Triangle,
        std::move(pass.triangles), pass.triangleCount);
    }
  }

  result.pointCount = pass.pointCount;
  result.triangleCount = pass.triangleCount;
  result.points = std::move(pass.points);
  result.triangles = std::move(pass.triangles);
  result.parent = std::move(parent);
  for (std::size_t n : newPointsPerPass)
    result.newPointCount += n;
  result.pointParents = run.allocate<cl_int2>(result.newPointCount, "point parents");
  std::size_t offset = 0;
  for (std::size_t p = 0; p < parentsPerPass.size(); ++p)
  {
    if (newPointsPerPass[p])
    {
      check(run.device().queue().enqueueCopyBuffer(parentsPerPass[p].handle(), result.pointParents.handle(), 0,
              offset * sizeof(cl_int2), newPointsPerPass[p] * sizeof(cl_int2)),
        "gathering the point parents");
    }
    offset += newPointsPerPass[p];
  }
  return result;
}

} // namespace gpumesh
