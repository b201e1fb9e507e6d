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
    const auto count = static_cast<cl_int>(group.count);
    const int vertices = fixedVertexCount(group.kind);
    cl::Kernel kernel;
    if (vertices > 0)
    {
      kernel = run.kernel("neighbor_distance", "centroid_fixed");
      run.setArguments(kernel, mesh.points(), group.connectivity, static_cast<cl_int>(vertices),
        group.cellIds, count, centroids.anchors, centroids.offsets);
    }
    else
    {
      kernel = run.kernel("neighbor_distance", "centroid_variable");
      run.setArguments(kernel, mesh.points(), group.offsets, group.connectivity, group.cellIds,
        count, centroids.anchors, centroids.offsets);
    }
    run.launch(kernel, group.count, "centroids");
  }
  return centroids;
}

RealBuffer centroidCoordinates(DeviceRun& run, const DeviceMesh& mesh, const Centroids& centroids)
{
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  RealBuffer xyz = run.allocateReal(3 * cells, "centroid coordinates");
  cl::Kernel kernel = run.kernel("neighbor_distance", "centroid_coordinates");
  run.setArguments(kernel, mesh.points(), centroids.anchors, centroids.offsets, static_cast<cl_int>(cells), xyz);
  run.launch(kernel, cells, "centroid coordinates");
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
  cl::Kernel kernel = run.kernel("neighbor_distance", "neighbor_distance");
  run.setArguments(kernel, mesh.points(), centroids.anchors, centroids.offsets, static_cast<cl_int>(cells),
    sides.slotOffsets(), sides.slotRun(), sides.sortedSlots(), sides.slotCell(), result.minimum,
    result.maximum, result.mean, result.count);
  run.launch(kernel, cells, "neighbour distance");
  return result;
}

} // namespace gpumesh
