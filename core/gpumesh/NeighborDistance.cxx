#include "gpumesh/NeighborDistance.h"

#include "gpumesh/RepeatedPoints.h"

#include <limits>

namespace gpumesh
{

Centroids computeCentroids(DeviceRun& run, const DeviceMesh& mesh)
{
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  Centroids centroids{ run.allocate<cl_int>(cells, "centroid anchors"), run.allocateReal(4 * cells, "centroids") };
  run.fill(centroids.anchors, cl_int(-1), "centroid anchors");
  run.fillReal(centroids.offsets, std::numeric_limits<double>::quiet_NaN(), "centroids");
  for (const DeviceCellGroup& group : mesh.groups())
  {
    run.call({ "neighbor_distance", "centroid" }, group.count, "centroids", CellArgs{ group }, mesh.points(),
      centroids.anchors, centroids.offsets);
  }
  return centroids;
}

RealBuffer centroidCoordinates(DeviceRun& run, const DeviceMesh& mesh, const Centroids& centroids)
{
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  RealBuffer xyz = run.allocateReal(3 * cells, "centroid coordinates");
  run.call({ "neighbor_distance", "centroid_coordinates" }, cells, "centroid coordinates", mesh.points(),
    centroids.anchors, centroids.offsets, static_cast<cl_int>(cells), xyz);
  return xyz;
}

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
