#include "gpumesh/algorithms/refinement/TetraRefinement.h"

#include "gpumesh/algorithms/refinement/RefinementPasses.h"
#include "gpumesh/primitives/Scan.h"
#include "gpumesh/topology/CellEntities.h"
#include "gpumesh/topology/SeamCheck.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

namespace gpumesh
{

namespace
{
constexpr const char* program = "tetra_refinement";
using Label = DeviceRun::ScopedLabel;
constexpr cl_int none = std::numeric_limits<cl_int>::max();

// One refinement pass over the tetrahedra of `mesh`.
using Pass = RefinementPass;

// The edges of the tetrahedra, their squared lengths, and the edge order's tie ids (none for
// one process).
struct Edges
{
  CellEntities entities;
  RealBuffer length2;
  DeviceBuffer<cl_long> tieIds;
  cl_int useTieIds = 0;
};

std::array<cl_int, 4> downloadFlags(DeviceRun& run, const DeviceBuffer<cl_int>& flags)
{
  std::array<cl_int, 4> host{};
  run.download(flags, host.data(), flags.size(), "validation flags");
  return host;
}

Edges edgeLengths(DeviceRun& run, const DeviceMesh& mesh, const DistributedRefinement* distributed)
{
  std::optional<CellEntities> entities;
  {
    const Label label(run, "edge extraction");
    // The refinement never reads the slots' cells and neighbours.
    entities.emplace(run, mesh, EntityType::Edges, AccessPattern::Auto, SlotNeighbors::LeftOut);
  }
  const std::size_t edgeCount = entities->entityCount();
  RealBuffer length2 = run.allocateReal(edgeCount, "edge lengths");
  {
    const Label label(run, "step 1 edge lengths");
    run.call({ program, "edge_lengths" }, edgeCount, "edge lengths", mesh.points(),
      entities->entityVertices(), static_cast<cl_int>(edgeCount), length2);
  }
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  const bool useTieIds = distributed && !distributed->tieIds.empty();
  if (useTieIds && distributed->tieIds.size() != points)
  {
    throw Error("Refinement got " + std::to_string(distributed->tieIds.size()) + " tie ids for " +
      std::to_string(points) + " points");
  }
  const cl_long noTieIds = 0;
  DeviceBuffer<cl_long> tieIds =
    useTieIds ? run.upload(distributed->tieIds.data(), points, "tie ids") : run.upload(&noTieIds, 1, "tie ids");
  return Edges{ std::move(*entities), std::move(length2), std::move(tieIds), cl_int(useTieIds ? 1 : 0) };
}

// Degenerate tetrahedra, lengths out of the precision's range; in the first pass also faces
// shared by more than two tetrahedra and seams (faces counted from the edges' runs).
void validate(DeviceRun& run, const DeviceMesh& mesh, const Edges& edges, bool firstPass)
{
  const Label label(run, "validation");
  const DeviceCellGroup& tetrahedra = mesh.groups().front();
  const CellEntities& entities = edges.entities;
  // Room for the boundary points of a typical mesh in one launch; a larger boundary retries once.
  std::size_t capacity = firstPass ? std::max<std::size_t>(4096, tetrahedra.count) : 1;
  std::vector<cl_int> boundary;
  std::array<cl_int, 4> bad{};
  for (int attempt = 0; attempt < 2; ++attempt)
  {
    auto flags = run.allocate<cl_int>(4, "validation flags");
    run.fill(flags, none, "validation flags");
    auto points = run.allocate<cl_int>(capacity, "boundary points");
    auto size = run.allocate<cl_int>(1, "boundary point count");
    run.fill(size, cl_int(0), "boundary point count");
    run.call({ program, "validate_tetrahedra" }, tetrahedra.count, "validate", CellArgs{ tetrahedra },
      mesh.points(), entities.slotEntity(), edges.length2, entities.sortedSlots(), entities.slotRun(),
      cl_int(firstPass ? 1 : 0), static_cast<cl_int>(capacity), points, size, flags);
    bad = downloadFlags(run, flags);
    cl_int found = 0;
    run.download(size, &found, 1, "boundary point count");
    if (static_cast<std::size_t>(found) <= capacity)
    {
      boundary.resize(static_cast<std::size_t>(found));
      run.download(points, boundary.data(), boundary.size(), "boundary points");
      break;
    }
    capacity = static_cast<std::size_t>(found);
  }
  if (bad[1] != none)
  {
    throw Error("Cell " + std::to_string(bad[1]) +
      " has a face shared by more than two tetrahedra (non-manifold): longest-edge bisection "
      "needs each face shared by at most two");
  }
  if (bad[3] != none)
  {
    throw Error("Cell " + std::to_string(bad[3]) + " has an edge whose squared length is outside the range of " +
      (run.precision() == Precision::Single
          ? std::string("single precision (it would compare as 0 or infinity): set Precision to Double")
          : std::string("double precision (it would compare as 0 or infinity): rescale the mesh")));
  }
  if (bad[0] != none)
  {
    throw Error("Cell " + std::to_string(bad[0]) +
      " is a degenerate tetrahedron (a zero-length edge or zero volume): remove or repair it before refining");
  }
  if (firstPass)
  {
    rejectSeams(run, mesh, std::move(boundary));
  }
}

// The closure of the marks, to a fixed point: returns the number of divided edges, listed (by
// one slot each) in `divided` and flagged in `dividedBits`. With `distributed`, each time the
// closure is still here, the newly divided slots go to the other processes and the edges they
// force start further rounds, until no process divides a new cut edge.
cl_int closure(DeviceRun& run, const Edges& edges, const DeviceBuffer<cl_int>& marked, std::size_t markedCount,
  DeviceBuffer<cl_uint>& markedBits, DeviceBuffer<cl_uint>& dividedBits, DeviceBuffer<cl_int>& divided,
  const DistributedRefinement* distributed, bool& closureOver)
{
  const Label label(run, "step 2 closure");
  const CellEntities& entities = edges.entities;
  const std::size_t edgeCount = entities.entityCount();
  DeviceBuffer<cl_int> dividedCounter = run.allocate<cl_int>(1, "divided edge count");
  run.fill(dividedBits, cl_uint(0), "division marks");
  run.fill(markedBits, cl_uint(0), "marked flags");
  run.fill(dividedCounter, cl_int(0), "counters");
  run.call({ program, "closure_roots" }, markedCount, "closure roots", marked, static_cast<cl_int>(markedCount),
    entities.slotEntity(), edges.length2, entities.entityVertices(), edges.tieIds, edges.useTieIds, markedBits,
    dividedBits, divided, dividedCounter);
  cl_int frontierCount = 0;
  run.download(dividedCounter, &frontierCount, 1, "closure roots");
  // Rounds go on from the edges that did not fit a work-item's private stack; usually one.
  BoundKernel round = run.bind({ program, "closure_round" }, 4, entities.slotEntity(), edges.length2,
    entities.entityVertices(), edges.tieIds, edges.useTieIds, entities.sortedSlots(), entities.slotRun(),
    dividedBits, divided, dividedCounter);
  DeviceBuffer<cl_int> pendingCounter = run.allocate<cl_int>(1, "pending edge count");
  std::optional<DeviceBuffer<cl_int>> frontier, pending;
  const DeviceBuffer<cl_int>* from = &divided;
  std::optional<CutDivisions> cut; // the first time the closure is here
  cl_int reported = 0;
  std::vector<cl_int> forced;
  for (;;)
  {
    while (frontierCount > 0)
    {
      if (!pending)
      {
        pending.emplace(run.allocate<cl_int>(edgeCount, "pending edges"));
      }
      run.fill(pendingCounter, cl_int(0), "counters");
      run.call(round, static_cast<std::size_t>(frontierCount), "closure round", *from, frontierCount, *pending,
        pendingCounter);
      run.download(pendingCounter, &frontierCount, 1, "pending edges");
      std::swap(frontier, pending);
      from = &*frontier;
    }
    cl_int dividedCount = 0;
    run.download(dividedCounter, &dividedCount, 1, "divided edges");
    if (!distributed)
    {
      return dividedCount;
    }
    if (!cut)
      cut.emplace(run, program, entities.slotCount(), distributed->cutSlots());
    const std::vector<cl_int> newly = cut->among(divided, reported, dividedCount);
    reported = dividedCount;
    forced.clear();
    if (!distributed->exchange(newly, forced, false))
    {
      closureOver = true;
      return dividedCount;
    }
    if (forced.empty())
    {
      continue;
    }
    // The forced edges are claimed here; those new to this process start the next rounds.
    if (!frontier)
    {
      frontier.emplace(run.allocate<cl_int>(edgeCount, "pending edges"));
    }
    const DeviceBuffer<cl_int> slots = run.upload(forced.data(), forced.size(), "forced edges");
    run.fill(pendingCounter, cl_int(0), "counters");
    run.call({ program, "force_slots" }, forced.size(), "force edges", slots, static_cast<cl_int>(forced.size()),
      entities.slotEntity(), dividedBits, divided, dividedCounter, *frontier, pendingCounter);
    run.download(pendingCounter, &frontierCount, 1, "forced edges");
    from = &*frontier;
  }
}

Pass refinePass(DeviceRun& run, DeviceMesh& mesh, const DeviceBuffer<cl_int>& marked, std::size_t markedCount,
  const DeviceBuffer<cl_int>& parentIn, bool firstPass, const DistributedRefinement* distributed, bool& closureOver)
{
  const std::size_t count = mesh.groups().front().count;
  const auto oldPoints = static_cast<std::size_t>(mesh.pointCount());
  const Edges edges = edgeLengths(run, mesh, distributed);
  validate(run, mesh, edges, firstPass);
  const CellEntities& entities = edges.entities;
  const std::size_t edgeCount = entities.entityCount();
  const DeviceBuffer<cl_int>& slotEdge = entities.slotEntity();

  const std::size_t edgeWords = (edgeCount + 31) / 32;
  const std::size_t cellWords = (count + 31) / 32;
  const std::size_t childWords = (count + 7) / 8;
  DeviceBuffer<cl_uint> dividedBits = run.allocate<cl_uint>(edgeWords, "division marks");
  DeviceBuffer<cl_uint> markedBits = run.allocate<cl_uint>(cellWords, "marked flags");
  DeviceBuffer<cl_int> divided = run.allocate<cl_int>(edgeCount, "divided edges");
  const cl_int dividedCount =
    closure(run, edges, marked, markedCount, markedBits, dividedBits, divided, distributed, closureOver);

  DeviceBuffer<cl_uint> packedChildren = run.allocate<cl_uint>(childWords, "children counts");
  DeviceBuffer<cl_int> affected = run.allocate<cl_int>(count, "affected tetrahedra");
  DeviceBuffer<cl_int> affectedCounter = run.allocate<cl_int>(1, "affected tetrahedron count");
  cl_int affectedCount = 0;
  {
    const Label label(run, "step 3 counts");
    DeviceBuffer<cl_uint> affectedBits = run.allocate<cl_uint>(cellWords, "affected flags");
    run.fill(affectedBits, cl_uint(0), "affected flags");
    run.fill(packedChildren, cl_uint(0), "children counts");
    run.fill(affectedCounter, cl_int(0), "counters");
    auto flags = run.allocate<cl_int>(4, "template flags");
    run.fill(flags, none, "template flags");
    run.call({ program, "count_children" }, static_cast<std::size_t>(dividedCount), "count children", divided,
      dividedCount, slotEdge, edges.length2, entities.entityVertices(), edges.tieIds, edges.useTieIds,
      mesh.groups().front().connectivity, entities.sortedSlots(), entities.slotRun(), dividedBits, affectedBits,
      affected, affectedCounter, packedChildren, flags);
    const auto bad = downloadFlags(run, flags);
    if (bad[2] != none)
    {
      throw Error("Internal error: cell " + std::to_string(bad[2]) +
        " has a divided edge but an intact longest edge after the closure; no mesh was written");
    }
    run.download(affectedCounter, &affectedCount, 1, "affected tetrahedra");
  }

  Pass pass;
  DeviceBuffer<cl_uint> pointWordOffsets = run.allocate<cl_uint>(edgeWords + 1, "new point offsets");
  DeviceBuffer<cl_uint> childWordOffsets = run.allocate<cl_uint>(childWords + 1, "child offsets");
  {
    const Label label(run, "step 4 prefix sums");
    DeviceBuffer<cl_uint> totals = run.allocate<cl_uint>(std::max(edgeWords, childWords), "word totals");
    run.call({ program, "word_bit_counts" }, edgeWords, "word counts", dividedBits, static_cast<cl_int>(edgeWords),
      totals);
    pass.newPointCount = exclusiveScan(run, totals, edgeWords, pointWordOffsets, "new points");
    run.call({ program, "word_nibble_sums" }, childWords, "word counts", packedChildren,
      static_cast<cl_int>(childWords), totals);
    pass.appendedCount = exclusiveScan(run, totals, childWords, childWordOffsets, "refined tetrahedra");
  }
  pass.keptCount = count;
  pass.pointCount = oldPoints + pass.newPointCount;
  const std::size_t total = count + pass.appendedCount;
  if (pass.pointCount > static_cast<std::size_t>(std::numeric_limits<cl_int>::max()) ||
    4 * total > static_cast<std::size_t>(std::numeric_limits<cl_int>::max()))
  {
    throw Error("The refined mesh would have " + std::to_string(pass.pointCount) + " points and " +
      std::to_string(total) + " tetrahedra, beyond the device's 32-bit indices");
  }

  pass.newPoints = run.allocateReal(3 * pass.newPointCount, "new points");
  pass.pointParents = run.allocate<cl_int2>(pass.newPointCount, "point parents");
  pass.appended = run.allocate<cl_int>(4 * pass.appendedCount, "appended tetrahedra");
  pass.appendedParent = run.allocate<cl_int>(pass.appendedCount, "appended parents");
  pass.marked = run.allocate<cl_int>(8 * markedCount, "next marks");
  {
    const Label label(run, "step 5 templates");
    run.call({ program, "new_points" }, static_cast<std::size_t>(dividedCount), "new points", mesh.points(),
      entities.entityVertices(), divided, dividedCount, slotEdge, dividedBits, pointWordOffsets, pass.newPoints,
      pass.pointParents);
    DeviceBuffer<cl_int> markedCounter = run.allocate<cl_int>(1, "next mark count");
    run.fill(markedCounter, cl_int(0), "counters");
    pass.kept = mesh.takeConnectivity(); // refined in place: each tetrahedron becomes its first child
    run.call({ program, "apply_templates" }, static_cast<std::size_t>(affectedCount), "templates", affected,
      affectedCount, slotEdge, edges.length2, entities.entityVertices(), edges.tieIds, edges.useTieIds, pass.kept,
      dividedBits, pointWordOffsets, packedChildren, childWordOffsets, markedBits, parentIn,
      static_cast<cl_int>(parentIn.empty()), static_cast<cl_int>(count), static_cast<cl_int>(oldPoints),
      pass.appended, pass.appendedParent, pass.marked, markedCounter);
    cl_int nextMarked = 0;
    run.download(markedCounter, &nextMarked, 1, "next marks");
    pass.markedCount = static_cast<std::size_t>(nextMarked);
  }
  return pass;
}
} // namespace

RefinedSimplices refineTetrahedra(DeviceRun& run, DeviceMesh mesh, const std::vector<cl_int>& marked, int passes,
  const DistributedRefinement* distributed)
{
  MarkedCells roots = distinctMarks(
    run, marked, static_cast<std::size_t>(mesh.cellCount()), "tetrahedron", "tetrahedra", distributed);
  return refineTetrahedra(run, std::move(mesh), std::move(roots), passes, distributed);
}

RefinedSimplices refineTetrahedra(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes,
  const DistributedRefinement* distributed)
{
  return refineInPasses(run, std::move(mesh), std::move(marked), passes, CellKind::Tetra,
    "Tetrahedron refinement", distributed,
    [&](DeviceMesh& current, const DeviceBuffer<cl_int>& markedIds, std::size_t markedCount,
      const DeviceBuffer<cl_int>& parent, bool firstPass, const DistributedRefinement* passDistributed,
      bool& closureOver) {
      return refinePass(run, current, markedIds, markedCount, parent, firstPass, passDistributed, closureOver);
    });
}

} // namespace gpumesh
