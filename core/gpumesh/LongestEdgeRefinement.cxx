#include "gpumesh/LongestEdgeRefinement.h"

#include "gpumesh/CellEntities.h"
#include "gpumesh/RepeatedPoints.h"
#include "gpumesh/Scan.h"

#include <algorithm>
#include <array>
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
  std::size_t pointCount = 0; ///< old + new
  std::size_t keptCount = 0;
  DeviceBuffer<cl_int> kept;  ///< the input triangles, each refined one replaced by its first child
  std::size_t appendedCount = 0;
  DeviceBuffer<cl_int> appended;
  DeviceBuffer<cl_int> appendedParent;
  std::size_t newPointCount = 0;
  RealBuffer newPoints;
  DeviceBuffer<cl_int2> pointParents;
  DeviceBuffer<cl_int> marked; ///< the children of this pass's marked triangles
  std::size_t markedCount = 0;
};

std::array<cl_int, 4> downloadFlags(DeviceRun& run, const DeviceBuffer<cl_int>& flags)
{
  std::array<cl_int, 4> host{};
  run.download(flags, host.data(), flags.size(), "validation flags");
  return host;
}

// Coincident points on the boundary mean unmerged duplicates that cut the mesh along a seam.
void checkSeams(DeviceRun& run, const DeviceMesh& mesh, const DeviceCellGroup& triangles,
  const CellEntities& edges)
{
  const auto count = static_cast<cl_int>(triangles.count);
  std::size_t capacity = 4096;
  std::vector<cl_int> list;
  for (int attempt = 0; attempt < 2; ++attempt)
  {
    auto deviceList = run.allocate<cl_int>(capacity, "boundary points");
    auto size = run.allocate<cl_int>(1, "boundary point count");
    run.fill(size, cl_int(0), "boundary point count");
    run.call({ program, "boundary_points" }, triangles.count, "boundary points", triangles.connectivity,
      edges.slotRun(), count, static_cast<cl_int>(capacity), deviceList, size);
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
  auto gathered = run.allocateReal(3 * list.size(), "boundary coordinates");
  run.call({ program, "gather_points" }, list.size(), "gather points", mesh.points(), ids,
    static_cast<cl_int>(list.size()), gathered);
  std::vector<double> xyz(3 * list.size());
  run.download(gathered, xyz.data(), xyz.size(), "boundary coordinates");
  std::vector<std::size_t> order(list.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  const auto key = [&](std::size_t i) { return std::array<double, 3>{ xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2] }; };
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

// Step 4 across processes: rounds of exchange and forced chains until no process divides a
// new cut edge. Returns the number of divided slots.
cl_int crossProcesses(DeviceRun& run, const DistributedRefinement& distributed, const CellEntities& edges,
  const DeviceBuffer<cl_uchar>& longest, DeviceBuffer<cl_uint>& dividedBits, DeviceBuffer<cl_int>& divided,
  DeviceBuffer<cl_int>& dividedCounter, cl_int dividedCount, bool& closureOver)
{
  cl_int reported = 0;
  std::vector<cl_int> all, forced;
  for (;;)
  {
    all.resize(static_cast<std::size_t>(dividedCount));
    run.download(divided, all.data(), all.size(), "divided edges");
    const std::vector<cl_int> newly(all.begin() + reported, all.end());
    reported = dividedCount;
    forced.clear();
    if (!distributed.exchange(newly, forced, false))
    {
      closureOver = true;
      return dividedCount;
    }
    if (forced.empty())
    {
      continue;
    }
    const DeviceBuffer<cl_int> slots = run.upload(forced.data(), forced.size(), "forced edges");
    run.call({ program, "force_edges" }, forced.size(), "force edges", slots,
      static_cast<cl_int>(forced.size()), edges.neighbor(), edges.slotEntity(), longest, dividedBits, divided,
      dividedCounter);
    run.download(dividedCounter, &dividedCount, 1, "divided edges");
  }
}

Pass refinePass(DeviceRun& run, DeviceMesh& mesh, const DeviceBuffer<cl_int>& marked,
  std::size_t markedCount, const DeviceBuffer<cl_int>& parentIn, bool checkForSeams,
  const DistributedRefinement* distributed, bool& closureOver)
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

  RealBuffer length2 = run.allocateReal(edgeCount, "edge lengths");
  {
    const Label label(run, "step 1 edge lengths");
    run.call({ program, "edge_lengths" }, edgeCount, "edge lengths", mesh.points(), edges->entityVertices(),
      e, length2);
  }
  {
    const Label label(run, "validation");
    auto flags = run.allocate<cl_int>(4, "validation flags");
    run.fill(flags, std::numeric_limits<cl_int>::max(), "validation flags");
    run.call({ program, "validate_triangles" }, count, "validate", mesh.points(), triangles.connectivity,
      slotEdge, edges->slotRun(), length2, n, flags);
    const auto bad = downloadFlags(run, flags);
    if (bad[1] != std::numeric_limits<cl_int>::max())
    {
      throw Error("Cell " + std::to_string(bad[1]) +
        " has an edge shared by more than two triangles (non-manifold): longest-edge "
        "bisection needs a manifold surface");
    }
    if (bad[3] != std::numeric_limits<cl_int>::max())
    {
      throw Error("Cell " + std::to_string(bad[3]) + " has an edge whose squared length is outside the range of " +
        (run.precision() == Precision::Single
            ? std::string("single precision (it would compare as 0 or infinity): set Precision to Double")
            : std::string("double precision (it would compare as 0 or infinity): rescale the mesh")));
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
    const cl_long noTieIds = 0;
    const bool useTieIds = distributed && !distributed->tieIds.empty();
    if (useTieIds && distributed->tieIds.size() != oldPoints)
    {
      throw Error("Refinement got " + std::to_string(distributed->tieIds.size()) + " tie ids for " +
        std::to_string(oldPoints) + " points");
    }
    const DeviceBuffer<cl_long> tieIds = useTieIds
      ? run.upload(distributed->tieIds.data(), oldPoints, "tie ids")
      : run.upload(&noTieIds, 1, "tie ids");
    run.call({ program, "longest_edges" }, count, "longest edges", slotEdge, length2, edges->entityVertices(),
      tieIds, static_cast<cl_int>(useTieIds), n, longest);
  }

  // Steps 3-5 and 7 touch only the marked triangles and what their refinement reaches; the
  // flags and counters they share are bit sets and packed 2-bit counters.
  const std::size_t edgeWords = (edgeCount + 31) / 32;
  const std::size_t markWords = (count + 31) / 32;
  const std::size_t childWords = (count + 15) / 16;
  DeviceBuffer<cl_uint> dividedBits = run.allocate<cl_uint>(edgeWords, "division marks");
  DeviceBuffer<cl_uint> markedBits = run.allocate<cl_uint>(markWords, "marked flags");
  DeviceBuffer<cl_int> divided = run.allocate<cl_int>(edgeCount, "divided edges");
  // Counts that kernels append to, each read back once.
  DeviceBuffer<cl_int> dividedCounter = run.allocate<cl_int>(1, "divided edge count");
  DeviceBuffer<cl_int> affectedCounter = run.allocate<cl_int>(1, "affected triangle count");
  DeviceBuffer<cl_int> markedCounter = run.allocate<cl_int>(1, "next mark count");
  {
    const Label label(run, "step 3 dependency forest");
    run.fill(dividedBits, cl_uint(0), "division marks");
    run.fill(markedBits, cl_uint(0), "marked flags");
    run.fill(dividedCounter, cl_int(0), "counters");
    run.fill(affectedCounter, cl_int(0), "counters");
    run.fill(markedCounter, cl_int(0), "counters");
    run.call({ program, "dependency_roots" }, markedCount, "dependency roots", marked,
      static_cast<cl_int>(markedCount), slotEdge, longest, dividedBits, divided, dividedCounter, markedBits);
  }
  cl_int dividedCount = 0;
  {
    const Label label(run, "step 4 propagation");
    cl_int roots = 0;
    run.download(dividedCounter, &roots, 1, "roots");
    run.call({ program, "propagate" }, static_cast<std::size_t>(roots), "propagate", roots, edges->neighbor(),
      slotEdge, longest, dividedBits, divided, dividedCounter);
    run.download(dividedCounter, &dividedCount, 1, "divided edges");
    if (distributed)
    {
      dividedCount =
        crossProcesses(run, *distributed, *edges, longest, dividedBits, divided, dividedCounter, dividedCount,
          closureOver);
    }
  }
  DeviceBuffer<cl_uint> packedChildren = run.allocate<cl_uint>(childWords, "children counts");
  DeviceBuffer<cl_int> affected =
    run.allocate<cl_int>(std::min<std::size_t>(count, 2 * static_cast<std::size_t>(dividedCount)), "affected triangles");
  {
    const Label label(run, "step 5 counts");
    run.fill(packedChildren, cl_uint(0), "children counts");
    run.call({ program, "count_children" }, static_cast<std::size_t>(dividedCount), "count children", divided,
      dividedCount, edges->neighbor(), packedChildren, affected, affectedCounter);
  }

  Pass pass;
  DeviceBuffer<cl_uint> pointWordOffsets = run.allocate<cl_uint>(edgeWords + 1, "new point offsets");
  DeviceBuffer<cl_uint> childWordOffsets = run.allocate<cl_uint>(childWords + 1, "child offsets");
  {
    const Label label(run, "step 6 prefix sums");
    DeviceBuffer<cl_uint> totals = run.allocate<cl_uint>(std::max(edgeWords, childWords), "word totals");
    run.call({ program, "word_bit_counts" }, edgeWords, "word counts", dividedBits,
      static_cast<cl_int>(edgeWords), totals);
    pass.newPointCount = exclusiveScan(run, totals, edgeWords, pointWordOffsets, "new points");
    run.call({ program, "word_field_sums" }, childWords, "word counts", packedChildren,
      static_cast<cl_int>(childWords), totals);
    pass.appendedCount = exclusiveScan(run, totals, childWords, childWordOffsets, "refined triangles");
  }
  pass.keptCount = count;
  pass.pointCount = oldPoints + pass.newPointCount;
  const std::size_t triangleCount = count + pass.appendedCount;
  if (pass.pointCount > static_cast<std::size_t>(std::numeric_limits<cl_int>::max()) ||
    3 * triangleCount > static_cast<std::size_t>(std::numeric_limits<cl_int>::max()))
  {
    throw Error("The refined mesh would have " + std::to_string(pass.pointCount) + " points and " +
      std::to_string(triangleCount) + " triangles, beyond the device's 32-bit indices");
  }

  // Allocated once, from the prefix sums.
  pass.newPoints = run.allocateReal(3 * pass.newPointCount, "new points");
  pass.pointParents = run.allocate<cl_int2>(pass.newPointCount, "point parents");
  pass.appended = run.allocate<cl_int>(3 * pass.appendedCount, "appended triangles");
  pass.appendedParent = run.allocate<cl_int>(pass.appendedCount, "appended parents");
  pass.marked = run.allocate<cl_int>(4 * markedCount, "next marks");
  {
    const Label label(run, "step 7 templates");
    run.call({ program, "new_points" }, static_cast<std::size_t>(dividedCount), "new points", mesh.points(),
      edges->entityVertices(), divided, dividedCount, slotEdge, dividedBits, pointWordOffsets, pass.newPoints,
      pass.pointParents);

    cl_int affectedCount = 0;
    run.download(affectedCounter, &affectedCount, 1, "affected triangles");
    auto flags = run.allocate<cl_int>(4, "template flags");
    run.fill(flags, std::numeric_limits<cl_int>::max(), "template flags");
    pass.kept = mesh.takeConnectivity(); // refined in place: each triangle becomes its first child
    run.call({ program, "apply_templates" }, static_cast<std::size_t>(affectedCount), "templates", affected,
      affectedCount, pass.kept, slotEdge, longest, dividedBits, pointWordOffsets, packedChildren,
      childWordOffsets, markedBits, parentIn, static_cast<cl_int>(parentIn.empty()), n,
      static_cast<cl_int>(oldPoints), pass.appended, pass.appendedParent, pass.marked, markedCounter, flags);
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

void RefinedTriangles::download(DeviceRun& run, std::vector<cl_int>& allTriangles, std::vector<cl_int>& parents) const
{
  allTriangles.resize(3 * triangleCount);
  parents.resize(triangleCount);
  run.download(triangles, allTriangles.data(), 3 * keptCount, "refined triangles");
  run.download(appended, allTriangles.data() + 3 * keptCount, 3 * (triangleCount - keptCount), "appended triangles");
  if (keptParent.empty())
  {
    for (std::size_t t = 0; t < keptCount; ++t)
      parents[t] = static_cast<cl_int>(t);
  }
  else
  {
    run.download(keptParent, parents.data(), keptCount, "parents");
  }
  run.download(appendedParent, parents.data() + keptCount, triangleCount - keptCount, "appended parents");
}

RefinedTriangles refineLongestEdges(DeviceRun& run, DeviceMesh mesh, const std::vector<cl_int>& marked,
  int passes, const DistributedRefinement* distributed)
{
  const auto count = static_cast<std::size_t>(mesh.cellCount());
  std::vector<cl_int> roots(marked);
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  if (!roots.empty() && (roots.front() < 0 || static_cast<std::size_t>(roots.back()) >= count))
  {
    const std::string message = "Marked triangle " +
      std::to_string(roots.front() < 0 ? roots.front() : roots.back()) + " is outside the mesh's " +
      std::to_string(count) + " triangles";
    if (distributed)
    {
      // The other processes wait in the closure's exchanges: answer them until they stop.
      std::vector<cl_int> forced;
      while (distributed->exchange({}, forced, true))
      {
      }
    }
    throw Error(message);
  }
  DeviceBuffer<cl_int> onDevice = run.upload(roots.data(), roots.size(), "marked triangles");
  return refineLongestEdges(
    run, std::move(mesh), MarkedCells{ std::move(onDevice), roots.size() }, passes, distributed);
}

namespace
{
RefinedTriangles refineOnThisProcess(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes,
  const DistributedRefinement* distributed, bool& closureOver);
}

RefinedTriangles refineLongestEdges(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes,
  const DistributedRefinement* distributed)
{
  bool closureOver = false;
  if (!distributed)
  {
    return refineOnThisProcess(run, std::move(mesh), std::move(marked), passes, nullptr, closureOver);
  }
  try
  {
    return refineOnThisProcess(run, std::move(mesh), std::move(marked), passes, distributed, closureOver);
  }
  catch (...)
  {
    // Failed before the closure ended: the other processes wait in an exchange, answer them
    // until they stop.
    std::vector<cl_int> forced;
    while (!closureOver && distributed->exchange({}, forced, true))
    {
    }
    throw;
  }
}

namespace
{
RefinedTriangles refineOnThisProcess(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes,
  const DistributedRefinement* distributed, bool& closureOver)
{
  if (passes < 1)
  {
    throw Error("Passes must be at least 1 (got " + std::to_string(passes) + ")");
  }
  if (distributed && passes != 1)
  {
    throw Error("A distributed mesh is refined one pass at a time (Passes is " +
      std::to_string(passes) + ")");
  }
  if (mesh.groups().size() > 1 || (!mesh.groups().empty() && mesh.groups().front().kind != CellKind::Triangle) ||
    (!mesh.groups().empty() && static_cast<std::int64_t>(mesh.groups().front().count) != mesh.cellCount()))
  {
    throw Error("Longest-edge refinement needs a mesh of triangles only");
  }
  const auto count = static_cast<std::size_t>(mesh.cellCount());
  RefinedTriangles result;
  result.markedCount = marked.count;
  result.pointCount = static_cast<std::size_t>(mesh.pointCount());
  result.origin = mesh.origin();
  if (count == 0)
  {
    std::vector<cl_int> forced;
    while (distributed && distributed->exchange({}, forced, false))
    {
    }
    closureOver = true;
    return result;
  }
  {
    // Before edge matching: a triangle (5, 5, 7) would pass for the non-manifold neighbour.
    const Label label(run, "validation");
    rejectRepeatedPoints(run, mesh, "longest-edge refinement");
  }

  DeviceBuffer<cl_int> markedOnDevice = std::move(marked.ids);
  std::size_t markedCount = marked.count;
  DeviceBuffer<cl_int> parent; // empty: each triangle is its own parent (first pass)
  std::vector<DeviceBuffer<cl_int2>> parentsPerPass;
  std::vector<RealBuffer> pointsPerPass;
  std::vector<std::size_t> newPointsPerPass;
  for (int p = 0;; ++p)
  {
    Pass pass = refinePass(run, mesh, markedOnDevice, markedCount, parent, p == 0, distributed, closureOver);
    parentsPerPass.push_back(std::move(pass.pointParents));
    newPointsPerPass.push_back(pass.newPointCount);
    if (p + 1 == passes)
    {
      pointsPerPass.push_back(std::move(pass.newPoints));
      result.pointCount = pass.pointCount;
      result.keptCount = pass.keptCount;
      result.triangleCount = pass.keptCount + pass.appendedCount;
      result.triangles = std::move(pass.kept);
      result.appended = std::move(pass.appended);
      result.keptParent = std::move(parent);
      result.appendedParent = std::move(pass.appendedParent);
      break;
    }
    // The next pass refines the whole refined mesh: join kept and appended, old and new.
    const std::size_t oldPoints = static_cast<std::size_t>(mesh.pointCount());
    const std::size_t triangles = pass.keptCount + pass.appendedCount;
    auto points = run.allocateReal(3 * pass.pointCount, "refined points");
    run.copyReal(mesh.points(), points, 3 * oldPoints, "points");
    run.copyReal(pass.newPoints, points, 3 * pass.newPointCount, "new points", 3 * oldPoints);
    pointsPerPass.push_back(std::move(pass.newPoints));
    auto connectivity = run.allocate<cl_int>(3 * triangles, "refined triangles");
    run.copy(pass.kept, connectivity, 3 * pass.keptCount, "triangles");
    run.copy(pass.appended, connectivity, 3 * pass.appendedCount, "appended triangles", 3 * pass.keptCount);
    auto joinedParent = run.allocate<cl_int>(triangles, "parent cells");
    if (parent.empty())
    {
      run.call({ "sequence", "iota" }, pass.keptCount, "parent cells", cl_int(0),
        static_cast<cl_int>(pass.keptCount), joinedParent);
    }
    else
    {
      run.copy(parent, joinedParent, pass.keptCount, "parents");
    }
    run.copy(pass.appendedParent, joinedParent, pass.appendedCount, "appended parents", pass.keptCount);
    parent = std::move(joinedParent);
    markedOnDevice = std::move(pass.marked);
    markedCount = pass.markedCount;
    const std::array<double, 3> origin = mesh.origin();
    mesh = DeviceMesh(run, std::move(points), pass.pointCount, CellKind::Triangle, std::move(connectivity),
      triangles, origin);
  }

  for (std::size_t n : newPointsPerPass)
    result.newPointCount += n;
  result.pointParents = run.allocate<cl_int2>(result.newPointCount, "point parents");
  result.newPoints = run.allocateReal(3 * result.newPointCount, "new points");
  std::size_t offset = 0;
  for (std::size_t p = 0; p < parentsPerPass.size(); ++p)
  {
    run.copy(parentsPerPass[p], result.pointParents, newPointsPerPass[p], "point parents", offset);
    run.copyReal(pointsPerPass[p], result.newPoints, 3 * newPointsPerPass[p], "new points", 3 * offset);
    offset += newPointsPerPass[p];
  }
  return result;
}

} // namespace

} // namespace gpumesh
