#include "gpumesh/algorithms/refinement/RefinementPasses.h"

#include "gpumesh/mesh/RepeatedPoints.h"

#include <algorithm>

namespace gpumesh
{

namespace
{
// After this process failed before the closure ended: answers the other processes' exchange
// rounds, reporting the failure, until they stop. Nothing for one process.
void releaseWaitingProcesses(const DistributedRefinement* distributed, bool closureOver)
{
  std::vector<cl_int> forced;
  while (distributed && !closureOver && distributed->exchange({}, forced, true))
  {
  }
}

RefinedSimplices runPasses(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes, CellKind kind,
  const std::string& what, const DistributedRefinement* distributed, bool& closureOver, const RefinePass& refinePass)
{
  if (passes < 1)
  {
    throw Error("Passes must be at least 1 (got " + std::to_string(passes) + ")");
  }
  if (distributed && passes != 1)
  {
    throw Error("A distributed mesh is refined one pass at a time (Passes is " + std::to_string(passes) + ")");
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
    std::vector<cl_int> forced;
    while (distributed && distributed->exchange({}, forced, false))
    {
    }
    closureOver = true;
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
  for (int p = 0;; ++p)
  {
    RefinementPass pass = refinePass(mesh, markedOnDevice, markedCount, parent, p == 0, closureOver);
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
  bool closureOver = false;
  try
  {
    return runPasses(run, std::move(mesh), std::move(marked), passes, kind, what, distributed, closureOver, refinePass);
  }
  catch (...)
  {
    // Failed before the closure ended: the other processes wait in an exchange.
    releaseWaitingProcesses(distributed, closureOver);
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
    releaseWaitingProcesses(distributed, false);
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

} // namespace gpumesh
