#include "gpumesh/algorithms/refinement/RefinementPasses.h"

#include "gpumesh/mesh/RepeatedPoints.h"
#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

namespace gpumesh
{

namespace
{
// What the other processes may wait for, should this one fail.
struct Collective
{
  bool closureOver = false;   // this pass's closure ended on every process
  bool nextPassAhead = false; // after this pass, the processes meet in distributed->nextPass
};

// After this process failed: answers what the other processes wait for, reporting the failure
// (the closure's exchange rounds until they stop, or the next pass). Nothing for one process.
void releaseWaitingProcesses(const DistributedRefinement* distributed, const Collective& at)
{
  if (!distributed)
  {
    return;
  }
  if (!at.closureOver)
  {
    std::vector<cl_int> forced;
    while (distributed->exchange({}, forced, true))
    {
    }
  }
  else if (at.nextPassAhead)
  {
    distributed->nextPass(nullptr, {}, true);
  }
}

// Between two passes: the processes meet in nextPass, and the next pass's closure lies ahead.
void meetForNextPass(
  const DistributedRefinement& distributed, const DeviceMesh& next, const std::vector<cl_int2>& parents, Collective& at)
{
  at.nextPassAhead = false; // from here nextPass tells the others itself
  distributed.nextPass(&next, parents, false);
  at.closureOver = false;
}

// The tie ids of the points a pass added, the midpoints of `parents`: after every older point,
// in the order of their parents' (smaller, larger) tie ids. A serial run numbers its new points
// so (in edge order, edges by their sorted point ids): when the tie ids order a process's
// points as the serial point ids do, the new ones do too, and every cell breaks ties as in
// serial, pass after pass. Local to the process: only the order of each cell's points counts,
// and a cell's points order the same way on every process holding them.
void appendTieIdsOfNewPoints(HostVector<cl_long>& tieIds, const std::vector<cl_int2>& parents)
{
  const cl_long first = tieIds.empty() ? 0 : *std::max_element(tieIds.begin(), tieIds.end()) + 1;
  std::vector<std::pair<std::pair<cl_long, cl_long>, std::size_t>> order(parents.size());
  for (std::size_t i = 0; i < parents.size(); ++i)
  {
    const cl_long a = tieIds[static_cast<std::size_t>(parents[i].s[0])];
    const cl_long b = tieIds[static_cast<std::size_t>(parents[i].s[1])];
    order[i] = { { std::min(a, b), std::max(a, b) }, i };
  }
  std::sort(order.begin(), order.end());
  const std::size_t old = tieIds.size();
  tieIds.resize(old + parents.size());
  for (std::size_t rank = 0; rank < order.size(); ++rank)
    tieIds[old + order[rank].second] = first + static_cast<cl_long>(rank);
}

RefinedSimplices runPasses(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes, CellKind kind,
  const std::string& what, const DistributedRefinement* distributed, Collective& at, const RefinePass& refinePass)
{
  if (passes < 1)
  {
    throw Error("Passes must be at least 1 (got " + std::to_string(passes) + ")");
  }
  const auto& groups = mesh.groups();
  if (groups.size() > 1 || (!groups.empty() && groups.front().kind != kind) ||
    (!groups.empty() && static_cast<std::int64_t>(groups.front().count) != mesh.cellCount()))
  {
    throw Error(what + " needs a mesh of " + cellKindName(kind) + " cells only");
  }
  RefinedSimplices result;
  result.kind = kind;
  result.markedCount = marked.count;
  result.pointCount = static_cast<std::size_t>(mesh.pointCount());
  result.origin = mesh.origin();
  if (mesh.cellCount() == 0)
  {
    // Nothing to refine, but the other processes meet this one in every pass.
    for (int p = 0; distributed && p < passes; ++p)
    {
      at.nextPassAhead = p + 1 < passes;
      std::vector<cl_int> forced;
      while (distributed->exchange({}, forced, false))
      {
      }
      at.closureOver = true;
      if (p + 1 < passes)
      {
        meetForNextPass(*distributed, mesh, {}, at);
      }
    }
    at.closureOver = true;
    return result;
  }
  {
    // Before edge matching: a triangle (5, 5, 7) would pass for the non-manifold neighbour.
    const DeviceRun::ScopedLabel label(run, "validation");
    rejectRepeatedPoints(run, mesh, "longest-edge refinement");
  }

  const std::size_t vertices = static_cast<std::size_t>(fixedVertexCount(kind));
  DeviceBuffer<cl_int> markedOnDevice = std::move(marked.ids);
  std::size_t markedCount = marked.count;
  DeviceBuffer<cl_int> parent; // empty: each cell is its own parent (first pass)
  std::vector<DeviceBuffer<cl_int2>> parentsPerPass;
  std::vector<RealBuffer> pointsPerPass;
  std::vector<std::size_t> newPointsPerPass;
  std::optional<DistributedRefinement> later; // from the second pass: the new points' tie ids too
  const DistributedRefinement* current = distributed;
  for (int p = 0;; ++p)
  {
    at.nextPassAhead = distributed && p + 1 < passes;
    RefinementPass pass = refinePass(mesh, markedOnDevice, markedCount, parent, p == 0, current, at.closureOver);
    parentsPerPass.push_back(std::move(pass.pointParents));
    newPointsPerPass.push_back(pass.newPointCount);
    if (p + 1 == passes)
    {
      pointsPerPass.push_back(std::move(pass.newPoints));
      result.pointCount = pass.pointCount;
      result.keptCount = pass.keptCount;
      result.cellCount = pass.keptCount + pass.appendedCount;
      result.kept = std::move(pass.kept);
      result.appended = std::move(pass.appended);
      result.keptParent = std::move(parent);
      result.appendedParent = std::move(pass.appendedParent);
      break;
    }
    // The next pass refines the whole refined mesh: join kept and appended, old and new.
    const std::size_t oldPoints = static_cast<std::size_t>(mesh.pointCount());
    const std::size_t cells = pass.keptCount + pass.appendedCount;
    auto points = run.allocateReal(3 * pass.pointCount, "refined points");
    run.copyReal(mesh.points(), points, 3 * oldPoints, "points");
    run.copyReal(pass.newPoints, points, 3 * pass.newPointCount, "new points", 3 * oldPoints);
    pointsPerPass.push_back(std::move(pass.newPoints));
    auto connectivity = run.allocate<cl_int>(vertices * cells, "refined cells");
    run.copy(pass.kept, connectivity, vertices * pass.keptCount, "cells");
    run.copy(pass.appended, connectivity, vertices * pass.appendedCount, "appended cells", vertices * pass.keptCount);
    auto joinedParent = run.allocate<cl_int>(cells, "parent cells");
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
    mesh = DeviceMesh(run, std::move(points), pass.pointCount, kind, std::move(connectivity), cells, origin);
    if (distributed)
    {
      std::vector<cl_int2> parents(pass.newPointCount);
      run.download(parentsPerPass.back(), parents.data(), parents.size(), "point parents");
      if (!later)
      {
        later = *distributed;
      }
      if (!later->tieIds.empty())
      {
        appendTieIdsOfNewPoints(later->tieIds, parents);
      }
      current = &*later;
      meetForNextPass(*distributed, mesh, parents, at);
    }
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

RefinedSimplices refineInPasses(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes, CellKind kind,
  const std::string& what, const DistributedRefinement* distributed, const RefinePass& refinePass)
{
  Collective at;
  try
  {
    return runPasses(run, std::move(mesh), std::move(marked), passes, kind, what, distributed, at, refinePass);
  }
  catch (...)
  {
    releaseWaitingProcesses(distributed, at);
    throw;
  }
}

MarkedCells distinctMarks(DeviceRun& run, const std::vector<cl_int>& marked, std::size_t count,
  const std::string& cell, const std::string& cells, const DistributedRefinement* distributed)
{
  std::vector<cl_int> roots(marked);
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  if (!roots.empty() && (roots.front() < 0 || static_cast<std::size_t>(roots.back()) >= count))
  {
    releaseWaitingProcesses(distributed, Collective{});
    throw Error("Marked " + cell + " " + std::to_string(roots.front() < 0 ? roots.front() : roots.back()) +
      " is outside the mesh's " + std::to_string(count) + " " + cells);
  }
  DeviceBuffer<cl_int> onDevice = run.upload(roots.data(), roots.size(), "marked " + cells);
  return MarkedCells{ std::move(onDevice), roots.size() };
}

void RefinedSimplices::download(DeviceRun& run, std::vector<cl_int>& cells, std::vector<cl_int>& parents) const
{
  const std::size_t vertices = verticesPerCell();
  cells.resize(vertices * cellCount);
  parents.resize(cellCount);
  run.download(kept, cells.data(), vertices * keptCount, "refined cells");
  run.download(appended, cells.data() + vertices * keptCount, vertices * (cellCount - keptCount), "appended cells");
  if (keptParent.empty())
  {
    for (std::size_t c = 0; c < keptCount; ++c)
      parents[c] = static_cast<cl_int>(c);
  }
  else
  {
    run.download(keptParent, parents.data(), keptCount, "parents");
  }
  run.download(appendedParent, parents.data() + keptCount, cellCount - keptCount, "appended parents");
}

CutDivisions::CutDivisions(
  DeviceRun& run, const std::string& program, std::size_t slotCount, const std::vector<cl_int>& cutSlots)
  : Run(run)
  , Program(program)
  , CutCount(cutSlots.size())
  , OnCut(run.allocate<cl_uchar>(slotCount, "cut slots"))
  , Kept(run.allocate<cl_int>(std::max<std::size_t>(1, cutSlots.size()), "divided cut slots"))
  , KeptCount(run.allocate<cl_int>(1, "divided cut slot count"))
{
  for (cl_int slot : cutSlots)
  {
    if (slot < 0 || static_cast<std::size_t>(slot) >= slotCount)
      throw Error("Internal error: cut slot " + std::to_string(slot) + " outside the pass's " +
        std::to_string(slotCount) + " slots");
  }
  run.fill(OnCut, cl_uchar(0), "cut slots");
  if (!cutSlots.empty())
  {
    const DeviceBuffer<cl_int> slots = run.upload(cutSlots.data(), cutSlots.size(), "cut slots");
    run.call({ program, "flag_cut_slots" }, cutSlots.size(), "cut slots", slots,
      static_cast<cl_int>(cutSlots.size()), OnCut);
  }
}

std::vector<cl_int> CutDivisions::among(const DeviceBuffer<cl_int>& divided, cl_int first, cl_int last)
{
  std::vector<cl_int> kept;
  if (last <= first || CutCount == 0)
    return kept;
  Run.fill(KeptCount, cl_int(0), "divided cut slot count");
  Run.call({ Program, "cut_divisions" }, static_cast<std::size_t>(last - first), "divided cut slots", divided, first,
    static_cast<cl_int>(last - first), OnCut, Kept, static_cast<cl_int>(Kept.size()), KeptCount);
  cl_int count = 0;
  Run.download(KeptCount, &count, 1, "divided cut slot count");
  if (static_cast<std::size_t>(count) > Kept.size())
    throw Error("Internal error: " + std::to_string(count) + " divided cut slots in one round, of " +
      std::to_string(CutCount) + " on the cut");
  kept.resize(static_cast<std::size_t>(count));
  if (count > 0)
    Run.download(Kept, kept.data(), kept.size(), "divided cut slots");
  std::sort(kept.begin(), kept.end()); // the device appended them in any order
  return kept;
}

} // namespace gpumesh
