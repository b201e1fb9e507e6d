#include "gpumesh/algorithms/refinement/LongestEdgeRefinement.h"

#include "gpumesh/algorithms/refinement/RefinementPasses.h"
#include "gpumesh/primitives/Scan.h"
#include "gpumesh/topology/CellEntities.h"
#include "gpumesh/topology/SeamCheck.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <vector>

namespace gpumesh
{

namespace
{
constexpr const char* program = "refinement";
using Label = DeviceRun::ScopedLabel;

// One refinement pass over the triangles of `mesh`.
using Pass = RefinementPass;

std::array<cl_int, 4> downloadFlags(DeviceRun& run, const DeviceBuffer<cl_int>& flags)
{
  std::array<cl_int, 4> host{};
  run.download(flags, host.data(), flags.size(), "validation flags");
  return host;
}

// Step 4 across processes: rounds of exchange and forced chains until no process divides a
// new cut edge. Returns the number of divided slots.
cl_int crossProcesses(DeviceRun& run, const DistributedRefinement& distributed, const CellEntities& edges,
  const DeviceBuffer<cl_uchar>& longest, DeviceBuffer<cl_uint>& dividedBits, DeviceBuffer<cl_int>& divided,
  DeviceBuffer<cl_int>& dividedCounter, cl_int dividedCount, bool& closureOver)
{
  // Per round: the forced slots and their number.
  BoundKernel forceEdges = run.bind({ program, "force_edges" }, 2, edges.neighbor(), edges.slotEntity(), longest,
    dividedBits, divided, dividedCounter);
  CutDivisions cut(run, program, edges.slotCount(), distributed.cutSlots());
  cl_int reported = 0;
  std::vector<cl_int> forced;
  for (;;)
  {
    const std::vector<cl_int> newly = cut.among(divided, reported, dividedCount);
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
    run.call(forceEdges, forced.size(), "force edges", slots, static_cast<cl_int>(forced.size()));
    run.download(dividedCounter, &dividedCount, 1, "divided edges");
  }
}

// The triangles and edges one pass works on.
struct PassInput
{
  const DeviceMesh& mesh;
  const DeviceCellGroup& triangles;
  const CellEntities& edges;
  std::size_t count() const { return triangles.count; }
  const DeviceBuffer<cl_int>& slotEdge() const { return edges.slotEntity(); }
};

// Which edges are divided and which triangles are marked, as bit sets, and the counters that
// kernels append to (each read back once).
struct Divisions
{
  Divisions(DeviceRun& run, std::size_t edgeCount, std::size_t triangleCount)
    : dividedBits(run.allocate<cl_uint>((edgeCount + 31) / 32, "division marks"))
    , markedBits(run.allocate<cl_uint>((triangleCount + 31) / 32, "marked flags"))
    , divided(run.allocate<cl_int>(edgeCount, "divided edges"))
    , dividedCounter(run.allocate<cl_int>(1, "divided edge count"))
    , affectedCounter(run.allocate<cl_int>(1, "affected triangle count"))
    , markedCounter(run.allocate<cl_int>(1, "next mark count"))
  {
  }
  DeviceBuffer<cl_uint> dividedBits;
  DeviceBuffer<cl_uint> markedBits;
  DeviceBuffer<cl_int> divided; ///< the divided edges' slots, dividedCount of them
  DeviceBuffer<cl_int> dividedCounter;
  DeviceBuffer<cl_int> affectedCounter;
  DeviceBuffer<cl_int> markedCounter;
  cl_int dividedCount = 0;
};

// The ends of the boundary edges (repeats allowed), for the seam check.
std::vector<cl_int> boundaryPoints(DeviceRun& run, const PassInput& in)
{
  const std::size_t slots = in.edges.slotCount();
  std::size_t capacity = 4096;
  std::vector<cl_int> list;
  auto size = run.allocate<cl_int>(1, "boundary point count");
  for (;;)
  {
    auto deviceList = run.allocate<cl_int>(capacity, "boundary points");
    run.fill(size, cl_int(0), "boundary point count");
    run.call({ program, "boundary_points" }, slots, "boundary points", in.triangles.connectivity,
      in.edges.neighbor(), static_cast<cl_int>(slots), static_cast<cl_int>(capacity), deviceList, size);
    cl_int found = 0;
    run.download(size, &found, 1, "boundary point count");
    if (static_cast<std::size_t>(found) <= capacity)
    {
      list.resize(static_cast<std::size_t>(found));
      run.download(deviceList, list.data(), list.size(), "boundary points");
      return list;
    }
    capacity = static_cast<std::size_t>(found);
  }
}

// Non-manifold edges, edge lengths REAL cannot compare, degenerate triangles (as `flags` of
// longest_edges found them) and seams are errors.
void rejectBadTriangles(DeviceRun& run, const PassInput& in, const DeviceBuffer<cl_int>& flags, bool checkForSeams)
{
  const Label label(run, "validation");
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
    rejectSeams(run, in.mesh, boundaryPoints(run, in));
  }
}

// Steps 1-2: each triangle's longest edge (ties broken by the tie ids when distributed), from
// its edges' squared lengths, and in the same pass over the triangles their checks.
DeviceBuffer<cl_uchar> longestEdges(
  DeviceRun& run, const PassInput& in, const DistributedRefinement* distributed, bool checkForSeams)
{
  const auto oldPoints = static_cast<std::size_t>(in.mesh.pointCount());
  const cl_long noTieIds = 0;
  const bool useTieIds = distributed && !distributed->tieIds.empty();
  if (useTieIds && distributed->tieIds.size() != oldPoints)
  {
    throw Error("Refinement got " + std::to_string(distributed->tieIds.size()) + " tie ids for " +
      std::to_string(oldPoints) + " points");
  }
  DeviceBuffer<cl_uchar> longest;
  DeviceBuffer<cl_int> flags;
  {
    const Label label(run, "step 2 longest edges");
    longest = run.allocate<cl_uchar>(in.count(), "longest edges");
    const DeviceBuffer<cl_long> tieIds = useTieIds ? run.upload(distributed->tieIds.data(), oldPoints, "tie ids")
                                                   : run.upload(&noTieIds, 1, "tie ids");
    flags = run.allocate<cl_int>(4, "validation flags");
    run.fill(flags, std::numeric_limits<cl_int>::max(), "validation flags");
    run.call({ program, "longest_edges" }, in.count(), "longest edges", in.mesh.points(), in.triangles.connectivity,
      in.slotEdge(), in.edges.neighbor(), tieIds, static_cast<cl_int>(useTieIds), static_cast<cl_int>(in.count()),
      longest, flags);
  }
  rejectBadTriangles(run, in, flags, checkForSeams);
  return longest;
}

// Step 3: the marked triangles' longest edges, the roots of the dependency forest.
void dependencyForest(DeviceRun& run, const PassInput& in, const DeviceBuffer<cl_int>& marked,
  std::size_t markedCount, const DeviceBuffer<cl_uchar>& longest, Divisions& d)
{
  const Label label(run, "step 3 dependency forest");
  run.fill(d.dividedBits, cl_uint(0), "division marks");
  run.fill(d.markedBits, cl_uint(0), "marked flags");
  run.fill(d.dividedCounter, cl_int(0), "counters");
  run.fill(d.affectedCounter, cl_int(0), "counters");
  run.fill(d.markedCounter, cl_int(0), "counters");
  run.call({ program, "dependency_roots" }, markedCount, "dependency roots", marked,
    static_cast<cl_int>(markedCount), in.slotEdge(), longest, d.dividedBits, d.divided, d.dividedCounter,
    d.markedBits);
}

// Step 4: from the roots along the longest-edge chains (and across processes when distributed).
void propagation(DeviceRun& run, const PassInput& in, const DeviceBuffer<cl_uchar>& longest,
  const DistributedRefinement* distributed, Divisions& d, bool& closureOver)
{
  const Label label(run, "step 4 propagation");
  cl_int roots = 0;
  run.download(d.dividedCounter, &roots, 1, "roots");
  run.call({ program, "propagate" }, static_cast<std::size_t>(roots), "propagate", roots, in.edges.neighbor(),
    in.slotEdge(), longest, d.dividedBits, d.divided, d.dividedCounter);
  run.download(d.dividedCounter, &d.dividedCount, 1, "divided edges");
  if (distributed)
  {
    d.dividedCount = crossProcesses(run, *distributed, in.edges, longest, d.dividedBits, d.divided,
      d.dividedCounter, d.dividedCount, closureOver);
  }
}

// Step 5: how many children each triangle gets (packed 2-bit counters), and which are affected.
void countChildren(DeviceRun& run, const PassInput& in, Divisions& d, DeviceBuffer<cl_uint>& packedChildren,
  DeviceBuffer<cl_int>& affected)
{
  const Label label(run, "step 5 counts");
  run.fill(packedChildren, cl_uint(0), "children counts");
  run.call({ program, "count_children" }, static_cast<std::size_t>(d.dividedCount), "count children", d.divided,
    d.dividedCount, in.edges.neighbor(), packedChildren, affected, d.affectedCounter);
}

// Step 6: where each word of new points and of appended triangles starts.
void prefixSums(DeviceRun& run, const Divisions& d, const DeviceBuffer<cl_uint>& packedChildren,
  DeviceBuffer<cl_uint>& pointWordOffsets, DeviceBuffer<cl_uint>& childWordOffsets, Pass& pass)
{
  const Label label(run, "step 6 prefix sums");
  const std::size_t edgeWords = d.dividedBits.size();
  const std::size_t childWords = packedChildren.size();
  DeviceBuffer<cl_uint> totals = run.allocate<cl_uint>(std::max(edgeWords, childWords), "word totals");
  run.call({ program, "word_bit_counts" }, edgeWords, "word counts", d.dividedBits, static_cast<cl_int>(edgeWords),
    totals);
  pass.newPointCount = exclusiveScan(run, totals, edgeWords, pointWordOffsets, "new points");
  run.call({ program, "word_field_sums" }, childWords, "word counts", packedChildren,
    static_cast<cl_int>(childWords), totals);
  pass.appendedCount = exclusiveScan(run, totals, childWords, childWordOffsets, "refined triangles");
}

// Step 7: the new points, and every affected triangle replaced by its children.
void applyTemplates(DeviceRun& run, DeviceMesh& mesh, const PassInput& in, const DeviceBuffer<cl_uchar>& longest,
  Divisions& d, const DeviceBuffer<cl_uint>& packedChildren, const DeviceBuffer<cl_uint>& pointWordOffsets,
  const DeviceBuffer<cl_uint>& childWordOffsets, const DeviceBuffer<cl_int>& affected,
  const DeviceBuffer<cl_int>& parentIn, Pass& pass)
{
  const Label label(run, "step 7 templates");
  run.call({ program, "new_points" }, static_cast<std::size_t>(d.dividedCount), "new points", mesh.points(),
    in.triangles.connectivity, d.divided, d.dividedCount, in.slotEdge(), d.dividedBits, pointWordOffsets,
    pass.newPoints, pass.pointParents);

  cl_int affectedCount = 0;
  run.download(d.affectedCounter, &affectedCount, 1, "affected triangles");
  auto flags = run.allocate<cl_int>(4, "template flags");
  run.fill(flags, std::numeric_limits<cl_int>::max(), "template flags");
  const auto n = static_cast<cl_int>(in.count());
  const auto oldPoints = static_cast<cl_int>(mesh.pointCount());
  pass.kept = mesh.takeConnectivity(); // refined in place: each triangle becomes its first child
  run.call({ program, "apply_templates" }, static_cast<std::size_t>(affectedCount), "templates", affected,
    affectedCount, pass.kept, in.slotEdge(), longest, d.dividedBits, pointWordOffsets, packedChildren,
    childWordOffsets, d.markedBits, parentIn, static_cast<cl_int>(parentIn.empty()), n, oldPoints,
    pass.appended, pass.appendedParent, pass.marked, d.markedCounter, flags);
  const auto bad = downloadFlags(run, flags);
  if (bad[2] != std::numeric_limits<cl_int>::max())
  {
    throw Error("Internal error: cell " + std::to_string(bad[2]) +
      " has a bisected edge but an intact longest edge; no mesh was written");
  }
  cl_int nextMarked = 0;
  run.download(d.markedCounter, &nextMarked, 1, "next marks");
  pass.markedCount = static_cast<std::size_t>(nextMarked);
}

Pass refinePass(DeviceRun& run, DeviceMesh& mesh, const DeviceBuffer<cl_int>& marked,
  std::size_t markedCount, const DeviceBuffer<cl_int>& parentIn, bool checkForSeams,
  const DistributedRefinement* distributed, bool& closureOver)
{
  std::optional<CellEntities> edges;
  {
    // Only each slot's edge and neighbour: the kernels read an edge's ends from the triangles.
    const Label label(run, "edge extraction");
    edges.emplace(run, mesh, EntityType::Sides, AccessPattern::Auto, SlotNeighbors::Only);
  }
  const PassInput in{ mesh, mesh.groups().front(), *edges };
  const std::size_t count = in.count();
  const auto oldPoints = static_cast<std::size_t>(mesh.pointCount());

  const DeviceBuffer<cl_uchar> longest = longestEdges(run, in, distributed, checkForSeams);

  // Steps 3-5 and 7 touch only the marked triangles and what their refinement reaches.
  Divisions d(run, edges->entityCount(), count);
  dependencyForest(run, in, marked, markedCount, longest, d);
  propagation(run, in, longest, distributed, d, closureOver);
  const std::size_t childWords = (count + 15) / 16;
  DeviceBuffer<cl_uint> packedChildren = run.allocate<cl_uint>(childWords, "children counts");
  DeviceBuffer<cl_int> affected = run.allocate<cl_int>(
    std::min<std::size_t>(count, 2 * static_cast<std::size_t>(d.dividedCount)), "affected triangles");
  countChildren(run, in, d, packedChildren, affected);

  Pass pass;
  DeviceBuffer<cl_uint> pointWordOffsets = run.allocate<cl_uint>(d.dividedBits.size() + 1, "new point offsets");
  DeviceBuffer<cl_uint> childWordOffsets = run.allocate<cl_uint>(childWords + 1, "child offsets");
  prefixSums(run, d, packedChildren, pointWordOffsets, childWordOffsets, pass);
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
  applyTemplates(run, mesh, in, longest, d, packedChildren, pointWordOffsets, childWordOffsets, affected,
    parentIn, pass);
  return pass;
}
} // namespace

RefinedSimplices refineLongestEdges(DeviceRun& run, DeviceMesh mesh, const std::vector<cl_int>& marked,
  int passes, const DistributedRefinement* distributed)
{
  MarkedCells roots = distinctMarks(
    run, marked, static_cast<std::size_t>(mesh.cellCount()), "triangle", "triangles", distributed);
  return refineLongestEdges(run, std::move(mesh), std::move(roots), passes, distributed);
}

RefinedSimplices refineLongestEdges(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes,
  const DistributedRefinement* distributed)
{
  return refineInPasses(run, std::move(mesh), std::move(marked), passes, CellKind::Triangle,
    "Longest-edge refinement", distributed,
    [&](DeviceMesh& current, const DeviceBuffer<cl_int>& markedIds, std::size_t markedCount,
      const DeviceBuffer<cl_int>& parent, bool firstPass, const DistributedRefinement* passDistributed,
      bool& closureOver) {
      return refinePass(run, current, markedIds, markedCount, parent, firstPass, passDistributed, closureOver);
    });
}

} // namespace gpumesh
