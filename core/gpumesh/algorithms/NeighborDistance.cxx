#include "gpumesh/algorithms/NeighborDistance.h"

#include "gpumesh/mesh/RepeatedPoints.h"

namespace gpumesh
{

NeighborDistances computeNeighborDistances(DeviceRun& run, const DeviceMesh& mesh,
  const CellEntities& sides, const Centroids& centroids)
{
  if (sides.type() != EntityType::Sides)
  {
    throw Error("neighbour distances need the cells' sides, not their edges");
  }
  // A cell (5, 5, 7) would count its neighbour across (5, 7) twice, and be counted twice by it.
  rejectRepeatedPoints(run, mesh, "neighbour distance");
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  NeighborDistances result{ run.allocateReal(cells, "minimum neighbour distance"),
    run.allocateReal(cells, "maximum neighbour distance"),
    run.allocateReal(cells, "mean neighbour distance"),
    run.allocate<cl_int>(cells, "neighbour count") };
  run.call({ "neighbor_distance", "neighbor_distance" }, cells, "neighbour distance", mesh.points(),
    centroids.anchors, centroids.offsets, static_cast<cl_int>(cells), sides.slotOffsets(), sides.slotRun(),
    sides.sortedSlots(), sides.slotCell(), result.minimum, result.maximum, result.mean, result.count);
  return result;
}

} // namespace gpumesh
